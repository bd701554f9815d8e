// What a game log is, whichever database holds it: the records, and the calls the service makes.
import type { GameName } from '../rules/types.ts';

/**
 * `correction`: the record from `ply` on was `old` and is now `new` (payload `{ply, old, new, reason}`);
 * a reader cuts the record to `ply - 1` and appends `new` (recordOf in server/session).
 */
export const EVENT_KINDS = ['move', 'takeback', 'correction', 'answer', 'alert', 'fault', 'end', 'note'] as const;
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

/**
 * What the connection really runs with, read back from the database, for start-up logs and tests.
 * PostgreSQL always writes ahead; its `synchronous_commit` and `fsync` are reported as SQLite's
 * nearest `synchronous` level.
 */
export interface Durability {
  readonly journalMode: string;
  readonly synchronous: 'off' | 'normal' | 'full' | 'extra';
}

export interface GameLog {
  /** Where the log is: a file, or a PostgreSQL address without its password. */
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
  /**
   * What openGameLog opens this same log with on another connection, from another thread (an import's worker
   * writes on a connection of its own); null for a log no other connection sees (`:memory:`). It may hold a
   * PostgreSQL password: it is for openGameLog only, never for a message.
   */
  sharedAddress(): string | null;
  close(): void;
}

