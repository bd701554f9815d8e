// The setup page's control of the table over HTTP (mounted at /api/setup): what the board hosts and the game on it
// now for anyone; starting, ending and abandoning games, taring the scales and measuring the stones with the referee
// token only. Every refusal is a 4xx (or a 5xx the board caused) with `{ error, message }`.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { retrySeconds, type TokenCheck } from './attempts.ts';
import { GameLogWriteError } from '../store/index.ts';

/** What the routes need of the live table (server/table's LiveTable). Refusals are thrown with `status` and `code`. */
export interface SetupControl {
  setupState(): object;
  start(game: unknown, options: unknown, players: unknown, abandonRunning: boolean): Promise<object>;
  end(result: { readonly winner?: unknown; readonly reason?: unknown }): Promise<object>;
  abandon(): Promise<object>;
  tare(): Promise<object>;
  measureStones(): Promise<object>;
}

export interface SetupApiOptions {
  readonly table: SetupControl;
  /** The request's Bearer token judged: the referee's, missing or wrong, or one address guessing too often (attempts.ts). */
  readonly checkToken: (req: Request) => TokenCheck;
}

/** A setup request's body is a few names and options. */
export const MAX_SETUP_BODY_BYTES = 4096;

class Refusal extends Error {
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

/** The fields each request may carry; anything else is a 400, so a misspelt field is never ignored. */
const FIELDS = {
  start: ['game', 'options', 'players', 'abandon'],
  end: ['winner', 'reason'],
  abandon: [],
  tare: [],
  stones: [],
} as const;

export function setupApi(options: SetupApiOptions): Router {
  const { table } = options;
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/', (_req, res) => {
    res.json(table.setupState());
  });

  // Every change needs the token, checked before a byte of the body is read.
  const guard = (req: Request, _res: Response, next: NextFunction): void => {
    const check = options.checkToken(req);
    if (check.ok) return next();
    if (check.reason === 'too-many') {
      const seconds = retrySeconds(check);
      throw new Refusal(429, 'setup/too-many-attempts', `Too many wrong tokens came from this address: try again in ${seconds} s.`, { params: { seconds } }, { 'Retry-After': String(seconds) });
    }
    throw new Refusal(401, 'setup/unauthorized', 'Changing the table needs the referee token: Authorization: Bearer <token>.');
  };
  const json = express.json({ limit: MAX_SETUP_BODY_BYTES, strict: true });
  const post = (path: string, fields: readonly string[], act: (body: Record<string, unknown>) => Promise<object>): void => {
    router.post(path, guard, json, async (req: Request, res: Response) => {
      const body = bodyOf(req, fields);
      const done = await act(body);
      res.json({ ok: true, ...done, state: table.setupState() });
    });
  };

  post('/start', FIELDS.start, (body) => {
    if (body.game === undefined) throw new Refusal(400, 'setup/bad-body', 'Name the game to start: {"game": "kalaha", "options": {…}, "players": ["Anna", "Ben"]}.');
    if (body.abandon !== undefined && typeof body.abandon !== 'boolean') throw new Refusal(400, 'setup/bad-body', '"abandon" is true or false.');
    return table.start(body.game, body.options, body.players, body.abandon === true);
  });
  post('/end', FIELDS.end, (body) => table.end({ winner: body.winner, reason: body.reason }));
  post('/abandon', FIELDS.abandon, () => table.abandon());
  post('/tare', FIELDS.tare, () => table.tare());
  post('/stones', FIELDS.stones, async () => ({ measured: await table.measureStones() }));

  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const e = toRefusal(error);
    if (e === null) return next(error);
    if (e.status === 401) res.set('WWW-Authenticate', 'Bearer');
    res.set(e.headers);
    res.status(e.status).json({ error: e.code, message: e.message, ...e.extra });
  });
  return router;
}

/** The JSON object sent, with known fields only; no body at all is an empty one. */
function bodyOf(req: Request, fields: readonly string[]): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) {
    // express.json reads JSON only; a body of another type was left unread.
    if (Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined) {
      throw new Refusal(415, 'setup/not-json', 'Send the body as JSON (Content-Type: application/json).');
    }
    return {};
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Refusal(400, 'setup/bad-body', 'The body must be a JSON object.');
  for (const key of Object.keys(body)) {
    if (!fields.includes(key)) {
      throw new Refusal(400, 'setup/unknown-field', fields.length ? `Unknown field "${key}"; this request takes ${fields.join(', ')}.` : `Unknown field "${key}"; this request takes none.`);
    }
  }
  return body as Record<string, unknown>;
}

function toRefusal(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  // Events wait for a game log that cannot be written: the game is not ended or changed under them.
  if (error instanceof GameLogWriteError) {
    return new Refusal(503, 'setup/log-unwritable', `The game log cannot be written (${error.reason}); the game stays as it is until it can.`, { reason: error.reason });
  }
  const e = error as { status?: unknown; code?: unknown; message?: unknown; extra?: unknown; type?: unknown; limit?: unknown };
  if (e === null || typeof e !== 'object') return null;
  // The table's own refusals (SetupError) carry a status and a stable code.
  if (typeof e.status === 'number' && typeof e.code === 'string' && e.code.startsWith('setup/') && typeof e.message === 'string') {
    return new Refusal(e.status, e.code, e.message, typeof e.extra === 'object' && e.extra !== null ? e.extra : {});
  }
  // body-parser's refusals carry a status and a type.
  if (e.type === 'entity.parse.failed') return new Refusal(400, 'setup/bad-json', 'The body is not valid JSON.');
  if (e.type === 'entity.too.large') return new Refusal(413, 'setup/too-large', `The body is larger than the ${String(e.limit)} bytes a setup request may be.`);
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') return new Refusal(415, 'setup/unsupported-encoding', 'Send the body as UTF-8 JSON.');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new Refusal(e.status, 'setup/bad-body', 'The request body could not be read.');
  return null;
}
