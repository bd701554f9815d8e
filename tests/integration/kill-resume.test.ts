// Crash safety of the real service: `spieltisch serve` on a serial line is killed with SIGKILL in
// the middle of a game, again and again, and restarted. The board outlives it: a simulated Kalaha
// table in this process, on the far end of a pseudo-terminal made by socat (Debian package
// `socat`). After every kill the game log holds every move any display was shown, each exactly
// once; after every restart the live game goes on exactly where it was. Then the same, killed while a
// hand is sowing: the move is finished while the service is down, or after it is back (the hand still
// moving when it reads the board again), and is logged once, as reconstructed after the restart.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import Sqlite from 'better-sqlite3';
import { KalahaTable, RealTimeDriver, Scheduler, type TableAction } from '../../firmware-bridge/index.ts';
import { planKalahaGame, type KalahaGamePlan } from '../../server/simulate/kalaha-player.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { SCHEMA_VERSION, openGameLog, type GameEvent } from '../../server/store/index.ts';
import { mulberry32 } from '../support/prng.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HAS_SOCAT = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0;
const BOARD_ID = 'kill-test';
/** The table runs this many times faster than people: frames stay within what the protocol allows. */
const SPEED = 3;
const MOVES = 14;
/** After which plies the service is killed. */
const KILL_AFTER = new Set([1, 2, 4, 6, 9, 11, 13]);

let dir = '';
let service: ChildProcess | null = null;
/** Every process a test started, stopped after the last test whatever happened. */
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spieltisch-kill-'));
});
afterAll(async () => {
  for (const p of children) if (p.exitCode === null && p.signalCode === null) await stop(p, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function stop(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the displays were shown: the record of every sync and update, and whether the board is calibrated. */
interface Display {
  record: string[];
  calibrated: boolean;
  close(): void;
}

/** The longest record any display was ever shown, over every run of the service. */
let longestShown: string[] = [];

function watch(port: number): Promise<Display> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const display: Display = { record: [], calibrated: false, close: () => ws.terminate() };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; record?: string[]; board?: { calibrated: boolean } };
      if (m.record) {
        display.record = m.record;
        if (m.record.length > longestShown.length) longestShown = m.record;
      }
      if (m.board) display.calibrated = m.board.calibrated;
      if (m.type === 'sync') resolve(display);
    });
    ws.on('error', reject);
  });
}

/** Starts `spieltisch serve` on the pty; resolves with its HTTP port and what it printed. */
async function startService(device: string, db: string): Promise<{ port: number; out: () => string }> {
  const child = spawn(process.execPath, ['bin/spieltisch.js', 'serve', '--game', 'kalaha', '--port', device, '--db', db, '--http', '0', '--listen', '127.0.0.1', '--token', 'kill'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service = child;
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const port = await until('the service to listen', () => {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${out}`);
    const m = /display at http:\/\/localhost:(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  });
  return { port, out: () => out };
}

/**
 * The moves of the board's game as the log holds them, checked move by move: ply 1, 2, 3, … each
 * once; those at the plies in `reconstructed` marked as read from the board after a restart.
 */
function checkLog(db: string, expected: readonly string[], board = BOARD_ID, reconstructed: ReadonlySet<number> = new Set()): { gameId: number; events: GameEvent[] } {
  const log = openGameLog(db);
  try {
    const games = log.allGames({ board });
    // One game, never a second one started by a restart, and still live.
    expect(games.map((g) => g.endedAt)).toEqual([null]);
    const events = log.events(games[0].id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const moves = events.filter((e) => e.kind === 'move').map((e) => e.payload as { move: string; ply: number });
    expect(moves).toEqual(expected.map((move, i) => ({ move, ply: i + 1, ...(reconstructed.has(i + 1) ? { reconstructed: true } : {}) })));
    expect(events.filter((e) => e.kind === 'takeback')).toEqual([]);
    return { gameId: games[0].id, events };
  } finally {
    log.close();
  }
}

/** A simulated Kalaha table on the far end of a socat pty: the device the service opens, and the table. */
async function tableOnPty(name: string, seed: string, boardId: string): Promise<{ device: string; table: KalahaTable; driver: RealTimeDriver; perform(script: TableAction[]): Promise<void> }> {
  // Not skipped without it: a crash test that quietly does not run proves nothing.
  if (!HAS_SOCAT) throw new Error('this test makes its serial line with socat: install the Debian package socat');
  const device = join(dir, name);
  const pty = spawn('socat', [`pty,raw,echo=0,link=${device}`, 'STDIO'], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(pty);
  await until('the pty', () => existsSync(device));
  // The board: a simulated table whose lines go into the pty and whose commands come out of it.
  const scheduler = new Scheduler();
  const driver = new RealTimeDriver(scheduler, { speed: SPEED });
  const table = new KalahaTable(
    scheduler,
    { seed, boardId, stoneSet: 'marbles', seedsPerPit: 4, hand: { pressProbability: 0, pauseProbability: 0 } },
    (line) => pty.stdin?.write(line + '\r\n'),
  );
  pty.stdout?.on('data', (bytes: Buffer) => {
    driver.sync();
    table.receive(bytes);
  });
  driver.start();
  table.boot();
  return { device, table, driver, perform: (script) => new Promise<void>((resolve) => table.perform(script, resolve)) };
}

/** The players' game cut into one script per move. */
function scriptsPerMove(plan: KalahaGamePlan): TableAction[][] {
  const scripts: TableAction[][] = [];
  let from = 0;
  for (const event of plan.events) {
    if (event.kind !== 'move') continue;
    const end = plan.actions.findIndex((a) => a.kind === 'mark' && a.label === event.endLabel);
    scripts.push(plan.actions.slice(from, end + 1) as TableAction[]);
    from = end + 1;
  }
  return scripts;
}

test(
  'SIGKILL in the middle of a game, again and again: no move lost or doubled, and the game resumes where it was',
  async () => {
    const db = join(dir, 'games.db');
    const { device, table, driver, perform } = await tableOnPty('board', 'kill', BOARD_ID);

    // The players' game, cut into one script per move; between moves they look at the display.
    const plan = planKalahaGame({ seed: 'kill', rules: DEFAULT_OPTIONS, maxMoves: MOVES });
    expect(plan.record).toHaveLength(MOVES);
    const scripts = scriptsPerMove(plan);
    const random = mulberry32(7);

    try {
      let run = await startService(device, db);
      let display = await watch(run.port);
      await until('the first calibration', () => display.calibrated);

      let previous: GameEvent[] = [];
      for (let ply = 1; ply <= MOVES; ply++) {
        await perform(scripts[ply - 1]);
        await until(`the display to show ply ${ply}`, () => display.record.length >= ply);
        expect(display.record).toEqual(plan.record.slice(0, ply));
        if (!KILL_AFTER.has(ply)) continue;

        // Killed at once when the display shows the move, or a little later while the next player thinks.
        const delay = Math.floor(random() * 3) * 150;
        if (delay) await new Promise((r) => setTimeout(r, delay));
        display.close();
        await stop(service as ChildProcess, 'SIGKILL');
        expect(service?.signalCode).toBe('SIGKILL');

        // Every move a display was shown is in the log, each once; nothing logged before is changed.
        const { events } = checkLog(db, plan.record.slice(0, ply));
        expect(longestShown.length).toBeLessThanOrEqual(ply);
        expect(events.slice(0, previous.length)).toEqual(previous);
        previous = events;

        run = await startService(device, db);
        display = await watch(run.port);
        // The first thing any display sees is the game exactly where it was.
        expect(display.record).toEqual(plan.record.slice(0, ply));
        expect(run.out()).toMatch(new RegExp(`resuming game \\d+ after ${ply} moves`));
        await until(`calibration after restart at ply ${ply}`, () => display.calibrated);
      }

      display.close();
      await stop(service as ChildProcess, 'SIGKILL');
      const { events } = checkLog(db, plan.record);
      expect(events.slice(0, previous.length)).toEqual(previous);
    } finally {
      driver.stop();
      table.shutdown();
    }
  },
  240_000,
);

test(
  'SIGKILL while a hand is sowing: the move finished meanwhile, or after the restart with the hand still moving, is taken once, as reconstructed',
  async () => {
    const board = 'kill-sowing';
    const db = join(dir, 'sowing.db');
    const { device, table, driver, perform } = await tableOnPty('sowing-board', 'sowing', board);

    const plan = planKalahaGame({ seed: 'sowing-3', rules: DEFAULT_OPTIONS, maxMoves: 10 });
    const scripts = scriptsPerMove(plan);
    // Killed at these plies, after the hand lifted the pit and dropped its first stone: the hand
    // finishes while the service is down (`down`), or once it is back up (`up`).
    const kills = new Map<number, 'down' | 'up'>([
      [2, 'down'],
      [3, 'up'],
      [5, 'down'],
      [6, 'up'],
      [8, 'up'],
      [10, 'down'],
    ]);
    // Four of them carry a capture, which must come through a restart too.
    const captures = plan.events.filter((e) => e.kind === 'move' && e.captures.length > 0).map((e) => (e.kind === 'move' ? e.ply : 0));
    expect(captures.filter((ply) => kills.has(ply))).toEqual([5, 6, 8, 10]);
    const reconstructed = new Set<number>();

    try {
      let run = await startService(device, db);
      let display = await watch(run.port);
      await until('the first calibration', () => display.calibrated);
      let previous: GameEvent[] = [];
      for (let ply = 1; ply <= plan.record.length; ply++) {
        const script = scripts[ply - 1];
        const mode = kills.get(ply);
        if (!mode) {
          await perform(script);
          await until(`the display to show ply ${ply}`, () => display.record.length >= ply);
          continue;
        }
        const lift = script.findIndex((a) => a.kind === 'lift');
        const firstDrop = script.findIndex((a, i) => i > lift && a.kind === 'drop');
        expect(firstDrop).toBeGreaterThan(lift);
        await perform(script.slice(0, firstDrop + 1));
        display.close();
        await stop(service as ChildProcess, 'SIGKILL');
        // Nothing of the move half made is in the log.
        ({ events: previous } = checkLog(db, plan.record.slice(0, ply - 1), board, reconstructed));
        const rest = script.slice(firstDrop + 1);
        if (mode === 'down') await perform(rest);
        run = await startService(device, db);
        expect(run.out()).toMatch(new RegExp(`resuming game \\d+ after ${ply - 1} moves`));
        display = await watch(run.port);
        expect(display.record).toEqual(plan.record.slice(0, ply - 1));
        if (mode === 'up') await perform(rest);
        await until(`the display to show ply ${ply} after the restart`, () => display.record.length >= ply);
        expect(display.record).toEqual(plan.record.slice(0, ply));
        reconstructed.add(ply);
        const { events } = checkLog(db, plan.record.slice(0, ply), board, reconstructed);
        expect(events.slice(0, previous.length)).toEqual(previous);
        await until(`calibration after the restart at ply ${ply}`, () => display.calibrated);
      }
      display.close();
      await stop(service as ChildProcess, 'SIGKILL');
      checkLog(db, plan.record, board, reconstructed);
    } finally {
      driver.stop();
      table.shutdown();
    }
  },
  240_000,
);

test('the service refuses to start on a log it cannot migrate, says why, and leaves the file as it was', async () => {
  const file = join(dir, 'newer.db');
  const log = openGameLog(file);
  log.close();
  const raw = new Sqlite(file);
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  const before = readFileSync(file);
  const child = spawn(process.execPath, ['bin/spieltisch.js', 'serve', '--simulate', '--http', '0', '--listen', '127.0.0.1', '--db', file], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  expect(code).toBe(1);
  expect(out).toBe(`spieltisch: the game log ${file} has schema version ${SCHEMA_VERSION + 1}, newer than this Spieltisch understands (${SCHEMA_VERSION}); not touching it\n`);
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(existsSync(`${file}-wal`)).toBe(false);
}, 60_000);
