// The REST API over plain fetch against startHttp on port 0: the history, downloads, statistics,
// import with the referee token, and every kind of bad input answered with a 4xx and a JSON body.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { openGameLog, localDay, type GameLog } from '../../server/store/index.ts';
import { importGames } from '../../server/export/index.ts';
import { randomGame } from '../store/random-games.ts';

const TOKEN = 'sesam öffne dich';
let http: RunningServer;
let log: GameLog;
let session: KalahaSession;
let base: string;

beforeEach(async () => {
  log = openGameLog(':memory:');
  session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: '/nonexistent' });
  base = `http://127.0.0.1:${http.port}/api`;
});
afterEach(async () => {
  await http.close();
  log.close();
});

async function get(path: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: res.status, body: json ? JSON.parse(text) : text, headers: res.headers };
}

async function post(body: string, headers: Record<string, string> = {}, query = ''): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/games/import${query}`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}`, ...headers } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Three finished games of the past, on two boards, and one today at this table. */
function seed(): { kalaha: number; malawi: number; adu: number; today: number } {
  const k = randomGame('kalaha', {}, 31);
  const m = randomGame('malawi', {}, 32);
  const a = randomGame('adu', { players: 3 }, 33);
  const text = [
    `[Game "kalaha"] [Site "vauban"] [Start "2024-05-01T10:00:00Z"] [End "2024-05-01T10:40:00Z"] [South "Anna"] [North "Ben"] ${k.moves.join(' ')}`,
    `[Game "malawi"] [Site "rieselfeld"] [Start "2024-05-01T12:00:00Z"] [End "2024-05-01T12:30:00Z"] [South "Ben"] [North "Cleo"] ${m.moves.join(' ')}`,
    `[Game "adu"] [Players "3"] [Site "vauban"] [Start "2024-05-02T12:00:00Z"] [Player1 "Dora"] [Player2 "Anna"] [Player3 "Emil"] ${a.moves.join(' ')}`,
    `[Game "kalaha"] [Site "vauban"] [Start "${new Date().toISOString()}"] [Result "north"] [Termination "agreed"] C e`,
  ].join('\n\n');
  const ids = importGames(log, text).imported.map((g) => g.id);
  return { kalaha: ids[0], malawi: ids[1], adu: ids[2], today: ids[3] };
}

describe('GET /api/games', () => {
  test('lists games newest first with the total for paging, live and finished alike', async () => {
    const ids = seed();
    session.command(0, { kind: 'enter', move: 'C' }); // starts the live game at this table
    const live = session.currentGameId as number;
    const { status, body } = await get('/games');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, limit: 50, offset: 0 });
    expect(body.games.map((g: { id: number }) => g.id)).toEqual([live, ids.today, ids.adu, ids.malawi, ids.kalaha]);
    expect(body.games[0]).toMatchObject({ id: live, game: 'kalaha', boardId: 'vauban', source: 'simulated', live: true, plies: 1, endedAt: null, importedAt: null });
    expect(body.games[4]).toMatchObject({ players: { south: 'Anna', north: 'Ben' }, live: false, source: 'hand', startedAt: Date.parse('2024-05-01T10:00:00Z') });
  });

  test('filters by game, day, board and player, and pages', async () => {
    const ids = seed();
    const list = async (q: string) => (await get(`/games?${q}`)).body;
    expect((await list('game=kalaha')).games.map((g: { id: number }) => g.id)).toEqual([ids.today, ids.kalaha]);
    expect((await list(`day=${localDay(Date.parse('2024-05-02T12:00:00Z'))}`)).games.map((g: { id: number }) => g.id)).toEqual([ids.adu]);
    expect((await list('board=rieselfeld')).total).toBe(1);
    expect((await list('player=anna')).games.map((g: { id: number }) => g.id)).toEqual([ids.adu, ids.kalaha]);
    expect((await list('from=2024-05-01&to=2024-05-02')).total).toBe(3);
    const page = await list('limit=2&offset=1');
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(page.games.map((g: { id: number }) => g.id)).toEqual([ids.adu, ids.malawi]);
  });

  test.each([
    ['limit=0', 'api/bad-query', /"limit" must be a whole number from 1 to 1000/],
    ['limit=ten', 'api/bad-query', /"limit"/],
    ['offset=-1', 'api/bad-query', /"offset"/],
    ['game=chess', 'api/bad-query', /"game" must be one of kalaha, malawi, makis, adu/],
    ['day=2024-02-30', 'api/bad-query', /"day" must be a day such as 2024-05-01/],
    ['day=2024-05-01&from=2024-05-01', 'api/bad-query', /not both/],
    ['from=2024-05-03&to=2024-05-01', 'api/bad-query', /"from" must not be after "to"/],
    ['player=', 'api/bad-query', /"player" must be 1 to 200 characters/],
    [`board=${'x'.repeat(201)}`, 'api/bad-query', /"board"/],
    ['game=kalaha&game=adu', 'api/bad-query', /once/],
    ['gmae=kalaha', 'api/unknown-parameter', /Unknown parameter "gmae"/],
  ])('%s is refused with 400', async (query, error, message) => {
    const { status, body } = await get(`/games?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error, message: expect.stringMatching(message) });
  });
});

describe('GET /api/games/:id', () => {
  test('a live game played at this table: its moves and every event, and only the newer ones with after', async () => {
    session.command(0, { kind: 'enter', move: 'C' });
    session.command(1, { kind: 'enter', move: 'e' });
    const id = session.currentGameId as number;
    const { status, body } = await get(`/games/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, game: 'kalaha', live: true, plies: 2, moves: ['C', 'e'], players: { south: 'Süd', north: 'Nord' } });
    // The console's entry that opened the game is logged too: the session opens the game's row first.
    expect(body.events.map((e: { kind: string }) => e.kind)).toEqual(['answer', 'move', 'answer', 'move']);
    expect(body.events[0]).toMatchObject({ seq: 1, kind: 'answer', payload: { command: { kind: 'enter', move: 'C' } } });
    expect(body.events[1]).toMatchObject({ seq: 2, kind: 'move', payload: { move: 'C', ply: 1 } });
    expect(body.events[2]).toMatchObject({ seq: 3, kind: 'answer', payload: { command: { kind: 'enter', move: 'e' } } });
    expect((await get(`/games/${id}?after=3`)).body.events.map((e: { seq: number }) => e.seq)).toEqual([4]);
  });

  test.each([
    ['abc', 400, 'api/bad-id'],
    ['0', 400, 'api/bad-id'],
    ['1.5', 400, 'api/bad-id'],
    ['99999999999999999', 400, 'api/bad-id'],
    ['42', 404, 'api/no-such-game'],
  ])('/games/%s: %i', async (id, status, error) => {
    for (const path of [`/games/${id}`, `/games/${id}/positions`, `/games/${id}/export`]) {
      const res = await get(path);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error, message: expect.any(String) });
    }
  });

  test('bad parameters', async () => {
    const { kalaha } = seed();
    expect((await get(`/games/${kalaha}?after=x`)).body.error).toBe('api/bad-query');
    expect((await get(`/games/${kalaha}/positions?ply=3`)).body).toEqual({ error: 'api/unknown-parameter', message: 'Unknown parameter "ply"; this route takes none.' });
  });
});

describe('GET /api/games/:id/positions', () => {
  test('the position after every ply, from the engine’s replay', async () => {
    const { kalaha, adu } = seed();
    const { status, body } = await get(`/games/${kalaha}/positions`);
    expect(status).toBe(200);
    const record = randomGame('kalaha', {}, 31);
    expect(body.moves).toEqual(record.moves);
    expect(body.steps).toHaveLength(record.moves.length + 1);
    expect(body.error).toBeNull();
    expect(body.steps[0]).toMatchObject({ ply: 0, move: null, over: false, toMove: 'south', position: { stores: { south: 0, north: 0 } } });
    expect(body.steps.at(-1)).toMatchObject({ ply: record.moves.length, move: record.moves.at(-1), over: true, winner: record.winner });
    // Kalaha's captures, for the heat map: every capture adds its stones to the mover's store.
    expect(body.steps[0]).not.toHaveProperty('captures');
    const captured = body.steps.slice(1).reduce((sum: number, s: { captures: { stones: number }[] }) => sum + s.captures.reduce((t, c) => t + c.stones, 0), 0);
    expect(captured).toBeGreaterThan(0);
    const adu3 = (await get(`/games/${adu}/positions`)).body;
    expect(adu3.steps[1].position.pieces).toBeTypeOf('object');
    expect(adu3.steps[1]).not.toHaveProperty('captures');
  });
});

describe('downloads', () => {
  test('one game in each format, as an attachment that imports back', async () => {
    const { malawi } = seed();
    for (const [format, type] of [
      ['pgn', 'text/plain; charset=utf-8'],
      ['json', 'application/json; charset=utf-8'],
      ['csv', 'text/csv; charset=utf-8'],
    ]) {
      const res = await fetch(`${base}/games/${malawi}/export?format=${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="spieltisch-${malawi}-malawi.${format}"`);
      const other = openGameLog(':memory:');
      expect(importGames(other, await res.text()).imported).toHaveLength(1);
      expect(other.allGames()[0]).toMatchObject({ game: 'malawi', boardId: 'rieselfeld', players: { south: 'Ben', north: 'Cleo' } });
      other.close();
    }
    expect((await get(`/games/${malawi}/export`)).headers.get('content-disposition')).toContain('.pgn');
    expect((await get(`/games/${malawi}/export?format=xml`)).body).toEqual({ error: 'api/bad-query', message: '"format" must be one of pgn, json, csv, not "xml".' });
  });

  test('many games with the list’s filters', async () => {
    seed();
    const { status, body, headers } = await get('/games/export?format=csv&game=kalaha');
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toBe('attachment; filename="spieltisch-games.csv"');
    expect(body.trim().split('\r\n').map((row: string) => row.split(',')[1])).toEqual(['game', 'kalaha', 'kalaha']);
    expect((await get('/games/export?day=yesterday')).status).toBe(400);
  });
});

describe('GET /api/players', () => {
  test('the names to filter by, most games first, filtered like the games', async () => {
    seed();
    expect((await get('/players')).body.players).toEqual([
      { name: 'Anna', games: 2 },
      { name: 'Ben', games: 2 },
      { name: 'Cleo', games: 1 },
      { name: 'Dora', games: 1 },
      { name: 'Emil', games: 1 },
    ]);
    expect((await get('/players?board=rieselfeld')).body.players.map((p: { name: string }) => p.name)).toEqual(['Ben', 'Cleo']);
    expect((await get('/players?game=kalaha&limit=3')).status).toBe(400);
  });
});

describe('GET /api/stats', () => {
  test('games per day and per board, wins by side or seat, average length, and today at this table', async () => {
    seed();
    session.command(0, { kind: 'enter', move: 'C' });
    const { status, body } = await get('/stats');
    expect(status).toBe(200);
    const record = randomGame('kalaha', {}, 31);
    expect(body).toMatchObject({ games: 5, live: 1, filter: {} });
    expect(body.perBoard).toEqual([
      { board: 'vauban', games: 4 },
      { board: 'rieselfeld', games: 1 },
    ]);
    expect(body.perDay.reduce((s: number, d: { games: number }) => s + d.games, 0)).toBe(5);
    expect(body.perGame.map((g: { game: string }) => g.game)).toEqual(['kalaha', 'malawi', 'adu']);
    const wins: Record<string, number> = { north: 1 };
    wins[record.winner as string] = (wins[record.winner as string] ?? 0) + 1;
    expect(body.perGame[0]).toMatchObject({ games: 3, finished: 2, wins, averagePlies: (record.moves.length + 2) / 2 });
    // Today at this table: the game agreed this morning, and the live one.
    expect(body.today).toMatchObject({ day: localDay(Date.now()), board: 'vauban', games: 2, finished: 1, live: 1, wins: { north: 1 } });
  });

  test('filters, and today at the board asked for', async () => {
    seed();
    const { body } = await get('/stats?board=rieselfeld');
    expect(body).toMatchObject({ games: 1, filter: { board: 'rieselfeld' }, today: { board: 'rieselfeld', games: 0 } });
    expect((await get('/stats?game=adu')).body.perGame).toEqual([expect.objectContaining({ game: 'adu', games: 1, finished: 1 })]);
    expect((await get('/stats?limit=3')).body.error).toBe('api/unknown-parameter');
  });
});

describe('POST /api/games/import', () => {
  const RECORD = '[Game "kalaha"]\n[Site "vauban"]\n[Start "2024-05-01T10:00:00Z"]\n1. C e 2. F d\n';

  test('with the referee token: 201 and the new ids; the same file again: 200, skipped', async () => {
    const first = await post(RECORD, { 'content-type': 'text/plain' });
    expect(first).toMatchObject({ status: 201, body: { format: 'pgn', imported: [{ game: 1, id: 1 }], skipped: [] } });
    const again = await post(RECORD);
    expect(again).toMatchObject({ status: 200, body: { imported: [], skipped: [{ game: 1, id: 1 }] } });
    expect((await get('/games/1')).body).toMatchObject({ moves: ['C', 'e', 'F', 'd'], live: false });
  });

  test('the format from the query, from the content type, or from the body', async () => {
    const json = JSON.stringify({ game: 'malawi', moves: ['a1-a3'] });
    expect((await post(json, { 'content-type': 'application/json' })).body.format).toBe('json');
    expect((await post('game,moves\nkalaha,A\n', { 'content-type': 'text/csv' })).body.format).toBe('csv');
    expect((await post('[Game "kalaha"] C', { 'content-type': 'application/json' })).body.error).toBe('import/unreadable');
    expect((await post('[Game "kalaha"] B', { 'content-type': 'application/json' }, '?format=pgn')).status).toBe(201);
    expect((await post('1. a1-a3', {}, '?game=malawi')).status).toBe(201);
    expect((await post('C', {}, '?game=go')).body.error).toBe('api/bad-query');
  });

  test('a bad move: 400 with the game, ply and move, and nothing written', async () => {
    const { status, body } = await post(`${RECORD}\n[Game "kalaha"]\n1. C e 2. e\n`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'import/bad-move', message: expect.stringMatching(/^Game 2 \(line 6\): ply 3 \("e"\) is not legal: /), game: 2, line: 6, ply: 3, move: 'e', rule: 'kalaha/not-your-pit' });
    expect((await get('/games')).body.total).toBe(0);
  });

  test('without the token, or with a wrong one: 401, and the body is never read', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Basic ${TOKEN}`, `Bearer ${'x'.repeat(300)}`]) {
      const res = await fetch(`${base}/games/import`, { method: 'POST', body: RECORD, headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ error: 'api/unauthorized', message: 'Importing games needs the referee token: Authorization: Bearer <token>.' });
    }
    expect((await get('/games')).body.total).toBe(0);
  });

  test('a body in the charset its Content-Type names is read in it (the worker decodes the bytes)', async () => {
    const latin1 = Buffer.from('[Game "kalaha"]\n[Site "vauban"]\n[South "Jürgen Größe"]\n\nC e\n', 'latin1');
    const res = await fetch(`${base}/games/import`, { method: 'POST', body: latin1, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain; charset=ISO-8859-1' } });
    expect(res.status).toBe(201);
    const { imported } = (await res.json()) as { imported: { id: number }[] };
    expect((await get(`/games/${imported[0].id}`)).body.players).toMatchObject({ south: 'Jürgen Größe' });
    const utf8 = await post('\uFEFF[Game "kalaha"]\n[Site "vauban"]\n[South "Zoë"]\n\nC\n');
    expect(utf8.status).toBe(201);
    expect((await get(`/games/${utf8.body.imported[0].id}`)).body.players).toMatchObject({ south: 'Zoë' });
  });

  test('an empty body, a body too large, a charset that is not UTF-8', async () => {
    expect((await post('   \n')).body).toEqual({ error: 'api/empty-body', message: expect.any(String) });
    const big = await post('{' + ' '.repeat(2 * 1024 * 1024) + '}');
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'api/too-large', message: 'The body is larger than the 2097152 bytes an import may be.' });
    const latin = await post(RECORD, { 'content-type': 'text/plain; charset=klingon' });
    expect(latin.status).toBe(415);
    expect((await get('/games')).body.total).toBe(0);
  });
});

describe('everything else under /api', () => {
  test('an unknown route is a 404 with a JSON body; the live state is still there', async () => {
    expect(await get('/gamez')).toMatchObject({ status: 404, body: { error: 'not-found', message: 'No such API route.' } });
    expect((await fetch(`${base}/games`, { method: 'DELETE' })).status).toBe(404);
    expect((await get('/state')).body).toMatchObject({ type: 'sync', game: 'kalaha' });
  });

  test('without a game log there is no history API, and the rest works as before', async () => {
    const bare = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, webRoot: '/nonexistent' });
    try {
      const res = await fetch(`http://127.0.0.1:${bare.port}/api/games`);
      expect(res.status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${bare.port}/api/state`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
