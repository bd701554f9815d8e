// JSON nested thousands deep, sent to every route that reads a body: a 4xx with a code and a sentence, never a
// 500 from an exhausted stack, and the server goes on serving.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { KALAHA_HELLO, rig, type Rig } from '../table/helpers.ts';

const TOKEN = 'sesam';
const DEPTH = 5000;
const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

let table: Rig;
let http: RunningServer;
beforeAll(async () => {
  table = await rig(KALAHA_HELLO, { game: 'kalaha' });
  http = await startHttp(table.table, { port: 0, host: '127.0.0.1', token: TOKEN, log: table.log, boardId: table.table.id, setup: table.table, onError: () => {} });
});
afterAll(async () => {
  await http?.close();
  await table?.close();
});

const game = (field: string, value: string) => `{"game":"kalaha","moves":["C"],"${field}":${value}}`;

const BODIES: readonly (readonly [route: string, body: string, type: string])[] = [
  ['/api/games/import', deepArray, 'application/json'],
  ['/api/games/import', deepObject, 'application/json'],
  ['/api/games/import', game('result', deepObject), 'application/json'],
  ['/api/games/import', game('options', deepObject), 'application/json'],
  ['/api/games/import', game('events', `[{"seq":1,"at":1,"kind":"move","payload":${deepObject}}]`), 'application/json'],
  ['/api/games/import', `game,moves,players\nkalaha,C,"${deepObject.replaceAll('"', '""')}"\n`, 'text/csv'],
  ['/api/games/import', `[Game "kalaha"] [Options "${deepObject.replaceAll('"', '\\"')}"] C`, 'text/plain'],
  ['/api/setup/start', `{"game":"kalaha","options":${deepObject}}`, 'application/json'],
  ['/api/setup/start', `{"game":"kalaha","players":${deepArray}}`, 'application/json'],
  ['/api/setup/start', `{"game":${deepArray}}`, 'application/json'],
  ['/api/setup/end', `{"winner":${deepObject}}`, 'application/json'],
  ['/api/setup/abandon', deepObject, 'application/json'],
];

describe('JSON nested 5,000 deep', () => {
  test.each(BODIES)('%s: a 4xx with a code and a sentence (%#)', async (route, body, type) => {
    const res = await fetch(`http://127.0.0.1:${http.port}${route}`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': type } });
    const answer = (await res.json()) as { error: string; message: string };
    expect(res.status, answer.message).toBeGreaterThanOrEqual(400);
    expect(res.status, answer.message).toBeLessThan(500);
    expect(answer.error).toMatch(/^[a-z]+\/[a-z-]+$/);
    expect(answer.message).toMatch(/\w/);
    expect(answer.message).not.toMatch(/stack|RangeError/i);
    expect((await fetch(`http://127.0.0.1:${http.port}/healthz`)).status).toBe(200);
  });

  test('an import nested too deep is named so', async () => {
    const res = await fetch(`http://127.0.0.1:${http.port}/api/games/import`, { method: 'POST', body: game('result', deepObject), headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'import/too-deep', message: expect.stringContaining('deeper than 64 levels') });
    expect(table.log.countGames({})).toBe(0);
  });
});
