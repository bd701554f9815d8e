// How long an import holds up the event loop that referees the live table: the longest stall and the 99th percentile
// seen by monitorEventLoopDelay, and the longest gap of a 5 ms setInterval probe, while the file is posted to
// /api/games/import of a running server. Three ways, in the same run: now (read, checked and written in a worker on
// a connection of its own); as it was before that (checked in a worker, written on the main thread in slices, which
// the server still does for a log only its own connection sees); and the one-transaction importGames on the main
// thread, as the import route did first. Then the same watch over a pause as long, for the machine's own noise.
//
// The bench runner calls importStall(dir) for a 1.6 MB file; run this file alone for 1.6 MB and 8 MB:
//   node bin/run-ts.js tests/bench/import-stall.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
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
  /** Over HTTP, written in the worker (now). */
  readonly http: Stall;
  /** Over HTTP, written on the main thread in slices (before). */
  readonly slices: Stall;
  /** importGames on the main thread, in one transaction (first); left out when not asked for. */
  readonly mainThread: Stall | null;
  /** The same watch over a pause as long as the import over HTTP: what the machine itself adds (other processes). */
  readonly idle: Stall;
}

export interface Stall {
  readonly histogramMaxMs: number;
  readonly histogramP99Ms: number;
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
  return { histogramMaxMs: histogram.max / 1e6, histogramP99Ms: histogram.percentile(99) / 1e6, probeMaxMs: Math.max(0, probeMax), over50, totalMs };
}

/** The log as a server sees it whose log no other connection can open: the import is written on the main thread. */
function onlyHere(log: GameLog): GameLog {
  return new Proxy(log, { get: (target, key) => (key === 'sharedAddress' ? () => null : Reflect.get(target, key, target)) });
}

/** The file posted to a running server with a live game, as a referee's program would; the log written through `wrap`. */
async function overHttp(file: string, text: string, games: number, wrap: (log: GameLog) => GameLog): Promise<Stall> {
  const log = openGameLog(file);
  const served = wrap(log);
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log: served });
  const maxImportBytes = Buffer.byteLength(text) + 1024;
  const http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log: served, boardId: 'vauban', webRoot: '/nonexistent', maxImportBytes });
  const post = (body: string | Blob) => fetch(`http://127.0.0.1:${http.port}/api/games/import`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}` } });
  // A server that has run for a while: fetch loaded (Node loads it on first use) and the log's statements prepared.
  await (await post('[Game "kalaha"] [Site "warm-up"] C')).arrayBuffer();
  let status = 0;
  // The client is in this process too: its encoding of the file is done before the watch, as a client elsewhere would.
  const bytes = new Blob([text]);
  const stall = await watch(async () => {
    const res = await post(bytes);
    status = res.status;
    await res.arrayBuffer();
  });
  await http.close();
  const imported = log.countGames({});
  log.close();
  if (status !== 201 || imported !== games + 1) throw new Error(`the import over HTTP answered ${status} and wrote ${imported - 1} of ${games} games`);
  return stall;
}

export async function importStall(dir: string, bytes = 1.6e6, withMainThread = true): Promise<StallResult> {
  const { text, games } = importFile(bytes);
  const tag = Math.round(bytes / 1e5);
  const http = await overHttp(join(dir, `import-worker-${tag}.db`), text, games, (log) => log);
  const slices = await overHttp(join(dir, `import-slices-${tag}.db`), text, games, onlyHere);
  let mainThread: Stall | null = null;
  if (withMainThread) {
    const before = openGameLog(join(dir, `import-main-${tag}.db`));
    mainThread = await watch(() => importGames(before, text));
    before.close();
  }
  const idle = await watch(() => new Promise((resolve) => setTimeout(resolve, http.totalMs)));
  return { bytes: Buffer.byteLength(text), games, http, slices, mainThread, idle };
}

/** The bench's lines: what the import over HTTP holds up now, what the main-thread import did, and the machine's own noise. */
export function stallLines(r: StallResult): [string, string][] {
  const ms = (x: number) => Number(x.toPrecision(3));
  const stall = (s: Stall) =>
    `longest stall ${ms(s.histogramMaxMs)} ms, p99 ${ms(s.histogramP99Ms)} ms (probe ${ms(s.probeMaxMs)} ms, ${s.over50}× over 50 ms), ${ms(s.totalMs)} ms in all`;
  const ratio = (before: Stall) => `${ms(before.histogramMaxMs / r.http.histogramMaxMs)}× the longest stall, ${ms(before.histogramP99Ms / r.http.histogramP99Ms)}× p99`;
  return [
    [`Import of ${(r.bytes / 1e6).toFixed(1)} MB over HTTP (read, checked, written in a worker)`, stall(r.http)],
    ['  before: checked in a worker, written on the main thread in slices', `${stall(r.slices)}; ${ratio(r.slices)}`],
    ...(r.mainThread ? [['  first: read, checked, written on the main thread', `${stall(r.mainThread)}; ${ratio(r.mainThread)}`] as [string, string]] : []),
    ['  no import, as long (the machine’s own noise)', stall(r.idle)],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-import-'));
  try {
    // The one-transaction import of 8 MB holds the loop for half a minute and tells nothing new: left out.
    for (const [bytes, withMainThread] of [[1.6e6, true], [8e6, false]] as const) {
      const r = await importStall(dir, bytes, withMainThread);
      console.log(`${(r.bytes / 1e6).toFixed(2)} MB, ${r.games} games`);
      for (const [name, stall] of stallLines(r)) console.log(`${name}: ${stall}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
