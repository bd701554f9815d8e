// Reading a Kalaha table whose history is lost: after a restart the referee has no earlier picture to
// compare with, so a candidate's stone counts are checked against each cell's whole weight.
//
// Weighed whole, a pit says less than its change does (the stones of a set differ), but enough: the
// total of all stones is known to be the whole set, so the mean stone is known; a cell reads empty or
// not; and a pit of n stones weighs n mean stones give or take √n times the spread of the set. That
// spread is measured on the picture itself, as the median over the cells: a cell or two holding a
// stone more or less than the candidate says stand out against the rest. A set of very unequal stones
// (beans beside chestnuts) hides a stone moved between two full pits; which pits are empty it never hides.
import type { Target, Transfer } from './weigh.ts';

/** What a whole-weight reading needs to know of the board. */
export interface Scale {
  /** Mean stone weight, grams: the picture's total over the stones of the set. */
  readonly stone: number;
  /** Standard deviation of a settled cell's weight, grams. */
  readonly noise: number;
}

/** How a picture fits a candidate's counts when weighed whole. */
export interface WholeFit {
  /** Where the stones are now: the target's counts, with transfers not yet carried still in their pits. */
  readonly counts: readonly number[];
  /** The target's transfers whose stones are still in their pits. */
  readonly remaining: readonly Transfer[];
  /** Minus twice the log-likelihood of the cells' weights (less a constant), in chi-square units; lower is better. */
  readonly score: number;
}

/** A cell reading less than this holds no stone (the lightest stone people bring is about a gram). */
export const EMPTY_BELOW = 0.6;
/**
 * A cell may read this far off its count, in its own standard deviations, and still hold that count.
 * Generous: the median spread of a set of mixed kinds (beans beside chestnuts) underrates the odd
 * pit of heavy ones, and a good board called wrong after a restart is worse than a stone moved
 * between two full pits going unseen (the next sowing of either pit shows it).
 */
const MOST_DEVIATION = 6;
/** Once nothing fits, a cell this far off its count (in its standard deviations) is named as one to fix. */
const NAMED_DEVIATION = 4;
/** The least spread of single stones assumed, as a part of the mean stone. */
const MIN_SPREAD = 0.05;

/**
 * How the picture fits each target (its transfers carried or not, pit by pit), in the same order;
 * null for a target some cell cannot hold: empty where stones belong, stones where none do, or too
 * far off in weight for the spread of stones the other cells show.
 */
export function fitWhole(scale: Scale, targets: readonly Target[], grams: ArrayLike<number>): (WholeFit | null)[] {
  return targets.map((target) => {
    const placed = placeStones(target, grams, scale.stone);
    if (!placed) return null;
    const spread = spreadOf(scale, placed.counts, grams);
    // The spread is each target's own, so its size counts too, not only the deviations from it.
    let score = 0;
    for (let i = 0; i < placed.counts.length; i++) {
      const n = placed.counts[i];
      if (n === 0) continue;
      const variance = n * spread * spread + scale.noise * scale.noise;
      const z2 = (grams[i] - n * scale.stone) ** 2 / variance;
      if (z2 > MOST_DEVIATION * MOST_DEVIATION) return null;
      score += z2 + Math.log(variance);
    }
    return { ...placed, score };
  });
}

/** Where the target's stones are, judged by the cells' emptiness; null when emptiness contradicts the counts. */
export function placeStones(target: Target, grams: ArrayLike<number>, stone: number): Omit<WholeFit, 'score'> | null {
  const counts = target.counts.slice();
  const remaining: Transfer[] = [];
  // A pit a transfer empties holds either what it will hold or that and the stones on their way: as
  // it reads empty or not, or (when the sowing put stones there since) whichever its weight is nearer.
  // The store holds the rest.
  for (const tr of target.transfers) {
    const carried = counts[tr.from];
    const g = grams[tr.from];
    if (carried === 0 ? g >= EMPTY_BELOW : Math.abs(g - (carried + tr.stones) * stone) < Math.abs(g - carried * stone)) {
      counts[tr.from] += tr.stones;
      counts[tr.to] -= tr.stones;
      remaining.push(tr);
    }
  }
  for (let i = 0; i < counts.length; i++) if (counts[i] < 0 || (counts[i] === 0) !== (grams[i] < EMPTY_BELOW)) return null;
  return { counts, remaining };
}

/**
 * The spread of single stones the picture shows if its cells hold `counts` (those holding any): the
 * median over the cells, so that a cell or two off by a stone do not hide themselves. At least a
 * twentieth of the mean stone: even a set of marbles differs that much.
 */
function spreadOf(scale: Scale, counts: readonly number[], grams: ArrayLike<number>): number {
  const perStone: number[] = [];
  for (let i = 0; i < counts.length; i++) if (counts[i] > 0) perStone.push(Math.abs(grams[i] - counts[i] * scale.stone) / Math.sqrt(counts[i]));
  if (perStone.length === 0) return MIN_SPREAD * scale.stone;
  perStone.sort((a, b) => a - b);
  const n = perStone.length;
  // The median of |N(0, σ)| is 0.674 σ.
  const median = (perStone[(n - 1) >> 1] + perStone[n >> 1]) / 2 / 0.674;
  return Math.max(median, MIN_SPREAD * scale.stone);
}

/**
 * The cells that differ from `expected`, each by the fewest stones its weight allows (a person fixing
 * the board is better told too few than too many); a cell whose weight may hold its count is not named.
 */
export function cellsOff(scale: Scale, expected: readonly number[], grams: ArrayLike<number>): { cell: number; diff: number }[] {
  const spread = spreadOf(scale, expected, grams);
  const heavy = scale.stone + 2.5 * spread;
  const cells: { cell: number; diff: number }[] = [];
  for (let i = 0; i < expected.length; i++) {
    const n = expected[i];
    const g = grams[i];
    let diff = 0;
    if (n === 0) {
      if (g >= EMPTY_BELOW) diff = Math.max(1, Math.ceil((g - EMPTY_BELOW) / heavy));
    } else if (g < EMPTY_BELOW) {
      diff = -n;
    } else {
      const sd = Math.sqrt(n * spread * spread + scale.noise * scale.noise);
      const off = g - n * scale.stone;
      // A cell that reads anything holds a stone at least.
      if (Math.abs(off) > NAMED_DEVIATION * sd) diff = Math.max(1 - n, Math.sign(off) * Math.max(1, Math.ceil((Math.abs(off) - sd) / heavy)));
    }
    if (diff !== 0) cells.push({ cell: i, diff });
  }
  return cells;
}
