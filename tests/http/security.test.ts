// Tampering with a table, tried against the real HTTP face (startHttp on port 0): commands without the token or with
// a wrong one, stale states, oversize and malformed messages, floods, a page that stops reading, foreign origins,
// state-changing HTTP requests without the token, the security headers and bodies too large or not JSON.
import { afterEach, describe, expect, test } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { startHttp, type LiveGame, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import {
  CONTENT_SECURITY_POLICY,
  MAX_BUFFERED_BYTES,
  MAX_MESSAGE_BYTES,
  MESSAGE_BURST,
  MESSAGES_PER_SECOND,
  TokenBucket,
  httpErrors,
  originAllowed,
  sameToken,
} from '../../server/http/security.ts';
import { parseClientMessage, readPageMessage } from '../../server/http/schemas.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';

const TOKEN = 'sesam-öffne-dich-7f3a';

let http: RunningServer | null = null;
let log: GameLog | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await http?.close();
  http = null;
  log?.close();
  log = null;
});

async function kalahaTable(options: { allowedOrigins?: readonly string[] } = {}): Promise<{ session: KalahaSession; http: RunningServer }> {
  log = openGameLog(':memory:');
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: '/nonexistent', ...options });
  return { session, http };
}

/** A page's WebSocket: messages queue until read; `closed` tells the close code and reason the client saw. */
class Page {
  readonly ws: WebSocket;
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiting: { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  private read = 0;

  constructor(port: number, headers: { origin?: string } = {}) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, headers);
    sockets.push(this.ws);
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    this.ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      const i = this.waiting.findIndex((w) => w.test(message));
      if (i >= 0) this.waiting.splice(i, 1)[0].resolve(message);
    });
  }

  static async open(port: number, headers: { origin?: string } = {}): Promise<Page> {
    const page = new Page(port, headers);
    await page.next(); // the sync every page gets first
    return page;
  }

  /** The first message not yet read that passes `test` (messages before it are skipped). */
  next(test: (m: ServerMessage) => boolean = () => true): Promise<ServerMessage> {
    while (this.read < this.received.length) {
      const m = this.received[this.read++];
      if (test(m)) return Promise.resolve(m);
    }
    return new Promise((resolve) => {
      this.waiting.push({
        test,
        resolve: (m) => {
          this.read = this.received.length;
          resolve(m);
        },
      });
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Sends and returns the command-result that answers it (ref 0 for auth and for unreadable messages). */
  async ask(message: unknown, ref = (message as { ref?: number }).ref ?? 0): Promise<Extract<ServerMessage, { type: 'command-result' }>> {
    const answer = this.next((m) => m.type === 'command-result' && m.ref === ref);
    this.send(message);
    return (await answer) as Extract<ServerMessage, { type: 'command-result' }>;
  }

  async auth(token: string): Promise<Extract<ServerMessage, { type: 'command-result' }>> {
    return this.ask({ type: 'auth', token });
  }
}

const command = (ref: number, stateId: number, cmd: object) => ({ type: 'command', ref, stateId, command: cmd });
const stateId = (session: KalahaSession) => (session.sync() as { stateId: number }).stateId;

describe('the referee token over the WebSocket', () => {
  test('a display is read-only: every command without the token is refused and changes nothing', async () => {
    const { session, http } = await kalahaTable();
    const display = await Page.open(http.port);
    const commands = [
      { kind: 'enter', move: 'C' },
      { kind: 'choose', questionId: 1, move: 'C' },
      { kind: 'ask' },
      { kind: 'undo' },
      { kind: 'agree' },
      { kind: 'confirm' },
      { kind: 'roll' },
    ];
    for (const [i, c] of commands.entries()) {
      expect(await display.ask(command(i + 1, 0, c))).toEqual({
        type: 'command-result',
        ref: i + 1,
        ok: false,
        error: 'console/unauthorized',
        message: 'Console commands need the referee token.',
      });
    }
    expect(stateId(session)).toBe(0);
    expect(session.sync()).toMatchObject({ record: [] });
  });

  test.each([
    ['a wrong token of the same length', TOKEN.replace('7f3a', '7f3b')],
    ['a shorter one', TOKEN.slice(0, -1)],
    ['a longer one', `${TOKEN}x`],
    ['an empty one', ''],
    ['the token with a space after it', `${TOKEN} `],
    ['one of the longest length read', 'x'.repeat(256)],
  ])('%s is refused, and commands after it too', async (_name, token) => {
    const { session, http } = await kalahaTable();
    const page = await Page.open(http.port);
    expect(await page.auth(token)).toEqual({ type: 'command-result', ref: 0, ok: false, error: 'console/bad-token', message: 'That is not the referee token.' });
    expect(await page.ask(command(1, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ ok: false, error: 'console/unauthorized' });
    expect(stateId(session)).toBe(0);
    // The right token still works on the same connection.
    expect(await page.auth(TOKEN)).toEqual({ type: 'command-result', ref: 0, ok: true });
    expect(await page.ask(command(2, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ ok: true });
    expect(stateId(session)).toBe(1);
  });

  test('a token longer than 256 characters is not even compared', async () => {
    const { http } = await kalahaTable();
    const page = await Page.open(http.port);
    expect(await page.auth(TOKEN + 'x'.repeat(256))).toMatchObject({ ok: false, error: 'console/bad-message', message: expect.stringContaining('token') });
  });

  test('a wrong token after the right one signs the console out', async () => {
    const { session, http } = await kalahaTable();
    const page = await Page.open(http.port);
    expect((await page.auth(TOKEN)).ok).toBe(true);
    expect((await page.auth('nope')).ok).toBe(false);
    expect(await page.ask(command(1, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ error: 'console/unauthorized' });
    expect(stateId(session)).toBe(0);
  });

  test('a command based on a stale state is refused and changes nothing', async () => {
    const { session, http } = await kalahaTable();
    const page = await Page.open(http.port);
    await page.auth(TOKEN);
    expect(await page.ask(command(1, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ ok: true });
    const before = session.sync();
    expect(await page.ask(command(2, 0, { kind: 'undo' }))).toMatchObject({ ok: false, error: 'console/stale-state' });
    expect(await page.ask(command(3, 7, { kind: 'enter', move: 'e' }))).toMatchObject({ ok: false, error: 'console/stale-state' });
    expect(session.sync()).toEqual(before);
  });

  test('sameToken compares whole tokens of any length', () => {
    expect(sameToken(TOKEN, TOKEN)).toBe(true);
    expect(sameToken(TOKEN, TOKEN.slice(0, -1))).toBe(false);
    expect(sameToken('', TOKEN)).toBe(false);
    expect(sameToken(`${TOKEN}\0`, TOKEN)).toBe(false);
  });
});

describe('messages the server cannot read', () => {
  test('a message over the size limit closes that socket with 1009; the display beside it goes on', async () => {
    const { session, http } = await kalahaTable();
    const display = await Page.open(http.port);
    const page = await Page.open(http.port);
    // Exactly the limit is still read: the right token, padded.
    const auth = JSON.stringify({ type: 'auth', token: TOKEN, pad: '' });
    const padded = auth.replace('"pad":""', `"pad":"${'x'.repeat(MAX_MESSAGE_BYTES - Buffer.byteLength(auth))}"`);
    expect(Buffer.byteLength(padded)).toBe(MAX_MESSAGE_BYTES);
    expect(await page.ask(padded)).toMatchObject({ ok: true });
    page.send(padded.replace('"pad":"', '"pad":"x'));
    expect((await page.closed).code).toBe(1009);
    session.command(0, { kind: 'enter', move: 'C' });
    expect(await display.next((m) => m.type === 'update')).toMatchObject({ move: 'C' });
    expect(display.ws.readyState).toBe(WebSocket.OPEN);
  });

  test('text that is not JSON gets a clear error, and the socket stays open', async () => {
    const { http } = await kalahaTable();
    const page = await Page.open(http.port);
    expect(await page.ask('{"type":"auth"')).toEqual({
      type: 'command-result',
      ref: 0,
      ok: false,
      error: 'console/bad-message',
      message: 'That message is not one the server understands: it is not JSON.',
    });
    expect(await page.auth(TOKEN)).toMatchObject({ ok: true });
  });

  test('a binary frame is refused like garbage', async () => {
    const { http } = await kalahaTable();
    const page = await Page.open(http.port);
    const answer = page.next((m) => m.type === 'command-result');
    page.ws.send(Buffer.from(JSON.stringify({ type: 'auth', token: TOKEN })), { binary: true });
    expect(await answer).toMatchObject({ ok: false, error: 'console/bad-message', message: expect.stringContaining('binary') });
  });

  test.each([
    ['an array', [], /the message: Invalid input: expected object/],
    ['an unknown type', { type: 'raw-sql', query: 'DROP TABLE games' }, /type: Invalid discriminator value/],
    ['an unknown command', command(1, 0, { kind: 'explode' }), /command\.kind: Invalid discriminator value/],
    ['a ref as text', { ...command(1, 0, { kind: 'undo' }), ref: '1' }, /ref: Invalid input: expected number, received string/],
    ['a fractional state', command(1, 0.5, { kind: 'undo' }), /stateId: Invalid input: expected int/],
    ['a ref beyond the safe integers', { ...command(1, 0, { kind: 'undo' }), ref: 2 ** 60 }, /ref: Too big/],
    ['a move too long', command(1, 0, { kind: 'enter', move: 'x'.repeat(65) }), /command\.move: Too big/],
    ['an empty move', command(1, 0, { kind: 'enter', move: '' }), /command\.move: Too small/],
    ['a choice without its question', command(1, 0, { kind: 'choose', move: 'C' }), /command\.questionId/],
    ['a command without its state', { type: 'command', ref: 1, command: { kind: 'undo' } }, /stateId/],
  ])('valid JSON of the wrong shape (%s) is refused and says which field', async (_name, message, why) => {
    const { session, http } = await kalahaTable();
    const page = await Page.open(http.port);
    await page.auth(TOKEN);
    const answer = await page.ask(message, 0);
    expect(answer).toMatchObject({ ref: 0, ok: false, error: 'console/bad-message' });
    expect(answer.message).toMatch(why);
    expect(stateId(session)).toBe(0);
    expect(page.ws.readyState).toBe(WebSocket.OPEN);
  });

  test('every message of the contract is read, and extra fields are dropped', () => {
    const kinds = [
      { kind: 'choose', questionId: 3, move: 'c1xc5' },
      { kind: 'ask' },
      { kind: 'undo' },
      { kind: 'enter', move: 'd1>a1,b1' },
      { kind: 'agree' },
      { kind: 'confirm' },
      { kind: 'roll' },
    ];
    for (const c of kinds) expect(parseClientMessage(JSON.stringify(command(9, 4, { ...c, extra: 1 })))).toEqual(command(9, 4, c));
    expect(readPageMessage('{"__proto__":{"type":"auth"},"token":"x"}')).toMatchObject({ ok: false });
    // Any page may turn the raw frames on or off, with exactly those two fields; the console's parser leaves it.
    expect(readPageMessage('{"type":"raw","on":true}')).toEqual({ ok: true, message: { type: 'raw', on: true } });
    expect(readPageMessage('{"type":"raw","on":true,"x":1}')).toMatchObject({ ok: false, message: expect.stringContaining('x') });
    expect(readPageMessage('{"type":"raw","on":"yes"}')).toMatchObject({ ok: false, message: expect.stringContaining('on:') });
    expect(parseClientMessage('{"type":"raw","on":true}')).toBeNull();
  });
});

describe('floods and slow pages', () => {
  test('a console sending 1,000 messages in a burst is dropped; a display beside it keeps receiving', async () => {
    const { session, http } = await kalahaTable();
    const display = await Page.open(http.port);
    const flooder = await Page.open(http.port);
    expect((await flooder.auth(TOKEN)).ok).toBe(true);
    for (let i = 1; i <= 1000; i++) flooder.send(command(i, 0, { kind: 'undo' }));
    expect(await flooder.closed).toEqual({ code: 1008, reason: 'too many messages' });
    expect(http.drops().flood).toBe(1);
    // It spent its burst and no more: the auth, then the commands the bucket still held (plus what refilled meanwhile).
    const answered = flooder.received.filter((m) => m.type === 'command-result').length;
    expect(answered).toBeGreaterThanOrEqual(MESSAGE_BURST - 1);
    expect(answered).toBeLessThan(1000 / 2);
    expect(stateId(session)).toBe(0);

    // The display never noticed: it is open and sees the next move, made by another console.
    const referee = await Page.open(http.port);
    await referee.auth(TOKEN);
    expect(await referee.ask(command(1, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ ok: true });
    expect(await display.next((m) => m.type === 'update')).toMatchObject({ event: 'move', move: 'C', stateId: 1 });
    expect(display.ws.readyState).toBe(WebSocket.OPEN);
    expect(display.received.filter((m) => m.type === 'command-result')).toEqual([]);
  });

  test('a page sending garbage again and again is dropped', async () => {
    const { http } = await kalahaTable();
    const display = await Page.open(http.port);
    const page = await Page.open(http.port);
    for (let i = 0; i < 50; i++) page.send('nonsense');
    expect(await page.closed).toEqual({ code: 1008, reason: 'too many messages' });
    const refused = page.received.filter((m) => m.type === 'command-result');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(MESSAGE_BURST);
    expect(display.ws.readyState).toBe(WebSocket.OPEN);
  });

  test('the token bucket: a burst, then the steady rate', () => {
    const bucket = new TokenBucket(MESSAGE_BURST, MESSAGES_PER_SECOND, 0);
    let taken = 0;
    while (bucket.take(1, 0)) taken++;
    expect(taken).toBe(MESSAGE_BURST);
    expect(bucket.take(1, 1000 / MESSAGES_PER_SECOND - 1)).toBe(false);
    expect(bucket.take(1, 1000 / MESSAGES_PER_SECOND)).toBe(true);
    // A long pause refills no more than the burst; a cost above the burst is never allowed.
    expect(bucket.take(MESSAGE_BURST, 1e9)).toBe(true);
    expect(bucket.take(1, 1e9)).toBe(false);
    expect(new TokenBucket(3, 1, 0).take(4, 1e9)).toBe(false);
    // A clock that steps back adds nothing.
    const b = new TokenBucket(1, 1, 5000);
    expect(b.take(1, 5000)).toBe(true);
    expect(b.take(1, 0)).toBe(false);
  });

  test('a page that stops reading is dropped once its backlog passes the limit; a page that reads gets everything', async () => {
    const table = new Broadcaster();
    http = await startHttp(table, { port: 0, host: '127.0.0.1', token: TOKEN, webRoot: '/nonexistent' });
    const fast = await Page.open(http.port);
    const slow = await Page.open(http.port);
    slow.ws.pause();
    // 64 KiB a message: the kernel's socket buffers fill first, then the server's own backlog grows to the limit.
    const big = (i: number) => JSON.stringify({ type: 'board', board: { source: 'none', connected: true, calibrated: true, framesPerSecond: i, dropped: 0 }, pad: 'x'.repeat(64 * 1024) });
    let sent = 0;
    while (http.drops().slow === 0 && sent < 2000) {
      const i = sent++;
      const arrived = fast.next((m) => m.type === 'board' && m.board.framesPerSecond === i);
      table.emit(big(i));
      await arrived;
    }
    expect(http.drops()).toEqual({ flood: 0, slow: 1 });
    // It was held on to until it had more than the limit unsent.
    expect(sent * 64 * 1024).toBeGreaterThan(MAX_BUFFERED_BYTES);
    await expect.poll(() => http?.clients()).toBe(1);
    table.emit(big(sent));
    await fast.next((m) => m.type === 'board' && m.board.framesPerSecond === sent);
    // Every message, in order, after the sync.
    expect(fast.received.slice(1).map((m) => (m.type === 'board' ? m.board.framesPerSecond : -1))).toEqual(Array.from({ length: sent + 1 }, (_, i) => i));
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
  });
});

/** A stand-in table that broadcasts whatever a test gives it. */
class Broadcaster implements LiveGame {
  private readonly listeners = new Set<(message: ServerMessage, text: string) => void>();
  sync(): ServerMessage {
    return { type: 'board', board: { source: 'none', connected: false, calibrated: false, framesPerSecond: 0, dropped: 0 } };
  }
  subscribe(listener: (message: ServerMessage, text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  command(): { ok: boolean } {
    return { ok: false };
  }
  emit(text: string): void {
    const message = JSON.parse(text) as ServerMessage;
    for (const listener of this.listeners) listener(message, text);
  }
}

describe('the Origin of a console', () => {
  test('a page from another origin may watch but not sign in, even with the right token', async () => {
    const { session, http } = await kalahaTable();
    const foreign = await Page.open(http.port, { origin: 'http://evil.example' });
    expect(await foreign.auth(TOKEN)).toEqual({
      type: 'command-result',
      ref: 0,
      ok: false,
      error: 'console/bad-origin',
      message: 'Console commands are taken only from pages this server served.',
    });
    expect(await foreign.ask(command(1, 0, { kind: 'enter', move: 'C' }))).toMatchObject({ error: 'console/unauthorized' });
    expect(stateId(session)).toBe(0);
    session.command(0, { kind: 'enter', move: 'C' });
    expect(await foreign.next((m) => m.type === 'update')).toMatchObject({ move: 'C' });
  });

  test('the server’s own pages, programs without an Origin, and origins allowed by name may sign in', async () => {
    const { http } = await kalahaTable({ allowedOrigins: ['https://spieltisch.example'] });
    for (const origin of [`http://127.0.0.1:${http.port}`, undefined, 'https://spieltisch.example']) {
      const page = await Page.open(http.port, origin ? { origin } : {});
      expect(await page.auth(TOKEN)).toMatchObject({ ok: true });
    }
  });

  test.each([
    ['http://192.168.1.20:3000', '192.168.1.20:3000', true],
    ['http://Tisch.local:3000', 'tisch.local:3000', true],
    ['http://tisch.local', 'TISCH.LOCAL', true],
    ['http://tisch.local:3001', 'tisch.local:3000', false],
    ['http://evil.example', 'tisch.local:3000', false],
    ['null', 'tisch.local:3000', false],
    ['file://tisch.local:3000', 'tisch.local:3000', false],
    ['http://tisch.local:3000', undefined, false],
  ])('origin %s on host %s: %s', (origin, host, allowed) => {
    expect(originAllowed(origin, host)).toBe(allowed);
  });
});

describe('HTTP', () => {
  test('every response carries the security headers and no x-powered-by', async () => {
    const { http } = await kalahaTable();
    for (const path of ['/', '/api/state', '/api/nope', '/healthz']) {
      const res = await fetch(`http://127.0.0.1:${http.port}${path}`);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.has('x-powered-by')).toBe(false);
      await res.arrayBuffer();
    }
    const csp = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
  });

  test('an unknown /api path is a 404 with JSON', async () => {
    const { http } = await kalahaTable();
    const res = await fetch(`http://127.0.0.1:${http.port}/api/setup/nothing?x=1`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'not-found', message: 'No such API route.' });
  });

  test('no request without the token changes anything: 401 or 404, never a success', async () => {
    const { session, http } = await kalahaTable();
    const base = `http://127.0.0.1:${http.port}`;
    const paths = ['/api/state', '/api/games', '/api/games/import', '/api/games/1', '/api/stats', '/healthz', '/display', '/ws', '/'];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await fetch(base + path, { method, body: '[Game "kalaha"] C', headers: { 'content-type': 'application/json' } });
        expect([401, 404], `${method} ${path}`).toContain(res.status);
        await res.arrayBuffer();
      }
    }
    for (const authorization of [`Bearer ${TOKEN.slice(1)}`, `Bearer ${TOKEN}0`, `Bearer ${TOKEN.toUpperCase()}`, TOKEN]) {
      const res = await fetch(`${base}/api/games/import`, { method: 'POST', body: '[Game "kalaha"] C', headers: { authorization } });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('api/unauthorized');
    }
    expect(stateId(session)).toBe(0);
    expect(log?.countGames({})).toBe(0);
  });

  test('a body over the limit is a 413 with JSON; the token is checked before it is read', async () => {
    const { http } = await kalahaTable();
    const url = `http://127.0.0.1:${http.port}/api/games/import`;
    const huge = 'C '.repeat(1024 * 1024 + 1);
    const res = await fetch(url, { method: 'POST', body: huge, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'api/too-large', message: 'The body is larger than the 2097152 bytes an import may be.' });
    const anonymous = await fetch(url, { method: 'POST', body: huge });
    expect(anonymous.status).toBe(401);
    expect(log?.countGames({})).toBe(0);
  });

  describe('the last error handler', () => {
    let server: import('node:http').Server | null = null;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    /** A small app with a JSON body parser and a route that throws, ending in the server's own `httpErrors()`. */
    async function router(): Promise<string> {
      const app = express();
      app.post('/api/demo', express.json({ limit: 1024, strict: true }), (req, res) => res.json(req.body));
      app.post('/api/boom', () => {
        throw new Error('secret detail');
      });
      app.use(httpErrors());
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server?.once('listening', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    }
    const post = (url: string, body: string) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

    test.each([
      { name: 'not JSON', body: '{"game":', status: 400, error: 'api/bad-json' },
      { name: 'too large', body: JSON.stringify({ game: 'kalaha', players: ['x'.repeat(2000)] }), status: 413, error: 'api/too-large' },
      { name: 'a bare string', body: '"kalaha"', status: 400, error: 'api/bad-json' },
    ])('a body $name is a $status with JSON saying why', async ({ body, status, error }) => {
      const res = await post(`${await router()}/demo`, body);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error, message: expect.any(String) });
    });

    test('an error inside a route is a 500 that names nothing of the inside', async () => {
      const res = await post(`${await router()}/boom`, '{}');
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: 'server/internal', message: 'The server could not answer this request.' });
      expect(text).not.toContain('secret');
    });
  });
});
