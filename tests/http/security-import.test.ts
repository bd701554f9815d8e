// A large import must not hold up the live table: its reading and checking happen in a worker thread and its writes
// in short slices. The answer is the same as the one-transaction import's; how long it takes is the bench's business.
import { afterEach, describe, expect, test } from 'vitest';
import { threadId } from 'node:worker_threads';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { ImportError, exportGames, importGames } from '../../server/export/index.ts';
import { checkOffThread } from '../../server/export/import-thread.ts';
import { randomGame } from '../store/random-games.ts';

const TOKEN = 'sesam';
let http: RunningServer | null = null;
const logs: GameLog[] = [];
afterEach(async () => {
  await http?.close();
  http = null;
  for (const log of logs.splice(0)) log.close();
});

function freshLog(): GameLog {
  const log = openGameLog(':memory:');
  logs.push(log);
  return log;
}

/** `count` random games of each game, every one at a table of its own. */
function file(count: number, seed = 1): string {
  const records: string[] = [];
  for (const game of ['kalaha', 'malawi', 'adu'] as const) {
    for (let i = 0; i < count; i++) {
      const g = randomGame(game, game === 'adu' ? { players: 3 } : {}, seed * 1000 + i, 200);
      records.push(`[Game "${game}"]\n${game === 'adu' ? '[Players "3"]\n' : ''}[Site "${game}-${seed}-${i}"]\n[Start "2024-05-01T10:00:00Z"]\n\n${g.moves.join(' ')}\n`);
    }
  }
  return records.join('\n');
}

const post = (port: number, body: string) =>
  fetch(`http://127.0.0.1:${port}/api/games/import`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}` } });

async function table(): Promise<{ log: GameLog; port: number }> {
  const log = freshLog();
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: '/nonexistent' });
  return { log, port: http.port };
}

describe('an import off the main thread', () => {
  test('the games are read and checked in another thread, and come back as the main thread would check them', async () => {
    const text = file(10);
    const done = await checkOffThread({ text, now: 5 });
    expect(done.threadId).not.toBe(threadId);
    expect(done).toMatchObject({ format: 'pgn', count: 30 });
    const checked = [];
    for await (const batch of done.batches()) checked.push(...batch);
    const other = freshLog();
    expect(checked.map((c) => c.index)).toEqual(importGames(other, text, { now: 5 }).imported.map((g) => g.game));
    // The next import is not held up by this one's worker.
    const small = await checkOffThread({ text: '[Game "kalaha"] C', now: 5 });
    expect(small.count).toBe(1);
    for await (const batch of small.batches()) expect(batch).toHaveLength(1);
  });

  test('a refusal from the worker is the ImportError the main thread would raise', async () => {
    const text = `${file(3)}\n[Game "kalaha"]\n[Site "bad"]\n\nC C\n`;
    const refused = checkOffThread({ text, now: 5 });
    await expect(refused).rejects.toBeInstanceOf(ImportError);
    let expected: unknown;
    try {
      importGames(freshLog(), text, { now: 5 });
    } catch (e) {
      expected = e;
    }
    await expect(refused).rejects.toMatchObject({ code: (expected as ImportError).code, message: (expected as ImportError).message, details: (expected as ImportError).details });
  });

  test('over HTTP the answer and the log are those of the one-transaction import, and a second time everything is skipped', async () => {
    const { log, port } = await table();
    const text = file(15);
    const res = await post(port, text);
    expect(res.status).toBe(201);
    const other = freshLog();
    const now = (await res.clone().json()) as { imported: unknown[] };
    expect(now.imported).toHaveLength(45);
    expect(await res.json()).toEqual(importGames(other, text, { now: 0 }));
    expect(exportGames(log, {}, 'json').count).toBe(45);
    expect(exportGames(log, {}, 'pgn').text).toBe(exportGames(other, {}, 'pgn').text);
    const again = await post(port, text);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { skipped: unknown[] }).skipped).toHaveLength(45);
  });

  test('imports sent at once are taken one after the other, each whole', async () => {
    const { log, port } = await table();
    const texts = [file(3, 1), file(3, 2), file(3, 3)];
    const answers = await Promise.all(texts.map((t) => post(port, t)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    for (const a of answers) expect(((await a.json()) as { imported: unknown[] }).imported).toHaveLength(9);
    expect(log.countGames({})).toBe(27);
  });

  test('a bad file over HTTP writes nothing and names the first bad move', async () => {
    const { log, port } = await table();
    const res = await post(port, `${file(5)}\n[Game "kalaha"]\n[Site "bad"]\n\nC C\n`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'import/bad-move', game: 16, ply: 2, move: 'C' });
    expect(log.countGames({})).toBe(0);
  });
});
