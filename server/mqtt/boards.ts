// The broadcast service's picture of every board, built from what the tables publish: events
// applied in order and each at most once per (run, seq), a board that missed events re-synced
// from its state, the newer run of a restarted table winning over the older one's stragglers.
// No I/O: the service feeds it messages and hears what changed.
import { RECENT_EVENTS, type BoardRecord, type RecentEvent } from './messages.ts';
import { compareRuns, readPayload, parseTopic, type EventPayload, type Run, type StatePayload, type StatusPayload } from './topics.ts';
import type { RecordCorrection } from '../http/messages.ts';

/** What one message did. */
export type Outcome =
  | { readonly kind: 'applied'; readonly key: string; readonly event: EventPayload }
  | { readonly kind: 'synced'; readonly key: string }
  | { readonly kind: 'presence'; readonly key: string }
  /** Events are missing: the service should fetch the board's retained state. */
  | { readonly kind: 'gap'; readonly key: string; readonly site: string; readonly board: string }
  | { readonly kind: 'duplicate'; readonly key: string }
  /** Nothing new (an older run's straggler, a state no newer than the picture, or not one of ours). */
  | { readonly kind: 'ignored'; readonly key: string | null };

/** The book's own copy: the same fields, writable. */
type Entry = { -readonly [K in Exclude<keyof BoardRecord, 'counts'>]: BoardRecord[K] } & {
  readonly counts: { -readonly [K in keyof BoardRecord['counts']]: number };
};

export class BoardBook {
  private readonly boards = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): BoardRecord | undefined {
    return this.boards.get(key);
  }

  /** Every board, by site and board name. */
  all(): BoardRecord[] {
    return [...this.boards.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** One message from the broker. */
  receive(topic: string, bytes: Uint8Array | string): Outcome {
    const where = parseTopic(topic);
    if (!where) return { kind: 'ignored', key: null };
    const key = `${where.site}/${where.board}`;
    const read = readPayload(where.channel, bytes);
    if (!read) return { kind: 'ignored', key };
    const board = this.boards.get(key) ?? this.create(key, where.site, where.board);
    switch (read.channel) {
      case 'status':
        return this.status(board, read.payload);
      case 'state':
        return this.state(board, read.payload);
      case 'events':
        return this.event(board, read.payload);
    }
  }

  private create(key: string, site: string, board: string): Entry {
    const record: Entry = {
      key,
      site,
      board,
      presence: 'unknown',
      run: null,
      game: null,
      gameId: null,
      seq: -1,
      record: [],
      view: null,
      alerts: [],
      questions: 0,
      sensors: null,
      recent: [],
      resyncFrom: 0,
      counts: { applied: 0, duplicates: 0, gaps: 0, syncs: 0 },
      changedAt: this.now(),
    };
    this.boards.set(key, record);
    return record;
  }

  /** How a message's run compares with the board's: older ones are stragglers, newer ones restart the count. */
  private runOf(board: Entry, run: Run): 'older' | 'same' | 'newer' {
    if (!board.run) return 'newer';
    const c = compareRuns(run, board.run);
    return c < 0 ? 'older' : c > 0 ? 'newer' : 'same';
  }

  private startRun(board: Entry, run: Run): void {
    board.run = run;
    board.seq = -1;
    board.resyncFrom = 0;
    board.recent = [];
  }

  private status(board: Entry, payload: StatusPayload): Outcome {
    const order = this.runOf(board, payload.run);
    if (order === 'older') return { kind: 'ignored', key: board.key };
    if (order === 'newer') this.startRun(board, payload.run);
    if (payload.game) board.game = payload.game;
    if (board.presence === payload.status && order === 'same') return { kind: 'ignored', key: board.key };
    board.presence = payload.status;
    board.changedAt = this.now();
    return { kind: 'presence', key: board.key };
  }

  private state(board: Entry, payload: StatePayload): Outcome {
    const order = this.runOf(board, payload.run);
    if (order === 'older') return { kind: 'ignored', key: board.key };
    if (order === 'newer') this.startRun(board, payload.run);
    const { sync } = payload;
    // A state older than the picture (a retained one arriving late) would take it back in time.
    if (payload.seq < board.seq) return { kind: 'ignored', key: board.key };
    const moved = payload.seq > board.seq;
    const questions = sync.questions?.length ?? 0;
    const same =
      !moved &&
      JSON.stringify(sync.alerts) === JSON.stringify(board.alerts) &&
      questions === board.questions &&
      JSON.stringify(sync.board) === JSON.stringify(board.sensors);
    if (same) return { kind: 'ignored', key: board.key };
    if (moved) {
      board.seq = payload.seq;
      board.gameId = payload.gameId;
      board.record = sync.record;
      board.view = sync.view;
      board.game = sync.game;
      board.counts.syncs++;
      if (board.resyncFrom !== 0 && payload.seq >= board.resyncFrom) board.resyncFrom = 0;
    }
    board.alerts = sync.alerts;
    board.questions = questions;
    board.sensors = sync.board;
    // A table that publishes its state is there, whatever a late status said.
    if (board.presence === 'unknown') board.presence = 'online';
    board.changedAt = this.now();
    return { kind: 'synced', key: board.key };
  }

  private event(board: Entry, payload: EventPayload): Outcome {
    const order = this.runOf(board, payload.run);
    if (order === 'older') return { kind: 'ignored', key: board.key };
    if (order === 'newer') this.startRun(board, payload.run);
    if (payload.seq <= board.seq) {
      board.counts.duplicates++;
      return { kind: 'duplicate', key: board.key };
    }
    // A run's first event needs no state before it: like every event, it carries the whole record and view.
    const expected = board.seq < 0 ? 1 : board.seq + 1;
    if (payload.seq !== expected || board.resyncFrom !== 0) {
      // Something between is missing: only a state can say what the board looks like now. Later
      // events wait for it too.
      if (board.resyncFrom === 0) {
        board.resyncFrom = payload.seq;
        board.counts.gaps++;
        board.changedAt = this.now();
      }
      return { kind: 'gap', key: board.key, site: board.site, board: board.board };
    }
    const { update } = payload;
    board.seq = payload.seq;
    board.gameId = payload.gameId;
    board.record = update.record;
    board.view = update.view;
    board.game = update.view.game;
    board.counts.applied++;
    const recent: RecentEvent = {
      seq: payload.seq,
      gameId: payload.gameId,
      event: update.event,
      at: payload.at,
      ...(update.move !== undefined ? { move: update.move } : {}),
      ...(update.undone !== undefined ? { undone: update.undone } : {}),
      // From another table over the broker: only a well-formed correction is passed on to the pages.
      ...(isCorrection(update.correction) ? { correction: update.correction } : {}),
    };
    // A page follows the moves; the board settling is no news to it.
    if (update.event !== 'settled') board.recent = [...board.recent.slice(-(RECENT_EVENTS - 1)), recent];
    // The pieces moved: what the board said about them before is stale (the next state says it anew).
    if (update.event === 'new-game') board.alerts = [];
    board.changedAt = this.now();
    return { kind: 'applied', key: board.key, event: payload };
  }
}

function isCorrection(value: unknown): value is RecordCorrection {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  const moves = (m: unknown) => Array.isArray(m) && m.every((x) => typeof x === 'string');
  return Number.isSafeInteger(c.ply) && moves(c.old) && moves(c.new) && (c.reason === 'evidence' || c.reason === 'console');
}
