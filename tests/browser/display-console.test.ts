// The public display and the referee console in headless Chromium against the real server (LiveTable, startHttp,
// the game log) on simulated boards: a quiet Kalaha table that rests on the idle screen and wakes with a move, a
// stone carried wrongly and put back, the event list, the warning tone and the mute switch, end by agreement; a
// Kalaha game played by simulated players, move by move on both pages; a Malawi game on an occupancy board whose
// question the console answers; the setup page starting a new game; the language switched on every page.
// Every wait is on what the page shows, never on the clock. Screenshots: tests/output/web/browser-*.png.
//
// These tests run in `npm test` and fail, saying why, without Chromium (README, "Development").
import { afterEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { TOKEN, playedBoard, quietKalahaBoard, serveTable, shot, type Served } from './harness.ts';
import { browserSuite } from './suite.ts';

const LARGE = { width: 1920, height: 1080 };
const TABLET = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** Generous: two busy cores build, serve and draw at once. */
const WAIT = 60_000;

const suite = browserSuite();
let served: Served | null = null;

afterEach(async () => {
  await served?.close();
  served = null;
});

async function open(path: string, size: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
  const opened = await suite.page(size);
  await opened.page.goto(`${(served as Served).url}${path}`);
  return opened;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent()) ?? '';
const consoleProp = (page: Page, name: 'tonesPlayed' | 'lastTone') =>
  page.locator('referee-console').evaluate((el, key) => (el as unknown as Record<string, unknown>)[key], name);

describe('the display and the console against a live table', () => {
  test('Kalaha, nobody at the table: idle, wakes with a move, the pits to fix, events, tone, end by agreement, both languages', async () => {
    const quiet = quietKalahaBoard();
    served = await serveTable(quiet.board, { game: 'kalaha' }, suite.dist);
    const display = await open('/display?lang=de', LARGE);
    // No game runs: the idle screen with today's games at this table (asked of the game log by <today-at-table>).
    await display.page.locator('table-display[idle] .idle-screen').waitFor({ timeout: WAIT });
    await expect.poll(() => text(display.page, 'today-at-table h2'), { timeout: WAIT }).toBe('Heute an diesem Tisch');
    expect(await text(display.page, '.idle-screen .next')).toContain('Kalaha');
    await shot(display.page, 'kalaha-idle-de');

    const referee = await open(`/referee?token=${TOKEN}&lang=de`, TABLET);
    await referee.page.locator('.signed-in').waitFor({ timeout: WAIT });
    // No gesture yet: the browser may hold the tone back until the referee taps.
    await referee.page.locator('#move').fill('C');
    await referee.page.locator('.entry button.primary').click();
    await referee.page.locator('.outcome.ok').waitFor({ timeout: WAIT });
    // The board still shows the start: the referee takes the move back by itself. The display woke for it.
    await display.page.locator('table-display:not([idle]) kalaha-board').waitFor({ timeout: WAIT });
    await expect.poll(() => text(display.page, '.last-move'), { timeout: WAIT }).toContain('Zurückgenommen: C');
    // The event list, from the game log once the move gave the game its row: the move, the answer typed, the take-back.
    await referee.page.locator('.events a[href*="/games?id="]').waitFor({ timeout: WAIT });
    await expect
      .poll(() => referee.page.locator('.events-list .event').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), { timeout: WAIT })
      .toEqual(['takeback', 'move', 'answer']);
    expect(await text(referee.page, '.events-list .event[data-kind="answer"]')).toContain('Von Hand eingetragen: C');
    expect(await text(referee.page, '.events-list .event[data-kind="move"] time')).toMatch(/^\d\d:\d\d:\d\d$/);

    // A hand carries pit A's stones into north's pit a: no move explains that, the pages name the pits to fix.
    await quiet.perform([{ kind: 'carry', from: 0, to: 6 }]);
    await display.page.locator('.alert.error').waitFor({ timeout: WAIT });
    const alertText = await text(display.page, '.alert.error');
    expect(alertText).toMatch(/A/);
    expect(alertText).toMatch(/a/);
    await referee.page.locator('.alerts .alert.error').waitFor({ timeout: WAIT });
    await referee.page.locator('.events-list .event.alert.error').waitFor({ timeout: WAIT });
    // The tone: the referee has tapped (the hand entry), so the browser let it sound.
    await expect.poll(() => consoleProp(referee.page, 'tonesPlayed'), { timeout: WAIT }).toBe(1);
    await shot(display.page, 'kalaha-alert-de');
    await shot(referee.page, 'kalaha-console-alert-de', true);
    // Put back: the alert goes from both pages.
    await quiet.perform([{ kind: 'lift', cell: 6, count: 4 }, { kind: 'put', cell: 0 }]);
    await expect.poll(() => display.page.locator('.alert').count(), { timeout: WAIT }).toBe(0);
    await expect.poll(() => referee.page.locator('.alerts .alert').count(), { timeout: WAIT }).toBe(0);

    // Muted, and remembered across a reload.
    await referee.page.locator('button.sound').click();
    expect(await referee.page.locator('button.sound').getAttribute('aria-pressed')).toBe('false');
    await referee.page.reload();
    await referee.page.locator('.signed-in').waitFor({ timeout: WAIT });
    expect(await referee.page.locator('button.sound').getAttribute('aria-pressed')).toBe('false');

    // End by agreement asks once more; then the display shows the result.
    await referee.page.locator('.action.agree').click();
    await referee.page.locator('.agree-yes').click();
    await referee.page.locator('.outcome.ok').waitFor({ timeout: WAIT });
    await display.page.locator('.outcome .headline').waitFor({ timeout: WAIT });
    expect(await text(display.page, '.outcome')).toContain('Beendet nach Absprache.');
    await expect.poll(() => text(referee.page, '.events-list .event'), { timeout: WAIT }).toContain('Partie zu Ende');
    await shot(display.page, 'kalaha-over-de');
    // Over, the game takes no take-back and no move: the console offers neither, and says why.
    await expect.poll(() => text(referee.page, '.action.undo .words'), { timeout: WAIT }).toBe('Das Spiel ist zu Ende — es gibt nichts mehr zurückzunehmen');
    expect(await referee.page.locator('.action.undo').isDisabled()).toBe(true);
    await referee.page.locator('#move').fill('C');
    expect(await referee.page.locator('.entry button.primary').isDisabled()).toBe(true);

    // The language switches on both pages.
    await display.page.locator('lang-toggle button[lang="en"]').click();
    await expect.poll(() => text(display.page, '.outcome'), { timeout: WAIT }).toContain('Ended by agreement.');
    expect(await display.page.evaluate(() => document.documentElement.lang)).toBe('en');
    await shot(display.page, 'kalaha-over-en');
    await referee.page.locator('lang-toggle button[lang="en"]').click();
    await expect.poll(() => text(referee.page, 'h1'), { timeout: WAIT }).toContain('Referee console');
    expect(await text(referee.page, '.events h2')).toContain('Events');
    await shot(referee.page, 'kalaha-console-over-en', true);
    expect(display.problems).toEqual([]);
    expect(referee.problems).toEqual([]);
  }, 240_000);

  test('Kalaha played by simulated players: both pages follow the game move by move; full screen with F', async () => {
    served = await serveTable(playedBoard('kalaha', 5), { game: 'kalaha' }, suite.dist);
    const table = served.table;
    const display = await open('/display?lang=de', LARGE);
    const referee = await open(`/referee?token=${TOKEN}&lang=de`, PHONE);
    // Six moves played: the display's record shows the server's, and the console lists each move with its time.
    const plies = async () => (table.sync() as { record: readonly string[] }).record.length;
    await expect.poll(plies, { timeout: 120_000 }).toBeGreaterThanOrEqual(6);
    await expect
      .poll(
        async () => {
          const shown = (await text(display.page, '.record .moves')).replace(/\s+/g, ' ');
          const record = (table.sync() as { record: readonly string[] }).record;
          return shown.includes(record.at(-1) ?? '?') && (await text(display.page, '.record .count')).includes(`${record.length} Züge`);
        },
        { timeout: WAIT },
      )
      .toBe(true);
    expect(await text(display.page, '.last-move')).toMatch(/^Letzter Zug: (Süd|Nord) sät [A-Fa-f]/);
    await expect.poll(() => referee.page.locator('.events-list .event[data-kind="move"]').count(), { timeout: WAIT }).toBeGreaterThanOrEqual(6);
    await shot(display.page, 'kalaha-played-de');
    await shot(referee.page, 'kalaha-console-played-de', true);

    // F asks for full screen (headless Chromium grants it on a key press, as a browser on a wall would).
    await display.page.locator('table-display').click({ position: { x: 5, y: 5 } });
    await display.page.keyboard.press('f');
    await expect.poll(() => display.page.evaluate(() => document.fullscreenElement !== null), { timeout: WAIT }).toBe(true);
    await expect.poll(() => display.page.locator('button.fullscreen').getAttribute('aria-pressed'), { timeout: WAIT }).toBe('true');
    await display.page.keyboard.press('f');
    await expect.poll(() => display.page.evaluate(() => document.fullscreenElement === null), { timeout: WAIT }).toBe(true);
    expect(display.problems).toEqual([]);
    expect(referee.problems).toEqual([]);
  }, 240_000);

  test('Malawi on an occupancy board: the console answers a question; the setup page starts a new game; English', async () => {
    served = await serveTable(playedBoard('grid', 3, 'occupancy'), { game: 'malawi' }, suite.dist);
    const table = served.table;
    const display = await open('/display?lang=de&fullscreen', LARGE);
    const referee = await open(`/referee?token=${TOKEN}&lang=de`, TABLET);
    await referee.page.locator('.signed-in').waitFor({ timeout: WAIT });
    // A kiosk screen: no buttons for anyone to press.
    expect(await display.page.locator('table-display[kiosk]').count()).toBe(1);
    expect(await display.page.locator('lang-toggle').count()).toBe(0);

    // The simulated players capture and distribute without a word, which occupancy sensors cannot see: the referee
    // at the console says one happened, the referee asks which, and the console answers. The players go on
    // meanwhile, so a command may meet a game that has moved on (refused as stale): then it is given again.
    let asked = false;
    await expect
      .poll(
        async () => {
          if (await referee.page.locator('.outcome.ok .headline', { hasText: 'Übernommen' }).count()) return true;
          const option = referee.page.locator('.questions .option:not([disabled])').first();
          if (await option.count()) {
            if (!asked) await shot(referee.page, 'malawi-console-question-de');
            asked = true;
            await option.click({ timeout: 5_000 }).catch(() => undefined);
            return false;
          }
          const report = referee.page.locator('.action.report:not([disabled])');
          if (await report.count()) await report.click({ timeout: 5_000 }).catch(() => undefined);
          return false;
        },
        { timeout: 180_000, interval: 250 },
      )
      .toBe(true);
    expect(await text(referee.page, '.outcome.ok')).toMatch(/Übernommen: [a-l]\d+[x>]/);
    await expect.poll(() => text(referee.page, '.events-list'), { timeout: WAIT }).toMatch(/Antwort: [a-l]\d+[x>]/);
    // The display said the referee was deciding, and shows the moves as they come.
    await expect.poll(() => text(display.page, '.record .count'), { timeout: WAIT }).toMatch(/\d+ Züge?/);
    await shot(display.page, 'malawi-played-de');
    await shot(referee.page, 'malawi-console-answered-de', true);

    // The setup page starts a new Malawi game with names; both pages follow it.
    const before = table.currentGameId;
    const setup = await open(`/setup?token=${TOKEN}&lang=de`, TABLET);
    await setup.page.locator('.signed-in').waitFor({ timeout: WAIT });
    await setup.page.locator('game-form label[data-game="malawi"]').click();
    await setup.page.locator('game-form #seat-0').fill('Amara');
    await setup.page.locator('game-form #seat-1').fill('Jonas');
    await setup.page.locator('game-form button.start').click();
    await setup.page.locator('section.new .outcome.ok').waitFor({ timeout: WAIT });
    await expect.poll(() => table.currentGameId !== null && table.currentGameId !== before, { timeout: 120_000 }).toBe(true);
    const id = table.currentGameId;
    await referee.page.locator(`.events a[href*="/games?id=${id}&"]`).waitFor({ timeout: WAIT });
    // The new game's list starts afresh: every move listed is one of the new game's record.
    await expect
      .poll(
        async () => {
          const record = (table.sync() as { record: readonly string[] }).record;
          const listed = await referee.page.locator('.events-list .event[data-kind="move"] b').allTextContents();
          return listed.length > 0 && listed.every((m) => record.includes(m));
        },
        { timeout: WAIT },
      )
      .toBe(true);
    // The answer to the last game's question went with that game.
    expect(await referee.page.locator('.outcome').count()).toBe(0);

    await referee.page.locator('lang-toggle button[lang="en"]').click();
    await expect.poll(() => text(referee.page, '.questions h2'), { timeout: WAIT }).toBe('Open questions');
    await shot(referee.page, 'malawi-console-en', true);
    expect(display.problems).toEqual([]);
    expect(referee.problems).toEqual([]);
    expect(setup.problems).toEqual([]);
  }, 480_000);
});
