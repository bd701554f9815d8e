// What both stores share: every input checked at the boundary, and rows read back into records.
import { GAME_NAMES } from '../rules/types.ts';
import type { GameName } from '../rules/types.ts';
import { GameLogInputError } from './errors.ts';
import { toJsonText } from './json.ts';
import { EVENT_KINDS, GAME_SOURCES, MAX_LIST_LIMIT } from './types.ts';
import type { EventKind, GameEvent, GameFilter, GameQuery, GameRecord, GameSource, GameSummary, ImportedGame, NewEvent, NewGame, Players } from './types.ts';

/** A row of `games` as both databases return it: JSON as text, times as numbers. */
export interface GameRow {
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

export interface SummaryRow extends GameRow {
  plies: unknown;
}

export interface EventRow {
  game_id: number;
  seq: number;
  at: number;
  kind: string;
  payload: string;
}

/** Each filter field in the order the SQL of both stores lists them. */
export const FILTER_KEYS: readonly (keyof GameFilter)[] = ['game', 'board', 'player', 'from', 'to'];

export const KINDS_APPENDED: ReadonlySet<string> = new Set(EVENT_KINDS.filter((k) => k !== 'end'));
const SOURCES: ReadonlySet<string> = new Set(GAME_SOURCES);
const GAMES: ReadonlySet<string> = new Set(GAME_NAMES);
/** Longest board id or player name a filter may ask for. */
const MAX_FILTER_TEXT = 200;

/** A new game's fields, checked, as the insert statements' parameters. */
export function checkNewGame(game: NewGame) {
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
export function checkFilter(filter: GameFilter): { keys: (keyof GameFilter)[]; params: Record<string, string | number> } {
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

export function checkTime(at: number, what: string): void {
  if (!Number.isSafeInteger(at) || at < 0) throw new GameLogInputError('store/bad-time', `${what} must be milliseconds since the epoch (a whole number ≥ 0), not ${String(at)}`);
}

export function checkId(id: number, what: string): void {
  if (!Number.isSafeInteger(id) || id < 1) throw new GameLogInputError('store/bad-id', `${what} must be a whole number ≥ 1, not ${String(id)}`);
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Rows were checked on the way in and the schema is ours, so they are trusted on the way out.
export function toGame(row: GameRow): GameRecord {
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

export function toSummary(row: SummaryRow): GameSummary {
  return { ...toGame(row), plies: Number.isSafeInteger(row.plies) ? (row.plies as number) : 0 };
}

export function toEvent(row: EventRow): GameEvent {
  return { gameId: row.game_id, seq: row.seq, at: row.at, kind: row.kind as EventKind, payload: JSON.parse(row.payload) };
}

/** A page's limit and offset, checked. */
export function checkPage(query: GameQuery): { limit: number; offset: number } {
  const { limit = 50, offset = 0 } = query;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new GameLogInputError('store/bad-query', `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}, not ${String(limit)}`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw new GameLogInputError('store/bad-query', `offset must be a whole number ≥ 0, not ${String(offset)}`);
  return { limit, offset };
}

/** An event for `append`, checked, with its payload as JSON text. */
export function checkAppended(event: NewEvent): { at: number; kind: string; payload: string } {
  if (!KINDS_APPENDED.has(event.kind)) {
    const hint = (event.kind as string) === 'end' ? '; a game is ended with endGame, which writes the end event' : '';
    throw new GameLogInputError('store/bad-kind', `unknown event kind ${JSON.stringify(event.kind)}${hint}`);
  }
  checkTime(event.at, 'at');
  return { at: event.at, kind: event.kind, payload: toJsonText(event.payload, 'payload') };
}

/** An imported game, checked whole before anything is written. */
export function checkImported(game: ImportedGame) {
  const row = { ...checkNewGame({ ...game, at: game.startedAt }), importedAt: game.importedAt };
  checkTime(game.importedAt, 'importedAt');
  if (!Array.isArray(game.events)) throw new GameLogInputError('store/bad-import', 'events must be an array');
  const events = game.events.map((event, i) => {
    if (!KINDS_APPENDED.has(event.kind)) throw new GameLogInputError('store/bad-kind', `event ${i + 1}: unknown event kind ${JSON.stringify(event.kind)}`);
    checkTime(event.at, `event ${i + 1}: at`);
    return { at: event.at, kind: event.kind, payload: toJsonText(event.payload, `event ${i + 1}: payload`) };
  });
  checkTime(game.end.at, 'end.at');
  return { row, events, end: { at: game.end.at, result: toJsonText(game.end.result, 'result') } };
}

/** `afterSeq` of `events`, checked. */
export function checkAfterSeq(afterSeq: number): void {
  if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new GameLogInputError('store/bad-query', `afterSeq must be a whole number ≥ 0, not ${String(afterSeq)}`);
}
