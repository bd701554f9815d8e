// A tournament on one machine, every part real: three `serve` processes (simulated tables) log to one
// PostgreSQL database and publish to one Mosquitto broker, one broadcast service gathers them, and
// the broker is restarted mid-game. In the end the display, each table and the shared log agree.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { main, type Io } from '../../server/cli.ts';
import { startBroadcast, type RunningBroadcast } from '../../server/mqtt/index.ts';
import { openGameLog } from '../../server/store/index.ts';
import { recordOf } from '../../server/session/index.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import type { GameName } from '../../server/rules/types.ts';
import { TestBroker, mosquittoPath } from './broker.ts';
import { until } from './harness.ts';
import { startPostgres, type PostgresServer } from '../store/postgres-server.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SITE = 'turnier';
const SPEED = 100;
const TOKEN = 'tournament-token';
const GAMES: readonly GameName[] = ['kalaha', 'malawi', 'kalaha'];

/** One table as the test sees it from outside: its `serve` process and what its own display socket said. */
interface Table {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  /** Every update the table sent to its display, in order: (stateId, record). */
  readonly updates: { stateId: number; record: readonly string[] }[];
  /** Games the table went on to after one ended. */
  newGames: number;
  /** The table's own latest picture, from its display socket. */
  last: { stateId: number; record: readonly string[] } | null;
  socket: WebSocket | null;
}

let postgres: PostgresServer | null = null;
let broker: TestBroker | null = null;
let broadcast: RunningBroadcast | null = null;
const tables: Table[] = [];

/** A `serve` left behind by a test process that died is killed with it. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

beforeAll(() => {
  // No broker, no test: this fails, it does not skip (startPostgres does the same for PostgreSQL).
  mosquittoPath();
});

afterAll(async () => {
  for (const table of tables) {
    table.socket?.terminate();
    if (table.child.exitCode === null && table.child.signalCode === null) table.child.kill('SIGKILL');
  }
  await Promise.all(tables.map((table) => table.exited));
  await broadcast?.close();
  await broker?.close();
  await postgres?.stop();
});

function startServe(game: GameName, index: number, db: string, mqtt: string): Table {
  const name = `brett-${index + 1}`;
  const child = spawn(
    process.execPath,
    [
      'bin/spieltisch.js',
      'serve',
      '--game',
      game,
      '--simulate',
      '--sim-speed',
      String(SPEED),
      '--seed',
      String(200 + index),
      '--http',
      '0',
      '--listen',
      '127.0.0.1',
      '--token',
      TOKEN,
      '--db',
      db,
      '--mqtt',
      mqtt,
      '--site',
      SITE,
      '--board-name',
      name,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { name, child, exited, output: () => out, updates: [], newGames: 0, last: null, socket: null };
}

/** Follows the table's own display socket: its sync, then every update. */
async function follow(table: Table): Promise<void> {
  let port = 0;
  await until(`${table.name} serves its display`, () => {
    if (table.child.exitCode !== null) throw new Error(`${table.name} exited early:\n${table.output()}`);
    port = Number(/display at http:\/\/localhost:(\d+)/.exec(table.output())?.[1] ?? 0);
    return port > 0;
  });
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  table.socket = socket;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as ServerMessage;
    if (message.type === 'sync' || message.type === 'update') {
      table.last = { stateId: message.stateId, record: message.record };
      if (message.type === 'update') table.updates.push(table.last);
      if (message.type === 'update' && message.event === 'new-game') table.newGames++;
    }
  });
  socket.on('error', () => {});
  await until(`${table.name}'s display socket has its state`, () => table.last !== null);
}

/** Each table has sent `more` updates beyond `from`; a table that died fails the test at once, saying why. */
function advanced(from: readonly number[], more: number): boolean {
  for (const table of tables) {
    if (table.child.exitCode !== null || table.child.signalCode !== null) throw new Error(`${table.name} stopped mid-game:\n${table.output()}`);
  }
  return tables.every((table, i) => table.updates.length >= from[i] + more);
}

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => '' };
  const code = await main(argv, io);
  return { code, out, err };
}

interface Exported {
  id: number;
  game: string;
  boardId: string;
  events: { seq: number; kind: string; at: number; payload: unknown }[];
}

describe('a tournament: serve processes, one PostgreSQL log, one Mosquitto, one broadcast service', () => {
  test('the broker is restarted mid-game: the display, every table and the shared log end equal', async () => {
    postgres = await startPostgres();
    const db = await postgres.createDatabase('tournament');
    broker = await TestBroker.start({ persistence: true });
    broadcast = await startBroadcast({ url: broker.url, port: 0, listen: '127.0.0.1', clientId: `broadcast-${randomBytes(4).toString('hex')}` });
    await until('the broadcast service is subscribed', () => broadcast!.broker().connected);

    // What the display applied, per board: each event's (gameId, seq) and the record it showed after it.
    const applied = new Map<string, { gameId: number | null; seq: number; record: readonly string[] }[]>();
    broadcast.subscribe((outcome) => {
      if (outcome.kind !== 'applied') return;
      const list = applied.get(outcome.key) ?? [];
      list.push({ gameId: outcome.event.gameId, seq: outcome.event.seq, record: outcome.event.update.record });
      applied.set(outcome.key, list);
    });

    tables.push(...GAMES.map((game, i) => startServe(game, i, db, broker!.url)));
    await Promise.all(tables.map(follow));

    await until('every table has played a little', () => advanced([0, 0, 0], 4));
    await broker.stop('SIGTERM');
    const atStop = tables.map((table) => table.updates.length);
    await until('the broadcast service has seen the broker go', () => !broadcast!.broker().connected);
    // The broker is away: the tables referee and log on.
    await until('every table has played on without the broker', () => advanced(atStop, 4));
    await broker.resume();
    const atResume = tables.map((table) => table.updates.length);
    await until('the broadcast service is back', () => broadcast!.broker().connected);
    await until('every table has played on after the broker came back, and into a second game', () => advanced(atResume, 4) && tables.every((t) => t.newGames > 0));

    // The tables stop cleanly (their board first, then the publisher says goodbye): the game stands still.
    for (const table of tables) table.child.kill('SIGTERM');
    const codes = await Promise.all(tables.map((table) => table.exited));
    for (const [i, table] of tables.entries()) expect(codes[i], `${table.name}:\n${table.output()}`).toBe(0);
    for (const table of tables) expect(table.output(), table.name).not.toMatch(/did not reach the broker/);

    // Every board at the broadcast service equals its table's own last word.
    await until('every board at the broadcast service has its table\'s last state and its goodbye', () =>
      tables.every((table) => {
        const board = broadcast!.book.get(`${SITE}/${table.name}`);
        return board?.seq === table.last!.stateId && board.presence === 'offline';
      }),
    );
    for (const table of tables) {
      const board = broadcast.book.get(`${SITE}/${table.name}`)!;
      expect(board.record, table.name).toEqual(table.last!.record);
      // With the broker's state kept, the display applied every event of the table once, in order.
      const seqs = (applied.get(board.key) ?? []).map((e) => e.seq);
      expect(seqs, table.name).toEqual(Array.from({ length: board.seq }, (_, i) => i + 1));
      expect(board.counts.gaps, table.name).toBe(0);
      // And what the table's own display was told is what the broadcast display showed after each event.
      const shown = new Map((applied.get(board.key) ?? []).map((e) => [e.seq, e.record]));
      for (const update of table.updates) expect(shown.get(update.stateId), `${table.name} #${update.stateId}`).toEqual(update.record);
    }

    // The shared log, read back through `export --db postgres://… --format json`.
    const exported = await run(['export', '--db', db, '--format', 'json']);
    expect(exported.code, exported.err.join('\n')).toBe(0);
    const { games } = JSON.parse(exported.out.join('\n')) as { games: Exported[] };
    expect(new Set(games.map((g) => g.id)).size).toBe(games.length);
    const log = openGameLog(db);
    try {
      for (const [i, table] of tables.entries()) {
        const board = broadcast.book.get(`${SITE}/${table.name}`)!;
        const own = games.filter((g) => g.boardId === table.name).sort((a, b) => a.id - b.id);
        expect(own.length, `${table.name}'s games in the log`).toBeGreaterThan(0);
        for (const game of own) {
          expect(game.game, `${table.name} game ${game.id}`).toBe(GAMES[i]);
          // No gaps, no doubles: seq 1, 2, 3, …; and export says what the store says.
          expect(game.events.map((e) => e.seq), `${table.name} game ${game.id}`).toEqual(Array.from({ length: game.events.length }, (_, k) => k + 1));
          expect(game.events.map((e) => [e.seq, e.kind, e.payload])).toEqual(log.events(game.id).map((e) => [e.seq, e.kind, e.payload]));
          // Each game's record in the log is what the display showed at that game's last event.
          const lastShown = (applied.get(board.key) ?? []).filter((e) => e.gameId === game.id).at(-1);
          expect(lastShown, `${table.name} game ${game.id} reached the display`).toBeDefined();
          expect(recordOf(log.events(game.id)), `${table.name} game ${game.id}`).toEqual(lastShown!.record);
        }
        // The game on the board at the end is the table's newest in the log, with the same record.
        expect(board.gameId, table.name).toBe(own.at(-1)!.id);
        expect(recordOf(log.events(board.gameId!)), table.name).toEqual(board.record);
      }
      // Every game in the log belongs to one of the tables.
      expect(games.every((g) => tables.some((t) => t.name === g.boardId)), JSON.stringify(games.map((g) => [g.id, g.boardId]))).toBe(true);
    } finally {
      log.close();
    }
  }, 120_000);
});
