// The game log on a shared PostgreSQL database: the same calls as the SQLite file, each one committed before it returns.
//
// The store's calls are synchronous, and an event must be durable before any display shows it. `pg`
// is asynchronous, so it runs in a worker thread of its own, and each call here waits for that
// thread's answer (Atomics.wait), exactly as better-sqlite3 waits for its fsync: when `append`
// returns, PostgreSQL has committed the event (synchronous_commit on). The session, the API and
// the commands stay as they are. The cost is the same as SQLite's: the service's thread is held
// for one round trip and commit per write, a millisecond or two on a local network.
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { GameLogInputError, GameLogRefusedError, GameLogWriteError } from './errors.ts';
import type { UnwritableReason } from './errors.ts';
import { UNWRITABLE_WORDS, UnsureWrites } from './unsure.ts';
import type { Attempt, LastWritten } from './unsure.ts';
import { checkAfterSeq, checkAppended, checkFilter, checkId, checkImported, checkNewGame, checkPage, checkTime, toEvent, toGame, toSummary } from './records.ts';
import type { EventRow, GameRow, SummaryRow } from './records.ts';
import { toJsonText } from './json.ts';
import { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-schema.ts';
import type { PostgresMigration, Sql } from './postgres-schema.ts';
import type { Durability, GameEnd, GameEvent, GameFilter, GameLog, GameQuery, GameRecord, GameSummary, ImportedGame, NewEvent, NewGame } from './types.ts';

export interface PostgresOptions {
  /** How long one statement may take before the log gives up on the connection, in ms. */
  readonly timeoutMs?: number;
  /** For tests of refusals: the steps to bring the database to. */
  readonly migrations?: readonly PostgresMigration[];
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Run first on every connection. Durable before shown: a server set to acknowledge commits before
 * they are on disk is overruled for our connection (stronger settings, remote_apply and the like,
 * are kept). The seq of spieltisch_append relies on READ COMMITTED's fresh snapshot per statement.
 */
const SESSION_SETUP = [
  `SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'`,
  `SELECT set_config('default_transaction_isolation', 'read committed', false)`,
];

/**
 * Opens the game log in the PostgreSQL database at `url` (postgres://user:password@host:port/db),
 * creating its tables in an empty database. Throws GameLogRefusedError, leaving the database
 * untouched, for a server that cannot be reached and for a database that is not a Spieltisch log
 * or is newer than this code understands.
 */
export function openPostgresGameLog(url: string, options: PostgresOptions = {}): GameLog {
  const where = redactedUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const connection = new BlockingConnection(url, where, timeoutMs);
  try {
    try {
      connection.request({ op: 'connect', setup: SESSION_SETUP });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new GameLogRefusedError('unreachable', where, `the game log ${where} cannot be reached (${why})`);
    }
    const sql: Sql = (text, params) => connection.query(text, params).rows;
    migratePostgres(sql, where, options.migrations ?? POSTGRES_MIGRATIONS);
    return new PostgresGameLog(connection, where, url);
  } catch (error) {
    connection.close();
    throw error;
  }
}

/** The address without its password, for messages and `file`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return `${url.split('://')[0]}://…`;
  }
}

interface QueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
  command: string;
  /** The connection's server process now: the thread may have replaced a lost connection. */
  backend: Backend | null;
}

type Request =
  | { readonly op: 'connect'; readonly setup: readonly string[]; readonly replaces?: Backend | null }
  | { readonly op: 'query'; readonly sql: string; readonly params?: readonly unknown[]; readonly name?: string; readonly reconnect: boolean }
  | { readonly op: 'end' };

/** A connection's server process, so a connection that replaces it can end it. */
interface Backend {
  readonly pid: number;
  readonly start: string;
}

/** An error PostgreSQL (or the connection) reported, with its SQLSTATE code when there is one. */
export class PostgresError extends Error {
  override readonly name = 'PostgresError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * One connection, owned by a worker thread, used as if it were synchronous: a request is posted
 * and this thread sleeps on a shared flag until the worker has answered. Requests never overlap.
 */
class BlockingConnection {
  private worker: Worker;
  private port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private broken: Error | null = null;
  private closed = false;

  /** The statements of the first `connect`, run again by a thread started afresh. */
  private setup: readonly string[] = [];
  /** The server process of the last connection made; a thread started afresh ends it first. */
  private backend: Backend | null = null;

  constructor(
    private readonly url: string,
    private readonly where: string,
    private readonly timeoutMs: number,
  ) {
    [this.worker, this.port] = this.startWorker();
  }

  private startWorker(): [Worker, MessagePort] {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./postgres-worker.cjs', import.meta.url), {
      workerData: { port: port2, signal: this.signal, connection: { url: this.url, timeoutMs: this.timeoutMs } },
      transferList: [port2],
    });
    // The worker must not keep a finished process alive, nor its failure pass unseen.
    worker.unref();
    worker.on('error', (error) => {
      if (worker === this.worker) this.broken ??= new PostgresError(`the game log ${this.where} lost its connection thread (${error.message})`, undefined);
    });
    return [worker, port1];
  }

  /**
   * A connection given up on (it did not answer in time) is replaced by a new thread and connection, so the log
   * works again once the server does; what the old one was doing is the caller's doubt (see unsure.ts).
   */
  private revive(): void {
    void this.worker.terminate();
    this.port.close();
    [this.worker, this.port] = this.startWorker();
    this.broken = null;
    try {
      this.request({ op: 'connect', setup: this.setup, replaces: this.backend });
    } catch (error) {
      this.broken ??= error instanceof Error ? error : new PostgresError(String(error), undefined);
      throw error;
    }
  }

  /** Whether a transaction is open: a lost connection is then not silently replaced. */
  inTransaction = false;

  query(sql: string, params?: readonly unknown[], name?: string): QueryResult {
    return this.request({ op: 'query', sql, params, name, reconnect: !this.inTransaction }) as QueryResult;
  }

  request(request: Request): unknown {
    if (this.closed) throw new PostgresError(`the game log ${this.where} is closed`, undefined);
    if (this.broken) {
      if (request.op !== 'query' || !request.reconnect) throw this.broken;
      this.revive();
    }
    if (request.op === 'connect') this.setup = request.setup;
    const value = this.exchange(request);
    if (request.op === 'connect') this.backend = value as Backend | null;
    if (request.op === 'query') this.backend = (value as QueryResult).backend;
    return value;
  }

  private exchange(request: Request): unknown {
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(request);
    if (Atomics.wait(this.signal, 0, 0, this.timeoutMs) === 'timed-out') {
      // What became of the request is unknown; the connection is not trusted with another.
      this.broken = new PostgresError(`the game log ${this.where} did not answer within ${this.timeoutMs} ms; the connection is given up (the next write opens another), and whether the last write was committed is not known`, undefined);
      void this.worker.terminate();
      throw this.broken;
    }
    const received = receiveMessageOnPort(this.port);
    if (!received) throw (this.broken = new PostgresError(`the game log ${this.where} answered nothing`, undefined));
    const answer = received.message as { ok: true; value: unknown } | { ok: false; error: { message: string; code?: string } };
    if (!answer.ok) throw new PostgresError(answer.error.message, answer.error.code);
    return answer.value;
  }

  close(): void {
    if (this.closed) return;
    try {
      if (!this.broken) this.request({ op: 'end' });
    } catch {
      // Closing a connection that already failed: there is nothing left to end.
    } finally {
      this.closed = true;
      this.port.close();
      void this.worker.terminate();
    }
  }
}

/** ASCII letters folded to lower case, as SQLite's NOCASE does: other letters are compared as they are. */
const fold = (sql: string) => `translate(${sql}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** Each filter field as SQL on `games g`, given its parameter ($n). */
const FILTER_SQL: Readonly<Record<keyof GameFilter, (p: string) => string>> = {
  game: (p) => `g.game = ${p}`,
  board: (p) => `g.board_id = ${p}`,
  player: (p) => `EXISTS (SELECT 1 FROM json_each_text(g.players) s WHERE ${fold('s.value')} = ${fold(p)})`,
  from: (p) => `g.started_at >= ${p}`,
  to: (p) => `g.started_at < ${p}`,
};

/** The length of the record now, from the last move, take-back or correction (see PLIES in game-log.ts); a ply that is no whole number reads as 0. */
const PLIES = `(SELECT CASE WHEN json_typeof(e.payload -> 'ply') = 'number' AND (e.payload ->> 'ply') ~ '^-?[0-9]{1,15}$'
                            THEN (e.payload ->> 'ply')::bigint
                                 + CASE WHEN e.kind = 'correction' THEN CASE WHEN json_typeof(e.payload -> 'new') = 'array'
                                                                             THEN json_array_length(e.payload -> 'new') ELSE 0 END - 1
                                        ELSE 0 END END
                FROM events e WHERE e.game_id = g.id AND e.kind IN ('move', 'takeback', 'correction') ORDER BY e.seq DESC LIMIT 1) AS plies`;

/**
 * Why PostgreSQL could not write, from its SQLSTATE: disk_full (53100), read_only_sql_transaction (25006, a
 * standby or a database set read-only), a connection failure (class 08), a server shutting down (57P01–57P03),
 * or no SQLSTATE at all (the connection or its thread failed before PostgreSQL answered).
 */
export function postgresReason(code: string | undefined): UnwritableReason {
  if (code === '53100') return 'disk-full';
  if (code === '25006') return 'read-only';
  // Not an SQLSTATE (ECONNREFUSED, ETIMEDOUT…): the network's word, before any server answered.
  if (code === undefined || !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return 'gone';
  return 'failed';
}

class PostgresGameLog implements GameLog {
  /** Open transactions: 0 outside, 1 in one, more in nested ones (savepoints). */
  private depth = 0;
  private readonly unsure = new UnsureWrites();

  constructor(
    private readonly connection: BlockingConnection,
    readonly file: string,
    /** The address with its password, for another connection to the same database (sharedAddress). */
    private readonly url: string,
  ) {}

  private rows<R>(sql: string, params?: readonly unknown[], name?: string): R[] {
    return this.connection.query(sql, params, name).rows as R[];
  }

  startGame(game: NewGame): number {
    const g = checkNewGame(game);
    return this.write({ what: 'game', ...g }, () => {
      const [row] = this.rows<{ id: number }>(
        `INSERT INTO games (game, options, players, board_id, source, started_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [g.game, g.options, g.players, g.boardId, g.source, g.at],
        'start-game',
      );
      return row.id;
    });
  }

  append(gameId: number, event: NewEvent): number {
    checkId(gameId, 'gameId');
    const e = checkAppended(event);
    return this.write({ what: 'event', gameId, ...e }, () => {
      // One statement, so one round trip, committed on its own outside a transaction.
      const [row] = this.rows<{ seq: number | null }>('SELECT spieltisch_append($1, $2, $3, $4) AS seq', [gameId, e.at, e.kind, e.payload], 'append');
      if (row.seq === null) throw this.whyNotAppendable(gameId);
      return row.seq;
    });
  }

  endGame(gameId: number, end: GameEnd): number {
    checkId(gameId, 'gameId');
    checkTime(end.at, 'at');
    const payload = toJsonText(end.result, 'result');
    return this.write({ what: 'event', gameId, kind: 'end', at: end.at, payload }, () => this.end(gameId, end.at, payload));
  }

  /**
   * One write that lands or raises GameLogWriteError. A connection lost while PostgreSQL commits leaves it
   * unknown whether the commit happened: the same write tried again is first looked for in the log.
   */
  private write(attempt: Attempt, write: () => number): number {
    return this.unsure.write(attempt, (a) => this.lastWritten(a), write, (error) => this.unwritable(error));
  }

  private lastWritten(attempt: Attempt): LastWritten {
    if (attempt.what === 'game') {
      const [game] = this.rows<NonNullable<LastWritten['game']>>(
        `SELECT id, game, options, players, source, started_at FROM games g WHERE ended_at IS NULL AND board_id = $1
           AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id) ORDER BY id DESC LIMIT 1`,
        [attempt.boardId],
      );
      return { game };
    }
    const [event] = this.rows<NonNullable<LastWritten['event']>>('SELECT seq, at, kind, payload FROM events WHERE game_id = $1 ORDER BY seq DESC LIMIT 1', [attempt.gameId]);
    return { event };
  }

  /** PostgreSQL's failure, or the connection's, as the reason the log cannot be written; a refused input as it was. */
  private unwritable(error: unknown): unknown {
    if (!(error instanceof PostgresError)) return error;
    const reason = postgresReason(error.code);
    return new GameLogWriteError(reason, this.file, `the game log ${this.file} cannot be written: ${UNWRITABLE_WORDS[reason]} (${error.message})`);
  }

  private end(gameId: number, at: number, resultText: string): number {
    const [row] = this.rows<{ seq: number | null }>('SELECT spieltisch_end($1, $2, $3) AS seq', [gameId, at, resultText], 'end-game');
    if (row.seq === null) throw this.whyNotAppendable(gameId);
    return row.seq;
  }

  importGame(game: ImportedGame): number {
    const { row, events, end } = checkImported(game);
    return this.transaction(() => {
      const [{ id }] = this.rows<{ id: number }>(
        `INSERT INTO games (game, options, players, board_id, source, started_at, imported_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [row.game, row.options, row.players, row.boardId, row.source, row.at, row.importedAt],
      );
      // Every event in one statement: a long game is one round trip, not hundreds.
      if (events.length) {
        this.rows(
          `INSERT INTO events (game_id, seq, at, kind, payload)
           SELECT $1, e.seq, e.at, e.kind, e.payload::json FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS e(at, kind, payload, seq)`,
          [id, events.map((e) => e.at), events.map((e) => e.kind), events.map((e) => e.payload)],
        );
      }
      this.end(id, end.at, end.result);
      return id;
    });
  }

  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return this.inTransaction(fn);
    try {
      return this.inTransaction(fn);
    } catch (error) {
      throw this.unwritable(error);
    }
  }

  private inTransaction<T>(fn: () => T): T {
    const savepoint = this.depth === 0 ? null : `spieltisch_${this.depth}`;
    this.rows(savepoint === null ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : `SAVEPOINT ${savepoint}`);
    this.depth++;
    this.connection.inTransaction = true;
    let value: T;
    try {
      value = fn();
    } catch (error) {
      this.leave();
      try {
        this.rows(savepoint === null ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
      } catch {
        // The connection failed: PostgreSQL rolls back what it never saw committed.
      }
      throw error;
    }
    this.leave();
    if (savepoint !== null) {
      this.rows(`RELEASE SAVEPOINT ${savepoint}`);
    } else {
      // COMMIT of a transaction in which a statement failed is a ROLLBACK that reports no error.
      const { command } = this.connection.query('COMMIT');
      if (command !== 'COMMIT') throw new PostgresError(`the transaction was rolled back (${command}): a statement in it failed`, undefined);
    }
    return value;
  }

  private leave(): void {
    this.depth--;
    this.connection.inTransaction = this.depth > 0;
  }

  game(id: number): GameRecord | undefined {
    checkId(id, 'id');
    const [row] = this.rows<GameRow>('SELECT * FROM games WHERE id = $1', [id], 'game');
    return row && toGame(row);
  }

  events(gameId: number, afterSeq = 0): GameEvent[] {
    checkId(gameId, 'gameId');
    checkAfterSeq(afterSeq);
    return this.rows<EventRow>('SELECT * FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq', [gameId, afterSeq], 'events').map(toEvent);
  }

  liveGame(boardId?: string): GameRecord | undefined {
    const [row] =
      boardId === undefined
        ? this.rows<GameRow>('SELECT * FROM games WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1', [], 'live')
        : this.rows<GameRow>('SELECT * FROM games WHERE ended_at IS NULL AND board_id = $1 ORDER BY id DESC LIMIT 1', [boardId], 'live-on-board');
    return row && toGame(row);
  }

  listGames(query: GameQuery = {}): GameSummary[] {
    const { limit, offset } = checkPage(query);
    const { where, params } = this.where(query);
    const n = params.length;
    return this.rows<SummaryRow>(
      `SELECT g.*, ${PLIES} FROM games g ${where} ORDER BY g.started_at DESC, g.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, limit, offset],
    ).map(toSummary);
  }

  countGames(filter: GameFilter = {}): number {
    const { where, params } = this.where(filter);
    return this.rows<{ count: number }>(`SELECT count(*) AS count FROM games g ${where}`, params)[0].count;
  }

  allGames(filter: GameFilter = {}): GameSummary[] {
    const { where, params } = this.where(filter);
    return this.rows<SummaryRow>(`SELECT g.*, ${PLIES} FROM games g ${where} ORDER BY g.started_at, g.id`, params).map(toSummary);
  }

  players(filter: GameFilter = {}): { name: string; games: number }[] {
    const { where, params } = this.where(filter);
    // As SQLite's: a name counts once per game, names differing in ASCII case are one, the
    // smallest spelling by bytes names them, and ties are ordered without ASCII case.
    const name = 'min(n.value COLLATE "C")';
    return this.rows<{ name: string; games: number }>(
      `SELECT ${name} AS name, count(DISTINCT g.id) AS games FROM games g, json_each_text(g.players) n ${where}
       GROUP BY ${fold('n.value')} ORDER BY games DESC, ${fold(name)} COLLATE "C"`,
      params,
    );
  }

  private where(filter: GameFilter): { where: string; params: (string | number)[] } {
    const { keys, params } = checkFilter(filter);
    const clauses = keys.map((key, i) => FILTER_SQL[key](`$${i + 1}`));
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params: keys.map((key) => params[key]) };
  }

  durability(): Durability {
    const [row] = this.rows<{ commit: string; fsync: string }>(`SELECT current_setting('synchronous_commit') AS commit, current_setting('fsync') AS fsync`);
    // A commit waits for the WAL to be flushed unless synchronous_commit is off; without fsync
    // nothing is flushed at all.
    return { journalMode: 'wal', synchronous: row.fsync === 'on' && row.commit !== 'off' ? 'full' : 'off' };
  }

  sharedAddress(): string {
    return this.url;
  }

  close(): void {
    this.connection.close();
  }

  /** Only reached when an append wrote nothing, so the common path pays for no extra query. */
  private whyNotAppendable(gameId: number): GameLogInputError {
    if (!this.game(gameId)) return new GameLogInputError('store/no-such-game', `there is no game ${gameId} in the log`);
    return new GameLogInputError('store/game-ended', `game ${gameId} has ended; nothing more is written to it`);
  }
}
