// Takes screenshots of the built display against the fake server, with the system's Chromium (not a test: for eyes).
//
//   npm run build:web && node bin/run-ts.js tests/web/screenshots.ts [scenario …]
//
// Writes tests/output/web/<scenario>-<lang>-<width>x<height>.png (tests/output is not committed).
import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SCENARIOS, startFakeServer, type Scenario } from './fake-server.ts';

const run = promisify(execFile);
const SIZES = [
  [1920, 1080],
  [390, 844],
] as const;
const LANGS = ['de', 'en'] as const;
const out = resolve('tests/output/web');

const asked = process.argv.slice(2).filter((a): a is Scenario => (SCENARIOS as readonly string[]).includes(a));
const scenarios: readonly Scenario[] = asked.length ? asked : SCENARIOS;

await stat(resolve('web/dist/index.html')).catch(() => {
  console.error('web/dist is missing: run `npm run build:web` first');
  process.exit(2);
});
await mkdir(out, { recursive: true });

for (const scenario of scenarios) {
  for (const lang of LANGS) {
    for (const [width, height] of SIZES) {
      // A fresh server per shot: every page load sees the scenario from its start.
      // Chromium's virtual clock runs ahead of real sockets, so the scripted messages come nearly at once.
      const server = await startFakeServer({ scenario, port: 0, interval: 5 });
      const file = join(out, `${scenario}-${lang}-${width}x${height}.png`);
      try {
        await run(
          'chromium',
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--hide-scrollbars',
            `--screenshot=${file}`,
            `--window-size=${width},${height}`,
            '--virtual-time-budget=4000',
            `${server.url}/display?lang=${lang}`,
          ],
          { timeout: 60_000 },
        );
        console.log(file);
      } finally {
        await server.close();
      }
    }
  }
}
