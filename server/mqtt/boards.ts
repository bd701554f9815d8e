// The broadcast service's picture of every board, built from what the tables publish: each payload checked (and its
// signature, where the site has a key) before it counts; events applied in order and each at most once per
// (run, seq); a board that missed events re-synced from its state; a restarted table's newer run winning over the
// older one's stragglers; at most so many boards, and a board unheard for long forgotten.
// No I/O: the service feeds it messages and hears what changed.
import { RECENT_EVENTS, type BoardRecord, type RecentEvent } from './messages.ts';
import { compareRuns, readPayload, parseTopic, type EventPayload, type Run, type StatePayload, type StatusPayload } from './topics.ts';
import type { RecordCorrection } from '../http/messages.ts';
import { verify } from './signing.ts';

/** What one message did. */
export type Outcome =
  | { readonly kind: 'applied'; readonly key: string; readonly event: EventPayload }
  | { readonly kind: 'synced'; readonly key: string }
  | { readonly kind: 'presence'; readonly key: string }
  /** Events are missing: the service should fetch the board's retained state. */
  | { readonly kind: 'gap'; readonly key: string; readonly site: string; readonly board: string }
  | { readonly kind: 'duplicate'; readonly key: string }
  /** Nothing new (an older run's straggler, a state no newer than the picture, or not one of ours). */
  | { readonly kind: 'ignored'; readonly key: string | null }
  /** Dropped, and worth a line in the service's log: malformed, unsigned or badly signed, or no room for another board. */
  | { readonly kind: 'refused'; readonly key: string; readonly reason: string };

export interface BoardBookOptions {
  /** The service's clock, ms. */
  readonly now?: () => number;
  /** The most boards the book holds; a message for one more is refused until a board is forgotten (default 64). */
  readonly maxBoards?: number;
  /** A board not heard from for this long is forgotten by `expire` (default 15 minutes; tables say they are there every minute). */
  readonly staleMs?: number;
  /** Per site, the key its tables sign with: that site's unsigned or badly signed payloads are refused. */
  readonly keys?: ReadonlyMap<string, string>;
}

export const DEFAULT_MAX_BOARDS = 64;
export const DEFAULT_STALE_MS = 15 * 60_000;

/** The book's own copy: the same fields, writable. */
type Entry = { -readonly [K in Exclude<keyof BoardRecord, 'counts'>]: BoardRecord[K] } & {
  readonly counts: { -readonly [K in keyof BoardRecord['counts']]: number };
  /** When a message of the board's own run last came (the service's clock): what `expire` goes by. */
  heardAt: number;
};

export class BoardBook {
  private readonly boards = new Map<string, Entry>();
  private readonly now: () => number;
  readonly maxBoards: number;
  readonly staleMs: number;
  private readonly keys: ReadonlyMap<string, string>;

  constructor(options: BoardBookOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBoards = options.maxBoards ?? DEFAULT_MAX_BOARDS;
    this.staleMs = options.staleMs ?? DEFAULT_STALE_MS;
    this.keys = options.keys ?? new Map();
    if (!(Number.isSafeInteger(this.maxBoards) && this.maxBoards >= 1)) throw new RangeError(`a book holds at least one board, not ${this.maxBoards}`);
  }

  get(key: string): BoardRecord | undefined {
    return this.public(this.boards.get(key));
  }

  /** Every board, by site and board name. */
  all(): BoardRecord[] {
    return [...this.boards.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((b) => this.public(b)!);
  }

  get size(): number {
    return this.boards.size;
  }

  /** Forgets every board not heard from for `staleMs`; returns their keys. */
  expire(): string[] {
    const before = this.now() - this.staleMs;
    const gone: string[] = [];
    for (const [key, board] of this.boards) {
      if (board.heardAt < before) {
        this.boards.delete(key);
        gone.push(key);
      }
    }
    return gone;
  }

  /** One message from the broker. */
  receive(topic: string, bytes: Uint8Array | string): Outcome {
    const where = parseTopic(topic);
    if (!where) return { kind: 'ignored', key: null };
    const key = `${where.site}/${where.board}`;
    let text = typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const siteKey = this.keys.get(where.site);
    if (siteKey !== undefined) {
      const verdict = verify(siteKey, topic, text);
      if (!verdict.ok) return { kind: 'refused', key, reason: verdict.reason === 'unsigned' ? 'unsigned, and the site has a key' : 'badly signed (another key, or for another topic)' };
      text = verdict.text;
    }
    const reading = readPayload(where.channel, text);
    if (!reading.ok) return { kind: 'refused', key, reason: `malformed ${where.channel}: ${reading.reason}` };
    const read = reading.read;
    let board = this.boards.get(key);
    if (!board) {
      if (this.boards.size >= this.maxBoards) return { kind: 'refused', key, reason: `no room: the display holds ${this.maxBoards} boards (broadcast --max-boards)` };
      board = this.create(key, where.site, where.board);
    }
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
      heardAt: this.now(),
    };
    this.boards.set(key, record);
    return record;
  }

  /** The record as the pages get it: without the book's own bookkeeping. */
  private public(board: Entry | undefined): BoardRecord | undefined {
    if (!board) return undefined;
    const { heardAt: _, ...record } = board;
    return record;
  }

  /**
   * How a message's run compares with the board's: older ones are stragglers, newer ones restart the count. By the
   * table's log, not its clock: a run that started further on is newer. At the same place (a restart with nothing
   * logged between) the one heard last wins, but never through a last will: an `offline` of a run other than the
   * board's tells nothing about the board's run (it is the late will of the run before). A board whose run is over
   * (offline) takes any other run: a table whose log did not survive its restart starts again at 0, 0.
   */
  private runOf(board: Entry, run: Run, offline = false): 'older' | 'same' | 'newer' {
    if (!board.run) return 'newer';
    if (run.id === board.run.id) return 'same';
    const c = compareRuns(run, board.run);
    if (c > 0) return 'newer';
    if (offline) return 'older';
    return c === 0 || board.presence === 'offline' ? 'newer' : 'older';
  }

  private startRun(board: Entry, run: Run): void {
    board.run = run;
    board.seq = -1;
    board.resyncFrom = 0;
    board.recent = [];
  }

  private status(board: Entry, payload: StatusPayload): Outcome {
    const order = this.runOf(board, payload.run, payload.status === 'offline');
    if (order === 'older') return { kind: 'ignored', key: board.key };
    if (order === 'newer') this.startRun(board, payload.run);
    if (payload.game) board.game = payload.game;
    if (board.presence === payload.status && order === 'same') {
      // The table saying again that it is there (every minute) keeps its board; a late last will after its goodbye does not.
      if (payload.status === 'online') board.heardAt = this.now();
      return { kind: 'ignored', key: board.key };
    }
    board.heardAt = this.now();
    board.presence = payload.status;
    board.changedAt = this.now();
    return { kind: 'presence', key: board.key };
  }

  private state(board: Entry, payload: StatePayload): Outcome {
    const order = this.runOf(board, payload.run);
    if (order === 'older') return { kind: 'ignored', key: board.key };
    board.heardAt = this.now();
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
    // A table that publishes its state is there, whatever a late status said; a new run is a table that came back.
    if (board.presence === 'unknown' || order === 'newer') board.presence = 'online';
    board.changedAt = this.now();
    return { kind: 'synced', key: board.key };
  }

  private event(board: Entry, payload: EventPayload): Outcome {
    const order = this.runOf(board, payload.run);
    if (order === 'older') return { kind: 'ignored', key: board.key };
    board.heardAt = this.now();
    if (order === 'newer') {
      this.startRun(board, payload.run);
      board.presence = 'online';
    }
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
