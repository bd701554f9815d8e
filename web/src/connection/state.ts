// The table as a page knows it: pure functions that fold the server's messages into one state.
import type { Alert, BoardStatus, GameView, Question, RecordCorrection, ServerMessage } from '../../../server/http/messages.ts';

export type UpdateEvent = Extract<ServerMessage, { type: 'update' }>['event'];

export interface TableState {
  /** The newest state the server told us about; -1 until the first sync. */
  readonly stateId: number;
  readonly synced: boolean;
  readonly record: readonly string[];
  readonly view: GameView | null;
  readonly alerts: readonly Alert[];
  readonly board: BoardStatus | null;
  /** Questions for the referee console that are still open, oldest first. */
  readonly questions: readonly Question[];
  /** The game's id in the game log (`/api/games/:id`), once the server names one; null before or without a log. */
  readonly gameId: number | null;
  /** What the last update was, so a page can say "taken back: F d" once. */
  readonly lastEvent: {
    readonly event: UpdateEvent;
    readonly move?: string;
    readonly assumed?: true;
    readonly undone?: readonly string[];
    readonly correction?: RecordCorrection;
  } | null;
  /**
   * The last correction of the record this page saw, kept through the moves after it (the display shows it for a
   * while); a new game or a sync forgets it. A new one is a new object.
   */
  readonly lastCorrection: RecordCorrection | null;
}

export const EMPTY_TABLE: TableState = {
  stateId: -1,
  synced: false,
  record: [],
  view: null,
  alerts: [],
  board: null,
  questions: [],
  gameId: null,
  lastEvent: null,
  lastCorrection: null,
};

const MESSAGE_TYPES = new Set<string>([
  'sync',
  'update',
  'alert',
  'alert-cleared',
  'board',
  'question',
  'question-closed',
  'command-result',
]);

/** One WebSocket frame → a server message, or null for anything a page should not act on. */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, stateId, ref, ok } = value as { type?: unknown; stateId?: unknown; ref?: unknown; ok?: unknown };
  if (typeof type !== 'string' || !MESSAGE_TYPES.has(type)) return null;
  // A board status and a command result belong to no state; a command result names our command instead.
  if (type === 'command-result') return typeof ref === 'number' && typeof ok === 'boolean' ? (value as ServerMessage) : null;
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
 * - `question` follows the alerts' rule: one asked about a state before ours is stale, and the
 *   server would refuse its answer anyway.
 * - `question-closed` applies whatever its stateId: it can only remove, and a question left open
 *   by mistake would invite the referee to answer it.
 * - `command-result` is an answer to this page's own command, not table state: the console's
 *   command log (commands.ts) takes it.
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
        questions: message.questions ?? [],
        gameId: message.gameId ?? null,
        lastEvent: null,
        lastCorrection: null,
      };
    case 'update': {
      if (message.stateId <= state.stateId) return state;
      const lastEvent =
        message.event === 'takeback'
          ? { event: message.event, undone: message.undone ?? [] }
          : message.event === 'correction' && message.correction
            ? { event: message.event, correction: message.correction }
            : message.move !== undefined
              ? { event: message.event, move: message.move, ...(message.assumed ? { assumed: true as const } : {}) }
              : { event: message.event };
      // A new game has no row in the log until its first move: its update names no id, and the old one no longer applies.
      const gameId = message.gameId ?? (message.event === 'new-game' ? null : state.gameId);
      const lastCorrection = lastEvent.correction ?? (message.event === 'new-game' ? null : state.lastCorrection);
      return { ...state, stateId: message.stateId, record: message.record, view: message.view, gameId, lastEvent, lastCorrection };
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
    case 'question': {
      if (message.stateId < state.stateId) return state;
      const others = state.questions.filter((q) => q.id !== message.question.id);
      return { ...state, questions: [...others, message.question] };
    }
    case 'question-closed':
      if (!state.questions.some((q) => q.id === message.id)) return state;
      return { ...state, questions: state.questions.filter((q) => q.id !== message.id) };
    case 'command-result':
      return state;
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
