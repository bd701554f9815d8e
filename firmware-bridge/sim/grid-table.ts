// The simulated square board: pieces carrying beads on cols × rows squares that sense occupancy (reed switches) or count, a human hand, flickering sensors, and the firmware's line protocol.
// It knows physics, not rules: it performs a script of physical actions and reports what its squares sense.
import { MAX_LINE_BYTES, SENSE_KINDS, type ButtonName, type SenseKind } from '../protocol.ts';
import type { Scheduler } from './clock.ts';
import { SimulatedFirmware, assertNever, type CommonAction, type FirmwareOptions, type LineOut, type ThinkingModel } from './firmware.ts';
import { Random } from './random.ts';

/** The largest board a grid firmware drives (13 × 13: a Go teaching board). */
export const GRID_MAX_SIDE = 13;

/**
 * The most squares a counting board can report: a `C` frame must fit one protocol line, and with
 * one-digit counts each square takes two bytes (`C 4294967295 n0 n1 …*CS`). An 11 × 11 board
 * would exceed it; occupancy frames (one hex digit per four squares) fit every size.
 */
export const GRID_MAX_COUNT_CELLS = Math.floor((MAX_LINE_BYTES - '*CS'.length - 'C 4294967295'.length) / 2);

// ---------------------------------------------------------------------------------------------
// Models

/** The squares' sensors: reed or hall switches under each square (or a counter, on a counting board). */
export interface GridSensorModel {
  /** Chance per square per frame that a sensor reads the opposite for one frame (occupied ↔ empty). */
  readonly flickerRate: number;
  /** One square with a worn switch that now and then sticks in the wrong state; null for none. */
  readonly flakyCell: number | null;
  /** Chance per frame that the flaky square starts to misread. */
  readonly flakyRate: number;
  /** How many frames a misreading of the flaky square lasts, [min, max], uniform. */
  readonly flakyFrames: readonly [number, number];
  /**
   * How near, in squares, a passing piece's centre must be for a square to sense it. Above 0.5 a
   * sliding piece is sensed by both squares as it crosses between them; below, by neither.
   */
  readonly reach: number;
}

/** The human: how long things take. Ranges are [min, max], uniform. */
export interface GridHandModel extends ThinkingModel {
  readonly liftMs: readonly [number, number];
  readonly putMs: readonly [number, number];
  /** Lifting a piece, carrying it through the air and putting it down. */
  readonly carryMs: readonly [number, number];
  /** Sliding a piece along the board, per square travelled. */
  readonly slideMsPerSquare: readonly [number, number];
  /** Taking one bead off a piece or putting one on. */
  readonly beadMs: readonly [number, number];
}

export const DEFAULT_GRID_SENSOR: GridSensorModel = { flickerRate: 0, flakyCell: null, flakyRate: 0.02, flakyFrames: [1, 4], reach: 0.55 };

export const DEFAULT_GRID_HAND: GridHandModel = {
  thinkMs: [1200, 3500],
  pauseProbability: 0.05,
  pauseMs: [3000, 7000],
  liftMs: [300, 600],
  putMs: [300, 600],
  carryMs: [600, 1200],
  slideMsPerSquare: [150, 300],
  beadMs: [250, 500],
};

/** A piece as set on the board: its square, the beads it carries, and its colour (which player's, for whoever knows the rules). */
export interface GridPieceSpec {
  readonly cell: number;
  readonly beads: number;
  readonly colour?: string;
}

/** A piece beside the board (in its box): a game whose pieces come onto the board during play (Adu) takes them from here. */
export interface GridSpareSpec {
  readonly colour?: string;
  readonly beads?: number;
}

/** A piece as the board holds it. `cell` is null while the piece is in the hand (lifted, carried, sliding). */
export interface GridPiece {
  readonly id: number;
  readonly colour: string;
  readonly beads: number;
  readonly cell: number | null;
}

export interface GridTableOptions extends FirmwareOptions {
  /** Default 6 × 6; each from 1 to 13. */
  readonly cols?: number;
  readonly rows?: number;
  /** `occupancy` sends `G` frames; `count` sends `C` frames (0 empty, 1 + beads for a piece). Default occupancy. */
  readonly sense?: SenseKind;
  /** The pieces on the board at power-on; default none (the board knows no game). */
  readonly pieces?: readonly GridPieceSpec[];
  /** Beads in the box beside the board at power-on (beads put away during a game go there too). */
  readonly spareBeads?: number;
  /** Pieces beside the board at power-on (pieces put away during a game go there too); default none. */
  readonly sparePieces?: readonly GridSpareSpec[];
  readonly sensor?: Partial<GridSensorModel>;
  readonly hand?: Partial<GridHandModel>;
}

// ---------------------------------------------------------------------------------------------
// The script

export const GRID_ACTION_KINDS = [
  'wait',
  'think',
  'mark',
  'lift',
  'put',
  'carry',
  'slide',
  'take-beads',
  'add-beads',
  'stow-beads',
  'fetch-beads',
  'fetch-piece',
  'stow-piece',
  'button',
  'strip-beads',
  'hover',
  'line-gap',
] as const;
export type GridActionKind = (typeof GRID_ACTION_KINDS)[number];

/**
 * When a quick hand touches the board: its first touch `lead` ms after the action begins, and the
 * hand free for the next action `tail` ms after its last touch. Left out, each follows from the
 * action's duration (a lift takes the piece 60 % of the way through, a put lands halfway, …).
 */
export interface GridTouchTiming {
  readonly lead?: number;
  readonly tail?: number;
}

/** A physical action. Durations left out are drawn from the hand model. */
export type GridAction =
  | CommonAction
  /** Lift the piece on a square (with its beads) into the hand: the square reads empty from then on. */
  | ({ readonly kind: 'lift'; readonly cell: number; readonly ms?: number } & GridTouchTiming)
  /** Put a piece from the hand down on an empty square: the one lifted last, or the piece with id `piece`. */
  | ({ readonly kind: 'put'; readonly cell: number; readonly piece?: number; readonly ms?: number } & GridTouchTiming)
  /** Lift the piece on `from`, carry it through the air, put it down on `to`. */
  | ({ readonly kind: 'carry'; readonly from: number; readonly to: number; readonly ms?: number } & GridTouchTiming)
  /**
   * Slide the piece on `from` along the board to `to` (straight, or along the rank first and then
   * the file), never lifting it: each square passed senses it briefly.
   */
  | ({ readonly kind: 'slide'; readonly from: number; readonly to: number; readonly ms?: number } & GridTouchTiming)
  /** Take beads off the piece on a square into the hand, one by one (each `ms`, or drawn): all of them, or `count`. */
  | ({ readonly kind: 'take-beads'; readonly cell: number; readonly count?: number; readonly ms?: number } & GridTouchTiming)
  /** Put beads from the hand onto the piece on a square, one by one (each `ms`, or drawn; default one bead). */
  | ({ readonly kind: 'add-beads'; readonly cell: number; readonly count?: number; readonly ms?: number } & GridTouchTiming)
  /** Pull every bead off the piece in the hand lifted last, into the hand (the piece is off the board: no square senses it). */
  | { readonly kind: 'strip-beads'; readonly ms?: number }
  /**
   * The hand holding a piece passes low over an empty square for `ms`: its sensor reads the piece
   * meanwhile (the piece lifted last, or a bare piece when the hand holds none).
   */
  | { readonly kind: 'hover'; readonly cell: number; readonly ms: number }
  /** The line from the board is lost for `ms` (a loose cable): the board goes on, its lines do not arrive. Takes no time of the hand. */
  | { readonly kind: 'line-gap'; readonly ms: number }
  /** Put beads from the hand away into the box: all of them, or `count`. */
  | { readonly kind: 'stow-beads'; readonly count?: number; readonly ms?: number }
  /** Take beads from the box into the hand. */
  | { readonly kind: 'fetch-beads'; readonly count: number; readonly ms?: number }
  /** Take a piece from beside the board into the hand: the first there of `colour`, or the first of any colour. */
  | { readonly kind: 'fetch-piece'; readonly colour?: string; readonly ms?: number }
  /** Put a piece from the hand away beside the board: the one lifted last, or the piece with id `piece`. */
  | { readonly kind: 'stow-piece'; readonly piece?: number; readonly ms?: number }
  /** Press a button on the board (`BTN <name>`). */
  | { readonly kind: 'button'; readonly name: ButtonName };

interface HeldPiece {
  readonly id: number;
  readonly colour: string;
  beads: number;
}

/** A piece under the hand, moving along the board: sensed near its centre, which moves at a steady pace. */
interface Slide {
  readonly piece: HeldPiece;
  readonly path: readonly number[];
  readonly start: number;
  readonly ms: number;
}

/** The squares from `from` to `to`, both included: straight, or along the rank first, then along the file. */
export function slidePath(from: number, to: number, cols: number): number[] {
  const path = [from];
  let row = Math.floor(from / cols);
  let col = from % cols;
  const toRow = Math.floor(to / cols);
  const toCol = to % cols;
  while (col !== toCol) {
    col += Math.sign(toCol - col);
    path.push(row * cols + col);
  }
  while (row !== toRow) {
    row += Math.sign(toRow - row);
    path.push(row * cols + col);
  }
  return path;
}

const HEX = '0123456789ABCDEF';

/**
 * The physical model. Each square holds at most one piece, each piece carries beads; the hand
 * holds pieces and beads off the board, and a box beside the board holds spare beads. A square's
 * sensor reads what rests on it, a piece sliding past it, and now and then a flicker.
 */
export class GridTable extends SimulatedFirmware<GridAction> {
  readonly cols: number;
  readonly rows: number;
  readonly sense: SenseKind;
  readonly sensor: GridSensorModel;
  readonly hand: GridHandModel;

  private readonly squares: (HeldPiece | null)[];
  private readonly heldPieces: HeldPiece[] = [];
  /** Pieces beside the board, in the order they were put there. */
  private readonly sparePieceBox: HeldPiece[] = [];
  private heldBeads = 0;
  private boxBeads: number;
  private slide: Slide | null = null;
  /** A square the hand hovers over, and what it reads meanwhile; null for none. */
  private hovering: { readonly cell: number; readonly reading: number } | null = null;
  /** Until when the line loses whatever the board sends (virtual ms). */
  private lineLostUntil = -Infinity;
  /** When what rests on the squares last changed (a piece lifted or set down, a bead moved). */
  private lastChangeAt = 0;
  /** For each mark reached, when what rests on the squares had last changed. */
  private readonly settledAtMark = new Map<string, number>();
  /** What each square senses without flicker: 0 empty, 1 + beads for a piece; kept current so a frame reads it, not the pieces. */
  private readonly resting: Int32Array;
  /** One frame's readings, reused (a frame comes twenty times a second). */
  private readonly frame: Int32Array;
  private flakyLeft = 0;
  private readonly sensorRng: Random;
  private readonly handRng: Random;

  constructor(scheduler: Scheduler, options: GridTableOptions, out: LineOut) {
    const cols = options.cols ?? 6;
    const rows = options.rows ?? 6;
    const sense = options.sense ?? 'occupancy';
    for (const [name, n] of [['cols', cols], ['rows', rows]] as const) {
      if (!Number.isInteger(n) || n < 1 || n > GRID_MAX_SIDE) throw new RangeError(`a grid board has 1-${GRID_MAX_SIDE} ${name}, not ${n}`);
    }
    if (!(SENSE_KINDS as readonly string[]).includes(sense)) throw new RangeError(`sense must be ${SENSE_KINDS.join(' or ')}, not ${String(sense)}`);
    const cells = cols * rows;
    if (sense === 'count' && cells > GRID_MAX_COUNT_CELLS) {
      throw new RangeError(`a counting board of ${cells} squares cannot send its counts in one line (at most ${GRID_MAX_COUNT_CELLS} squares)`);
    }
    super(scheduler, options, out, { board: 'grid', cells, shape: `cols=${cols} rows=${rows} sense=${sense}`, noun: 'board' });
    this.cols = cols;
    this.rows = rows;
    this.sense = sense;
    const root = new Random(options.seed);
    this.sensorRng = root.fork('sensor');
    this.handRng = root.fork('hand');
    this.sensor = { ...DEFAULT_GRID_SENSOR, ...options.sensor };
    this.hand = { ...DEFAULT_GRID_HAND, ...options.hand };
    const flaky = this.sensor.flakyCell;
    if (flaky !== null && !(Number.isInteger(flaky) && flaky >= 0 && flaky < cells)) throw new RangeError(`flakyCell ${flaky} is not a square of the board`);
    this.squares = new Array<HeldPiece | null>(cells).fill(null);
    this.resting = new Int32Array(cells);
    this.frame = new Int32Array(cells);
    this.boxBeads = options.spareBeads ?? 0;
    if (!Number.isInteger(this.boxBeads) || this.boxBeads < 0) throw new RangeError(`spareBeads must be a whole number, not ${this.boxBeads}`);
    let id = 0;
    for (const spec of options.pieces ?? []) {
      if (!Number.isInteger(spec.cell) || spec.cell < 0 || spec.cell >= cells) throw new RangeError(`square ${spec.cell} is not on the board`);
      if (this.squares[spec.cell] !== null) throw new RangeError(`two pieces on square ${spec.cell}`);
      if (!Number.isInteger(spec.beads) || spec.beads < 0) throw new RangeError(`a piece carries a whole number of beads, not ${spec.beads}`);
      this.squares[spec.cell] = { id: id++, colour: spec.colour ?? 'plain', beads: spec.beads };
      this.resense(spec.cell);
    }
    for (const spec of options.sparePieces ?? []) {
      const beads = spec.beads ?? 0;
      if (!Number.isInteger(beads) || beads < 0) throw new RangeError(`a piece carries a whole number of beads, not ${beads}`);
      this.sparePieceBox.push({ id: id++, colour: spec.colour ?? 'plain', beads });
    }
  }

  // -------------------------------------------------------------------------------------------
  // The firmware: one switch (or counter) per square

  /** Reed switches have nothing to zero. */
  protected override tare(): string {
    return 'ERR unsupported no load cells on this board';
  }

  protected override frameBody(seq: number, t: number): string {
    this.scan(t, this.frame);
    const f = this.frame;
    if (this.sense === 'count') {
      let body = `C ${seq}`;
      for (let i = 0; i < f.length; i++) body += ` ${f[i]}`;
      // Counts of two digits on many squares (a heap of beads) would not fit a line; the firmware reports that instead.
      return body.length + 3 <= MAX_LINE_BYTES ? body : 'ERR overflow counts do not fit one line';
    }
    // Bit i is square i: the last hex digit holds squares 0-3, the first the highest squares.
    let hex = '';
    for (let d = Math.ceil(f.length / 4) - 1; d >= 0; d--) {
      let nibble = 0;
      for (let b = 3; b >= 0; b--) {
        const i = d * 4 + b;
        nibble = (nibble << 1) | (i < f.length && f[i] > 0 ? 1 : 0);
      }
      hex += HEX[nibble];
    }
    return `G ${seq} ${hex}`;
  }

  /** One reading of every square at `t` into `out`: what rests there, a piece sliding past, flicker. */
  private scan(t: number, out: Int32Array): void {
    out.set(this.resting);
    const slide = this.slide;
    if (slide !== null) {
      const last = slide.path.length - 1;
      const at = slide.ms > 0 ? (Math.min(Math.max(t - slide.start, 0), slide.ms) / slide.ms) * last : last;
      for (let k = 0; k <= last; k++) {
        if (Math.abs(at - k) <= this.sensor.reach) out[slide.path[k]] = 1 + slide.piece.beads;
      }
    }
    const hovering = this.hovering;
    if (hovering !== null && out[hovering.cell] === 0) out[hovering.cell] = hovering.reading;
    const rng = this.sensorRng;
    const flicker = this.sensor.flickerRate;
    if (flicker > 0) {
      for (let i = 0; i < out.length; i++) if (rng.chance(flicker)) out[i] = flipped(out[i]);
    }
    const flaky = this.sensor.flakyCell;
    if (flaky !== null) {
      if (this.flakyLeft === 0 && rng.chance(this.sensor.flakyRate)) {
        this.flakyLeft = rng.int(this.sensor.flakyFrames[0], this.sensor.flakyFrames[1]);
      }
      if (this.flakyLeft > 0) {
        this.flakyLeft--;
        out[flaky] = flipped(out[flaky]);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Inspection (tests, ground truth)

  /** 1 where a piece rests, 0 where none (a piece in the hand or sliding rests nowhere). */
  occupancy(): number[] {
    return Array.from(this.resting, (n) => (n > 0 ? 1 : 0));
  }

  /** What a counting square reads of what rests on it: 0 for empty, 1 + beads for a piece. */
  counts(): number[] {
    return Array.from(this.resting);
  }

  /** What the sensors read when still: `counts()` on a counting board, `occupancy()` on the other. */
  sensed(): number[] {
    return this.sense === 'count' ? this.counts() : this.occupancy();
  }

  /** Every piece, on the board (in square order) and then in the hand. */
  pieces(): GridPiece[] {
    const out: GridPiece[] = [];
    this.squares.forEach((p, cell) => {
      if (p !== null) out.push({ id: p.id, colour: p.colour, beads: p.beads, cell });
    });
    for (const p of this.heldPieces) out.push({ id: p.id, colour: p.colour, beads: p.beads, cell: null });
    return out;
  }

  /** The pieces beside the board (cell null), in the order they were put there. */
  sparePieces(): GridPiece[] {
    return this.sparePieceBox.map((p) => ({ id: p.id, colour: p.colour, beads: p.beads, cell: null }));
  }

  /** What the hand holds: pieces (a sliding one included) and loose beads. */
  inHand(): { readonly pieces: number; readonly beads: number } {
    return { pieces: this.heldPieces.length, beads: this.heldBeads };
  }

  /** Beads in the box beside the board. */
  get spareBeads(): number {
    return this.boxBeads;
  }

  /** Pieces on the board, in the hand and beside the board: constant, whatever the script does. */
  totalPieces(): number {
    return this.pieces().length + this.sparePieceBox.length;
  }

  /** Beads on pieces, in the hand and in the box: constant, whatever the script does. */
  totalBeads(): number {
    return this.pieces().reduce((n, p) => n + p.beads, 0) + this.heldBeads + this.boxBeads;
  }

  /** When what rests on the squares had last changed as the mark `label` was reached (undefined for a mark not reached). */
  settledAt(label: string): number | undefined {
    return this.settledAtMark.get(label);
  }

  /** One reading of every square now, as a frame would read it (draws flicker like a frame does). */
  readAll(): number[] {
    const out = new Int32Array(this.squares.length);
    this.scan(this.scheduler.now, out);
    return Array.from(out);
  }

  // -------------------------------------------------------------------------------------------
  // The hand

  protected override act(action: GridAction): number {
    const h = this.hand;
    const rng = this.handRng;
    switch (action.kind) {
      case 'wait':
        return action.ms;
      case 'think':
        return this.thinkingMs(h, rng);
      case 'mark':
        this.settledAtMark.set(action.label, this.lastChangeAt);
        this.reachMark(action.label);
        return 0;
      case 'lift': {
        const ms = action.ms ?? rng.range(h.liftMs[0], h.liftMs[1]);
        // Fingers close around the piece before it leaves the square.
        const touch = action.lead ?? ms * 0.6;
        this.at(touch, () => this.take(action.cell));
        // (Without lead or tail, exactly `ms`: a sum of fractions could round otherwise.)
        return action.lead === undefined && action.tail === undefined ? ms : touch + (action.tail ?? ms * 0.4);
      }
      case 'put': {
        const ms = action.ms ?? rng.range(h.putMs[0], h.putMs[1]);
        const touch = action.lead ?? ms * 0.5;
        this.at(touch, () => this.land(action.cell, action.piece));
        return touch + (action.tail ?? ms * 0.5);
      }
      case 'carry': {
        const ms = action.ms ?? rng.range(h.carryMs[0], h.carryMs[1]);
        // The piece put down is the one lifted, whatever else the hand may hold.
        let carried: HeldPiece | null = null;
        const lift = action.lead ?? ms * 0.2;
        const land = action.lead === undefined ? ms * 0.8 : lift + ms * 0.6;
        this.at(lift, () => (carried = this.take(action.from)));
        this.at(land, () => {
          if (carried !== null) this.land(action.to, carried.id);
        });
        return action.lead === undefined && action.tail === undefined ? ms : land + (action.tail ?? ms * 0.2);
      }
      case 'slide':
        return this.startSlide(action.from, action.to, action.ms, action);
      case 'take-beads': {
        const piece = this.pieceOn(action.cell);
        const n = action.count ?? piece?.beads ?? 0;
        return this.beadByBead(n, () => this.moveBead(action.cell, 'off'), action);
      }
      case 'add-beads':
        return this.beadByBead(action.count ?? 1, () => this.moveBead(action.cell, 'on'), action);
      case 'strip-beads': {
        const piece = this.heldPieces.at(-1);
        if (piece === undefined) this.faults++;
        else {
          this.heldBeads += piece.beads;
          piece.beads = 0;
        }
        return action.ms ?? rng.range(h.beadMs[0], h.beadMs[1]);
      }
      case 'hover': {
        if (!this.checkCell(action.cell)) return 0;
        const held = this.heldPieces.at(-1);
        this.hovering = { cell: action.cell, reading: 1 + (held?.beads ?? 0) };
        this.at(action.ms, () => (this.hovering = null));
        return action.ms;
      }
      case 'line-gap':
        this.lineLostUntil = Math.max(this.lineLostUntil, this.scheduler.now + action.ms);
        return 0;
      case 'stow-beads': {
        const n = action.count ?? this.heldBeads;
        if (n > this.heldBeads) this.faults++;
        const moved = Math.min(n, this.heldBeads);
        this.heldBeads -= moved;
        this.boxBeads += moved;
        return action.ms ?? rng.range(h.beadMs[0], h.beadMs[1]);
      }
      case 'fetch-beads': {
        if (action.count > this.boxBeads) this.faults++;
        const moved = Math.min(action.count, this.boxBeads);
        this.boxBeads -= moved;
        this.heldBeads += moved;
        return action.ms ?? rng.range(h.beadMs[0], h.beadMs[1]);
      }
      case 'fetch-piece': {
        const i = this.sparePieceBox.findIndex((p) => action.colour === undefined || p.colour === action.colour);
        if (i < 0) this.faults++;
        else this.heldPieces.push(this.sparePieceBox.splice(i, 1)[0]);
        return action.ms ?? rng.range(h.liftMs[0], h.liftMs[1]);
      }
      case 'stow-piece': {
        const i = action.piece === undefined ? this.heldPieces.length - 1 : this.heldPieces.findIndex((p) => p.id === action.piece);
        if (i < 0) this.faults++;
        else this.sparePieceBox.push(this.heldPieces.splice(i, 1)[0]);
        return action.ms ?? rng.range(h.putMs[0], h.putMs[1]);
      }
      case 'button':
        this.sendSoon(`BTN ${action.name}`);
        return rng.range(h.putMs[0], h.putMs[1]);
      default:
        return assertNever(action);
    }
  }

  /** `n` beads one after another, each landing halfway through its own time (`timing.ms` each, or drawn). */
  private beadByBead(n: number, move: () => void, timing: GridTouchTiming & { readonly ms?: number }): number {
    const h = this.hand;
    const times: number[] = [];
    let ms = 0;
    for (let i = 0; i < n; i++) {
      const per = timing.ms ?? this.handRng.range(h.beadMs[0], h.beadMs[1]);
      times.push(ms + per * 0.5);
      ms += per;
    }
    if (n === 0) return ms;
    // A quick hand: the first bead `lead` in, the hand free `tail` after the last.
    const shift = timing.lead === undefined ? 0 : timing.lead - times[0];
    for (const t of times) this.at(t + shift, move);
    return timing.tail === undefined ? ms + shift : times[n - 1] + shift + timing.tail;
  }

  private checkCell(cell: number): boolean {
    if (Number.isInteger(cell) && cell >= 0 && cell < this.squares.length) return true;
    this.faults++;
    return false;
  }

  private pieceOn(cell: number): HeldPiece | null {
    return Number.isInteger(cell) && cell >= 0 && cell < this.squares.length ? this.squares[cell] : null;
  }

  /** The piece on a square into the hand; null (and a fault) when there is none. */
  private take(cell: number): HeldPiece | null {
    if (!this.checkCell(cell)) return null;
    const piece = this.squares[cell];
    if (piece === null) {
      this.faults++;
      return null;
    }
    this.squares[cell] = null;
    this.heldPieces.push(piece);
    this.resense(cell);
    return piece;
  }

  /** A piece from the hand onto an empty square: `id`, or the one lifted last. */
  private land(cell: number, id: number | undefined): void {
    if (!this.checkCell(cell)) return;
    const i = id === undefined ? this.heldPieces.length - 1 : this.heldPieces.findIndex((p) => p.id === id);
    // Nothing to put, or a piece already there: a piece cannot stand on another.
    if (i < 0 || this.squares[cell] !== null) {
      this.faults++;
      return;
    }
    this.squares[cell] = this.heldPieces.splice(i, 1)[0];
    this.resense(cell);
  }

  /** One bead off the piece on a square into the hand, or from the hand onto it. */
  private moveBead(cell: number, way: 'on' | 'off'): void {
    if (!this.checkCell(cell)) return;
    const piece = this.squares[cell];
    if (piece === null || (way === 'off' ? piece.beads === 0 : this.heldBeads === 0)) {
      this.faults++;
      return;
    }
    piece.beads += way === 'on' ? 1 : -1;
    this.heldBeads += way === 'on' ? -1 : 1;
    this.resense(cell);
  }

  /** A slide: the fingers settle on the piece, it travels at a steady pace, the fingers let go. Returns the duration. */
  private startSlide(from: number, to: number, ms: number | undefined, timing: GridTouchTiming): number {
    if (!this.checkCell(from) || !this.checkCell(to)) return 0;
    const h = this.hand;
    const rng = this.handRng;
    const path = slidePath(from, to, this.cols);
    const squaresTravelled = path.length - 1;
    if (ms !== undefined) return this.slideNow(path, timing.lead ?? ms * 0.15, ms * 0.7) + (timing.tail ?? ms * 0.15);
    const grip = rng.range(h.liftMs[0], h.liftMs[1]) * 0.3;
    let travel = 0;
    for (let k = 0; k < squaresTravelled; k++) travel += rng.range(h.slideMsPerSquare[0], h.slideMsPerSquare[1]);
    const release = rng.range(h.putMs[0], h.putMs[1]) * 0.3;
    return this.slideNow(path, timing.lead ?? grip, travel) + (timing.tail ?? release);
  }

  /** Schedules the slide along `path`, starting `grip` ms from now and lasting `travel` ms; returns when the piece rests. */
  private slideNow(path: readonly number[], grip: number, travel: number): number {
    const from = path[0];
    const to = path[path.length - 1];
    this.at(grip, () => {
      const piece = this.squares[from];
      // A piece slides only from a square that holds one, onto an empty square (or back to where it was).
      if (piece === null || (to !== from && this.squares[to] !== null) || this.slide !== null) {
        this.faults++;
        return;
      }
      // Sliding through another piece is not possible; the hand lifts over it, so the slide goes on, counted.
      for (let k = 1; k < path.length - 1; k++) if (this.squares[path[k]] !== null) this.faults++;
      this.squares[from] = null;
      this.heldPieces.push(piece);
      this.resense(from);
      this.slide = { piece, path, start: this.scheduler.now, ms: Math.round(travel) };
      this.at(travel, () => {
        this.slide = null;
        const i = this.heldPieces.indexOf(piece);
        if (i >= 0) this.heldPieces.splice(i, 1);
        if (this.squares[to] !== null) {
          // Someone put a piece there meanwhile: this one stays in the hand.
          this.faults++;
          this.heldPieces.push(piece);
          return;
        }
        this.squares[to] = piece;
        this.resense(to);
      });
    });
    return grip + travel;
  }

  private resense(cell: number): void {
    const piece = this.squares[cell];
    this.resting[cell] = piece === null ? 0 : 1 + piece.beads;
    this.lastChangeAt = this.scheduler.now;
  }

  /** A lost line loses everything the board sends meanwhile; the board itself goes on (its frames keep counting). */
  protected override send(body: string): void {
    if (this.scheduler.now < this.lineLostUntil) return;
    super.send(body);
  }
}

/** A sensor misreading once: an occupied square reads empty, an empty one reads a bare piece. */
function flipped(reading: number): number {
  return reading > 0 ? 0 : 1;
}
