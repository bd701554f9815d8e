// Guessing the token across connections and routes, and pages of other sites pointed here by name (DNS rebinding):
// the per-address record of wrong tokens (attempts.ts) and the Host check (hosts.ts), alone and through startHttp.
import { afterEach, describe, expect, test } from 'vitest';
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import {
  FIRST_DELAY_MS,
  FORGET_AFTER_MS,
  FREE_FAILURES,
  LOG_PERIOD_MS,
  MAX_DELAY_MS,
  TokenGuard,
  addressKey,
} from '../../server/http/attempts.ts';
import { HostNames, MACHINE_NAMES_REFRESH_MS, hostName, machineNames, parseHostNames } from '../../server/http/hosts.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';

const TOKEN = '4711';

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

/** A guard on a clock the test moves, and the lines it logs. */
function guarded(options: { maxAddresses?: number } = {}) {
  let now = 0;
  const lines: string[] = [];
  const guard = new TokenGuard(TOKEN, { now: () => now, log: (line) => lines.push(line), ...options });
  return { guard, lines, at: (t: number) => (now = t), later: (ms: number) => (now += ms) };
}

describe('the record of wrong tokens', () => {
  test('a few wrong tokens are heard, then the address waits, twice as long after each further one, up to the cap', () => {
    const { guard, later } = guarded();
    for (let i = 0; i < FREE_FAILURES; i++) expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
    // The next wrong one is still heard, and starts the wait.
    expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
    expect(guard.check('192.0.2.7', TOKEN)).toEqual({ ok: false, reason: 'too-many', retryAfterMs: FIRST_DELAY_MS });
    let delay = FIRST_DELAY_MS;
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      later(delay);
      expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
      const refused = guard.check('192.0.2.7', 'guess');
      if (refused.ok || refused.reason !== 'too-many') throw new Error('not refused');
      delay = refused.retryAfterMs;
      delays.push(delay);
    }
    expect(delays.slice(0, 4)).toEqual([2, 4, 8, 16].map((x) => x * FIRST_DELAY_MS));
    expect(Math.max(...delays)).toBe(MAX_DELAY_MS);
    // The right token, once the wait is over, clears the record: the next wrong one is heard at once.
    later(delay);
    expect(guard.check('192.0.2.7', TOKEN)).toEqual({ ok: true });
    expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
    expect(guard.size).toBe(1);
  });

  test('other addresses are not held up; no token at all is no guess', () => {
    const { guard } = guarded();
    for (let i = 0; i <= FREE_FAILURES; i++) guard.check('192.0.2.7', 'guess');
    expect(guard.check('192.0.2.7', undefined)).toMatchObject({ reason: 'too-many' });
    expect(guard.check('192.0.2.8', TOKEN)).toEqual({ ok: true });
    for (let i = 0; i < 100; i++) expect(guard.check('192.0.2.9', undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(guard.check('192.0.2.9', TOKEN)).toEqual({ ok: true });
  });

  test('an over-long token is a wrong one, never compared', () => {
    const { guard } = guarded();
    for (let i = 0; i <= FREE_FAILURES; i++) expect(guard.check('192.0.2.7', TOKEN + 'x'.repeat(300))).toEqual({ ok: false, reason: 'wrong' });
    expect(guard.check('192.0.2.7', TOKEN)).toMatchObject({ reason: 'too-many' });
  });

  test('an address quiet for long enough starts afresh', () => {
    const { guard, later } = guarded();
    for (let i = 0; i < FREE_FAILURES; i++) guard.check('192.0.2.7', 'guess');
    later(FORGET_AFTER_MS);
    expect(guard.size).toBe(1);
    for (let i = 0; i < FREE_FAILURES; i++) expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
    expect(guard.check('192.0.2.7', 'guess')).toEqual({ ok: false, reason: 'wrong' });
    expect(guard.check('192.0.2.7', 'guess')).toMatchObject({ reason: 'too-many' });
  });

  test('the record is bounded: a flood of addresses forgets the one quiet longest', () => {
    const { guard } = guarded({ maxAddresses: 100 });
    for (let i = 0; i <= FREE_FAILURES; i++) guard.check('198.51.100.1', 'guess');
    for (let n = 0; n < 1000; n++) guard.check(`10.0.${n >> 8}.${n & 255}`, 'guess');
    expect(guard.size).toBe(100);
    expect(guard.check('198.51.100.1', TOKEN)).toEqual({ ok: true });
  });

  test('the addresses of one host count together: IPv4 mapped into IPv6 is IPv4, IPv6 by its /64', () => {
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
    const { guard } = guarded();
    for (let i = 0; i <= FREE_FAILURES; i++) guard.check(`2001:db8:1:2::${i + 1}`, 'guess');
    expect(guard.check('2001:db8:1:2:dead:beef:0:1', TOKEN)).toMatchObject({ reason: 'too-many' });
    expect(guard.check('2001:db8:1:3::1', TOKEN)).toEqual({ ok: true });
  });

  test('refused attempts are logged once per address and period, with counts and never the token', () => {
    const { guard, lines, later } = guarded();
    for (let i = 0; i < 200; i++) guard.check('192.0.2.7', `guess-${i}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^security: 6 wrong referee token\(s\) from 192\.0\.2\.7; it is not heard for 1 s$/);
    later(LOG_PERIOD_MS);
    guard.check('192.0.2.7', 'guess-again');
    for (let i = 0; i < 50; i++) guard.check('192.0.2.7', TOKEN);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^security: 7 wrong referee token\(s\) from 192\.0\.2\.7, 194 attempt\(s\) refused unheard since the last line; it is not heard for 2 s$/);
    expect(lines.join('\n')).not.toMatch(/guess|4711/);
  });

  test('a flood from many addresses is summed up, not logged line by line', () => {
    const { guard, lines, later } = guarded();
    for (let n = 0; n < 500; n++) for (let i = 0; i <= FREE_FAILURES; i++) guard.check(`10.1.${n >> 8}.${n & 255}`, 'guess');
    expect(lines.length).toBeLessThanOrEqual(20);
    later(LOG_PERIOD_MS);
    guard.check('10.9.9.9', 'guess');
    for (let i = 0; i <= FREE_FAILURES; i++) guard.check('10.9.9.9', 'guess');
    expect(lines.find((l) => /480 more address\(es\)/.test(l))).toBeDefined();
  });
});

describe('the names the service answers to', () => {
  test.each([
    ['localhost:3000', 'localhost'],
    ['Tisch.Local.:3000', 'tisch.local'],
    ['[::1]:3000', '::1'],
    ['[fe80::1%25eth0]', 'fe80::1'],
    ['192.168.1.20', '192.168.1.20'],
    ['evil.example:80', 'evil.example'],
    ['evil.example:3000:1', null],
    ['a b', null],
    ['', null],
  ])('Host %s names %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  test('--host takes names repeated and comma-separated; a port given is dropped; nonsense is refused', () => {
    expect(parseHostNames(['tisch.example, Brett.example:8080', '2001:db8::5', '[::2]'])).toEqual(['tisch.example', 'brett.example', '2001:db8::5', '::2']);
    expect(() => parseHostNames(['a b'])).toThrow(/"a b" is not a host name/);
  });

  test('the machine’s own names and the given ones pass, others not; the machine’s are read again when one is unknown', () => {
    let read = ['localhost', '127.0.0.1', '::1', 'tisch', 'tisch.local', '192.168.1.20'];
    let now = 0;
    const names = new HostNames(['spieltisch.example'], () => read, () => now);
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'TISCH:3000', 'tisch.local', '192.168.1.20:3000', 'spieltisch.example', 'app.localhost:3000', undefined]) {
      expect(names.allows(host), String(host)).toBe(true);
    }
    for (const host of ['evil.example:3000', 'tisch.evil.example', '192.168.1.21:3000', 'localhost.evil.example', '']) expect(names.allows(host), host).toBe(false);
    read = [...read, '192.168.1.21'];
    expect(names.allows('192.168.1.21')).toBe(false);
    now = MACHINE_NAMES_REFRESH_MS;
    expect(names.allows('192.168.1.21')).toBe(true);
    expect(new HostNames(['*'], () => []).allows('anything.example')).toBe(true);
  });

  test('the machine’s names include the loopback names and its interfaces’ addresses', () => {
    expect(machineNames()).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '::1']));
  });
});

async function kalahaTable(options: { hostNames?: readonly string[] } = {}): Promise<{ session: KalahaSession; http: RunningServer; lines: string[] }> {
  log = openGameLog(':memory:');
  const lines: string[] = [];
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: '/nonexistent', securityLog: (line) => lines.push(line), ...options });
  return { session, http, lines };
}

/** Opens a WebSocket, sends one `auth` and returns its answer. */
async function authOnce(port: number, token: string): Promise<Extract<ServerMessage, { type: 'command-result' }>> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  sockets.push(ws);
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'sync') ws.send(JSON.stringify({ type: 'auth', token }));
      if (message.type === 'command-result') {
        resolve(message);
        ws.terminate();
      }
    });
  });
}

const importWith = (port: number, token: string) =>
  fetch(`http://127.0.0.1:${port}/api/games/import`, { method: 'POST', body: '[Game "kalaha"] C', headers: { authorization: `Bearer ${token}` } });

/** A raw request with a Host header of the test's choosing (fetch sets its own). */
function get(port: number, path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('through the server', () => {
  test('reconnecting does not reset the count, and HTTP shares it: the address is refused everywhere until its wait is over', async () => {
    const { http, lines } = await kalahaTable();
    for (let i = 0; i <= FREE_FAILURES; i++) expect(await authOnce(http.port, `guess-${i}`)).toMatchObject({ ok: false, error: 'console/bad-token' });
    expect(await authOnce(http.port, TOKEN)).toMatchObject({
      ok: false,
      error: 'console/too-many-attempts',
      message: 'Too many wrong tokens came from this address: try again in 1 s.',
      params: { seconds: 1 },
    });
    const refused = await importWith(http.port, TOKEN);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ error: 'api/too-many-attempts', message: expect.stringContaining('try again in 1 s'), params: { seconds: 1 } });
    expect(log?.countGames({})).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/from 127\.0\.0\.1/);
    expect(lines[0]).not.toMatch(/guess|4711/);
    // Once the wait is over the right token is heard again and clears the record.
    await new Promise((resolve) => setTimeout(resolve, FIRST_DELAY_MS + 50));
    expect((await importWith(http.port, TOKEN)).status).toBe(201);
    expect(await authOnce(http.port, TOKEN)).toMatchObject({ ok: true });
  });

  test('wrong Bearer tokens over HTTP hold up the WebSocket too', async () => {
    const { http } = await kalahaTable();
    for (let i = 0; i <= FREE_FAILURES; i++) {
      const res = await importWith(http.port, `guess-${i}`);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    expect(await authOnce(http.port, TOKEN)).toMatchObject({ ok: false, error: 'console/too-many-attempts' });
  });

  test('a request for another name is refused with 421 and a sentence, pages, API and WebSocket alike', async () => {
    const { http } = await kalahaTable();
    const page = await get(http.port, '/', 'rebound.evil.example:3000');
    expect(page.status).toBe(421);
    expect(page.type).toMatch(/^text\/plain/);
    expect(page.body).toContain('Dieser Spieltisch hört nicht auf den Namen „rebound.evil.example:3000“');
    expect(page.body).toContain('start it with --host rebound.evil.example');
    const api = await get(http.port, '/api/state', 'rebound.evil.example');
    expect(api.status).toBe(421);
    expect(JSON.parse(api.body)).toEqual({ error: 'server/unknown-host', message: expect.stringContaining('does not answer to the name "rebound.evil.example"') });
    expect((await get(http.port, '/api/games', 'rebound.evil.example')).status).toBe(421);
    const upgrade = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`, { headers: { host: 'rebound.evil.example' } });
      sockets.push(ws);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(upgrade).toBe(421);
    for (const host of [`127.0.0.1:${http.port}`, `localhost:${http.port}`, `[::1]:${http.port}`]) expect((await get(http.port, '/api/state', host)).status, host).toBe(200);
  });

  test('--host adds names', async () => {
    const { http } = await kalahaTable({ hostNames: ['tisch.example'] });
    expect((await get(http.port, '/api/state', 'tisch.example:3000')).status).toBe(200);
    expect((await get(http.port, '/api/state', 'other.example')).status).toBe(421);
  });
});
