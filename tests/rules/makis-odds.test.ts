// Tests of the Makis odds (RULES.md §3): exact counts by hand, and against brute force that plays every roll through the engine.
import { describe, expect, test } from 'vitest';
import { DEFAULT_OPTIONS, fromSetup, initial, legalMoves, play } from '../../server/rules/makis.ts';
import type { MakiSpot, MakisMove, MakisSetup, MakisState } from '../../server/rules/makis.ts';
import { chanceText, knightDanger, lowestTerms, oddsJson, rollOdds } from '../../server/rules/makis-odds.ts';
import { parseSquare } from '../../server/rules/makis-notation.ts';
import { xorshift32 } from '../support/prng.ts';

const sq = (name: string): number => {
  const result = parseSquare(name);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

const unwrap = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

/** Knights as nine digits (column 1 first), Makis by square name or "out"; the next move is a roll by player 1. */
function position(knights: string, makis: readonly string[]): MakisState {
  const spots: MakiSpot[] = makis.map((m) => (m === 'out' ? m : sq(m)));
  const setup: MakisSetup = { knights: [...knights].map(Number), makis: spots, phase: 'roll', roller: makis.indexOf(makis.find((m) => m !== 'out') ?? '') + 1 };
  return unwrap(fromSetup(setup, { ...DEFAULT_OPTIONS, players: makis.length }));
}

// The dice written out again here, so that the brute force shares no table with the engine.
const III = [1, 2, 5, 6, 7, 9];
const IV = [1, 3, 4, 5, 8, 9];
const V = [2, 3, 4, 6, 7, 8];

/** Every ordered roll played through the engine; what happened to each Maki and to the game, counted. */
function bruteForce(state: MakisState) {
  const captured = new Map<number, number>();
  const reset = new Map<number, number>();
  let knightsHome = 0;
  for (const a of III) {
    for (const b of IV) {
      for (const c of V) {
        const next = unwrap(play(state, { kind: 'roll', dice: [c, a, b] }));
        if (next.outcome?.reason === 'knight-home') {
          knightsHome++;
          continue;
        }
        state.makis.forEach((before, i) => {
          if (typeof before !== 'number') return;
          const now = next.makis[i];
          if (now === 'out') captured.set(i + 1, (captured.get(i + 1) ?? 0) + 1);
          else if (now !== before) reset.set(i + 1, (reset.get(i + 1) ?? 0) + 1);
        });
      }
    }
  }
  return { captured, reset, knightsHome };
}

function expectOddsMatchBruteForce(state: MakisState): void {
  const odds = unwrap(rollOdds(state));
  const brute = bruteForce(state);
  expect(odds.knightsHome).toEqual({ numerator: brute.knightsHome, denominator: 216 });
  const players = state.makis.flatMap((spot, i) => (typeof spot === 'number' ? [i + 1] : []));
  expect(odds.makis.map((m) => m.player)).toEqual(players);
  for (const m of odds.makis) {
    expect(m.square).toBe(state.makis[m.player - 1]);
    expect(m.capture.numerator).toBe(brute.captured.get(m.player) ?? 0);
    expect(m.reset.numerator).toBe(brute.reset.get(m.player) ?? 0);
    expect(m.capture.numerator + m.reset.numerator + odds.knightsHome.numerator).toBeLessThanOrEqual(216);
  }
}

/** The danger map by brute force: a lone Maki put on each square in turn, every roll played. */
function bruteDanger(knights: string): ({ capture: number; reset: number } | null)[] {
  const danger: ({ capture: number; reset: number } | null)[] = [];
  for (let row = 1; row <= 9; row++) {
    for (let column = 1; column <= 9; column++) {
      if (Number(knights[column - 1]) === row || row === 1) {
        danger.push(null);
        continue;
      }
      const state = position(knights, [`c${column}r${row}`]);
      let capture = 0;
      let reset = 0;
      for (const a of III) {
        for (const b of IV) {
          for (const c of V) {
            const next = unwrap(play(state, { kind: 'roll', dice: [b, c, a] }));
            if (next.outcome?.reason === 'knight-home') continue;
            if (next.makis[0] === 'out') capture++;
            else if (next.makis[0] !== state.makis[0]) reset++;
          }
        }
      }
      danger.push({ capture, reset });
    }
  }
  return danger;
}

describe('odds counted by hand', () => {
  test('a Maki right in front of the knight of column 5: captured by any 5 (66/216), sent back by a 4 or a 6 without a 5 (86/216)', () => {
    // Rolls with a 5: 216 − 5·5·6 = 66. Without a 5: 150, of which 4·4·4 = 64 have neither 4 nor 6.
    const odds = unwrap(rollOdds(position('111111111', ['c5r2'])));
    expect(odds.makis).toEqual([
      { player: 1, square: sq('c5r2'), capture: { numerator: 66, denominator: 216 }, reset: { numerator: 86, denominator: 216 } },
    ]);
    expect(odds.knightsHome.numerator).toBe(0);
  });

  test('knights home: a 9 for the knight on row 8 (66) or a double 1 for the knight on row 7 (6)', () => {
    expect(unwrap(rollOdds(position('711111118', ['c5r9']))).knightsHome).toEqual({ numerator: 72, denominator: 216 });
  });

  test('a roll that brings a knight home counts for that only, not as a capture', () => {
    // The knight of column 5 on row 8 with the Maki on c4r9 beside its goal; any 5 ends the game.
    const odds = unwrap(rollOdds(position('111181111', ['c4r9'])));
    expect(odds.knightsHome.numerator).toBe(66);
    expect(odds.makis[0].reset.numerator).toBe(0);
    expect(odds.makis[0].capture.numerator).toBe(0);
  });

  test('at the start every square of row 9 is safe', () => {
    const { danger } = knightDanger([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    for (let column = 1; column <= 9; column++) expect(danger[sq(`c${column}r9`)]).toEqual({ capture: 0, reset: 0 });
    expect(danger[sq('c1r1')]).toBeNull();
    // c1r2: captured by any 1 (66); else sent back by a 2: 150 rolls without a 1, 4·5·5 = 100 of them without a 2.
    expect(danger[sq('c1r2')]).toEqual({ capture: 66, reset: 50 });
  });
});

describe('odds against brute force', () => {
  test.each([
    ['the start with three players', '111111111', ['c5r9', 'c2r9', 'c8r9']],
    ["the seed's figure", '433111111', ['c2r5']],
    ['a Maki the knight has passed', '111111511', ['c7r3', 'c6r7']],
    ['Makis in one column and a captured player', '111161111', ['c5r9', 'c5r5', 'out', 'c5r3']],
    ['knights near home', '878787878', ['c1r9', 'c2r4', 'c5r2']],
  ])('%s', (_, knights, makis) => {
    expectOddsMatchBruteForce(position(knights, makis));
  });

  test('positions met in random games', () => {
    const next = xorshift32(2024);
    let checked = 0;
    for (let game = 0; game < 10; game++) {
      let state = unwrap(initial({ ...DEFAULT_OPTIONS, players: 1 + (game % 5), knights: Array.from({ length: 9 }, () => 1 + (next() % 8)) }));
      while (state.outcome === null) {
        if (state.phase === 'roll' && next() % 2 === 0) {
          expectOddsMatchBruteForce(state);
          checked++;
        }
        const moves: MakisMove[] = legalMoves(state);
        state = unwrap(play(state, moves[next() % moves.length]));
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  test.each([['111111111'], ['433111111'], ['111161111'], ['878787878'], ['123456781']])('danger map for knights %s', (knights) => {
    const odds = knightDanger([...knights].map(Number));
    expect(odds.danger).toEqual(bruteDanger(knights));
  });
});

describe('odds: when and how', () => {
  test('only when the next move is a roll', () => {
    expect(rollOdds(unwrap(initial()))).toMatchObject({ ok: false, error: { code: 'makis/not-roll-time' } });
    const over = unwrap(fromSetup({ knights: [1, 1, 1, 1, 1, 1, 1, 1, 9], makis: [sq('c5r9')], phase: 'roll' }));
    expect(rollOdds(over)).toMatchObject({ ok: false, error: { code: 'makis/game-over' } });
  });

  test('fractions: as written, in lowest terms', () => {
    expect(chanceText({ numerator: 66, denominator: 216 })).toBe('66/216');
    expect(lowestTerms({ numerator: 66, denominator: 216 })).toEqual([11, 36]);
    expect(lowestTerms({ numerator: 0, denominator: 216 })).toEqual([0, 1]);
    expect(lowestTerms({ numerator: 216, denominator: 216 })).toEqual([1, 1]);
  });

  test('as JSON for the display: squares by name, knights left out of the danger map', () => {
    const json = oddsJson(unwrap(rollOdds(position('111111111', ['c5r2']))));
    expect(json.knightsHome).toBe('0/216');
    expect(json.makis).toEqual({ 1: { square: 'c5r2', capture: '66/216', reset: '86/216' } });
    expect(Object.keys(json.danger)).toHaveLength(72); // rows 2–9
    expect(json.danger.c5r2).toEqual({ capture: 66, reset: 86 });
    expect(json.danger.c5r1).toBeUndefined();
  });
});
