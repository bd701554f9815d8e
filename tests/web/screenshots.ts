// Takes screenshots of the built pages against the fake server, driving the system's Chromium through playwright-core
// (not a test: for eyes). Console shots click and type like a referee would.
//
//   npm run build:web && node bin/run-ts.js tests/web/screenshots.ts [--dist=DIR] [--out=DIR] [shot …]
//
// Writes tests/output/web/<shot>-<lang>-<width>x<height>.png (tests/output is not committed). Without arguments
// every shot is taken; an argument picks the shots whose name starts with it (`malawi`, `makis`, `adu`, `console`, `live`).
// `--dist` serves another build (say, an older commit's, to compare pictures byte for byte) and `--out` writes
// elsewhere. A display shot sees its table move on once after it opened (display-watch.ts), as a screen on the wall has
// seen the last move: a display that only finds a game rests on its idle screen, which hides the board.
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../browser/harness.ts';
import { FAKE_REFEREE_TOKEN, KALAHA_SCENARIOS, startFakeServer, type Scenario } from './fake-server.ts';
import { watchFromBefore } from './display-watch.ts';

type Step =
  | { readonly click: string }
  | { readonly type: readonly [selector: string, text: string] }
  | { readonly wait: string };

interface Shot {
  readonly name: string;
  readonly scenario: Scenario;
  /** Path and query, without `lang`. */
  readonly path: string;
  /** Shown when the page has drawn what the shot is about (a selector, searched through shadow roots). */
  readonly ready: string;
  readonly steps?: readonly Step[];
  readonly sizes: readonly (readonly [number, number])[];
  /** On a phone, the whole scrolling page rather than the first screen. */
  readonly fullPage?: boolean;
}

const LARGE = [1920, 1080] as const;
const PHONE = [390, 844] as const;
const TABLET = [1280, 800] as const;
const DISPLAY_SIZES = [LARGE, PHONE] as const;
const CONSOLE_SIZES = [PHONE, TABLET] as const;
const CONSOLE_LARGE = [PHONE, LARGE] as const;
const LANGS = ['de', 'en'] as const;
const token = `token=${FAKE_REFEREE_TOKEN}`;

const SHOTS: readonly Shot[] = [
  // The Kalaha display as it always was.
  ...KALAHA_SCENARIOS.map(
    (scenario): Shot => ({
      name: scenario,
      scenario,
      path: '/display',
      // `live` is ready once its script has played to the mismatch alert that ends it.
      ready: scenario === 'down' ? '.waiting' : scenario === 'drop' ? '.link' : scenario === 'live' ? '.alert.warn' : 'kalaha-board',
      sizes: DISPLAY_SIZES,
    }),
  ),
  ...(['malawi', 'malawi-question', 'malawi-mismatch', 'malawi-over'] as const).map(
    (scenario): Shot => ({ name: scenario, scenario, path: '/display', ready: 'malawi-board', sizes: DISPLAY_SIZES }),
  ),
  {
    name: 'console-question',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.option:not([disabled])',
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-chosen',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.outcome.ok',
    steps: [{ wait: '.option:not([disabled])' }, { click: '.option' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-refused',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.outcome.refused',
    steps: [{ wait: '.option:not([disabled])' }, { type: ['#move', 'a1-a2'] }, { click: '.entry button.primary' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-token-refused',
    scenario: 'malawi-question',
    path: '/referee?token=wrong',
    ready: 'form.token.refused',
    sizes: [PHONE],
    fullPage: true,
  },
  {
    name: 'console-no-token',
    scenario: 'malawi-mismatch',
    path: '/referee',
    ready: 'form.token',
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-ask',
    scenario: 'malawi',
    path: `/referee?${token}`,
    ready: '.narrow',
    steps: [{ wait: '.action.report:not([disabled])' }, { click: '.action.report' }, { wait: '.option' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-narrowed',
    scenario: 'malawi',
    path: `/referee?${token}`,
    ready: '.narrow',
    steps: [
      { wait: '.action.report:not([disabled])' },
      { click: '.action.report' },
      { wait: '.option' },
      { click: 'g[data-square="a1"]' },
      { click: '.joiner' },
    ],
    sizes: [PHONE],
    fullPage: true,
  },
  { name: 'console-kalaha', scenario: 'midgame', path: `/referee?${token}`, ready: 'kalaha-board', sizes: [TABLET] },

  // Makis, three players: the danger map with a knight to put back; the table's own roll (the board reconnecting);
  // a question about the roll (the board not responding); the end.
  ...(['makis', 'makis-rolled', 'makis-question'] as const).map(
    (scenario): Shot => ({ name: scenario, scenario, path: '/display', ready: 'makis-board', sizes: DISPLAY_SIZES }),
  ),
  { name: 'makis-over', scenario: 'makis-over', path: '/display', ready: 'makis-board', sizes: [LARGE] },
  {
    name: 'console-makis',
    scenario: 'makis',
    path: `/referee?${token}`,
    ready: '.roll-button:not([disabled])',
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-makis-rolled',
    scenario: 'makis',
    path: `/referee?${token}`,
    ready: '.roll.expected',
    steps: [{ wait: '.roll-button:not([disabled])' }, { click: '.roll-button' }],
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-makis-question',
    scenario: 'makis-question',
    path: `/referee?${token}`,
    ready: '.option:not([disabled])',
    sizes: [PHONE],
    fullPage: true,
  },

  // Adu, six players: a reserve king awaited, the Merkskala, a seat out; the declaration question; the end.
  { name: 'adu', scenario: 'adu', path: '/display', ready: 'adu-board', sizes: DISPLAY_SIZES },
  { name: 'adu-declare', scenario: 'adu-declare', path: '/display', ready: 'adu-board', sizes: [LARGE] },
  { name: 'adu-over', scenario: 'adu-over', path: '/display', ready: 'adu-board', sizes: [LARGE] },
  { name: 'console-adu', scenario: 'adu', path: `/referee?${token}`, ready: 'adu-board', sizes: CONSOLE_LARGE, fullPage: true },
  {
    name: 'console-adu-declare',
    scenario: 'adu-declare',
    path: `/referee?${token}`,
    ready: '.confirm-choice:not([disabled])',
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-adu-declared',
    scenario: 'adu-declare',
    path: `/referee?${token}`,
    ready: '.outcome.ok',
    steps: [{ wait: '.confirm-choice:not([disabled])' }, { click: '.option[aria-checked="false"]' }, { click: '.confirm-choice' }],
    sizes: [PHONE],
    fullPage: true,
  },
];

// ---------------------------------------------------------------------------------------------
// The system's Chromium, driven by playwright-core (no browser of its own is downloaded). Its CSS selectors reach
// through open shadow roots, so the pages' custom elements need no special queries.

/** The browser tests' Chromium and flags, and no scrollbars in the pictures. */
const SHOT_FLAGS = [...CHROMIUM_FLAGS, '--hide-scrollbars'];

async function step(page: Page, action: Step): Promise<void> {
  if ('wait' in action) {
    await page.locator(action.wait).first().waitFor({ timeout: 10_000 });
    return;
  }
  if ('click' in action) {
    const target = page.locator(action.click).first();
    await target.waitFor({ timeout: 10_000 });
    // A dispatched click, as a tap lands: board squares are SVG groups, which a pointer may not hit at their centre.
    await target.dispatchEvent('click');
    return;
  }
  const [selector, text] = action.type;
  await page.locator(selector).first().fill(text, { timeout: 10_000 });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------

const option = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const out = resolve(option('out') ?? 'tests/output/web');
const dist = resolve(option('dist') ?? 'web/dist');
const asked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const shots = asked.length ? SHOTS.filter((s) => asked.some((a) => s.name.startsWith(a))) : SHOTS;

await stat(join(dist, 'index.html')).catch(() => {
  console.error(`${dist} has no pages: run \`npm run build:web\` first`);
  process.exit(2);
});
await mkdir(out, { recursive: true });

const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: SHOT_FLAGS });
let failed = 0;
try {
  for (const shot of shots) {
    for (const lang of LANGS) {
      for (const [width, height] of shot.sizes) {
        // A fresh server per shot: every page load sees the scenario from its start. A fresh context per shot:
        // session storage (the referee token) never leaks between shots.
        const server = await startFakeServer({ scenario: shot.scenario, port: 0, interval: 5, dist });
        const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, isMobile: width < 600 });
        const page = await context.newPage();
        const file = join(out, `${shot.name}-${lang}-${width}x${height}.png`);
        try {
          if (shot.path.startsWith('/display')) await watchFromBefore(page);
          const joiner = shot.path.includes('?') ? '&' : '?';
          await page.goto(`${server.url}${shot.path}${joiner}lang=${lang}`);
          for (const action of shot.steps ?? []) await step(page, action);
          await page.locator(shot.ready).first().waitFor({ timeout: 10_000 });
          // Let the scripted messages (5 ms apart) arrive and the page draw them.
          await sleep(400);
          await page.screenshot({ path: file, fullPage: Boolean(shot.fullPage) && width < 600 });
          console.log(file);
        } catch (error) {
          failed += 1;
          console.error(`${shot.name} ${lang} ${width}x${height}: ${(error as Error).message}`);
        } finally {
          await context.close();
          await server.close();
        }
      }
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
