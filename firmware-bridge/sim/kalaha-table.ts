// The simulated Kalaha weighing table: stones of real weights in 14 load cells, a human hand, sensor noise, and the firmware's line protocol.
// It knows physics, not rules: it performs a script of physical actions and reports what its load cells read.
import { KALAHA_CELLS } from '../protocol.ts';
import type { Scheduler } from './clock.ts';
import { SimulatedFirmware, assertNever, type CommonAction, type FirmwareOptions, type LineOut, type ThinkingModel } from './firmware.ts';
import { Random } from './random.ts';

export type { LineOut } from './firmware.ts';

// ---------------------------------------------------------------------------------------------
// Stones

export const STONE_SETS = ['acorns', 'marbles', 'beans', 'chestnuts', 'mixed'] as const;
export type StoneSet = (typeof STONE_SETS)[number];
export type StoneKind = Exclude<StoneSet, 'mixed'>;
export const STONE_KINDS = ['acorns', 'marbles', 'beans', 'chestnuts'] as const satisfies readonly StoneKind[];

/** Weight of one stone of a kind, in grams: a normal distribution cut to [min, max]. */
export interface StoneWeight {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly sd: number;
}

/** What people bring to the table (the seed names acorns, marbles, beans). Single stones weigh 1–10 g. */
export const STONE_WEIGHTS: Readonly<Record<StoneKind, StoneWeight>> = {
  acorns: { min: 2, max: 5, mean: 3.4, sd: 0.7 },
  marbles: { min: 4, max: 6, mean: 5, sd: 0.35 },
  beans: { min: 1, max: 2, mean: 1.45, sd: 0.25 },
  chestnuts: { min: 7, max: 10, mean: 8.4, sd: 0.8 },
};

/** `count` stone weights in grams (to 0.01 g) drawn from a set; `mixed` draws each stone's kind first. */
export function makeStones(set: StoneSet, count: number, rng: Random): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const kind: StoneKind = set === 'mixed' ? rng.pick(STONE_KINDS) : set;
    const w = STONE_WEIGHTS[kind];
    let g: number;
    do g = w.mean + w.sd * rng.gaussian();
    while (g < w.min || g > w.max);
    out.push(Math.round(g * 100) / 100);
  }
  return out;
}

export interface Stone {
  readonly id: number;
  readonly grams: number;
}

// ---------------------------------------------------------------------------------------------
// Models

/** The load cells and their amplifiers. */
export interface SensorModel {
  /** Standard deviation of each reading, grams (0.05–0.3 g is what HX711 cells under stone show). */
  readonly noiseGrams: number;
  /** Each cell drifts at a steady rate drawn uniformly from ±this, grams per minute (temperature, creep). */
  readonly driftGramsPerMinute: number;
  /** Chance per cell per frame of a one-frame glitch: the cell reads 0 or garbage. */
  readonly glitchRate: number;
}

/** The human: how long things take and how hard the hand presses. Ranges are [min, max], uniform. */
export interface HandModel extends ThinkingModel {
  /** Chance that dropping or putting stones into a cell also presses on it. */
  readonly pressProbability: number;
  readonly pressGrams: readonly [number, number];
  readonly pressFrames: readonly [number, number];
  readonly perStoneMs: readonly [number, number];
  readonly liftMs: readonly [number, number];
  readonly putMs: readonly [number, number];
  readonly carryMs: readonly [number, number];
}

export const DEFAULT_SENSOR: SensorModel = { noiseGrams: 0.1, driftGramsPerMinute: 0, glitchRate: 0 };

export const DEFAULT_HAND: HandModel = {
  pressProbability: 0.3,
  pressGrams: [2, 8],
  pressFrames: [2, 5],
  thinkMs: [1000, 2500],
  pauseProbability: 0.05,
  pauseMs: [3000, 7000],
  perStoneMs: [300, 600],
  liftMs: [300, 700],
  putMs: [300, 700],
  carryMs: [600, 1200],
};

export interface KalahaTableOptions extends FirmwareOptions {
  /** Stones in each of the 14 cells, grams; when absent, `seedsPerPit` stones of `stoneSet` in every pit. */
  readonly cells?: readonly (readonly number[])[];
  readonly stoneSet?: StoneSet;
  readonly seedsPerPit?: number;
  readonly sensor?: Partial<SensorModel>;
  readonly hand?: Partial<HandModel>;
}

// ---------------------------------------------------------------------------------------------
// The script

export const TABLE_ACTION_KINDS = ['wait', 'think', 'lift', 'drop', 'put', 'carry', 'press', 'rest', 'mark'] as const;
export type TableActionKind = (typeof TABLE_ACTION_KINDS)[number];

/** Which hand holds the stones: the sowing hand (default), or the other one (both hands at once). */
export type TableHand = 'one' | 'other';

/**
 * A physical action. Durations left out are drawn from the hand model. `overlap`: the action ends
 * as its stones land — the hand's way back overlaps whatever comes next (the next player already
 * reaching in). `hand: 'other'`: the other hand, holding stones of its own.
 */
export type TableAction =
  | CommonAction
  /** Take stones from a cell into the hand: all of them, or `count` chosen at random (any stones, not particular ones). */
  | { readonly kind: 'lift'; readonly cell: number; readonly count?: number; readonly ms?: number; readonly hand?: TableHand }
  /** Drop one stone from the hand into a cell (sowing). */
  | { readonly kind: 'drop'; readonly cell: number; readonly ms?: number; readonly overlap?: true; readonly hand?: TableHand }
  /** Put a handful from the hand into a cell: all, or `count` of the stones held. */
  | { readonly kind: 'put'; readonly cell: number; readonly count?: number; readonly ms?: number; readonly overlap?: true; readonly hand?: TableHand }
  /** Lift everything in `from`, carry it, put it all into `to`. */
  | { readonly kind: 'carry'; readonly from: number; readonly to: number; readonly ms?: number; readonly overlap?: true }
  | { readonly kind: 'press'; readonly cell: number; readonly grams: number; readonly ms: number }
  /** A hand rests in a cell for `ms`, pressing `grams` on it (zero time: the script goes on meanwhile; brief presses add to it). */
  | { readonly kind: 'rest'; readonly cell: number; readonly grams: number; readonly ms: number };

/**
 * The physical model. Each cell holds individual stones; a load cell reads their total weight plus
 * the hand's pressure, drift, noise and now and then a glitch. Stones in the hand are off the
 * table. Time is the scheduler's virtual clock.
 */
export class KalahaTable extends SimulatedFirmware<TableAction> {
  readonly sensor: SensorModel;
  readonly hand: HandModel;

  private readonly cells: Stone[][] = [];
  private readonly held: Stone[] = [];
  /** The other hand's stones (both hands at once). */
  private readonly otherHeld: Stone[] = [];
  private readonly grams = new Float64Array(KALAHA_CELLS);
  private readonly tares = new Float64Array(KALAHA_CELLS);
  private readonly drift = new Float64Array(KALAHA_CELLS);
  private readonly pressGrams = new Float64Array(KALAHA_CELLS);
  private readonly pressUntil = new Float64Array(KALAHA_CELLS);
  private readonly restGrams = new Float64Array(KALAHA_CELLS);
  private readonly restUntil = new Float64Array(KALAHA_CELLS);
  private readonly sensorRng: Random;
  private readonly handRng: Random;
  /** Hears every landing of stones in a cell (ground truth: when the last stone of a move was down). */
  onLand: ((cell: number, stones: number, t: number) => void) | null = null;

  constructor(scheduler: Scheduler, options: KalahaTableOptions, out: LineOut) {
    super(scheduler, options, out, { board: 'kalaha', cells: KALAHA_CELLS, shape: `cells=${KALAHA_CELLS}`, noun: 'table' });
    const root = new Random(options.seed);
    this.sensorRng = root.fork('sensor');
    this.handRng = root.fork('hand');
    this.sensor = { ...DEFAULT_SENSOR, ...options.sensor };
    this.hand = { ...DEFAULT_HAND, ...options.hand };
    let layout = options.cells;
    if (!layout) {
      const perPit = options.seedsPerPit ?? 4;
      const grams = makeStones(options.stoneSet ?? 'acorns', perPit * 12, root.fork('stones'));
      layout = Array.from({ length: KALAHA_CELLS }, (_, c) => (c < 12 ? grams.slice(c * perPit, (c + 1) * perPit) : []));
    }
    if (layout.length !== KALAHA_CELLS) throw new RangeError(`a Kalaha table has ${KALAHA_CELLS} cells, not ${layout.length}`);
    let id = 0;
    for (let c = 0; c < KALAHA_CELLS; c++) {
      this.cells.push(layout[c].map((g) => ({ id: id++, grams: g })));
      this.recount(c);
      this.drift[c] = this.sensor.driftGramsPerMinute * (2 * this.sensorRng.next() - 1);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The firmware: load cells

  protected override tare(cell: number | undefined, command: string): string {
    if (cell === undefined) {
      for (let c = 0; c < KALAHA_CELLS; c++) this.tares[c] = this.trueReading(c, this.scheduler.now) + this.tares[c];
    } else if (cell < KALAHA_CELLS) {
      this.tares[cell] = this.trueReading(cell, this.scheduler.now) + this.tares[cell];
    } else {
      return `ERR range cell must be 0-${KALAHA_CELLS - 1}`;
    }
    return `OK ${command}`;
  }

  protected override frameBody(seq: number, t: number): string {
    let body = `W ${seq}`;
    for (let c = 0; c < KALAHA_CELLS; c++) body += ` ${this.reading(c, t)}`;
    return body;
  }

  /** What cell `c` would read without noise or glitches, grams, after tare. */
  private trueReading(c: number, t: number): number {
    const press = this.pressUntil[c] > t ? this.pressGrams[c] : 0;
    // Adding 0 when no hand rests keeps every reading what it was before hands could rest.
    const rest = this.restUntil[c] > t ? this.restGrams[c] : 0;
    return this.grams[c] + press + rest + (this.drift[c] * (t - this.bootTime)) / 60_000 - this.tares[c];
  }

  /** One reading of cell `c` in tenths of a gram, as the firmware reports it. */
  private reading(c: number, t: number): number {
    const rng = this.sensorRng;
    if (rng.chance(this.sensor.glitchRate)) {
      // An HX711 that was not ready reads 0; a corrupted conversion reads anything.
      return rng.chance(0.5) ? 0 : rng.int(-99_999, 999_999);
    }
    const noise = this.sensor.noiseGrams > 0 ? this.sensor.noiseGrams * rng.gaussian() : 0;
    return Math.round((this.trueReading(c, t) + noise) * 10);
  }

  // -------------------------------------------------------------------------------------------
  // Inspection (tests, ground truth)

  /** Stones per cell. */
  counts(): number[] {
    return this.cells.map((c) => c.length);
  }

  /** Total grams of the stones in each cell (the load on each cell, hand and sensor effects left out). */
  cellGrams(): number[] {
    return Array.from(this.grams);
  }

  stonesIn(cell: number): readonly Stone[] {
    return this.cells[cell].slice();
  }

  /** Stones in the hands, off the table. */
  inHand(): readonly Stone[] {
    return [...this.held, ...this.otherHeld];
  }

  /** Stones on the table and in the hands: constant, whatever the script does. */
  totalStones(): number {
    return this.cells.reduce((n, c) => n + c.length, 0) + this.held.length + this.otherHeld.length;
  }

  /** One reading of every cell now, tenths of a gram (draws noise like a frame does). */
  readAll(): number[] {
    const t = this.scheduler.now;
    return Array.from({ length: KALAHA_CELLS }, (_, c) => this.reading(c, t));
  }

  // -------------------------------------------------------------------------------------------
  // The hand

  protected override act(action: TableAction): number {
    const h = this.hand;
    const rng = this.handRng;
    switch (action.kind) {
      case 'wait':
        return action.ms;
      case 'think':
        return this.thinkingMs(h, rng);
      case 'mark':
        this.reachMark(action.label);
        return 0;
      case 'lift': {
        const ms = action.ms ?? rng.range(h.liftMs[0], h.liftMs[1]);
        const { cell, count } = action;
        const hand = this.handOf(action.hand);
        // Fingers close around the stones before they leave the cell.
        this.at(ms * 0.6, () => this.take(cell, count, hand));
        return ms;
      }
      case 'drop': {
        const ms = action.ms ?? rng.range(h.perStoneMs[0], h.perStoneMs[1]);
        const hand = this.handOf(action.hand);
        this.at(ms * 0.5, () => this.land(action.cell, 1, undefined, hand));
        return action.overlap ? ms * 0.5 : ms;
      }
      case 'put': {
        const ms = action.ms ?? rng.range(h.putMs[0], h.putMs[1]);
        const hand = this.handOf(action.hand);
        this.at(ms * 0.5, () => this.land(action.cell, action.count ?? Infinity, undefined, hand));
        return action.overlap ? ms * 0.5 : ms;
      }
      case 'carry': {
        const ms = action.ms ?? rng.range(h.carryMs[0], h.carryMs[1]);
        // The stones carried are the ones lifted, whatever else the hand may hold.
        let carried: Stone[] = [];
        this.at(ms * 0.2, () => (carried = this.take(action.from, undefined)));
        this.at(ms * 0.8, () => this.land(action.to, Infinity, carried));
        return action.overlap ? ms * 0.8 : ms;
      }
      case 'press':
        this.press(action.cell, action.grams, this.scheduler.now + action.ms);
        return 0;
      case 'rest':
        if (this.checkCell(action.cell)) {
          this.restGrams[action.cell] = action.grams;
          this.restUntil[action.cell] = this.scheduler.now + action.ms;
        }
        return 0;
      default:
        return assertNever(action);
    }
  }

  private checkCell(cell: number): boolean {
    if (Number.isInteger(cell) && cell >= 0 && cell < KALAHA_CELLS) return true;
    this.faults++;
    return false;
  }

  private handOf(hand: TableHand | undefined): Stone[] {
    return hand === 'other' ? this.otherHeld : this.held;
  }

  /** Stones from a cell into the hand: all, or `count` picked at random. Returns the stones taken. */
  private take(cell: number, count: number | undefined, hand: Stone[] = this.held): Stone[] {
    if (!this.checkCell(cell)) return [];
    const stones = this.cells[cell];
    let n = count ?? stones.length;
    if (n > stones.length) {
      this.faults++;
      n = stones.length;
    }
    const taken: Stone[] = [];
    for (let i = 0; i < n; i++) taken.push(removeAt(stones, this.handRng.int(0, stones.length - 1)));
    hand.push(...taken);
    this.recount(cell);
    return taken;
  }

  /**
   * Stones from the hand land in a cell: `only` these (a carry), or up to `count` picked at random.
   * The hand may press on the cell as it lets go.
   */
  private land(cell: number, count: number, only?: readonly Stone[], hand: Stone[] = this.held): void {
    if (!this.checkCell(cell)) return;
    let n = 0;
    if (only) {
      for (const stone of only) {
        const i = hand.indexOf(stone);
        if (i < 0) continue;
        this.cells[cell].push(removeAt(hand, i));
        n++;
      }
    } else {
      if (hand.length === 0 || (count !== Infinity && count > hand.length)) this.faults++;
      n = Math.min(count, hand.length);
      for (let i = 0; i < n; i++) this.cells[cell].push(removeAt(hand, this.handRng.int(0, hand.length - 1)));
    }
    this.recount(cell);
    if (n > 0) this.onLand?.(cell, n, this.scheduler.now);
    const h = this.hand;
    if (n > 0 && this.handRng.chance(h.pressProbability)) {
      const frames = this.handRng.int(h.pressFrames[0], h.pressFrames[1]);
      this.press(cell, this.handRng.range(h.pressGrams[0], h.pressGrams[1]), this.scheduler.now + frames * this.framePeriodMs);
    }
  }

  private press(cell: number, grams: number, until: number): void {
    if (!this.checkCell(cell)) return;
    this.pressGrams[cell] = grams;
    this.pressUntil[cell] = until;
  }

  private recount(cell: number): void {
    let g = 0;
    for (const s of this.cells[cell]) g += s.grams;
    this.grams[cell] = g;
  }
}

function removeAt<T>(items: T[], i: number): T {
  const item = items[i];
  items[i] = items[items.length - 1];
  items.pop();
  return item;
}
