// A small physical weighing table for referee tests: individual stones, a hand, noise, glitches.
// Independent of the simulated board in firmware-bridge on purpose: two models, one referee.
import { initial, observe, play, type KalahaMove, type KalahaState } from '../../server/rules/kalaha.ts';
import { mulberry32 as rng } from '../support/prng.ts';

export { rng };

export interface Frame {
  readonly t: number;
  readonly tenths: number[];
}


export interface TableOptions {
  readonly seed?: number;
  readonly seedsPerPit?: number;
  /** Weight of each stone, grams; default: a mixed set from 1 g to 10 g. */
  readonly stone?: (random: () => number) => number;
  readonly noise?: number;
  readonly glitchRate?: number;
  /** Load-cell drift, grams per minute, the same on every cell. */
  readonly drift?: number;
}

export class Table {
  readonly cells: number[][] = Array.from({ length: 14 }, () => []);
  hand: number[] = [];
  t = 0;
  readonly frames: Frame[] = [];
  private readonly press = new Array<number>(14).fill(0);
  readonly random: () => number;
  private readonly noise: number;
  private readonly glitchRate: number;
  private readonly drift: number;

  constructor(options: TableOptions = {}) {
    this.random = rng(options.seed ?? 1);
    this.noise = options.noise ?? 0.1;
    this.glitchRate = options.glitchRate ?? 0;
    this.drift = options.drift ?? 0;
    const stone = options.stone ?? ((r) => 1 + 9 * r());
    const seeds = options.seedsPerPit ?? 4;
    for (let pit = 0; pit < 12; pit++) for (let k = 0; k < seeds; k++) this.cells[pit].push(Math.round(stone(this.random) * 10) / 10);
  }

  private gauss(): number {
    return Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
  }

  counts(): number[] {
    return this.cells.map((c) => c.length);
  }

  /** Let time pass, sending a frame every 50 ms. */
  wait(ms: number): this {
    for (let end = this.t + ms; this.t < end; this.t += 50) {
      const tenths = this.cells.map((stones, i) => {
        const grams = stones.reduce((s, w) => s + w, 0) + this.press[i] + this.gauss() * this.noise + (this.drift * this.t) / 60_000;
        return Math.round(grams * 10);
      });
      if (this.random() < this.glitchRate) tenths[Math.floor(this.random() * 14)] = Math.round(this.random() * 3000);
      this.frames.push({ t: this.t, tenths, counts: this.counts(), hand: this.hand.length } as Frame);
    }
    return this;
  }

  lift(cell: number, count = this.cells[cell].length): this {
    for (let k = 0; k < count; k++) {
      const at = Math.floor(this.random() * this.cells[cell].length);
      this.hand.push(...this.cells[cell].splice(at, 1));
    }
    return this.wait(250);
  }

  drop(cell: number): this {
    this.press[cell] = 3 + 4 * this.random();
    this.cells[cell].push(this.hand.shift() as number);
    this.wait(100);
    this.press[cell] = 0;
    return this.wait(200);
  }

  /** Sow a pit as a person does: lift everything, drop one stone at a time. */
  sow(pit: number, skipOrigin = true): this {
    const stones = this.cells[pit].length;
    this.lift(pit);
    let at = pit;
    for (let k = 0; k < stones; k++) {
      at = (at + 1) % 12;
      if (at === pit && skipOrigin) at = (at + 1) % 12;
      this.drop(at);
    }
    return this;
  }

  /** Carry stones from cells that hold too many to cells that hold too few, a handful at a time. */
  settleTo(target: readonly number[]): this {
    for (let from = 0; from < 14; from++) {
      while (this.cells[from].length > target[from]) {
        const short = (i: number) => i !== from && this.cells[i].length < target[i];
        // A pit's stones go to its owner's store unless only the other store is short (a capture).
        const own = from < 6 ? 12 : 13;
        const to = from < 12 && short(own) ? own : from < 12 && short(25 - own) ? 25 - own : this.cells.findIndex((_, i) => short(i));
        if (to < 0) throw new Error('counts do not balance');
        const n = Math.min(this.cells[from].length - target[from], target[to] - this.cells[to].length);
        this.lift(from, n);
        for (let k = 0; k < n; k++) this.drop(to);
      }
    }
    return this;
  }
}

/** Play a legal move physically: sow, then carry captures and the final sweep as the engine says. */
export function playOn(table: Table, state: KalahaState, move: KalahaMove): KalahaState {
  const next = play(state, move);
  if (!next.ok) throw new Error(next.error.message);
  table.sow(move.pit, state.options.skipOrigin).wait(700);
  table.settleTo(observe(next.value)).wait(1500);
  return next.value;
}

export function start(options: TableOptions = {}): { table: Table; state: KalahaState } {
  const table = new Table(options);
  table.wait(1500);
  return { table, state: initial({ seedsPerPit: options.seedsPerPit ?? 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 }) };
}

/**
 * Play a legal move the way quick hands do: sow and carry at once, the next move begun as soon as
 * the last stone is down (the board is still only for the drop's own 200 ms), or after `pauseMs`.
 */
export function playQuick(table: Table, state: KalahaState, move: KalahaMove, pauseMs = 0): KalahaState {
  const next = play(state, move);
  if (!next.ok) throw new Error(next.error.message);
  table.sow(move.pit, state.options.skipOrigin);
  table.settleTo(observe(next.value));
  if (pauseMs) table.wait(pauseMs);
  return next.value;
}
