// The setup API over plain fetch against startHttp on port 0, a live table behind it on a mock board: the token
// refused, every kind of bad body answered with a 4xx and `{ error, message }`, and start, end, abandon, tare.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { GameLogWriteError, openGameLog, type GameEnd, type GameLog, type NewEvent, type NewGame } from '../../server/store/index.ts';
import { answerCommands, gridHello, KALAHA_HELLO, rig, type Rig } from '../table/helpers.ts';

const TOKEN = 'sesam öffne dich';
let r: Rig;
let http: RunningServer;
let base: string;

async function serve(helloLine: string, first: Parameters<typeof rig>[1]): Promise<void> {
  r = await rig(helloLine, first);
  http = await startHttp(r.table, { port: 0, host: '127.0.0.1', token: TOKEN, log: r.log, boardId: r.table.id, webRoot: '/nonexistent', setup: r.table });
  base = `http://127.0.0.1:${http.port}/api/setup`;
}

beforeEach(async () => {
  await serve(gridHello(9, 9), { game: 'malawi' });
});
afterEach(async () => {
  await http.close();
  await r.close();
});

type Reply = { status: number; body: any; headers: Headers };

async function post(action: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${base}/${action}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function get(): Promise<Reply> {
  const res = await fetch(base);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe('GET /api/setup', () => {
  test('says what the board hosts with each game’s options and seats, the game now, and no scales on a square board', async () => {
    const { status, body, headers } = await get();
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body.board).toMatchObject({ kind: 'grid', source: 'serial', id: 'G9x9', cols: 9, rows: 9, sense: 'occupancy' });
    expect(body.games.map((g: { game: string }) => g.game)).toEqual(['malawi', 'makis', 'adu']);
    expect(body.games[1]).toEqual({
      game: 'makis',
      title: 'Makis',
      seats: { min: 1, max: 5, kind: 'numbered' },
      options: [{ key: 'mode', kind: 'choice', values: ['competitive', 'cooperative'], default: 'competitive' }],
    });
    expect(body.current).toMatchObject({ game: 'malawi', options: { size: 9 }, players: { south: 'Süd', north: 'Nord' }, gameId: null, plies: 0, running: false });
    expect(body.calibration).toBeNull();
  });
});

describe('the token', () => {
  test('every change is refused without it or with a wrong one, and nothing changes', async () => {
    for (const action of ['start', 'end', 'abandon', 'tare', 'stones']) {
      for (const headers of [{ authorization: '' }, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TOKEN}` }, { authorization: `Bearer ${'x'.repeat(300)}` }]) {
        const reply = await post(action, { game: 'makis' }, headers);
        // After a few wrong tokens this address is not heard for a while (attempts.ts): refused all the same.
        if (reply.status === 429) {
          expect(reply.body).toMatchObject({ error: 'setup/too-many-attempts', params: { seconds: expect.any(Number) } });
          continue;
        }
        expect(reply.status, `${action} ${headers.authorization.slice(0, 12)}`).toBe(401);
        expect(reply.body).toEqual({ error: 'setup/unauthorized', message: expect.stringContaining('referee token') });
        expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
    expect(r.table.game).toBe('malawi');
    expect(r.heard.filter((m) => m.type === 'sync')).toEqual([]);
  });

  test('the token is checked before the body is read', async () => {
    const reply = await post('start', '{not json', { authorization: 'Bearer wrong' });
    expect(reply).toMatchObject({ status: 401, body: { error: 'setup/unauthorized' } });
  });
});

describe('bad bodies', () => {
  test.each([
    ['not JSON', '{"game": ', {}, 400, 'setup/bad-json'],
    ['an array', '["makis"]', {}, 400, 'setup/bad-body'],
    ['no game', {}, {}, 400, 'setup/bad-body'],
    ['an unknown field', { game: 'makis', colour: 'red' }, {}, 400, 'setup/unknown-field'],
    ['abandon that is not a boolean', { game: 'makis', abandon: 'yes' }, {}, 400, 'setup/bad-body'],
    ['a game this board does not host', { game: 'kalaha' }, {}, 400, 'setup/not-hosted'],
    ['an option the game does not have', { game: 'adu', options: { seedsPerPit: 3 } }, {}, 400, 'setup/unknown-option'],
    ['a size other than the board’s', { game: 'adu', options: { size: 13 } }, {}, 400, 'setup/bad-options'],
    ['too many players', { game: 'adu', players: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] }, {}, 400, 'setup/bad-players'],
    ['a name that is not text', { game: 'makis', players: [{ name: 'A' }] }, {}, 400, 'setup/bad-players'],
    ['a body of another type', 'game=makis', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'setup/not-json'],
    ['a body too large', { game: 'makis', players: ['x'.repeat(5000)] }, {}, 413, 'setup/too-large'],
  ] as const)('%s', async (_name, body, headers, status, code) => {
    const reply = await post('start', body, headers);
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual({ error: code, message: expect.any(String) });
    expect(reply.body.message.length).toBeGreaterThan(10);
    expect(r.table.game).toBe('malawi');
  });

  test('end: a winner who is not one of the game’s, and a field it does not take', async () => {
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' });
    expect(await post('end', { winner: 'east' })).toMatchObject({ status: 400, body: { error: 'setup/bad-winner' } });
    expect(await post('end', { winner: 'south', score: 3 })).toMatchObject({ status: 400, body: { error: 'setup/unknown-field' } });
    expect(await post('abandon', { now: true })).toMatchObject({ status: 400, body: { error: 'setup/unknown-field' } });
  });
});

describe('start, end and abandon', () => {
  test('start changes the game, every page is sent a sync, and the answer carries the new state', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
    const messages: ServerMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.once('open', resolve));
    const reply = await post('start', { game: 'makis', options: { mode: 'cooperative' }, players: ['Anna', 'Ben', ''] });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, gameId: null, abandoned: null });
    expect(reply.body.state.current).toMatchObject({ game: 'makis', options: { players: 3, mode: 'cooperative' }, players: { 1: 'Anna', 2: 'Ben', 3: 'Spieler 3' } });
    await until(() => messages.some((m) => m.type === 'sync' && m.game === 'makis'));
    expect((await get()).body.current.game).toBe('makis');
    ws.close();
  });

  test('a game being played: start is refused until it is abandoned, end writes the result', async () => {
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' });
    const id = r.table.currentGameId as number;
    expect(await post('start', { game: 'adu', players: ['A', 'B'] })).toMatchObject({ status: 409, body: { error: 'setup/game-running' } });
    const ended = await post('end', { winner: 'north', reason: 'agreed' });
    expect(ended).toMatchObject({ status: 200, body: { ok: true, gameId: id } });
    expect(r.log.game(id)?.result).toEqual({ winner: 'north', reason: 'agreed' });
    expect(ended.body.state.current).toMatchObject({ game: 'malawi', gameId: null, plies: 0 });
    expect(await post('end', {})).toMatchObject({ status: 409, body: { error: 'setup/no-game' } });

    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' });
    const next = r.table.currentGameId as number;
    expect(await post('start', { game: 'adu', players: ['A', 'B'], abandon: true })).toMatchObject({ status: 200, body: { abandoned: next } });
    expect(r.log.game(next)?.result).toEqual({ reason: 'abandoned' });
    expect(r.table.game).toBe('adu');
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'K@e5' });
    const adu = r.table.currentGameId as number;
    // Abandon takes no body at all, or an empty one.
    const res = await fetch(`${base}/abandon`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, gameId: adu });
    expect(r.log.game(adu)?.result).toEqual({ reason: 'abandoned' });
  });

  test('a square board has no scales', async () => {
    expect(await post('tare', {})).toMatchObject({ status: 409, body: { error: 'setup/no-scales' } });
    expect(await post('stones', {})).toMatchObject({ status: 409, body: { error: 'setup/no-scales' } });
  });
});

describe('a game log that cannot be written', () => {
  test('the game is neither ended nor abandoned while its moves wait: 503 setup/log-unwritable; once they are written, it ends', async () => {
    await http.close();
    await r.close();
    const log = openGameLog(':memory:');
    let failing = false;
    const unlessFailing = <T>(write: () => T): T => {
      if (failing) throw new GameLogWriteError('disk-full', 'memory', 'the game log memory cannot be written: the disk is full');
      return write();
    };
    const wrapped: GameLog = Object.assign(Object.create(log) as GameLog, {
      startGame: (game: NewGame) => unlessFailing(() => log.startGame(game)),
      append: (id: number, event: NewEvent) => unlessFailing(() => log.append(id, event)),
      endGame: (id: number, end: GameEnd) => unlessFailing(() => log.endGame(id, end)),
    });
    r = await rig(gridHello(9, 9), { game: 'malawi' }, { log: wrapped });
    http = await startHttp(r.table, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: r.table.id, webRoot: '/nonexistent', setup: r.table });
    base = `http://127.0.0.1:${http.port}/api/setup`;
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' });
    const id = r.table.currentGameId as number;
    failing = true;
    expect(r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a9-a7' })).toMatchObject({ ok: true });
    for (const action of ['end', 'abandon']) {
      expect(await post(action, action === 'end' ? { winner: 'north' } : {})).toMatchObject({ status: 503, body: { error: 'setup/log-unwritable', reason: 'disk-full' } });
    }
    expect(log.game(id)?.endedAt).toBeNull();
    failing = false;
    expect(await post('end', { winner: 'north' })).toMatchObject({ status: 200, body: { gameId: id } });
    expect(log.events(id).map((e) => [e.kind, (e.payload as { move?: string }).move])).toEqual([
      ['answer', undefined],
      ['move', 'a1-a3'],
      ['answer', undefined],
      ['move', 'a9-a7'],
      ['end', undefined],
    ]);
    log.close();
  });
});

describe('the Kalaha table', () => {
  beforeEach(async () => {
    await http.close();
    await r.close();
    await serve(KALAHA_HELLO, { game: 'kalaha' });
  });

  test('tare sends TARE; measuring before the stones are in says why not', async () => {
    answerCommands(r.pair);
    const tared = await post('tare', {});
    expect(tared).toMatchObject({ status: 200, body: { ok: true, at: r.clock.t, state: { calibration: { taredAt: r.clock.t, measured: null } } } });
    expect(r.pair.board.written().toString('latin1')).toContain('TARE*');
    expect(await post('stones', {})).toMatchObject({ status: 409, body: { error: 'setup/too-few-frames' } });
    r.weights(Array.from({ length: 10 }, (_, i) => ({ t: i * 50, tenths: new Array(14).fill(0) })));
    expect(await post('stones', {})).toMatchObject({ status: 409, body: { error: 'setup/no-stones' } });
  });

  test('a board that refuses TARE is a 502 that says what the board said', async () => {
    answerCommands(r.pair, () => 'ERR unsupported TARE');
    const reply = await post('tare', {});
    expect(reply.status).toBe(502);
    expect(reply.body).toEqual({ error: 'setup/board-refused', message: expect.stringContaining('ERR unsupported') });
  });
});

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}
