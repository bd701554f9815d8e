// The table as a page knows it: pure functions that fold the server's messages into one state.
import type { Alert, BoardStatus, GameView, ServerMessage } from '../../../server/http/messages.ts';

export type UpdateEvent = Extract<ServerMessage, { type: 'update' }>['event'];

export interface TableState {
  /** The newest state the server told us about; -1 until the first sync. */
  readonly stateId: number;
  readonly synced: boolean;
  readonly record: readonly string[];
  readonly view: GameView | null;
  readonly alerts: readonly Alert[];
  readonly board: BoardStatus | null;
  /** What the last update was, so a page can say "taken back: F d" once. */
  readonly lastEvent: { readonly event: UpdateEvent; readonly move?: string; readonly undone?: readonly string[] } | null;
}

export const EMPTY_TABLE: TableState = {
  stateId: -1,
  synced: false,
  record: [],
  view: null,
  alerts: [],
  board: null,
  lastEvent: null,
};

const MESSAGE_TYPES = new Set<string>(['sync', 'update', 'alert', 'alert-cleared', 'board']);

/** One WebSocket frame → a server message, or null for anything a page should not act on. */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, stateId } = value as { type?: unknown; stateId?: unknown };
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type)) return null;
  if (type !== 'board' && typeof stateId !== 'number') return null;
  return value as ServerMessage;
}

/**
 * Folds one message into the state. Returns the same object when the message changes nothing,
 * so the caller can skip a render.
 *
 * - `sync` replaces everything, whatever its stateId: it is the server's word after a (re)connect,
 *   and a restarted server may count from a lower number.
 * - `update` applies only when its stateId is newer than ours: a message that was already on its
 *   way when a sync was sent must not roll the board back.
 * - `alert` / `alert-cleared` belong to a state; one from before our state is stale. They do not
 *   move our stateId forward: whether the server counts an alert as a new state or not, the next
 *   update must still apply.
 * - `board` has no stateId: the newest status is the true one.
 */
export function applyMessage(state: TableState, message: ServerMessage): TableState {
  switch (message.type) {
    case 'sync':
      return {
        stateId: message.stateId,
        synced: true,
        record: message.record,
        view: message.view,
        alerts: message.alerts,
        board: message.board,
        lastEvent: null,
      };
    case 'update': {
      if (message.stateId <= state.stateId) return state;
      const lastEvent =
        message.event === 'takeback'
          ? { event: message.event, undone: message.undone ?? [] }
          : message.move !== undefined
            ? { event: message.event, move: message.move }
            : { event: message.event };
      return { ...state, stateId: message.stateId, record: message.record, view: message.view, lastEvent };
    }
    case 'alert': {
      if (message.stateId < state.stateId) return state;
      // The same id again replaces the old one (a mismatch whose cells changed).
      const others = state.alerts.filter((a) => a.id !== message.alert.id);
      return { ...state, alerts: [...others, message.alert] };
    }
    case 'alert-cleared': {
      if (message.stateId < state.stateId) return state;
      if (!state.alerts.some((a) => a.id === message.id)) return state;
      return { ...state, alerts: state.alerts.filter((a) => a.id !== message.id) };
    }
    case 'board':
      return { ...state, board: message.board };
    default:
      return assertNever(message);
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

/** Alerts the way a page lists them: errors first, then warnings, then notes; newest first within each. */
export function alertsByUrgency(alerts: readonly Alert[]): Alert[] {
  const rank = { error: 0, warn: 1, info: 2 } as const;
  return [...alerts].sort((a, b) => rank[a.level] - rank[b.level] || b.id - a.id);
}
