// The game log over HTTP: JSON for the history and statistics pages, downloads, and import
// (README.md, "REST API"). Every refusal is a 4xx with `{ error, message }`.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { GAME_NAMES, type GameName } from '../rules/index.ts';
import { GameLogInputError, MAX_LIST_LIMIT, dayRange, gameStats, localDay, tally, type GameFilter, type GameLog, type GameRecord } from '../store/index.ts';
import { recordOf } from '../session/index.ts';
import { retrySeconds, type TokenCheck } from './attempts.ts';
import { CONTENT_TYPES, FORMATS, ImportError, exportGames, formatGame, importGamesAsync, isFormat, portableFromLog, positionsOf, type Format } from '../export/index.ts';

export interface ApiOptions {
  readonly log: GameLog;
  /** This table's board id: what "today at this table" counts when a request names no board. */
  readonly boardId?: string;
  /** The request's Bearer token judged: the referee's, missing or wrong, or one address guessing too often (attempts.ts). */
  readonly checkToken: (req: Request) => TokenCheck;
  /** Wall clock (ms since the epoch): which day is today. */
  readonly now?: () => number;
  /** Largest import body in bytes; default 2 MiB. */
  readonly maxImportBytes?: number;
}

export const DEFAULT_MAX_IMPORT_BYTES = 2 * 1024 * 1024;
const DEFAULT_LIMIT = 50;
const MAX_TEXT = 200;

/** A refusal: HTTP status, stable code, sentence. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: object = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

const FILTER_PARAMS = ['game', 'board', 'player', 'day', 'from', 'to'] as const;

/** The routes under /api that read and add to the game log. */
export function gameLogApi(options: ApiOptions): Router {
  const { log } = options;
  const now = options.now ?? Date.now;
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/games', (req, res) => {
    const q = params(req, [...FILTER_PARAMS, 'limit', 'offset']);
    const filter = filterOf(q);
    const limit = whole(q.limit, 'limit', 1, MAX_LIST_LIMIT) ?? DEFAULT_LIMIT;
    const offset = whole(q.offset, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const games = log.listGames({ ...filter, limit, offset }).map((g) => ({ ...g, live: g.endedAt === null }));
    res.json({ total: log.countGames(filter), limit, offset, games });
  });

  // Before /games/:id, which would take "export" for an id.
  router.get('/games/export', (req, res) => {
    const q = params(req, [...FILTER_PARAMS, 'format']);
    const format = formatOf(q.format);
    const { text } = exportGames(log, filterOf(q), format);
    download(res, text, format, `spieltisch-games.${format}`);
  });

  router.get('/games/:id', (req, res) => {
    const q = params(req, ['after']);
    const game = gameOf(log, req.params.id);
    const after = whole(q.after, 'after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const events = log.events(game.id);
    const moves = recordOf(events);
    res.json({
      ...game,
      plies: moves.length,
      live: game.endedAt === null,
      moves,
      events: events.filter((e) => e.seq > after).map((e) => ({ seq: e.seq, at: e.at, kind: e.kind, payload: e.payload })),
    });
  });

  router.get('/games/:id/positions', (req, res) => {
    params(req, []);
    const game = gameOf(log, req.params.id);
    const moves = recordOf(log.events(game.id));
    const replayed = positionsOf(game.game, game.options, moves);
    if ('optionsError' in replayed) {
      throw new ApiError(422, 'api/cannot-replay', `The engine refuses the options this game was logged with: ${replayed.optionsError.message}`);
    }
    const error = replayed.error && { ply: replayed.error.ply, move: replayed.error.move, code: replayed.error.error.code, message: replayed.error.error.message };
    res.json({ id: game.id, game: game.game, options: game.options, moves, steps: replayed.steps, error });
  });

  router.get('/games/:id/export', (req, res) => {
    const q = params(req, ['format']);
    const game = gameOf(log, req.params.id);
    const format = formatOf(q.format);
    download(res, formatGame(portableFromLog(log, game), format), format, `spieltisch-${game.id}-${game.game}.${format}`);
  });

  router.post(
    '/games/import',
    (req, _res, next) => {
      // The token is checked before a byte of the body is read.
      const check = options.checkToken(req);
      if (check.ok) return next();
      if (check.reason === 'too-many') {
        const seconds = retrySeconds(check);
        throw new ApiError(429, 'api/too-many-attempts', `Too many wrong tokens came from this address: try again in ${seconds} s.`, { params: { seconds } }, { 'Retry-After': String(seconds) });
      }
      throw new ApiError(401, 'api/unauthorized', 'Importing games needs the referee token: Authorization: Bearer <token>.');
    },
    // The bytes as they came: decoding them, and copying them to the worker as text, would cost the table's
    // thread milliseconds per megabyte; the worker decodes them (import-thread.ts).
    express.raw({ type: () => true, limit: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES }),
    async (req: Request, res: Response) => {
      const q = params(req, ['format', 'game']);
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const charset = charsetOf(req.get('content-type'));
      if (blank(body)) throw new ApiError(400, 'api/empty-body', 'Send the games to import as the request body (text notation, JSON or CSV).');
      const format = q.format === undefined ? formatFromType(req.get('content-type')) : formatOf(q.format);
      const game = q.game === undefined ? undefined : gameNameOf(q.game);
      const report = await importGamesAsync(log, body, { format, game, charset, now: now() });
      res.status(report.imported.length ? 201 : 200).json(report);
    },
  );

  router.get('/players', (req, res) => {
    const q = params(req, [...FILTER_PARAMS]);
    res.json({ players: log.players(filterOf(q)) });
  });

  router.get('/stats', (req, res) => {
    const q = params(req, [...FILTER_PARAMS]);
    const filter = filterOf(q);
    const stats = gameStats(log.allGames(filter), GAME_NAMES);
    const board = filter.board ?? options.boardId;
    const today = localDay(now());
    let todayAtTable = null;
    if (board !== undefined) {
      const range = dayRange(today) as { from: number; to: number };
      todayAtTable = { day: today, board, ...tally(log.allGames({ board, ...range, ...(filter.game ? { game: filter.game } : {}) })) };
    }
    res.json({ filter: { ...q }, ...stats, today: todayAtTable });
  });

  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const e = toApiError(error);
    if (e === null) return next(error);
    if (e.status === 401) res.set('WWW-Authenticate', 'Bearer');
    res.set(e.headers);
    res.status(e.status).json({ error: e.code, message: e.message, ...e.extra });
  });
  return router;
}

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof ImportError) return new ApiError(400, error.code, error.message, error.details);
  if (error instanceof GameLogInputError) return new ApiError(400, error.code, error.message);
  // body-parser's refusals carry a status and a type.
  const e = error as { status?: unknown; type?: unknown; limit?: unknown };
  if (e && e.type === 'entity.too.large') return new ApiError(413, 'api/too-large', `The body is larger than the ${String(e.limit)} bytes an import may be.`);
  if (e && e.type === 'charset.unsupported') return new ApiError(415, 'api/unsupported-charset', 'Send the body as UTF-8.');
  if (e && e.type === 'encoding.unsupported') return new ApiError(415, 'api/unsupported-encoding', 'The body’s Content-Encoding is not one the server reads (gzip, deflate, identity).');
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'api/bad-body', 'The request body could not be read.');
  return null;
}

/** The query's parameters, each given once and each known; anything else is a 400. */
function params(req: Request, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (!allowed.includes(key)) {
      throw new ApiError(400, 'api/unknown-parameter', allowed.length ? `Unknown parameter "${key}"; this route takes ${allowed.join(', ')}.` : `Unknown parameter "${key}"; this route takes none.`);
    }
    if (typeof value !== 'string') throw new ApiError(400, 'api/bad-query', `Give the parameter "${key}" once, as plain text.`);
    out[key] = value;
  }
  return out;
}

function whole(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ApiError(400, 'api/bad-query', `"${name}" must be a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any' : max}, not "${value}".`);
  }
  return n;
}

function gameNameOf(value: string): GameName {
  if ((GAME_NAMES as readonly string[]).includes(value)) return value as GameName;
  throw new ApiError(400, 'api/bad-query', `"game" must be one of ${GAME_NAMES.join(', ')}, not "${value}".`);
}

function text(value: string, name: string): string {
  if (value === '' || value.length > MAX_TEXT) throw new ApiError(400, 'api/bad-query', `"${name}" must be 1 to ${MAX_TEXT} characters.`);
  return value;
}

function day(value: string, name: string): { from: number; to: number } {
  const range = dayRange(value);
  if (!range) throw new ApiError(400, 'api/bad-query', `"${name}" must be a day such as 2024-05-01, not "${value}".`);
  return range;
}

/** The filters of a query: `day`, or `from` and/or `to` (days, both included); the server's local days. */
function filterOf(q: Record<string, string>): GameFilter {
  const filter: { -readonly [K in keyof GameFilter]: GameFilter[K] } = {};
  if (q.game !== undefined) filter.game = gameNameOf(q.game);
  if (q.board !== undefined) filter.board = text(q.board, 'board');
  if (q.player !== undefined) filter.player = text(q.player, 'player');
  if (q.day !== undefined) {
    if (q.from !== undefined || q.to !== undefined) throw new ApiError(400, 'api/bad-query', 'Give "day", or "from" and "to", not both.');
    Object.assign(filter, day(q.day, 'day'));
  }
  if (q.from !== undefined) filter.from = day(q.from, 'from').from;
  if (q.to !== undefined) filter.to = day(q.to, 'to').to;
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw new ApiError(400, 'api/bad-query', '"from" must not be after "to".');
  }
  return filter;
}

function formatOf(value: string | undefined): Format {
  if (value === undefined) return 'pgn';
  if (isFormat(value)) return value;
  throw new ApiError(400, 'api/bad-query', `"format" must be one of ${FORMATS.join(', ')}, not "${value}".`);
}

/** The format a Content-Type names; undefined to find it from the body. */
/** The body's charset from its Content-Type, as a TextDecoder label; none given is UTF-8; one TextDecoder does not know is a 415. */
function charsetOf(type: string | undefined): string {
  const given = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type ?? '')?.[1];
  if (given === undefined) return 'utf-8';
  try {
    return new TextDecoder(given).encoding;
  } catch {
    throw new ApiError(415, 'api/unsupported-charset', 'Send the body as UTF-8.');
  }
}

/** Nothing but ASCII white space (a file that is not, in any charset, is told apart by the import itself). Stops at the first other byte. */
function blank(body: Uint8Array): boolean {
  for (const byte of body) if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return false;
  return true;
}

function formatFromType(type: string | undefined): Format | undefined {
  const mime = type?.split(';')[0].trim().toLowerCase();
  if (mime === 'application/json') return 'json';
  if (mime === 'text/csv') return 'csv';
  if (mime === 'application/x-chess-pgn' || mime === 'application/vnd.spieltisch.record') return 'pgn';
  return undefined;
}

function gameOf(log: GameLog, idText: string): GameRecord {
  const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id)) throw new ApiError(400, 'api/bad-id', `A game id is a whole number from 1, not "${idText}".`);
  const game = log.game(id);
  if (!game) throw new ApiError(404, 'api/no-such-game', `There is no game ${id} in the log.`);
  return game;
}

function download(res: Response, body: string, format: Format, filename: string): void {
  res.set({ 'Content-Type': CONTENT_TYPES[format], 'Content-Disposition': `attachment; filename="${filename}"` });
  res.send(body);
}
