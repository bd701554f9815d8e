// What the broadcast service sends to the tournament pages over its WebSocket, and what /api/boards
// answers. The pages import these types only.
import type { Alert, BoardStatus, GameView, RecordCorrection, ServerMessage } from '../http/messages.ts';
import type { GameName } from '../rules/types.ts';
import type { Run } from './topics.ts';

export type { Run } from './topics.ts';

/** The last events kept per board, for the page that follows one board. */
export const RECENT_EVENTS = 12;

export interface RecentEvent {
  readonly seq: number;
  readonly gameId: number | null;
  readonly event: Extract<ServerMessage, { type: 'update' }>['event'];
  readonly move?: string;
  readonly undone?: readonly string[];
  /** What was corrected (event `correction`). */
  readonly correction?: RecordCorrection;
  /** The table's clock when it decided, ms. */
  readonly at: number;
}

/** One board as the tournament display shows it (and as `/api/boards` gives it). */
export interface BoardRecord {
  /** `<site>/<board>`. */
  readonly key: string;
  readonly site: string;
  readonly board: string;
  /** From the table's status: online, offline (its last will, or it said goodbye), or not heard yet. */
  readonly presence: 'online' | 'offline' | 'unknown';
  readonly run: Run | null;
  readonly game: GameName | null;
  readonly gameId: number | null;
  /** The last event this picture includes (the table's stateId); -1 before any state. */
  readonly seq: number;
  readonly record: readonly string[];
  readonly view: GameView | null;
  readonly alerts: readonly Alert[];
  /** Open questions for the referee console. */
  readonly questions: number;
  /** The sensors' link, as the table sees it. */
  readonly sensors: BoardStatus | null;
  readonly recent: readonly RecentEvent[];
  /** Events were missed; the board waits for a state at least this new. 0: not waiting. */
  readonly resyncFrom: number;
  readonly counts: {
    /** Events applied in order. */
    readonly applied: number;
    /** Events seen again (QoS 1 delivers at least once) and dropped. */
    readonly duplicates: number;
    /** Times events were missing and the board waited for a state. */
    readonly gaps: number;
    /** States that moved the picture on (after a gap, a restart of the table or the broadcast service). */
    readonly syncs: number;
  };
  /** When the broadcast service last changed this record (its own clock, ms). */
  readonly changedAt: number;
}

/** The broadcast service's own link to the broker. */
export interface BrokerState {
  readonly connected: boolean;
  /** The broker's address, without a password. */
  readonly url: string;
  /** Since when (the broadcast service's clock, ms). */
  readonly since: number;
}

export type BroadcastMessage =
  /** On connect: every board (or the one the page asked for with `?board=<site>/<board>`). */
  | { readonly type: 'boards'; readonly broker: BrokerState; readonly boards: readonly BoardRecord[] }
  /** One board changed. */
  | { readonly type: 'board'; readonly board: BoardRecord }
  | { readonly type: 'broker'; readonly broker: BrokerState };
