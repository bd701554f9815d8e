// The referee console's commands over the WebSocket: the token, stale states, garbage.
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startHttp, parseClientMessage, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';

let http: RunningServer | null = null;
afterEach(async () => {
  await http?.close();
  http = null;
});

async function connect(): Promise<{ ws: WebSocket; next: () => Promise<ServerMessage>; session: KalahaSession }> {
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'simulated' });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: 'sesam' });
  const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
  const queue: ServerMessage[] = [];
  const waiting: ((m: ServerMessage) => void)[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as ServerMessage;
    const w = waiting.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const next = () => new Promise<ServerMessage>((resolve) => (queue.length ? resolve(queue.shift() as ServerMessage) : waiting.push(resolve)));
  await new Promise((resolve) => ws.once('open', resolve));
  return { ws, next, session };
}

describe('referee console over /ws', () => {
  test('commands without the token are refused, with it they run', async () => {
    const { ws, next } = await connect();
    expect((await next()).type).toBe('sync');
    ws.send(JSON.stringify({ type: 'command', ref: 1, stateId: 0, command: { kind: 'enter', move: 'C' } }));
    expect(await next()).toMatchObject({ type: 'command-result', ref: 1, ok: false, error: 'console/unauthorized' });
    ws.send(JSON.stringify({ type: 'auth', token: 'open sesame' }));
    expect(await next()).toMatchObject({ type: 'command-result', ok: false, error: 'console/bad-token' });
    ws.send(JSON.stringify({ type: 'auth', token: 'sesam' }));
    expect(await next()).toMatchObject({ type: 'command-result', ok: true });
    ws.send(JSON.stringify({ type: 'command', ref: 2, stateId: 0, command: { kind: 'enter', move: 'C' } }));
    // The update reaches every page before the console's own answer.
    expect(await next()).toMatchObject({ type: 'update', event: 'move', move: 'C', stateId: 1 });
    expect(await next()).toMatchObject({ type: 'command-result', ref: 2, ok: true });
    ws.close();
  });

  test('a command based on an old state is refused, and an illegal move says why', async () => {
    const { ws, next } = await connect();
    await next();
    ws.send(JSON.stringify({ type: 'auth', token: 'sesam' }));
    await next();
    ws.send(JSON.stringify({ type: 'command', ref: 3, stateId: 0, command: { kind: 'enter', move: 'a' } }));
    expect(await next()).toMatchObject({ ref: 3, ok: false, error: 'kalaha/not-your-pit' });
    ws.send(JSON.stringify({ type: 'command', ref: 4, stateId: 0, command: { kind: 'enter', move: 'A' } }));
    await next(); // the update
    expect(await next()).toMatchObject({ ref: 4, ok: true });
    ws.send(JSON.stringify({ type: 'command', ref: 5, stateId: 0, command: { kind: 'undo' } }));
    expect(await next()).toMatchObject({ ref: 5, ok: false, error: 'console/stale-state' });
    ws.send(JSON.stringify({ type: 'command', ref: 6, stateId: 1, command: { kind: 'undo' } }));
    expect(await next()).toMatchObject({ type: 'update', event: 'takeback', undone: ['A'], record: [] });
    expect(await next()).toMatchObject({ ref: 6, ok: true });
    ws.close();
  });

  test('the players agree to end a Kalaha game: each side takes its own pits', async () => {
    const { ws, next } = await connect();
    await next();
    ws.send(JSON.stringify({ type: 'auth', token: 'sesam' }));
    await next();
    ws.send(JSON.stringify({ type: 'command', ref: 7, stateId: 0, command: { kind: 'agree' } }));
    const end = await next();
    expect(end).toMatchObject({ type: 'update', event: 'end', view: { stores: { south: 24, north: 24 }, toMove: null, outcome: { winner: 'draw', reason: 'agreement' } } });
    expect(end.type === 'update' && end.view.game === 'kalaha' ? end.view.pending : []).toHaveLength(12);
    expect(await next()).toMatchObject({ ref: 7, ok: true });
    ws.send(JSON.stringify({ type: 'command', ref: 8, stateId: 1, command: { kind: 'agree' } }));
    expect(await next()).toMatchObject({ ref: 8, ok: false, error: 'console/game-over' });
    ws.close();
  });

  test('garbage gets a clear error, and a flood of it closes that socket only', async () => {
    const { ws, next } = await connect();
    await next();
    const other = new WebSocket(`ws://127.0.0.1:${http?.port}/ws`);
    await new Promise((resolve) => other.once('message', resolve));
    ws.send('{"type":"command"');
    expect(await next()).toMatchObject({ ok: false, error: 'console/bad-message' });
    const closed = new Promise((resolve) => ws.once('close', resolve));
    for (let i = 0; i < 25; i++) ws.send('nonsense');
    await closed;
    expect(other.readyState).toBe(WebSocket.OPEN);
    other.close();
  });
});

describe('a command that throws', () => {
  test('is logged and refused as console/failed, and the server goes on serving', async () => {
    const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'simulated' });
    const told: string[] = [];
    const game = {
      sync: () => session.sync(),
      subscribe: (listener: Parameters<KalahaSession['subscribe']>[0]) => session.subscribe(listener),
      command: () => {
        throw new Error('a bug in a referee');
      },
    };
    http = await startHttp(game, { port: 0, host: '127.0.0.1', token: 'sesam', onError: (e, where) => told.push(`${where}: ${(e as Error).message}`) });
    const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
    const messages: ServerMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as ServerMessage));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token: 'sesam' }));
    ws.send(JSON.stringify({ type: 'command', ref: 9, stateId: 0, command: { kind: 'undo' } }));
    await expect.poll(() => messages.find((m) => m.type === 'command-result' && m.ref === 9)).toMatchObject({ ok: false, error: 'console/failed' });
    expect(told).toEqual(['console command undo: a bug in a referee']);
    expect((await fetch(`http://127.0.0.1:${http.port}/api/state`)).status).toBe(200);
    ws.close();
  });
});

describe('a request or a connection that throws', () => {
  test('is logged in one line and answered 500 or left unanswered, and the server goes on serving', async () => {
    const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'simulated' });
    const told: string[] = [];
    const game = {
      sync: (): ServerMessage => {
        throw new Error('a bug in sync');
      },
      subscribe: (listener: Parameters<KalahaSession['subscribe']>[0]) => session.subscribe(listener),
      command: () => ({ ok: true }),
    };
    http = await startHttp(game, { port: 0, host: '127.0.0.1', token: 'sesam', onError: (e, where) => told.push(`${where}: ${(e as Error).message}`) });
    const res = await fetch(`http://127.0.0.1:${http.port}/api/state`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'server/internal', message: 'The server could not answer this request.' });
    const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
    await new Promise((resolve) => ws.once('open', resolve));
    await expect.poll(() => told).toEqual(['GET /api/state: a bug in sync', 'a page connecting: a bug in sync']);
    expect((await fetch(`http://127.0.0.1:${http.port}/healthz`)).status).toBe(200);
    ws.close();
  });
});

describe('parseClientMessage', () => {
  test.each([
    ['{"type":"auth","token":"x"}', { type: 'auth', token: 'x' }],
    ['{"type":"command","ref":1,"stateId":2,"command":{"kind":"choose","questionId":3,"move":"c1xc5"}}', { type: 'command', ref: 1, stateId: 2, command: { kind: 'choose', questionId: 3, move: 'c1xc5' } }],
    ['{"type":"command","ref":1,"stateId":2,"command":{"kind":"undo","extra":true}}', { type: 'command', ref: 1, stateId: 2, command: { kind: 'undo' } }],
  ])('%s is read', (text, expected) => {
    expect(parseClientMessage(text)).toEqual(expected);
  });
  test.each([
    'not json',
    '[]',
    'null',
    '{"type":"auth","token":5}',
    '{"type":"command","ref":"1","stateId":2,"command":{"kind":"undo"}}',
    '{"type":"command","ref":1,"stateId":2,"command":{"kind":"explode"}}',
    '{"type":"command","ref":1,"stateId":2,"command":{"kind":"enter","move":""}}',
    `{"type":"command","ref":1,"stateId":2,"command":{"kind":"enter","move":"${'x'.repeat(65)}"}}`,
  ])('%s is refused', (text) => {
    expect(parseClientMessage(text)).toBeNull();
  });
});
