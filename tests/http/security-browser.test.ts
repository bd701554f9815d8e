// The built pages under the server's Content-Security-Policy, in headless Chromium: every page draws with no
// violation reported, and a page that tries inline script or style is stopped (so the check itself can fail).
// Builds the pages into a folder of its own, as the other browser tests do (SPIELTISCH_WEB_DIST=folder checks a build
// made before instead), and needs Chromium (/usr/bin/chromium, or CHROMIUM=path); like every browser test it fails,
// saying so, without it (README, "Development").
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { importGames } from '../../server/export/index.ts';
import { randomGame } from '../store/random-games.ts';
import { buildPages, removeDir } from '../browser/harness.ts';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TOKEN = 'csp-check-token';

/**
 * Every page the server serves, and what shows that it has drawn (searched through shadow roots): the page's own
 * element has content, and on the history pages the parts most apt to style things by hand (list, heat map).
 */
const PAGES: readonly (readonly [path: string, ready: string])[] = [
  ['/', 'table-display *'],
  ['/display', 'table-display *'],
  [`/referee?token=${TOKEN}`, 'referee-console *'],
  ['/setup', 'setup-page *'],
  ['/games', 'game-list tbody tr'],
  ['/games?id=1', 'capture-heatmap .pit'],
  ['/stats', 'stats-page *'],
  ['/tournament', 'tournament-page *'],
];

type Watched = Page & { violations: string[] };

describe('the built pages under the Content-Security-Policy, in Chromium', () => {
  let browser: Browser;
  let http: RunningServer;
  let log: GameLog;
  let base = '';
  /** The pages checked: a build of their own, removed at the end, unless SPIELTISCH_WEB_DIST names one. */
  let dist = process.env.SPIELTISCH_WEB_DIST ?? '';
  let built = false;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`This check needs Chromium at ${CHROMIUM}: install the Debian package \`chromium\`, or set CHROMIUM.`);
    if (dist === '') {
      dist = await buildPages();
      built = true;
    }
    if (!existsSync(join(dist, 'index.html'))) throw new Error(`This check needs the built pages in ${dist}: SPIELTISCH_WEB_DIST names no build.`);
    log = openGameLog(':memory:');
    const game = randomGame('kalaha', {}, 31);
    importGames(log, `[Game "kalaha"] [Site "vauban"] [Start "2024-05-01T10:00:00Z"] [End "2024-05-01T10:40:00Z"] ${game.moves.join(' ')}`);
    const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'vauban', source: 'simulated', log });
    session.command(0, { kind: 'enter', move: 'C' });
    http = await startHttp(session, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: 'vauban', webRoot: dist });
    base = `http://127.0.0.1:${http.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await http?.close();
    log?.close();
    if (built) await removeDir(dist);
  });

  /** Opens a page that records every CSP violation: the console's report and the DOM's event alike. */
  async function open(path: string): Promise<{ page: Watched; csp: string | null }> {
    const page = (await browser.newPage()) as Watched;
    page.violations = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) page.violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy event: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(base + path);
    return { page, csp: response?.headers()['content-security-policy'] ?? null };
  }

  test.each(PAGES)('%s draws with no violation', async (path, ready) => {
    const { page, csp } = await open(path);
    try {
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      await page.locator(ready).first().waitFor({ state: 'attached', timeout: 30_000 });
      // Whatever the page fetches after drawing (the history's games, the statistics) has arrived too.
      await page.waitForLoadState('networkidle');
      expect(page.violations).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  test('inline script, style elements and style attributes are refused, and the refusal is seen', async () => {
    const { page } = await open('/display');
    try {
      await page.locator('table-display *').first().waitFor({ state: 'attached', timeout: 30_000 });
      const ran = await page.evaluate(() => {
        const w = window as unknown as { inlineRan?: boolean };
        const script = document.createElement('script');
        script.textContent = 'window.inlineRan = true';
        document.head.append(script);
        const style = document.createElement('style');
        style.textContent = 'body { background: red }';
        document.head.append(style);
        document.body.setAttribute('style', 'color: red');
        return w.inlineRan === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => page.violations.join('\n')).toMatch(/script-src-elem/);
      await expect.poll(() => page.violations.join('\n')).toMatch(/style-src-elem/);
      await expect.poll(() => page.violations.join('\n')).toMatch(/style-src-attr/);
    } finally {
      await page.close();
    }
  }, 60_000);
});
