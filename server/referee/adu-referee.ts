// The Adu referee: settled pictures of an occupancy grid of intersections → placements, moves, captures and reserve kings, questions for the console, take-backs and alerts.
//
// As DESIGN.md asks, moves are never read from raw differences: the referee asks the engine what
// the board would show after every legal move (observe(play(state, move))) and after every earlier
// position, and keeps what the settled picture fits exactly on every intersection it trusts.
// Identities follow from continuity: the engine's position names every piece (placement order),
// and a move carries its piece along.
//
// What occupancy cannot tell, and what the referee does about it:
// - A capture leaves its target occupied (the captor now stands there): the picture shows only the
//   captor's point emptied, which is also what a piece held in the hand looks like. People take the
//   captured piece off first (or lift both), so some settled picture on the way usually shows the
//   target empty: that trail is the evidence which piece was taken. A capture-shaped picture without
//   evidence is not guessed: once it has stood still a while, the console is asked.
// - A captured king earns a reserve king, placed as part of the same move: the referee waits for it
//   to appear on a free point (`pending()`, guided by a `board/place-reserve` alert), and for the
//   pieces of a player put out to be taken off (`board/remove-pieces`).
// - A captured soldier's range is declared by its owner: the console asks, offering only the
//   consistent ranges, the lowest preselected. Play goes on meanwhile under the lowest (the default,
//   and the most permissive for the owner's other soldiers, so no move is refused that some answer
//   would allow); only a move of the owner's that some offered answer would forbid waits for the
//   answer (`referee/declare-first`). An answer other than the lowest rewrites the capture in the
//   record (`declared`), and replays the moves since.
// - Two legal moves that leave the same picture (a plain move, or a king capture whose reserve went
//   to the same point) are asked as a question.
// A question never stops the game (hypotheses.ts): options that leave the same position are
// taken at once; the others stay hypotheses the next pictures decide, the likeliest `assumed` when
// play goes on from them or nobody answers; a later answer or picture corrects the record.
// Nothing else is committed on a guess. Take-backs, illegal moves (the engine's reason, at once) and
// mismatches are handled as the Malawi referee handles them. A game resumed after a restart is read
// the same way from its first picture on: the players may have played on while nobody watched, and
// a move read so is one they made meanwhile.
import {
  declarableRanges,
  initial,
  legalMoves,
  observe,
  play,
  squareName,
  whyIllegal,
  type AduMove,
  type AduOptions,
  type AduOutcome,
  type AduPiece,
  type AduState,
  type Square,
} from '../rules/adu.ts';
import { formatMove, parseMove } from '../rules/adu-notation.ts';
import { assertNever, type RuleError } from '../rules/types.ts';
import { DEFAULT_GRID_SETTLE, GridSettler, type GridSettleOptions, type SettledGrid } from './grid-settle.ts';
import type { GridPicture } from './malawi-referee.ts';
import { boardShape, type CellDiff } from './squares.ts';
import { AlertLatch } from './alert-latch.ts';
import { ResumeWatch } from './resume-watch.ts';
import { DEFAULT_ASSUME_MS, REVISE_PLIES, TakenQuestions, correction, likeliest, replayRecord, revision, samePosition, weigh, type Explains, type ReplayStep, type Taken } from './hypotheses.ts';
import type { BoardAlert, BoardQuestion, BoardRefereeEvent } from './events.ts';

export interface AduRefereeOptions {
  readonly settle?: GridSettleOptions;
  /** How many plies back a take-back is recognised. */
  readonly takebackDepth?: number;
  /** How long a picture nothing explains must stand still before it is called a mismatch, ms. */
  readonly mismatchMs?: number;
  /** The same for a picture that looks like a move under way (a piece of the player to move in the hand). */
  readonly handMs?: number;
  /**
   * How long a capture-shaped picture without evidence (the captor's point empty, nothing else
   * changed: a capture, or a piece in the hand?) must stand still before the console is asked.
   */
  readonly captureMs?: number;
  /**
   * How long an open declaration may hold up a move that depends on it before the default (the
   * lowest consistent range) is taken, ms; null (the default) waits for the console. A simulated
   * table whose players cannot answer uses 0: the default as soon as the game needs it.
   */
  readonly declareTimeoutMs?: number | null;
  /**
   * How long a question which move was played, whose answer matters, waits for the console or the
   * board before the record takes its likeliest option (marked `assumed`), ms; null: it waits.
   */
  readonly assumeMs?: number | null;
}

export type AduAlert = BoardAlert;

export type AduQuestion = BoardQuestion;

export type AduRefereeEvent =
  | BoardRefereeEvent<{ readonly winner: string; readonly reason: string; readonly players: readonly number[] }>
  /**
   * A captured soldier's range was declared. When the record changes (a range other than the
   * lowest), `undone` are the record's moves from ply `ply` on before, `moves` after: the capture
   * rewritten and the moves since replayed.
   */
  | {
      readonly kind: 'declared';
      readonly t: number;
      readonly ply: number;
      readonly player: number;
      readonly soldier: string;
      readonly range: number;
      readonly undone: readonly string[];
      readonly moves: readonly string[];
    };

export type AduCommandResult =
  | { readonly ok: true; readonly events: readonly AduRefereeEvent[] }
  | { readonly ok: false; readonly error: RuleError };

/** Why the console is asked which move: several fit; one fits only by an unsure sensor; a capture without evidence (or a piece in the hand?). */
export const ADU_QUESTION_REASONS = ['ambiguous', 'unsure', 'capture'] as const;
export type AduQuestionReason = (typeof ADU_QUESTION_REASONS)[number];

/** A capture seen but not complete: the reserve king is still to be placed, or the pieces of a player put out still to be taken off. */
export interface AduPending {
  readonly from: Square;
  readonly to: Square;
  /** The captor. */
  readonly player: number;
  readonly captured: AduPiece;
  /** Whether a reserve king is due and not yet on the board. */
  readonly awaitingReserve: boolean;
  /** Intersections still holding pieces of the player put out. */
  readonly remove: readonly Square[];
}

interface Ply {
  readonly state: AduState;
  readonly move: AduMove | null;
  readonly notation: string | null;
  readonly occupancy: readonly number[];
  /** The legal moves of this position, made when first needed. */
  legal: readonly AduMove[] | null;
}

interface Fit {
  readonly move: AduMove;
  readonly next: AduState;
}

/** A king capture the picture shows under way: the captor on the king's point, reserve king or removals to come. */
interface PendingFit extends AduPending {
  /** The capture with `reserve: null`, as the question writes it. */
  readonly move: Extract<AduMove, { kind: 'capture' }>;
}

type Candidate = { readonly kind: 'fit'; readonly fit: Fit } | { readonly kind: 'pending'; readonly pending: PendingFit };

interface OpenChoice {
  readonly event: AduQuestion;
  readonly reason: AduQuestionReason;
  readonly candidates: readonly Candidate[];
  readonly keys: readonly string[];
  /** When it was asked, on the board's clock. */
  readonly asked: number;
}

/** A choice whose options are all complete moves: the hypotheses the next pictures may decide. */
const fitsOf = (q: OpenChoice): Fit[] | null => (q.candidates.every((c) => c.kind === 'fit') ? q.candidates.map((c) => (c as Extract<Candidate, { kind: 'fit' }>).fit) : null);

/** A captured soldier whose owner may still declare its range. */
interface Declaration {
  /** The capture's index in the plies. */
  readonly ply: number;
  readonly player: number;
  readonly soldier: string;
  /** Where it was captured. */
  readonly square: string;
  /** The capture in notation, without a declaration. */
  readonly capture: string;
  question: AduQuestion | null;
  options: readonly number[];
}

/** A picture waiting for the board to stand still long enough. */
interface Waiting {
  readonly kind: 'mismatch' | 'calibrating' | 'ask' | 'declaration' | 'takeback';
  readonly picture: SettledGrid;
  readonly delay: number;
  /** Since when the board has held this picture; null when it moved since. */
  since: number | null;
  readonly candidates?: readonly Candidate[];
  readonly declaration?: Declaration;
  /** A take-back to this ply, once the board has stood still. */
  readonly ply?: number;
}

const NONE: readonly AduRefereeEvent[] = Object.freeze([]);

/**
 * Unrest shorter than this does not restart a wait, ms: a flaky switch misreading for a few frames
 * keeps the board from holding for those frames and the settle stage's hold time after them
 * (400 ms); a hand at work keeps it longer.
 */
const BLINK_MS = 700;

export class AduReferee {
  private plies: Ply[];
  private readonly size: number;
  private readonly settler: GridSettler;
  private readonly takebackDepth: number;
  private readonly mismatchMs: number;
  private readonly handMs: number;
  private readonly captureMs: number;
  private readonly declareTimeoutMs: number | null;
  private isCalibrated = false;
  /** A resumed game's board not read as the game yet. */
  private readonly resume = new ResumeWatch(() => (this.isCalibrated = true));
  private picture: SettledGrid | null = null;
  private waiting: Waiting | null = null;
  private readonly alerts = new AlertLatch();
  private choice: OpenChoice | null = null;
  /** Questions about moves the record took without an answer: the console may still change them. */
  private readonly taken = new TakenQuestions<OpenChoice>();
  private readonly assumeMs: number | null;
  private declarations: Declaration[] = [];
  private questionSeq = 0;
  private pendingCapture: PendingFit | null = null;
  /** The last piece placed was taken off again: a take-back to this ply, unless it turns out to be a capture under way. */
  private deferredTakeback: number | null = null;
  /** A king capture the console chose while its reserve king was still to come: only its completion is looked for. */
  private chosen: { from: Square; to: Square } | null = null;
  private lastT = 0;
  /** Since when the board has not held its picture (a hand at work, or a switch blinking), or null. */
  private unsettledSince: number | null = null;
  /** Cells not to look at in this decision: unsure sensors and overridden ones. */
  private readonly wild: Uint8Array;
  /** Cells the console overrode (a move entered by hand where the board read otherwise). */
  private readonly distrusted: Uint8Array;
  /** Intersections of the position seen empty in a settled picture since the last move: which piece was taken. */
  private readonly seenEmpty: Uint8Array;
  /** Scratch: trusted cells where the picture differs from the position, emptied and filled. */
  private readonly emptied: Int32Array;
  private readonly filled: Int32Array;
  private emptiedCount = 0;
  private filledCount = 0;
  /** Scratch for counts frames read as occupancy. */
  private readonly occupied: Int32Array;
  /** Settled pictures decided so far (for statistics and the bench). */
  decisions = 0;

  constructor(
    readonly rules: AduOptions,
    options: AduRefereeOptions = {},
  ) {
    // A grid board has at most 13 × 13 sensors; the shape check says so in its own words.
    boardShape(rules.size);
    this.size = rules.size;
    const cells = rules.size * rules.size;
    this.plies = [plyOf(initial(rules), null, null)];
    this.settler = new GridSettler(cells, options.settle ?? DEFAULT_GRID_SETTLE);
    this.takebackDepth = options.takebackDepth ?? 12;
    this.mismatchMs = options.mismatchMs ?? 1500;
    this.handMs = options.handMs ?? 6000;
    this.captureMs = options.captureMs ?? 2500;
    this.declareTimeoutMs = options.declareTimeoutMs ?? null;
    this.assumeMs = options.assumeMs === undefined ? DEFAULT_ASSUME_MS : options.assumeMs;
    this.wild = new Uint8Array(cells);
    this.distrusted = new Uint8Array(cells);
    this.seenEmpty = new Uint8Array(cells);
    this.emptied = new Int32Array(cells);
    this.filled = new Int32Array(cells);
    this.occupied = new Int32Array(cells);
  }

  get state(): AduState {
    return this.current().state;
  }
  get calibrated(): boolean {
    return this.isCalibrated;
  }
  /** A resumed game's board not read as the game yet: a move read from it was made while nobody watched (ResumeWatch). */
  get resuming(): boolean {
    return this.resume.resuming;
  }
  /** The moves played so far, in notation, after take-backs. */
  record(): string[] {
    return this.plies.slice(1).map((p) => p.notation as string);
  }
  /** The last move in notation and the intersections it named (for the display). */
  lastMove(): { notation: string; squares: string[] } | null {
    const last = this.current();
    if (last.move === null) return null;
    return { notation: last.notation as string, squares: namedCells(last.move).map((c) => squareName(c, this.size)) };
  }
  /** A king capture the board shows under way (reserve king or removals still to come), or null. */
  pending(): AduPending | null {
    const p = this.pendingCapture;
    return p === null ? null : { from: p.from, to: p.to, player: p.player, captured: p.captured, awaitingReserve: p.awaitingReserve, remove: p.remove };
  }
  /** Captured soldiers whose range their owner has not declared yet, oldest first. */
  openDeclarations(): { player: number; soldier: string; square: string; capture: string }[] {
    return this.declarations.map((d) => ({ player: d.player, soldier: d.soldier, square: d.square, capture: d.capture }));
  }
  openQuestions(): AduQuestion[] {
    const open: AduQuestion[] = [...this.taken.events()];
    if (this.choice) open.push(this.choice.event);
    for (const d of this.declarations) if (d.question) open.push(d.question);
    return open;
  }
  /** Intersections whose sensor the referee does not look at: flickering, or overridden by the console. */
  untrustedSquares(): string[] {
    const unsure = this.picture?.unsure ?? [];
    const names: string[] = [];
    for (let c = 0; c < this.distrusted.length; c++) if (this.distrusted[c] || unsure.includes(c)) names.push(squareName(c, this.size));
    return names;
  }

  /**
   * Resume a game from its record (after a restart). The first picture the board holds still is read
   * as any picture in the game: the position (nothing happened), a move made meanwhile, an illegal
   * one, a take-back; anything else is a mismatch. An empty board, the game still on, is waited on:
   * it is being set up again, not every move taken back.
   * `answers` are the console's answers from the log, each with the plies it was given about: a
   * captured soldier whose range they do not declare is asked for again (`openQuestions`), as when
   * it was captured; a range declared stands.
   */
  restore(moves: readonly string[], answers: readonly { readonly move: string; readonly plies: readonly number[] }[] = []): { ok: true } | { ok: false; ply: number; error: RuleError } {
    const plies = [plyOf(initial(this.rules), null, null)];
    for (const [i, token] of moves.entries()) {
      const before = plies[plies.length - 1].state;
      const parsed = parseMove(token, this.size);
      if (!parsed.ok) return { ok: false, ply: i + 1, error: parsed.error };
      const move = canonicalMove(before, parsed.value);
      const next = play(before, move);
      if (!next.ok) return { ok: false, ply: i + 1, error: next.error };
      plies.push(plyOf(next.value, move, formatMove(move, this.size)));
    }
    this.plies = plies;
    this.isCalibrated = false;
    this.resume.restored(moves.length);
    this.picture = null;
    this.waiting = null;
    this.choice = null;
    this.taken.reset();
    this.declarations = [];
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    this.distrusted.fill(0);
    this.seenEmpty.fill(0);
    this.settler.forgetLast();
    this.reopenDeclarations(answers);
    return { ok: true };
  }

  /** The declarations a resumed record leaves open: soldiers captured without a range, none declared since. */
  private reopenDeclarations(answers: readonly { readonly move: string; readonly plies: readonly number[] }[]): void {
    const used = new Set<number>();
    const now = this.state;
    for (let ply = 1; ply < this.plies.length; ply++) {
      const move = this.plies[ply].move as AduMove;
      if (move.kind !== 'capture') continue;
      // A range other than the lowest is in the record itself.
      const d = this.declarationFor(ply, this.plies[ply - 1].state, move);
      if (!d) continue;
      // The lowest, declared by an answer: the question or an entered capture named it.
      const answered = answers.findIndex((a, i) => !used.has(i) && a.plies.includes(ply) && declares(a.move, move, this.size));
      if (answered >= 0) {
        used.add(answered);
        continue;
      }
      // The owner out, or the game over: nothing depends on it any more, the default stands.
      if (now.outcome !== null || !now.inGame[d.player - 1]) continue;
      this.declarations.push(d);
    }
    const asked: AduRefereeEvent[] = [];
    for (const player of new Set(this.declarations.map((d) => d.player))) this.openNextDeclaration(this.lastT, player, asked);
  }

  /** One frame, `t` in ms on the board's clock. Most frames return no events (and allocate nothing). */
  frame(t: number, input: GridPicture): readonly AduRefereeEvent[] {
    this.lastT = t;
    let settled: SettledGrid | null;
    switch (input.type) {
      case 'grid':
        settled = this.settler.pushBits(t, input.bits);
        break;
      case 'counts': {
        // A counting board under Adu's pieces (no beads) still says only where a piece stands.
        if (input.counts.length !== this.occupied.length) {
          settled = this.settler.push(t, input.counts); // refused and counted there
          break;
        }
        for (let c = 0; c < this.occupied.length; c++) this.occupied[c] = input.counts[c] !== 0 ? 1 : 0;
        settled = this.settler.push(t, this.occupied);
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

  /**
   * The console says a capture was made while the board shows the captor's point empty and
   * nothing else (a capture, or a piece in the hand?): ask which at once instead of waiting.
   */
  askWhich(t: number = this.lastT): AduCommandResult {
    const w = this.waiting;
    if (w?.kind !== 'ask' || !w.candidates) {
      if (this.choice) return { ok: true, events: [this.choice.event] };
      return { ok: false, error: { code: 'referee/no-capture-seen', message: 'The board shows no capture to ask about: in Adu every move changes what the board senses.', params: {} } };
    }
    this.waiting = null;
    return { ok: true, events: this.askAmong(t, askReason(w.candidates), w.candidates) };
  }

  /** The console answers question `questionId` with one of the moves it offered. */
  answer(questionId: number, move: string, t: number = this.lastT): AduCommandResult {
    const declaration = this.declarations.find((d) => d.question?.id === questionId);
    if (declaration) return this.declare(declaration, move, t);
    const taken = this.taken.find(questionId);
    if (taken) return this.reconsider(taken, move, t);
    const q = this.choice;
    if (!q || q.event.id !== questionId) {
      return { ok: false, error: { code: 'referee/no-such-question', message: `question ${questionId} is not open`, params: { id: questionId } } };
    }
    const parsed = parseMove(move, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    let index = q.keys.indexOf(choiceKey(parsed.value, this.size));
    // A king capture asked while its reserve king was still to come may be answered with the reserve king's point.
    if (index < 0 && parsed.value.kind === 'capture' && parsed.value.reserve !== null) {
      const without = q.keys.indexOf(choiceKey({ ...parsed.value, reserve: null }, this.size));
      if (without >= 0 && q.candidates[without].kind === 'pending') index = without;
    }
    if (index < 0) return { ok: false, error: this.notAnOption(move, parsed.value, q.event.options) };
    const candidate = q.candidates[index];
    const events: AduRefereeEvent[] = [];
    if (candidate.kind === 'fit') {
      // An answer may carry the declaration with it (`d4xd7=2`): then nothing more is asked.
      const chosen = parsed.value.kind === 'capture' && candidate.fit.move.kind === 'capture' ? { ...candidate.fit.move, declare: parsed.value.declare } : candidate.fit.move;
      const fit = this.fitOf(chosen);
      if (!fit.ok) return { ok: false, error: fit.error };
      events.push(...this.commit(t, fit.value));
    } else if (parsed.value.kind === 'capture' && parsed.value.reserve !== null) {
      // The console named the reserve king's point before the board shows it.
      const fit = this.fitOf(parsed.value);
      if (!fit.ok) return { ok: false, error: fit.error };
      events.push(...this.commit(t, fit.value));
    } else {
      this.closeChoice(t, events);
      this.chosen = { from: candidate.pending.from, to: candidate.pending.to };
    }
    const answered = this.resume.watched(t, events);
    // The board may already show more (the reserve king, the next player's move): look again.
    if (this.picture && this.isCalibrated) answered.push(...this.decide(this.picture));
    return { ok: true, events: answered };
  }

  /**
   * The console answers a question about a move the record took unasked: the same option closes
   * it; another replaces the move (a `correction`) and replays the moves since on top, unless one
   * of them would then be illegal.
   */
  private reconsider(taken: Taken<OpenChoice>, text: string, t: number): AduCommandResult {
    const q = taken.question;
    const parsed = parseMove(text, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const index = q.keys.indexOf(choiceKey(parsed.value, this.size));
    const fits = fitsOf(q);
    if (index < 0 || fits === null) return { ok: false, error: this.notAnOption(text, parsed.value, q.event.options) };
    if (index === taken.index) return { ok: true, events: this.taken.close(taken, t) };
    const replayed = this.replayAnswer(taken.ply, fits[index].move);
    if (!replayed.ok) return { ok: false, error: replayed.error };
    const events = this.correct(t, taken.ply, replayed.plies, 'console');
    events.push(...this.taken.close(taken, t));
    if (this.picture) this.recheck(this.picture, t);
    return { ok: true, events: this.resume.watched(t, events) };
  }

  /** The record from `ply` on played again with `move` there; refused when a later move would then be illegal. */
  private replayAnswer(ply: number, move: AduMove): { ok: true; plies: Ply[] } | { ok: false; error: RuleError } {
    const moves = [move, ...this.plies.slice(ply + 1).map((p) => p.move as AduMove)];
    return replayRecord(this.plies[ply - 1].state, moves, this.replayStep, { lead: 1, name: formatMove(move, this.size), ply });
  }

  /** One move of the record played again: as the rules name it (a declared range, a reserve king), then played. */
  private readonly replayStep: ReplayStep<AduState, AduMove, Ply> = (state, given) => {
    const move = canonicalMove(state, given);
    const name = formatMove(move, this.size);
    const next = play(state, move);
    return next.ok ? { ok: true, state: next.value, ply: plyOf(next.value, move, name) } : { ok: false, error: next.error, name };
  };

  /**
   * The record from `ply` on replaced by `plies`: the correction, and the end if the new record
   * reaches one. Declarations asked about the plies replaced are asked again as the new record has them.
   */
  private correct(t: number, ply: number, plies: Ply[], reason: 'evidence' | 'console'): AduRefereeEvent[] {
    const wasOver = this.state.outcome !== null;
    const old = this.record().slice(ply - 1);
    this.plies.splice(ply, this.plies.length - ply, ...plies);
    const events: AduRefereeEvent[] = [correction(t, ply, old, this.record().slice(ply - 1), reason)];
    for (const d of [...this.declarations]) if (d.ply >= ply) this.closeDeclaration(t, d, events);
    const now = this.state;
    for (let k = ply; k < this.plies.length; k++) {
      const d = this.declarationFor(k, this.plies[k - 1].state, this.plies[k].move as AduMove);
      if (d && now.outcome === null && now.inGame[d.player - 1]) this.declarations.push(d);
    }
    for (const player of new Set(this.declarations.map((d) => d.player))) this.openNextDeclaration(t, player, events);
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    if (!wasOver && now.outcome !== null) events.push({ kind: 'end', t, outcome: outcomeOf(now.outcome) });
    return events;
  }

  /**
   * A picture nothing explains from the record, while a move the record took unasked is among the
   * last few: another of its options may explain it. The first that does replaces it (`correction`,
   * reason `evidence`); the question closes when no other option explains the picture.
   */
  private revise(picture: SettledGrid): AduRefereeEvent[] | null {
    const found = revision(this.taken, this.plies.length, {
      horizon: () => REVISE_PLIES,
      options: (taken) => fitsOf(taken.question)?.length ?? 0,
      replay: (taken, j) => this.replayAnswer(taken.ply, (fitsOf(taken.question) as NonNullable<ReturnType<typeof fitsOf>>)[j].move),
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
   * Whether the picture is the position `state`, or a legal move from it. A capture that shows only
   * its captor's point emptied is no evidence: a piece in the hand looks the same.
   */
  private explainsFrom(state: AduState, cells: readonly number[]): Explains {
    const before = observe(state);
    if (this.fits(before, cells)) return 'position';
    if (state.outcome !== null) return null;
    for (const move of legalMoves(state)) {
      const next = play(state, move);
      if (!next.ok) continue;
      const after = observe(next.value);
      if (!this.fits(after, cells)) continue;
      if (move.kind === 'capture' && handShaped(before, after)) continue;
      return 'move';
    }
    return null;
  }

  /**
   * A picture while a question which move waits, read from each option's position: the one option
   * that explains it is taken (the question closes); several the board moved on from, the likeliest
   * of them, assumed. Null when the picture does not tell them apart: it is read as usual.
   */
  private weighChoice(picture: SettledGrid): AduRefereeEvent[] | null {
    const q = this.choice;
    const fits = q ? fitsOf(q) : null;
    if (!q || fits === null) return null;
    this.markWild(picture);
    const verdict = weigh(fits.map((f) => this.explainsFrom(f.next, picture.cells)));
    let events: AduRefereeEvent[];
    switch (verdict.kind) {
      case 'open':
        return null;
      case 'decided':
        events = this.commit(picture.t, fits[verdict.index]);
        break;
      case 'moved-on': {
        const among = verdict.among;
        events = this.assume(picture.t, q, fits, among[likeliest(among.map((i) => q.event.options[i]), q.event.preselected)]);
        break;
      }
      default:
        return assertNever(verdict);
    }
    events.push(...this.decide(picture));
    return events;
  }

  /** The record takes option `index` without an answer: its move is `assumed`, the question stays answerable. */
  private assume(t: number, q: OpenChoice, fits: readonly Fit[], index: number): AduRefereeEvent[] {
    if (this.choice === q) this.choice = null;
    const ply = this.plies.length;
    const events = this.commit(t, fits[index], true);
    this.taken.add(q, q.event, ply, index);
    return events;
  }

  /**
   * A move entered by hand (a sensor failed, or the console knows better). The engine checks it.
   * Intersections the move names where the board reads otherwise are not looked at again until
   * they read what the game expects: a dead switch must not hold up the rest of the game.
   */
  enter(move: string, t: number = this.lastT): AduCommandResult {
    const parsed = parseMove(move, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const fit = this.fitOf(parsed.value);
    if (!fit.ok) return { ok: false, error: fit.error };
    const events = this.resume.watched(t, this.commit(t, fit.value));
    const picture = this.picture;
    if (picture) {
      const expected = this.current().occupancy;
      for (const cell of namedCells(fit.value.move)) {
        if (picture.cells[cell] !== expected[cell] && !picture.unsure.includes(cell)) this.distrusted[cell] = 1;
      }
      this.recheck(picture, t);
    }
    return { ok: true, events };
  }

  /** The console takes back the last move; the board is then expected to show the position before it. */
  undo(t: number = this.lastT): readonly AduRefereeEvent[] {
    if (this.plies.length === 1) return NONE;
    const events = this.resume.watched(t, this.takeBack(t, this.plies.length - 2));
    if (this.picture) this.recheck(this.picture, t);
    return events;
  }

  /**
   * After a console action the board's picture is not decided again as a move (it would read the
   * undone move, or the entered one's old squares, as one); if it does not show the game, the
   * board has to be put right, and says so once it has stood still.
   */
  private recheck(picture: SettledGrid, t: number): void {
    this.waiting = null;
    this.markWild(picture);
    if (!this.fits(this.current().occupancy, picture.cells)) {
      this.waiting = { kind: 'mismatch', picture, delay: this.mismatchMs, since: this.settler.holding ? t : null };
    }
  }

  private notAnOption(text: string, move: AduMove, options: readonly string[]): RuleError {
    const illegal = whyIllegal(this.state, move);
    const why = illegal ? illegal.message : options.length <= 6 ? `the moves offered are ${options.join(', ')}` : `${options.length} other moves were offered`;
    const params: Record<string, string | number> = { move: text, options: options.join(', ') };
    if (illegal) params.reason = illegal.code;
    return { code: 'referee/not-an-option', message: `${text} is not one of the moves offered: ${why}`, params };
  }

  // -------------------------------------------------------------------------------------------
  // Declarations of captured soldiers' ranges

  private declare(d: Declaration, text: string, t: number): AduCommandResult {
    const q = d.question as AduQuestion;
    const parsed = parseMove(text, this.size);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const move = parsed.value;
    const capture = this.plies[d.ply].move as Extract<AduMove, { kind: 'capture' }>;
    const lowest = d.options[0];
    const range = move.kind === 'capture' ? (move.declare ?? lowest) : null;
    if (move.kind !== 'capture' || move.from !== capture.from || move.to !== capture.to || range === null || !d.options.includes(range)) {
      const ranges = d.options.join(', ');
      return {
        ok: false,
        error: {
          code: 'referee/not-an-option',
          message: `${text} is not one of the declarations offered: ${d.soldier} of player ${d.player} may be declared ${ranges}`,
          params: { move: text, options: q.options.join(', '), ranges },
        },
      };
    }
    const events: AduRefereeEvent[] = [];
    const replayed = this.replayWith(d.ply, { ...capture, declare: range });
    if (!replayed.ok) return { ok: false, error: replayed.error };
    const before = this.record().slice(d.ply - 1);
    const changed = replayed.value.some((p, i) => p.notation !== this.plies[d.ply + i].notation);
    if (changed) this.plies.splice(d.ply, this.plies.length - d.ply, ...replayed.value);
    this.closeDeclaration(t, d, events);
    events.push({
      kind: 'declared',
      t,
      ply: d.ply,
      player: d.player,
      soldier: d.soldier,
      range,
      undone: changed ? before : [],
      moves: changed ? this.record().slice(d.ply - 1) : [],
    });
    this.openNextDeclaration(t, d.player, events);
    if (this.waiting?.kind === 'declaration') this.waiting = null;
    if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
    return { ok: true, events };
  }

  /** The moves from ply `ply` on played again with the capture there replaced by `capture`. */
  private replayWith(ply: number, capture: AduMove, extra?: AduMove): { ok: true; value: Ply[] } | { ok: false; error: RuleError } {
    const moves = this.plies.slice(ply).map((p) => p.move as AduMove);
    moves[0] = capture;
    if (extra) moves.push(extra);
    // Every move counts as the answer: a refusal is the rules' own.
    const replayed = replayRecord(this.plies[ply - 1].state, moves, this.replayStep, { lead: moves.length, name: '', ply });
    return replayed.ok ? { ok: true, value: replayed.plies } : replayed;
  }

  /** A soldier capture just committed: its owner is asked for the range, unless only one is left. */
  private noteCapture(t: number, before: AduState, move: AduMove, events: AduRefereeEvent[]): void {
    const d = this.declarationFor(this.plies.length - 1, before, move);
    if (!d) return;
    this.declarations.push(d);
    this.openNextDeclaration(t, d.player, events);
  }

  /** The declaration a move at `ply` calls for: a soldier captured with no range named and more than one possible. */
  private declarationFor(ply: number, before: AduState, move: AduMove): Declaration | null {
    if (move.kind !== 'capture' || move.declare !== null) return null;
    const victim = before.squares[move.to];
    if (victim === null || victim.kind !== 'soldier') return null;
    const ranges = declarableRanges(before, move.to);
    if (ranges.length < 2) return null;
    return {
      ply,
      player: victim.player,
      soldier: victim.id,
      square: squareName(move.to, this.size),
      capture: formatMove({ ...move, declare: null, reserve: null }, this.size),
      question: null,
      options: ranges,
    };
  }


  /** Asks the owner about their oldest undeclared soldier, unless they have a question open already. */
  private openNextDeclaration(t: number, player: number, events: AduRefereeEvent[]): void {
    if (this.declarations.some((d) => d.player === player && d.question !== null)) return;
    const d = this.declarations.find((x) => x.player === player);
    if (!d) return;
    const capture = this.plies[d.ply].move as Extract<AduMove, { kind: 'capture' }>;
    // Only ranges the moves made since still allow.
    const options = declarableRanges(this.plies[d.ply - 1].state, capture.to).filter((r) => this.replayWith(d.ply, { ...capture, declare: r }).ok);
    d.options = options;
    if (options.length < 2) {
      this.declarations.splice(this.declarations.indexOf(d), 1);
      this.openNextDeclaration(t, player, events);
      return;
    }
    const lowest = options[0];
    const event: AduQuestion = {
      kind: 'question',
      t,
      id: ++this.questionSeq,
      code: 'referee/declare-range',
      message: `Player ${d.player}: your soldier ${d.soldier} was captured on ${d.square} (${d.capture}). Which range does it declare: ${options.join(', ')}? Without an answer it is ${lowest}.`,
      params: { player: d.player, soldier: d.soldier, square: d.square, capture: d.capture, ranges: options.join(','), lowest, ply: d.ply },
      options: options.map((r) => `${d.capture}=${r}`),
      preselected: `${d.capture}=${lowest}`,
    };
    d.question = event;
    events.push(event);
  }

  private closeDeclaration(t: number, d: Declaration, events: AduRefereeEvent[]): void {
    const i = this.declarations.indexOf(d);
    if (i >= 0) this.declarations.splice(i, 1);
    if (d.question) events.push({ kind: 'question-closed', t, id: d.question.id });
  }

  /** Whether some range the owner may still declare would forbid this move of theirs: then it waits for the answer. */
  private heldBy(fit: Fit): Declaration | null {
    const mover = this.state.toMove;
    if (fit.move.kind === 'place-king' || fit.move.kind === 'place-soldier') return null;
    const piece = this.state.squares[fit.move.from];
    if (piece === null || piece.kind !== 'soldier') return null;
    for (const d of this.declarations) {
      if (d.player !== mover || d.question === null) continue;
      const capture = this.plies[d.ply].move as Extract<AduMove, { kind: 'capture' }>;
      for (const r of d.options) if (!this.replayWith(d.ply, { ...capture, declare: r }, fit.move).ok) return d;
    }
    return null;
  }

  /** Nobody answered in time: the default, the lowest range, stands. */
  private declareDefault(t: number, d: Declaration): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    this.closeDeclaration(t, d, events);
    events.push({ kind: 'declared', t, ply: d.ply, player: d.player, soldier: d.soldier, range: d.options[0], undone: [], moves: [] });
    this.openNextDeclaration(t, d.player, events);
    return events;
  }

  // -------------------------------------------------------------------------------------------
  // Deciding a settled picture

  /** A settled picture: which candidate explains it? */
  decide(picture: SettledGrid): AduRefereeEvent[] {
    this.decisions++;
    this.picture = picture;
    this.waiting = null;
    const t = picture.t;
    if (!this.isCalibrated) {
      const calibration = this.calibrate(picture);
      if (calibration) return calibration;
    }
    // A question which move waits: the picture may tell its options apart, or show the board gone on from them.
    const weighed = this.weighChoice(picture);
    if (weighed) return weighed;
    const cur = this.current().occupancy;
    this.trustAgain(picture, cur);
    this.markWild(picture);
    this.findChanged(cur, picture.cells);
    if (this.emptiedCount === 0 && this.filledCount === 0) {
      // The reserve king put where the captor stood leaves the board reading as before the capture.
      const completed = this.reserveOnCaptorPoint(picture);
      return completed ? this.playFit(picture, completed) : this.nothing(t);
    }
    for (let k = 0; k < this.emptiedCount; k++) this.seenEmpty[this.emptied[k]] = 1;

    const candidates = this.candidates(picture);
    if (candidates.length > 0) return this.decideAmong(picture, candidates);
    return this.unexplained(picture);
  }

  /**
   * A king capture seen under way whose captor's point now reads occupied again, and nothing else
   * changed: the reserve king went where the captor stood (the one point always free).
   */
  private reserveOnCaptorPoint(picture: SettledGrid): Fit | null {
    const p = this.pendingCapture;
    if (p === null || !p.awaitingReserve || p.remove.length > 0 || picture.cells[p.from] === 0) return null;
    const move = this.legal().find((m) => m.kind === 'capture' && m.from === p.from && m.to === p.to && m.reserve === p.from);
    if (!move) return null;
    const next = play(this.state, move);
    return next.ok ? { move, next: next.value } : null;
  }

  /** Whether the picture is `earlier` with exactly one piece more (placed). */
  private oneMore(earlier: readonly number[], picture: SettledGrid): boolean {
    let added = 0;
    for (let c = 0; c < earlier.length; c++) {
      if (this.wild[c] || earlier[c] === picture.cells[c]) continue;
      if (earlier[c] === 0 && ++added === 1) continue;
      return false;
    }
    return added === 1;
  }

  /** Whether the last move placed a piece that the player to move may capture now. */
  private lastPlacedCapturable(): boolean {
    const move = this.current().move;
    if (move === null || (move.kind !== 'place-king' && move.kind !== 'place-soldier')) return false;
    return this.legal().some((m) => m.kind === 'capture' && m.to === move.to);
  }

  /**
   * Whether the picture is the position one or two moves back with one piece in the hand: moves
   * being taken back one after the other, the last undone, a piece of the one before on its way.
   */
  private takingBack(picture: SettledGrid): boolean {
    for (let k = this.plies.length - 2; k >= Math.max(0, this.plies.length - 3); k--) {
      if (this.oneLifted(this.plies[k].occupancy, picture)) return true;
    }
    return false;
  }

  private oneLifted(earlier: readonly number[], picture: SettledGrid): boolean {
    let lifted = 0;
    for (let c = 0; c < earlier.length; c++) {
      if (this.wild[c] || earlier[c] === picture.cells[c]) continue;
      if (earlier[c] === 1 && picture.cells[c] === 0 && ++lifted === 1) continue;
      return false;
    }
    return lifted === 1;
  }

  /** No legal move fits: a new game, a take-back, an illegal move, or a board to put right. */
  private unexplained(picture: SettledGrid): AduRefereeEvent[] {
    const t = picture.t;
    const state = this.state;
    // After the end, an empty board is a new game rather than every move taken back.
    if (state.outcome !== null && this.fits(this.plies[0].occupancy, picture.cells)) return this.newGame(t);
    // An earlier position: the most recent one that fits.
    const oldest = Math.max(0, this.plies.length - 1 - this.takebackDepth);
    for (let k = this.plies.length - 2; k >= oldest; k--) {
      if (!this.fits(this.plies[k].occupancy, picture.cells)) continue;
      if (k === this.plies.length - 2 && this.lastPlacedCapturable()) {
        // The last piece placed, taken off again: a take-back, or the first capture of the game under way?
        this.deferredTakeback = k;
        this.waiting = { kind: 'takeback', picture, delay: this.handMs, since: t, ply: k };
        return this.alerts.key ? [this.alerts.clear(t)] : [];
      }
      return this.takeBack(t, k);
    }
    if (this.deferredTakeback !== null && this.oneMore(this.plies[this.deferredTakeback].occupancy, picture)) {
      // It was a take-back after all, and the piece was placed somewhere else: read the picture after it.
      const events = this.takeBack(t, this.deferredTakeback);
      events.push(...this.decide(picture));
      return events;
    }
    // A move the record took unasked may have been another of its options.
    const revised = this.revise(picture);
    if (revised) return revised;
    // Two moves taken back at once: the earlier of them may be under way when the board settles.
    const undoing = this.takingBack(picture);
    const illegal = undoing ? null : this.illegalMove(picture);
    if (illegal) return illegal;

    const delay = this.alerts.key === null && (undoing || this.underWay()) ? this.handMs : this.mismatchMs;
    this.pendingCapture = null;
    this.waiting = { kind: 'mismatch', picture, delay, since: t };
    return [];
  }

  /** What to do with the moves (and captures under way) that fit. */
  private decideAmong(picture: SettledGrid, all: Candidate[]): AduRefereeEvent[] {
    const t = picture.t;
    // The captor's point empty and nothing else: a capture, or a piece in the hand? Only evidence or the console tells.
    const handShaped = this.emptiedCount === 1 && this.filledCount === 0 && this.state.squares[this.emptied[0]]?.player === this.state.toMove;
    // Evidence: a capture whose target was seen empty (or whose loser's pieces are coming off).
    const evidenced = all.filter((c) => this.evidenced(c));
    // A king capture under way is taken on evidence only (or asked about, when the picture is only the captor lifted):
    // a piece put where nothing else explains it is not a reserve king waiting for removals that never began.
    let candidates = evidenced.length > 0 ? evidenced : handShaped || this.chosen !== null ? all : all.filter((c) => c.kind === 'fit');
    // A reserve king on the point of a piece of the player put out that was never seen taken off is
    // that piece still standing: the capture is under way, not complete.
    if (candidates.some((c) => c.kind === 'pending')) candidates = candidates.filter((c) => !this.reserveOnUnseenPiece(c));
    // A capture seen under way names its captor: the piece carried along, not another that could have made the same picture.
    const seen = this.pendingCapture;
    if (seen !== null && candidates.length > 1) {
      const same = candidates.filter((c) => (c.kind === 'pending' ? c.pending : (c.fit.move as { from?: number; to?: number })).from === seen.from && (c.kind === 'pending' ? c.pending.to : (c.fit.move as { to?: number }).to) === seen.to);
      if (same.length > 0) candidates = same;
    }
    if (candidates.length === 0) return this.unexplained(picture);
    const fits = candidates.filter((c): c is Extract<Candidate, { kind: 'fit' }> => c.kind === 'fit');
    const pendings = candidates.filter((c): c is Extract<Candidate, { kind: 'pending' }> => c.kind === 'pending');
    if (this.choice && sameKeys(this.choice.keys, candidates.map((c) => candidateKey(c, this.size)))) return [];
    if (evidenced.length === 0 && handShaped && this.chosen === null) {
      this.pendingCapture = null;
      this.waiting = { kind: 'ask', picture, delay: this.captureMs, since: t, candidates };
      return this.alerts.key ? [this.alerts.clear(t)] : [];
    }
    if (fits.length === 1 && pendings.length === 0) {
      const fit = fits[0].fit;
      const unseen = this.wildFilled(fit.next, this.current().occupancy);
      if (unseen.length === 0) return this.playFit(picture, fit);
      const squares = unseen.map((c) => squareName(c, this.size)).join(', ');
      const option = formatMove(fit.move, this.size);
      return this.ask(t, 'unsure', candidates, `The sensor on ${squares} cannot be trusted: was ${option} played?`, { squares, options: option, count: 1 });
    }
    if (fits.length === 0 && pendings.length === 1) return this.awaitCompletion(t, pendings[0].pending);
    if (pendings.length > 0) {
      // A reserve king may still come and settle it: ask only once the board has stood still.
      this.pendingCapture = null;
      this.waiting = { kind: 'ask', picture, delay: this.captureMs, since: t, candidates };
      return this.alerts.key ? [this.alerts.clear(t)] : [];
    }
    return this.askAmong(t, 'ambiguous', candidates);
  }

  private askAmong(t: number, reason: AduQuestionReason, candidates: readonly Candidate[]): AduRefereeEvent[] {
    const options = candidates.map((c) => candidateKey(c, this.size));
    const player = this.state.toMove;
    const listed = options.length <= 4 ? `: ${options.join(', ')}` : ` (${options.length} of them)`;
    const from = candidates[0].kind === 'fit' ? (candidates[0].fit.move as { from?: number }).from : candidates[0].pending.from;
    const message =
      reason === 'capture'
        ? `Player ${player}'s piece on ${squareName(from ?? 0, this.size)} is off its point: which piece did it capture${listed}? (If it is only in the hand, put it down.)`
        : `More than one legal move fits the board${listed}. Which one did player ${player} play?`;
    const params: Record<string, string | number> = { player, options: options.join(', '), count: options.length };
    if (reason === 'capture' && from !== undefined) params.from = squareName(from, this.size);
    return this.ask(t, reason, candidates, message, params);
  }

  /** A complete move: played, unless an open declaration of the mover's decides whether it is legal. */
  private playFit(picture: SettledGrid, fit: Fit): AduRefereeEvent[] {
    const held = this.heldBy(fit);
    if (held === null) return this.commit(picture.t, fit);
    const t = picture.t;
    if (this.declareTimeoutMs === 0) {
      const events = this.declareDefault(t, held);
      const again = this.heldBy(fit);
      events.push(...(again === null ? this.commit(t, fit) : this.playFit(picture, fit)));
      return events;
    }
    if (this.declareTimeoutMs !== null) this.waiting = { kind: 'declaration', picture, delay: this.declareTimeoutMs, since: t, declaration: held };
    const move = formatMove(fit.move, this.size);
    const alert = this.alerts.raise(
      t,
      `declare-first:${held.ply}:${move}`,
      'referee/declare-first',
      `Player ${held.player} first declares the range of ${held.soldier} (captured on ${held.square}): whether ${move} is legal depends on it.`,
      { player: held.player, soldier: held.soldier, square: held.square, move },
    );
    return alert ? [alert] : [];
  }

  /** A king capture under way: the captor stands on the king's point; the reserve king, or removals, to come. */
  private awaitCompletion(t: number, p: PendingFit): AduRefereeEvent[] {
    this.pendingCapture = p;
    const events: AduRefereeEvent[] = [];
    this.closeChoice(t, events);
    const victimPlayer = p.captured.player;
    if (p.remove.length > 0) {
      const squares = p.remove.map((c) => squareName(c, this.size));
      const alert = this.alerts.raise(
        t,
        `remove:${this.plies.length}:${p.from}:${p.to}:${p.remove.join(',')}`,
        'board/remove-pieces',
        `Player ${victimPlayer} has no king left and is out: take their pieces off ${squares.join(', ')}.`,
        { player: victimPlayer, count: squares.length, squares: squares.join(', ') },
      );
      if (alert) events.push({ ...alert, cells: p.remove.map((cell) => ({ cell, diff: 1 })) });
      return events;
    }
    const alert = this.alerts.raise(
      t,
      `reserve:${this.plies.length}:${p.from}:${p.to}`,
      'board/place-reserve',
      `Player ${p.player} captured ${p.captured.id} of player ${victimPlayer}: put a reserve king from the supply on a free point.`,
      { player: p.player, captured: p.captured.id, victim: victimPlayer, square: squareName(p.to, this.size), supply: this.state.supply },
    );
    if (alert) events.push(alert);
    return events;
  }

  /** Frames without a new picture: is a waiting picture due? */
  private tick(t: number): readonly AduRefereeEvent[] {
    const q = this.choice;
    const fits = q ? fitsOf(q) : null;
    if (q && fits && fits.length > 1 && this.assumeMs !== null && t - q.asked >= this.assumeMs) {
      // Nobody answered in time and the board never told the options apart: the likeliest, assumed; then the board as it stands.
      const events = this.assume(t, q, fits, likeliest(q.event.options, q.event.preselected));
      if (this.picture && this.isCalibrated) events.push(...this.decide(this.picture));
      return events;
    }
    const w = this.waiting;
    if (!w) return NONE;
    if (!this.settler.holding) {
      // A switch blinking for a few frames is no hand at work: only a longer unrest starts the wait afresh.
      this.unsettledSince ??= t;
      if (t - this.unsettledSince >= BLINK_MS) w.since = null;
      return NONE;
    }
    this.unsettledSince = null;
    w.since ??= t;
    if (t - w.since < w.delay) return NONE;
    this.waiting = null;
    switch (w.kind) {
      case 'mismatch':
        return this.mismatch(w.picture, t);
      case 'calibrating':
        return this.calibrating(w.picture, t);
      case 'ask':
        return this.askAmong(t, askReason(w.candidates ?? []), w.candidates ?? []);
      case 'takeback':
        return this.takeBack(t, w.ply as number);
      case 'declaration': {
        const events = this.declareDefault(t, w.declaration as Declaration);
        events.push(...this.decide(w.picture));
        return events;
      }
      default:
        return assertNever(w.kind);
    }
  }

  /** The board shows the position: nothing happened. */
  private nothing(t: number): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.closeChoice(t, events);
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    // Whatever was lifted is back: it was no capture.
    this.seenEmpty.fill(0);
    return events;
  }

  /** The board before it showed the game once; null: a resumed game's picture, to be read as any. */
  private calibrate(picture: SettledGrid): AduRefereeEvent[] | null {
    this.markWild(picture);
    if (!this.fits(this.current().occupancy, picture.cells)) {
      // A resumed game's players may have played on while nobody watched (or, the game over, cleared
      // the board for the next): the picture is read as any. An empty board, the game still on, is
      // the board set up again.
      if (this.resume.resuming && (this.state.outcome !== null || !this.fits(this.plies[0].occupancy, picture.cells))) return null;
      this.waiting = { kind: 'calibrating', picture, delay: this.mismatchMs, since: picture.t };
      return [];
    }
    this.isCalibrated = true;
    this.resume.seen();
    const events: AduRefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(picture.t));
    events.push({ kind: 'calibrated', t: picture.t });
    return events;
  }

  private calibrating(picture: SettledGrid, t: number): readonly AduRefereeEvent[] {
    const expected = this.current().occupancy;
    const pieces = expected.reduce((n, x) => n + x, 0);
    const message =
      this.plies.length > 1
        ? 'Waiting for the board to show the position of the game being resumed.'
        : 'Waiting for an empty board: every piece of Adu starts beside the board.';
    const cells = this.cellDiffs(picture, expected);
    const alert = this.alerts.raise(t, `calibrating:${picture.cells.join('')}`, 'board/calibrating', message, { pieces, count: cells.length });
    return alert ? [{ ...alert, cells }] : NONE;
  }

  /** The legal moves whose picture the board shows, and king captures it shows under way. */
  private candidates(picture: SettledGrid): Candidate[] {
    const state = this.state;
    const out: Candidate[] = [];
    if (state.phase === 'over') return out;
    const cur = this.current().occupancy;
    const squares = state.squares;
    const kings = kingCounts(state);
    const seenPending = new Set<number>();
    for (const move of this.legal()) {
      if (this.chosen && (move.kind !== 'capture' || move.from !== this.chosen.from || move.to !== this.chosen.to)) continue;
      if (!this.namesAllChanged(move, squares, kings)) continue;
      // The engine is asked only about a move whose changes the picture shows (the check allocates nothing).
      if (this.showsChanges(move, picture.cells, squares, kings)) {
        const next = play(state, move);
        if (!next.ok) continue;
        out.push({ kind: 'fit', fit: { move, next: next.value } });
        continue;
      }
      if (move.kind !== 'capture') continue;
      const victim = squares[move.to] as AduPiece;
      if (victim.kind === 'soldier') continue;
      const key = move.from * cur.length + move.to;
      if (seenPending.has(key)) continue;
      seenPending.add(key);
      const pending = this.pendingFit(picture, move, victim, kings[victim.player - 1] === 1, move.reserve !== null);
      if (pending) out.push({ kind: 'pending', pending });
    }
    return out;
  }

  /**
   * Whether the picture shows king capture `move` under way: the captor on the king's point, its
   * own point empty, and otherwise the position after the capture, except that pieces of a player
   * put out may still stand and the reserve king may not be there yet. Null when it does not, or
   * when the capture is complete (a legal move then fits).
   */
  private pendingFit(picture: SettledGrid, move: AduMove & { kind: 'capture' }, victim: AduPiece, putsOut: boolean, needsReserve: boolean): PendingFit | null {
    const squares = this.state.squares;
    const cur = this.current().occupancy;
    const cells = picture.cells;
    if (!this.wild[move.from] && cells[move.from] !== 0) return null;
    if (!this.wild[move.to] && cells[move.to] === 0) return null;
    const remove: number[] = [];
    let reserveAt = -1;
    for (let c = 0; c < cur.length; c++) {
      if (this.wild[c] || c === move.from || c === move.to) continue;
      const piece = squares[c];
      const goes = putsOut && piece !== null && piece.player === victim.player;
      const after = goes ? 0 : cur[c];
      if (cells[c] === after) continue;
      // A piece of the player put out, seen taken off and there again, is the reserve king put where it stood.
      if (goes && cells[c] === 1 && this.seenEmpty[c] === 0) remove.push(c);
      else if (needsReserve && after === 0 && cells[c] === 1 && reserveAt < 0) reserveAt = c;
      else return null;
    }
    if (remove.length === 0 && (reserveAt >= 0 || !needsReserve)) return null;
    return {
      from: move.from,
      to: move.to,
      player: this.state.toMove,
      captured: victim,
      awaitingReserve: needsReserve && reserveAt < 0,
      remove,
      move: { kind: 'capture', from: move.from, to: move.to, declare: null, reserve: null },
    };
  }

  private reserveOnUnseenPiece(c: Candidate): boolean {
    if (c.kind !== 'fit' || c.fit.move.kind !== 'capture') return false;
    const { reserve, from } = c.fit.move;
    return reserve !== null && reserve !== from && this.current().occupancy[reserve] === 1 && this.seenEmpty[reserve] === 0;
  }

  /** A capture whose target was seen empty since the last move, or whose loser's pieces are coming off. */
  private evidenced(c: Candidate): boolean {
    if (c.kind === 'pending') {
      if (this.seenEmpty[c.pending.to]) return true;
      // A piece of the player put out taken off, unless it is one the captor could be capturing instead.
      const { from, captured } = c.pending;
      for (let k = 0; k < this.emptiedCount; k++) {
        const cell = this.emptied[k];
        if (this.state.squares[cell]?.player !== captured.player) continue;
        if (!this.legal().some((m) => m.kind === 'capture' && m.from === from && m.to === cell)) return true;
      }
      return false;
    }
    const move = c.fit.move;
    return move.kind === 'capture' && this.seenEmpty[move.to] === 1;
  }

  /** A piece moved where no legal move goes (or a capture the rules refuse, its target seen taken off): the engine says why. */
  private illegalMove(picture: SettledGrid): AduRefereeEvent[] | null {
    const state = this.state;
    let move: AduMove | null = null;
    if (this.emptiedCount === 1 && this.filledCount === 1) {
      move = { kind: 'move', from: this.emptied[0], to: this.filled[0] };
    } else if (this.emptiedCount === 1 && this.filledCount === 0 && state.phase === 'play' && state.squares[this.emptied[0]]?.player === state.toMove) {
      // Only the player to move's own piece: another's lifted (a take-back under way) is no capture.
      const from = this.emptied[0];
      const targets: number[] = [];
      for (let c = 0; c < this.seenEmpty.length; c++) {
        const piece = state.squares[c];
        if (this.seenEmpty[c] && c !== from && picture.cells[c] !== 0 && piece !== null && piece.player !== state.toMove) targets.push(c);
      }
      if (targets.length === 1) move = { kind: 'capture', from, to: targets[0], declare: null, reserve: null };
    }
    if (move === null) return null;
    const error = whyIllegal(state, move);
    if (!error) return null;
    const cells: CellDiff[] = move.kind === 'move' ? [{ cell: move.from, diff: -1 }, { cell: move.to, diff: 1 }].sort((a, b) => a.cell - b.cell) : [{ cell: move.from, diff: -1 }];
    const params = { ...(error.params ?? {}), from: squareName(move.from, this.size), to: squareName(move.to, this.size) };
    const alert = this.alerts.raise(picture.t, `illegal:${this.plies.length}:${move.kind}:${move.from}:${move.to}`, error.code, error.message, params);
    this.pendingCapture = null;
    return alert ? [{ ...alert, cells }] : [];
  }

  /** Nothing fits and the board has stood still: name the first intersection to fix. */
  private mismatch(picture: SettledGrid, t: number): readonly AduRefereeEvent[] {
    const expected = this.current().occupancy;
    this.markWild(picture);
    const cells = this.cellDiffs(picture, expected);
    if (cells.length === 0) return NONE;
    // Pieces that should not be there come off first (the hand then holds the one missing elsewhere).
    const first = [...cells].sort((a, b) => b.diff - a.diff || a.cell - b.cell)[0];
    const square = squareName(first.cell, this.size);
    const action = first.diff > 0 ? 'take-off' : 'put-back';
    const sentence = action === 'take-off' ? `Take the piece off ${square}` : `Put the piece back on ${square}`;
    const remaining = cells.length;
    const message = remaining === 1 ? `${sentence}.` : `${sentence} (first of ${remaining} points to fix).`;
    const alert = this.alerts.raise(t, `mismatch:${this.plies.length}:${picture.cells.join('')}`, 'referee/mismatch', message, { square, remaining, action });
    return alert ? [{ ...alert, cells }] : NONE;
  }

  private cellDiffs(picture: SettledGrid, expected: readonly number[]): CellDiff[] {
    const cells: CellDiff[] = [];
    for (let c = 0; c < expected.length; c++) {
      if (this.wild[c] || picture.cells[c] === expected[c]) continue;
      cells.push({ cell: c, diff: (picture.cells[c] !== 0 ? 1 : 0) - expected[c] });
    }
    return cells;
  }

  // -------------------------------------------------------------------------------------------
  // Verdicts

  /** A move checked by the engine, its declaration made canonical (the lowest is written as no declaration). */
  private fitOf(move: AduMove): { ok: true; value: Fit } | { ok: false; error: RuleError } {
    const next = play(this.state, move);
    return next.ok ? { ok: true, value: { move, next: next.value } } : next;
  }

  private commit(t: number, fit: Fit, assumed = false): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    this.closeChoice(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    const before = this.state;
    const move = canonicalMove(before, fit.move);
    const notation = formatMove(move, this.size);
    this.plies.push(plyOf(fit.next, move, notation));
    this.waiting = null;
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    this.seenEmpty.fill(0);
    const ply = this.plies.length - 1;
    events.push(assumed ? { kind: 'move', t, move: notation, ply, assumed: true } : { kind: 'move', t, move: notation, ply });
    if (fit.next.outcome !== null && before.outcome === null) events.push({ kind: 'end', t, outcome: outcomeOf(fit.next.outcome) });
    // A soldier captured without a declaration named: its owner is asked (explicit `=r` in an answer or entry needs no question).
    this.noteCapture(t, before, fit.move, events);
    // A player put out, or the game over: nothing depends on their declarations any more, the default stands.
    for (const d of [...this.declarations]) {
      if (fit.next.outcome === null && fit.next.inGame[d.player - 1]) continue;
      this.closeDeclaration(t, d, events);
      events.push({ kind: 'declared', t, ply: d.ply, player: d.player, soldier: d.soldier, range: d.options[0], undone: [], moves: [] });
    }
    return events;
  }

  private takeBack(t: number, toPly: number): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    this.closeChoice(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    events.push(...this.taken.dropAfter(toPly, t));
    const undone = this.plies.slice(toPly + 1).map((p) => p.notation as string);
    this.plies.length = toPly + 1;
    for (const d of [...this.declarations]) if (d.ply > toPly) this.closeDeclaration(t, d, events);
    for (const d of this.declarations) if (d.question === null) this.openNextDeclaration(t, d.player, events);
    this.waiting = null;
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    this.seenEmpty.fill(0);
    events.push({ kind: 'takeback', t, undone, ply: toPly });
    return events;
  }

  private newGame(t: number): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    this.closeChoice(t, events);
    events.push(...this.taken.dropAfter(0, t));
    for (const d of [...this.declarations]) this.closeDeclaration(t, d, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.plies = [plyOf(initial(this.rules), null, null)];
    this.distrusted.fill(0);
    this.seenEmpty.fill(0);
    this.pendingCapture = null;
    this.chosen = null;
    this.deferredTakeback = null;
    events.push({ kind: 'new-game', t });
    return events;
  }

  /**
   * Ask the console which move, unless the same question is open already. Options that all leave
   * the same game are no question the game waits on: the record takes the first at once
   * (`assumed`), and the question stays open for the console (`blocking: false`).
   */
  private ask(t: number, reason: AduQuestionReason, candidates: readonly Candidate[], message: string, params: Record<string, string | number>): AduRefereeEvent[] {
    const keys = candidates.map((c) => candidateKey(c, this.size));
    const open = this.choice;
    if (open && open.reason === reason && sameKeys(open.keys, keys)) return [];
    const events: AduRefereeEvent[] = [];
    this.closeChoice(t, events);
    if (this.alerts.key) events.push(this.alerts.clear(t));
    this.pendingCapture = null;
    const fits = candidates.every((c) => c.kind === 'fit') ? candidates.map((c) => (c as Extract<Candidate, { kind: 'fit' }>).fit) : null;
    const same = fits !== null && samePosition(
      fits.map((f) => f.next),
      observe,
    );
    const event: AduQuestion = {
      kind: 'question',
      t,
      id: ++this.questionSeq,
      code: 'referee/which-move',
      message: same ? `${message} Every answer leaves the same position: the record takes ${keys[0]}.` : message,
      params: same ? { reason, ...params, ply: this.plies.length, taken: keys[0] } : { reason, ...params },
      options: keys,
      ...(same ? { blocking: false as const } : {}),
    };
    const choice: OpenChoice = { event, reason, candidates, keys, asked: t };
    if (same && fits) {
      events.push(...this.assume(t, choice, fits, likeliest(keys)), event);
      return events;
    }
    this.choice = choice;
    events.push(event);
    return events;
  }

  private closeChoice(t: number, events: AduRefereeEvent[]): void {
    if (!this.choice) return;
    events.push({ kind: 'question-closed', t, id: this.choice.event.id });
    this.choice = null;
  }


  // -------------------------------------------------------------------------------------------
  // Pictures

  private current(): Ply {
    return this.plies[this.plies.length - 1];
  }

  private legal(): readonly AduMove[] {
    const ply = this.current();
    ply.legal ??= legalMoves(ply.state);
    return ply.legal;
  }

  private markWild(picture: SettledGrid): void {
    this.wild.set(this.distrusted);
    for (const c of picture.unsure) this.wild[c] = 1;
  }

  /** An overridden intersection that reads what the game expects is trusted again. */
  private trustAgain(picture: SettledGrid, cur: readonly number[]): void {
    for (let c = 0; c < cur.length; c++) if (this.distrusted[c] && picture.cells[c] === cur[c]) this.distrusted[c] = 0;
  }

  /** Whether `expected` fits the picture on every intersection the referee looks at. */
  private fits(expected: readonly number[], cells: readonly number[]): boolean {
    for (let c = 0; c < expected.length; c++) if (expected[c] !== cells[c] && this.wild[c] === 0) return false;
    return true;
  }

  private findChanged(cur: readonly number[], cells: readonly number[]): void {
    let e = 0;
    let f = 0;
    for (let c = 0; c < cur.length; c++) {
      if (this.wild[c] !== 0 || cur[c] === cells[c]) continue;
      if (cells[c] === 0) this.emptied[e++] = c;
      else this.filled[f++] = c;
    }
    this.emptiedCount = e;
    this.filledCount = f;
  }

  /** A move can only explain changes on intersections it names (a cheap test before asking the engine). */
  private namesAllChanged(move: AduMove, squares: AduState['squares'], kings: readonly number[]): boolean {
    switch (move.kind) {
      case 'place-king':
      case 'place-soldier':
        return this.emptiedCount === 0 && this.filledCount <= 1 && (this.filledCount === 0 || this.filled[0] === move.to);
      case 'move':
        return (
          this.emptiedCount <= 1 &&
          this.filledCount <= 1 &&
          (this.emptiedCount === 0 || this.emptied[0] === move.from) &&
          (this.filledCount === 0 || this.filled[0] === move.to)
        );
      case 'capture': {
        // Nothing is put down but the reserve king.
        if (this.filledCount > 1 || (this.filledCount === 1 && move.reserve !== this.filled[0])) return false;
        const victim = squares[move.to] as AduPiece;
        const putsOut = victim.kind !== 'soldier' && kings[victim.player - 1] === 1;
        for (let k = 0; k < this.emptiedCount; k++) {
          const c = this.emptied[k];
          if (c === move.from) continue;
          if (!putsOut || squares[c]?.player !== victim.player) return false;
        }
        return true;
      }
      default:
        return assertNever(move);
    }
  }

  /**
   * Whether the picture reads, on every trusted intersection the move changes, what the move leaves
   * there. With namesAllChanged (every change is one the move makes) this is the exact fit of
   * observe(play(state, move)), without playing the move.
   */
  private showsChanges(move: AduMove, cells: readonly number[], squares: AduState['squares'], kings: readonly number[]): boolean {
    const reads = (c: number, v: number): boolean => this.wild[c] === 1 || cells[c] === v;
    switch (move.kind) {
      case 'place-king':
      case 'place-soldier':
        return reads(move.to, 1);
      case 'move':
        return reads(move.from, 0) && reads(move.to, 1);
      case 'capture': {
        const { from, to, reserve } = move;
        if (!reads(to, 1)) return false;
        if (reserve === from) {
          if (!reads(from, 1)) return false;
        } else if (!reads(from, 0) || (reserve !== null && !reads(reserve, 1))) return false;
        const victim = squares[to] as AduPiece;
        if (victim.kind === 'soldier' || kings[victim.player - 1] !== 1) return true;
        // A player put out: every other piece of theirs comes off (the reserve king may stand on one's point).
        for (let c = 0; c < squares.length; c++) {
          if (c === to || c === reserve || squares[c]?.player !== victim.player) continue;
          if (!reads(c, 0)) return false;
        }
        return true;
      }
      default:
        return assertNever(move);
    }
  }

  /** Unsure intersections where the move puts a piece: a move that needs them is not taken on trust. */
  private wildFilled(next: AduState, cur: readonly number[]): number[] {
    const cells: number[] = [];
    for (let c = 0; c < cur.length; c++) if (this.wild[c] && next.squares[c] !== null && cur[c] === 0) cells.push(c);
    return cells;
  }

  /**
   * Does the picture look like a move being made by the player to move: at most one piece put
   * down, at most two lifted, each lifted one theirs or one they could capture?
   */
  private underWay(): boolean {
    const state = this.state;
    if (state.phase !== 'play' || this.filledCount > 1 || this.emptiedCount === 0 || this.emptiedCount > 2) return false;
    for (let k = 0; k < this.emptiedCount; k++) {
      const c = this.emptied[k];
      const piece = state.squares[c];
      if (piece === null) return false;
      if (piece.player === state.toMove) continue;
      if (!this.legal().some((m) => m.kind === 'capture' && m.to === c)) return false;
    }
    return true;
  }
}

function plyOf(state: AduState, move: AduMove | null, notation: string | null): Ply {
  return { state, move, notation, occupancy: observe(state), legal: null };
}

/** Whether `after` differs from `before` only by one point emptied: what a piece lifted into the hand also shows. */
function handShaped(before: readonly number[], after: readonly number[]): boolean {
  let emptied = 0;
  for (let c = 0; c < before.length; c++) {
    if (before[c] === after[c]) continue;
    if (after[c] !== 0 || ++emptied > 1) return false;
  }
  return emptied === 1;
}

/** Kings and reserve kings on the board per player (index player − 1). */
function kingCounts(state: AduState): number[] {
  const kings = new Array<number>(state.options.players).fill(0);
  for (const piece of state.squares) if (piece !== null && piece.kind !== 'soldier') kings[piece.player - 1]++;
  return kings;
}

/** Whether a move the console gave declares the range of `capture` (the same capture, with a range named). */
function declares(given: string, capture: Extract<AduMove, { kind: 'capture' }>, size: number): boolean {
  const parsed = parseMove(given, size);
  return parsed.ok && parsed.value.kind === 'capture' && parsed.value.declare !== null && parsed.value.from === capture.from && parsed.value.to === capture.to;
}

/** A capture's declaration as the record writes it: none for the lowest consistent range (RULES.md §4), the range otherwise. */
export function canonicalMove(state: AduState, move: AduMove): AduMove {
  if (move.kind !== 'capture' || move.declare === null) return move;
  const ranges = declarableRanges(state, move.to);
  return ranges.length > 0 && ranges[0] === move.declare ? { ...move, declare: null } : move;
}

/** Every intersection a move names: where a piece is placed, its start and end, the reserve king's point. */
function namedCells(move: AduMove): number[] {
  switch (move.kind) {
    case 'place-king':
    case 'place-soldier':
      return [move.to];
    case 'move':
      return [move.from, move.to];
    case 'capture':
      return move.reserve === null ? [move.from, move.to] : [move.from, move.to, move.reserve];
    default:
      return assertNever(move);
  }
}

/** How an option is written: the move without a declaration (a king capture under way also without its reserve king). */
function candidateKey(c: Candidate, size: number): string {
  if (c.kind === 'pending') return formatMove(c.pending.move, size);
  const move = c.fit.move;
  return formatMove(move.kind === 'capture' ? { ...move, declare: null } : move, size);
}

/** An answer compared with the options: its declaration does not count, a reserve king it names does only if an option names one. */
function choiceKey(move: AduMove, size: number): string {
  return formatMove(move.kind === 'capture' ? { ...move, declare: null } : move, size);
}

/** Captures only (the captor lifted, or a king's reserve to come): which piece was taken; otherwise which move. */
function askReason(candidates: readonly Candidate[]): AduQuestionReason {
  return candidates.every((c) => c.kind === 'pending' || c.fit.move.kind === 'capture') ? 'capture' : 'ambiguous';
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

function outcomeOf(outcome: AduOutcome): { winner: string; reason: string; players: number[] } {
  return { winner: String(outcome.winner), reason: outcome.reason, players: [...outcome.players] };
}

