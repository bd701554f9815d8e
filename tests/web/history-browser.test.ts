// /games and /stats in headless Chromium against the real HTTP face and a filled game log: the list and its filters
// in the address, a 300-move Kalaha game stepped with the keys, the slider, the record and play, every game's board,
// the language switch, "no such game", a move that does not replay, an empty log, a server without a log and one
// that cannot be reached, <today-at-table> on its own.
// Screenshots go to tests/output/web/history-*.png and stats-*.png (not committed) for eyes.
//
// Like every browser test it runs in `npm test` and fails, saying why, without Chromium (README, "Development").
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { GameLog } from '../../server/store/index.ts';
import { randomGame } from '../store/random-games.ts';
import { buildPages, launchChromium, logGame, memoryLog, removeDir, seedLog, startHistoryServer, type HistoryServer, type SeededIds } from './history-fixture.ts';

const OUT = 'tests/output/web';
const LARGE = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };

describe('/games and /stats in Chromium', () => {
  let dist = '';
  let browser: Browser;
  let server: HistoryServer;
  let ids: SeededIds;

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    dist = await buildPages();
    browser = await launchChromium();
    const log = memoryLog();
    ids = seedLog(log);
    server = await startHistoryServer(dist, log);
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    await browser?.close();
    if (dist) await removeDir(dist);
  });

  /** A German visitor's browser unless the address asks for English: date fields follow the browser's locale. */
  async function open(path: string, size = LARGE): Promise<Page> {
    const page = await browser.newPage({ viewport: size, locale: path.includes('lang=en') ? 'en-GB' : 'de-DE' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A Content-Security-Policy refusal (an inline style, say) is only a console error; it fails the test too.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
    });
    (page as Page & { errors: string[] }).errors = errors;
    await page.goto(`${server.url}${path}`);
    return page;
  }
  const errorsOf = (page: Page) => (page as Page & { errors: string[] }).errors;
  const shot = (page: Page, name: string) => page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
  const stepText = (page: Page) => page.locator('game-replay .step .ply').textContent();
  const plyInAddress = async (page: Page) => new URL(page.url()).searchParams.get('ply');

  test('the list shows every game newest first, with result, length and source, and filters through the address', async () => {
    const page = await open('/games');
    const rows = page.locator('game-list tbody tr');
    await expect.poll(() => rows.count()).toBe(7);
    const first = await rows.first().textContent();
    // The live game at this table is the newest.
    expect(first).toContain('läuft');
    expect(first).toContain('Fritz · Gül');
    const oldest = (await rows.last().textContent()) ?? '';
    expect(oldest).toMatch(/Anna · Ben/);
    expect(oldest).toMatch(/300 Züge · 52 min/);
    expect(oldest).toMatch(/Sensoren/);
    expect(oldest).toMatch(/gewinnt \d+ : \d+/);
    await expect.poll(() => page.locator('game-list select[data-filter="player"] option').count()).toBeGreaterThan(5);
    await shot(page, 'history-list-de-1440');

    await page.locator('game-list select[data-filter="game"]').selectOption('kalaha');
    await expect.poll(() => rows.count()).toBe(3);
    expect(new URL(page.url()).searchParams.get('game')).toBe('kalaha');
    await page.locator('game-list select[data-filter="player"]').selectOption('Anna');
    await expect.poll(() => rows.count()).toBe(1);
    const shared = page.url();
    expect(shared).toContain('player=Anna');

    // The shared link opens the same list; Back undoes the last filter.
    const again = await open(new URL(shared).pathname + new URL(shared).search);
    await expect.poll(() => again.locator('game-list tbody tr').count()).toBe(1);
    expect(await again.locator('game-list select[data-filter="player"]').inputValue()).toBe('Anna');
    await page.goBack();
    await expect.poll(() => rows.count()).toBe(3);
    expect(errorsOf(page)).toEqual([]);
    await page.close();
    await again.close();
  });

  test('a 300-move Kalaha game steps with the keys, the slider, the record and play; the language switches', async () => {
    const page = await open('/games');
    await page.locator(`game-list a[href*="id=${ids.kalaha300}"]`).click();
    await page.locator('game-replay kalaha-board').waitFor();
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(ids.kalaha300));
    const slider = page.locator('game-replay input[type="range"]');
    expect(await slider.getAttribute('max')).toBe('300');
    expect(await stepText(page)).toBe('Zug 300 von 300');

    await page.keyboard.press('Home');
    expect(await stepText(page)).toBe('Anfangsstellung');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await stepText(page)).toBe('Zug 3 von 300');
    await page.keyboard.press('ArrowLeft');
    expect(await stepText(page)).toBe('Zug 2 von 300');
    await expect.poll(() => plyInAddress(page)).toBe('2');
    // The record highlights the ply on show; a move in it is a button to that ply.
    expect(await page.locator('game-replay .record [aria-current="step"]').getAttribute('aria-label')).toMatch(/^Zu Zug 2:/);
    await page.locator('game-replay .record button[aria-label^="Zu Zug 41:"]').click();
    expect(await stepText(page)).toBe('Zug 41 von 300');
    await slider.fill('120');
    expect(await stepText(page)).toBe('Zug 120 von 300');
    // The pits on the board add up with the stores to the stones of the start: 6 per pit.
    const stones = await page.locator('game-replay kalaha-board').evaluate((el) => {
      const board = el as unknown as { pits: number[]; stores: { south: number; north: number } };
      return board.pits.reduce((a, b) => a + b, 0) + board.stores.south + board.stores.north;
    });
    expect(stones).toBe(72);
    await page.locator('game-replay history-chart[drawn]').waitFor();
    await shot(page, 'history-kalaha-de-1440');

    await page.locator('game-replay button.play').click();
    const plyShown = async () => Number(/\d+/.exec((await stepText(page)) ?? '')?.[0]);
    await expect.poll(plyShown, { timeout: 10_000 }).toBeGreaterThanOrEqual(122);
    await page.locator('game-replay button.play').click();
    const paused = await stepText(page);
    await page.waitForTimeout(1000);
    expect(await stepText(page)).toBe(paused);

    await page.locator('lang-toggle button[lang="en"]').click();
    expect(await stepText(page)).toMatch(/^Move 12\d of 300$/);
    expect(await page.locator('game-replay h1').textContent()).toBe(`Game ${ids.kalaha300} · Kalaha`);
    expect(await page.locator('game-replay capture-heatmap p').textContent()).toMatch(/captured in all/);
    expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
    await page.keyboard.press('End');
    expect(await stepText(page)).toBe('Move 300 of 300');
    await shot(page, 'history-kalaha-en-1440');

    // Back to the list keeps the language.
    await page.locator('game-replay a', { hasText: 'All games' }).click();
    await expect.poll(() => page.locator('game-list tbody tr').count()).toBe(7);
    expect(await page.locator('game-list h1').textContent()).toBe('Games');
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  test.each([
    ['malawi', 'malawi-board'],
    ['makis', 'makis-board'],
    ['adu', 'adu-board'],
  ] as const)('a %s game is replayed on its own board', async (game, board) => {
    for (const lang of ['de', 'en'] as const) {
      const page = await open(`/games?id=${ids[game]}&ply=30&lang=${lang}`);
      await page.locator(`game-replay ${board}`).waitFor();
      expect(await stepText(page)).toBe(lang === 'de' ? `Zug 30 von ${await lastPly(page)}` : `Move 30 of ${await lastPly(page)}`);
      await page.locator('game-replay history-chart[drawn]').waitFor();
      await page.waitForTimeout(300);
      await shot(page, `history-${game}-${lang}-1440`);
      expect(errorsOf(page)).toEqual([]);
      await page.close();
    }
  });

  const lastPly = async (page: Page) => page.locator('game-replay input[type="range"]').getAttribute('max');

  test('a game on a phone', async () => {
    const page = await open(`/games?id=${ids.kalaha300}&ply=150`, PHONE);
    await page.locator('game-replay kalaha-board').waitFor();
    await page.locator('game-replay history-chart[drawn]').waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'history-kalaha-de-390');
    const list = await open('/games?lang=en', PHONE);
    await expect.poll(() => list.locator('game-list tbody tr').count()).toBe(7);
    await shot(list, 'history-list-en-390');
    expect([...errorsOf(page), ...errorsOf(list)]).toEqual([]);
    await page.close();
    await list.close();
  });

  test('a game id that does not exist says so, in both languages', async () => {
    for (const [id, lang, text] of [
      ['99999', 'de', 'Eine Partie „99999“ gibt es nicht.'],
      ['abc', 'en', 'There is no game “abc”.'],
    ] as const) {
      const page = await open(`/games?id=${id}&lang=${lang}`);
      await expect.poll(() => page.locator('game-replay [role="alert"]').textContent()).toBe(text);
      await shot(page, `history-nosuchgame-${lang}`);
      expect(errorsOf(page)).toEqual([]);
      await page.close();
    }
  });

  test('/stats: games per day and per table, wins and lengths by game, today at this table; both languages', async () => {
    const page = await open('/stats');
    await page.locator('stats-page today-at-table h2').waitFor();
    expect(await page.locator('stats-page today-at-table h2').textContent()).toBe('Heute an diesem Tisch');
    expect(await page.locator('stats-page today-at-table .counts').textContent()).toBe('2 Partien · 1 beendet · 1 läuft');
    expect(await page.locator('stats-page .summary').textContent()).toBe('7 Partien, davon 5 beendet und 1 laufend');
    await expect.poll(() => page.locator('stats-page history-chart[drawn]').count()).toBe(6);
    expect(await page.locator('stats-page section.game[data-game="kalaha"]').textContent()).toMatch(/Im Schnitt/);
    await page.waitForTimeout(300);
    await shot(page, 'stats-de-1440');

    await page.locator('stats-page select[data-filter="game"]').selectOption('adu');
    await expect.poll(() => page.locator('stats-page .summary').textContent()).toBe('Eine Partie, davon 1 beendet und 0 laufend');
    expect(new URL(page.url()).searchParams.get('game')).toBe('adu');
    await page.locator('lang-toggle button[lang="en"]').click();
    expect(await page.locator('stats-page .summary').textContent()).toBe('One game: 1 finished, 0 in progress');
    await page.waitForTimeout(300);
    await shot(page, 'stats-adu-en-1440');
    expect(errorsOf(page)).toEqual([]);
    await page.close();

    const phone = await open('/stats?lang=en', PHONE);
    await expect.poll(() => phone.locator('stats-page history-chart[drawn]').count()).toBe(6);
    await phone.waitForTimeout(300);
    await shot(phone, 'stats-en-390');
    expect(errorsOf(phone)).toEqual([]);
    await phone.close();
  });

  test('<today-at-table> on a page of its own asks the API itself: this table, or another one by name', async () => {
    const page = await open('/stats');
    await page.locator('stats-page today-at-table h2').waitFor();
    // As the display's idle screen would use it: the element alone, on a page that imported it.
    await page.evaluate(() => {
      document.body.replaceChildren();
      const here = document.createElement('today-at-table');
      here.setAttribute('refresh', '0');
      const there = document.createElement('today-at-table');
      there.setAttribute('board', 'rieselfeld');
      there.setAttribute('lang', 'en');
      there.id = 'there';
      document.body.append(here, there);
    });
    await expect.poll(() => page.locator('today-at-table:not(#there) .counts').textContent()).toBe('2 Partien · 1 beendet · 1 läuft');
    expect(await page.locator('today-at-table:not(#there) .wins').textContent()).toMatch(/Siege:\s*Nord\s*1/);
    expect(await page.locator('#there h2').textContent()).toBe('Today at table rieselfeld');
    expect(await page.locator('#there .counts').textContent()).toBe('No games yet');
    await shot(page, 'stats-today-at-table');
    expect(errorsOf(page)).toEqual([]);
    await page.close();
  });

  test('the list pages through a longer log, and the page is in the address', async () => {
    const log = memoryLog();
    for (let i = 0; i < 30; i++) {
      logGame(log, {
        game: randomGame('kalaha', {}, 100 + i, 6),
        players: { south: `S${i}`, north: `N${i}` },
        boardId: 'vauban',
        source: 'simulated',
        at: Date.parse('2024-06-01T08:00:00') + i * 3_600_000,
        minutes: 20,
      });
    }
    const many = await startHistoryServer(dist, log);
    try {
      const page = await browser.newPage({ viewport: LARGE });
      await page.goto(`${many.url}/games?lang=en`);
      const rows = page.locator('game-list tbody tr');
      await expect.poll(() => rows.count()).toBe(25);
      expect(await page.locator('game-list .paging').textContent()).toMatch(/Page 1 of 2/);
      expect(await page.locator('game-list caption').textContent()).toMatch(/1–25 of 30/);
      await page.locator('game-list .paging a', { hasText: 'Older' }).click();
      await expect.poll(() => rows.count()).toBe(5);
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      // The oldest game comes last.
      expect(await rows.last().textContent()).toMatch(/S0 · N0/);
      await shot(page, 'history-list-page2-en');
      await page.goBack();
      await expect.poll(() => rows.count()).toBe(25);
      await page.close();
    } finally {
      await many.close();
    }
  });

  test('an empty log, a server without a log, and a server out of reach say so', async () => {
    const empty = await startHistoryServer(dist, memoryLog());
    const none = await startHistoryServer(dist, null);
    try {
      const page = await browser.newPage({ viewport: LARGE });
      await page.goto(`${empty.url}/games`);
      await expect.poll(() => page.locator('game-list .empty').textContent()).toMatch(/Noch keine Partien im Protokoll/);
      await shot(page, 'history-empty-de');
      await page.goto(`${empty.url}/stats?lang=en`);
      await expect.poll(() => page.locator('stats-page .empty').textContent()).toMatch(/No games logged yet/);
      expect(await page.locator('stats-page today-at-table h2').textContent()).toBe('Today at this table');
      expect(await page.locator('stats-page today-at-table .counts').textContent()).toBe('No games yet');
      await shot(page, 'stats-empty-en');

      // A logged move the engine will not replay (a log written by a buggy referee): the replay stops before it.
      const broken = logGame(empty.log as GameLog, {
        game: { ...randomGame('kalaha', {}, 1, 2), moves: ['C', 'e', 'Q'] },
        players: {},
        boardId: 'vauban',
        source: 'sensors',
        at: Date.parse('2024-05-04T10:00:00'),
        minutes: null,
      });
      await page.goto(`${empty.url}/games?id=${broken}`);
      await expect.poll(() => page.locator('game-replay .note.warn').textContent()).toMatch(/Zug 3 \(Q\) lässt sich nicht nachspielen/);
      expect(await page.locator('game-replay input[type="range"]').getAttribute('max')).toBe('2');
      expect(await page.locator('game-replay .record button[aria-label^="Zu Zug 3:"]').isDisabled()).toBe(true);
      await shot(page, 'history-broken-de');

      await page.goto(`${none.url}/games`);
      await expect.poll(() => page.locator('game-list [role="alert"]').textContent()).toMatch(/führt kein Spielprotokoll[\s\S]*Fehler 404 · not-found/);
      await page.goto(`${none.url}/stats?lang=en`);
      await expect.poll(() => page.locator('stats-page [role="alert"]').textContent()).toMatch(/keeps no game log/);

      await page.route('**/api/**', (route) => route.abort('connectionrefused'));
      await page.goto(`${empty.url}/games?id=1`);
      await expect.poll(() => page.locator('game-replay [role="alert"]').textContent()).toMatch(/nicht erreichbar[\s\S]*Noch einmal versuchen/);
      await shot(page, 'history-unreachable-de');
      await page.close();
    } finally {
      await empty.close();
      await none.close();
    }
  });
});
