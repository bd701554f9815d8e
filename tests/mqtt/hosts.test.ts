// The broadcast service's flags as serve's: --listen is the address listened on, --host adds the names the display
// answers to, and a request for any other name is refused as serve refuses it (DNS rebinding). An old
// `--host ADDRESS`, once broadcast's listen address, is refused in one sentence naming --listen.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';
import { startBroadcast, type RunningBroadcast } from '../../server/mqtt/index.ts';
import { main, type Io } from '../../server/cli.ts';
import { TestBroker, mosquittoPath } from './broker.ts';

let broker: TestBroker | null = null;
let broadcast: RunningBroadcast | null = null;
const sockets: WebSocket[] = [];

beforeAll(() => {
  mosquittoPath();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await broadcast?.close();
  await broker?.close();
  broadcast = null;
  broker = null;
});

function get(port: number, path: string, host: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function upgrade(port: number, host: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host } });
    sockets.push(ws);
    ws.on('open', () => resolve(101));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

async function start(hostNames?: readonly string[]): Promise<RunningBroadcast> {
  broker = await TestBroker.start({ persistence: false });
  broadcast = await startBroadcast({ url: broker.url, port: 0, listen: '127.0.0.1', hostNames, clientId: `hosts-${randomBytes(4).toString('hex')}` });
  return broadcast;
}

describe('the Host header, as serve checks it', () => {
  test('another name is refused with 421 and a sentence in both languages: pages, API and WebSocket alike', async () => {
    const { port } = await start();
    const page = await get(port, '/tournament', 'rebound.evil.example:3100');
    expect(page.status).toBe(421);
    expect(page.type).toMatch(/^text\/plain/);
    expect(page.body).toContain('Diese Turnieranzeige hört nicht auf den Namen „rebound.evil.example:3100“');
    expect(page.body).toContain('This tournament display does not answer to the name "rebound.evil.example:3100"');
    expect(page.body).toContain('start it with --host rebound.evil.example');
    const api = await get(port, '/api/boards', 'rebound.evil.example');
    expect(api.status).toBe(421);
    expect(JSON.parse(api.body)).toEqual({ error: 'server/unknown-host', message: expect.stringContaining('does not answer to the name "rebound.evil.example"') });
    expect(await upgrade(port, 'rebound.evil.example')).toBe(421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await get(port, '/api/boards', host)).status, host).toBe(200);
      expect(await upgrade(port, host), host).toBe(101);
    }
  });

  test('--host adds names', async () => {
    const { port } = await start(['anzeige.example']);
    expect((await get(port, '/api/boards', 'anzeige.example:3100')).status).toBe(200);
    expect(await upgrade(port, 'anzeige.example')).toBe(101);
    expect((await get(port, '/api/boards', 'other.example')).status).toBe(421);
  });
});

describe('broadcast --host and --listen on the command line', () => {
  async function run(args: readonly string[]): Promise<{ code: number; err: string[] }> {
    const err: string[] = [];
    const io: Io = { out: () => {}, err: (line) => err.push(line), stdin: async () => '' };
    const code = await main(['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', ...args], io);
    return { code, err };
  }

  test.each([
    [['--host', '127.0.0.1'], '127.0.0.1'],
    [['--host', 'anzeige.example,0.0.0.0'], '0.0.0.0'],
    [['--host', '::1'], '::1'],
    [['--host', 'localhost'], 'localhost'],
  ])('an address as --host without --listen, as broadcast once took it (%j), is refused naming --listen', async (args, address) => {
    expect(await run(args)).toEqual({
      code: 2,
      err: [`spieltisch: --host names the names the display answers to, as for serve; to listen on ${address}, give --listen ${address}`, 'Try "spieltisch help".'],
    });
  });

  test('a --host that is no name is refused as serve refuses it', async () => {
    expect(await run(['--listen', '127.0.0.1', '--host', 'not a name'])).toEqual({ code: 2, err: ['spieltisch: --host: "not a name" is not a host name or address', 'Try "spieltisch help".'] });
  });

  test('the help names both flags for broadcast', async () => {
    const out: string[] = [];
    await main(['help'], { out: (line) => out.push(line), err: () => {}, stdin: async () => '' });
    const help = out.join('\n');
    const broadcastPart = help.slice(help.indexOf('spieltisch broadcast'), help.indexOf('spieltisch replay'));
    expect(broadcastPart).toContain('[--host NAME[,NAME…]] [--listen ADDRESS]');
  });
});
