// HTTP and WebSocket face of one table: express serves the built pages and a small JSON API,
// `ws` at /ws sends every page a `sync` on connect and then the session's updates.
import express from 'express';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ClientMessage, ConsoleCommand, ServerMessage } from './messages.ts';
import type { GameLog } from '../store/index.ts';
import { gameLogApi } from './api.ts';

/** What the HTTP face needs of a live game. */
export interface LiveGame {
  sync(): ServerMessage;
  subscribe(listener: (message: ServerMessage, text: string) => void): () => void;
  /** A referee console's command (the token already checked). */
  command(stateId: number, command: ConsoleCommand): { readonly ok: boolean; readonly error?: string; readonly message?: string; readonly params?: Readonly<Record<string, string | number>> };
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
}

export interface RunningServer {
  readonly server: Server;
  readonly port: number;
  readonly clients: () => number;
  close(): Promise<void>;
}

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The largest amount of unsent data a slow page may have before it is dropped (it reconnects and syncs). */
const MAX_BUFFERED = 1 << 20;

export async function startHttp(game: LiveGame, options: HttpOptions): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    next();
  });
  app.get('/api/state', (_req, res) => {
    res.json(game.sync());
  });
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  if (options.log) {
    app.use('/api', gameLogApi({ log: options.log, boardId: options.boardId, authorize: (token) => sameToken(token, options.token) }));
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

  const server = createServer(app);
  const wss = new WebSocketServer({ server, path: '/ws', maxPayload: 4096 });
  wss.on('connection', (socket) => {
    socket.send(JSON.stringify(game.sync()));
    // A page is read-only until it presents the referee token.
    let authed = false;
    let garbage = 0;
    socket.on('message', (data) => {
      const reply = (ref: number, ok: boolean, error?: string, message?: string, params?: Readonly<Record<string, string | number>>) =>
        socket.send(JSON.stringify({ type: 'command-result', ref, ok, ...(error ? { error, message } : {}), ...(params ? { params } : {}) } satisfies ServerMessage));
      const message = parseClientMessage(String(data));
      if (!message) {
        // A client that keeps sending garbage is dropped; the others never notice.
        if (++garbage > 20) socket.terminate();
        else reply(0, false, 'console/bad-message', 'That message is not one the server understands.');
        return;
      }
      if (message.type === 'auth') {
        authed = sameToken(message.token, options.token);
        reply(0, authed, authed ? undefined : 'console/bad-token', authed ? undefined : 'That is not the referee token.');
        return;
      }
      if (!authed) {
        reply(message.ref, false, 'console/unauthorized', 'Console commands need the referee token.');
        return;
      }
      const result = game.command(message.stateId, message.command);
      reply(message.ref, result.ok, result.error, result.message, result.params);
    });
    socket.on('error', () => socket.terminate());
  });
  const unsubscribe = game.subscribe((_message, text) => {
    for (const client of wss.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (client.bufferedAmount > MAX_BUFFERED) {
        client.terminate();
        continue;
      }
      client.send(text);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    port,
    clients: () => wss.clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}

/** Constant-time comparison of tokens of any length (both are hashed first). */
function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const COMMANDS = ['choose', 'ask', 'undo', 'enter', 'agree', 'confirm', 'roll'] as const;

/** A console message, checked field by field; anything else is null. */
export function parseClientMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.type === 'auth') return typeof m.token === 'string' && m.token.length <= 256 ? { type: 'auth', token: m.token } : null;
  if (m.type !== 'command' || !Number.isSafeInteger(m.ref) || !Number.isSafeInteger(m.stateId)) return null;
  const c = m.command as Record<string, unknown> | null;
  if (typeof c !== 'object' || c === null || !(COMMANDS as readonly unknown[]).includes(c.kind)) return null;
  const move = typeof c.move === 'string' && c.move.length > 0 && c.move.length <= 64 ? c.move : null;
  let command: ConsoleCommand;
  switch (c.kind as (typeof COMMANDS)[number]) {
    case 'choose':
      if (!Number.isSafeInteger(c.questionId) || move === null) return null;
      command = { kind: 'choose', questionId: c.questionId as number, move };
      break;
    case 'enter':
      if (move === null) return null;
      command = { kind: 'enter', move };
      break;
    case 'undo':
      command = { kind: 'undo' };
      break;
    case 'ask':
      command = { kind: 'ask' };
      break;
    case 'agree':
      command = { kind: 'agree' };
      break;
    case 'confirm':
      command = { kind: 'confirm' };
      break;
    case 'roll':
      command = { kind: 'roll' };
      break;
  }
  return { type: 'command', ref: m.ref as number, stateId: m.stateId as number, command };
}
