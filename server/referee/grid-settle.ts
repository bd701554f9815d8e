// Settle stage for square boards: turns occupancy (G) or count (C) frames into settled pictures.
//
// A hand moving pieces shows pictures no position ever had: a lifted piece leaves its square
// empty for a moment, a piece slid from c1 to c3 passes over c2. Such pictures never reach the
// referee: a picture is settled only when it has held for `holdMs` of the frames' own clock.
// A flickering sensor must not make a move either:
// - a new reading of a cell counts only once it has been read `confirmFrames` frames in a row,
//   so a cell that toggles for single frames never changes the picture, however often it does;
// - a cell that keeps toggling (a loose switch, a hall sensor at the edge of its range) is marked
//   unsure: its value in the picture stays what it was before the flicker began, its changes no
//   longer hold the picture back, and the picture lists it as unsure so the referee does not
//   trust it. Once it has read the same for `trustMs` it is trusted again.
// A settled picture is emitted only when it differs from the last one emitted.
//
// The per-frame path allocates nothing: buffers are made once, a G frame equal to the previous
// one is not even decoded, and only an emitted picture is a new object.
import { bitsInto } from './squares.ts';

export interface GridSettleOptions {
  /** How long the picture must hold before it is settled, in ms of the frames' own clock. */
  readonly holdMs: number;
  /** A cell's new reading counts once it has been read this many frames in a row. */
  readonly confirmFrames: number;
  /** A cell that toggles about this often within a few half-lives is marked unsure. */
  readonly flickerToggles: number;
  /** Half-life of a cell's toggle count, ms: old toggles count less and less. */
  readonly flickerHalfLifeMs: number;
  /** An unsure cell that reads the same for this long is trusted again, ms. */
  readonly trustMs: number;
}

/**
 * At the protocol's 20 frames a second: 400 ms is eight frames, long enough for a piece in the
 * air or passing over a square, short enough that a move shows at once. Six toggles with a
 * half-life of a second: a piece slid over a square toggles it twice, a piece set down with a
 * wobble three or four times, a loose switch ten times a second.
 */
export const DEFAULT_GRID_SETTLE: GridSettleOptions = {
  holdMs: 400,
  confirmFrames: 2,
  flickerToggles: 6,
  flickerHalfLifeMs: 1000,
  trustMs: 3000,
};

export interface SettledGrid {
  /** Time of the frame at which the picture was settled. */
  readonly t: number;
  /** One value per cell: 0/1 for occupancy, the count for a counting board. */
  readonly cells: readonly number[];
  /** Cells whose sensor flickers, ascending: their value is the one before the flicker, not to be trusted. */
  readonly unsure: readonly number[];
}

export class GridSettler {
  readonly cells: number;
  private readonly raw: Int32Array;
  /** Each cell's reading before its last change: coming back to it is a flicker. */
  private readonly before: Int32Array;
  private readonly runValue: Int32Array;
  private readonly runLength: Int32Array;
  /** When each cell's current run of equal readings began: a change counts from its first frame, not from its confirmation. */
  private readonly runStart: Float64Array;
  /** Each cell's confirmed reading. */
  private readonly confirmed: Int32Array;
  /** The picture as it stands: confirmed readings, or the frozen value of an unsure cell. */
  private readonly picture: Int32Array;
  private readonly frozen: Int32Array;
  private readonly shown: Int32Array;
  private readonly toggleScore: Float64Array;
  private readonly lastToggle: Float64Array;
  private readonly flickering: Uint8Array;
  private readonly decoded: Int32Array;
  private lastBits: bigint | null = null;
  private started = false;
  private emitted = false;
  /** When the picture last changed. */
  private changedAt = 0;
  private lastPicture: SettledGrid | null = null;
  /**
   * Cells whose confirmed reading changed since `clearTouched`, 1 = touched: where the hands were
   * between two still pictures, even where the picture shows no change (a victim taken off and the
   * captor set down, a piece moved on within a quick run). Flickering cells are not counted.
   */
  readonly touched: Uint8Array;
  /** Every touch of the window in order: the cell, and the first frame of the reading that changed. */
  readonly touches: [cell: number, t: number][] = [];
  /** True while the board still shows the last picture emitted, held for `holdMs`. */
  holding = false;
  /** Frames refused because they did not have one value per cell. */
  refused = 0;

  constructor(
    cells: number,
    private readonly options: GridSettleOptions = DEFAULT_GRID_SETTLE,
  ) {
    if (!Number.isInteger(cells) || cells < 1) throw new RangeError(`a grid has at least one cell, not ${cells}`);
    this.cells = cells;
    this.raw = new Int32Array(cells);
    this.before = new Int32Array(cells).fill(-1);
    this.runValue = new Int32Array(cells);
    this.runLength = new Int32Array(cells);
    this.runStart = new Float64Array(cells);
    this.confirmed = new Int32Array(cells);
    this.picture = new Int32Array(cells);
    this.frozen = new Int32Array(cells);
    this.shown = new Int32Array(cells);
    this.toggleScore = new Float64Array(cells);
    this.lastToggle = new Float64Array(cells);
    this.flickering = new Uint8Array(cells);
    this.decoded = new Int32Array(cells);
    this.touched = new Uint8Array(cells);
  }

  /** Starts a new window of touched cells (the referee has read the picture up to now). */
  clearTouched(): void {
    this.touched.fill(0);
    this.touches.length = 0;
  }

  /** Forget everything (a reconnect, a board swapped). */
  reset(): void {
    this.started = false;
    this.emitted = false;
    this.lastBits = null;
    this.lastPicture = null;
    this.holding = false;
    this.flickering.fill(0);
    this.toggleScore.fill(0);
    this.clearTouched();
  }

  /** Forget only the last emitted picture, so the next settled one is emitted even if equal. */
  forgetLast(): void {
    this.emitted = false;
    this.lastPicture = null;
  }

  /** The last picture emitted, or null. */
  last(): SettledGrid | null {
    return this.lastPicture;
  }

  /** Whether a cell's sensor is currently considered to flicker. */
  isUnsure(cell: number): boolean {
    return this.flickering[cell] === 1;
  }

  /** A G frame: bit i is cell i. */
  pushBits(t: number, bits: bigint): SettledGrid | null {
    if (bits !== this.lastBits) {
      bitsInto(bits, this.decoded, this.cells);
      this.lastBits = bits;
    }
    return this.push(t, this.decoded);
  }

  /** One value per cell (a C frame, or occupancy already decoded). */
  push(t: number, values: ArrayLike<number>): SettledGrid | null {
    if (values.length !== this.cells) {
      this.refused++;
      return null;
    }
    const { confirmFrames, flickerToggles, flickerHalfLifeMs, trustMs, holdMs } = this.options;
    if (!this.started) {
      for (let c = 0; c < this.cells; c++) {
        const v = values[c];
        this.raw[c] = v;
        this.before[c] = -1;
        this.runValue[c] = v;
        this.runLength[c] = 1;
        this.runStart[c] = t;
        this.confirmed[c] = v;
        this.picture[c] = v;
        this.lastToggle[c] = t;
      }
      this.started = true;
      this.changedAt = t;
      this.holding = false;
      return null;
    }
    for (let c = 0; c < this.cells; c++) {
      const v = values[c];
      if (v !== this.raw[c]) {
        // Only a reading that goes back to what it was before is a flicker: beads taken off a
        // piece one by one step a count down (4, 3, 2, 1), which is the board changing.
        const back = v === this.before[c];
        this.before[c] = this.raw[c];
        this.raw[c] = v;
        const score = this.toggleScore[c] * Math.pow(0.5, (t - this.lastToggle[c]) / flickerHalfLifeMs) + (back ? 1 : 0);
        this.toggleScore[c] = score;
        this.lastToggle[c] = t;
        if (this.flickering[c] === 0 && score >= flickerToggles) {
          this.flickering[c] = 1;
          // What the cell read before it began to flicker: what the referee was last shown.
          this.frozen[c] = this.emitted ? this.shown[c] : this.picture[c];
        }
      } else if (this.flickering[c] === 1 && t - this.lastToggle[c] >= trustMs) {
        this.flickering[c] = 0;
        this.toggleScore[c] = 0;
      }
      if (v === this.runValue[c]) this.runLength[c]++;
      else {
        this.runValue[c] = v;
        this.runLength[c] = 1;
        this.runStart[c] = t;
      }
      if (this.runLength[c] >= confirmFrames && this.confirmed[c] !== v) {
        this.confirmed[c] = v;
        if (this.flickering[c] === 0) {
          this.touched[c] = 1;
          this.touches.push([c, this.runStart[c]]);
        }
      }
      const seen = this.flickering[c] === 1 ? this.frozen[c] : this.confirmed[c];
      if (seen !== this.picture[c]) {
        this.picture[c] = seen;
        // A confirmed reading has held since its run began: the board has been still since then,
        // so a board still for `holdMs` settles within them, not `confirmFrames` later.
        const since = this.flickering[c] === 1 ? t : this.runStart[c];
        if (since > this.changedAt) this.changedAt = since;
      }
    }
    if (t - this.changedAt < holdMs) {
      this.holding = false;
      return null;
    }
    this.holding = true;
    if (this.emitted && this.sameAsShown()) return null;
    this.shown.set(this.picture);
    this.emitted = true;
    const unsure: number[] = [];
    for (let c = 0; c < this.cells; c++) if (this.flickering[c] === 1) unsure.push(c);
    this.lastPicture = { t, cells: Array.from(this.picture), unsure };
    return this.lastPicture;
  }

  private sameAsShown(): boolean {
    for (let c = 0; c < this.cells; c++) if (this.picture[c] !== this.shown[c]) return false;
    return true;
  }
}
