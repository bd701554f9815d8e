// The Kalaha table's calibration maths: the stone weight, its spread and the load cells' noise, measured from the
// last still frames of a table set up with the rules' number of stones in every pit and the stores empty.
//
// The estimates are the Kalaha referee's (server/referee/kalaha-referee.ts, `calibrate` and `estimateNoise`), so
// what the setup page shows is what the referee will find at the opening: the mean stone is the total over the
// stones; a pit of n stones varies by √n single-stone spreads, so the spread is the pooled (g − n·stone)² / n; the
// noise is the pooled standard deviation of each cell's readings, a reading more than 1.5 g from its cell's
// median left out as a glitch. Two things are added for a person at the table: the window must be still (hands
// off), and each pit is checked against the others, so a dead sensor or a pit with a stone too many shows.

/** Kalaha cells in sensor order: pits A–F, a–f, then the stores of south and north. */
export const KALAHA_CELLS = 14;
const PITS = 12;
/** A reading this far from its cell's median is a glitch, not the weight (the referee's rule). */
const GLITCH_GRAMS = 1.5;
/** The smallest difference between the two halves of the window that says a cell's weight changed, grams. */
const STEP_GRAMS = 0.3;
/** A pit reading less than this holds nothing the scale can feel; a store above it is not empty (the referee's 0.6 g). */
const EMPTY_GRAMS = 0.6;
/** A pit this many of its own standard deviations from what the other pits say is suspect. */
const SUSPECT_Z = 4;
export const MIN_CALIBRATION_FRAMES = 6;

export type CellSuspicion =
  /** A pit that should hold stones reads (almost) nothing: a dead load cell, or a pit left empty. */
  | 'reads-nothing'
  /** A cell reads below zero: it was tared with something on it. */
  | 'negative'
  /** A pit far from what the other pits say n stones weigh: a stone too many or too few, or a cell's scale off. */
  | 'off'
  /** A store holds weight: stones in it, or its zero is off. */
  | 'store-not-empty';

export interface CellReading {
  readonly cell: number;
  /** Mean of the window, grams. */
  readonly grams: number;
  /** Stones the rules put there at the opening. */
  readonly stones: number;
}

export interface StoneMeasurement {
  readonly seedsPerPit: number;
  /** Stones on the table: 12 × seedsPerPit. */
  readonly stones: number;
  /** Grams on the pits together. */
  readonly total: number;
  /** Mean weight of one stone, grams. */
  readonly stone: number;
  /** Standard deviation of one stone's weight, grams (from how the pits differ). */
  readonly spread: number;
  /** Standard deviation of one load cell's reading, grams. */
  readonly noise: number;
  readonly frames: number;
  readonly cells: readonly CellReading[];
  /** Cells a person should look at; the numbers above leave out the pits that read nothing. */
  readonly suspects: readonly { readonly cell: number; readonly reason: CellSuspicion }[];
}

export type Measured =
  | { readonly ok: true; readonly value: StoneMeasurement }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly cells?: readonly number[] };

/**
 * Measures the stone weight from `frames` (each 14 readings in tenths of a gram, oldest first) of a table that
 * should hold `seedsPerPit` stones in every pit and nothing in the stores.
 */
export function measureStones(frames: readonly ArrayLike<number>[], seedsPerPit: number): Measured {
  if (!Number.isInteger(seedsPerPit) || seedsPerPit < 1) throw new RangeError(`seedsPerPit ${seedsPerPit}`);
  if (frames.length < MIN_CALIBRATION_FRAMES) {
    return { ok: false, code: 'setup/too-few-frames', message: `Only ${frames.length} frames from the table so far; at least ${MIN_CALIBRATION_FRAMES} are needed.` };
  }
  const grams: number[] = [];
  const moving: number[] = [];
  let sum = 0;
  let degrees = 0;
  const values: number[] = [];
  for (let cell = 0; cell < KALAHA_CELLS; cell++) {
    values.length = 0;
    for (const frame of frames) values.push(frame[cell] / 10);
    const median = [...values].sort((a, b) => a - b)[values.length >> 1];
    const kept = values.filter((v) => Math.abs(v - median) <= GLITCH_GRAMS);
    const mean = kept.reduce((a, v) => a + v, 0) / kept.length;
    grams.push(mean);
    const squares = kept.reduce((a, v) => a + (v - mean) ** 2, 0);
    if (kept.length >= 2) {
      sum += squares;
      degrees += kept.length - 1;
    }
    // More than a fifth of the readings far from the median is no glitch: the weight changed. A smaller change
    // shows as the two halves of the window disagreeing by more than four of their standard errors.
    const sd = kept.length >= 2 ? Math.sqrt(squares / (kept.length - 1)) : 0;
    const half = values.length >> 1;
    const early = mean1(values.slice(0, half), median);
    const late = mean1(values.slice(half), median);
    if (kept.length < 0.8 * values.length || Math.abs(early - late) > Math.max(STEP_GRAMS, (8 * sd) / Math.sqrt(values.length))) moving.push(cell);
  }
  if (moving.length) {
    return { ok: false, code: 'setup/not-still', message: 'The table is not still: take your hands off the pits and measure again.', cells: moving };
  }
  const noise = degrees ? Math.max(Math.sqrt(sum / degrees), 0.05) : 0.1;
  const cells: CellReading[] = grams.map((g, cell) => ({ cell, grams: round(g), stones: cell < PITS ? seedsPerPit : 0 }));

  const suspects: { cell: number; reason: CellSuspicion }[] = [];
  for (let cell = PITS; cell < KALAHA_CELLS; cell++) {
    if (grams[cell] > EMPTY_GRAMS) suspects.push({ cell, reason: 'store-not-empty' });
    else if (grams[cell] < -EMPTY_GRAMS) suspects.push({ cell, reason: 'negative' });
  }
  const fullStores = suspects.filter((s) => s.reason === 'store-not-empty').map((s) => s.cell);
  if (fullStores.length) {
    return { ok: false, code: 'setup/stores-not-empty', message: 'The stores must be empty: every stone goes into a pit.', cells: fullStores };
  }
  // Pits that feel nothing say nothing about the stones; the others do.
  const feeling: number[] = [];
  for (let pit = 0; pit < PITS; pit++) {
    if (grams[pit] < -EMPTY_GRAMS) suspects.push({ cell: pit, reason: 'negative' });
    else if (grams[pit] < EMPTY_GRAMS) suspects.push({ cell: pit, reason: 'reads-nothing' });
    else feeling.push(pit);
  }
  if (feeling.length < 2) {
    return { ok: false, code: 'setup/no-stones', message: `The pits weigh almost nothing: put ${seedsPerPit} stones into every pit (and tare the empty table first).` };
  }
  const n = seedsPerPit;
  const { stone, spread } = stoneStats(feeling.map((pit) => grams[pit]), n);
  // Each pit against the others: with it left out, what should it weigh, and how far may it stray?
  if (feeling.length >= 4) {
    for (const pit of feeling) {
      const others = feeling.filter((p) => p !== pit).map((p) => grams[p]);
      const rest = stoneStats(others, n);
      const sd = Math.sqrt(n * rest.spread ** 2 + noise ** 2);
      if (Math.abs(grams[pit] - n * rest.stone) > SUSPECT_Z * Math.max(sd, 0.05 * n * rest.stone)) suspects.push({ cell: pit, reason: 'off' });
    }
  }
  suspects.sort((a, b) => a.cell - b.cell);
  return {
    ok: true,
    value: {
      seedsPerPit: n,
      stones: PITS * n,
      total: round(feeling.reduce((a, pit) => a + grams[pit], 0)),
      stone: round(stone, 3),
      spread: round(spread, 3),
      noise: round(noise, 3),
      frames: frames.length,
      cells,
      suspects,
    },
  };
}

/** Mean of the readings near `median` (glitches left out). */
function mean1(values: readonly number[], median: number): number {
  const kept = values.filter((v) => Math.abs(v - median) <= GLITCH_GRAMS);
  return kept.length ? kept.reduce((a, v) => a + v, 0) / kept.length : median;
}

/** Mean stone and single-stone spread from pits of `n` stones each (the referee's estimate). */
export function stoneStats(pits: readonly number[], n: number): { stone: number; spread: number } {
  const stone = pits.reduce((a, g) => a + g, 0) / (pits.length * n);
  const squares = pits.reduce((a, g) => a + (g - n * stone) ** 2 / n, 0);
  return { stone, spread: Math.sqrt(squares / Math.max(1, pits.length - 1)) };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * The last `capacity` weight frames, copied into memory kept for the purpose: a frame costs a copy of 14
 * numbers and no allocation (it comes twenty times a second).
 */
export class WeightWindow {
  private readonly rows: Int32Array[];
  private head = 0;
  private count = 0;

  constructor(readonly capacity = 40) {
    this.rows = Array.from({ length: capacity }, () => new Int32Array(KALAHA_CELLS));
  }

  push(tenths: ArrayLike<number>): void {
    const row = this.rows[this.head];
    for (let i = 0; i < KALAHA_CELLS; i++) row[i] = tenths[i];
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  clear(): void {
    this.count = 0;
    this.head = 0;
  }

  get size(): number {
    return this.count;
  }

  /** The frames held, oldest first (copies). */
  frames(): Int32Array[] {
    const out: Int32Array[] = [];
    for (let k = 0; k < this.count; k++) out.push(Int32Array.from(this.rows[(this.head - this.count + k + this.capacity) % this.capacity]));
    return out;
  }
}
