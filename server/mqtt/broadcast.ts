// The broadcast service: subscribes to every table under spieltisch/+/+/#, keeps each board's
// latest picture (BoardBook, which checks every payload first), and serves it to the tournament
// pages: /api/boards, a WebSocket at /ws, the tournament display at /tournament and a page per
// board at /tournament/<site>/<board>, with the same security headers as `serve`.
import express, { type ErrorRequestHandler } from 'express';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DEFAULT_WEB_ROOT } from '../http/index.ts';
import { securityHeaders } from '../http/security.ts';
import { HostNames, unknownHostRefusal } from '../http/hosts.ts';
import { BoardBook, type Outcome } from './boards.ts';
import { EVERY_TABLE, isTopicName, topicOf } from './topics.ts';
import { noDelay, safeUrl } from './publisher.ts';
import type { BroadcastMessage, BrokerState } from './messages.ts';

export interface BroadcastOptions {
  /** The broker, as for `serve --mqtt`. */
  readonly url: string;
  /** HTTP port; 0 picks a free one. */
  readonly port: number;
  /** The address listened on (`--listen`, default 0.0.0.0). */
  readonly listen?: string;
  /**
   * Names the display answers to besides the machine's own (localhost, its addresses and hostname): `--host`, as
   * for `serve`. A request whose Host header names anything else is refused with 421 (hosts.ts); `*` turns the
   * check off.
   */
  readonly hostNames?: readonly string[];
  /** Folder of the built pages (web/dist). */
  readonly webRoot?: string;
  /**
   * The broker keeps this client's subscription and queues what it misses while away (a persistent
   * session). Two broadcast services need two ids.
   */
  readonly clientId?: string;
  /** The most boards shown; a new board beyond them is dropped (and logged) until one is forgotten (default 64). */
  readonly maxBoards?: number;
  /** A board unheard for this long is forgotten (default 15 minutes). */
  readonly staleMs?: number;
  /** Per site, the key its tables sign with: that site's unsigned or badly signed payloads are dropped. */
  readonly keys?: ReadonlyMap<string, string>;
  /** The service's clock, ms (tests turn it by hand). */
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
  /** Forgets the boards unheard for too long and tells the pages (a timer does this every half minute). */
  expire(): string[];
  close(): Promise<void>;
}

/** How often stale boards are looked for. */
const EXPIRY_SWEEP_MS = 30_000;
/** A board whose messages are dropped is named in the log at most this often, with how many since. */
const REFUSAL_LOG_MS = 60_000;
/** Boards remembered for that; past this many the memory starts afresh (a flood of invented names). */
const REFUSAL_LOG_KEYS = 1000;
/** The most such lines a minute; the rest are counted in one line. */
const REFUSAL_LINES = 20;

/** The largest amount of unsent data a slow page may have before it is dropped (it reconnects and gets every board anew). */
const MAX_BUFFERED = 1 << 21;

export async function startBroadcast(options: BroadcastOptions): Promise<RunningBroadcast> {
  const now = options.now ?? Date.now;
  const book = new BoardBook({ now, maxBoards: options.maxBoards, staleMs: options.staleMs, keys: options.keys });
  const refusals = refusalLog(now, (line) => options.onNotice?.(line));
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
    let outcome: Outcome;
    try {
      outcome = book.receive(topic, payload);
    } catch (e) {
      // The book checks everything it reads; should anything slip through, one board's message is lost, not the service.
      outcome = { kind: 'refused', key: parseKey(topic), reason: `could not be read (${(e as Error).message})` };
    }
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
      case 'refused':
        refusals(outcome.key, outcome.reason);
        break;
      case 'duplicate':
      case 'ignored':
        break;
    }
    for (const listener of listeners) listener(outcome);
  }

  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  // As serve's: a page of another site whose name was made to point here (DNS rebinding) is refused.
  const hosts = new HostNames(options.hostNames ?? []);
  app.use((req, res, next) => {
    const host = req.get('host');
    if (host === undefined || hosts.allows(host)) return next();
    const refusal = unknownHostRefusal(host, 'broadcast');
    res.status(refusal.status);
    if (req.path.startsWith('/api/') || req.path === '/healthz') res.json({ error: refusal.code, message: refusal.message });
    else res.type('text/plain; charset=utf-8').send(refusal.text);
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

  // The last word on anything that went wrong: a short JSON refusal, never a stack (a path that is not valid
  // percent-encoding, `/api/boards/%E0%A4`, is a 400).
  app.use(((error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) res.status(status).json({ error: 'api/bad-request', message: 'The request could not be read.' });
    else res.status(500).json({ error: 'server/internal', message: 'The server could not answer this request.' });
  }) satisfies ErrorRequestHandler);

  const server = createServer(app);
  const wss = new WebSocketServer({
    server,
    path: '/ws',
    maxPayload: 1024,
    verifyClient: (info, done) => {
      const host = info.req.headers.host;
      if (host === undefined || hosts.allows(host)) return done(true);
      done(false, 421, unknownHostRefusal(host, 'broadcast').text, { 'Content-Type': 'text/plain; charset=utf-8' });
    },
  });
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

  function expire(): string[] {
    const gone = book.expire();
    for (const key of gone) {
      send({ type: 'gone', key }, key);
      if (resyncing.delete(key)) {
        const [site, board] = key.split('/');
        client.unsubscribe(topicOf(site, board, 'state'));
      }
    }
    if (gone.length) options.onNotice?.(`MQTT: forgot ${gone.length === 1 ? `the board ${gone[0]}` : `${gone.length} boards`}, unheard for ${Math.round(book.staleMs / 60_000)} minutes`);
    return gone;
  }
  const sweep = setInterval(expire, EXPIRY_SWEEP_MS);
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.listen ?? '0.0.0.0', () => resolve());
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
    expire,
    async close() {
      clearInterval(sweep);
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A plain DISCONNECT: the broker keeps the session and queues for the next start.
      await client.endAsync(!client.connected);
    },
  };
}

/** `<site>/<board>` of a topic, as far as it has one, for the log. */
function parseKey(topic: string): string {
  return topic.split('/').slice(1, 3).join('/').slice(0, 130);
}

/**
 * Names each board whose messages are dropped, and why, once and then at most once a minute with the count since;
 * and no more than `REFUSAL_LINES` lines a minute in all, the rest counted: a flood of bad payloads or invented
 * boards makes a few lines, not one per message.
 */
function refusalLog(now: () => number, write: (line: string) => void): (key: string, reason: string) => void {
  const last = new Map<string, { at: number; more: number }>();
  let windowStart = -Infinity;
  let lines = 0;
  let unnamed = 0;
  return (key, reason) => {
    const t = now();
    if (t - windowStart >= REFUSAL_LOG_MS) {
      if (unnamed > 0) write(`MQTT: dropped ${unnamed} more messages in the last minute, of boards not named above`);
      windowStart = t;
      lines = 0;
      unnamed = 0;
    }
    const seen = last.get(key);
    if (seen && t - seen.at < REFUSAL_LOG_MS) {
      seen.more++;
      return;
    }
    if (lines >= REFUSAL_LINES) {
      unnamed++;
      return;
    }
    if (!seen && last.size >= REFUSAL_LOG_KEYS) last.clear();
    const more = seen?.more ? ` (and ${seen.more} more since)` : '';
    last.set(key, { at: t, more: 0 });
    lines++;
    write(`MQTT: dropped a message for ${key}: ${reason.slice(0, 200)}${more}`);
  };
}
