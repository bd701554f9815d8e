// How long a 1.6 MB import holds up the event loop that referees the live table: the longest stall seen by
// monitorEventLoopDelay and by a 5 ms setInterval probe, while the file is posted to /api/games/import of a
// running server (checked in a worker, written in slices), and, for comparison, while the same file goes through
// the one-transaction importGames on the main thread, as the import route did before.
//
// The bench runner calls importStall(file); run this file alone to print it:
//   node bin/run-ts.js tests/bench/import-stall.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';
import { startHttp } from '../../server/http/index.ts';
import { importGames } from '../../server/export/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { randomGame } from '../store/random-games.ts';

const TOKEN = 'bench';
const PROBE_MS = 5;

export interface StallResult {
  readonly bytes: number;
  readonly games: number;
  /** The longest stall, ms, over HTTP (now) and on the main thread (before). */
  readonly http: Stall;
  readonly mainThread: Stall;
  /** The same watch over a pause as long as the import over HTTP: what the machine itself adds (other processes). */
  readonly idle: Stall;
}

export interface Stall {
  readonly histogramMaxMs: number;
  readonly probeMaxMs: number;
  /** How many times the probe came more than 50 ms late. */
  readonly over50: number;
  readonly totalMs: number;
}

/** Kalaha and Malawi games, each at a table of its own, until the file is `bytes` long: an export of a busy club. */
export function importFile(bytes = 1.6e6): { text: string; games: number } {
  const records: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const game = i % 4 === 3 ? 'malawi' : 'kalaha';
    const g = randomGame(game, {}, i, 300);
    const start = new Date(Date.UTC(2024, 4, 1, 10) + i * 60_000).toISOString().replace('.000', '');
    const record = `[Game "${game}"]\n[Site "tisch-${i % 40}"]\n[Start "${start}"]\n[South "Anna ${i}"]\n[North "Ben ${i}"]\n\n${g.moves.join(' ')}\n\n`;
    records.push(record);
    size += Buffer.byteLength(record);
  }
  return { text: records.join(''), games: records.length };
}

/** Runs `work` while watching the event loop: the histogram's largest delay and the probe's longest gap past its period. */
async function watch(work: () => Promise<unknown> | unknown): Promise<Stall> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let probeMax = 0;
  let over50 = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    probeMax = Math.max(probeMax, now - last - PROBE_MS);
    if (now - last - PROBE_MS > 50) over50++;
    last = now;
  }, PROBE_MS);
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  await work();
  const totalMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 50));
  histogram.disable();
  clearInterval(probe);
  return { histogramMaxMs: histogram.max / 1e6, probeMaxMs: Math.max(0, probeMax), over50, totalMs };
}

export async function importStall(dir: string): Promise<StallResult> {
  const { text, games } = importFile();
  // Now: a running server with a live game, the file posted as a referee's program would.
  const log = openGameLog(join(dir, 'import-http.db'));
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
  const http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: '/nonexistent' });
  const post = (body: string) => fetch(`http://127.0.0.1:${http.port}/api/games/import`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}` } });
  // A server that has run for a while: fetch loaded (Node loads it on first use) and the log's statements prepared.
  await (await post('[Game "kalaha"] [Site "warm-up"] C')).arrayBuffer();
  let status = 0;
  const overHttp = await watch(async () => {
    const res = await post(text);
    status = res.status;
    await res.arrayBuffer();
  });
  await http.close();
  const imported = log.countGames({});
  log.close();
  if (status !== 201 || imported !== games + 1) throw new Error(`the import over HTTP answered ${status} and wrote ${imported - 1} of ${games} games`);
  // Before: the same file read, checked and written on the main thread in one go.
  const before = openGameLog(join(dir, 'import-main.db'));
  const mainThread = await watch(() => importGames(before, text));
  before.close();
  const idle = await watch(() => new Promise((resolve) => setTimeout(resolve, overHttp.totalMs)));
  return { bytes: Buffer.byteLength(text), games, http: overHttp, mainThread, idle };
}

/** The bench's lines: what the import over HTTP holds up now, what the main-thread import did, and the machine's own noise. */
export function stallLines(r: StallResult): [string, string][] {
  const ms = (x: number) => Number(x.toPrecision(3));
  const stall = (s: Stall) => `longest stall ${ms(s.histogramMaxMs)} ms (probe ${ms(s.probeMaxMs)} ms, ${s.over50}× over 50 ms), ${ms(s.totalMs)} ms in all`;
  return [
    [`Import of ${(r.bytes / 1e6).toFixed(1)} MB over HTTP (worker, slices)`, stall(r.http)],
    ['  before: read, checked, written on the main thread', stall(r.mainThread)],
    ['  no import, as long (the machine’s own noise)', stall(r.idle)],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-import-'));
  try {
    const r = await importStall(dir);
    console.log(`${(r.bytes / 1e6).toFixed(2)} MB, ${r.games} games`);
    for (const [name, stall] of stallLines(r)) console.log(`${name}: ${stall}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
