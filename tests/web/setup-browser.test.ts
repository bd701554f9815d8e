// The setup page in headless Chromium against the real server: a simulated square board's game is changed from
// Malawi to Makis with three players, the raw view follows the new board, the language switches; on a Kalaha table
// moved by the test's hand, the wizard tares the empty table and weighs the stones put back. Screenshots go to
// tests/output/web/setup-*.png.
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SETUP_TOKEN, buildPages, handTable, launchChromium, serveTable, simulatedGrid, watchConsole } from './setup-fixture.ts';

const OUT = resolve('tests/output/web');
let dist: string;
let browser: Browser;

beforeAll(async () => {
  dist = await buildPages();
  browser = await launchChromium();
  await mkdir(OUT, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  // Let the raw view draw a few more frames.
  await page.waitForTimeout(300);
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.screenshot({ path: join(OUT, `setup-${name}-${width}x${height}.png`), fullPage });
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const give = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > give) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the setup page', () => {
  test('changes the game of a square board: choose Makis, three players, start; the raw view follows; the language switches', async () => {
    const served = await serveTable(simulatedGrid(11), { game: 'malawi' }, dist);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems: string[] = [];
    watchConsole(page, problems);
    try {
      await page.goto(`${served.url}/setup?token=${SETUP_TOKEN}&lang=de`);
      await page.locator('.signed-in').waitFor();
      await until('36 squares in the raw view', async () => (await page.locator('raw-view .cell').count()) === 36);
      // The token left the address as soon as it was read.
      expect(page.url()).not.toContain('token=');
      await expect.poll(() => page.locator('h1').textContent()).toContain('Einrichtung');
      await shot(page, 'malawi-de');

      await page.locator('game-form label[data-game="makis"]').click();
      await expect.poll(() => page.locator('game-form .seat').count()).toBe(1);
      await page.locator('game-form button.add').click();
      await page.locator('game-form button.add').click();
      await page.locator('game-form #seat-0').fill('Anna');
      await page.locator('game-form #seat-1').fill('Ben');
      await page.locator('game-form #seat-2').fill('Cleo');
      await page.locator('game-form #option-mode').selectOption('cooperative');
      // The simulated players are in the middle of a Malawi game: starting abandons it, and the button says so.
      await until('the Malawi game to have moves', () => served.table.setupState().current.running);
      await expect.poll(() => page.locator('game-form button.start').getAttribute('class')).toContain('replace');
      await shot(page, 'choose-makis-de');
      await page.locator('game-form button.start').click();
      await page.locator('section.new .outcome.ok').waitFor();

      expect(served.table.setupState().current).toMatchObject({
        game: 'makis',
        players: { 1: 'Anna', 2: 'Ben', 3: 'Cleo' },
        options: { players: 3, mode: 'cooperative' },
      });
      await until('81 squares in the raw view', async () => (await page.locator('raw-view .cell').count()) === 81);
      await expect.poll(() => page.locator('section.current .players').textContent()).toContain('Cleo');
      await expect.poll(() => page.locator('raw-view .fps').textContent()).toMatch(/[1-9]\d* Bilder\/s/);
      await shot(page, 'makis-de');

      await page.locator('lang-toggle button[lang="en"]').click();
      await expect.poll(() => page.locator('h1').textContent()).toContain('Set-up');
      await expect.poll(() => page.locator('section.current h2').textContent()).toBe('At the table now');
      await expect.poll(() => page.locator('raw-view .fps').textContent()).toMatch(/frames\/s/);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(page.url()).toContain('lang=en');
      await shot(page, 'makis-en');

      // Abandon, confirmed on the page: the log keeps the game as abandoned, and Makis is set up afresh.
      await until('a Makis move', () => served.table.currentGameId !== null);
      const id = served.table.currentGameId as number;
      await page.locator('section.current button.abandon').click();
      await page.locator('section.current .confirm-abandon').click();
      await page.locator('section.current .outcome.ok').waitFor();
      expect(served.log.game(id)?.result).toEqual({ reason: 'abandoned' });
      expect(await page.locator('section.current .outcome.ok').textContent()).toContain(`Game ${id} is abandoned.`);

      // On a phone, the whole page in one column.
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'makis-en', true);
      await page.locator('lang-toggle button[lang="de"]').click();
      await expect.poll(() => page.locator('section.current h2').textContent()).toBe('Jetzt am Tisch');
      await shot(page, 'makis-de', true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await served.close();
    }
  }, 120_000);

  test('refuses a wrong token and says so, changing nothing', async () => {
    const served = await serveTable(simulatedGrid(12), { game: 'malawi' }, dist);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true });
    const page = await context.newPage();
    try {
      await page.goto(`${served.url}/setup?token=wrong&lang=de`);
      await page.locator('form.token.refused').waitFor();
      expect(await page.locator('game-form button.start').isDisabled()).toBe(true);
      await shot(page, 'token-refused-de', true);
      expect(served.table.game).toBe('malawi');
    } finally {
      await context.close();
      await served.close();
    }
  }, 60_000);

  test('the Kalaha wizard: the empty table is tared, the stones put back are weighed', async () => {
    const hand = await handTable();
    const served = await serveTable(hand.board, { game: 'kalaha' }, dist);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems: string[] = [];
    watchConsole(page, problems);
    try {
      // Every stone out of the pits, into the hand.
      await hand.perform([...Array.from({ length: 12 }, (_, cell) => ({ kind: 'lift' as const, cell })), { kind: 'wait', ms: 1000 }]);
      await page.goto(`${served.url}/setup?token=${SETUP_TOKEN}&lang=de`);
      await page.locator('.signed-in').waitFor();
      await until('14 cells in the raw view', async () => (await page.locator('raw-view .cell').count()) === 14);
      await shot(page, 'kalaha-empty-de');
      await page.locator('scales-wizard button.tare:not([disabled])').click();
      await page.locator('section.scales .outcome.ok').waitFor();
      expect(served.table.setupState().calibration?.taredAt).not.toBeNull();
      expect(hand.sim.port.written().toString('latin1')).toContain('TARE*');

      // Four marbles back into every pit; then hands off.
      await hand.perform([...Array.from({ length: 12 }, (_, cell) => ({ kind: 'put' as const, cell, count: 4 })), { kind: 'wait', ms: 2000 }]);
      await page.locator('scales-wizard button.measure').click();
      await page.locator('section.scales .outcome.ok').waitFor();
      await page.locator('scales-wizard .result .stone').waitFor();
      const measured = served.table.setupState().calibration?.measured;
      expect(measured?.stone).toBeGreaterThan(4.7);
      expect(measured?.stone).toBeLessThan(5.3);
      expect(measured?.suspects).toEqual([]);
      expect(await page.locator('scales-wizard .result .stone').textContent()).toContain(new Intl.NumberFormat('de', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(measured?.stone ?? 0));
      // The referee calibrates by itself from the same opening; the wizard shows what it reckons.
      await expect.poll(() => page.locator('scales-wizard .referee').textContent(), { timeout: 10_000 }).toContain('Der Schiedsrichter rechnet mit');
      await shot(page, 'kalaha-weighed-de');
      await page.locator('lang-toggle button[lang="en"]').click();
      await expect.poll(() => page.locator('scales-wizard .result .stone').textContent()).toContain('A stone weighs');
      await shot(page, 'kalaha-weighed-en');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'kalaha-weighed-en', true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await served.close();
    }
  }, 120_000);
});
