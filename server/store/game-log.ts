// The game log: every game and every event of it, durable on SQLite before anyone sees it.
import { mkdirSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import { GameLogInputError, GameLogRefusedError, GameLogWriteError } from './errors.ts';
import type { UnwritableReason } from './errors.ts';
import { checkAfterSeq, checkAppended, checkFilter, checkId, checkImported, checkNewGame, checkPage, checkTime, toEvent, toGame, toSummary } from './records.ts';
import type { EventRow, GameRow, SummaryRow } from './records.ts';
import { toJsonText } from './json.ts';
import { MIGRATIONS, migrate, refuseUnlessOurs } from './schema.ts';
import { UNWRITABLE_WORDS, UnsureWrites } from './unsure.ts';
import type { Attempt, LastWritten } from './unsure.ts';
import type { Durability, GameEnd, GameEvent, GameFilter, GameLog, GameQuery, GameRecord, GameSummary, ImportedGame, NewEvent, NewGame } from './types.ts';

const SYNCHRONOUS = ['off', 'normal', 'full', 'extra'] as const;

/**
 * Opens (creating when missing) the game log in `file`, or `':memory:'` for tests.
 * Throws GameLogRefusedError, leaving the file untouched, if it is not a Spieltisch log or is
 * newer than this code understands.
 */
export function openSqliteGameLog(file: string): GameLog {
  try {
    return openOrRefuse(file);
  } catch (error) {
    // On a full disk SQLite cannot even make its -wal and -shm files, and says "disk I/O error".
    const refusedForIt = !(error instanceof GameLogRefusedError) || error.reason === 'damaged' || error.reason === 'cannot-migrate';
    if (refusedForIt && file !== ':memory:' && diskFull(file)) {
      throw new GameLogRefusedError('unwritable', file, `the game log ${file} cannot be written: the disk it is on is full; free some space and start again`);
    }
    throw error;
  }
}

/** Less room left than SQLite needs to open a log in WAL mode (its -shm file alone takes 32 KiB). */
const FULL_BELOW_BYTES = 256 * 1024;

function diskFull(file: string): boolean {
  try {
    const fs = statfsSync(dirname(file));
    return fs.bavail * fs.bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
}

function openOrRefuse(file: string): GameLog {
  const inMemory = file === ':memory:';
  if (!inMemory) {
    mkdirSync(dirname(file), { recursive: true });
    // Look before writing anything: switching to WAL alone rewrites the header of someone else's file.
    refuseUnlessOurs(file);
  }
  const db = new Sqlite(file);
  try {
    if (!inMemory) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`the game log ${file} cannot use write-ahead logging (SQLite chose ${String(mode)})`);
    }
    // FULL: a commit is on disk before append returns, and only then may a display show the event.
    db.pragma('synchronous = FULL');
    // macOS's plain fsync stops at the drive's cache; elsewhere this pragma does nothing.
    db.pragma('fullfsync = ON');
    db.pragma('foreign_keys = ON');
    migrateOrRefuse(db, file);
    return new SqliteGameLog(db, file);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Why SQLite could not write, from its extended result code. */
export function sqliteReason(code: string): UnwritableReason {
  if (code === 'SQLITE_FULL') return 'disk-full';
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH') return 'read-only';
  if (/^SQLITE_(IOERR|CANTOPEN|NOTADB|CORRUPT)/.test(code)) return 'gone';
  return 'failed';
}

/** A failed step is rolled back, so the file stays at its old version; the service must not start on it. */
function migrateOrRefuse(db: Database, file: string): void {
  const from = db.pragma('user_version', { simple: true }) as number;
  try {
    migrate(db, file, MIGRATIONS);
  } catch (error) {
    if (error instanceof GameLogRefusedError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new GameLogRefusedError(
      'cannot-migrate',
      file,
      `the game log ${file} has schema version ${from} and could not be brought to version ${MIGRATIONS.length} (${why}); it was left at version ${from}`,
    );
  }
}

/**
 * The length of the record now, from the last move, take-back or correction (see recordOf in
 * server/session): a correction leaves `ply - 1` moves and its new ones.
 */
const PLIES = `coalesce((SELECT CASE e.kind WHEN 'correction' THEN json_extract(e.payload, '$.ply') - 1 + json_array_length(e.payload, '$.new')
    ELSE json_extract(e.payload, '$.ply') END FROM events e
  WHERE e.game_id = g.id AND e.kind IN ('move', 'takeback', 'correction') ORDER BY e.seq DESC LIMIT 1), 0) AS plies`;

/** Each filter field as SQL on `games g`, with its named parameter. */
const FILTER_SQL: Readonly<Record<keyof GameFilter, string>> = {
  game: 'g.game = @game',
  board: 'g.board_id = @board',
  player: 'EXISTS (SELECT 1 FROM json_each(g.players) p WHERE p.value = @player COLLATE NOCASE)',
  from: 'g.started_at >= @from',
  to: 'g.started_at < @to',
};

class SqliteGameLog implements GameLog {
  private readonly insertGame: Statement;
  private readonly insertEvent: Statement;
  private readonly finishGame: Statement;
  private readonly selectGame: Statement;
  private readonly selectEvents: Statement;
  private readonly selectLive: Statement;
  private readonly selectLiveOnBoard: Statement;
  private readonly insertImported: Statement;
  private readonly insertEventAt: Statement;
  private readonly selectLastEvent: Statement;
  private readonly selectFreshGame: Statement;
  private readonly unsure = new UnsureWrites();
  /** Prepared once per combination of filter fields and purpose. */
  private readonly filtered = new Map<string, Statement>();
  private readonly endInTransaction: (gameId: number, at: number, resultText: string) => number;

  constructor(
    private readonly db: Database,
    readonly file: string,
  ) {
    this.insertGame = db.prepare(
      `INSERT INTO games (game, options, players, board_id, source, started_at)
       VALUES (@game, @options, @players, @boardId, @source, @at) RETURNING id`,
    ).pluck();
    // One statement picks the next seq and inserts, so it is atomic even with a second writer,
    // and it inserts nothing for a missing or ended game.
    this.insertEvent = db.prepare(
      `INSERT INTO events (game_id, seq, at, kind, payload)
       SELECT g.id, (SELECT coalesce(max(e.seq), 0) + 1 FROM events e WHERE e.game_id = g.id), @at, @kind, @payload
       FROM games g WHERE g.id = @gameId AND g.ended_at IS NULL
       RETURNING seq`,
    ).pluck();
    this.finishGame = db.prepare(`UPDATE games SET ended_at = @at, result = @result WHERE id = @gameId AND ended_at IS NULL`);
    this.selectGame = db.prepare('SELECT * FROM games WHERE id = ?');
    this.selectEvents = db.prepare('SELECT * FROM events WHERE game_id = ? AND seq > ? ORDER BY seq');
    this.selectLive = db.prepare('SELECT * FROM games WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1');
    this.selectLiveOnBoard = db.prepare('SELECT * FROM games WHERE ended_at IS NULL AND board_id = ? ORDER BY id DESC LIMIT 1');
    this.insertImported = db.prepare(
      `INSERT INTO games (game, options, players, board_id, source, started_at, imported_at)
       VALUES (@game, @options, @players, @boardId, @source, @at, @importedAt) RETURNING id`,
    ).pluck();
    this.insertEventAt = db.prepare('INSERT INTO events (game_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)');
    this.selectLastEvent = db.prepare('SELECT seq, at, kind, payload FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1');
    this.selectFreshGame = db.prepare(
      `SELECT * FROM games g WHERE ended_at IS NULL AND board_id = ? AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id) ORDER BY id DESC LIMIT 1`,
    );
    this.endInTransaction = db.transaction((gameId: number, at: number, resultText: string) => {
      const seq = this.insertEvent.all({ gameId, at, kind: 'end', payload: resultText })[0] as number | undefined;
      if (seq === undefined) throw this.whyNotAppendable(gameId);
      this.finishGame.run({ gameId, at, result: resultText });
      return seq;
    });
  }

  startGame(game: NewGame): number {
    const row = checkNewGame(game);
    // all(), never get(): get() stops at the first row, and the statement's commit, which may fail (a
    // full disk), happens after it, where better-sqlite3 no longer looks for an error.
    return this.write({ what: 'game', ...row }, () => this.insertGame.all(row)[0] as number);
  }

  importGame(game: ImportedGame): number {
    const { row, events, end } = checkImported(game);
    return this.transaction(() => {
      const id = this.insertImported.all(row)[0] as number;
      events.forEach((e, i) => this.insertEventAt.run(id, i + 1, e.at, e.kind, e.payload));
      this.endInTransaction(id, end.at, end.result);
      return id;
    });
  }

  transaction<T>(fn: () => T): T {
    // IMMEDIATE: take the write lock first, so a second writer waits instead of failing half-way.
    try {
      return this.db.transaction(fn).immediate();
    } catch (error) {
      throw this.unwritable(error);
    }
  }

  append(gameId: number, event: NewEvent): number {
    checkId(gameId, 'gameId');
    const e = checkAppended(event);
    return this.write({ what: 'event', gameId, ...e }, () => {
      const seq = this.insertEvent.all({ gameId, ...e })[0] as number | undefined;
      if (seq === undefined) throw this.whyNotAppendable(gameId);
      return seq;
    });
  }

  endGame(gameId: number, end: GameEnd): number {
    checkId(gameId, 'gameId');
    checkTime(end.at, 'at');
    const payload = toJsonText(end.result, 'result');
    return this.write({ what: 'event', gameId, kind: 'end', at: end.at, payload }, () => this.endInTransaction(gameId, end.at, payload));
  }

  /** One write that lands or raises GameLogWriteError, and is not written twice when it is tried again. */
  private write(attempt: Attempt, write: () => number): number {
    return this.unsure.write(attempt, (a) => this.lastWritten(a), write, (error) => this.unwritable(error));
  }

  private lastWritten(attempt: Attempt): LastWritten {
    if (attempt.what === 'game') return { game: this.selectFreshGame.get(attempt.boardId) as LastWritten['game'] };
    return { event: this.selectLastEvent.get(attempt.gameId) as LastWritten['event'] };
  }

  /** SQLite's failure as the reason the log cannot be written; anything else as it was. */
  private unwritable(error: unknown): unknown {
    if (!(error instanceof Sqlite.SqliteError)) return error;
    const reason = sqliteReason(error.code);
    return new GameLogWriteError(reason, this.file, `the game log ${this.file} cannot be written: ${UNWRITABLE_WORDS[reason]} (${error.code}: ${error.message})`);
  }

  game(id: number): GameRecord | undefined {
    checkId(id, 'id');
    const row = this.selectGame.get(id) as GameRow | undefined;
    return row && toGame(row);
  }

  events(gameId: number, afterSeq = 0): GameEvent[] {
    checkId(gameId, 'gameId');
    checkAfterSeq(afterSeq);
    return (this.selectEvents.all(gameId, afterSeq) as EventRow[]).map(toEvent);
  }

  liveGame(boardId?: string): GameRecord | undefined {
    const row = (boardId === undefined ? this.selectLive.get() : this.selectLiveOnBoard.get(boardId)) as GameRow | undefined;
    return row && toGame(row);
  }

  listGames(query: GameQuery = {}): GameSummary[] {
    const { limit, offset } = checkPage(query);
    const { keys, params } = checkFilter(query);
    const rows = this.statement('page', keys).all({ ...params, limit, offset }) as SummaryRow[];
    return rows.map(toSummary);
  }

  countGames(filter: GameFilter = {}): number {
    const { keys, params } = checkFilter(filter);
    return this.statement('count', keys).pluck().get(params) as number;
  }

  allGames(filter: GameFilter = {}): GameSummary[] {
    const { keys, params } = checkFilter(filter);
    return (this.statement('all', keys).all(params) as SummaryRow[]).map(toSummary);
  }

  players(filter: GameFilter = {}): { name: string; games: number }[] {
    const { keys, params } = checkFilter(filter);
    return this.statement('players', keys).all(params) as { name: string; games: number }[];
  }

  private statement(purpose: 'page' | 'count' | 'all' | 'players', keys: readonly (keyof GameFilter)[]): Statement {
    const cacheKey = `${purpose}:${keys.join(',')}`;
    let statement = this.filtered.get(cacheKey);
    if (!statement) {
      const where = keys.length ? `WHERE ${keys.map((k) => FILTER_SQL[k]).join(' AND ')}` : '';
      const sql = {
        count: `SELECT count(*) FROM games g ${where}`,
        page: `SELECT g.*, ${PLIES} FROM games g ${where} ORDER BY g.started_at DESC, g.id DESC LIMIT @limit OFFSET @offset`,
        all: `SELECT g.*, ${PLIES} FROM games g ${where} ORDER BY g.started_at, g.id`,
        // A name counts once per game, however many seats it sat at; names differing in ASCII case are one.
        players: `SELECT min(n.value) AS name, count(DISTINCT g.id) AS games FROM games g, json_each(g.players) n ${where}
                  GROUP BY n.value COLLATE NOCASE ORDER BY games DESC, name COLLATE NOCASE`,
      }[purpose];
      statement = this.db.prepare(sql);
      this.filtered.set(cacheKey, statement);
    }
    return statement;
  }

  durability(): Durability {
    return {
      journalMode: this.db.pragma('journal_mode', { simple: true }) as string,
      synchronous: SYNCHRONOUS[this.db.pragma('synchronous', { simple: true }) as number],
    };
  }

  sharedAddress(): string | null {
    return this.file === ':memory:' ? null : this.file;
  }

  close(): void {
    this.db.close();
  }

  /** Only reached when an insert wrote nothing, so the common path pays for no extra query. */
  private whyNotAppendable(gameId: number): GameLogInputError {
    const row = this.selectGame.get(gameId) as GameRow | undefined;
    if (!row) return new GameLogInputError('store/no-such-game', `there is no game ${gameId} in the log`);
    return new GameLogInputError('store/game-ended', `game ${gameId} has ended; nothing more is written to it`);
  }
}

