// What every game's simulated players share: marks that time the script, take-backs as plan events, comparing what sensors read, a piece's way along a line, and how the people at a square board behave beyond their moves.
import { Random, type GridAction } from '../../firmware-bridge/index.ts';
import { peopleWith, type PeopleModel } from './people.ts';
/** The players take back moves: the mark their hands start at, and the moves undone, last first. */
export interface TakeBackPlanEvent {
  readonly kind: 'take-back';
  readonly label: string;
  readonly moves: readonly string[];
}

/**
 * Marks in a script: each call puts a `mark` with a label of its own (`<kind>-<n>`) into
 * `actions` and returns the label, so the generator can tell when the board reached it.
 */
export function scriptMarks(actions: { push(mark: { readonly kind: 'mark'; readonly label: string }): unknown }): (kind: string) => string {
  let labels = 0;
  return (kind) => {
    const label = `${kind}-${++labels}`;
    actions.push({ kind: 'mark', label });
    return label;
  };
}

/** Whether two readings of a board's cells are the same. */
export function sameCells(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether every square strictly between `from` and `to`, on one rank or file of an `n` × `n` board, is empty (a piece slides only over empty squares). */
export function clearLine(squares: readonly unknown[], from: number, to: number, n: number): boolean {
  const dRow = Math.floor(to / n) - Math.floor(from / n);
  const dCol = (to % n) - (from % n);
  if (dRow !== 0 && dCol !== 0) return false;
  const step = Math.sign(dRow) * n + Math.sign(dCol);
  for (let sq = from + step; sq !== to; sq += step) if (squares[sq] !== null) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// People at a square board (people.ts): what their hands do beyond the moves

export const PEOPLE_BEHAVIOURS = [
  'quick-start',
  'brief-pause',
  'line-gap',
  'victim-off',
  'both-hands',
  'beside-victim',
  'corrected-placement',
  'hover',
  'hand-rest',
  'knights-one-by-one',
  'knight-corrected',
  'reset-beside',
] as const;
/**
 * What people did at the board beyond their moves: the next move started while the last piece was
 * barely down (`quick-start`), after a still board of only `pauseMs` (`brief-pause`); lines lost;
 * a captured piece off the board only briefly; both hands at once; a captor set down beside its
 * victim and then swapped in; a piece set down and moved on within half a second; a square hovered
 * over; a hand holding a piece for seconds; Makis: knights one step at a time in any order, a
 * knight one row off and corrected, a Maki sent back set down beside its square and corrected.
 */
export type PeopleBehaviour = (typeof PEOPLE_BEHAVIOURS)[number];

/** One such thing, tied to the `mark` where it begins. */
export interface PeoplePlanEvent {
  readonly behaviour: PeopleBehaviour;
  readonly label: string;
  /** The ply of the record the hands were making (1-based). */
  readonly ply: number;
  /**
   * The squares it concerns, in the board's cell order: the victim's (`victim-off`); the pieces
   * moved together (`both-hands`); the point beside, then the victim's (`beside-victim`); the wrong
   * square, then the right one (`corrected-placement`, `knight-corrected`, `reset-beside`); the
   * square hovered over; the knights moved (`knights-one-by-one`).
   */
  readonly cells: readonly number[];
  /**
   * How long, as planned: the still board before the move (`quick-start`: from the last piece set
   * down to the next touch; `brief-pause`), the lines lost, the victim off the board, the piece on
   * the wrong square, the square hovered over, the hand resting; null where no time is meant.
   */
  readonly ms: number | null;
}

/** Actions in which the hand touches the board (a square's reading changes). */
const TOUCHING: ReadonlySet<string> = new Set(['lift', 'put', 'carry', 'slide', 'take-beads', 'add-beads']);
/** Actions off the board that a quick hand does in no time (the other hand is at the box meanwhile). */
const OFF_BOARD: ReadonlySet<string> = new Set(['fetch-piece', 'stow-piece', 'stow-beads', 'fetch-beads', 'strip-beads']);

/**
 * The people at a square board, for one planned game: their own randomness (the players' choices
 * stay those of calm people with the same seed), what they did (`events`), and the quick starts
 * and brief pauses, whose timing is settled once the whole script is written (`finish`).
 */
export class PeoplePlanner {
  readonly model: PeopleModel;
  readonly events: PeoplePlanEvent[] = [];
  private readonly rng: Random;
  /** Moves started quickly in a row so far. */
  private run = 0;
  /** Turns begun without thinking: where the placeholder stands, and the still board meant. */
  private readonly pending: { index: number; gap: number; event: PeoplePlanEvent }[] = [];

  constructor(
    people: Partial<PeopleModel>,
    seed: number | string,
    private readonly actions: GridAction[],
    private readonly mark: (kind: string) => string,
  ) {
    this.model = peopleWith(people);
    this.rng = new Random(seed).fork('people');
  }

  chance(p: number): boolean {
    return this.rng.chance(p);
  }

  range(range: readonly [number, number]): number {
    return Math.round(this.rng.range(range[0], range[1]));
  }

  pick<T>(items: readonly T[]): T {
    return this.rng.pick(items);
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.rng.int(0, i);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** Marks where a behaviour begins and notes it. */
  note(behaviour: PeopleBehaviour, ply: number, cells: readonly number[], ms: number | null): PeoplePlanEvent {
    const event: PeoplePlanEvent = { behaviour, label: this.mark(behaviour), ply, cells, ms };
    this.events.push(event);
    return event;
  }

  /**
   * The start of a turn (where calm people think): a quick start, a brief pause, or thinking; and
   * now and then the line lost as the hands begin.
   */
  turn(ply: number): void {
    const m = this.model;
    // A slide's last moment is not seen (the square it ends on senses it before it rests): a move
    // ended by one is followed by a still board a quick hand cannot shorten as planned.
    const last = this.lastTouch(this.actions.length);
    const eligible = last !== null && this.actions[last].kind !== 'slide';
    if (eligible && this.run < m.quickRun && this.chance(m.quickStart)) {
      this.run++;
      this.begin('quick-start', ply, this.range(m.quickStartMs));
    } else {
      this.run = 0;
      // A turn not begun quickly sometimes follows a still board of only `pauseMs`.
      if (eligible && this.chance(m.shortPause)) this.begin('brief-pause', ply, m.pauseMs + this.range([0, 50]));
      else this.actions.push({ kind: 'think' });
    }
    if (this.chance(m.lineGap)) {
      const ms = this.range(m.lineGapMs);
      this.note('line-gap', ply, [], ms);
      this.actions.push({ kind: 'line-gap', ms });
    }
  }

  /**
   * Whether the hand may slide the piece it moves next: not as the first touch of a turn begun
   * quickly or after a brief pause (a slide is seen only once the piece has left its square).
   */
  slideAllowed(): boolean {
    const last = this.pending.at(-1);
    if (last === undefined) return true;
    for (let i = last.index + 1; i < this.actions.length; i++) if (TOUCHING.has(this.actions[i].kind)) return true;
    return false;
  }

  /** The turn just begun makes no move of the hand (a pass): the player thought after all. */
  cancelTurn(): void {
    const last = this.pending.at(-1);
    if (last === undefined || last.index !== this.lastPlaceholder()) return;
    this.revert(last);
  }

  /**
   * Settles the timing of every quick start and brief pause: the last piece of the move before is
   * let go `tail` ms before, the first touch of the next comes `lead` ms after, what the hand does
   * off the board between takes no time. Call once the script is complete.
   */
  finish(): void {
    for (const p of this.pending.slice()) {
      const j = this.lastTouch(p.index);
      const k = this.firstTouch(p.index);
      if (j === null || k === null) {
        this.revert(p);
        continue;
      }
      for (let i = j + 1; i < k; i++) {
        const a = this.actions[i];
        if (OFF_BOARD.has(a.kind)) this.actions[i] = { ...a, ms: 0 } as GridAction;
      }
      const tail = Math.min(60, p.gap * this.rng.range(0.25, 0.45));
      const lead = Math.min(60, p.gap * this.rng.range(0.25, 0.45));
      this.actions[j] = { ...this.actions[j], tail } as GridAction;
      this.actions[k] = { ...this.actions[k], lead } as GridAction;
      this.actions[p.index] = { kind: 'wait', ms: p.gap - tail - lead };
    }
    this.pending.length = 0;
  }

  private begin(behaviour: 'quick-start' | 'brief-pause', ply: number, gap: number): void {
    const event = this.note(behaviour, ply, [], gap);
    this.pending.push({ index: this.actions.length, gap, event });
    this.actions.push({ kind: 'wait', ms: 0 });
  }

  private revert(p: { index: number; event: PeoplePlanEvent }): void {
    this.actions[p.index] = { kind: 'think' };
    this.pending.splice(this.pending.indexOf(p as (typeof this.pending)[number]), 1);
    this.events.splice(this.events.indexOf(p.event), 1);
    this.run = 0;
  }

  /** The index of the last placeholder of a turn begun without thinking, if the script has gone on only by marks since. */
  private lastPlaceholder(): number {
    for (let i = this.actions.length - 1; i >= 0; i--) {
      const a = this.actions[i];
      if (a.kind === 'mark' || a.kind === 'line-gap') continue;
      return a.kind === 'wait' && a.ms === 0 ? i : -1;
    }
    return -1;
  }

  /** The last action before `before` that touched the board, when only what takes no time (or can be done in none) came after it. */
  private lastTouch(before: number): number | null {
    for (let i = before - 1; i >= 0; i--) {
      const a = this.actions[i];
      if (TOUCHING.has(a.kind)) return i;
      if (a.kind === 'mark' || a.kind === 'line-gap' || OFF_BOARD.has(a.kind)) continue;
      return null;
    }
    return null;
  }

  /** The first action after `after` that touches the board, when only what takes no time (or can be done in none) comes before it. */
  private firstTouch(after: number): number | null {
    for (let i = after + 1; i < this.actions.length; i++) {
      const a = this.actions[i];
      if (TOUCHING.has(a.kind)) return i;
      if (a.kind === 'mark' || a.kind === 'line-gap' || OFF_BOARD.has(a.kind)) continue;
      return null;
    }
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Hands moving one piece

  /**
   * A piece lifted off `from` and put down on `to`, on the way passing low over the empty square
   * `over` (which senses it for a moment).
   */
  hoverCarry(ply: number, from: number, to: number, over: number): void {
    const ms = this.range([50, 150]);
    this.actions.push({ kind: 'lift', cell: from }, { kind: 'wait', ms: this.range([50, 200]) });
    this.note('hover', ply, [over], ms);
    this.actions.push({ kind: 'hover', cell: over, ms }, { kind: 'wait', ms: this.range([50, 200]) }, { kind: 'put', cell: to });
  }

  /** A piece lifted off `from` and held in the hand for a while (the player hesitates), then put down on `to`. */
  restingCarry(ply: number, from: number, to: number): void {
    const ms = this.range(this.model.handRestMs);
    this.note('hand-rest', ply, [from, to], ms);
    this.actions.push({ kind: 'lift', cell: from, tail: 0 }, { kind: 'wait', ms }, { kind: 'put', cell: to, lead: 0 });
  }

  /**
   * A piece set down on `wrong` on its way from `from` to `to` and moved on within half a second
   * (`limitMs` the longest it stands there).
   */
  correctedCarry(ply: number, from: number | null, wrong: number, to: number, behaviour: 'corrected-placement' | 'knight-corrected' | 'reset-beside', limitMs = 500): void {
    // (Well within the limit, so that frames 50 ms apart see it so too.)
    const on = this.range([120, limitMs - 60]);
    const tail = Math.min(60, on / 3);
    this.note(behaviour, ply, [wrong, to], on);
    if (from === null) this.actions.push({ kind: 'put', cell: wrong, tail });
    else this.actions.push({ kind: 'carry', from, to: wrong, tail });
    this.actions.push({ kind: 'carry', from: wrong, to, lead: on - tail });
  }
}

/** The cells orthogonally next to `cell` on a `cols` × `rows` board. */
export function neighbours(cell: number, cols: number, rows: number): number[] {
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  const out: number[] = [];
  for (const [dr, dc] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < rows && c >= 0 && c < cols) out.push(r * cols + c);
  }
  return out;
}
