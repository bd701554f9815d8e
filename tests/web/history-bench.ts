// Bench: how long a game's page takes, in Chromium, from navigation to the board drawn, for a Kalaha game of 300
// moves served by the real HTTP face from a game log. Prints its numbers; asserts nothing.
//
//   node bin/run-ts.js tests/web/history-bench.ts [runs]
//
// Each run opens /games?id=N in a fresh browser context (cold: nothing cached) and again in the same one (warm:
// scripts cached, data fetched anew, as on a reload). "Asked" is when the page, its scripts loaded and run, asked
// for the data; "board" is the first animation frame in which <kalaha-board>
// has drawn its pits; "data" is when the positions (the larger of the two API answers) arrived; "chart" the first
// frame after the score chart is on its canvas. All in ms since navigation started (the page's performance clock).
import { buildPages, launchChromium, logGame, longGame, memoryLog, removeDir, startHistoryServer } from './history-fixture.ts';

const runs = Number(process.argv[2] ?? 15);

interface Times {
  /** When the page asked for the positions: its scripts had loaded and run. */
  readonly asked: number;
  readonly board: number;
  readonly data: number;
  readonly chart: number;
}

/** Runs in the page: resolves at the first frame where the board is drawn, with the other marks seen so far. */
const WAIT_FOR_BOARD = `new Promise((done) => {
  const deep = (root, selector) => {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        const found = deep(el.shadowRoot, selector);
        if (found) return found;
      }
    }
    return null;
  };
  const positions = () => performance.getEntriesByType('resource').find((e) => e.name.endsWith('/positions'));
  let board = NaN;
  const frame = (now) => {
    if (Number.isNaN(board)) {
      const el = deep(document, 'kalaha-board');
      if (el && el.shadowRoot && el.shadowRoot.querySelector('circle.pit')) board = now;
    }
    if (!Number.isNaN(board) && deep(document, 'history-chart[drawn]')) {
      const entry = positions();
      done({ asked: entry ? entry.startTime : NaN, data: entry ? entry.responseEnd : NaN, board, chart: now });
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

function summary(label: string, values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const f = (n: number) => n.toFixed(0).padStart(5);
  return `${label.padEnd(14)} median ${f(at(0.5))}  p90 ${f(at(0.9))}  min ${f(sorted[0])}  max ${f(sorted[sorted.length - 1])}`;
}

const dist = await buildPages();
const log = memoryLog();
const game = longGame('kalaha', { seedsPerPit: 6 }, 300);
const id = logGame(log, {
  game,
  players: { south: 'Anna', north: 'Ben' },
  boardId: 'vauban',
  source: 'sensors',
  at: Date.parse('2024-05-01T10:00:00Z'),
  minutes: 52,
});
const server = await startHistoryServer(dist, log);
const browser = await launchChromium();
try {
  const url = `${server.url}/games?id=${id}`;
  const cold: Times[] = [];
  const warm: Times[] = [];
  for (let r = 0; r < runs + 1; r++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const first = (await page.evaluate(WAIT_FOR_BOARD)) as Times;
    await page.goto(url, { waitUntil: 'commit' });
    const second = (await page.evaluate(WAIT_FOR_BOARD)) as Times;
    // The first run warms the server (statement cache, JIT) and is not counted.
    if (r > 0) {
      cold.push(first);
      warm.push(second);
    }
    await context.close();
  }
  console.log(`Kalaha, ${game.moves.length} moves (${game.over ? 'finished' : 'cut off'}), ${runs} runs, ms since navigation:`);
  for (const [name, times] of [
    ['cold', cold],
    ['warm', warm],
  ] as const) {
    console.log(summary(`${name} asked`, times.map((t) => t.asked)));
    console.log(summary(`${name} data`, times.map((t) => t.data)));
    console.log(summary(`${name} board`, times.map((t) => t.board)));
    console.log(summary(`${name} chart`, times.map((t) => t.chart)));
  }
} finally {
  await browser.close();
  await server.close();
  await removeDir(dist);
}
