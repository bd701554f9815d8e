// The setup page's pure logic: seats and names, option values and the start request, who may win, raw frames read
// and laid out, the change watch that finds a dead sensor, and refusals worded in the page's language.
import { describe, expect, test } from 'vitest';
import type { RawFrameMessage } from '../../server/http/messages.ts';
import type { HostedGame } from '../../web/src/setup/api.ts';
import { badOptions, moveSeat, optionValues, readOption, resizeSeats, seatNames, startBody, winners } from '../../web/src/setup/seats.ts';
import { ChangeWatch, FLAT_FRAMES, cellText, gridPlaces, intensity, kalahaPlaces, parseRawFrame } from '../../web/src/setup/raw.ts';
import { done, refusal } from '../../web/src/setup/outcome.ts';

const KALAHA: HostedGame = {
  game: 'kalaha',
  title: 'Kalaha',
  seats: { min: 2, max: 2, kind: 'sides' },
  options: [
    { key: 'seedsPerPit', kind: 'int', min: 1, max: 20, default: 4 },
    { key: 'skipOrigin', kind: 'bool', default: true },
  ],
};
const ADU: HostedGame = {
  game: 'adu',
  title: 'Adu',
  seats: { min: 2, max: 6, kind: 'numbered' },
  options: [
    { key: 'size', kind: 'int', min: 9, max: 9, default: 9, fixed: true },
    { key: 'diagonal', kind: 'bool', default: false },
  ],
};
const MALAWI_CHOICE = { key: 'baselineWin', kind: 'choice', values: ['static', 'survives-reply'], default: 'static' } as const;

describe('seats', () => {
  test('names in seat order from the log’s record: sides south first, numbered seats by number', () => {
    expect(seatNames(KALAHA, { north: 'Ben', south: 'Anna' })).toEqual(['Anna', 'Ben']);
    expect(seatNames(KALAHA, { south: 'Süd', north: 'Nord' })).toEqual(['', '']);
    expect(seatNames(ADU, { 1: 'Spieler 1', 2: 'Ben' })).toEqual(['', 'Ben']);
    expect(seatNames(ADU, { 3: 'Cleo', 1: 'Anna', 2: 'Ben', south: 'X' })).toEqual(['Anna', 'Ben', 'Cleo']);
    expect(seatNames(ADU, null)).toEqual(['', '']);
    expect(seatNames(ADU, { 1: 'Solo' })).toEqual(['Solo', '']);
  });

  test('seats are added and taken within the game’s bounds, and move one place at a time', () => {
    expect(resizeSeats(ADU, ['A', 'B'], 3)).toEqual(['A', 'B', '']);
    expect(resizeSeats(ADU, ['A', 'B'], 9)).toHaveLength(6);
    expect(resizeSeats(ADU, ['A', 'B', 'C'], 1)).toEqual(['A', 'B']);
    expect(moveSeat(['A', 'B', 'C'], 1, -1)).toEqual(['B', 'A', 'C']);
    expect(moveSeat(['A', 'B', 'C'], 2, 1)).toEqual(['A', 'B', 'C']);
    expect(moveSeat(['A', 'B'], 0, 1)).toEqual(['B', 'A']);
  });

  test('who may be named the winner, as the server takes it', () => {
    expect(winners('kalaha', 2, false)).toEqual(['south', 'north', 'draw']);
    expect(winners('makis', 3, true)).toEqual(['1', '2', '3', 'team', 'knights']);
    expect(winners('makis', 1, false)).toEqual(['1', 'knights']);
    expect(winners('adu', 4, false)).toEqual(['1', '2', '3', '4', 'draw']);
  });
});

describe('options', () => {
  test('start from the game now when it is the same game, else from the defaults; out-of-range values are caught', () => {
    expect(optionValues(KALAHA.options, { seedsPerPit: 3, skipOrigin: false, forbiddenCaptureAtLeast: 12 })).toEqual({ seedsPerPit: 3, skipOrigin: false });
    expect(optionValues(KALAHA.options, { seedsPerPit: 99 })).toEqual({ seedsPerPit: 4, skipOrigin: true });
    expect(optionValues(KALAHA.options, null)).toEqual({ seedsPerPit: 4, skipOrigin: true });
    expect(badOptions(KALAHA.options, { seedsPerPit: NaN, skipOrigin: true })).toEqual(['seedsPerPit']);
    expect(badOptions(KALAHA.options, { seedsPerPit: 21, skipOrigin: true })).toEqual(['seedsPerPit']);
    expect(badOptions(KALAHA.options, { seedsPerPit: 3, skipOrigin: true })).toEqual([]);
  });

  test('a value as typed: whole numbers only, a choice by its text, a checkbox', () => {
    expect(readOption(KALAHA.options[0], ' 5 ', false)).toBe(5);
    expect(readOption(KALAHA.options[0], '4.5', false)).toBeNaN();
    expect(readOption(KALAHA.options[0], '', false)).toBeNaN();
    expect(readOption(KALAHA.options[1], 'on', false)).toBe(false);
    expect(readOption(MALAWI_CHOICE, 'survives-reply', false)).toBe('survives-reply');
    expect(readOption({ key: 'maxStrength', kind: 'choice', values: [5, 6, 7], default: 5 }, '6', false)).toBe(6);
  });

  test('the start request carries every option offered, the board’s fixed size too, and the names trimmed', () => {
    expect(startBody(ADU, { diagonal: true }, [' Anna ', 'Ben'], false)).toEqual({ game: 'adu', options: { size: 9, diagonal: true }, players: ['Anna', 'Ben'] });
    expect(startBody(KALAHA, { seedsPerPit: 3, skipOrigin: true }, ['', ''], true)).toEqual({
      game: 'kalaha',
      options: { seedsPerPit: 3, skipOrigin: true },
      players: ['', ''],
      abandon: true,
    });
  });
});

function frame(overrides: Partial<RawFrameMessage>): RawFrameMessage {
  return { type: 'raw', sense: 'weights', cols: null, rows: null, seq: 1, cells: new Array(14).fill(0), framesPerSecond: 20, dropped: 0, lost: 0, ...overrides };
}

describe('raw frames', () => {
  test('are read from the socket’s text; anything else is not one', () => {
    const good = frame({ cells: [200, ...new Array(13).fill(0)] });
    expect(parseRawFrame(JSON.stringify(good))).toEqual(good);
    const grid = frame({ sense: 'occupancy', cols: 2, rows: 2, cells: [1, 0, 0, 1] });
    expect(parseRawFrame(JSON.stringify(grid))).toEqual(grid);
    for (const bad of [
      { ...good, cells: [1, 2, 3] },
      { ...good, sense: 'smell' },
      { ...grid, cols: 3 },
      { ...good, seq: -1 },
      { ...good, cells: [...good.cells.slice(0, 13), 'x'] },
    ]) {
      expect(parseRawFrame(JSON.stringify(bad)), JSON.stringify(bad)).toBeNull();
    }
    expect(parseRawFrame('{"type":"sync","stateId":1}')).toBeNull();
    expect(parseRawFrame('{"type":"raw"')).toBeNull();
  });

  test('the Kalaha table is laid out as drawn: north’s store left, f…a above, A…F below, south’s store right', () => {
    const places = kalahaPlaces('de');
    const at = (cell: number) => places.find((p) => p.cell === cell);
    expect(at(0)).toMatchObject({ column: 2, row: 2, label: 'A' });
    expect(at(5)).toMatchObject({ column: 7, row: 2, label: 'F' });
    expect(at(6)).toMatchObject({ column: 7, row: 1, label: 'a' });
    expect(at(11)).toMatchObject({ column: 2, row: 1, label: 'f' });
    expect(at(13)).toMatchObject({ column: 1, row: 1, rowSpan: 2 });
    expect(at(12)).toMatchObject({ column: 8, row: 1, rowSpan: 2 });
    expect(new Set(places.map((p) => `${p.column}/${p.row}`)).size).toBe(14);
  });

  test('a square board is seen from south: rank 1 at the bottom; Makis names squares column/row', () => {
    const places = gridPlaces(3, 2, false);
    expect(places.find((p) => p.cell === 0)).toMatchObject({ column: 1, row: 2, label: 'a1' });
    expect(places.find((p) => p.cell === 5)).toMatchObject({ column: 3, row: 1, label: 'c2' });
    expect(gridPlaces(9, 9, true).find((p) => p.cell === 80)).toMatchObject({ column: 9, row: 1, label: '9/9' });
  });

  test('colour strength against the heaviest cell, an empty table staying dark, grams written with one decimal', () => {
    const weights = frame({ cells: [400, 200, 3, -20, ...new Array(10).fill(0)] });
    expect(intensity(weights, 0)).toBe(1);
    expect(intensity(weights, 1)).toBe(0.5);
    expect(intensity(weights, 3)).toBe(0);
    expect(intensity(frame({ cells: [12, ...new Array(13).fill(0)] }), 0)).toBeCloseTo(0.06);
    expect(intensity(frame({ cells: [4, ...new Array(13).fill(0)] }), 0)).toBe(0);
    expect(cellText('de', weights, 1)).toBe('20,0');
    expect(cellText('en', weights, 3)).toBe('-2.0');
    const counts = frame({ sense: 'counts', cols: 2, rows: 1, cells: [3, 1] });
    expect(intensity(counts, 1)).toBeCloseTo(1 / 3);
    expect(cellText('de', counts, 0)).toBe('3');
  });

  test('the change watch: a cell that changed is ticked, a load cell that never jitters is flat', () => {
    const watch = new ChangeWatch();
    const noisy = (k: number) => frame({ cells: Array.from({ length: 14 }, (_, c) => (c === 5 ? 0 : 200 + ((k + c) % 3))) });
    for (let k = 0; k < FLAT_FRAMES + 2; k++) watch.observe(noisy(k));
    expect(watch.changedCount).toBe(0);
    expect(watch.isFlat(5)).toBe(true);
    expect(watch.isFlat(4)).toBe(false);
    // A hand on pit B: 3 g more.
    watch.observe(frame({ cells: noisy(0).cells.map((v, c) => (c === 1 ? v + 30 : v)) }));
    expect(watch.hasChanged(1)).toBe(true);
    expect(watch.changedCount).toBe(1);
    watch.reset();
    expect(watch.changedCount).toBe(0);
    // A grid: any change counts, and nothing is ever flat.
    watch.observe(frame({ sense: 'occupancy', cols: 2, rows: 1, cells: [0, 1] }));
    watch.observe(frame({ sense: 'occupancy', cols: 2, rows: 1, cells: [1, 1] }));
    expect([watch.hasChanged(0), watch.hasChanged(1), watch.isFlat(1)]).toEqual([true, false, false]);
  });
});

describe('what the page says', () => {
  test('a known refusal in the page’s language, an unknown one in the server’s English', () => {
    expect(refusal('de', 'setup/not-still', 'The table is not still')).toEqual({ ok: false, text: expect.stringContaining('Hände weg') });
    expect(refusal('en', 'setup/game-running', 'x').text).toContain('end or abandon');
    expect(refusal('de', 'setup/network', 'x').text).toBe('Der Spieltisch antwortet nicht.');
    expect(refusal('de', 'setup/bad-players', 'Makis is played by 1 to 5 players, not 6.')).toEqual({ ok: false, text: 'Makis is played by 1 to 5 players, not 6.', english: true });
    expect(refusal('de', 'console/whatever', 'Something.')).toMatchObject({ english: true });
  });

  test('what was done, in either language', () => {
    expect(done('de', 'end', { gameId: 7 }).text).toBe('Partie 7 ist beendet.');
    expect(done('en', 'abandon', { gameId: null }).text).toBe('The table is set up afresh.');
    expect(done('en', 'start', { game: 'Makis' }).text).toBe('Makis is set up.');
  });
});
