// Games as JSON: everything the log holds of a game, its events included.
//
// One game:  {"format":"spieltisch-game","version":1,"id":12,"game":"kalaha","options":{…},
//             "players":{"south":"Anna","north":"Ben"},"boardId":"vauban","source":"sensors",
//             "startedAt":1714564992345,"endedAt":1714567300002,"result":{…},
//             "moves":["C","e",…],"events":[{"seq":1,"at":…,"kind":"move","payload":{"move":"C","ply":1}},…]}
// Many:      {"format":"spieltisch-games","version":1,"games":[{…one game without format and version…},…]}
// Times are milliseconds since the epoch. On import a bare array of games is read too, times may
// be ISO strings with a zone, and only `game` (or a default) is needed; `events`, when given, are
// the truth and `moves` must agree with them.
import { GAME_NAMES } from '../rules/index.ts';
import type { GameName } from '../rules/index.ts';
import { GAME_SOURCES } from '../store/index.ts';
import type { GameSource } from '../store/index.ts';
import type { DeclaredGame } from './check.ts';
import { ImportError, parseImportJson } from './errors.ts';
import { parseIsoTime, type PortableGame } from './portable.ts';

export const JSON_FORMAT_ONE = 'spieltisch-game';
export const JSON_FORMAT_MANY = 'spieltisch-games';
export const JSON_VERSION = 1;

/** A game as a plain object (what the API's game endpoints build on). */
export function gameJson(g: PortableGame): object {
  return {
    id: g.id,
    game: g.game,
    options: g.options,
    players: g.players,
    boardId: g.boardId,
    source: g.source,
    startedAt: g.startedAt,
    endedAt: g.endedAt,
    result: g.result,
    moves: g.moves,
    ...(g.events ? { events: g.events } : {}),
  };
}

export function formatGameJson(g: PortableGame): string {
  return JSON.stringify({ format: JSON_FORMAT_ONE, version: JSON_VERSION, ...gameJson(g) }, null, 2) + '\n';
}

export function formatGamesJson(games: readonly PortableGame[]): string {
  return JSON.stringify({ format: JSON_FORMAT_MANY, version: JSON_VERSION, games: games.map(gameJson) }, null, 2) + '\n';
}

/** Reads one game, a `spieltisch-games` document, or an array of games. */
export function readGamesJson(text: string, defaultGame?: GameName): DeclaredGame[] {
  const doc = parseImportJson(text, 'The file');
  let items: unknown[];
  if (Array.isArray(doc)) items = doc;
  else if (isObject(doc)) {
    checkVersion(doc);
    if (doc.format === JSON_FORMAT_MANY || (doc.format === undefined && Array.isArray(doc.games))) {
      if (!Array.isArray(doc.games)) throw new ImportError('import/unreadable', 'A spieltisch-games document needs a "games" array.');
      items = doc.games;
    } else if (doc.format === undefined || doc.format === JSON_FORMAT_ONE) items = [doc];
    else throw new ImportError('import/unknown-format', `The JSON says it is "${String(doc.format)}", not ${JSON_FORMAT_ONE} or ${JSON_FORMAT_MANY}.`);
  } else throw new ImportError('import/unreadable', 'The JSON must be a game, a list of games, or a spieltisch-games document.');
  if (items.length === 0) throw new ImportError('import/empty', 'The file holds no game.');
  return items.map((item, i) => readOne(item, i + 1, defaultGame));
}

function checkVersion(doc: Record<string, unknown>): void {
  if (doc.version !== undefined && doc.version !== JSON_VERSION) {
    throw new ImportError('import/unknown-format', `The JSON is version ${JSON.stringify(doc.version)}; this Spieltisch reads version ${JSON_VERSION}.`);
  }
}

function readOne(item: unknown, index: number, defaultGame: GameName | undefined): DeclaredGame {
  const fail = (code: ConstructorParameters<typeof ImportError>[0], why: string): never => {
    throw new ImportError(code, `Game ${index}: ${why}`, { game: index });
  };
  if (!isObject(item)) return fail('import/unreadable', 'a game must be a JSON object');
  checkVersion(item);
  const game = item.game ?? defaultGame;
  if (game === undefined) fail('import/no-game', 'it does not say which game it is; add "game": "kalaha"');
  if (!(GAME_NAMES as readonly unknown[]).includes(game)) fail('import/bad-game', `"game" must be one of ${GAME_NAMES.join(', ')}, not ${JSON.stringify(game)}`);
  if (item.options !== undefined && !isObject(item.options)) fail('import/bad-options', '"options" must be an object');
  const players = item.players ?? {};
  if (!isObject(players) || !Object.values(players).every((n) => typeof n === 'string')) fail('import/bad-field', '"players" must be an object of names, such as {"south":"Anna","north":"Ben"}');
  const boardId = item.boardId ?? 'unknown';
  if (typeof boardId !== 'string' || boardId.trim() === '') fail('import/bad-field', '"boardId" must be a non-empty text');
  const source = item.source ?? 'hand';
  if (!(GAME_SOURCES as readonly unknown[]).includes(source)) fail('import/bad-field', `"source" must be one of ${GAME_SOURCES.join(', ')}`);
  const moves = item.moves;
  if (moves !== undefined && (!Array.isArray(moves) || !moves.every((m) => typeof m === 'string'))) fail('import/bad-field', '"moves" must be a list of move tokens');
  const events = item.events;
  if (events !== undefined && !Array.isArray(events)) fail('import/bad-event', '"events" must be a list');
  return {
    index,
    game: game as GameName,
    options: item.options,
    players: players as Record<string, string>,
    boardId: boardId as string,
    source: source as GameSource,
    startedAt: time(item.startedAt, 'startedAt', fail),
    endedAt: time(item.endedAt, 'endedAt', fail),
    ...(Object.hasOwn(item, 'result') ? { result: item.result } : {}),
    moves: (moves as string[] | undefined) ?? null,
    events: (events as unknown[] | undefined) ?? null,
  };
}

function time(value: unknown, what: string, fail: (code: 'import/bad-time', why: string) => never): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const ms = typeof value === 'string' ? parseIsoTime(value) : null;
  if (ms === null) fail('import/bad-time', `"${what}" must be milliseconds since the epoch or an ISO time with its zone`);
  return ms;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
