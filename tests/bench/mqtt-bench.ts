// A tournament on one machine: 50 simulated tables at ten times real speed publish into one real
// Mosquitto, and one broadcast service (`spieltisch broadcast`, its own process) gathers them for a
// tournament display, here a WebSocket client. Measures, per session update, the time from the
// sensor line that caused it reaching its table's service until the display has it (p50, p99),
// and the broadcast service's CPU time and memory; at the end, every board at the display must
// equal its table.
//
// The bench runner calls tournamentBench(); run this file alone to print its numbers:
//   node bin/run-ts.js tests/bench/mqtt-bench.ts [tables] [speed] [seconds]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { tables as kits } from '../../server/tables/index.ts';
import { openGameLog } from '../../server/store/index.ts';
import { startPublisher, type BoardRecord, type BroadcastMessage, type TablePublisher } from '../../server/mqtt/index.ts';
import type { GameSession } from '../../server/session/index.ts';
import type { GameName } from '../../server/rules/types.ts';
import { TestBroker } from '../mqtt/broker.ts';

export interface TournamentResult {
  readonly tables: number;
  readonly speed: number;
  readonly seconds: number;
  /** Session updates timed from sensor line to display. */
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The broadcast service's CPU time over the measured window, as a share of one core. */
  readonly cpuShare: number;
  /** Its CPU time per update it passed on, in µs. */
  readonly cpuPerUpdateUs: number;
  readonly rssMiB: number;
  readonly peakRssMiB: number;
  /** Boards whose record, seq and game at the display equal the table's once play stopped. */
  readonly boardsEqual: number;
}

const SITE = 'bench';
const CLOCK_TICKS = 100;
const bin = fileURLToPath(new URL('../../bin/spieltisch.js', import.meta.url));

interface BenchTable {
  readonly name: string;
  readonly session: GameSession;
  readonly publisher: TablePublisher;
  close(): Promise<void>;
}

export async function tournamentBench(tableCount = 50, speed = 10, seconds = 20): Promise<TournamentResult> {
  const broker = await TestBroker.start({ persistence: false });
  let child: ChildProcess | null = null;
  const list: BenchTable[] = [];
  let display: WebSocket | null = null;
  try {
    const service = await startBroadcastProcess(broker.url);
    child = service.child;

    // The display: every board message is an arrival, the first one of each (board, seq) is timed.
    display = new WebSocket(`ws://127.0.0.1:${service.port}/ws`);
    const lineAt = new Map<string, number>();
    const latencies: number[] = [];
    let measuring = false;
    const boards = new Map<string, BoardRecord>();
    display.on('message', (data) => {
      const now = performance.now();
      const message = JSON.parse(String(data)) as BroadcastMessage;
      if (message.type !== 'board') return;
      boards.set(message.board.key, message.board);
      const key = `${message.board.key}#${message.board.seq}`;
      const start = lineAt.get(key);
      if (start === undefined) return;
      lineAt.delete(key);
      if (measuring) latencies.push(now - start);
    });
    await new Promise((resolve, reject) => {
      display!.once('message', resolve);
      display!.once('error', reject);
    });

    // The tables: nine in ten Kalaha on weighing tables, the rest Malawi on bead-counting boards.
    for (let i = 0; i < tableCount; i++) {
      const game: GameName = i % 10 === 9 ? 'malawi' : 'kalaha';
      list.push(await startBenchTable(game, `tisch-${String(i + 1).padStart(2, '0')}`, 1000 + i, speed, broker.url, lineAt));
    }

    // Warm up (connections, the first games calibrating), then measure.
    await sleep(3000);
    lineAt.clear();
    measuring = true;
    const before = usage(child.pid as number);
    const wallStart = performance.now();
    await sleep(seconds * 1000);
    const after = usage(child.pid as number);
    const wall = (performance.now() - wallStart) / 1000;
    measuring = false;
    const updates = latencies.length;

    // Play stops; every board at the display must come to equal its table.
    await Promise.all(list.map((table) => table.close()));
    const equal = () =>
      list.filter((t) => {
        const board = boards.get(`${SITE}/${t.name}`);
        return board?.seq === t.session.currentStateId && JSON.stringify(board.record) === JSON.stringify(t.session.record()) && board.gameId === t.session.currentGameId;
      }).length;
    for (let i = 0; i < 200 && equal() < list.length; i++) await sleep(50);

    latencies.sort((a, b) => a - b);
    const cpu = (after.ticks - before.ticks) / CLOCK_TICKS;
    return {
      tables: tableCount,
      speed,
      seconds: wall,
      samples: updates,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
      cpuShare: cpu / wall,
      cpuPerUpdateUs: updates ? (cpu * 1e6) / updates : NaN,
      rssMiB: after.rssKiB / 1024,
      peakRssMiB: after.peakKiB / 1024,
      boardsEqual: equal(),
    };
  } finally {
    display?.close();
    await Promise.all(list.map((table) => table.close()));
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await broker.close();
  }
}

async function startBenchTable(game: GameName, name: string, seed: number, speed: number, url: string, lineAt: Map<string, number>): Promise<BenchTable> {
  const rules = kits[game]!.withRules({});
  const sim = await rules.simulate({ seed, simSpeed: speed, sense: 'count' });
  // Heard before the session's own listener: the moment the service has the line.
  let arrived = 0;
  for (const kind of ['weights', 'counts', 'grid'] as const) sim.link.on(kind, () => (arrived = performance.now()));
  const log = openGameLog(':memory:');
  const session = rules.session({ boardId: name, source: 'simulated', log }, sim.link);
  session.setBoard({ connected: true, calibrated: true });
  // An update is decided while its line is being handled: it belongs to the line that arrived last.
  session.subscribe((message) => {
    if (message.type === 'update') lineAt.set(`${SITE}/${name}#${message.stateId}`, arrived);
  });
  const publisher = startPublisher(session, { url, site: SITE, board: name });
  let open = true;
  return {
    name,
    session,
    publisher,
    async close() {
      if (!open) return;
      open = false;
      await sim.close();
      await publisher.close(5000);
      log.close();
    },
  };
}

/** `spieltisch broadcast` in its own process, so its CPU and memory are its own. */
async function startBroadcastProcess(url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [bin, 'broadcast', '--mqtt', url, '--http', '0', '--listen', '127.0.0.1', '--client-id', `bench-${randomBytes(4).toString('hex')}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /tournament display at http:\/\/localhost:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`spieltisch broadcast exited (${code}):\n${out}`)));
  });
  return { child, port };
}

/** CPU ticks (user + system) and memory of a process, from /proc. */
function usage(pid: number): { ticks: number; rssKiB: number; peakKiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { ticks, rssKiB: kib('VmRSS'), peakKiB: kib('VmHWM') };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [tables, speed, seconds] = process.argv.slice(2).map(Number);
  const r = await tournamentBench(tables || undefined, speed || undefined, seconds || undefined);
  const round = (x: number, digits = 3) => Number(x.toPrecision(digits));
  console.log(`MQTT tournament: ${r.tables} tables at ${r.speed}× → Mosquitto → broadcast service → display, ${round(r.seconds)} s`);
  console.log(`  sensor line → display  p50 ${round(r.p50)} ms, p99 ${round(r.p99)} ms, max ${round(r.max)} ms (${r.samples} updates)`);
  console.log(`  broadcast service      CPU ${round(r.cpuShare * 100)} % of a core (${round(r.cpuPerUpdateUs)} µs per update), RSS ${round(r.rssMiB)} MiB, peak ${round(r.peakRssMiB)} MiB`);
  console.log(`  boards equal to their tables after play stopped: ${r.boardsEqual}/${r.tables}`);
}
