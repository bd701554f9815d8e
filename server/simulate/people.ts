// How the people at a simulated board behave beyond making their moves: the calm players the first
// physical model knows, and the quicker, rougher hands of the second. Every knob is an option of
// `spieltisch simulate`; a probability is per move (or per piece set down), a time in ms.

export interface PeopleModel {
  /** The next move begins while the last one is barely down: no still board between them. */
  readonly quickStart: number;
  /** How soon a quick start follows the last piece or stone set down, ms [least, most]. */
  readonly quickStartMs: readonly [number, number];
  /** Longest run of quick moves in a row (people play runs of five). */
  readonly quickRun: number;
  /** Shortest still board between two moves that are not quick, ms (a 400 ms pause is a pause). */
  readonly pauseMs: number;
  /** A hand rests in a pit or on a square for a while. */
  readonly handRest: number;
  readonly handRestMs: readonly [number, number];
  /** Both hands at once: two pieces lifted or set down together, or a capture taken while sowing. */
  readonly bothHands: number;
  /** A stone dropped into the wrong pit (the next one) and moved where it belongs. */
  readonly wrongPit: number;
  /** A captured piece is off the board only this long before the capturer lands, ms [least, most]. */
  readonly victimOffMs: readonly [number, number];
  /** A capturing piece set down beside its victim first, then swapped in. */
  readonly besideVictim: number;
  /** A piece set down and moved to another point within half a second (a placement corrected). */
  readonly correctPlacement: number;
  /** A square a hand hovers over (its sensor flickers) on the way to another. */
  readonly hover: number;
  /** Makis: the knights moved one at a time, in any order, and a double in two single steps. */
  readonly knightsOneByOne: number;
  /** Makis: a knight set one row off and corrected within a second. */
  readonly knightCorrected: number;
  /** Makis: a Maki sent back set down beside its square and corrected. */
  readonly resetBeside: number;
  /** Lines lost in a burst (a loose cable): such a gap, ms [least, most], per move with this probability. */
  readonly lineGap: number;
  readonly lineGapMs: readonly [number, number];
  /** Nobody answers the console's question. */
  readonly unanswered: number;
  /** A move that is not quick follows a still board of only `pauseMs` (up to half as long again). */
  readonly shortPause: number;
  /** How hard a resting hand presses on the cell, grams [least, most]. */
  readonly handRestGrams: readonly [number, number];
  /** Kalaha: the stones of a move sown quickly, this long per stone, ms [least, most]. */
  readonly quickSowing: number;
  readonly quickSowingMs: readonly [number, number];
}

/** The first model's people: calm, one hand, a still board between moves, every question answered. */
export const CALM_PEOPLE: PeopleModel = {
  quickStart: 0,
  quickStartMs: [50, 150],
  quickRun: 1,
  pauseMs: 800,
  handRest: 0,
  handRestMs: [1000, 4000],
  bothHands: 0,
  wrongPit: 0,
  victimOffMs: [800, 1500],
  besideVictim: 0,
  correctPlacement: 0,
  hover: 0,
  knightsOneByOne: 0,
  knightCorrected: 0,
  resetBeside: 0,
  lineGap: 0,
  lineGapMs: [200, 800],
  unanswered: 0,
  shortPause: 0,
  handRestGrams: [5, 40],
  quickSowing: 0,
  quickSowingMs: [120, 250],
};

/** Quicker, rougher hands, at a level from 1 (a little) to 3 (a club on a busy night). */
export function harshPeople(level: 1 | 2 | 3): PeopleModel {
  const k = level / 3;
  return {
    quickStart: 0.45 * k,
    quickStartMs: [40, 150],
    quickRun: 5,
    pauseMs: 400,
    handRest: 0.08 * k,
    handRestMs: [1000, 4000],
    bothHands: 0.2 * k,
    wrongPit: 0.06 * k,
    victimOffMs: [300, 650],
    besideVictim: 0.3 * k,
    correctPlacement: 0.15 * k,
    hover: 0.2 * k,
    knightsOneByOne: 0.5 * k,
    knightCorrected: 0.1 * k,
    resetBeside: 0.15 * k,
    lineGap: 0.03 * k,
    lineGapMs: [200, 800],
    unanswered: 0.7 * k,
    shortPause: 0.25 * k,
    handRestGrams: [5, 40],
    quickSowing: 0.5 * k,
    quickSowingMs: [120, 250],
  };
}

/** A model with some knobs set, the rest the calm model's. */
export function peopleWith(knobs: Partial<PeopleModel> = {}): PeopleModel {
  return { ...CALM_PEOPLE, ...knobs };
}
