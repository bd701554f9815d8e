// For the browser tests of the display and the console: Chromium (required, never skipped), the pages built into a
// folder of their own, and a live table — the real LiveTable and HTTP face that `spieltisch serve` runs — on a
// simulated board, either with its simulated players or with nobody at it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimulatedKalahaBoard, type SimulatedBoard, type TableAction } from '../../firmware-bridge/index.ts';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { LiveTable, simulatedBoard, type FirstGame, type TableBoard } from '../../server/table/index.ts';

export const TOKEN = 'browser-test-token';
export const OUT = resolve('tests/output/web');

/** The flags of every headless run: no sandbox (root in a container), no GPU, nothing fetched from outside. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * The browser tests run in every `npm test` and fail here, saying why, when there is no Chromium: a check that
 * quietly skips on the one machine that lacks the browser would pass without having looked.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}: install the Debian package \`chromium\`, or set CHROMIUM to another Chromium binary.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS] });
}

/** Builds the pages into a fresh folder, so a build of web/dist by another process cannot pull files from under the browser. */
export async function buildPages(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'spieltisch-browser-web-'));
  const { build } = await import('vite');
  await build({ configFile: resolve('web/vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  return out;
}

export const removeDir = (dir: string) => rm(dir, { recursive: true, force: true });

export interface Served {
  readonly table: LiveTable;
  readonly http: RunningServer;
  readonly log: GameLog;
  readonly url: string;
  close(): Promise<void>;
}

/** A live table on `board` behind startHttp with a game log, serving the pages in `webRoot`: what `serve` runs. */
export async function serveTable(board: TableBoard, first: FirstGame, webRoot: string): Promise<Served> {
  const log = openGameLog(':memory:');
  const table = await LiveTable.open({ board, log }, first);
  const http = await startHttp(table, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: table.id, webRoot, setup: table });
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

/** A simulated board with simulated players at it, playing game after game (a new board per game, as `serve --simulate`). */
export function playedBoard(kind: 'kalaha' | 'grid', seed: number, sense: 'occupancy' | 'count' = 'occupancy'): TableBoard {
  return simulatedBoard(kind, { seed, simSpeed: 20, sense });
}

/**
 * A simulated Kalaha table with its stones set out and nobody playing: the game waits for its first move, and the
 * test's hand moves stones as a person would (`perform`).
 */
export function quietKalahaBoard(): { readonly board: TableBoard; perform(actions: readonly TableAction[]): Promise<void> } {
  let sim: SimulatedBoard | null = null;
  const board: TableBoard = {
    kind: 'kalaha',
    source: 'simulated',
    hello: null,
    async attach() {
      await sim?.close();
      sim = await startSimulatedKalahaBoard({
        seed: 'quiet-table',
        stoneSet: 'marbles',
        seedsPerPit: 4,
        simSpeed: 20,
        virtualTimestamps: true,
        hand: { pressProbability: 0 },
      });
      return { link: sim.link, boardId: 'quiet-table', description: 'a simulated table nobody plays at' };
    },
    async close() {
      await sim?.close();
      sim = null;
    },
  };
  return {
    board,
    perform: (actions) =>
      new Promise<void>((done, fail) => (sim ? sim.table.perform(actions, done) : fail(new Error('the table has no board yet')))),
  };
}

/** Collects what a page reports wrong (errors, failed requests), for the test to show when it fails. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    // A build made inside the test runner resolves Lit's development export, which says so once.
    if (m.type() === 'warning' && m.text().startsWith('Lit is in dev mode')) return;
    if (m.text().startsWith('Failed to load resource')) return; // the response handler names the address
    if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()}: ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** Saves a screenshot for eyes: tests/output/web/browser-<name>-<width>x<height>.png. */
export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.screenshot({ path: join(OUT, `browser-${name}-${width}x${height}.png`), fullPage });
}
