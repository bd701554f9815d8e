// The game log: every game and every event of it, durable on SQLite before anyone sees it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import { GAME_NAMES } from '../rules/types.ts';
import type { GameName } from '../rules/types.ts';
import { GameLogInputError, GameLogRefusedError } from './errors.ts';
import { toJsonText } from './json.ts';
import { MIGRATIONS, migrate, refuseUnlessOurs } from './schema.ts';

export const EVENT_KINDS = ['move', 'takeback', 'answer', 'alert', 'fault', 'end', 'note'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** `end` is written only by `endGame`, together with the game's result, so the two never disagree. */
export type AppendKind = Exclude<EventKind, 'end'>;

export const GAME_SOURCES = ['sensors', 'hand', 'simulated'] as const;
export type GameSource = (typeof GAME_SOURCES)[number];

/** Player names by seat or side: `{ south: 'Anna', north: 'Ben' }`. */
export type Players = Readonly<Record<string, string>>;

export interface NewGame {
  readonly game: GameName;
  /** The engine's options, as plain data. */
  readonly options: object;
  readonly players: Players;
  readonly boardId: string;
  readonly source: GameSource;
  /** Milliseconds since the epoch, from the caller's clock. */
  readonly at: number;
}

export interface NewEvent {
  readonly kind: AppendKind;
  readonly at: number;
  /** Plain JSON data; anything that would not read back as itself is refused. */
  readonly payload: unknown;
}

export interface GameEnd {
  readonly at: number;
  /** Plain JSON data, or null when the game ended without one (abandoned). */
  readonly result: unknown;
}

export interface GameRecord {
  readonly id: number;
  readonly game: GameName;
  /** As written; parse it with the engine's `parseOptions`. */
  readonly options: unknown;
  readonly players: Players;
  readonly boardId: string;
  readonly source: GameSource;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly result: unknown;
  /** When the game came in through an import; null for a game refereed here. */
  readonly importedAt: number | null;
}

/** A game as lists show it: its row and the length of its record now. */
export interface GameSummary extends GameRecord {
  /** Moves in the record after take-backs: the `ply` of the last move or take-back event, 0 without one. */
  readonly plies: number;
}

/** A game refereed elsewhere, written whole by `importGame`. */
export interface ImportedGame extends Omit<NewGame, 'at'> {
  readonly startedAt: number;
  /** In order; seqs are given 1, 2, 3, … as they are written. No `end` event: `end` writes it. */
  readonly events: readonly NewEvent[];
  /** An imported game is always ended, so that it is never taken for a live game to resume. */
  readonly end: GameEnd;
  readonly importedAt: number;
}

export interface GameEvent {
  readonly gameId: number;
  /** 1, 2, 3, … within one game, without gaps. */
  readonly seq: number;
  readonly at: number;
  readonly kind: EventKind;
  readonly payload: unknown;
}

/** Which games: every field given must hold (AND). */
export interface GameFilter {
  readonly game?: GameName;
  readonly board?: string;
  /** A player's name at any seat: the whole name, ASCII letters compared without case. */
  readonly player?: string;
  /** Started at or after this time (ms since the epoch). */
  readonly from?: number;
  /** Started before this time (ms since the epoch). */
  readonly to?: number;
}

export interface GameQuery extends GameFilter {
  /** At most this many games, newest first (by start, then by id); 1 to MAX_LIST_LIMIT, default 50. */
  readonly limit?: number;
  readonly offset?: number;
}

export const MAX_LIST_LIMIT = 1000;

/** What the connection really runs with, read back from SQLite, for start-up logs and tests. */
export interface Durability {
  readonly journalMode: string;
  readonly synchronous: 'off' | 'normal' | 'full' | 'extra';
}

export interface GameLog {
  readonly file: string;
  startGame(game: NewGame): number;
  /** Writes one event, durably, and returns its seq. */
  append(gameId: number, event: NewEvent): number;
  /** Writes the `end` event and the result together; returns the seq of the `end` event. */
  endGame(gameId: number, end: GameEnd): number;
  game(id: number): GameRecord | undefined;
  /** The game's events in order, those after `afterSeq` only when given. */
  events(gameId: number, afterSeq?: number): GameEvent[];
  /** The latest game not yet ended, on that board when given: what to resume after a crash. */
  liveGame(boardId?: string): GameRecord | undefined;
  /** One page of the games that match, newest first. */
  listGames(query?: GameQuery): GameSummary[];
  /** How many games match (for paging). */
  countGames(filter?: GameFilter): number;
  /** Every game that matches, oldest first, without paging: for statistics and export. */
  allGames(filter?: GameFilter): GameSummary[];
  /** The names at any seat of the matching games, with how many games each played; most games first. */
  players(filter?: GameFilter): { name: string; games: number }[];
  /** Writes a whole game and its events at once, or nothing; returns its id. */
  importGame(game: ImportedGame): number;
  /** Runs `fn` in one write transaction: everything it writes is committed together, or nothing is. */
  transaction<T>(fn: () => T): T;
  durability(): Durability;
  close(): void;
}

/**
 * Opens (creating when missing) the game log in `file`, or `':memory:'` for tests.
 * Throws GameLogRefusedError, leaving the file untouched, if it is not a Spieltisch log or is
 * newer than this code understands.
 */
export function openGameLog(file: string): GameLog {
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

interface GameRow {
  id: number;
  game: string;
  options: string;
  players: string;
  board_id: string;
  source: string;
  started_at: number;
  ended_at: number | null;
  result: string | null;
  imported_at: number | null;
}

interface SummaryRow extends GameRow {
  plies: unknown;
}

interface EventRow {
  game_id: number;
  seq: number;
  at: number;
  kind: string;
  payload: string;
}

const KINDS_APPENDED: ReadonlySet<string> = new Set(EVENT_KINDS.filter((k) => k !== 'end'));
const SOURCES: ReadonlySet<string> = new Set(GAME_SOURCES);
const GAMES: ReadonlySet<string> = new Set(GAME_NAMES);
const SYNCHRONOUS = ['off', 'normal', 'full', 'extra'] as const;
/** Longest board id or player name a filter may ask for. */
const MAX_FILTER_TEXT = 200;

/** The length of the record now, from the last move or take-back (see recordOf in server/session). */
const PLIES = `coalesce((SELECT json_extract(e.payload, '$.ply') FROM events e
  WHERE e.game_id = g.id AND e.kind IN ('move', 'takeback') ORDER BY e.seq DESC LIMIT 1), 0) AS plies`;

/** Each filter field as SQL on `games g`, with its named parameter. */
const FILTER_SQL: Readonly<Record<keyof GameFilter, string>> = {
  game: 'g.game = @game',
  board: 'g.board_id = @board',
  player: 'EXISTS (SELECT 1 FROM json_each(g.players) p WHERE p.value = @player COLLATE NOCASE)',
  from: 'g.started_at >= @from',
  to: 'g.started_at < @to',
};
const FILTER_KEYS = Object.keys(FILTER_SQL) as (keyof GameFilter)[];

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
    this.endInTransaction = db.transaction((gameId: number, at: number, resultText: string) => {
      const seq = this.insertEvent.get({ gameId, at, kind: 'end', payload: resultText }) as number | undefined;
      if (seq === undefined) throw this.whyNotAppendable(gameId);
      this.finishGame.run({ gameId, at, result: resultText });
      return seq;
    });
  }

  startGame(game: NewGame): number {
    return this.insertGame.get(checkNewGame(game)) as number;
  }

  importGame(game: ImportedGame): number {
    const row = { ...checkNewGame({ ...game, at: game.startedAt }), importedAt: game.importedAt };
    checkTime(game.importedAt, 'importedAt');
    if (!Array.isArray(game.events)) throw new GameLogInputError('store/bad-import', 'events must be an array');
    const events = game.events.map((event, i) => {
      if (!KINDS_APPENDED.has(event.kind)) throw new GameLogInputError('store/bad-kind', `event ${i + 1}: unknown event kind ${JSON.stringify(event.kind)}`);
      checkTime(event.at, `event ${i + 1}: at`);
      return { at: event.at, kind: event.kind, payload: toJsonText(event.payload, `event ${i + 1}: payload`) };
    });
    checkTime(game.end.at, 'end.at');
    const resultText = toJsonText(game.end.result, 'result');
    return this.transaction(() => {
      const id = this.insertImported.get(row) as number;
      events.forEach((e, i) => this.insertEventAt.run(id, i + 1, e.at, e.kind, e.payload));
      this.endInTransaction(id, game.end.at, resultText);
      return id;
    });
  }

  transaction<T>(fn: () => T): T {
    // IMMEDIATE: take the write lock first, so a second writer waits instead of failing half-way.
    return this.db.transaction(fn).immediate();
  }

  append(gameId: number, event: NewEvent): number {
    checkId(gameId, 'gameId');
    if (!KINDS_APPENDED.has(event.kind)) {
      const hint = (event.kind as string) === 'end' ? '; a game is ended with endGame, which writes the end event' : '';
      throw new GameLogInputError('store/bad-kind', `unknown event kind ${JSON.stringify(event.kind)}${hint}`);
    }
    checkTime(event.at, 'at');
    const payload = toJsonText(event.payload, 'payload');
    const seq = this.insertEvent.get({ gameId, at: event.at, kind: event.kind, payload }) as number | undefined;
    if (seq === undefined) throw this.whyNotAppendable(gameId);
    return seq;
  }

  endGame(gameId: number, end: GameEnd): number {
    checkId(gameId, 'gameId');
    checkTime(end.at, 'at');
    return this.endInTransaction(gameId, end.at, toJsonText(end.result, 'result'));
  }

  game(id: number): GameRecord | undefined {
    checkId(id, 'id');
    const row = this.selectGame.get(id) as GameRow | undefined;
    return row && toGame(row);
  }

  events(gameId: number, afterSeq = 0): GameEvent[] {
    checkId(gameId, 'gameId');
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new GameLogInputError('store/bad-query', `afterSeq must be a whole number ≥ 0, not ${String(afterSeq)}`);
    return (this.selectEvents.all(gameId, afterSeq) as EventRow[]).map(toEvent);
  }

  liveGame(boardId?: string): GameRecord | undefined {
    const row = (boardId === undefined ? this.selectLive.get() : this.selectLiveOnBoard.get(boardId)) as GameRow | undefined;
    return row && toGame(row);
  }

  listGames(query: GameQuery = {}): GameSummary[] {
    const { limit = 50, offset = 0 } = query;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
      throw new GameLogInputError('store/bad-query', `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}, not ${String(limit)}`);
    }
    if (!Number.isSafeInteger(offset) || offset < 0) throw new GameLogInputError('store/bad-query', `offset must be a whole number ≥ 0, not ${String(offset)}`);
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

/** A new game's fields, checked, as the insert statements' parameters. */
function checkNewGame(game: NewGame) {
  if (!GAMES.has(game.game)) throw new GameLogInputError('store/bad-game', `unknown game ${JSON.stringify(game.game)}; expected one of ${GAME_NAMES.join(', ')}`);
  if (!SOURCES.has(game.source)) throw new GameLogInputError('store/bad-source', `unknown source ${JSON.stringify(game.source)}; expected one of ${GAME_SOURCES.join(', ')}`);
  if (typeof game.boardId !== 'string' || game.boardId === '') throw new GameLogInputError('store/bad-id', 'boardId must be a non-empty string');
  checkTime(game.at, 'at');
  if (!isPlainObject(game.options)) throw new GameLogInputError('store/not-json', 'options must be a plain object');
  if (!isPlainObject(game.players) || !Object.values(game.players).every((name) => typeof name === 'string')) {
    throw new GameLogInputError('store/not-json', "players must be a plain object of names by seat or side, e.g. { south: 'Anna', north: 'Ben' }");
  }
  return {
    game: game.game,
    options: toJsonText(game.options, 'options'),
    players: toJsonText(game.players, 'players'),
    boardId: game.boardId,
    source: game.source,
    at: game.at,
  };
}

/** The filter's fields that are set, checked, and their SQL parameters. */
function checkFilter(filter: GameFilter): { keys: (keyof GameFilter)[]; params: Record<string, string | number> } {
  const keys: (keyof GameFilter)[] = [];
  const params: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value === undefined) continue;
    if (key === 'game') {
      if (!GAMES.has(value as string)) throw new GameLogInputError('store/bad-game', `unknown game ${JSON.stringify(value)}; expected one of ${GAME_NAMES.join(', ')}`);
    } else if (key === 'board' || key === 'player') {
      if (typeof value !== 'string' || value === '' || value.length > MAX_FILTER_TEXT) {
        throw new GameLogInputError('store/bad-query', `${key} must be a text of 1 to ${MAX_FILTER_TEXT} characters`);
      }
    } else {
      checkTime(value as number, key);
    }
    keys.push(key);
    params[key] = value;
  }
  return { keys, params };
}

function checkTime(at: number, what: string): void {
  if (!Number.isSafeInteger(at) || at < 0) throw new GameLogInputError('store/bad-time', `${what} must be milliseconds since the epoch (a whole number ≥ 0), not ${String(at)}`);
}

function checkId(id: number, what: string): void {
  if (!Number.isSafeInteger(id) || id < 1) throw new GameLogInputError('store/bad-id', `${what} must be a whole number ≥ 1, not ${String(id)}`);
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Rows were checked on the way in and the schema is ours, so they are trusted on the way out.
function toGame(row: GameRow): GameRecord {
  return {
    id: row.id,
    game: row.game as GameName,
    options: JSON.parse(row.options),
    players: JSON.parse(row.players) as Players,
    boardId: row.board_id,
    source: row.source as GameSource,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    result: row.result === null ? null : JSON.parse(row.result),
    importedAt: row.imported_at,
  };
}

function toSummary(row: SummaryRow): GameSummary {
  return { ...toGame(row), plies: Number.isSafeInteger(row.plies) ? (row.plies as number) : 0 };
}

function toEvent(row: EventRow): GameEvent {
  return { gameId: row.game_id, seq: row.seq, at: row.at, kind: row.kind as EventKind, payload: JSON.parse(row.payload) };
}
