// Makis odds: the exact chance that the next roll captures or sends back each Maki or brings a knight home, and a danger map per square.
/*
 * Follows RULES.md §3 step 2 (knight effects), for the display's danger map.
 *
 * Each of Miwin's three dice shows each of its six faces with equal chance, so the 6 × 6 × 6 = 216
 * ordered rolls (III, IV, V) are equally likely and every chance here is an exact count of them:
 * numerator/216, never a float.
 *
 * For one roll the outcomes are exclusive: a roll that brings a knight to row 9 ends the game
 * and does nothing else, so it counts for `knightsHome` only; otherwise a Maki is captured, or
 * sent back (capture before reset), or left alone.
 *
 * Whether a roll captures or sends back a Maki depends only on the knights and that Maki's own
 * square — where it lands when sent back depends on the others, but not whether — so one pass
 * over the 216 rolls gives the danger of every square at once, and a Maki's odds are the
 * danger of its square. The counting here walks the knights' steps itself and shares no code
 * with the engine's rollEffects; the tests hold the two to each other.
 */
import { fail, ok } from './types.ts';
import type { Result } from './types.ts';
import { ORDERED_ROLLS, SIZE, square, squareName } from './makis.ts';
import type { MakisState, Square } from './makis.ts';

export const ROLL_COUNT = 216;

/** An exact chance: `numerator` of the 216 ordered rolls. */
export interface Chance {
  readonly numerator: number;
  readonly denominator: typeof ROLL_COUNT;
}

/** What the next roll would do to a Maki on one square: counts of the 216 ordered rolls. */
export interface SquareDanger {
  readonly capture: number;
  readonly reset: number;
}

export interface MakiOdds {
  readonly player: number;
  readonly square: Square;
  readonly capture: Chance;
  readonly reset: Chance;
}

export interface MakisOdds {
  /** A knight reaches row 9: the knights win. */
  readonly knightsHome: Chance;
  /** One entry per Maki on the board, in player order. */
  readonly makis: readonly MakiOdds[];
  /**
   * Per square (cell index, 81 entries): the danger for a Maki standing there; null where no Maki
   * can stand when a roll is due — a knight's square, and row 1 (a Maki there has already won).
   */
  readonly danger: readonly (SquareDanger | null)[];
}

const chance = (numerator: number): Chance => ({ numerator, denominator: ROLL_COUNT });

/** Counts over the 216 ordered rolls for knights on `knights` (rows, column 1 first). */
export function knightDanger(knights: readonly number[]): { knightsHome: number; danger: (SquareDanger | null)[] } {
  const cells = SIZE * SIZE;
  const capture = new Int32Array(cells);
  const reset = new Int32Array(cells);
  // Per-roll marks, told apart by the roll's number, so no clearing between rolls.
  const capturedIn = new Int32Array(cells).fill(-1);
  const resetIn = new Int32Array(cells).fill(-1);
  const steps = new Int32Array(SIZE);
  const landings: Square[] = [];
  let knightsHome = 0;

  const markReset = (k: number, column: number, row: number): void => {
    if (column < 1 || column > SIZE) return;
    const sq = square(column, row);
    if (capturedIn[sq] === k || resetIn[sq] === k) return;
    resetIn[sq] = k;
    reset[sq]++;
  };

  ORDERED_ROLLS.forEach((roll, k) => {
    steps.fill(0);
    for (const d of roll) steps[d - 1]++;
    landings.length = 0;
    let home = false;
    for (let c = 0; c < SIZE; c++) {
      for (let s = 1; s <= steps[c]; s++) {
        const row = knights[c] + s;
        if (row > SIZE) break;
        landings.push(square(c + 1, row));
        if (row === SIZE) home = true;
      }
    }
    if (home) {
      knightsHome++;
      return;
    }
    for (const sq of landings) {
      capturedIn[sq] = k;
      capture[sq]++;
    }
    for (const sq of landings) {
      const column = (sq % SIZE) + 1;
      const row = Math.floor(sq / SIZE) + 1;
      markReset(k, column - 1, row);
      markReset(k, column + 1, row);
    }
    // A Maki in a rolled column that the knight has already passed.
    for (let c = 0; c < SIZE; c++) {
      if (steps[c] === 0) continue;
      for (let row = 1; row < knights[c]; row++) markReset(k, c + 1, row);
    }
  });

  const danger: (SquareDanger | null)[] = [];
  for (let sq = 0; sq < cells; sq++) {
    const row = Math.floor(sq / SIZE) + 1;
    const open = row > 1 && knights[sq % SIZE] !== row;
    danger.push(open ? { capture: capture[sq], reset: reset[sq] } : null);
  }
  return { knightsHome, danger };
}

/** The odds of the next roll; only when the next token is a roll. */
export function rollOdds(state: MakisState): Result<MakisOdds> {
  if (state.outcome !== null) return fail('makis/game-over', 'the game is over; there is no next roll');
  if (state.phase !== 'roll') {
    return fail('makis/not-roll-time', 'the odds are for the next roll, and the next move is not a roll', { phase: state.phase });
  }
  const { knightsHome, danger } = knightDanger(state.knights);
  const makis: MakiOdds[] = [];
  state.makis.forEach((spot, i) => {
    if (typeof spot !== 'number') return;
    const here = danger[spot] as SquareDanger;
    makis.push({ player: i + 1, square: spot, capture: chance(here.capture), reset: chance(here.reset) });
  });
  return ok({ knightsHome: chance(knightsHome), makis, danger });
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The chance in lowest terms, e.g. 36/216 → [1, 6]; 0 → [0, 1]. */
export function lowestTerms(c: Chance): readonly [number, number] {
  const g = gcd(c.numerator, c.denominator);
  return [c.numerator / g, c.denominator / g];
}

/** `36/216`: the chance as the display and logs write it. */
export const chanceText = (c: Chance): string => `${c.numerator}/${c.denominator}`;

/** The odds as JSON for the display: chances as "n/216", squares by name, squares without danger entry left out. */
export function oddsJson(odds: MakisOdds): {
  knightsHome: string;
  makis: Record<string, { square: string; capture: string; reset: string }>;
  danger: Record<string, SquareDanger>;
} {
  const makis: Record<string, { square: string; capture: string; reset: string }> = {};
  for (const m of odds.makis) {
    makis[String(m.player)] = { square: squareName(m.square), capture: chanceText(m.capture), reset: chanceText(m.reset) };
  }
  const danger: Record<string, SquareDanger> = {};
  odds.danger.forEach((d, sq) => {
    if (d !== null) danger[squareName(sq)] = d;
  });
  return { knightsHome: chanceText(odds.knightsHome), makis, danger };
}
