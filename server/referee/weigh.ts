// The weight model of a weighing board, and the match of a settled picture against a count target.
//
// Stones are whatever people bring (beans of 1 g, chestnuts of 10 g), so a pit's weight does not
// tell its count. What it does tell is the change: a pit that gains k stones gains between
// k × lightest and k × heaviest stone; a pit that is untouched keeps its weight within the noise.
// Every candidate (a legal move, an illegal one, a take-back, the position itself) is a vector of
// stone counts, and it matches a picture when every cell's change fits its count change.
// Stones on their way to a store (a capture, the sweep at the end) may be anywhere between the
// pit and the store: such a pit and its store are checked together, as one cell that conserves weight.

export interface WeightModel {
  /** Mean stone weight of this set, grams (calibrated from the opening position). */
  readonly stone: number;
  /** Spread of single stone weights in this set, grams. */
  readonly stoneSpread: number;
  /** Lightest and heaviest plausible single stone, grams. */
  readonly lightest: number;
  readonly heaviest: number;
  /** Largest error of a settled cell's weight (noise and drift), grams. */
  readonly tolerance: number;
  /** Standard deviation of a settled cell's weight, grams (for the likelihood score). */
  readonly noise: number;
}

/** Stones in transit: the pit's `stones` go to the store; at any moment only part may have arrived. */
export interface Transfer {
  readonly from: number;
  readonly to: number;
  readonly stones: number;
}

/** A board the referee expects: final stone counts per cell, and transfers that may be under way. */
export interface Target {
  readonly counts: readonly number[];
  readonly transfers: readonly Transfer[];
}

/** The last picture whose stone counts the referee knows for sure. */
export interface Reference {
  readonly counts: readonly number[];
  readonly grams: ArrayLike<number>;
  /** What each cell read when it was last seen empty: load cells' zero wanders. */
  readonly zeros?: ArrayLike<number>;
}

export interface Match {
  /** Lower is better: a chi-square of the weight changes against the model. */
  readonly score: number;
  /** True when every transfer has arrived (the picture's counts are exactly the target's). */
  readonly complete: boolean;
}

/** How far a load cell's zero may wander over a game, grams. */
const ZERO_DRIFT = 2;

function lowest(model: WeightModel, delta: number): number {
  return delta >= 0 ? delta * model.lightest : delta * model.heaviest;
}
function highest(model: WeightModel, delta: number): number {
  return delta >= 0 ? delta * model.heaviest : delta * model.lightest;
}

/** Does a weight change fit a count change from lo to hi? `cells` weighed together add their noise. */
function fits(model: WeightModel, change: number, lo: number, hi: number, cells = 1): boolean {
  const tolerance = model.tolerance * Math.sqrt(cells);
  if (change < lowest(model, lo) - tolerance || change > highest(model, hi) + tolerance) return false;
  // A cell that gained (or lost) stones must show it: a change within the noise is no change.
  if (lo > 0 && change <= tolerance) return false;
  if (hi < 0 && change >= -tolerance) return false;
  return true;
}

function chi(model: WeightModel, change: number, delta: number): number {
  const err = change - delta * model.stone;
  return (err * err) / (Math.abs(delta) * model.stoneSpread * model.stoneSpread + model.noise * model.noise);
}

/** How well a cell's whole weight fits its count, when its own history is lost. */
function chiAbsolute(model: WeightModel, grams: number, count: number): number {
  const err = grams - count * model.stone;
  return (err * err) / (count * model.stoneSpread * model.stoneSpread + model.noise * model.noise);
}

/**
 * Has a transfer's source given up its stones? An emptied pit reads about its zero: within most of
 * the lightest stone of it, it is empty. A pit sown into again while its stones are owed (the next
 * move passed it before anybody carried the capture) keeps stones, and the hand that carries takes
 * any of them, the stone sown in as likely as a captured one: weighed whole, one heavy stone looks
 * like two. The store tells the rest: all arrived is taken when the pit weighed as `count` stones
 * and the store's gain as every stone owed explain the picture better than one stone still short.
 */
function sourceDone(model: WeightModel, ref: Reference, target: Target, i: number, picture: ArrayLike<number>): boolean {
  const over = picture[i] - (ref.zeros?.[i] ?? 0);
  const count = target.counts[i];
  if (count === 0) return over <= Math.max(model.tolerance, 0.6 * model.lightest);
  const store = target.transfers.find((tr) => tr.from === i)?.to as number;
  const gained = picture[store] - ref.grams[store];
  const full = target.counts[store] - ref.counts[store];
  const arrived = chiAbsolute(model, over, count) + chi(model, gained, full);
  const short = chiAbsolute(model, over, count + 1) + chi(model, gained, full - 1);
  return arrived <= short;
}

/**
 * Does `picture` show the `target`, starting from `ref`? Returns null when it cannot.
 * Cells are pits and stores alike; `picture` and `ref.grams` are in grams.
 *
 * `stirred` (a bit per cell) names cells whose stones may have been exchanged: lifted and put
 * back, where any stone of a pit may come back in place of the one taken. Their weights are
 * checked together, as one cell, and each only for being plausible for its count.
 */
export function matchTarget(model: WeightModel, ref: Reference, target: Target, picture: ArrayLike<number>, stirred = 0): Match | null {
  const n = target.counts.length;
  let score = 0;
  let complete = true;

  if (stirred) {
    let change = 0;
    let delta = 0;
    let cells = 0;
    for (let i = 0; i < n; i++) {
      if (!(stirred & (1 << i))) continue;
      cells++;
      if (target.transfers.some((tr) => tr.from === i || tr.to === i)) return null;
      const count = target.counts[i];
      // An empty cell reads its zero (known where it was empty before); a full one, its stones.
      const zero = ref.counts[i] === 0 ? ref.grams[i] : (ref.zeros?.[i] ?? 0);
      if (count === 0 ? Math.abs(picture[i] - zero) > model.tolerance + (ref.counts[i] === 0 ? 0 : ZERO_DRIFT) : picture[i] <= zero + model.tolerance) return null;
      if (picture[i] < count * model.lightest - model.tolerance - ZERO_DRIFT || picture[i] > count * model.heaviest + model.tolerance + ZERO_DRIFT) return null;
      change += picture[i] - ref.grams[i];
      delta += count - ref.counts[i];
      score += chiAbsolute(model, picture[i], count);
    }
    if (!fits(model, change, delta, delta, cells)) return null;
    score += chi(model, change, delta);
  }

  for (let i = 0; i < n; i++) {
    if (stirred & (1 << i)) continue;
    const change = picture[i] - ref.grams[i];
    // A cell in a transfer holds a count in a range: a source between empty and full, a store
    // between without and with the stones on their way.
    let lo = target.counts[i];
    let hi = lo;
    let source = false;
    for (const tr of target.transfers) {
      if (tr.from === i) {
        hi += tr.stones;
        source = true;
      }
      if (tr.to === i) lo -= tr.stones;
    }
    // Where the cell may be at all (the change from the reference says the rest); load cells'
    // zero wanders, so this bound is loose.
    if (picture[i] < lo * model.lightest - model.tolerance - ZERO_DRIFT || picture[i] > hi * model.heaviest + model.tolerance + ZERO_DRIFT) return null;
    if (!fits(model, change, lo - ref.counts[i], hi - ref.counts[i])) return null;
    if (lo === hi) score += chi(model, change, lo - ref.counts[i]);
    else if (source && !sourceDone(model, ref, target, i, picture)) complete = false;
  }

  // Each store with the pits whose stones are on their way to it conserves weight as a whole.
  for (let k = 0; k < target.transfers.length; k++) {
    const store = target.transfers[k].to;
    if (target.transfers.findIndex((tr) => tr.to === store) !== k) continue;
    let change = picture[store] - ref.grams[store];
    let delta = target.counts[store] - ref.counts[store];
    let cells = 1;
    for (const tr of target.transfers) {
      if (tr.to !== store) continue;
      change += picture[tr.from] - ref.grams[tr.from];
      delta += target.counts[tr.from] - ref.counts[tr.from];
      cells++;
    }
    if (!fits(model, change, delta, delta, cells)) return null;
    score += chi(model, change, delta);
  }
  return { score, complete };
}
