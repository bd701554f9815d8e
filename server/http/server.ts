// HTTP and WebSocket face of one table: express serves the built pages and a small JSON API,
// `ws` at /ws sends every page a `sync` on connect and then the session's updates.
import express from 'express';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';
import type { ServerMessage } from './messages.ts';

/** What the HTTP face needs of a live game. */
export interface LiveGame {
  sync(): ServerMessage;
  subscribe(listener: (message: ServerMessage, text: string) => void): () => void;
}

export interface HttpOptions {
  readonly port: number;
  readonly host?: string;
  /** Folder of the built pages (web/dist). */
  readonly webRoot?: string;
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
    // Pages are read-only here: anything they send is ignored (commands arrive with the referee console).
    socket.on('message', () => {});
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
