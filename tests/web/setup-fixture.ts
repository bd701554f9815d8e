// For the setup page's browser checks: the pages built into a folder of their own, a live table on a simulated
// board behind the real HTTP face, a Kalaha table whose hand the test moves, and Chromium through playwright-core.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimulatedKalahaBoard, type SimulatedBoard, type TableAction } from '../../firmware-bridge/index.ts';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { LiveTable, simulatedBoard, type FirstGame, type TableBoard } from '../../server/table/index.ts';

export const SETUP_TOKEN = 'setup-token';

/** The flags of every headless run here: no sandbox (root in a container), no GPU, nothing fetched from outside. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_FLAGS] });
}

/** Builds the pages into a fresh folder, so a build of web/dist by another process cannot pull files from under the browser. */
export async function buildPages(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'spieltisch-setup-web-'));
  const { build } = await import('vite');
  await build({ configFile: resolve('web/vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  return out;
}

export interface Served {
  readonly table: LiveTable;
  readonly http: RunningServer;
  readonly log: GameLog;
  readonly url: string;
  close(): Promise<void>;
}

/** A live table on `board` behind startHttp, serving the pages in `webRoot`. */
export async function serveTable(board: TableBoard, first: FirstGame, webRoot: string): Promise<Served> {
  const log = openGameLog(':memory:');
  const table = await LiveTable.open({ board, log }, first);
  const http = await startHttp(table, { port: 0, host: '127.0.0.1', token: SETUP_TOKEN, log, boardId: table.id, webRoot, setup: table });
  return {
    table,
    http,
    log,
    url: `http://127.0.0.1:${http.port}`,
    async close() {
      await http.close();
      await table.close();
      log.close();
    },
  };
}

/** A simulated square board with its simulated players, restarted for each game. */
export function simulatedGrid(seed: number): TableBoard {
  return simulatedBoard('grid', { seed, simSpeed: 10, sense: 'occupancy' });
}

/**
 * A simulated Kalaha table of marbles with nobody playing: the test's hand takes the stones out and puts them back,
 * as a person following the wizard would.
 */
export async function handTable(): Promise<{ board: TableBoard; sim: SimulatedBoard; perform(actions: readonly TableAction[]): Promise<void> }> {
  const sim = await startSimulatedKalahaBoard({
    seed: 'setup-page',
    stoneSet: 'marbles',
    seedsPerPit: 4,
    simSpeed: 10,
    virtualTimestamps: true,
    hand: { pressProbability: 0 },
  });
  const board: TableBoard = {
    kind: 'kalaha',
    source: 'simulated',
    hello: null,
    attach: async () => ({ link: sim.link, boardId: 'hand-table', description: 'a simulated table moved by the test' }),
    close: () => sim.close(),
  };
  return { board, sim, perform: (actions) => new Promise<void>((done) => sim.table.perform(actions, done)) };
}

/** The console's messages, for the test's report when something fails. */
export function watchConsole(page: Page, into: string[]): void {
  page.on('console', (m) => {
    // A build made inside the test runner resolves Lit's development export, which says so once.
    if (m.type() === 'warning' && m.text().startsWith('Lit is in dev mode')) return;
    if (m.text().startsWith('Failed to load resource')) return; // said with its address by the response handler
    if (m.type() === 'error' || m.type() === 'warning') into.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    // A browser asks for /favicon.ico by itself; the pages have none.
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) into.push(`${r.status()}: ${r.url()}`);
  });
  page.on('pageerror', (e) => into.push(`pageerror: ${e.message}`));
}
