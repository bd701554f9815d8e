// Many tables, one PostgreSQL log: writers in separate processes at once, then `serve`, the REST API and `export` with --db postgres://….
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main, type Io } from '../../server/cli.ts';
import { openGameLog } from '../../server/store/index.ts';
import { kalahaGame } from './helpers.ts';
import { startPostgres, type PostgresServer } from './postgres-server.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

interface Written {
  own: Record<string, number[]>;
  shared: number[];
}

function runWriter(args: string[]): Promise<Written> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/run-ts.js', 'tests/store/postgres-writer.ts', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Written) : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

describe('several table services writing at once', () => {
  test('every game gets its own id, and every seq is 1, 2, 3, … without gaps or doubles, even in a game all share', async () => {
    const url = await server.createDatabase('tournament');
    const setup = openGameLog(url);
    const shared = setup.startGame(kalahaGame({ boardId: 'all' }));
    setup.close();

    const WRITERS = 4;
    const GAMES = 3;
    const EVENTS = 25;
    // Each writer opens the empty-but-for-one-game log itself: they also race to check its schema.
    const written = await Promise.all(Array.from({ length: WRITERS }, (_, w) => runWriter([url, `table-${w + 1}`, String(GAMES), String(EVENTS), String(shared)])));

    const log = openGameLog(url);
    try {
      const ownIds = written.flatMap((w) => Object.keys(w.own).map(Number));
      expect(new Set(ownIds).size).toBe(WRITERS * GAMES);
      for (const w of written) {
        for (const [id, seqs] of Object.entries(w.own)) {
          // What the writer was told is what the log holds: 1..n, then the end.
          expect(seqs).toEqual(Array.from({ length: EVENTS + 1 }, (_, i) => i + 1));
          const events = log.events(Number(id));
          expect(events.map((e) => e.seq)).toEqual(seqs);
          expect(events.at(-1)?.kind).toBe('end');
        }
        // A writer's own appends to the shared game come back in its order.
        expect(w.shared).toEqual([...w.shared].sort((a, b) => a - b));
      }
      const sharedEvents = log.events(shared);
      const total = WRITERS * GAMES * EVENTS;
      expect(sharedEvents.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      // Each seq was handed to exactly one writer, and each writer's notes are there, in its order.
      expect(written.flatMap((w) => w.shared).sort((a, b) => a - b)).toEqual(sharedEvents.map((e) => e.seq));
      for (const w of written) {
        const board = log.game(Number(Object.keys(w.own)[0]))?.boardId;
        const notes = sharedEvents.filter((e) => (e.payload as { board: string }).board === board);
        expect(notes.map((e) => e.seq)).toEqual(w.shared);
        expect(notes.map((e) => (e.payload as { n: number }).n)).toEqual(w.shared.map((_, i) => i + 1));
      }
      expect(log.countGames()).toBe(1 + WRITERS * GAMES);
    } finally {
      log.close();
    }
  }, 120_000);
});

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => '' };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('serve, the REST API and export on --db postgres://…', () => {
  test('a simulated table logs its game to PostgreSQL, the API lists it, and export reads it back', async () => {
    const url = await server.createDatabase('table');
    const serve = spawn(process.execPath, ['bin/spieltisch.js', 'serve', '--simulate', '--http', '0', '--sim-speed', '20', '--seed', '7', '--db', url], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    serve.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    serve.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => serve.on('close', (code) => resolve(code)));
    let gameId = 0;
    try {
      const port = await until(() => /display at http:\/\/localhost:(\d+) {2}· {2}game log (\S+)/.exec(out), 60_000, () => `serve did not start:\n${out}\n${err}`);
      expect(port[2]).toBe(url);

      // The table writes moves as it plays; wait for a few, read from the database itself.
      const log = openGameLog(url);
      try {
        await until(
          () => {
            const game = log.liveGame() ?? log.listGames({ limit: 1 })[0];
            if (game && log.events(game.id).filter((e) => e.kind === 'move').length >= 6) return (gameId = game.id);
            return null;
          },
          60_000,
          () => `no moves logged:\n${out}\n${err}`,
        );
        const api = (await (await fetch(`http://localhost:${port[1]}/api/games`)).json()) as { total: number; games: { id: number }[] };
        expect(api.games.map((g) => g.id)).toContain(gameId);
      } finally {
        log.close();
      }
    } finally {
      serve.kill('SIGTERM');
    }
    expect(await exited).toBe(0);

    const log = openGameLog(url);
    const logged = log.events(gameId);
    log.close();
    expect(logged.filter((e) => e.kind === 'move').length).toBeGreaterThanOrEqual(6);
    const exported = await run(['export', '--db', url, '--format', 'json']);
    expect(exported.code).toBe(0);
    const { games } = JSON.parse(exported.out.join('\n')) as { games: { id: number; game: string; events: { seq: number; kind: string; payload: unknown }[] }[] };
    const game = games.find((g) => g.id === gameId);
    expect(game?.game).toBe('kalaha');
    // Read back whole: every event the table logged, in order, with its payload.
    expect(game?.events.map((e) => [e.seq, e.kind, e.payload])).toEqual(logged.map((e) => [e.seq, e.kind, e.payload]));
    expect(await run(['export', '--db', url, '--id', '999'])).toMatchObject({ code: 1, err: [`spieltisch: there is no game 999 in ${url}`] });
  }, 180_000);
});

async function until<T>(probe: () => T | null | undefined, ms: number, why: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
