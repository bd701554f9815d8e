// HTTP and WebSocket face of one table: express serves the built pages and a small JSON API,
// `ws` at /ws sends every page a `sync` on connect and then the session's updates.
import express, { type NextFunction, type Request, type Response } from 'express';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { ConsoleCommand, RawFrameMessage, ServerMessage } from './messages.ts';
import type { GameLog } from '../store/index.ts';
import { gameLogApi } from './api.ts';
import { setupApi, type SetupControl } from './setup-api.ts';
import { readPageMessage } from './schemas.ts';
import {
  BAD_TOKEN_COST,
  CLOSE_GRACE_MS,
  CLOSE_POLICY,
  GARBAGE_COST,
  MAX_BUFFERED_BYTES,
  MAX_MESSAGE_BYTES,
  MESSAGE_BURST,
  MESSAGES_PER_SECOND,
  TokenBucket,
  httpErrors,
  originAllowed,
  securityHeaders,
} from './security.ts';
import { TokenGuard, bearerCheck, retrySeconds } from './attempts.ts';
import { HostNames, unknownHostRefusal } from './hosts.ts';

export { parseClientMessage } from './schemas.ts';

/** What the HTTP face needs of a live game. */
export interface LiveGame {
  sync(): ServerMessage;
  subscribe(listener: (message: ServerMessage, text: string) => void): () => void;
  /** A referee console's command (the token already checked). */
  command(stateId: number, command: ConsoleCommand): { readonly ok: boolean; readonly error?: string; readonly message?: string; readonly params?: Readonly<Record<string, string | number>> };
  /** The board's raw frames, throttled, for the pages that ask (`{"type":"raw","on":true}`); absent: none. */
  subscribeRaw?(listener: (message: RawFrameMessage, text: string) => void): () => void;
}

export interface HttpOptions {
  readonly port: number;
  readonly host?: string;
  /** Folder of the built pages (web/dist). */
  readonly webRoot?: string;
  /** The referee token: console commands without it are refused. */
  readonly token: string;
  /** The game log: with it, /api/games and /api/stats serve the history (api.ts). */
  readonly log?: GameLog;
  /** This table's board id, for "today at this table". */
  readonly boardId?: string;
  /** The live table's setup controls: with them, /api/setup serves the setup page (setup-api.ts). */
  readonly setup?: SetupControl;
  /**
   * Page origins besides this server's own whose pages may sign in as the referee over the WebSocket
   * (`https://spieltisch.example` behind a proxy that rewrites Host). Reading needs no origin check.
   */
  readonly allowedOrigins?: readonly string[];
  /** Told of an exception a command or a request met (default: one line on standard error); the client gets a refusal. */
  readonly onError?: (error: unknown, where: string) => void;
  /**
   * Names the service answers to besides the machine's own (localhost, its addresses and hostname): `--host`.
   * A request whose Host header names anything else is refused with 421 (hosts.ts); `*` turns the check off.
   */
  readonly hostNames?: readonly string[];
  /** Where lines for the operator go (refused token guesses); default stderr. */
  readonly securityLog?: (line: string) => void;
  /** Largest import body in bytes (api.ts); default 2 MiB. */
  readonly maxImportBytes?: number;
}

/** One line naming where and what: the stack belongs in a bug report, not in the table's log. */
export function reportError(error: unknown, where: string): void {
  const e = error as { name?: unknown; message?: unknown };
  const what = e && typeof e === 'object' && typeof e.message === 'string' ? `${String(e.name ?? 'Error')}: ${e.message}` : String(error);
  process.stderr.write(`spieltisch: ${where} failed: ${what}\n`);
}

/** Why the server closed a client's WebSocket. */
export type DropReason = 'flood' | 'slow';

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly clients: () => number;
  /** Clients dropped since start, by reason. */
  readonly drops: () => Readonly<Record<DropReason, number>>;
  close(): Promise<void>;
}

/** The host name of an origin such as `https://spieltisch.example:8443`; none when it is not a URL. */
function originHost(origin: string): string[] {
  try {
    return [new URL(origin).hostname.replace(/^\[|\]$/g, '')];
  } catch {
    return [];
  }
}

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function startHttp(game: LiveGame, options: HttpOptions): Promise<RunningServer> {
  const report = options.onError ?? reportError;
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  // The names of the allowed origins are names a proxy may pass on as the Host.
  const hosts = new HostNames([...(options.hostNames ?? []), ...(options.allowedOrigins ?? []).flatMap(originHost)]);
  app.use((req, res, next) => {
    const host = req.get('host');
    if (host === undefined || hosts.allows(host)) return next();
    const refusal = unknownHostRefusal(host);
    res.status(refusal.status);
    if (req.path.startsWith('/api/') || req.path === '/healthz') res.json({ error: refusal.code, message: refusal.message });
    else res.type('text/plain; charset=utf-8').send(refusal.text);
  });
  // One record of wrong tokens for the WebSocket and every HTTP route: a guesser gains nothing by switching.
  const guard = new TokenGuard(options.token, { log: options.securityLog ?? ((line) => process.stderr.write(`${line}\n`)) });
  const checkToken = (req: express.Request) => bearerCheck(guard, req);
  app.get('/api/state', (_req, res) => {
    res.json(game.sync());
  });
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  if (options.setup) app.use('/api/setup', setupApi({ table: options.setup, checkToken }));
  if (options.log) {
    app.use('/api', gameLogApi({ log: options.log, boardId: options.boardId, checkToken, maxImportBytes: options.maxImportBytes }));
  }

  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  if (existsSync(join(webRoot, 'index.html'))) {
    app.use(express.static(webRoot, { index: 'index.html', extensions: ['html'] }));
    app.get('/display', (_req, res) => res.sendFile(join(webRoot, 'index.html')));
  } else {
    app.get('/', (_req, res) => {
      res
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('Die Seiten sind noch nicht gebaut: npm run build:web\nThe pages are not built yet: npm run build:web\n');
    });
  }
  app.use('/api', (_req, res) => {
    res.status(404).json({ error: 'not-found', message: 'No such API route.' });
  });
  app.use((error: unknown, req: Request, _res: Response, next: NextFunction) => {
    // A body that could not be read is the client's (a 4xx); anything else is a bug to log before httpErrors answers.
    const status = (error as { status?: unknown } | null)?.status;
    if (!(typeof status === 'number' && status >= 400 && status < 500)) report(error, `${req.method} ${req.path}`);
    next(error);
  });
  app.use(httpErrors());

  const server = createServer(app);
  // Every page gets the same bytes: compressing them per page would cost more CPU than the LAN saves.
  const wss = new WebSocketServer({
    server,
    path: '/ws',
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    verifyClient: (info, done) => {
      const host = info.req.headers.host;
      if (host === undefined || hosts.allows(host)) return done(true);
      done(false, 421, unknownHostRefusal(host).text, { 'Content-Type': 'text/plain; charset=utf-8' });
    },
  });
  const drops: Record<DropReason, number> = { flood: 0, slow: 0 };
  // Raw frames go only to the sockets that asked; the table makes none while nobody does.
  const rawSockets = new Set<WebSocket>();
  let stopRaw: (() => void) | null = null;
  const wantRaw = (socket: WebSocket, on: boolean): void => {
    if (on) rawSockets.add(socket);
    else rawSockets.delete(socket);
    if (rawSockets.size && !stopRaw && game.subscribeRaw) {
      stopRaw = game.subscribeRaw((_message, text) => {
        for (const client of rawSockets) if (client.readyState === WebSocket.OPEN && client.bufferedAmount <= MAX_BUFFERED_BYTES) client.send(text);
      });
    } else if (!rawSockets.size && stopRaw) {
      stopRaw();
      stopRaw = null;
    }
  };
  wss.on('error', (e) => report(e, 'the WebSocket server'));
  wss.on('connection', guarded(report, 'a page connecting', (socket: WebSocket, request: IncomingMessage) => {
    socket.send(JSON.stringify(game.sync()));
    // A page is read-only until it presents the referee token, from a page this server served (README, "Security").
    let authed = false;
    let dropped = false;
    const mayAuth = originAllowed(request.headers.origin, request.headers.host, options.allowedOrigins);
    const bucket = new TokenBucket(MESSAGE_BURST, MESSAGES_PER_SECOND, performance.now());
    /** Spends from the connection's allowance; a client over it is closed, and the others never notice. */
    const allow = (cost: number): boolean => {
      if (bucket.take(cost, performance.now())) return true;
      dropped = true;
      drops.flood++;
      socket.close(CLOSE_POLICY, 'too many messages');
      // A client that does not answer the close is cut off rather than waited for.
      const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
      return false;
    };
    socket.on('message', guarded(report, 'a page message', (data: RawData, isBinary: boolean) => {
      if (dropped) return;
      const reply = (ref: number, ok: boolean, error?: string, message?: string, params?: Readonly<Record<string, string | number>>) =>
        socket.send(JSON.stringify({ type: 'command-result', ref, ok, ...(error ? { error, message } : {}), ...(params ? { params } : {}) } satisfies ServerMessage));
      const reading = isBinary ? null : readPageMessage(String(data));
      if (!reading?.ok) {
        if (allow(GARBAGE_COST)) reply(0, false, 'console/bad-message', reading?.message ?? 'That message is not one the server understands: send text, not binary.');
        return;
      }
      const message = reading.message;
      if (message.type === 'raw') {
        if (allow(1)) wantRaw(socket, message.on);
        return;
      }
      if (message.type === 'auth') {
        if (!mayAuth) {
          authed = false;
          if (allow(BAD_TOKEN_COST)) reply(0, false, 'console/bad-origin', 'Console commands are taken only from pages this server served.');
          return;
        }
        const check = guard.check(request.socket.remoteAddress, message.token);
        authed = check.ok;
        if (!allow(authed ? 1 : BAD_TOKEN_COST)) return;
        if (check.ok) reply(0, true);
        else if (check.reason === 'too-many') {
          const seconds = retrySeconds(check);
          reply(0, false, 'console/too-many-attempts', `Too many wrong tokens came from this address: try again in ${seconds} s.`, { seconds });
        } else reply(0, false, 'console/bad-token', 'That is not the referee token.');
        return;
      }
      if (!allow(1)) return;
      if (!authed) {
        reply(message.ref, false, 'console/unauthorized', 'Console commands need the referee token.');
        return;
      }
      let result: ReturnType<LiveGame['command']>;
      try {
        result = game.command(message.stateId, message.command);
      } catch (e) {
        // The last guard: a command that throws is a bug to fix, but it is this console's refusal, never the end
        // of the service every page depends on.
        report(e, `console command ${message.command.kind}`);
        result = { ok: false, error: 'console/failed', message: 'The server could not carry out this command; the game is as the pages show it.' };
      }
      reply(message.ref, result.ok, result.error, result.message, result.params);
    }));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => wantRaw(socket, false));
  }));
  const unsubscribe = game.subscribe((_message, text) => {
    // Encoded once for all pages: ws would otherwise turn the string into bytes once per page.
    const frame = Buffer.from(text);
    for (const client of wss.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (client.bufferedAmount > MAX_BUFFERED_BYTES) {
        drops.slow++;
        client.terminate();
        continue;
      }
      client.send(frame, { binary: false });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  server.on('error', (e) => report(e, 'the HTTP server'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    port,
    clients: () => wss.clients.size,
    drops: () => ({ ...drops }),
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        stopRaw?.();
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}

/** `listener`, with an exception it throws reported instead of thrown into the event emitter (which would end the process). */
function guarded<A extends unknown[]>(report: (error: unknown, where: string) => void, where: string, listener: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      listener(...args);
    } catch (e) {
      report(e, where);
    }
  };
}
