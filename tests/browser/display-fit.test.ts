// The public display fits its screen: nobody scrolls a scoreboard, so on a landscape screen (1920 × 1080, 1280 × 720)
// the page never scrolls and what must always show — whose turn, the scores or seats, the alerts, the result and the
// latest move of the record — lies whole inside the window and inside every box that clips it. Each game with a long
// record and an alert, Adu with six players and its Merkskala. On a phone, upright (412 × 915) or on its side
// (915 × 412), the page may scroll, but nothing is cut off or runs off its side. Against the fake server's tables in
// headless Chromium. Screenshots: tests/output/web/browser-fit-*.png.
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Alert, ServerMessage } from '../../server/http/messages.ts';
import { startFakeServer, type FakeServer, type Scenario } from '../web/fake-server.ts';
import { watchFromBefore } from '../web/display-watch.ts';
import { shot } from './harness.ts';
import { browserSuite } from './suite.ts';

const LANDSCAPE = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;
/** A phone upright and on its side. */
const PHONES = [
  { width: 412, height: 915 },
  { width: 915, height: 412 },
] as const;
const WAIT = 30_000;
/** Longer than any screen shows of a record. */
const LONG_RECORD = 30;

type Sync = Extract<ServerMessage, { type: 'sync' }>;

/** Yellow and long: a warning that wraps on the narrow column beside a square board. */
const MISMATCH: Alert = {
  id: 501,
  level: 'warn',
  code: 'referee/mismatch',
  message: 'Put the piece back on c4 (first of 3 squares to fix).',
  params: { square: 'c4', remaining: 3, action: 'put-back', count: 3 },
};
const withMismatch = (sync: Sync): Sync => ({ ...sync, alerts: [...sync.alerts, MISMATCH] });
/** Three warnings beside the scenario's own alert: as many as the display lists (MAX_ALERTS), or one more, counted. */
const PILE: readonly Alert[] = [
  MISMATCH,
  { id: 502, level: 'warn', code: 'board/not-responding', message: 'The board is not responding', params: {} },
  { id: 503, level: 'warn', code: 'referee/takeback', message: 'Take-back recognised', params: { moves: 'e5-e7' } },
];
const withPile = (sync: Sync): Sync => ({ ...sync, alerts: [...sync.alerts, ...PILE] });

interface Case {
  readonly name: string;
  readonly scenario: Scenario;
  readonly board: string;
  readonly amend?: (sync: Sync) => Sync;
}

const CASES: readonly Case[] = [
  // Six seats, one out, the Merkskala, a reserve king awaited and its alert; 71 plies.
  { name: 'adu', scenario: 'adu', board: 'adu-board' },
  { name: 'adu-warn', scenario: 'adu', board: 'adu-board', amend: withMismatch },
  { name: 'adu-pile', scenario: 'adu', board: 'adu-board', amend: withPile },
  { name: 'adu-over', scenario: 'adu-over', board: 'adu-board', amend: withMismatch },
  // A capture to carry, an error, two warnings and a note (three shown, two counted); 50 plies.
  { name: 'kalaha', scenario: 'alerts', board: 'kalaha-board' },
  { name: 'kalaha-over', scenario: 'over', board: 'kalaha-board', amend: withMismatch },
  // The result of a 140-ply game and a warning.
  { name: 'malawi-over', scenario: 'malawi-over', board: 'malawi-board', amend: withMismatch },
  { name: 'malawi-pile', scenario: 'malawi-over', board: 'malawi-board', amend: withPile },
  // Three players, one out, a knight to put back; 36 plies.
  { name: 'makis', scenario: 'makis', board: 'makis-board', amend: withMismatch },
  { name: 'makis-pile', scenario: 'makis', board: 'makis-board', amend: withPile },
];

const suite = browserSuite();
let server: FakeServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

async function openDisplay(c: Case, size: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
  server = await startFakeServer({ scenario: c.scenario, port: 0, dist: suite.dist });
  const { page, problems } = await suite.page(size);
  await watchFromBefore(page, { amend: c.amend });
  await page.goto(`${server.url}/display?lang=de`);
  await page.locator(`table-display:not([idle]) ${c.board}`).waitFor({ timeout: WAIT });
  await page.locator('table-display .record .latest').waitFor({ timeout: WAIT });
  // Fonts and the board's own layout settle within a frame or two.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return { page, problems };
}

/**
 * The fake server has no API: the idle screen the display shows for the moment before it wakes (display-watch.ts)
 * may ask for today's games and be told 404.
 */
const besidesStats = (problems: readonly string[]) => problems.filter((p) => !/^404: \S*\/api\/stats/.test(p));

interface Measured {
  readonly scrollHeight: number;
  readonly scrollWidth: number;
  readonly innerHeight: number;
  readonly innerWidth: number;
  /** The record's length, as its heading counts it. */
  readonly plies: number;
  /** Per element that must show: where it is cut off (empty when it shows whole). */
  readonly cut: readonly string[];
  /** How many of each were found. */
  readonly counts: Readonly<Record<string, number>>;
  /** The move marked as the latest is in the record's last row. */
  readonly latestIsLastRow: boolean;
}

/**
 * Measures the page from inside: for each element that must show, whether its box lies inside the window
 * (`vertical`: also top and bottom) and inside every ancestor that clips (overflow other than visible), walking
 * up through shadow roots to their hosts.
 */
function measure(page: Page, vertical: boolean): Promise<Measured> {
  return page.evaluate((vertical) => {
    const root = document.querySelector('table-display')?.shadowRoot;
    if (!root) throw new Error('no table-display');
    const SLACK = 1;
    const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null);
    const cut: string[] = [];
    const counts: Record<string, number> = {};
    const check = (label: string, el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return void cut.push(`${label}: not drawn`);
      if (r.left < -SLACK || r.right > innerWidth + SLACK) cut.push(`${label}: off the window's side (${r.left}–${r.right} of ${innerWidth})`);
      if (vertical && (r.top < -SLACK || r.bottom > innerHeight + SLACK)) {
        cut.push(`${label}: off the window (${Math.round(r.top)}–${Math.round(r.bottom)} of ${innerHeight})`);
      }
      for (let up = parentOf(el); up; up = parentOf(up)) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const b = up.getBoundingClientRect();
        if (r.top < b.top - SLACK || r.bottom > b.bottom + SLACK || r.left < b.left - SLACK || r.right > b.right + SLACK) {
          cut.push(`${label}: clipped by ${up.tagName.toLowerCase()}.${[...up.classList].join('.')} (${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(b.top)}–${Math.round(b.bottom)})`);
          break;
        }
      }
    };
    const MUST_SHOW = ['.turn', '.score', '.outcome', '.alert', '.asking', '.seat-card .seat-line', '.makis .seat', '.record h2', '.record .latest', '.last-move'];
    for (const selector of MUST_SHOW) {
      const found = [...root.querySelectorAll(selector)];
      counts[selector] = found.length;
      found.forEach((el, i) => check(`${selector}[${i}]`, el));
    }
    const latest = root.querySelector('.record .latest');
    return {
      scrollHeight: document.documentElement.scrollHeight,
      scrollWidth: document.documentElement.scrollWidth,
      innerHeight,
      innerWidth,
      plies: Number(/\d+/.exec(root.querySelector('.record .count')?.textContent ?? '')?.[0] ?? 0),
      cut,
      counts,
      latestIsLastRow: latest !== null && latest.closest('.pair') === root.querySelector('.record .moves .pair:last-child'),
    };
  }, vertical);
}

describe('the display fits its screen', () => {
  for (const c of CASES) {
    for (const size of LANDSCAPE) {
      test(`${c.name} at ${size.width} × ${size.height}: no scrolling, nothing that must show is cut off`, async () => {
        const { page, problems } = await openDisplay(c, size);
        await shot(page, `fit-${c.name}`);
        const m = await measure(page, true);
        expect(m.plies).toBeGreaterThanOrEqual(LONG_RECORD);
        expect(m.counts['.alert']).toBeGreaterThan(0);
        expect(m.counts['.record .latest']).toBe(1);
        expect(m.latestIsLastRow).toBe(true);
        if (c.scenario === 'adu') expect(m.counts['.seat-card .seat-line']).toBe(6);
        expect(m.cut).toEqual([]);
        expect(m.scrollHeight).toBeLessThanOrEqual(m.innerHeight);
        expect(m.scrollWidth).toBeLessThanOrEqual(m.innerWidth);
        expect(besidesStats(problems)).toEqual([]);
      }, 60_000);
    }
    for (const size of PHONES) {
      test(`${c.name} on a phone, ${size.width} × ${size.height}: it may scroll, but nothing is cut off or runs off the side`, async () => {
        const { page, problems } = await openDisplay(c, size);
        await shot(page, `fit-${c.name}`, true);
        const m = await measure(page, false);
        expect(m.counts['.record .latest']).toBe(1);
        expect(m.cut).toEqual([]);
        expect(m.scrollWidth).toBeLessThanOrEqual(m.innerWidth);
        expect(besidesStats(problems)).toEqual([]);
      }, 60_000);
    }
  }
});
