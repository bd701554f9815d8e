// The Malawi referee: settled pictures of a square board → moves, questions for the console, take-backs and alerts.
//
// As DESIGN.md asks, the referee never reads moves from raw differences: it asks the engine what
// the board would show after every legal move (observe or observeCounts of play(state, move)),
// after every earlier position, and keeps the candidates the settled picture fits exactly. The
// sensors are switches, not scales, so a fit is exact on every cell the referee trusts; cells
// whose sensor flickers (grid-settle.ts) or that the console overrode are not looked at.
//
// What it decides, in order of preference (the priors: a move is what people mostly do):
//   nothing changed → nothing happened (a hidden capture or distribution also looks like this);
//   legal moves that fit → one: played; several, or one only an unsure sensor supports: the
//     console is asked, offered only those moves;
//   an earlier position → a take-back (a move reaching the same picture wins: prefer the move);
//   a piece put where no legal move goes → the engine's reason, at once (north's piece moved
//     while south is to move, too: if south made an unseen capture first, the console enters it);
//   two moves made without a pause → both, when both are seen; a capture or distribution a
//     counting board saw before the opponent's move, made by one of two pieces → the console is asked;
//   anything else → after the picture has stood still a while, which square to fix first.
// A game resumed after a restart is read the same way from its first picture on: the players may
// have played on while nobody watched, and a move read so is one they made meanwhile.
// A question never stops the game (hypotheses.ts): options that leave the same position are
// taken at once; the others stay hypotheses the next pictures decide, the likeliest `assumed` when
// play goes on from them or nobody answers; a later answer or picture corrects the record.
// Nothing else is committed on a guess. An occupancy board cannot see captures and distributions at
// all: the console enters them (`askWhich`, `answer`, `enter`). A counting board sees them, and a
// count picture that fits exactly one capture or distribution is played by itself.
import {
  initial,
  legalMoves,
  observe,
  observeCounts,
  play,
  whyIllegal,
  whyIllegalMoveTo,
  type MalawiMove,
  type MalawiOptions,
  type MalawiOutcome,
  type MalawiState,
} from '../rules/malawi.ts';
import { formatMove, parseMove } from '../rules/malawi-notation.ts';
import { assertNever, type RuleError } from '../rules/types.ts';
import { DEFAULT_GRID_SETTLE, GridSettler, type GridSettleOptions, type SettledGrid } from './grid-settle.ts';
import { boardShape, squareName, type BoardShape, type CellDiff } from './squares.ts';
import { AlertLatch } from './alert-latch.ts';
import { ResumeWatch } from './resume-watch.ts';
import type { BoardAlert, BoardQuestion, BoardRefereeEvent } from './events.ts';
import { changedCells, closeWindow, decodeGrid, touchedSince, type GridGame, type TouchedPly } from './grid-decoder.ts';
import { DEFAULT_ASSUME_MS, REVISE_PLIES, TakenQuestions, correction, likeliest, replayRecord, revision, samePosition, weigh, type Explains, type Taken } from './hypotheses.ts';

export const SENSINGS = ['occupancy', 'count'] as const;
/** What the board's sensors read: occupancy (G frames) or counts (C frames). */
export type Sensing = (typeof SENSINGS)[number];

/** One frame as the bridge parsed it: a G frame's bits (bit i = cell i), or a C frame's counts. */
export type GridPicture =
  | { readonly type: 'grid'; readonly bits: bigint }
  | { readonly type: 'counts'; readonly counts: readonly number[] };

export interface MalawiRefereeOptions {
  readonly settle?: GridSettleOptions;
  /** How many plies back a take-back is recognised. */
  readonly takebackDepth?: number;
  /**
   * How long a picture nothing explains must stand still before it is called a mismatch, ms:
   * people pause with a piece in their hand, and a moment later the board makes sense again.
   */
  readonly mismatchMs?: number;
  /**
   * The same for a picture that looks like a move under way — a piece of the player to move in
   * the air, beads in a hand — while no alert is showing: thinking with a piece in hand is no error.
   */
  readonly handMs?: number;
  /**
   * A counting board sees a distribution bead by bead. One that could still give more beads
   * becomes a move only after the picture has stood still this long; one that gave all it may
   * give is played at once.
   */
  readonly distributeMs?: number;
  /**
   * How long a question whose answer matters waits for the console or the board before the record
   * takes its likeliest option (marked `assumed`), ms; null: it waits for them. The console's own
   * question (`askWhich`) too: whoever asked may have walked away.
   */
  readonly assumeMs?: number | null;
}

/** A square that differs from the game: `diff` in pieces; on a counting board `beads` when the piece is right but its beads are not. */
export interface SquareDiff extends CellDiff {
  readonly beads?: number;
}

export type MalawiAlert = BoardAlert<SquareDiff>;

export type MalawiQuestion = BoardQuestion;

export type MalawiRefereeEvent = BoardRefereeEvent<MalawiOutcome, SquareDiff>;

/** What a console action did: its events, or why it was refused. */
export type MalawiCommandResult =
  | { readonly ok: true; readonly events: readonly MalawiRefereeEvent[] }
  | { readonly ok: false; readonly error: RuleError };

/** Why the console is asked: several moves fit; one fits only by an unsure sensor; a hidden move (console); a hidden move before the opponent's. */
export const QUESTION_REASONS = ['ambiguous', 'unsure', 'hidden', 'hidden-before'] as const;
export type QuestionReason = (typeof QUESTION_REASONS)[number];

export const MISMATCH_ACTIONS = ['take-off', 'put-back', 'add-beads', 'remove-beads'] as const;
export type MismatchAction = (typeof MISMATCH_ACTIONS)[number];

interface Ply {
  readonly state: MalawiState;
  readonly move: MalawiMove | null;
  readonly notation: string | null;
  readonly occupancy: readonly number[];
  readonly counts: readonly number[];
  /** The legal moves of this position, made when first needed. */
  legal: readonly MalawiMove[] | null;
  /** The cells the hands touched in the window that ended with this move, and when (grid-decoder.ts); null until it closes. */
  touched: TouchedPly['touched'];
}

interface OpenQuestion {
  readonly event: MalawiQuestion;
  readonly reason: QuestionReason;
  readonly moves: readonly MalawiMove[];
  /** The options' canonical forms (recipients ascending), to compare answers written in any order. */
  readonly keys: readonly string[];
  /** What each option commits, in option order: its move, and for `hidden-before` the reply the board already shows. */
  readonly chains: readonly (readonly Fit[])[];
  /** When it was asked, on the board's clock. */
  readonly asked: number;
}

interface Fit {
  readonly move: MalawiMove;
  readonly next: MalawiState;
}

/** A picture waiting for the board to stand still long enough. */
interface Waiting {
  readonly kind: 'mismatch' | 'calibrating' | 'distribution';
  readonly picture: SettledGrid;
  readonly delay: number;
  /** Since when the board has held this picture; null when it moved since. */
  since: number | null;
  readonly fit?: Fit;
  /** The ply the fit was found at: a distribution waits only while nothing else was played. */
  readonly ply?: number;
}

const NONE: readonly MalawiRefereeEvent[] = Object.freeze([]);

export class MalawiReferee {
  private plies: Ply[];
  private readonly shape: BoardShape;
  private readonly size: number;
  private readonly settler: GridSettler;
  private readonly takebackDepth: number;
  private readonly mismatchMs: number;
  private readonly handMs: number;
  private readonly distributeMs: number;
  private sensingMode: Sensing | null = null;
  private isCalibrated = false;
  /** A resumed game's board not read as the game yet. */
  private readonly resume = new ResumeWatch(() => (this.isCalibrated = true));
  /** The last settled picture. */
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
  /** Cells not to look at in this decision: unsure sensors and overridden ones. */
  private readonly wild: Uint8Array;
  /** Cells the console overrode (a move entered by hand where the board read otherwise). */
  private readonly distrusted: Uint8Array;
  /** The cells where the picture differs from the position, trusted ones only (scratch). */
  private readonly changed: Int32Array;
  private changedCount = 0;
  /** Settled pictures decided so far (for statistics and the bench). */
  decisions = 0;

  constructor(
    readonly rules: MalawiOptions,
    options: MalawiRefereeOptions = {},
  ) {
    this.size = rules.size;
    this.shape = boardShape(rules.size);
    const cells = rules.size * rules.size;
    this.plies = [plyOf(initial(rules), null, null)];
    this.settler = new GridSettler(cells, options.settle ?? DEFAULT_GRID_SETTLE);
    this.takebackDepth = options.takebackDepth ?? 12;
    this.mismatchMs = options.mismatchMs ?? 1500;
    this.handMs = options.handMs ?? 6000;
    this.distributeMs = options.distributeMs ?? 3000;
    this.assumeMs = options.assumeMs === undefined ? DEFAULT_ASSUME_MS : options.assumeMs;
    this.wild = new Uint8Array(cells);
    this.distrusted = new Uint8Array(cells);
    this.changed = new Int32Array(cells);
  }

  get state(): MalawiState {
    return this.current().state;
  }
  get calibrated(): boolean {
    return this.isCalibrated;
  }
  /** What the board senses, known from its first frame. */
  get sensing(): Sensing | null {
    return this.sensingMode;
  }
  /** A resumed game's board not read as the game yet: a move read from it was made while nobody watched (ResumeWatch). */
  get resuming(): boolean {
    return this.resume.resuming;
  }
  /** Frames the settle stage refused (a C frame without one count per square). */
  get refusedFrames(): number {
    return this.settler.refused;
  }
  /** The moves played so far, in notation, after take-backs. */
  record(): string[] {
    return this.plies.slice(1).map((p) => p.notation as string);
  }
  /** The last move in notation, its kind and the squares it named (for the display). */
  lastMove(): { notation: string; kind: MalawiMove['kind']; squares: string[] } | null {
    const last = this.current();
    if (last.move === null) return null;
    return { notation: last.notation as string, kind: last.move.kind, squares: namedCells(last.move).map((c) => squareName(this.shape, c)) };
  }
  /** The questions the console may answer: about moves the record took already (oldest first), then the one it waits on. */
  openQuestions(): MalawiQuestion[] {
    return [...this.taken.events(), ...(this.question ? [this.question.event] : [])];
  }
  /** Squares whose sensor the referee does not look at: flickering, or overridden by the console. */
  untrustedSquares(): string[] {
    const cells: number[] = [];
    const unsure = this.picture?.unsure ?? [];
    for (let c = 0; c < this.distrusted.length; c++) if (this.distrusted[c] || unsure.includes(c)) cells.push(c);
    return cells.map((c) => squareName(this.shape, c));
  }

  /**
   * Resume a game from its record (after a restart). The first picture the board holds still is read
   * as any picture in the game: the position (nothing happened), a move made meanwhile, an illegal
   * one, a take-back; anything else is a mismatch. A board showing the opening of a game not over is
   * waited on: it is being set up again, not every move taken back.
   */
  restore(moves: readonly string[]): { ok: true } | { ok: false; ply: number; error: RuleError } {
    const plies = [plyOf(initial(this.rules), null, null)];
    for (const [i, token] of moves.entries()) {
      const before = plies[plies.length - 1].state;
      const parsed = parseMove(token, this.size);
      if (!parsed.ok) return { ok: false, ply: i + 1, error: parsed.error };
      const next = play(before, parsed.value);
      if (!next.ok) return { ok: false, ply: i + 1, error: next.error };
      plies.push(plyOf(next.value, parsed.value, formatMove(parsed.value, this.size), []));
    }
    this.plies = plies;
    this.isCalibrated = false;
    this.resume.restored(moves.length);
    this.picture = null;
    this.waiting = null;
    this.question = null;
    this.taken.reset();
    this.distrusted.fill(0);
    this.settler.forgetLast();
    return { ok: true };
  }

  /** One frame, `t` in ms on the board's clock. Most frames return no events (and allocate nothing). */
  frame(t: number, input: GridPicture): readonly MalawiRefereeEvent[] {
    this.lastT = t;
    let settled: SettledGrid | null;
    switch (input.type) {
      case 'grid':
        this.senses('occupancy');
        settled = this.settler.pushBits(t, input.bits);
        break;
      case 'counts':
        this.senses('count');
        settled = this.settler.push(t, input.counts);
        break;
      default:
        return assertNever(input);
    }
    const events = settled ? this.decide(settled) : this.tick(t);
    return this.resume.afterFrame(t, events);
  }

  /**
   * The console says a capture or distribution was made (occupancy cannot see one): ask which,
   * offering only the legal ones.
   */
  askWhich(t: number = this.lastT): MalawiCommandResult {
    const state = this.state;
    const hidden = this.legal().filter((m) => m.kind !== 'move');
    if (state.outcome !== null || hidden.length === 0) {
      const error: RuleError =
        state.outcome !== null
          ? { code: 'referee/game-over', message: 'the game is over; there is no capture or distribution to enter', params: {} }
          : { code: 'referee/no-hidden-moves', message: `${state.toMove} has no legal capture or distribution`, params: { side: state.toMove } };
      return { ok: false, error };
    }
    const message = `Which capture or distribution did ${state.toMove} make?`;
    const chains = hidden.flatMap((move) => {
      const next = play(state, move);
      return next.ok ? [[{ move, next: next.value }]] : [];
    });
    const events = this.ask(t, 'hidden', chains, message, { side: state.toMove, count: hidden.length });
    return { ok: true, events: events.length ? events : this.openQuestions() };
  }

  /** The console answers question `questionId` with one of the moves it offered. */
  answer(questionId: number, move: string, t: number = this.lastT): MalawiCommandResult {
    const taken = this.taken.find(questionId);
    if (taken) return this.reconsider(taken, move, t);
    const q = this.question;
    if (!q || q.event.id !== questionId) {
      return { ok: false, error: { code: 'referee/no-such-question', message: `question ${questionId} is not open`, params: { id: questionId } } };
    }
    const parsed = parseMove(move, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const index = q.keys.indexOf(canonical(parsed.value, this.size));
    if (index < 0) return { ok: false, error: notAnOption(this.state, move, parsed.value, q.event.options) };
    const chosen = q.moves[index];
    const next = play(this.state, chosen);
    if (!next.ok) return { ok: false, error: next.error };
    const events = this.resume.watched(t, this.commit(t, { move: chosen, next: next.value }));
    // The board may already show more (the opponent's reply to a hidden move): look again.
    if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
    return { ok: true, events };
  }

  /**
   * The console answers a question about a move the record took unasked: the same option closes
   * it; another replaces the move (a `correction`) and replays the moves since on top, unless one
   * of them would then be illegal.
   */
  private reconsider(taken: Taken<OpenQuestion>, move: string, t: number): MalawiCommandResult {
    const q = taken.question;
    const parsed = parseMove(move, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const index = q.keys.indexOf(canonical(parsed.value, this.size));
    if (index < 0) return { ok: false, error: notAnOption(this.plies[taken.ply - 1].state, move, parsed.value, q.event.options) };
    if (index === taken.index) return { ok: true, events: this.taken.close(taken, t) };
    const replayed = this.replayWith(taken.ply, q.moves[index]);
    if (!replayed.ok) return { ok: false, error: replayed.error };
    const events = this.correct(t, taken.ply, replayed.plies, 'console');
    events.push(...this.taken.close(taken, t));
    // The board is expected to show the corrected position; where it does not, it is put right.
    if (this.picture) this.recheck(this.picture, t);
    return { ok: true, events: this.resume.watched(t, events) };
  }

  /** The record from `ply` on played again with `move` there; refused when a later move would then be illegal. */
  private replayWith(ply: number, move: MalawiMove): { ok: true; plies: Ply[] } | { ok: false; error: RuleError } {
    const moves = [move, ...this.plies.slice(ply + 1).map((p) => p.move as MalawiMove)];
    return replayRecord(this.plies[ply - 1].state, moves, (state, m: MalawiMove) => {
      const name = formatMove(m, this.size);
      const next = play(state, m);
      return next.ok ? { ok: true, state: next.value, ply: plyOf(next.value, m, name, []) } : { ok: false, error: next.error, name };
    }, { lead: 1, name: formatMove(move, this.size), ply });
  }

  /** The record from `ply` on replaced by `plies`: the correction, and the end if the new record reaches one. */
  private correct(t: number, ply: number, plies: Ply[], reason: 'evidence' | 'console'): MalawiRefereeEvent[] {
    const wasOver = this.state.outcome !== null;
    const old = this.record().slice(ply - 1);
    this.plies.splice(ply, this.plies.length - ply, ...plies);
    const events: MalawiRefereeEvent[] = [correction(t, ply, old, this.record().slice(ply - 1), reason)];
    if (!wasOver && this.state.outcome !== null) events.push({ kind: 'end', t, outcome: this.state.outcome });
    return events;
  }

  /**
   * A picture nothing explains from the record, while a move the record took unasked is among the
   * last few: another of its options may explain it (a piece that moves as far as only that option
   * lets it). The first that does replaces it (`correction`, reason `evidence`); the question
   * closes when no other option explains the picture, else it stays answerable.
   */
  private revise(picture: SettledGrid): MalawiRefereeEvent[] | null {
    const found = revision(this.taken, this.plies.length, {
      horizon: () => REVISE_PLIES,
      options: (taken) => taken.question.moves.length,
      replay: (taken, j) => this.replayWith(taken.ply, taken.question.moves[j]),
      explains: (plies) => this.explainsFrom(plies[plies.length - 1].state, picture.cells) !== null,
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
   * A move entered by hand (a sensor failed, or the console knows better). The engine checks it.
   * Squares the move names where the board reads otherwise are not looked at again until they
   * read what the game expects: a dead switch must not hold up the rest of the game.
   */
  enter(move: string, t: number = this.lastT): MalawiCommandResult {
    const parsed = parseMove(move, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const next = play(this.state, parsed.value);
    if (!next.ok) return { ok: false, error: next.error };
    const events = this.resume.watched(t, this.commit(t, { move: parsed.value, next: next.value }));
    const picture = this.picture;
    if (picture) {
      const expected = this.expected(this.current());
      for (const cell of namedCells(parsed.value)) {
        if (picture.cells[cell] !== expected[cell] && !picture.unsure.includes(cell)) this.distrusted[cell] = 1;
      }
      this.recheck(picture, t);
    }
    return { ok: true, events };
  }

  /** The console takes back the last move; the board is then expected to show the position before it. */
  undo(t: number = this.lastT): readonly MalawiRefereeEvent[] {
    if (this.plies.length === 1) return NONE;
    const undone = this.plies.pop() as Ply;
    const events: MalawiRefereeEvent[] = [...this.taken.dropAfter(this.plies.length - 1, t)];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    events.push({ kind: 'takeback', t, undone: [undone.notation as string], ply: this.plies.length - 1 });
    if (this.picture) this.recheck(this.picture, t);
    return this.resume.watched(t, events);
  }

  /**
   * The board's picture is not decided again after a console action (it would read the undone
   * move, or the entered one's old squares, as a move); if it does not show the game, the board
   * has to be put right, and says so once it has stood still.
   */
  private recheck(picture: SettledGrid, t: number): void {
    this.waiting = null;
    this.markWild(picture);
    if (!this.fits(this.expected(this.current()), picture.cells)) {
      this.waiting = { kind: 'mismatch', picture, delay: this.mismatchMs, since: this.settler.holding ? t : null };
    }
  }

  // -------------------------------------------------------------------------------------------
  // Deciding a settled picture

  /** A settled picture: which candidate explains it? Where the board then shows the record's position, the window of touched cells closes. */
  decide(picture: SettledGrid): MalawiRefereeEvent[] {
    const events = this.read(picture);
    if (this.isCalibrated && this.fits(this.expected(this.current()), picture.cells)) closeWindow(this.plies, this.settler);
    return events;
  }

  private read(picture: SettledGrid): MalawiRefereeEvent[] {
    this.decisions++;
    this.picture = picture;
    const gift = this.waiting?.kind === 'distribution' && this.waiting.ply === this.plies.length ? this.waiting : null;
    this.waiting = null;
    const t = picture.t;
    if (!this.isCalibrated) {
      const calibration = this.calibrate(picture);
      if (calibration) return calibration;
    }
    if (gift && !this.givesMore(gift, picture)) {
      // The board moved on from a distribution that could have gone on: the hands may have given
      // more beads on the way (the decoder reads the whole run from before it); else it was done.
      // When the picture is a move made after it, it was done.
      this.markWild(picture);
      const decoded = this.explainsFrom((gift.fit as Fit).next, picture.cells) === null ? this.decodeRun(picture, false) : null;
      if (decoded) return decoded;
      // Play it, then read the new picture after it.
      const events = this.commit(gift.picture.t, gift.fit as Fit);
      events.push(...this.decide(picture));
      return events;
    }
    // A question waits: the picture may tell its options apart, or show the board gone on from them.
    const weighed = this.weighQuestion(picture);
    if (weighed) return weighed;
    const ply = this.current();
    const state = ply.state;
    const cur = this.expected(ply);
    this.trustAgain(picture, cur);
    this.markWild(picture);
    this.findChanged(cur, picture.cells);
    if (this.changedCount === 0) return this.nothing(t);

    const fits = this.fittingMoves(picture);
    if (fits.length === 1 && this.wildFilled(fits[0].next, cur).length === 0) {
      const fit = fits[0];
      if (this.mayGiveMore(fit.move)) {
        // Beads may still be on their way to more pieces: wait, but do not call it a mismatch.
        this.waiting = { kind: 'distribution', picture, delay: this.distributeMs, since: t, fit, ply: this.plies.length };
        return [];
      }
      return this.commit(t, fit);
    }
    if (fits.length > 0) {
      const options = fits.map((f) => formatMove(f.move, this.size));
      const chains = fits.map((f) => [f]);
      if (fits.length > 1) {
        const listed = options.length <= 4 ? `: ${options.join(', ')}` : ` (${options.length} of them)`;
        return this.ask(t, 'ambiguous', chains, `More than one legal move fits the board${listed}. Which one was played?`, {
          options: options.join(', '),
          count: options.length,
        });
      }
      const squares = this.wildFilled(fits[0].next, cur).map((c) => squareName(this.shape, c)).join(', ');
      return this.ask(t, 'unsure', chains, `The sensor on ${squares} cannot be trusted: was ${options[0]} played?`, {
        options: options[0],
        squares,
        count: 1,
      });
    }

    // After the end, the opening set up again is a new game rather than every move taken back.
    if (state.outcome !== null && this.fits(this.expected(this.plies[0]), picture.cells)) return this.newGame(t);
    // An earlier position: the most recent one that fits (hidden moves repeat a picture; undo fewest).
    // The last mover putting their piece back is a take-back, not the other side moving out of turn.
    const oldest = Math.max(0, this.plies.length - 1 - this.takebackDepth);
    for (let k = this.plies.length - 2; k >= oldest; k--) {
      if (this.fits(this.expected(this.plies[k]), picture.cells)) return this.takeBack(t, k);
    }

    // A move the record took unasked may have been another of its options.
    const revised = this.revise(picture);
    if (revised) return revised;

    // One move the rules refuse is likelier than two moves of which one went unseen (the priors
    // of the Kalaha referee): north's piece moved while south is to move is an alert, and if
    // south did make a capture or distribution first, the console enters it and the referee looks again.
    const illegal = this.illegalPlacement(picture, cur);
    if (illegal) return illegal;

    const pairs = this.twoMoves(picture);
    if (pairs) return pairs;

    // Moves made without a still board between them, or a move the record took that the hands went
    // on to change; not while the picture looks like the next move under way (a piece or beads in a hand).
    const underWay = this.underWay(picture, cur);
    const decoded = underWay ? null : this.decodeRun(picture, false);
    if (decoded) return decoded;

    const delay = this.alerts.key === null && underWay ? this.handMs : this.mismatchMs;
    this.waiting = { kind: 'mismatch', picture, delay, since: t };
    return [];
  }

  /** Frames without a new picture: is a waiting picture due? */
  private tick(t: number): readonly MalawiRefereeEvent[] {
    const q = this.question;
    if (q && q.chains.length > 1 && this.assumeMs !== null && t - q.asked >= this.assumeMs) return this.assumeUnanswered(t, q);
    const w = this.waiting;
    if (!w) return NONE;
    if (!this.settler.holding) {
      w.since = null;
      return NONE;
    }
    w.since ??= t;
    if (t - w.since < w.delay) return NONE;
    this.waiting = null;
    switch (w.kind) {
      case 'mismatch': {
        // Still, and nothing after the record explains it: a move the record took may have been another.
        this.markWild(w.picture);
        const corrected = this.isCalibrated && !this.underWay(w.picture, this.expected(this.current())) ? this.decodeRun(w.picture, true, t) : null;
        return corrected ?? this.mismatch(w.picture, t);
      }
      case 'calibrating':
        return this.calibrating(w.picture, t);
      case 'distribution':
        return this.commit(t, w.fit as Fit);
      default:
        return assertNever(w.kind);
    }
  }

  /** The board shows the position: nothing happened (or a capture or distribution occupancy cannot see). */
  private nothing(t: number): MalawiRefereeEvent[] {
    const events: MalawiRefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(t));
    // A question about another picture is moot; the console's own question stays.
    if (this.question && this.question.reason !== 'hidden') this.closeQuestion(t, events);
    return events;
  }

  /** The board before it showed the game once; null: a resumed game's picture, to be read as any. */
  private calibrate(picture: SettledGrid): MalawiRefereeEvent[] | null {
    this.markWild(picture);
    if (!this.fits(this.expected(this.current()), picture.cells)) {
      // A resumed game's players may have played on while nobody watched (or, the game over, set up
      // the next): the picture is read as any. Its opening, the game still on, is the board set up again.
      if (this.resume.resuming && (this.state.outcome !== null || !this.fits(this.expected(this.plies[0]), picture.cells))) return null;
      // Said only if the board stays so: people are still setting up.
      this.waiting = { kind: 'calibrating', picture, delay: this.mismatchMs, since: picture.t };
      return [];
    }
    this.isCalibrated = true;
    this.resume.seen();
    const events: MalawiRefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(picture.t));
    events.push({ kind: 'calibrated', t: picture.t });
    return events;
  }

  private calibrating(picture: SettledGrid, t: number): readonly MalawiRefereeEvent[] {
    const counting = this.sensingMode === 'count';
    const message =
      this.plies.length > 1
        ? 'Waiting for the board to show the position of the game being resumed.'
        : `Waiting for the opening position: a piece on every square of ranks 1 and ${this.size}${counting ? ', each with two beads' : ''}.`;
    const cells = this.squareDiffs(picture, this.expected(this.current()));
    const alert = this.alerts.raise(t, `calibrating:${picture.cells.join('')}`, 'board/calibrating', message, { pieces: 2 * this.size, count: cells.length });
    return alert ? [{ ...alert, cells }] : NONE;
  }

  /** The legal moves whose picture the board shows. */
  private fittingMoves(picture: SettledGrid): Fit[] {
    const state = this.state;
    const counting = this.sensingMode === 'count';
    const fits: Fit[] = [];
    for (const move of this.legal()) {
      // Occupancy cannot see a capture or a distribution; and a move changes only squares it names.
      if (!counting && move.kind !== 'move') continue;
      if (!this.namesAllChanged(move)) continue;
      const next = play(state, move);
      if (!next.ok) continue;
      if (this.fits(this.observeFor(next.value), picture.cells)) fits.push({ move, next: next.value });
    }
    return fits;
  }

  /**
   * Histories of up to five moves from the record's position, or from up to three moves back,
   * grown only by moves whose squares the hands touched (grid-decoder.ts): the one all histories
   * that explain the picture agree on is played, and moves of the record it replaces are
   * corrected. Null when none explains it, or they disagree (the board may yet tell).
   */
  private decodeRun(picture: SettledGrid, correcting: boolean, t: number = picture.t): MalawiRefereeEvent[] | null {
    const last = this.plies.length - 1;
    // Only a correction needs the roots further back: from them, a history that keeps the record is one from its position.
    const oldest = correcting ? Math.max(0, last - REVISE_PLIES, this.resume.resuming ? last : 0) : last;
    // From the record as it stands first: a move is corrected only when nothing after it explains the board.
    let root = last;
    let agreement: ReturnType<typeof decodeGrid<MalawiState, MalawiMove>> = { kind: 'none' };
    for (; root >= oldest; root--) {
      const recorded = this.plies.slice(root + 1).map((p) => p.move as MalawiMove);
      const touched = touchedSince(this.plies, root, this.settler);
      agreement = decodeGrid(this.gridGame(), this.plies[root].state, recorded, { cells: picture.cells, wild: this.wild, touched, fresh: this.settler.touched });
      if (agreement.kind !== 'none') break;
    }
    
    if (agreement.kind === 'undecided') return root === last ? this.askAmong(t, agreement.agreed, agreement.options) : null;
    if (agreement.kind !== 'agreed') return null;
    const { history, keep, replace, add } = agreement;
    // A picture of a hand at work can look like another history: the record is changed only by a
    // picture that has stood still as long as a mismatch must (the tick reads it again then).
    if (replace.length > 0 && !correcting) return null;
    // A distribution at the end that could still give beads to more pieces waits as any distribution seen does.
    const lastMove = add[add.length - 1];
    const before = history.nodes[keep + add.length - 1];
    const open = lastMove !== undefined && this.mayGiveMore(lastMove, before) ? { move: lastMove, next: history.nodes[keep + add.length] } : null;
    const made = open ? add.slice(0, -1) : add;
    const events: MalawiRefereeEvent[] = [];
    if (replace.length === 0) {
      made.forEach((move, i) => events.push(...this.commit(t, { move, next: history.nodes[keep + 1 + i] })));
    } else {
      const from = root + keep + 1;
      const plies = made.map((move, i) => plyOf(history.nodes[keep + 1 + i], move, formatMove(move, this.size)));
      this.closeQuestion(t, events);
      if (this.alerts.key) events.push(this.alerts.clear(t));
      events.push(...this.taken.dropAfter(from - 1, t));
      events.push(...this.correct(t, from, plies, 'evidence'));
    }
    if (open) this.waiting = { kind: 'distribution', picture, delay: this.distributeMs, since: t, fit: open, ply: this.plies.length };
    return events;
  }

  /**
   * Histories from the record's position that explain the picture as well as each other: the
   * moves they share are played, and the console is asked which of their next moves was made
   * (a question that never blocks: hypotheses.ts). Null when they do not part at one move each.
   */
  private askAmong(t: number, agreed: readonly MalawiMove[], options: readonly (readonly MalawiMove[])[]): MalawiRefereeEvent[] | null {
    const k = agreed.length;
    const keys = options.map((o) => (o.length > k ? canonical(o[k], this.size) : ''));
    if (keys.includes('') || new Set(keys).size !== keys.length) return null;
    const chainOf = (moves: readonly MalawiMove[]): Fit[] | null => {
      const fits: Fit[] = [];
      let state = this.state;
      for (const move of moves) {
        const next = play(state, move);
        if (!next.ok) return null;
        fits.push({ move, next: next.value });
        state = next.value;
      }
      return fits;
    };
    const shared = chainOf(agreed);
    if (!shared) return null;
    const events: MalawiRefereeEvent[] = [];
    for (const fit of shared) events.push(...this.commit(t, fit));
    const chains = options.map((o) => chainOf(o.slice(k)));
    if (chains.some((c) => c === null)) return events.length ? events : null;
    const names = chains.map((c) => formatMove((c as Fit[])[0].move, this.size));
    const listed = names.length <= 4 ? `: ${names.join(', ')}` : ` (${names.length} of them)`;
    events.push(
      ...this.ask(t, 'ambiguous', chains as Fit[][], `More than one legal move fits the board${listed}. Which one was played?`, {
        options: names.join(', '),
        count: names.length,
      }),
    );
    return events;
  }

  /** The game as the decoder sees it on this board: a counting board sees captures and distributions, occupancy only moves. */
  private gridGame(): GridGame<MalawiState, MalawiMove> {
    const counting = this.sensingMode === 'count';
    return {
      moves: (state) => (state.outcome !== null ? [] : legalMoves(state).filter((m) => counting || m.kind === 'move')),
      // What the sensors see change, and a moved piece's two squares (a slide touches both).
      cells: (before, move, after) => {
        const cells = changedCells((s) => this.observeFor(s), before, after);
        if (move.kind === 'move') for (const c of [move.from, move.to]) if (!cells.includes(c)) cells.push(c);
        return cells;
      },
      // The squares a move changes are the ones it names (a captor stays where it is).
      named: (move) => (move.kind === 'capture' ? [move.to] : namedCells(move)),
      play: (state, move) => {
        const next = play(state, move);
        return next.ok ? next.value : null;
      },
      observe: (state) => this.observeFor(state),
      same: (a, b) => canonical(a, this.size) === canonical(b, this.size),
    };
  }

  /**
   * A capture or distribution nobody entered, then the opponent's move; or two moves made without
   * a pause. The board shows one square emptied and one filled (or two of each): the opponent's
   * move is the last of them, and the engine says which first moves would make it legal.
   */
  private twoMoves(picture: SettledGrid): MalawiRefereeEvent[] | null {
    const state = this.state;
    if (state.outcome !== null) return null;
    const cur = this.current().occupancy;
    const emptied: number[] = [];
    const filled: number[] = [];
    for (let k = 0; k < this.changedCount; k++) {
      const c = this.changed[k];
      const now = picture.cells[c] !== 0 ? 1 : 0;
      if (now === cur[c]) continue;
      (now === 0 ? emptied : filled).push(c);
    }
    if (emptied.length !== filled.length || emptied.length < 1 || emptied.length > 2) return null;
    const counting = this.sensingMode === 'count';
    const pairs: { first: Fit; second: Fit }[] = [];
    for (const first of this.legal()) {
      let from: number;
      let to: number;
      if (emptied.length === 1) {
        if (first.kind === 'move') continue;
        [from, to] = [emptied[0], filled[0]];
      } else {
        if (first.kind !== 'move' || !emptied.includes(first.from) || !filled.includes(first.to)) continue;
        from = emptied[emptied[0] === first.from ? 1 : 0];
        to = filled[filled[0] === first.to ? 1 : 0];
      }
      const mid = play(state, first);
      if (!mid.ok || mid.value.outcome !== null) continue;
      const second: MalawiMove = { kind: 'move', from, to };
      if (whyIllegal(mid.value, second)) continue;
      const next = play(mid.value, second);
      if (!next.ok || !this.fits(this.observeFor(next.value), picture.cells)) continue;
      pairs.push({ first: { move: first, next: mid.value }, second: { move: second, next: next.value } });
    }
    if (pairs.length === 0) return null;
    const t = picture.t;
    // Both moves seen (a counting board, or two plain moves): play them. Otherwise ask for the first.
    if (pairs.length === 1 && (counting || pairs[0].first.move.kind === 'move')) {
      const events = this.commit(t, pairs[0].first);
      events.push(...this.commit(t, pairs[0].second));
      return events;
    }
    const then = formatMove(pairs[0].second.move, this.size);
    const mover = state.toMove;
    const other = pairs[0].first.next.toMove;
    const what = emptied.length === 1 ? 'capture or distribution' : 'move';
    return this.ask(
      t,
      'hidden-before',
      pairs.map((p) => [p.first, p.second]),
      `The board shows ${other}'s ${then}, but ${mover} was to move: which ${what} did ${mover} make first?`,
      { side: mover, then, count: pairs.length },
    );
  }

  /** A piece lifted from one square and put on another that no legal move reaches: the engine says why. */
  private illegalPlacement(picture: SettledGrid, cur: readonly number[]): MalawiRefereeEvent[] | null {
    const state = this.state;
    const occupied = this.current().occupancy;
    let from = -1;
    let to = -1;
    let emptied = 0;
    let filled = 0;
    const raised: number[] = [];
    let lowered = -1;
    let otherChanges = 0;
    for (let k = 0; k < this.changedCount; k++) {
      const c = this.changed[k];
      const now = picture.cells[c] !== 0 ? 1 : 0;
      if (now < occupied[c]) {
        from = c;
        emptied++;
      } else if (now > occupied[c]) {
        to = c;
        filled++;
      } else if (picture.cells[c] === cur[c] + 1) raised.push(c);
      else if (picture.cells[c] === 1 && cur[c] > 1 && lowered < 0) lowered = c;
      else otherChanges++;
    }
    let error: RuleError | null = null;
    let cells: SquareDiff[] = [];
    let key = '';
    let params: Record<string, string | number> = {};
    if (emptied === 1 && filled === 1 && raised.length === 0 && lowered < 0 && otherChanges === 0) {
      error = whyIllegalMoveTo(state, from, to);
      cells = [
        { cell: from, diff: -1 },
        { cell: to, diff: 1 },
      ].sort((a, b) => a.cell - b.cell);
      params = { from: squareName(this.shape, from), to: squareName(this.shape, to) };
      key = `illegal:${this.plies.length}:${from}:${to}`;
    } else if (this.sensingMode === 'count' && emptied === 0 && filled === 0 && lowered >= 0 && raised.length > 0 && otherChanges === 0) {
      // A counting board: one piece emptied of its beads and others given one each — a distribution the rules refuse.
      const move: MalawiMove = { kind: 'distribute', from: lowered, recipients: raised };
      error = whyIllegal(state, move);
      cells = [lowered, ...raised].sort((a, b) => a - b).map((cell) => ({ cell, diff: 0, beads: picture.cells[cell] - cur[cell] }));
      params = { from: squareName(this.shape, lowered), move: formatMove(move, this.size) };
      key = `illegal:${this.plies.length}:${formatMove(move, this.size)}`;
    }
    if (!error) return null;
    const alert = this.alerts.raise(picture.t, key, error.code, error.message, { ...(error.params ?? {}), ...params });
    return alert ? [{ ...alert, cells }] : [];
  }

  /** Nothing fits and the board has stood still: name the first square to fix. */
  private mismatch(picture: SettledGrid, t: number): readonly MalawiRefereeEvent[] {
    const expected = this.expected(this.current());
    this.markWild(picture);
    const cells = this.squareDiffs(picture, expected);
    if (cells.length === 0) return NONE;
    // One square at a time: first take off pieces that should not be there (the hand then holds
    // the piece that is missing elsewhere), then put back missing ones, then beads.
    const rank = (d: SquareDiff): number => (d.diff > 0 ? 0 : d.diff < 0 ? 1 : 2);
    const first = [...cells].sort((a, b) => rank(a) - rank(b) || a.cell - b.cell)[0];
    const square = squareName(this.shape, first.cell);
    const beads = first.beads ?? 0;
    const action: MismatchAction = first.diff > 0 ? 'take-off' : first.diff < 0 ? 'put-back' : beads < 0 ? 'add-beads' : 'remove-beads';
    let sentence: string;
    switch (action) {
      case 'take-off':
        sentence = `Take the piece off ${square}`;
        break;
      case 'put-back':
        sentence = `Put the piece back on ${square}`;
        break;
      case 'add-beads':
        sentence = `Put ${beadCount(-beads)} back on the piece on ${square}`;
        break;
      case 'remove-beads':
        sentence = `Take ${beadCount(beads)} off the piece on ${square}`;
        break;
      default:
        return assertNever(action);
    }
    const remaining = cells.length;
    const message = remaining === 1 ? `${sentence}.` : `${sentence} (first of ${remaining} squares to fix).`;
    const params: Record<string, string | number> = { square, remaining, action };
    if (beads !== 0) params.beads = Math.abs(beads);
    const alert = this.alerts.raise(t, `mismatch:${this.plies.length}:${picture.cells.join(',')}`, 'referee/mismatch', message, params);
    return alert ? [{ ...alert, cells }] : NONE;
  }

  /** Trusted squares where the picture differs from `expected`, in pieces (and beads on a counting board). */
  private squareDiffs(picture: SettledGrid, expected: readonly number[]): SquareDiff[] {
    const cells: SquareDiff[] = [];
    for (let c = 0; c < expected.length; c++) {
      const sensed = picture.cells[c];
      if (this.wild[c] || sensed === expected[c]) continue;
      const there = sensed !== 0 ? 1 : 0;
      const should = expected[c] !== 0 ? 1 : 0;
      if (there !== should) cells.push({ cell: c, diff: there - should });
      else cells.push({ cell: c, diff: 0, beads: sensed - expected[c] });
    }
    return cells;
  }

  // -------------------------------------------------------------------------------------------
  // Verdicts

  private commit(t: number, fit: Fit, assumed = false): MalawiRefereeEvent[] {
    const events: MalawiRefereeEvent[] = [];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    const before = this.state;
    const notation = formatMove(fit.move, this.size);
    this.plies.push(plyOf(fit.next, fit.move, notation));
    this.waiting = null;
    events.push(assumed ? { kind: 'move', t, move: notation, ply: this.plies.length - 1, assumed: true } : { kind: 'move', t, move: notation, ply: this.plies.length - 1 });
    if (fit.next.outcome !== null && before.outcome === null) events.push({ kind: 'end', t, outcome: fit.next.outcome });
    return events;
  }

  private takeBack(t: number, toPly: number): MalawiRefereeEvent[] {
    const events: MalawiRefereeEvent[] = [];
    this.closeQuestion(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    events.push(...this.taken.dropAfter(toPly, t));
    const undone = this.plies.slice(toPly + 1).map((p) => p.notation as string);
    this.plies.length = toPly + 1;
    events.push({ kind: 'takeback', t, undone, ply: toPly });
    return events;
  }

  private newGame(t: number): MalawiRefereeEvent[] {
    const events: MalawiRefereeEvent[] = [];
    this.closeQuestion(t, events);
    events.push(...this.taken.dropAfter(0, t));
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.plies = [plyOf(initial(this.rules), null, null)];
    this.distrusted.fill(0);
    events.push({ kind: 'new-game', t });
    return events;
  }

  /**
   * Ask the console, unless the same question is open already; a question replaces any other.
   * Options that all leave the same game are no question the game waits on: the record takes the
   * first at once (`assumed`), and the question stays open for the console (`blocking: false`).
   */
  private ask(t: number, reason: QuestionReason, chains: readonly (readonly Fit[])[], message: string, params: Record<string, string | number>): MalawiRefereeEvent[] {
    const moves = chains.map((c) => c[0].move);
    const keys = moves.map((m) => canonical(m, this.size));
    const open = this.question;
    if (open && open.reason === reason && open.keys.length === keys.length && open.keys.every((k, i) => k === keys[i])) return [];
    const events: MalawiRefereeEvent[] = [];
    this.closeQuestion(t, events);
    const same = samePosition(
      chains.map((c) => c[c.length - 1].next),
      (s) => this.observeFor(s),
    );
    const options = moves.map((m) => formatMove(m, this.size));
    const event: MalawiQuestion = {
      kind: 'question',
      t,
      id: ++this.questionSeq,
      code: 'referee/which-move',
      message: same ? `${message} Every answer leaves the same position: the record takes ${options[0]}.` : message,
      params: same ? { reason, ...params, ply: this.plies.length, taken: options[0] } : { reason, ...params },
      options,
      ...(same ? { blocking: false as const } : {}),
    };
    const question: OpenQuestion = { event, reason, moves, keys, chains, asked: t };
    if (same) {
      events.push(...this.assume(t, question, likeliest(options)), event);
      return events;
    }
    this.question = question;
    events.push(event);
    return events;
  }

  /** The record takes option `index` without an answer: its move is `assumed`, the question stays answerable. */
  private assume(t: number, q: OpenQuestion, index: number): MalawiRefereeEvent[] {
    if (this.question === q) this.question = null;
    const ply = this.plies.length;
    const events: MalawiRefereeEvent[] = [];
    q.chains[index].forEach((fit, k) => events.push(...this.commit(t, fit, k === 0)));
    this.taken.add(q, q.event, ply, index);
    return events;
  }

  /** Nobody answered in time and the board never told the options apart: the likeliest, assumed; then the board as it stands. */
  private assumeUnanswered(t: number, q: OpenQuestion): MalawiRefereeEvent[] {
    const events = this.assume(t, q, likeliest(q.event.options, q.event.preselected));
    if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
    return events;
  }

  /**
   * A picture while a question waits, read from each option's position: the one option that
   * explains it is taken (the question closes); several the board moved on from, the likeliest of
   * them, assumed. Null when the picture does not tell them apart: it is read as usual.
   */
  private weighQuestion(picture: SettledGrid): MalawiRefereeEvent[] | null {
    const q = this.question;
    if (!q) return null;
    this.markWild(picture);
    const explains = q.chains.map((chain) => this.explainsFrom(chain[chain.length - 1].next, picture.cells));
    const verdict = weigh(explains);
    let events: MalawiRefereeEvent[];
    switch (verdict.kind) {
      case 'open':
        return null;
      case 'decided': {
        const chain = q.chains[verdict.index];
        events = [];
        if (explains[verdict.index] === 'position' && chain.length === 1 && this.mayGiveMore(chain[0].move)) {
          // Beads may still be on their way to more pieces: wait as for any distribution seen.
          this.closeQuestion(picture.t, events);
          this.waiting = { kind: 'distribution', picture, delay: this.distributeMs, since: picture.t, fit: chain[0], ply: this.plies.length };
          return events;
        }
        chain.forEach((fit) => events.push(...this.commit(picture.t, fit)));
        break;
      }
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

  /** Whether the picture is the position after `state`'s option, or a legal move from it. */
  private explainsFrom(state: MalawiState, cells: readonly number[]): Explains {
    if (this.fits(this.observeFor(state), cells)) return 'position';
    if (state.outcome !== null) return null;
    const counting = this.sensingMode === 'count';
    for (const move of legalMoves(state)) {
      if (!counting && move.kind !== 'move') continue;
      const next = play(state, move);
      if (next.ok && this.fits(this.observeFor(next.value), cells)) return 'move';
    }
    return null;
  }

  private closeQuestion(t: number, events: MalawiRefereeEvent[]): void {
    if (!this.question) return;
    events.push({ kind: 'question-closed', t, id: this.question.event.id });
    this.question = null;
  }


  // -------------------------------------------------------------------------------------------
  // Pictures

  private senses(mode: Sensing): void {
    if (this.sensingMode === mode) return;
    // A board that changes what it reports is a different board: start its pictures afresh.
    if (this.sensingMode !== null) {
      this.settler.reset();
      this.picture = null;
      this.waiting = null;
    }
    this.sensingMode = mode;
  }

  private current(): Ply {
    return this.plies[this.plies.length - 1];
  }

  private legal(): readonly MalawiMove[] {
    const ply = this.current();
    ply.legal ??= legalMoves(ply.state);
    return ply.legal;
  }

  private expected(ply: Ply): readonly number[] {
    return this.sensingMode === 'count' ? ply.counts : ply.occupancy;
  }

  private observeFor(state: MalawiState): readonly number[] {
    return this.sensingMode === 'count' ? observeCounts(state) : observe(state);
  }

  private markWild(picture: SettledGrid): void {
    this.wild.set(this.distrusted);
    for (const c of picture.unsure) this.wild[c] = 1;
  }

  /** An overridden square that reads what the game expects is trusted again. */
  private trustAgain(picture: SettledGrid, cur: readonly number[]): void {
    for (let c = 0; c < cur.length; c++) if (this.distrusted[c] && picture.cells[c] === cur[c]) this.distrusted[c] = 0;
  }

  /** Whether `expected` fits the picture on every square the referee looks at. */
  private fits(expected: readonly number[], cells: readonly number[]): boolean {
    for (let c = 0; c < expected.length; c++) if (expected[c] !== cells[c] && this.wild[c] === 0) return false;
    return true;
  }

  private findChanged(cur: readonly number[], cells: readonly number[]): void {
    let n = 0;
    for (let c = 0; c < cur.length; c++) if (cur[c] !== cells[c] && this.wild[c] === 0) this.changed[n++] = c;
    this.changedCount = n;
  }

  /** A move can only explain changes on squares it names (a cheap test before asking the engine). */
  private namesAllChanged(move: MalawiMove): boolean {
    for (let k = 0; k < this.changedCount; k++) {
      const c = this.changed[k];
      switch (move.kind) {
        case 'move':
          if (c !== move.from && c !== move.to) return false;
          break;
        case 'capture':
          if (c !== move.to) return false;
          break;
        case 'distribute':
          if (c !== move.from && !move.recipients.includes(c)) return false;
          break;
        default:
          return assertNever(move);
      }
    }
    return true;
  }

  /**
   * Squares the referee cannot see where the move puts a piece or beads: a move that needs them
   * is not taken on trust (a piece lifted and held looks the same). Squares it empties may be unseen.
   */
  private wildFilled(next: MalawiState, cur: readonly number[]): number[] {
    const after = this.observeFor(next);
    const cells: number[] = [];
    for (let c = 0; c < cur.length; c++) if (this.wild[c] && after[c] > cur[c]) cells.push(c);
    return cells;
  }

  /** A distribution seen on a counting board that the engine would let give beads to more pieces. */
  /** Does the picture only add beads, one each, to more of the distributing side's pieces? */
  private givesMore(gift: Waiting, picture: SettledGrid): boolean {
    const fit = gift.fit as Fit;
    const mover = this.state.toMove;
    for (let c = 0; c < picture.cells.length; c++) {
      if (picture.cells[c] === gift.picture.cells[c]) continue;
      const piece = fit.next.squares[c];
      if (!piece || piece.side !== mover || picture.cells[c] !== gift.picture.cells[c] + 1) return false;
    }
    return true;
  }

  private mayGiveMore(move: MalawiMove, from?: MalawiState): boolean {
    if (move.kind !== 'distribute') return false;
    let most = 0;
    for (const m of from ? legalMoves(from) : this.legal()) if (m.kind === 'distribute' && m.from === move.from && m.recipients.length > most) most = m.recipients.length;
    return move.recipients.length < most;
  }

  /**
   * Does the picture look like a move being made by the player to move: one of their pieces in
   * the air and nothing new on the board, beads taken off and not more given than taken?
   */
  private underWay(picture: SettledGrid, cur: readonly number[]): boolean {
    const state = this.state;
    if (state.outcome !== null) return false;
    let lifted = 0;
    let before = 0;
    let after = 0;
    for (let c = 0; c < cur.length; c++) {
      if (this.wild[c]) continue;
      before += cur[c];
      after += picture.cells[c];
      if (cur[c] === picture.cells[c]) continue;
      if (cur[c] === 0) return false; // something put where nothing was
      if (picture.cells[c] === 0) {
        const piece = state.squares[c];
        if (piece === null || piece.side !== state.toMove || ++lifted > 1) return false;
      } else if (this.sensingMode !== 'count') return false;
    }
    return after <= before;
  }
}

function plyOf(state: MalawiState, move: MalawiMove | null, notation: string | null, touched: TouchedPly['touched'] = null): Ply {
  return { state, move, notation, occupancy: observe(state), counts: observeCounts(state), legal: null, touched };
}

/** Every square a move names: its piece, and where it goes, captures or gives beads. */
function namedCells(move: MalawiMove): number[] {
  switch (move.kind) {
    case 'move':
    case 'capture':
      return [move.from, move.to];
    case 'distribute':
      return [move.from, ...move.recipients];
    default:
      return assertNever(move);
  }
}

/** The refusal of an answer that is not one of a question's options: the engine's reason when it has one. */
function notAnOption(state: MalawiState, text: string, move: MalawiMove, options: readonly string[]): RuleError {
  const illegal = whyIllegal(state, move);
  const why = illegal ? illegal.message : options.length <= 6 ? `the moves offered are ${options.join(', ')}` : `${options.length} other moves were offered`;
  const params: Record<string, string | number> = { move: text, options: options.join(', ') };
  if (illegal) params.reason = illegal.code;
  return { code: 'referee/not-an-option', message: `${text} is not one of the moves offered: ${why}`, params };
}

/** A move's notation with recipients ascending: `d1>e1,a1` and `d1>a1,e1` are one answer. */
function canonical(move: MalawiMove, size: number): string {
  if (move.kind !== 'distribute') return formatMove(move, size);
  return formatMove({ ...move, recipients: [...move.recipients].sort((a, b) => a - b) }, size);
}

const BEAD_WORDS = ['no beads', 'one bead', 'two beads', 'three beads', 'four beads', 'five beads', 'six beads', 'seven beads'];
const beadCount = (n: number): string => BEAD_WORDS[n] ?? `${n} beads`;
