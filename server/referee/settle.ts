// Settle stage for weighing boards: turns a stream of noisy frames into settled pictures.
//
// A picture is settled when every cell has held still for `settleMs` (one glitched frame per
// cell is forgiven: a load cell that reads garbage once must not delay or fake a picture) and,
// once the total is known, the total weight is conserved — stones in a hand, or a hand pressing
// into a pit, change the total, and such pictures are never shown to the referee.
// A settled picture is emitted only when it differs from the last one emitted.

export interface SettleOptions {
  /** How long every cell must hold still, in ms of the frames' own clock. */
  readonly settleMs: number;
  /** At least this many frames in the window, whatever their spacing. */
  readonly minFrames: number;
  /** Largest window kept, in frames. */
  readonly maxFrames: number;
}

export const DEFAULT_SETTLE: SettleOptions = { settleMs: 400, minFrames: 6, maxFrames: 64 };

export interface SettledPicture {
  /** Time of the last frame of the window. */
  readonly t: number;
  /** Mean weight of each cell over the window, in grams. */
  readonly grams: Float64Array;
  readonly total: number;
}

export class WeightSettler {
  private readonly cells: number;
  private readonly frames: Float64Array[];
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;
  private readonly scratch: Float64Array;
  private readonly mean: Float64Array;
  private last: Float64Array | null = null;
  /** Largest deviation from a cell's median that still counts as holding still, in grams. */
  stillTolerance = 1;
  /** Largest difference between the means of the window's two halves, grams. */
  stepTolerance = 0.6;
  /** Largest change of a cell that does not make a new picture, in grams. */
  changeTolerance = 0.3;
  /** The total the board must weigh to be settled; null while unknown (before calibration). */
  expectedTotal: number | null = null;
  totalTolerance = 0.8;
  /**
   * Load cells drift. While the board holds still and no cell has moved beyond this many grams
   * since the last picture (a stone in a hand, or a pressing hand, would move one cell by more),
   * the expected total follows the measured one a little each frame, so drift is tracked and noise
   * averages out. 0 = off (before calibration).
   */
  driftTolerance = 0;
  driftRate = 0.05;
  /** True while the board still shows the last picture emitted (stable, conserved, unchanged). */
  holding = false;

  constructor(
    cells: number,
    private readonly options: SettleOptions = DEFAULT_SETTLE,
  ) {
    this.cells = cells;
    this.frames = Array.from({ length: options.maxFrames }, () => new Float64Array(cells));
    this.times = new Float64Array(options.maxFrames);
    this.scratch = new Float64Array(options.maxFrames);
    this.mean = new Float64Array(cells);
  }

  /** Forget the window and the last picture (after a reconnect, or a new game). */
  reset(): void {
    this.count = 0;
    this.head = 0;
    this.last = null;
  }

  /** Forget only the last emitted picture, so the next settled one is emitted even if equal. */
  forgetLast(): void {
    this.last = null;
  }

  /**
   * Adds one frame (weights in tenths of a gram, as the protocol sends them).
   * Returns a settled picture when one is newly reached, else null.
   */
  push(t: number, tenths: ArrayLike<number>): SettledPicture | null {
    const slot = this.frames[this.head];
    for (let i = 0; i < this.cells; i++) slot[i] = tenths[i] / 10;
    this.times[this.head] = t;
    this.head = (this.head + 1) % this.options.maxFrames;
    if (this.count < this.options.maxFrames) this.count++;
    return this.check(t);
  }

  /** The board holds still: if no cell moved beyond the drift tolerance, follow the total. */
  private followDrift(total: number): void {
    if (!this.last || this.driftTolerance <= 0 || this.expectedTotal === null) return;
    if (differs(this.last, this.mean, this.driftTolerance)) return;
    this.expectedTotal += this.driftRate * (total - this.expectedTotal);
  }

  private check(t: number): SettledPicture | null {
    this.holding = false;
    const { settleMs, minFrames, maxFrames } = this.options;
    // The window: the newest frames spanning settleMs (at least minFrames).
    let n = 0;
    let reached = false;
    for (let k = 1; k <= this.count; k++) {
      n = k;
      const idx = (this.head - k + maxFrames) % maxFrames;
      if (k >= minFrames && t - this.times[idx] >= settleMs) {
        reached = true;
        break;
      }
    }
    if (!reached) return null;

    let total = 0;
    for (let c = 0; c < this.cells; c++) {
      for (let k = 0; k < n; k++) this.scratch[k] = this.frames[(this.head - 1 - k + maxFrames) % maxFrames][c];
      const median = medianOf(this.scratch, n);
      let outliers = 0;
      let sum = 0;
      let used = 0;
      // The newer and the older half of the window must agree: a stone of a gram dropped into a
      // pit halfway through shows as a step between them even where single frames are noisy.
      let newer = 0;
      let newerUsed = 0;
      for (let k = 0; k < n; k++) {
        const v = this.frames[(this.head - 1 - k + maxFrames) % maxFrames][c];
        if (Math.abs(v - median) > this.stillTolerance) {
          if (++outliers > 1) return null;
        } else {
          sum += v;
          used++;
          if (k < n >> 1) {
            newer += v;
            newerUsed++;
          }
        }
      }
      if (newerUsed > 0 && used > newerUsed) {
        const step = newer / newerUsed - (sum - newer) / (used - newerUsed);
        if (Math.abs(step) > this.stepTolerance) return null;
      }
      this.mean[c] = sum / used;
      total += this.mean[c];
    }
    this.followDrift(total);
    if (this.expectedTotal !== null && Math.abs(total - this.expectedTotal) > this.totalTolerance) return null;
    if (this.last && !differs(this.last, this.mean, this.changeTolerance)) {
      this.holding = true;
      return null;
    }
    this.last = Float64Array.from(this.mean);
    this.holding = true;
    return { t, grams: Float64Array.from(this.mean), total };
  }
}

function differs(a: Float64Array, b: Float64Array, tolerance: number): boolean {
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > tolerance) return true;
  return false;
}

/** Median of the first n values; reorders them (insertion sort: n is small). */
function medianOf(values: Float64Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = values[i];
    let j = i - 1;
    while (j >= 0 && values[j] > v) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = v;
  }
  // The lower middle for an even count: a real value, never a blend of a before and an after.
  return values[(n - 1) >> 1];
}
