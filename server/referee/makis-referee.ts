// The Makis referee: settled pictures of a 9 × 9 occupancy board → placements, rolls, Maki steps and passes, the resets the players still owe, questions and alerts.
//
// As DESIGN.md asks, it never reads moves from raw differences: it asks the engine what the board
// would show after each move that could explain the picture, and keeps those the picture fits on
// every square it trusts (sensors that flicker, or that the console overrode, are not looked at).
// Occupancy sees every Makis move; what it cannot see is the order of the dice and a pass.
//
// What the players do by hand besides their moves (RULES.md §3): after a roll, captured Makis come
// off the board and Makis sent back go to row 9; after a Maki's step, knights beside it go back to
// row 1 and Makis beside it to row 9. These resets are owed: the referee lists them (`pending`),
// reads a picture that shows some of them made as the position with the rest still owed, and
// never takes a reset for a move. It takes the next move only once they are all made; if the
// board stands still with resets owed, it says which piece to put where.
//
// What it decides, in order:
//   the position, with some owed resets still to make → those are made (nothing else happened);
//   moves that fit — a placement; a roll read from which knights left their squares and how far
//     they went (any of the roll's resets made or not); a Maki's step, the players before it in
//     the round having passed; or the next roll, everyone left in the round having passed:
//     one → played; several → the console is asked. A roll whose knight ends on a square a Maki
//     stood on (a capture, or home on row 9), or that brought a knight home with a step left
//     over, looks like a roll still being made: it is played once the board has stood still a
//     moment, or as soon as the board shows what follows it (its resets, the next Maki's step);
//   a roll Miwin's dice cannot make, or not the roll the display made → an alert;
//   after the end, the opening set up again → a new game;
//   an earlier position → a take-back (a move that fits the same picture wins);
//   a Maki put where no legal step goes → the engine's reason;
//   two steps or placements made without a pause → both, or the console is asked which first;
//   anything else → once the board has stood still a while, which piece to put right first.
// A question never stops the game (hypotheses.ts): options that leave the same position are
// taken at once; the others stay hypotheses the next pictures decide, the likeliest `assumed` when
// play goes on from them or nobody answers; a later answer or picture corrects the record.
// A game resumed after a restart is read the same way from its first picture on: the players may
// have played on while nobody watched (a roll too: read from the knights, as always), and a move
// read so is one they made meanwhile. The last logged move's resets may not have been made yet.
import {
  FACES,
  SIZE,
  canRoll,
  columnOf,
  initial,
  legalMoves,
  play,
  rollEffects,
  rowOf,
  square,
  squareName,
  stepEffects,
  whyIllegal,
  type EndReason,
  type MakiSpot,
  type MakisMove,
  type MakisOptions,
  type MakisState,
  type Roll,
  type Square,
} from '../rules/makis.ts';
import { formatMove, parseMove } from '../rules/makis-notation.ts';
import { assertNever, type RuleError } from '../rules/types.ts';
import { DEFAULT_GRID_SETTLE, GridSettler, type GridSettleOptions, type SettledGrid } from './grid-settle.ts';
import type { GridPicture } from './malawi-referee.ts';
import { AlertLatch } from './alert-latch.ts';
import { ResumeWatch } from './resume-watch.ts';
import { DEFAULT_ASSUME_MS, REVISE_PLIES, TakenQuestions, correction, likeliest, replayRecord, revision, samePosition, weigh, type Explains, type Taken } from './hypotheses.ts';
import type { BoardAlert, BoardQuestion, BoardRefereeEvent } from './events.ts';

const CELLS = SIZE * SIZE;

export interface MakisRefereeOptions {
  readonly settle?: GridSettleOptions;
  /** How many plies back a take-back is recognised (passes count). */
  readonly takebackDepth?: number;
  /** How long a picture nothing explains must stand still before it is called a mismatch, ms. */
  readonly mismatchMs?: number;
  /** The same for a picture that looks like hands at work (pieces lifted, none added), ms. */
  readonly handMs?: number;
  /** How long the board may stand still with resets owed before the referee names the next one, ms. */
  readonly resetMs?: number;
  /**
   * A roll that brought a knight to row 9 with a step left over looks like a roll still being
   * made (a third knight yet to move): it is played once the board has stood still this long, ms.
   */
  readonly homeMs?: number;
  /**
   * How long a question whose answer matters waits for the console or the board before the record
   * takes its likeliest option (marked `assumed`), ms; null: it waits for them.
   */
  readonly assumeMs?: number | null;
}

export const RESET_PIECES = ['knight', 'maki'] as const;
export type ResetPiece = (typeof RESET_PIECES)[number];

/** A piece the players still have to put right after a roll or a Maki's step. */
export interface Reset {
  readonly piece: ResetPiece;
  /** The Maki's player (Makis only). */
  readonly player?: number;
  /** Where the piece stands now. */
  readonly from: Square;
  /** Where it goes; `out` for a captured Maki that comes off the board. */
  readonly to: Square | 'out';
}

export type MakisAlert = BoardAlert;

export type MakisQuestion = BoardQuestion;

export type MakisRefereeEvent =
  | BoardRefereeEvent<{ readonly winner: string; readonly reason: EndReason }>
  /** Something the display shows changed without a move: resets made, a roll drawn. */
  | { readonly kind: 'settled'; readonly t: number };

export type MakisCommandResult =
  | { readonly ok: true; readonly events: readonly MakisRefereeEvent[] }
  | { readonly ok: false; readonly error: RuleError };

/** Why the console is asked: several moves fit; the one that fits needs an unsure sensor; two moves were made at once and the order matters. */
export const MAKIS_QUESTION_REASONS = ['ambiguous', 'unsure', 'two-moves'] as const;
export type MakisQuestionReason = (typeof MAKIS_QUESTION_REASONS)[number];

/** Where the pieces stand: enough of a state to say what the board shows. */
interface Position {
  readonly knights: readonly number[];
  readonly makis: readonly MakiSpot[];
}

interface Ply {
  readonly state: MakisState;
  readonly move: MakisMove | null;
  readonly notation: string | null;
  /** A roll's numbers as the dice III, IV and V showed them. */
  readonly dice: Roll | null;
  /** What the board shows in this position, every reset made. */
  readonly picture: Uint8Array;
}

/** A sequence of moves (passes, then the one the board shows) that explains a picture. */
interface Fit {
  readonly moves: readonly MakisMove[];
  /** The state after each move; empty for a roll the dice cannot make. */
  readonly states: readonly MakisState[];
  /** What the last move sends back or takes off. */
  readonly resets: readonly Reset[];
  /** Of those, the ones the picture shows not yet made. */
  readonly undone: readonly Reset[];
  /** The roll, numbers ascending, when the last move is a roll. */
  readonly roll: Roll | null;
  /** A roll Miwin's dice cannot make: the engine's reason. */
  readonly impossible: RuleError | null;
  /**
   * A roll the picture may show only part of: a knight seen no further than a square that was full
   * anyway (a knight home with a step left over, a Maki not yet off), so a knight may still be to move.
   */
  readonly unfinished: boolean;
  /** The cells a console override names (the pieces the moves move). */
  readonly named: readonly number[];
}

interface OpenQuestion {
  readonly event: MakisQuestion;
  readonly reason: MakisQuestionReason;
  /** One fit per option, in option order: what an answer plays. */
  readonly fits: readonly Fit[];
  /** The options in canonical notation (rolls ascending). */
  readonly keys: readonly string[];
  /**
   * What the board shows for each option, in option order: its fit, and for `two-moves` the second
   * move with it. What the record takes when an option is taken without an answer.
   */
  readonly chains: readonly Fit[];
  /** When it was asked, on the board's clock. */
  readonly asked: number;
}

interface Waiting {
  readonly kind: 'mismatch' | 'calibrating' | 'reset' | 'home';
  readonly picture: SettledGrid;
  readonly delay: number;
  /** Since when the board has shown this picture; null until it holds it. */
  since: number | null;
  readonly fits?: readonly Fit[];
}

const NONE: readonly MakisRefereeEvent[] = Object.freeze([]);

/** "5/9": a square as the screens and sentences show it. */
export const screenName = (sq: Square): string => `${columnOf(sq)}/${rowOf(sq)}`;

/** A roll's numbers ascending: how the referee writes a roll it read from the knights. */
export const ascending = (dice: readonly number[]): Roll => [...dice].sort((a, b) => a - b) as unknown as Roll;

const rollText = (dice: readonly number[]): string => dice.join('-');

/**
 * The roll as the dice III, IV and V could have shown it: the first assignment of its numbers that
 * uses a face of each die (the board cannot see which die showed which number). Null when none does.
 */
export function diceOrder(dice: readonly number[]): Roll | null {
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ] as const;
  for (const [a, b, c] of orders) {
    if (FACES.III.includes(dice[a]) && FACES.IV.includes(dice[b]) && FACES.V.includes(dice[c])) return [dice[a], dice[b], dice[c]];
  }
  return null;
}

const sameRoll = (a: readonly number[], b: readonly number[]): boolean => {
  const x = ascending(a);
  const y = ascending(b);
  return x[0] === y[0] && x[1] === y[1] && x[2] === y[2];
};

/** A move's notation with a roll's numbers ascending: `R7.3.3` and `R3.3.7` are one answer. */
function canonical(move: MakisMove): string {
  return formatMove(move.kind === 'roll' ? { kind: 'roll', dice: ascending(move.dice) } : move);
}

/** Subsets of n items by the number of items in them, fewest first: the likeliest reading first. */
const SUBSETS: number[][] = Array.from({ length: 8 }, (_, n) =>
  Array.from({ length: 1 << n }, (_, mask) => mask).sort((a, b) => popcount(a) - popcount(b) || a - b),
);
function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

export class MakisReferee {
  private plies: Ply[];
  private readonly settler: GridSettler;
  private readonly takebackDepth: number;
  private readonly mismatchMs: number;
  private readonly handMs: number;
  private readonly resetMs: number;
  private readonly homeMs: number;
  private isCalibrated = false;
  /** A resumed game's board not read as the game yet. */
  private readonly resume = new ResumeWatch(() => (this.isCalibrated = true));
  private picture: SettledGrid | null = null;
  private waiting: Waiting | null = null;
  private readonly alerts = new AlertLatch();
  /** The question the record waits on: its options are hypotheses the next pictures may decide. */
  private question: OpenQuestion | null = null;
  /** Questions about moves the record took without an answer: the console may still change them. */
  private readonly taken = new TakenQuestions<OpenQuestion>();
  private readonly assumeMs: number | null;
  private questionSeq = 0;
  private lastT = 0;
  /** Resets owed after the last move, in the order the rules make them. */
  private owed: Reset[] = [];
  /**
   * A roll the board showed that may have been unfinished, found at ply `ply`: played once the
   * board has stood still, or once it shows what follows the roll (its resets, the next step).
   */
  private unfinished: { readonly picture: SettledGrid; readonly fits: readonly Fit[]; readonly ply: number } | null = null;
  /** A roll the display made for the table (die order III, IV, V): the only roll accepted. */
  private expected: Roll | null = null;
  /** Cells not to look at in this decision: unsure sensors and overridden ones. */
  private readonly wild = new Uint8Array(CELLS);
  private anyWild = false;
  /** Cells the console overrode (a move entered where the board read otherwise). */
  private readonly distrusted = new Uint8Array(CELLS);
  /** Scratch: pieces per cell of an expected picture. */
  private readonly counts = new Int8Array(CELLS);
  /** A counting board's frame read as occupancy (scratch). */
  private readonly occupancy = new Int32Array(CELLS);
  /** Settled pictures decided so far (for statistics and the bench). */
  decisions = 0;

  constructor(
    readonly rules: MakisOptions,
    options: MakisRefereeOptions = {},
  ) {
    this.plies = [plyOf(startOf(rules), null, null)];
    this.settler = new GridSettler(CELLS, options.settle ?? DEFAULT_GRID_SETTLE);
    this.takebackDepth = options.takebackDepth ?? 16;
    this.mismatchMs = options.mismatchMs ?? 1500;
    this.handMs = options.handMs ?? 6000;
    this.resetMs = options.resetMs ?? 5000;
    this.homeMs = options.homeMs ?? 2500;
    this.assumeMs = options.assumeMs === undefined ? DEFAULT_ASSUME_MS : options.assumeMs;
  }

  get state(): MakisState {
    return this.current().state;
  }
  get calibrated(): boolean {
    return this.isCalibrated;
  }
  /** A resumed game's board not read as the game yet: a move read from it was made while nobody watched (ResumeWatch). */
  get resuming(): boolean {
    return this.resume.resuming;
  }
  /** Frames the settle stage refused (not one reading per square). */
  get refusedFrames(): number {
    return this.settler.refused;
  }
  /** The moves played so far, in notation, after take-backs (passes included). */
  record(): string[] {
    return this.plies.slice(1).map((p) => p.notation as string);
  }
  /** The last move in notation. */
  lastMove(): string | null {
    return this.current().notation;
  }
  /** The last roll as the dice III, IV and V showed it (or could have), null before the first. */
  lastRoll(): Roll | null {
    for (let k = this.plies.length - 1; k > 0; k--) if (this.plies[k].dice) return this.plies[k].dice;
    return null;
  }
  /** A roll the display made for the table, still to be made on the board. */
  expectedRoll(): Roll | null {
    return this.expected;
  }
  /** The resets the players still owe, in the order the rules make them. */
  pending(): readonly Reset[] {
    return this.owed;
  }
  /** The questions the console may answer: about moves the record took already (oldest first), then the one it waits on. */
  openQuestions(): MakisQuestion[] {
    return [...this.taken.events(), ...(this.question ? [this.question.event] : [])];
  }
  /** Squares whose sensor the referee does not look at: flickering, or overridden by the console. */
  untrustedSquares(): string[] {
    const unsure = this.picture?.unsure ?? [];
    const out: string[] = [];
    for (let c = 0; c < CELLS; c++) if (this.distrusted[c] || unsure.includes(c)) out.push(squareName(c));
    return out;
  }

  /**
   * Resume a game from its record (after a restart). The first picture the board holds still is read
   * as any picture in the game: the position, the last move's resets made or not (they are owed), a
   * move made meanwhile, a take-back; anything else is a mismatch. A board showing the opening of a
   * game not over is waited on: it is being set up again, not every move taken back.
   */
  restore(moves: readonly string[]): { ok: true } | { ok: false; ply: number; error: RuleError } {
    const plies = [plyOf(startOf(this.rules), null, null)];
    for (const [i, token] of moves.entries()) {
      const parsed = parseMove(token);
      if (!parsed.ok) return { ok: false, ply: i + 1, error: parsed.error };
      const next = play(plies[plies.length - 1].state, parsed.value);
      if (!next.ok) return { ok: false, ply: i + 1, error: next.error };
      const dice = parsed.value.kind === 'roll' ? diceOrder(parsed.value.dice) : null;
      plies.push(plyOf(next.value, parsed.value, formatMove(parsed.value), dice));
    }
    this.plies = plies;
    this.isCalibrated = false;
    this.resume.restored(moves.length);
    this.picture = null;
    this.waiting = null;
    this.question = null;
    this.taken.reset();
    // The service may have stopped before the players made the last move's resets.
    const last = plies[plies.length - 1];
    this.owed = last.move === null ? [] : fitOf([last.move], [last.state], plies[plies.length - 2].state, []).resets.slice();
    this.unfinished = null;
    this.expected = null;
    this.distrusted.fill(0);
    this.settler.forgetLast();
    return { ok: true };
  }

  /** One frame, `t` in ms on the board's clock. Most frames return no events (and allocate nothing). */
  frame(t: number, input: GridPicture): readonly MakisRefereeEvent[] {
    this.lastT = t;
    let settled: SettledGrid | null;
    switch (input.type) {
      case 'grid':
        settled = this.settler.pushBits(t, input.bits);
        break;
      case 'counts': {
        // A counting board reads 1 for a piece without beads: Makis needs occupancy only.
        if (input.counts.length !== CELLS) {
          settled = this.settler.push(t, input.counts);
          break;
        }
        for (let c = 0; c < CELLS; c++) this.occupancy[c] = input.counts[c] !== 0 ? 1 : 0;
        settled = this.settler.push(t, this.occupancy);
        break;
      }
      default:
        return assertNever(input);
    }
    const events = settled ? this.decide(settled) : this.tick(t);
    return this.resume.afterFrame(t, events);
  }

  // -------------------------------------------------------------------------------------------
  // The console

  /** The console answers question `questionId` with one of the moves it offered. */
  answer(questionId: number, move: string, t: number = this.lastT): MakisCommandResult {
    const taken = this.taken.find(questionId);
    if (taken) return this.reconsider(taken, move, t);
    const q = this.question;
    if (!q || q.event.id !== questionId) {
      return { ok: false, error: { code: 'referee/no-such-question', message: `question ${questionId} is not open`, params: { id: questionId } } };
    }
    const parsed = parseMove(move);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const index = q.keys.indexOf(canonical(parsed.value));
    if (index < 0) {
      const options = q.event.options;
      return {
        ok: false,
        error: { code: 'referee/not-an-option', message: `${move} is not one of the moves offered: ${options.join(', ')}`, params: { move, options: options.join(', ') } },
      };
    }
    const events = this.resume.watched(t, this.commit(t, q.fits[index]));
    // The board may show more than the answer (the second of two steps): look again.
    if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
    return { ok: true, events };
  }

  /**
   * The console answers a question about a move the record took unasked: the same option closes
   * it; another replaces the moves it took (a `correction`) and replays the moves since on top,
   * unless one of them would then be illegal.
   */
  private reconsider(taken: Taken<OpenQuestion>, move: string, t: number): MakisCommandResult {
    const q = taken.question;
    const parsed = parseMove(move);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const index = q.keys.indexOf(canonical(parsed.value));
    if (index < 0) {
      const options = q.event.options;
      return { ok: false, error: { code: 'referee/not-an-option', message: `${move} is not one of the moves offered: ${options.join(', ')}`, params: { move, options: options.join(', ') } } };
    }
    if (index === taken.index) return { ok: true, events: this.taken.close(taken, t) };
    const replayed = this.replayWith(taken, index);
    if (!replayed.ok) return { ok: false, error: replayed.error };
    const events = this.correct(t, taken.ply, replayed.plies, 'console');
    events.push(...this.taken.close(taken, t));
    if (this.picture) this.recheck(this.picture, t, events);
    return { ok: true, events: this.resume.watched(t, events) };
  }

  /**
   * The record from the taken question's ply on played again with option `index` in place of the
   * moves the record took for it; refused when a later move would then be illegal.
   */
  private replayWith(taken: Taken<OpenQuestion>, index: number): { ok: true; plies: Ply[] } | { ok: false; error: RuleError } {
    const q = taken.question;
    const span = q.chains[taken.index].moves.length;
    const moves = [...q.chains[index].moves, ...this.plies.slice(taken.ply + span).map((p) => p.move as MakisMove)];
    return replayRecord(this.plies[taken.ply - 1].state, moves, (state, m: MakisMove) => {
      const next = play(state, m);
      return next.ok
        ? { ok: true, state: next.value, ply: plyOf(next.value, m, canonical(m), m.kind === 'roll' ? diceOrder(m.dice) : null) }
        : { ok: false, error: next.error, name: canonical(m) };
    }, { lead: q.chains[index].moves.length, name: q.event.options[index], ply: taken.ply });
  }

  /** The record from `ply` on replaced by `plies`: the correction, and the end if the new record reaches one. The resets owed are the last move's again. */
  private correct(t: number, ply: number, plies: Ply[], reason: 'evidence' | 'console'): MakisRefereeEvent[] {
    const wasOver = this.state.outcome !== null;
    const old = this.record().slice(ply - 1);
    this.plies.splice(ply, this.plies.length - ply, ...plies);
    const last = this.current();
    this.owed = last.move === null ? [] : fitOf([last.move], [last.state], this.plies[this.plies.length - 2].state, []).resets.slice();
    this.unfinished = null;
    const events: MakisRefereeEvent[] = [correction(t, ply, old, this.record().slice(ply - 1), reason)];
    const after = this.state.outcome;
    if (!wasOver && after !== null) events.push({ kind: 'end', t, outcome: { winner: String(after.winner), reason: after.reason } });
    return events;
  }

  /**
   * A picture nothing explains from the record, while a move the record took unasked is among the
   * last few: another of its options may explain it. The first that does replaces it (`correction`,
   * reason `evidence`); the question closes when no other option explains the picture.
   */
  private revise(picture: SettledGrid): MakisRefereeEvent[] | null {
    const found = revision(this.taken, this.plies.length, {
      horizon: (taken) => REVISE_PLIES + taken.question.chains[taken.index].moves.length - 1,
      options: (taken) => taken.question.chains.length,
      replay: (taken, j) => this.replayWith(taken, j),
      explains: (plies, taken) => {
        const last = plies[plies.length - 1];
        const before = plies.length > 1 ? plies[plies.length - 2].state : this.plies[taken.ply - 1].state;
        const resets = fitOf([last.move as MakisMove], [last.state], before, []).resets;
        return this.explainsFrom(last.state, resets, picture.cells) !== null;
      },
    });
    if (!found) return null;
    const { taken, explaining } = found;
    const t = picture.t;
    const events = this.correct(t, taken.ply, explaining[0].plies, 'evidence');
    if (explaining.length === 1) events.push(...this.taken.close(taken, t));
    else this.taken.retake(taken, explaining[0].index);
    events.push(...this.decide(picture));
    return events;
  }

  /**
   * A move entered by hand (a sensor failed, or the console knows better); the engine checks it.
   * Squares the move names where the board reads otherwise are not looked at again until they
   * read what the game expects: a dead switch must not hold up the rest of the game.
   */
  enter(move: string, t: number = this.lastT): MakisCommandResult {
    const parsed = parseMove(move);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const before = this.state;
    const next = play(before, parsed.value);
    if (!next.ok) return { ok: false, error: next.error };
    // The resets of a move entered by hand are owed until the board shows them.
    const base = fitOf([parsed.value], [next.value], before, []);
    const fit: Fit = { ...base, undone: base.resets };
    const events = this.resume.watched(t, this.commit(t, fit));
    const picture = this.picture;
    if (picture) {
      const expected = this.current().picture;
      for (const cell of fit.named) {
        if (picture.cells[cell] !== expected[cell] && !picture.unsure.includes(cell)) this.distrusted[cell] = 1;
      }
      this.recheck(picture, t, events);
    }
    return { ok: true, events };
  }

  /** The console takes back the last move (a pass is a move too); the board is then expected to show the position before it. */
  undo(t: number = this.lastT): readonly MakisRefereeEvent[] {
    if (this.plies.length === 1) return NONE;
    const undone = this.plies.pop() as Ply;
    if (undone.move?.kind === 'roll') this.expected = null;
    const events: MakisRefereeEvent[] = [...this.taken.dropAfter(this.plies.length - 1, t)];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.owed = [];
    this.unfinished = null;
    events.push({ kind: 'takeback', t, undone: [undone.notation as string], ply: this.plies.length - 1 });
    if (this.picture) this.recheck(this.picture, t, events);
    return this.resume.watched(t, events);
  }

  /**
   * The display rolled the dice for the table (die order III, IV, V): from now on the knights must
   * show exactly this roll. While Makis may still move, the roll also says that those who have
   * not moved pass once the knights move.
   */
  expectRoll(dice: readonly number[], t: number = this.lastT): MakisCommandResult {
    const state = this.state;
    if (state.phase !== 'roll' && state.phase !== 'maki') {
      const message = state.outcome !== null ? 'the game is over; there is nothing to roll for' : 'the Makis are still being placed; the first roll comes after';
      return { ok: false, error: { code: 'referee/not-roll-time', message, params: { phase: state.phase } } };
    }
    if (this.expected !== null) {
      return {
        ok: false,
        error: { code: 'referee/roll-pending', message: `the dice already show ${rollText(this.expected)}; move the knights first`, params: { roll: rollText(this.expected) } },
      };
    }
    if (dice.length !== 3 || !canRoll(dice)) {
      return { ok: false, error: { code: 'makis/impossible-roll', message: `a roll of ${rollText(dice)} cannot be made with Miwin's dice`, params: { roll: rollText(dice) } } };
    }
    this.expected = [dice[0], dice[1], dice[2]];
    const events = this.resume.watched<MakisRefereeEvent>(t, [{ kind: 'settled', t }]);
    // The knights may already stand where the roll puts them.
    if (this.picture && this.isCalibrated && !this.fits(this.current().picture, this.picture.cells)) events.push(...this.decide(this.picture));
    return { ok: true, events };
  }

  /** After a console action the picture is not read as a move again; if it does not show the game, the board has to be put right. */
  private recheck(picture: SettledGrid, t: number, events: MakisRefereeEvent[]): void {
    this.waiting = null;
    this.markWild(picture);
    const ply = this.current();
    const undone = this.owedFit(ply.state, this.owed, picture.cells);
    if (undone !== null) {
      if (undone.length !== this.owed.length) {
        this.owed = undone.slice();
        events.push({ kind: 'settled', t });
      }
      if (this.owed.length) this.waiting = { kind: 'reset', picture, delay: this.resetMs, since: t };
      return;
    }
    this.waiting = { kind: 'mismatch', picture, delay: this.mismatchMs, since: this.settler.holding ? t : null };
  }

  // -------------------------------------------------------------------------------------------
  // Deciding a settled picture

  /** A settled picture: what explains it? */
  decide(picture: SettledGrid): MakisRefereeEvent[] {
    this.decisions++;
    this.picture = picture;
    const rolled = this.unfinished?.ply === this.plies.length ? this.unfinished : null;
    const waited = this.waiting;
    this.waiting = null;
    const t = picture.t;
    if (!this.isCalibrated) {
      const calibration = this.calibrate(picture);
      if (calibration) return calibration;
    }
    // A question waits: the picture may tell its options apart, or show the board gone on from them.
    const weighed = this.weighQuestion(picture);
    if (weighed) return weighed;
    const ply = this.current();
    const state = ply.state;
    this.trustAgain(picture, ply.picture);
    this.markWild(picture);
    const cells = picture.cells;

    // The position, some resets perhaps still owed: nothing but resets happened.
    const undone = this.owedFit(state, this.owed, cells);
    if (undone !== null) return this.resetsMade(t, picture, undone, waited);

    const fits = this.fittingMoves(state, cells);
    // A move that fits wins over a take-back to the same picture (a step whose reset puts the
    // board back as it was a ply ago is a move people make; taking back is rarer).
    if (fits.length > 0) return this.decideFits(picture, fits);
    if (rolled) {
      // The board moved on from a roll that might have been unfinished. If what it shows now
      // follows from that roll (its resets, the next Maki's step), the roll was done.
      const readings = rolled.fits;
      const after = readings[0].states[readings[0].states.length - 1];
      const follows =
        this.knightsAsRolled(state, readings[0], cells) ||
        this.owedFit(after, readings[0].resets, cells) !== null ||
        this.fittingMoves(after, cells).some((f) => f.impossible === null) ||
        this.makiMovedAfter(readings[0], cells);
      if (follows) {
        if (readings.length > 1) return this.askAmbiguous(t, readings);
        const events = this.commit(rolled.picture.t, readings[0]);
        events.push(...this.decide(picture));
        return events;
      }
    }

    // After the end, the opening set up again is a new game rather than every move taken back.
    if (state.outcome !== null && this.fits(this.plies[0].picture, cells)) return this.newGame(t);
    // An earlier position: the most recent one that fits (passes repeat a picture; undo fewest).
    const back = this.earlierPosition(cells, Math.max(0, this.plies.length - 1 - this.takebackDepth));
    if (back >= 0) return this.takeBack(t, back);

    // A move the record took unasked may have been another of its options.
    const revised = this.revise(picture);
    if (revised) return revised;

    const illegal = this.illegalStep(picture);
    if (illegal) return illegal;

    const pairs = this.twoMoves(picture);
    if (pairs) return pairs;

    // With resets owed, the referee asks for them soon; hands at work get longer.
    const delay = this.owed.length > 0 ? this.resetMs : this.alerts.key === null && this.underWay(ply.picture, cells) ? this.handMs : this.mismatchMs;
    this.waiting = { kind: 'mismatch', picture, delay, since: t };
    return [];
  }

  /** The most recent earlier ply (not before `oldest`) whose position the picture shows, or −1. */
  private earlierPosition(cells: readonly number[], oldest: number): number {
    for (let k = this.plies.length - 2; k >= oldest; k--) if (this.fits(this.plies[k].picture, cells)) return k;
    return -1;
  }

  /** Moves fit the picture: play one, ask, wait, or say why the roll cannot be. */
  private decideFits(picture: SettledGrid, all: readonly Fit[]): MakisRefereeEvent[] {
    const t = picture.t;
    const possible = all.filter((f) => f.impossible === null);
    if (possible.length === 0) {
      const error = all[0].impossible as RuleError;
      const cells = this.diffCells(picture.cells, this.current().picture);
      const alert = this.alerts.raise(t, `impossible:${this.plies.length}:${picture.cells.join('')}`, error.code, error.message, error.params ?? {});
      return alert ? [{ ...alert, cells }] : [];
    }
    let fits = possible;
    const expected = this.expected;
    if (expected !== null) {
      fits = possible.filter((f) => f.roll === null || sameRoll(f.roll, expected));
      if (fits.length === 0) {
        const shown = rollText(possible[0].roll as Roll);
        const want = rollText(ascending(expected));
        const cells = this.diffCells(picture.cells, this.current().picture);
        const alert = this.alerts.raise(
          t,
          `wrong-roll:${this.plies.length}:${picture.cells.join('')}`,
          'makis/wrong-roll',
          `The dice showed ${want}, but the knights show ${shown}: move the knights for ${want}.`,
          { expected: want, roll: shown },
        );
        return alert ? [{ ...alert, cells }] : [];
      }
    }
    // One reading per sequence of moves (the same moves with fewer resets made fit only when sensors are not trusted).
    const distinct: Fit[] = [];
    for (const f of fits) {
      const key = f.moves.map(canonical).join(' ');
      if (!distinct.some((d) => d.moves.map(canonical).join(' ') === key)) distinct.push(f);
    }
    const rolledForTable = expected !== null && distinct.every((f) => f.roll !== null);
    if (!rolledForTable && distinct.every((f) => f.unfinished)) {
      // A knight home with a step left over, or on a captured Maki's square (as a knight still in
      // the hand would look): another knight may still be to move. Wait and see.
      this.waiting = { kind: 'home', picture, delay: this.homeMs, since: t, fits: distinct };
      this.unfinished = { picture, fits: distinct, ply: this.plies.length };
      return [];
    }
    if (distinct.length === 1) {
      const fit = distinct[0];
      const unseen = this.wildFilled(fit);
      if (unseen.length === 0) return this.commit(t, fit);
      const option = canonical(fit.moves[fit.moves.length - 1]);
      const squares = unseen.map(squareName).join(', ');
      return this.ask(t, 'unsure', [fit], `The sensor on ${squares} cannot be trusted: was ${option} played?`, { options: option, squares, count: 1 });
    }
    return this.askAmbiguous(t, distinct);
  }

  private askAmbiguous(t: number, fits: readonly Fit[]): MakisRefereeEvent[] {
    const options = fits.map((f) => canonical(f.moves[f.moves.length - 1]));
    const listed = options.length <= 4 ? `: ${options.join(', ')}` : ` (${options.length} of them)`;
    return this.ask(t, 'ambiguous', fits, `More than one move fits the board${listed}. Which one was played?`, { options: options.join(', '), count: options.length });
  }

  /** Frames without a new picture: is a waiting picture due? */
  private tick(t: number): readonly MakisRefereeEvent[] {
    const q = this.question;
    if (q && q.chains.length > 1 && this.assumeMs !== null && t - q.asked >= this.assumeMs) return this.assumeUnanswered(t, q);
    const w = this.waiting;
    if (!w) return NONE;
    // A board in motion starts the mismatch and calibration timers again: the picture must stand
    // still that long. The others run from the settled picture they wait on, so a sensor blinking
    // for a moment does not hold them back: a roll goes off only while the board holds its
    // picture (a hand in the air stops it); resets owed are owed, blinking or not.
    if (!this.settler.holding) {
      if (w.kind === 'mismatch' || w.kind === 'calibrating') w.since = null;
      if (w.kind !== 'reset') return NONE;
    }
    w.since ??= t;
    if (t - w.since < w.delay) return NONE;
    this.waiting = null;
    switch (w.kind) {
      case 'mismatch':
        return this.mismatch(w.picture, t);
      case 'calibrating':
        return this.calibrating(w.picture, t);
      case 'reset':
        return this.resetAlert(t, w.picture);
      case 'home': {
        const fits = w.fits as readonly Fit[];
        return fits.length === 1 ? this.commit(t, fits[0]) : this.askAmbiguous(t, fits);
      }
      default:
        return assertNever(w.kind);
    }
  }

  /** The board before it showed the game once; null: a resumed game's picture, to be read as any. */
  private calibrate(picture: SettledGrid): MakisRefereeEvent[] | null {
    this.markWild(picture);
    // A resumed game's last move may have left resets the players had not made yet.
    const undone = this.owedFit(this.state, this.owed, picture.cells);
    if (undone === null) {
      // A resumed game's players may have played on while nobody watched (or, the game over, set up
      // the next): the picture is read as any. Its opening, the game still on, is the board set up again.
      if (this.resume.resuming && (this.state.outcome !== null || !this.fits(this.plies[0].picture, picture.cells))) return null;
      this.waiting = { kind: 'calibrating', picture, delay: this.mismatchMs, since: picture.t };
      return [];
    }
    this.isCalibrated = true;
    this.resume.seen();
    this.owed = undone;
    const events: MakisRefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(picture.t));
    events.push({ kind: 'calibrated', t: picture.t });
    if (this.owed.length > 0) this.waiting = { kind: 'reset', picture, delay: this.resetMs, since: picture.t };
    return events;
  }

  private calibrating(picture: SettledGrid, t: number): readonly MakisRefereeEvent[] {
    const message =
      this.plies.length > 1
        ? 'Waiting for the board to show the position of the game being resumed.'
        : 'Waiting for the opening position: one knight in every column, on its starting row, and no Maki on the board.';
    const cells = this.diffCells(picture.cells, this.current().picture);
    const alert = this.alerts.raise(t, `calibrating:${picture.cells.join('')}`, 'board/calibrating', message, { pieces: SIZE, count: cells.length });
    return alert ? [{ ...alert, cells }] : NONE;
  }

  /** The board shows the position with `undone` of the owed resets still to make. */
  private resetsMade(t: number, picture: SettledGrid, undone: readonly Reset[], waited: Waiting | null): MakisRefereeEvent[] {
    const events: MakisRefereeEvent[] = [];
    const made = undone.length !== this.owed.length;
    if (!made && this.owed.length > 0 && (this.alerts.key?.startsWith('reset:') || waited?.kind === 'reset')) {
      // Nothing made: the picture differs only where the referee does not look. The reminder stands, its timer runs on.
      this.waiting = waited?.kind === 'reset' ? waited : null;
      return events;
    }
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.closeQuestion(t, events);
    if (made) {
      this.owed = undone.slice();
      events.push({ kind: 'settled', t });
    }
    if (this.owed.length > 0) this.waiting = { kind: 'reset', picture, delay: this.resetMs, since: t };
    return events;
  }

  /** The board has stood still with resets owed (or with a picture nothing explains while resets are owed): name the next one. */
  private resetAlert(t: number, picture: SettledGrid): readonly MakisRefereeEvent[] {
    const reset = this.owed[0];
    if (!reset) return NONE;
    const remaining = this.owed.length;
    const more = remaining > 1 ? ` (first of ${remaining} pieces to put back)` : '';
    const from = squareName(reset.from);
    let code: string;
    let message: string;
    let params: Record<string, string | number>;
    const cells: { cell: number; diff: number }[] = [{ cell: reset.from, diff: 1 }];
    if (reset.to === 'out') {
      code = 'makis/remove-maki';
      message = `Player ${reset.player}'s Maki on ${screenName(reset.from)} was captured: take it off the board${more}.`;
      params = { player: reset.player as number, square: from, remaining };
    } else {
      cells.push({ cell: reset.to, diff: -1 });
      cells.sort((a, b) => a.cell - b.cell);
      const to = squareName(reset.to);
      if (reset.piece === 'knight') {
        code = 'makis/reset-knight';
        message = `Put the knight in column ${columnOf(reset.from)} back to row ${rowOf(reset.to)}${more}.`;
        params = { column: columnOf(reset.from), row: rowOf(reset.to), from, to, remaining };
      } else {
        code = 'makis/reset-maki';
        message = `Put player ${reset.player}'s Maki back on ${screenName(reset.to)}${more}.`;
        params = { player: reset.player as number, square: to, from, to, remaining };
      }
    }
    const alert = this.alerts.raise(t, `reset:${this.plies.length}:${remaining}:${picture.cells.join('')}`, code, message, params);
    return alert ? [{ ...alert, cells }] : NONE;
  }

  /** Nothing fits and the board has stood still: an owed reset first, else the first square to fix. */
  private mismatch(picture: SettledGrid, t: number): readonly MakisRefereeEvent[] {
    if (this.owed.length > 0) return this.resetAlert(t, picture);
    this.markWild(picture);
    const cells = this.diffCells(picture.cells, this.current().picture);
    if (cells.length === 0) return NONE;
    // Take off pieces that should not be there first (the hand then holds the one missing elsewhere).
    const first = [...cells].sort((a, b) => (a.diff > 0 ? 0 : 1) - (b.diff > 0 ? 0 : 1) || a.cell - b.cell)[0];
    const action = first.diff > 0 ? 'take-off' : 'put-back';
    const sentence = first.diff > 0 ? `Take the piece off ${screenName(first.cell)}` : `Put the piece back on ${screenName(first.cell)}`;
    const remaining = cells.length;
    const message = remaining === 1 ? `${sentence}.` : `${sentence} (first of ${remaining} squares to fix).`;
    const alert = this.alerts.raise(t, `mismatch:${this.plies.length}:${picture.cells.join('')}`, 'referee/mismatch', message, {
      square: squareName(first.cell),
      remaining,
      action,
    });
    return alert ? [{ ...alert, cells }] : NONE;
  }

  // -------------------------------------------------------------------------------------------
  // What could explain a picture

  /** Which of the owed resets the picture shows still to make, or null when it shows something else. */
  private owedFit(state: MakisState, owed: readonly Reset[], cells: readonly number[]): Reset[] | null {
    const mask = this.firstFit(state, owed, cells);
    return mask < 0 ? null : owed.filter((_, i) => (mask >> i) & 1);
  }

  /** The fewest of `resets` left undone with which `pos` fits the picture, as a bit mask; −1 when none fits. */
  private firstFit(pos: Position, resets: readonly Reset[], cells: readonly number[]): number {
    for (const mask of SUBSETS[Math.min(resets.length, SUBSETS.length - 1)]) {
      this.fill(pos, resets, mask);
      if (this.countsFit(cells)) return mask;
    }
    return -1;
  }

  /** Pieces per cell of `pos`, with the resets in `mask` not yet made. */
  private fill(pos: Position, resets: readonly Reset[], mask: number): void {
    const counts = this.counts;
    counts.fill(0);
    for (let c = 0; c < SIZE; c++) counts[square(c + 1, pos.knights[c])]++;
    for (const spot of pos.makis) if (typeof spot === 'number') counts[spot]++;
    for (let i = 0; i < resets.length; i++) {
      if (((mask >> i) & 1) === 0) continue;
      const r = resets[i];
      if (r.to !== 'out') counts[r.to]--;
      counts[r.from]++;
    }
  }

  private countsFit(cells: readonly number[]): boolean {
    const counts = this.counts;
    const wild = this.wild;
    for (let c = 0; c < CELLS; c++) if (wild[c] === 0 && (counts[c] > 0 ? 1 : 0) !== cells[c]) return false;
    return true;
  }

  /** Whether a stored picture fits on every square the referee looks at. */
  private fits(expected: Uint8Array, cells: readonly number[]): boolean {
    for (let c = 0; c < CELLS; c++) if (expected[c] !== cells[c] && this.wild[c] === 0) return false;
    return true;
  }

  /** Whether a cell reads a piece (an untrusted cell may). */
  private mayBeFull(cells: readonly number[], c: number): boolean {
    return cells[c] !== 0 || this.wild[c] === 1;
  }

  /** The moves from `state` that the picture fits (any of their resets made or not). */
  private fittingMoves(state: MakisState, cells: readonly number[]): Fit[] {
    const out: Fit[] = [];
    switch (state.phase) {
      case 'over':
        return out;
      case 'place':
        this.placements(state, [], [], cells, out);
        return out;
      case 'roll':
        this.rolls(state, [], [], cells, out);
        return out;
      case 'maki': {
        // A step by each player still to move this round, those before them having passed; then the next roll, all having passed.
        let cur = state;
        const moves: MakisMove[] = [];
        const states: MakisState[] = [];
        for (const player of state.pending) {
          this.steps(cur, player, moves, states, cells, out);
          const pass: MakisMove = { kind: 'maki', player, to: null };
          const next = play(cur, pass);
          if (!next.ok) return out;
          moves.push(pass);
          states.push(next.value);
          cur = next.value;
        }
        if (cur.phase === 'roll') this.rolls(cur, moves, states, cells, out);
        return out;
      }
      default:
        return assertNever(state.phase);
    }
  }

  private placements(state: MakisState, moves: readonly MakisMove[], states: readonly MakisState[], cells: readonly number[], out: Fit[]): void {
    for (let c = 1; c <= SIZE; c++) {
      const sq = square(c, SIZE);
      if (!this.mayBeFull(cells, sq)) continue;
      const move: MakisMove = { kind: 'place', player: state.toMove, square: sq };
      const next = play(state, move);
      if (!next.ok) continue;
      this.tryFit([...moves, move], [...states, next.value], state, cells, out);
    }
  }

  private steps(state: MakisState, player: number, moves: readonly MakisMove[], states: readonly MakisState[], cells: readonly number[], out: Fit[]): void {
    // The Maki's own square may read full again: a Maki it sends back can land there.
    if (typeof state.makis[player - 1] !== 'number') return;
    for (const move of legalMoves(state)) {
      if (move.kind !== 'maki' || move.to === null || !this.mayBeFull(cells, move.to)) continue;
      const next = play(state, move);
      if (!next.ok) continue;
      this.tryFit([...moves, move], [...states, next.value], state, cells, out);
    }
  }

  /**
   * Rolls read from the knights: a roll moves exactly the knights whose squares are now empty,
   * three steps in all (a triple, or numbers the dice cannot show together, make an impossible roll).
   */
  private rolls(state: MakisState, moves: readonly MakisMove[], states: readonly MakisState[], cells: readonly number[], out: Fit[]): void {
    const left: number[] = [];
    const maybe: number[] = [];
    for (let c = 1; c <= SIZE; c++) {
      const sq = square(c, state.knights[c - 1]);
      if (this.wild[sq]) maybe.push(c);
      else if (cells[sq] === 0) left.push(c);
    }
    if (left.length + maybe.length === 0 || left.length > 3) return;
    for (let m = 0; m < 1 << maybe.length; m++) {
      const columns = [...left, ...maybe.filter((_, i) => (m >> i) & 1)].sort((a, b) => a - b);
      for (const dice of rollsMoving(columns)) {
        const move: MakisMove = { kind: 'roll', dice };
        if (canRoll(dice)) {
          const next = play(state, move);
          if (next.ok) this.tryFit([...moves, move], [...states, next.value], state, cells, out);
          continue;
        }
        // What the knights would show for a roll the dice cannot make: the alert names it.
        const error = whyIllegal(state, move);
        const effects = rollEffects(state.knights, state.makis, dice);
        const makis = state.makis.slice();
        if (!effects.knightHome) {
          for (const p of effects.captured) makis[p - 1] = 'out';
          for (const s of effects.sentBack) makis[s.player - 1] = s.to;
        }
        // Fewer than three steps to be seen: it may be part of a roll still being made, not this one.
        if (stepsSeen(state, effects.knights) < 3) continue;
        const resets = rollResets(state, effects);
        const mask = this.firstFit({ knights: effects.knights, makis }, resets, cells);
        if (mask < 0 || error === null) continue;
        out.push({
          moves: [...moves, move],
          states: [],
          resets,
          undone: resets.filter((_, i) => (mask >> i) & 1),
          roll: dice,
          impossible: error,
          unfinished: false,
          named: [],
        });
      }
    }
  }

  /** Adds the fit of a sequence whose last move is played from `before`, if the picture shows it. */
  private tryFit(moves: readonly MakisMove[], states: readonly MakisState[], before: MakisState, cells: readonly number[], out: Fit[]): void {
    const fit = fitOf(moves, states, before, []);
    const after = states[states.length - 1];
    const mask = this.firstFit(after, fit.resets, cells);
    if (mask < 0) return;
    const unfinished = fit.roll !== null && stepsSeen(before, after.knights) < 3;
    out.push({ ...fit, undone: fit.resets.filter((_, i) => (mask >> i) & 1), unfinished });
  }

  /**
   * Whether the knights stand as the roll left them: every knight on its square, and in each
   * column a knight moved along, the squares it passed as the roll left them (so a knight still in
   * the hand, or put down short, does not count); and no piece is in the hand.
   */
  private knightsAsRolled(before: MakisState, fit: Fit, cells: readonly number[]): boolean {
    const after = fit.states[fit.states.length - 1];
    this.fill(after, fit.undone, (1 << fit.undone.length) - 1);
    // A piece in the hand (a Maki lifted to make room for a knight still to come) is no move made after the roll.
    let expected = 0;
    let shown = 0;
    for (let c = 0; c < CELLS; c++) {
      if (this.wild[c]) continue;
      if (this.counts[c] > 0) expected++;
      if (cells[c] !== 0) shown++;
    }
    if (shown < expected) return false;
    for (let c = 1; c <= SIZE; c++) {
      const low = Math.min(before.knights[c - 1], after.knights[c - 1]);
      for (let row = low; row <= after.knights[c - 1]; row++) {
        const sq = square(c, row);
        if (this.wild[sq] === 0 && (this.counts[sq] > 0 ? 1 : 0) !== cells[sq]) return false;
      }
    }
    return true;
  }

  /** Whether the picture is the fit's board with one Maki lifted from its square and put on another (a step, legal or not). */
  private makiMovedAfter(fit: Fit, cells: readonly number[]): boolean {
    const after = fit.states[fit.states.length - 1];
    this.fill(after, fit.undone, (1 << fit.undone.length) - 1);
    let from = -1;
    let emptied = 0;
    let filled = 0;
    for (let c = 0; c < CELLS; c++) {
      if (this.wild[c]) continue;
      const expected = this.counts[c] > 0 ? 1 : 0;
      if (expected === cells[c]) continue;
      if (cells[c] === 0) {
        from = c;
        emptied++;
      } else filled++;
    }
    return emptied === 1 && filled === 1 && after.makis.includes(from);
  }

  /** Cells the fit puts a piece on that the referee cannot see: a move that needs them is not taken on trust. */
  private wildFilled(fit: Fit): number[] {
    if (!this.anyWild) return [];
    const last = fit.states[fit.states.length - 1];
    const undone = fit.undone;
    this.fill(last, undone, (1 << undone.length) - 1);
    const now = this.current().picture;
    const cells: number[] = [];
    for (let c = 0; c < CELLS; c++) if (this.wild[c] && this.counts[c] > 0 && now[c] === 0) cells.push(c);
    return cells;
  }

  /**
   * Two steps (or two placements) made without a pause: two Makis gone from their squares and two
   * squares filled. Played when one pair fits; otherwise the console is asked which came first.
   */
  private twoMoves(picture: SettledGrid): MakisRefereeEvent[] | null {
    const state = this.state;
    if (this.owed.length > 0 || (state.phase !== 'maki' && state.phase !== 'place')) return null;
    const cells = picture.cells;
    const now = this.current().picture;
    let emptied = 0;
    let filled = 0;
    for (let c = 0; c < CELLS; c++) {
      if (this.wild[c] || cells[c] === now[c]) continue;
      if (cells[c] === 0) emptied++;
      else filled++;
    }
    const pairs: { first: Fit; both: Fit }[] = [];
    if (state.phase === 'place') {
      if (emptied !== 0 || filled !== 2) return null;
      // Each square filled on row 9 may be the first placement; the second then fits the rest.
      for (let c = 1; c <= SIZE; c++) {
        const sq = square(c, SIZE);
        if (cells[sq] === 0 || now[sq] !== 0) continue;
        const move: MakisMove = { kind: 'place', player: state.toMove, square: sq };
        const mid = play(state, move);
        if (!mid.ok || mid.value.phase !== 'place') continue;
        const both: Fit[] = [];
        this.placements(mid.value, [move], [mid.value], cells, both);
        for (const b of both) pairs.push({ first: fitOf([move], [mid.value], state, []), both: b });
      }
    } else {
      // Steps change as many squares to empty as to full (resets included): two Makis, and perhaps a reset or two.
      if (emptied !== filled || emptied < 2 || emptied > 4) return null;
      let cur = state;
      const moves: MakisMove[] = [];
      const states: MakisState[] = [];
      for (const player of state.pending) {
        const from = cur.makis[player - 1];
        if (typeof from === 'number' && cells[from] === 0) {
          for (const move of legalMoves(cur)) {
            if (move.kind !== 'maki' || move.to === null || cells[move.to] === 0) continue;
            const mid = play(cur, move);
            if (!mid.ok || mid.value.phase !== 'maki') continue;
            // The first step's resets are made (the pair's picture shows them); the second's may still be owed.
            const first = fitOf([...moves, move], [...states, mid.value], cur, []);
            const seconds: Fit[] = [];
            let cur2 = mid.value;
            const moves2: MakisMove[] = [...moves, move];
            const states2: MakisState[] = [...states, mid.value];
            for (const later of mid.value.pending) {
              this.steps(cur2, later, moves2, states2, cells, seconds);
              const pass: MakisMove = { kind: 'maki', player: later, to: null };
              const next = play(cur2, pass);
              if (!next.ok || next.value.phase !== 'maki') break;
              moves2.push(pass);
              states2.push(next.value);
              cur2 = next.value;
            }
            for (const both of seconds) pairs.push({ first, both });
          }
        }
        const pass: MakisMove = { kind: 'maki', player, to: null };
        const next = play(cur, pass);
        if (!next.ok || next.value.phase !== 'maki') break;
        moves.push(pass);
        states.push(next.value);
        cur = next.value;
      }
    }
    if (pairs.length === 0) return null;
    const t = picture.t;
    if (pairs.length === 1) {
      const events = this.commit(t, pairs[0].first);
      events.push(...this.decide(picture));
      return events;
    }
    const firsts: Fit[] = [];
    const chains: Fit[] = [];
    for (const p of pairs) {
      if (firsts.some((f) => canonical(f.moves[f.moves.length - 1]) === canonical(p.first.moves[p.first.moves.length - 1]))) continue;
      firsts.push(p.first);
      chains.push(p.both);
    }
    if (firsts.length === 1) {
      const events = this.commit(t, firsts[0]);
      events.push(...this.decide(picture));
      return events;
    }
    const options = firsts.map((f) => canonical(f.moves[f.moves.length - 1]));
    return this.ask(t, 'two-moves', firsts, `Two moves were made at once: which came first — ${options.join(', ')}?`, { options: options.join(', '), count: options.length }, chains);
  }

  /** A Maki lifted from its square and put where no legal move goes, or a Maki placed off row 9: the engine says why. */
  private illegalStep(picture: SettledGrid): MakisRefereeEvent[] | null {
    const state = this.state;
    if (state.outcome !== null || this.owed.length > 0) return null;
    const now = this.current().picture;
    const cells = picture.cells;
    let from = -1;
    let to = -1;
    let emptied = 0;
    let filled = 0;
    for (let c = 0; c < CELLS; c++) {
      if (this.wild[c] || cells[c] === now[c]) continue;
      if (cells[c] === 0) {
        from = c;
        emptied++;
      } else {
        to = c;
        filled++;
      }
    }
    if (emptied === 0 && filled === 1 && state.phase !== 'place') {
      // The square it came from may be one whose sensor flickers: a Maki there is the likely one.
      const unseen = state.makis.filter((spot): spot is Square => typeof spot === 'number' && this.wild[spot] === 1);
      if (unseen.length === 1) {
        from = unseen[0];
        emptied = 1;
      }
    }
    let move: MakisMove | null = null;
    let judge = state;
    if (state.phase === 'place' && emptied === 0 && filled === 1) {
      move = { kind: 'place', player: state.toMove, square: to };
    } else if (emptied === 1 && filled === 1) {
      const player = state.makis.indexOf(from) + 1;
      if (player === 0) return null; // a knight: a roll being made, or a mismatch
      move = { kind: 'maki', player, to };
      // A later player's Maki: those before them in the round would have passed.
      if (state.phase === 'maki' && state.pending.includes(player)) {
        for (const p of state.pending) {
          if (p === player) break;
          const next = play(judge, { kind: 'maki', player: p, to: null });
          if (!next.ok) break;
          judge = next.value;
        }
      }
    }
    if (move === null) return null;
    const error = whyIllegal(judge, move);
    if (!error) return null;
    const params: Record<string, string | number> = { ...(error.params ?? {}), to: squareName(to) };
    if (move.kind === 'maki') {
      params.from = squareName(from);
      // The engine's own `player` (the roller, the player to move) stays: its sentence names that one.
      params.player ??= move.player;
    }
    const diff = move.kind === 'maki' ? [{ cell: from, diff: -1 }, { cell: to, diff: 1 }].sort((a, b) => a.cell - b.cell) : [{ cell: to, diff: 1 }];
    const alert = this.alerts.raise(picture.t, `illegal:${this.plies.length}:${from}:${to}`, error.code, error.message, params);
    return alert ? [{ ...alert, cells: diff }] : [];
  }

  /** Hands at work: pieces lifted, and no more put down than lifted. */
  private underWay(now: Uint8Array, cells: readonly number[]): boolean {
    if (this.state.outcome !== null) return false;
    let emptied = 0;
    let filled = 0;
    for (let c = 0; c < CELLS; c++) {
      if (this.wild[c] || cells[c] === now[c]) continue;
      if (cells[c] === 0) emptied++;
      else filled++;
    }
    return filled <= emptied;
  }

  // -------------------------------------------------------------------------------------------
  // Verdicts

  /** `assumed`: how many of the fit's moves the record takes without an answer (an option and the passes before it). */
  private commit(t: number, fit: Fit, assumed = 0): MakisRefereeEvent[] {
    const events: MakisRefereeEvent[] = [];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    const before = this.state;
    this.unfinished = null;
    fit.moves.forEach((move, i) => {
      let dice: Roll | null = null;
      if (move.kind === 'roll') {
        dice = this.expected !== null && sameRoll(this.expected, move.dice) ? this.expected : diceOrder(move.dice);
        this.expected = null;
      }
      this.plies.push(plyOf(fit.states[i], move, formatMove(move.kind === 'roll' ? { kind: 'roll', dice: ascending(move.dice) } : move), dice));
      const notation = this.current().notation as string;
      const ply = this.plies.length - 1;
      events.push(i < assumed ? { kind: 'move', t, move: notation, ply, assumed: true } : { kind: 'move', t, move: notation, ply });
    });
    this.owed = fit.undone.slice();
    this.waiting = this.owed.length > 0 && this.picture ? { kind: 'reset', picture: this.picture, delay: this.resetMs, since: t } : null;
    const after = this.state;
    if (after.outcome !== null && before.outcome === null) {
      events.push({ kind: 'end', t, outcome: { winner: String(after.outcome.winner), reason: after.outcome.reason } });
    }
    return events;
  }

  private takeBack(t: number, toPly: number): MakisRefereeEvent[] {
    const events: MakisRefereeEvent[] = [];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    events.push(...this.taken.dropAfter(toPly, t));
    const undone = this.plies.slice(toPly + 1);
    if (undone.some((p) => p.move?.kind === 'roll')) this.expected = null;
    this.plies.length = toPly + 1;
    this.owed = [];
    this.unfinished = null;
    events.push({ kind: 'takeback', t, undone: undone.map((p) => p.notation as string), ply: toPly });
    return events;
  }

  private newGame(t: number): MakisRefereeEvent[] {
    const events: MakisRefereeEvent[] = [];
    this.closeQuestion(t, events);
    events.push(...this.taken.dropAfter(0, t));
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.plies = [plyOf(startOf(this.rules), null, null)];
    this.owed = [];
    this.unfinished = null;
    this.expected = null;
    this.distrusted.fill(0);
    events.push({ kind: 'new-game', t });
    return events;
  }

  /**
   * Ask the console, unless the same question is open already; a question replaces any other.
   * Options that all leave the same game are no question the game waits on: the record takes the
   * first at once (`assumed`), and the question stays open for the console (`blocking: false`).
   */
  private ask(t: number, reason: MakisQuestionReason, fits: readonly Fit[], message: string, params: Record<string, string | number>, chains: readonly Fit[] = fits): MakisRefereeEvent[] {
    const keys = fits.map((f) => canonical(f.moves[f.moves.length - 1]));
    const open = this.question;
    if (open && open.reason === reason && open.keys.length === keys.length && open.keys.every((k, i) => k === keys[i])) return [];
    const events: MakisRefereeEvent[] = [];
    this.closeQuestion(t, events);
    const same = samePosition(
      chains.map((c) => c.states[c.states.length - 1]),
      (s) => Array.from(pictureOf(s)),
    );
    const event: MakisQuestion = {
      kind: 'question',
      t,
      id: ++this.questionSeq,
      code: 'referee/which-move',
      message: same ? `${message} Every answer leaves the same position: the record takes ${keys[0]}.` : message,
      params: same ? { reason, ...params, ply: this.plies.length, taken: keys[0] } : { reason, ...params },
      options: keys,
      ...(same ? { blocking: false as const } : {}),
    };
    const question: OpenQuestion = { event, reason, fits, keys, chains, asked: t };
    if (same) {
      events.push(...this.assume(t, question, likeliest(keys)), event);
      return events;
    }
    this.question = question;
    events.push(event);
    return events;
  }

  /** The record takes option `index` without an answer: its moves are `assumed`, the question stays answerable. */
  private assume(t: number, q: OpenQuestion, index: number): MakisRefereeEvent[] {
    if (this.question === q) this.question = null;
    const ply = this.plies.length;
    const events = this.commit(t, q.chains[index], q.fits[index].moves.length);
    this.taken.add(q, q.event, ply, index);
    return events;
  }

  /** Nobody answered in time and the board never told the options apart: the likeliest, assumed; then the board as it stands. */
  private assumeUnanswered(t: number, q: OpenQuestion): MakisRefereeEvent[] {
    const events = this.assume(t, q, likeliest(q.event.options, q.event.preselected));
    if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
    return events;
  }

  /**
   * A picture while a question waits, read from each option's position: the one option that
   * explains it is taken (the question closes); several the board moved on from, the likeliest of
   * them, assumed. Null when the picture does not tell them apart: it is read as usual.
   */
  private weighQuestion(picture: SettledGrid): MakisRefereeEvent[] | null {
    const q = this.question;
    if (!q) return null;
    this.markWild(picture);
    const explains = q.chains.map((chain) => this.explainsFrom(chain.states[chain.states.length - 1], chain.resets, picture.cells));
    const verdict = weigh(explains);
    let events: MakisRefereeEvent[];
    switch (verdict.kind) {
      case 'open':
        return null;
      case 'decided':
        events = this.commit(picture.t, q.chains[verdict.index]);
        break;
      case 'moved-on': {
        const among = verdict.among;
        events = this.assume(picture.t, q, among[likeliest(among.map((i) => q.event.options[i]), q.event.preselected)]);
        break;
      }
      default:
        return assertNever(verdict);
    }
    events.push(...this.decide(picture));
    return events;
  }

  /** Whether the picture is the position after an option (some of its resets perhaps not made yet), or a finished move from it. */
  private explainsFrom(state: MakisState, resets: readonly Reset[], cells: readonly number[]): Explains {
    if (this.owedFit(state, resets, cells) !== null) return 'position';
    // A roll the picture may show only part of is no evidence yet: a knight may still be in the hand.
    return this.fittingMoves(state, cells).some((f) => f.impossible === null && !f.unfinished) ? 'move' : null;
  }

  private closeQuestion(t: number, events: MakisRefereeEvent[]): void {
    if (!this.question) return;
    events.push({ kind: 'question-closed', t, id: this.question.event.id });
    this.question = null;
  }


  // -------------------------------------------------------------------------------------------
  // Pictures

  private current(): Ply {
    return this.plies[this.plies.length - 1];
  }

  private markWild(picture: SettledGrid): void {
    this.wild.set(this.distrusted);
    for (const c of picture.unsure) this.wild[c] = 1;
    let any = false;
    for (let c = 0; c < CELLS && !any; c++) any = this.wild[c] === 1;
    this.anyWild = any;
  }

  /** An overridden square that reads what the game expects is trusted again. */
  private trustAgain(picture: SettledGrid, expected: Uint8Array): void {
    for (let c = 0; c < CELLS; c++) if (this.distrusted[c] && picture.cells[c] === expected[c]) this.distrusted[c] = 0;
  }

  /** Trusted squares where the picture differs from `expected`: +1 a piece too many, −1 one missing. */
  private diffCells(cells: readonly number[], expected: Uint8Array): { cell: number; diff: number }[] {
    const out: { cell: number; diff: number }[] = [];
    for (let c = 0; c < CELLS; c++) if (!this.wild[c] && cells[c] !== expected[c]) out.push({ cell: c, diff: cells[c] - expected[c] });
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function startOf(rules: MakisOptions): MakisState {
  const start = initial(rules);
  // The options were checked when the table was set up; options it refuses are a programming error here.
  if (!start.ok) throw new RangeError(start.error.message);
  return start.value;
}

/**
 * The knight steps of a roll the board plainly shows. A knight that ends on a square a Maki stood
 * on (capturing it, or home on row 9) looks just like a knight still in the hand: its steps are not
 * seen. A knight home with a step left over shows one step fewer than the roll. A picture with
 * fewer than three steps seen may be a roll still being made.
 */
function stepsSeen(before: Position, after: readonly number[]): number {
  let seen = 0;
  for (let c = 1; c <= SIZE; c++) {
    const from = before.knights[c - 1];
    const to = after[c - 1];
    if (to !== from && !before.makis.includes(square(c, to))) seen += to - from;
  }
  return seen;
}

/** What the board shows in a position: knights and the Makis on the board. */
function pictureOf(pos: Position): Uint8Array {
  const out = new Uint8Array(CELLS);
  for (let c = 0; c < SIZE; c++) out[square(c + 1, pos.knights[c])] = 1;
  for (const spot of pos.makis) if (typeof spot === 'number') out[spot] = 1;
  return out;
}

function plyOf(state: MakisState, move: MakisMove | null, notation: string | null, dice: Roll | null = null): Ply {
  return { state, move, notation, dice, picture: pictureOf(state) };
}

/** The rolls that move exactly `columns` (ascending), three steps in all. */
function rollsMoving(columns: readonly number[]): Roll[] {
  switch (columns.length) {
    case 1:
      return [[columns[0], columns[0], columns[0]]];
    case 2:
      return [
        [columns[0], columns[0], columns[1]],
        [columns[0], columns[1], columns[1]],
      ];
    case 3:
      return [[columns[0], columns[1], columns[2]]];
    default:
      return [];
  }
}

/** The resets a roll leaves: captured Makis the knight passed (the one it landed on is already off), Makis sent back. */
function rollResets(before: Position, effects: ReturnType<typeof rollEffects>): Reset[] {
  if (effects.knightHome) return [];
  const landed = new Set(effects.knights.map((row, i) => square(i + 1, row)));
  const out: Reset[] = [];
  for (const player of effects.captured) {
    const sq = before.makis[player - 1] as Square;
    if (!landed.has(sq)) out.push({ piece: 'maki', player, from: sq, to: 'out' });
  }
  for (const s of effects.sentBack) if (s.from !== s.to) out.push({ piece: 'maki', player: s.player, from: s.from, to: s.to });
  return out;
}

/** The fit of a sequence of moves, the last one played from `before`: its resets and the cells it names. */
function fitOf(moves: readonly MakisMove[], states: readonly MakisState[], before: MakisState, undone: readonly Reset[]): Fit {
  const move = moves[moves.length - 1];
  let resets: Reset[] = [];
  const named: number[] = [];
  let roll: Roll | null = null;
  switch (move.kind) {
    case 'place':
      named.push(move.square);
      break;
    case 'maki': {
      if (move.to === null) break;
      named.push(before.makis[move.player - 1] as Square, move.to);
      const effects = stepEffects(before.knights, before.makis, move.player, move.to);
      for (const c of effects.knightsSentBack) {
        const row = before.knights[c - 1];
        if (row !== 1) resets.push({ piece: 'knight', from: square(c, row), to: square(c, 1) });
      }
      for (const s of effects.makisSentBack) if (s.from !== s.to) resets.push({ piece: 'maki', player: s.player, from: s.from, to: s.to });
      break;
    }
    case 'roll': {
      roll = ascending(move.dice);
      const effects = rollEffects(before.knights, before.makis, move.dice);
      resets = rollResets(before, effects);
      for (let c = 0; c < SIZE; c++) {
        if (effects.knights[c] !== before.knights[c]) named.push(square(c + 1, before.knights[c]), square(c + 1, effects.knights[c]));
      }
      break;
    }
    default:
      assertNever(move);
  }
  return { moves, states, resets, undone, roll, impossible: null, unfinished: false, named };
}
