// The broadcast service: subscribes to every table under spieltisch/+/+/#, keeps each board's
// latest picture (BoardBook), and serves it to the tournament pages: /api/boards, a WebSocket at
// /ws, the tournament display at /tournament and a page per board at /tournament/<site>/<board>.
import express from 'express';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DEFAULT_WEB_ROOT } from '../http/index.ts';
import { BoardBook, type Outcome } from './boards.ts';
import { EVERY_TABLE, isTopicName, topicOf } from './topics.ts';
import { noDelay, safeUrl } from './publisher.ts';
import type { BroadcastMessage, BrokerState } from './messages.ts';

export interface BroadcastOptions {
  /** The broker, as for `serve --mqtt`. */
  readonly url: string;
  /** HTTP port; 0 picks a free one. */
  readonly port: number;
  readonly host?: string;
  /** Folder of the built pages (web/dist). */
  readonly webRoot?: string;
  /**
   * The broker keeps this client's subscription and queues what it misses while away (a persistent
   * session). Two broadcast services need two ids.
   */
  readonly clientId?: string;
  readonly now?: () => number;
  readonly onNotice?: (line: string) => void;
  /** For tests: more or other options of the mqtt client. */
  readonly client?: Partial<IClientOptions>;
}

export interface RunningBroadcast {
  readonly port: number;
  readonly server: Server;
  readonly book: BoardBook;
  broker(): BrokerState;
  /** Hears every message's outcome, after the book has taken it in. */
  subscribe(listener: (outcome: Outcome) => void): () => void;
  clients(): number;
  close(): Promise<void>;
}

/** The largest amount of unsent data a slow page may have before it is dropped (it reconnects and gets every board anew). */
const MAX_BUFFERED = 1 << 21;

export async function startBroadcast(options: BroadcastOptions): Promise<RunningBroadcast> {
  const now = options.now ?? Date.now;
  const book = new BoardBook(now);
  const listeners = new Set<(outcome: Outcome) => void>();
  const url = safeUrl(options.url);
  let broker: BrokerState = { connected: false, url, since: now() };
  /** Boards whose retained state was asked for after a gap: their extra subscription goes once they are whole. */
  const resyncing = new Set<string>();

  const client: MqttClient = connect(options.url, {
    clientId: options.clientId ?? `spieltisch-broadcast-${hostname()}`,
    clean: false,
    keepalive: 15,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // Subscribed anew below, exactly when the broker has forgotten us.
    resubscribe: false,
    ...options.client,
  });
  let firstConnect = true;
  client.on('connect', (connack) => {
    noDelay(client);
    // A fresh subscription brings every retained state and status; a kept session brings what
    // was queued while we were away instead.
    if (firstConnect || !connack.sessionPresent) client.subscribe(EVERY_TABLE, { qos: 1 });
    firstConnect = false;
    broker = { connected: true, url, since: now() };
    options.onNotice?.(`MQTT: subscribed to ${EVERY_TABLE} at ${url}`);
    send({ type: 'broker', broker });
  });
  client.on('close', () => {
    if (!broker.connected) return;
    broker = { connected: false, url, since: now() };
    options.onNotice?.(`MQTT: the broker at ${url} is out of reach; the boards show what they last said`);
    send({ type: 'broker', broker });
  });
  client.on('error', () => {});
  // A message that throws is dropped and told, never the end of the display every table shows on.
  client.on('message', (topic, payload) => {
    try {
      receive(topic, payload);
    } catch (e) {
      options.onNotice?.(`MQTT: a message on ${topic} was dropped: ${(e as Error)?.message ?? String(e)}`);
    }
  });
  function receive(topic: string, payload: Buffer): void {
    const outcome = book.receive(topic, payload);
    switch (outcome.kind) {
      case 'gap':
        if (!resyncing.has(outcome.key)) {
          resyncing.add(outcome.key);
          // Subscribing to the state topic itself makes the broker send its retained message now.
          client.subscribe(topicOf(outcome.site, outcome.board, 'state'), { qos: 1 });
        }
        changed(outcome.key);
        break;
      case 'applied':
      case 'synced':
      case 'presence':
        if (resyncing.has(outcome.key) && book.get(outcome.key)?.resyncFrom === 0) {
          resyncing.delete(outcome.key);
          const [site, board] = outcome.key.split('/');
          client.unsubscribe(topicOf(site, board, 'state'));
        }
        changed(outcome.key);
        break;
      case 'duplicate':
      case 'ignored':
        break;
    }
    for (const listener of listeners) listener(outcome);
  }

  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    next();
  });
  app.get('/api/boards', (_req, res) => {
    res.json({ broker, boards: book.all() });
  });
  app.get('/api/boards/:site/:board', (req, res) => {
    const board = book.get(`${req.params.site}/${req.params.board}`);
    if (board) res.json(board);
    else res.status(404).json({ error: 'not-found', message: 'No table has published under that name.' });
  });
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, broker: broker.connected });
  });
  app.use('/api', (_req, res) => {
    res.status(404).json({ error: 'not-found', message: 'No such API route.' });
  });
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  const page = join(webRoot, 'tournament.html');
  app.get('/', (_req, res) => res.redirect('/tournament'));
  if (existsSync(page)) {
    app.use('/assets', express.static(join(webRoot, 'assets'), { immutable: true, maxAge: '1y' }));
    app.get(['/tournament', '/tournament/:site/:board'], (_req, res) => res.sendFile(page));
  } else {
    app.get(['/tournament', '/tournament/:site/:board'], (_req, res) => {
      res
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('Die Seiten sind noch nicht gebaut: npm run build:web\nThe pages are not built yet: npm run build:web\n');
    });
  }

  const server = createServer(app);
  const wss = new WebSocketServer({ server, path: '/ws', maxPayload: 1024 });
  /** What each page follows: one board's key, or null for all. */
  const following = new WeakMap<WebSocket, string | null>();
  wss.on('connection', (socket, request) => {
    const asked = new URL(request.url ?? '/ws', 'http://x').searchParams.get('board');
    const key = asked && asked.split('/').length === 2 && asked.split('/').every(isTopicName) ? asked : null;
    following.set(socket, key);
    const boards = key ? [book.get(key)].filter((b) => b !== undefined) : book.all();
    socket.send(JSON.stringify({ type: 'boards', broker, boards } satisfies BroadcastMessage));
    // The pages only listen.
    socket.on('message', () => socket.terminate());
    socket.on('error', () => socket.terminate());
  });

  function changed(key: string): void {
    const board = book.get(key);
    if (board) send({ type: 'board', board }, key);
  }

  function send(message: BroadcastMessage, key?: string): void {
    if (wss.clients.size === 0) return;
    const text = JSON.stringify(message);
    for (const socket of wss.clients) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      const wanted = following.get(socket);
      if (key !== undefined && wanted && wanted !== key) continue;
      if (socket.bufferedAmount > MAX_BUFFERED) {
        socket.terminate();
        continue;
      }
      socket.send(text);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    port,
    server,
    book,
    broker: () => broker,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clients: () => wss.clients.size,
    async close() {
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A plain DISCONNECT: the broker keeps the session and queues for the next start.
      await client.endAsync(!client.connected);
    },
  };
}
