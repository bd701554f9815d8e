// The calibration maths of the Kalaha table: stone weight, spread and noise from still frames, the pits a person
// should look at, the refusals, and agreement with what the referee finds at the opening.
import { describe, expect, test } from 'vitest';
import { KalahaReferee } from '../../server/referee/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { WeightWindow, measureStones, stoneStats, type StoneMeasurement } from '../../server/table/index.ts';
import { mulberry32 } from '../support/prng.ts';

/** `frames` frames of cells holding `grams` each, with Gaussian noise of `noise` g, in tenths. */
function frames(grams: readonly number[], count: number, noise = 0.1, seed = 1): number[][] {
  const random = mulberry32(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: count }, () => grams.map((g) => Math.round((g + noise * gauss()) * 10)));
}

/** Pits of `perPit` stones whose weights are given pit by pit, stores empty. */
function pits(weights: readonly (readonly number[])[]): number[] {
  return [...weights.map((stones) => stones.reduce((a, w) => a + w, 0)), 0, 0];
}

function measured(grams: readonly number[], seeds = 4, count = 24, noise = 0.1): StoneMeasurement {
  const result = measureStones(frames(grams, count, noise), seeds);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

describe('the stone weight', () => {
  test('is the weight on the pits over the stones; equal stones have no spread', () => {
    const m = measured(pits(Array.from({ length: 12 }, () => [5, 5, 5, 5])), 4, 24, 0);
    expect(m).toMatchObject({ seedsPerPit: 4, stones: 48, total: 240, stone: 5, spread: 0, suspects: [] });
    expect(m.cells).toHaveLength(14);
    expect(m.cells[0]).toEqual({ cell: 0, grams: 20, stones: 4 });
    expect(m.cells[12]).toEqual({ cell: 12, grams: 0, stones: 0 });
  });

  test('the spread: a pit of n stones strays by √n single-stone spreads', () => {
    // Pits alternately 4 × 4 g and 4 × 6 g: each pit is 4 g off the mean of 20 g, so σ² = 16 / 4 · 12 / 11.
    const weights = Array.from({ length: 12 }, (_, i) => (i % 2 ? [6, 6, 6, 6] : [4, 4, 4, 4]));
    const m = measured(pits(weights), 4, 24, 0);
    expect(m.stone).toBe(5);
    expect(m.spread).toBeCloseTo(Math.sqrt((16 / 4) * (12 / 11)), 3);
    expect(stoneStats([16, 24], 4)).toEqual({ stone: 5, spread: Math.sqrt(((16 - 20) ** 2 / 4 + (24 - 20) ** 2 / 4) / 1) });
  });

  test('the noise is the load cells’ own, from readings that jitter', () => {
    const grams = pits(Array.from({ length: 12 }, () => [5, 5, 5, 5]));
    for (const noise of [0.1, 0.3]) {
      const m = measured(grams, 4, 24, noise);
      expect(m.noise).toBeGreaterThan(noise * 0.8);
      expect(m.noise).toBeLessThan(noise * 1.2);
      expect(m.stone).toBeCloseTo(5, 1);
    }
  });

  test('a one-frame glitch of a cell is left out, as the referee leaves it out', () => {
    const grams = pits(Array.from({ length: 12 }, () => [5, 5, 5, 5]));
    const window = frames(grams, 24, 0.1);
    window[10][3] = 0;
    window[17][8] = 99_999;
    const result = measureStones(window, 4);
    expect(result.ok && result.value.stone).toBeCloseTo(5, 1);
    expect(result.ok && result.value.suspects).toEqual([]);
  });
});

describe('the pits a person should look at', () => {
  test('a dead load cell reads nothing: named, and left out of the stone weight', () => {
    const grams = pits(Array.from({ length: 12 }, () => [5, 5, 5, 5]));
    grams[7] = 0;
    const m = measured(grams);
    expect(m.suspects).toEqual([{ cell: 7, reason: 'reads-nothing' }]);
    expect(m.stone).toBeCloseTo(5, 1);
  });

  test('a pit of marbles with a stone too many stands out; in a mixed set it would not', () => {
    const marbles = Array.from({ length: 12 }, () => [5, 5.2, 4.8, 5]);
    marbles[4] = [...marbles[4], 5];
    expect(measured(pits(marbles)).suspects).toEqual([{ cell: 4, reason: 'off' }]);
    const random = mulberry32(9);
    const mixed = Array.from({ length: 12 }, () => Array.from({ length: 4 }, () => 1 + 9 * random()));
    expect(measured(pits(mixed)).suspects).toEqual([]);
  });

  test('a cell below zero was tared with something on it', () => {
    const grams = pits(Array.from({ length: 12 }, () => [5, 5, 5, 5]));
    grams[13] = -4;
    expect(measured(grams).suspects).toEqual([{ cell: 13, reason: 'negative' }]);
  });
});

describe('refusals', () => {
  const still = pits(Array.from({ length: 12 }, () => [5, 5, 5, 5]));

  test('too few frames', () => {
    expect(measureStones(frames(still, 5), 4)).toMatchObject({ ok: false, code: 'setup/too-few-frames' });
  });

  test('a hand in a pit: the table is not still, and the pit is named', () => {
    const window = frames(still, 24);
    for (let k = 12; k < 24; k++) window[k][2] += 50;
    expect(measureStones(window, 4)).toMatchObject({ ok: false, code: 'setup/not-still', cells: [2] });
  });

  test('stones in a store', () => {
    const grams = [...still];
    grams[12] = 10;
    expect(measureStones(frames(grams, 24), 4)).toMatchObject({ ok: false, code: 'setup/stores-not-empty', cells: [12] });
  });

  test('nothing on the table', () => {
    expect(measureStones(frames(new Array(14).fill(0), 24), 4)).toMatchObject({ ok: false, code: 'setup/no-stones' });
  });
});

describe('agreement with the referee', () => {
  test('the referee calibrating on the same opening finds the same stone weight and spread', () => {
    const random = mulberry32(4);
    // Acorns: 2–5 g, so the spread lies inside the bounds the referee clamps its own to.
    const weights = Array.from({ length: 12 }, () => Array.from({ length: 4 }, () => 2 + 3 * random()));
    const grams = pits(weights);
    const window = frames(grams, 40, 0.1, 5);
    const referee = new KalahaReferee(DEFAULT_OPTIONS);
    const events = window.flatMap((tenths, i) => referee.frame(i * 50, tenths));
    const calibrated = events.find((e) => e.kind === 'calibrated');
    expect(calibrated).toBeDefined();
    const result = measureStones(window.slice(-24), 4);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.stone).toBeCloseTo((calibrated as { stone: number }).stone, 2);
    expect(Math.abs(result.value.spread - (calibrated as { spread: number }).spread)).toBeLessThan(0.02);
  });
});

describe('the window of frames', () => {
  test('keeps the last frames, oldest first, and copies them', () => {
    const window = new WeightWindow(3);
    for (let k = 1; k <= 5; k++) window.push(new Array(14).fill(k));
    expect(window.size).toBe(3);
    expect(window.frames().map((f) => f[0])).toEqual([3, 4, 5]);
    window.frames()[0][0] = 99;
    expect(window.frames()[0][0]).toBe(3);
    window.clear();
    expect(window.frames()).toEqual([]);
  });
});
