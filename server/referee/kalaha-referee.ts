// The Kalaha referee: settled pictures of the weighing table → moves, take-backs and alerts.
//
// The referee never guesses a move from raw differences; it asks the engine what every legal
// move, every illegal move a person could make, and every earlier position would look like, and
// keeps the one candidate the picture fits (weigh.ts). Nothing is committed on a guess: with no
// fit it shows which pits differ, with two fits it waits for a clearer picture. A game resumed after
// a restart is read the same way, its first picture weighed whole (kalaha-resume.ts).
import {
  PITS,
  STORE,
  initial,
  legalMoves,
  observe,
  owner,
  play,
  sowing,
  whyIllegal,
  endByAgreement,
  type KalahaMove,
  type KalahaOptions,
  type KalahaOutcome,
  type KalahaState,
} from '../rules/kalaha.ts';
import type { RuleError } from '../rules/types.ts';
import { DEFAULT_SETTLE, WeightSettler, type SettleOptions, type SettledPicture } from './settle.ts';
import { matchTarget, type Match, type Reference, type Target, type Transfer, type WeightModel } from './weigh.ts';
import { AlertLatch } from './alert-latch.ts';
import { EMPTY_BELOW, cellsOff, fitWhole, placeStones, type Scale, type WholeFit } from './kalaha-resume.ts';
import { afterCaptures, captureTransfers, capturedIn, sowingPly, sownPits, sweepOf, transfersOf, type Ply } from './kalaha-plies.ts';
import { agree, explain, type Agreement } from './decoder.ts';
import { BLIND_MOVE, LiftWatch, matchNode, rootNode, sowingAdapter, type Anchor, type SowingNode } from './kalaha-decoder.ts';

export { sownPits } from './kalaha-plies.ts';

export interface KalahaRefereeOptions {
  readonly settle?: SettleOptions;
  /** How many plies back a take-back is recognised. */
  readonly takebackDepth?: number;
  /** How much better (in chi-square) the best candidate must fit than the next to be taken. */
  readonly margin?: number;
  /**
   * How long a picture nothing explains must stay before it is called a mismatch, in ms: people
   * pause with a stone in their hand, and a moment later the board makes sense again.
   */
  readonly mismatchMs?: number;
  /** How many moves of the record later pictures may still correct. */
  readonly reviseDepth?: number;
  /** Most moves made in a row without a still board that the referee reads from the order of lifts. */
  readonly quickRun?: number;
}

export type RefereeEvent =
  | { readonly kind: 'calibrated'; readonly t: number; readonly stone: number; readonly spread: number; readonly noise: number }
  | {
      readonly kind: 'move';
      readonly t: number;
      readonly move: string;
      readonly ply: number;
      readonly pending: readonly Transfer[];
      /** Made while the referee was not watching (the service restarted), and read from the board since. */
      readonly reconstructed?: true;
    }
  | { readonly kind: 'takeback'; readonly t: number; readonly undone: readonly string[]; readonly ply: number }
  /** Later pictures showed the record wrong from `ply` on: it was `old`, it is `new`. */
  | { readonly kind: 'correction'; readonly t: number; readonly ply: number; readonly old: readonly string[]; readonly new: readonly string[]; readonly reason: 'evidence' }
  | { readonly kind: 'settled'; readonly t: number }
  | { readonly kind: 'end'; readonly t: number; readonly outcome: KalahaOutcome }
  | { readonly kind: 'new-game'; readonly t: number }
  | RefereeAlert
  | { readonly kind: 'cleared'; readonly t: number };

/** What a console command to the referee gives: the events it caused, or why it was refused. */
export type ConsoleResult =
  | { readonly ok: true; readonly events: readonly RefereeEvent[] }
  | { readonly ok: false; readonly error: string; readonly message: string; readonly params?: Readonly<Record<string, string | number>> };

export interface RefereeAlert {
  readonly kind: 'alert';
  readonly t: number;
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
  /** For a mismatch: cells that differ from the expected board, positive = stones too many. */
  readonly cells?: readonly { readonly cell: number; readonly diff: number }[];
}


type Candidate =
  | { readonly kind: 'here'; readonly target: Target }
  | { readonly kind: 'move'; readonly target: Target; readonly move: KalahaMove; readonly ply: Ply }
  | { readonly kind: 'illegal'; readonly target: Target; readonly pit: number; readonly error: RuleError }
  | { readonly kind: 'takeback'; readonly target: Target; readonly toPly: number }
  | { readonly kind: 'new-game'; readonly target: Target };

/** A candidate weighed whole, its score with the candidate's prior. */
interface WholeReading {
  readonly c: Candidate;
  readonly fit: WholeFit;
  readonly score: number;
}

const CELLS = 14;
/**
 * The short window of the early reading: two frames, 50 ms at the protocol's rate. Quick hands
 * lift the next pit 40–150 ms after the last stone is down; a longer window misses the board
 * between. What keeps so short a glimpse honest is the total (a stone in the hand shows) and that
 * one move alone must explain it, its pit seen lifted.
 */
const QUICK_SETTLE: SettleOptions = { settleMs: 50, minFrames: 2, maxFrames: 16 };
const CALIBRATION_FRAMES = 40;
/** The protocol's default scan rate is 20 frames a second. */
const FRAME_MS = 50;
/**
 * How unlikely each reading is before the weights are looked at, in chi-square units: people make
 * moves far more often than they take one back or sow a pit they may not.
 */
const PRIOR = { here: 0, move: 0, illegal: 4, takeback: 8, 'new-game': 4 } as const;
/**
 * The most a history may cost and still explain a picture: about four chi-square units a cell. The
 * weights' bounds alone let far-fetched histories through a picture taken many moves on.
 */
const MOST_COST = 4 * CELLS;

export class KalahaReferee {
  private plies: Ply[];
  private ref: Reference | null = null;
  private model: WeightModel | null = null;
  /** Transfers of the last move (capture, sweep) not yet seen complete. */
  private pending: readonly Transfer[] = [];
  private readonly alerts = new AlertLatch();
  private readonly settler: WeightSettler;
  /**
   * A second settle stage over a short window: a move is shown as soon as the board holds still
   * this briefly and exactly one move explains it; the settled picture then confirms it, or the
   * decoder corrects it.
   */
  private readonly quick = new WeightSettler(CELLS, QUICK_SETTLE);
  /** The weight model for the short window's noisier means. */
  private quickModel: WeightModel | null = null;
  /** The weight model to weigh from the reference: a glimpse's (an early reading) is noisier than a settled picture's. */
  private refModel: WeightModel | null = null;
  /** The last frames as they came, grams, newest last: what the board showed just before a pit was lifted. */
  private readonly lastFrames: Float64Array[] = [];
  private readonly settleOptions: SettleOptions;
  private readonly calibration: Float64Array[] = [];
  private readonly takebackDepth: number;
  private readonly margin: number;
  private readonly mismatchMs: number;
  /** A settled picture nothing explains, waiting to be called a mismatch if it stays. */
  private unexplained: SettledPicture | null = null;
  /**
   * A game resumed from its record whose board has not been read yet: the weights are unknown, and
   * the stones may have moved while nobody watched.
   */
  private resuming = false;
  /** The resumed game's last picture that did not fit, read again after a console command. */
  private unread: SettledPicture | null = null;
  /** Since when the board has held still on pictures nothing explains (null: it moved since). */
  private unexplainedSince: number | null = null;
  /** Cells whose weight went both up and down since the reference was set: stones exchanged? */
  private stirred = 0;
  private readonly lowest = new Float64Array(CELLS);
  private readonly highest = new Float64Array(CELLS);
  private readonly zeros = new Float64Array(CELLS);
  private readonly recent = [new Float64Array(CELLS), new Float64Array(CELLS), new Float64Array(CELLS)];
  private recentCount = 0;
  private readonly medians = new Float64Array(CELLS);
  /** Which pits were emptied, in order: what tells quick moves apart (kalaha-decoder.ts). */
  private readonly lifts = new LiftWatch();
  /** The positions the referee was sure of, oldest first, back to `reviseDepth` moves. */
  private anchors: Anchor[] = [];
  private frameNoise = 0.1;
  private readonly reviseDepth: number;
  private readonly quickRun: number;

  constructor(
    readonly rules: KalahaOptions,
    options: KalahaRefereeOptions = {},
  ) {
    this.plies = [{ state: initial(rules), move: null, pit: null, sown: [], captures: [] }];
    this.settleOptions = options.settle ?? DEFAULT_SETTLE;
    this.settler = new WeightSettler(CELLS, this.settleOptions);
    this.takebackDepth = options.takebackDepth ?? 12;
    this.margin = options.margin ?? 9;
    this.mismatchMs = options.mismatchMs ?? 1500;
    this.reviseDepth = options.reviseDepth ?? 3;
    this.quickRun = options.quickRun ?? 5;
  }

  get state(): KalahaState {
    return this.plies[this.plies.length - 1].state;
  }
  get weightModel(): WeightModel | null {
    return this.model;
  }
  /** The moves played so far, in notation, after take-backs. */
  record(): string[] {
    return this.plies.slice(1).map((p) => p.move as string);
  }
  lastMove(): { pit: number; sown: readonly number[]; captures: readonly number[] } | null {
    const last = this.plies[this.plies.length - 1];
    return last.pit === null ? null : { pit: last.pit, sown: last.sown, captures: last.captures };
  }
  pendingTransfers(): readonly Transfer[] {
    return this.pending;
  }

  /**
   * Resume a game from its record (after a restart). The first picture the board then holds still is
   * weighed whole and read as any picture in the game: the position (nothing happened), a move made
   * meanwhile, an illegal one, a take-back; anything else is a mismatch naming the pits. It also
   * calibrates the weights.
   */
  restore(moves: readonly string[]): { ok: true } | { ok: false; ply: number; message: string } {
    const plies: Ply[] = [{ state: initial(this.rules), move: null, pit: null, sown: [], captures: [] }];
    for (const [i, name] of moves.entries()) {
      const pit = (PITS as readonly string[]).indexOf(name);
      if (pit < 0) return { ok: false, ply: i + 1, message: `not a pit: ${name}` };
      const sown = sowingPly(plies[plies.length - 1].state, pit);
      if (!sown.ok) return { ok: false, ply: i + 1, message: sown.error.message };
      plies.push(sown.ply);
    }
    this.plies = plies;
    this.model = null;
    this.ref = null;
    // The last move's capture or final sweep may not have been carried when the service stopped.
    const last = plies[plies.length - 1];
    if (last.pit === null) this.pending = [];
    else {
      const before = plies[plies.length - 2].state;
      this.pending = transfersOf(before, sowing(before, last.pit).afterSow, last.captures, last.state);
    }
    this.resuming = true;
    this.unexplained = null;
    this.unread = null;
    this.settler.reset();
    this.settler.expectedTotal = null;
    this.quick.reset();
    return { ok: true };
  }

  /** One W frame: weights in tenths of a gram, `t` in ms on the board's clock. */
  frame(t: number, tenths: ArrayLike<number>): RefereeEvent[] {
    const liftsBefore = this.lifts.count;
    if (!this.model) this.keepForCalibration(tenths);
    else this.watchHands(t, tenths);
    const glimpse = this.model ? this.glance(t, tenths) : null;
    const picture = this.settler.push(t, tenths);
    const lifted = this.lifts.count > liftsBefore;
    if (!picture && glimpse) {
      const early = this.decideEarly(glimpse);
      if (early.length || !lifted) return early;
    }
    // A pit lifted before the board held still long enough for a glimpse: the next move began
    // while the last was barely down. The frames just before the lift show the last one done.
    if (!picture && lifted) {
      const early = this.beforeLift(t, liftsBefore);
      if (early.length) return early;
    }
    if (picture) {
      if (this.model) return this.decide(picture);
      if (!this.resuming) return this.calibrate(picture);
      // Read once the board has held it as long as people pause with a stone in the hand: before
      // the weights are known, a hand holding stones is not told apart from stones missing.
      this.explainNot(picture);
      return NONE;
    }
    if (!this.unexplained) return NONE;
    if (!this.settler.holding) {
      this.unexplainedSince = null;
      return NONE;
    }
    this.unexplainedSince ??= t;
    if (t - this.unexplainedSince >= this.mismatchMs) {
      const picture = this.unexplained;
      this.unexplained = null;
      if (this.model) return this.mismatch(picture);
      if (this.resuming) return this.resume(picture);
      return this.waitingForPosition(t);
    }
    return NONE;
  }

  /** The board shows no position of the game yet: it is being filled, or emptied. */
  private waitingForPosition(t: number): RefereeEvent[] {
    const message = this.plies.length === 1
      ? 'Waiting for the opening position: every pit filled, stores empty.'
      : 'Waiting for the board to show the position of the game being resumed.';
    return [this.alerts.raise(t, 'calibrating', 'board/calibrating', message, { seeds: this.rules.seedsPerPit })].filter(isEvent);
  }

  /**
   * The console takes the last move back. The stones are still where the move put them: the
   * referee now expects the position before it, and says so until the players restore it.
   */
  undo(t: number): ConsoleResult {
    if (this.plies.length === 1) return { ok: false, error: 'console/nothing-to-undo', message: 'There is no move to take back.' };
    const undone = this.plies.pop() as Ply;
    this.forgetAnchorsPast(this.plies.length - 1);
    this.pending = [];
    this.unexplained = null;
    this.readAgain(t);
    return { ok: true, events: [{ kind: 'takeback', t, undone: [undone.move as string], ply: this.plies.length - 1 }] };
  }

  /**
   * The console enters a move by hand (a sensor failed, or the players want it recorded now).
   * The engine checks it; the board is then expected to show it.
   */
  enter(t: number, name: string): ConsoleResult {
    const pit = (PITS as readonly string[]).indexOf(name.trim());
    if (pit < 0) return { ok: false, error: 'kalaha/unreadable-move', message: `"${name}" is not a pit: write A–F for south, a–f for north.` };
    const sown = sowingPly(this.state, pit);
    if (!sown.ok) return { ok: false, error: sown.error.code, message: sown.error.message, ...(sown.error.params ? { params: sown.error.params } : {}) };
    this.plies.push(sown.ply);
    this.pending = [];
    this.unexplained = null;
    this.readAgain(t);
    const events: RefereeEvent[] = [{ kind: 'move', t, move: PITS[pit], ply: this.plies.length - 1, pending: [] }];
    if (sown.ply.state.outcome) events.push({ kind: 'end', t, outcome: sown.ply.state.outcome });
    if (this.alerts.key) events.unshift(this.alerts.clear(t));
    return { ok: true, events };
  }

  /**
   * Players agreed to end the game (RULES.md §1, ending 4; a console action): each takes the
   * stones in their own pits, which the referee then expects to see carried to the stores.
   */
  agreeToEnd(t: number): ConsoleResult {
    const ended = endByAgreement(this.state);
    if (!ended.ok) return { ok: false, error: ended.error.code, message: ended.error.message };
    const before = this.state;
    const last = this.plies[this.plies.length - 1];
    this.plies[this.plies.length - 1] = { ...last, state: ended.value };
    this.pending = sweepOf(before.pits);
    this.readAgain(t);
    return { ok: true, events: [{ kind: 'end', t, outcome: ended.value.outcome as KalahaOutcome }] };
  }

  private setReference(counts: readonly number[], grams: Float64Array, model: WeightModel | null = null, lifts = this.lifts.count): void {
    this.refModel = model;
    for (let i = 0; i < CELLS; i++) if (counts[i] === 0) this.zeros[i] = grams[i];
    this.ref = { counts, grams, zeros: this.zeros };
    this.lowest.set(grams);
    this.highest.set(grams);
    this.stirred = 0;
    const ply = this.plies.length - 1;
    this.anchors = this.anchors.filter((a) => a.ply < ply && a.ply >= ply - this.reviseDepth);
    this.anchors.push({ ply, ref: { counts: counts.slice(), grams: Float64Array.from(grams), zeros: Float64Array.from(this.zeros) }, lifts });
    this.lifts.forgetBefore(this.anchors[0].lifts);
  }

  /** Anchors past the record's end (after a take-back) show positions no longer in the game. */
  private forgetAnchorsPast(ply: number): void {
    this.anchors = this.anchors.filter((a) => a.ply <= ply);
  }

  /**
   * Notes cells whose weight went down by most of a stone and up again, or up and down again:
   * stones were taken out and others put in, so their weights no longer tell their counts alone.
   * A median of three frames keeps a glitch from counting.
   */
  private watchHands(t: number, tenths: ArrayLike<number>): void {
    const slot = this.recent[this.recentCount++ % 3];
    for (let i = 0; i < CELLS; i++) slot[i] = tenths[i] / 10;
    const kept = this.lastFrames.length >= 6 ? (this.lastFrames.shift() as Float64Array) : new Float64Array(CELLS);
    kept.set(slot);
    this.lastFrames.push(kept);
    if (this.recentCount < 3 || !this.ref || !this.model) return;
    const step = 0.6 * this.model.lightest;
    const [a, b, c] = this.recent;
    for (let i = 0; i < CELLS; i++) {
      const w = Math.max(Math.min(a[i], b[i]), Math.min(Math.max(a[i], b[i]), c[i]));
      this.medians[i] = w;
      if (w < this.lowest[i]) this.lowest[i] = w;
      if (w > this.highest[i]) this.highest[i] = w;
      const refW = this.ref.grams[i];
      if ((this.lowest[i] < refW - step && w > this.lowest[i] + step) || (this.highest[i] > refW + step && w < this.highest[i] - step)) this.stirred |= 1 << i;
    }
    // A pit reads about its zero when lifted: within half the lightest stone, or three times the noise.
    const emptyAbove = Math.max(0.5 * this.model.lightest, 3 * this.frameNoise);
    this.lifts.see(t, this.medians, this.zeros, emptyAbove, Math.max(0.8 * this.model.lightest, emptyAbove + 3 * this.frameNoise));
  }

  private keepForCalibration(tenths: ArrayLike<number>): void {
    this.calibration.push(Float64Array.from(tenths, (v) => v / 10));
    if (this.calibration.length > CALIBRATION_FRAMES) this.calibration.shift();
  }

  /**
   * The first settled picture that shows the expected position (the opening, or the position a
   * resumed game stands in) sets the weight model: all stones are on the board, so the total gives
   * the mean stone weight.
   */
  private calibrate(picture: SettledPicture): RefereeEvent[] {
    const g = picture.grams;
    const expected = observe(this.state);
    const looksRight = expected.every((count, i) => (count === 0 ? g[i] < 0.6 : g[i] > count * 0.5));
    if (!looksRight) {
      // Said only if the board stays so: people are still filling the pits.
      this.explainNot(picture);
      return NONE;
    }
    this.unexplained = null;
    const events: RefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(picture.t));
    events.push(this.adoptModel(picture, expected));
    return events;
  }

  /** How noisy the load cells are, from the still frames kept for calibration: per frame, and of a settled picture. */
  private noiseNow(): { frameNoise: number; settledNoise: number } {
    const frames = Math.max(this.settleOptions.minFrames, Math.round(this.settleOptions.settleMs / FRAME_MS));
    const frameNoise = estimateNoise(this.calibration.slice(-frames));
    return { frameNoise, settledNoise: frameNoise / Math.sqrt(frames) };
  }

  /**
   * Sets the weight model from a picture whose stone counts are known: all stones are on the board,
   * so the total gives the mean stone weight, and the cells its spread. The picture is the reference.
   */
  private adoptModel(picture: SettledPicture, counts: readonly number[]): RefereeEvent {
    const g = picture.grams;
    const cells = counts.map((count, i) => ({ count, grams: g[i] })).filter((c) => c.count > 0);
    const stones = 12 * this.rules.seedsPerPit;
    const stone = picture.total / stones;
    // Cells of n stones spread by √n single-stone spreads.
    const cellSpread = Math.sqrt(cells.reduce((s, c) => s + (c.grams - c.count * stone) ** 2 / c.count, 0) / Math.max(1, cells.length - 1));
    const spread = Math.min(Math.max(cellSpread, 0.1 * stone), 0.6 * stone);
    const frames = Math.max(this.settleOptions.minFrames, Math.round(this.settleOptions.settleMs / FRAME_MS));
    const { frameNoise, settledNoise } = this.noiseNow();
    // Twelve pit weights say too little about the lightest stone of a set: take what PROTOCOL.md
    // says people bring (about a gram at the least), or less for a set of lighter stones still.
    const lightest = Math.min(0.8, 0.8 * stone);
    this.model = {
      stone,
      stoneSpread: spread,
      lightest,
      heaviest: Math.max(12, 2.5 * stone),
      // Noise of the window's mean, the protocol's 0.1 g steps, and a little drift between pictures.
      tolerance: 3.5 * settledNoise + 0.1,
      noise: settledNoise + 0.05,
    };
    // Holding still means moving less than a fraction of the lightest stone; the total must be
    // conserved closely enough that a single stone in a hand shows.
    this.settler.stillTolerance = Math.min(Math.max(0.25, 4 * frameNoise), Math.max(0.45 * lightest, 3 * frameNoise));
    this.settler.stepTolerance = Math.max(0.15, 3 * frameNoise * Math.sqrt(4 / frames));
    this.settler.changeTolerance = this.model.tolerance / 2;
    this.settler.expectedTotal = picture.total;
    const totalNoise = settledNoise * Math.sqrt(CELLS);
    this.settler.totalTolerance = Math.max(Math.min(3 * totalNoise + 0.2, 0.6 * lightest), 2 * totalNoise);
    this.settler.driftTolerance = this.model.tolerance;
    this.frameNoise = frameNoise;
    const quickFrames = Math.max(QUICK_SETTLE.minFrames, Math.round(QUICK_SETTLE.settleMs / FRAME_MS));
    const noisier = Math.sqrt(frames / quickFrames);
    this.quickModel = { ...this.model, tolerance: this.model.tolerance * noisier, noise: this.model.noise * noisier };
    this.quick.stillTolerance = this.settler.stillTolerance;
    this.quick.stepTolerance = this.settler.stepTolerance * noisier;
    this.quick.changeTolerance = this.quickModel.tolerance / 2;
    // The total as strictly as the settled picture: a light stone still in the hand must show.
    this.quick.totalTolerance = this.settler.totalTolerance;
    this.quick.reset();
    this.lifts.reset(counts);
    this.anchors = [];
    this.setReference(counts, picture.grams);
    this.calibration.length = 0;
    return { kind: 'calibrated', t: picture.t, stone, spread, noise: frameNoise };
  }

  /**
   * The first picture of a resumed game, held still: which candidate explains it? The same readings
   * as `decide` weighs (nothing happened, a move, an illegal move, a take-back, the next game), each
   * weighed whole since no earlier picture is known; the same choice among them. A reading taken
   * sets the weight model, and a move it finds is marked as made while nobody watched.
   */
  private resume(picture: SettledPicture): RefereeEvent[] {
    const t = picture.t;
    const scale = this.scaleOf(picture);
    this.unread = picture;
    let best: WholeReading | null = null;
    let second: WholeReading | null = null;
    let here: WholeReading | null = null;
    const candidates = [...this.candidates()];
    const fits = fitWhole(scale, candidates.map((c) => c.target), picture.grams);
    for (const [k, c] of candidates.entries()) {
      const fit = fits[k];
      if (!fit) continue;
      const reading = { c, fit, score: fit.score + PRIOR[c.kind] };
      if (c.kind === 'here') here = reading;
      if (!best || reading.score < best.score) {
        second = best;
        best = reading;
      } else if (!second || reading.score < second.score) second = reading;
    }
    if (!best) {
      // A board nearly empty, or a game without a move yet (the scales were tared): being filled.
      if (scale.stone < EMPTY_BELOW || this.plies.length === 1) return this.waitingForPosition(t);
      const cells = cellsOff(scale, observe(this.state), picture.grams);
      const alert = this.mismatchAlert(t, cells);
      return alert ? [alert] : NONE;
    }
    if (here && here.score <= best.score + this.margin) best = here;
    else if (second && second.score < best.score + this.margin && !sameMeaning(best.c, second.c)) {
      const moves = [best.c, second.c].map(describe).join(' / ');
      return [this.alerts.raise(t, `ambiguous:${moves}`, 'referee/ambiguous', `The board fits more than one reading (${moves}); waiting for a clearer picture.`, { options: moves })].filter(isEvent);
    }
    return this.takeReading(best.c, best.fit, picture);
  }

  /** How a picture is weighed whole: all stones are on the board, so its total gives the mean stone. */
  private scaleOf(picture: SettledPicture): Scale {
    return { stone: picture.total / (12 * this.rules.seedsPerPit), noise: this.noiseNow().settledNoise + 0.05 };
  }

  /** A resumed game's picture read: the weights are known from it, and the reading is applied as in a game. */
  private takeReading(c: Candidate, fit: Omit<WholeFit, 'score'>, picture: SettledPicture): RefereeEvent[] {
    this.resuming = false;
    this.unread = null;
    this.unexplained = null;
    const events: RefereeEvent[] = [this.adoptModel(picture, fit.counts)];
    const target = { counts: c.target.counts, transfers: fit.remaining };
    for (const event of this.apply({ ...c, target }, { score: 0, complete: fit.remaining.length === 0 }, picture)) {
      events.push(event.kind === 'move' ? { ...event, reconstructed: true } : event);
    }
    // Where the stones are now is known, carried or not.
    this.setReference(fit.counts, picture.grams);
    this.pending = c.kind === 'here' || c.kind === 'move' ? fit.remaining : [];
    return events;
  }

  /**
   * The console confirms that the board shows the game as it stands. It matters only while a resumed
   * game's board is unread: weighed whole, a pit of unusually heavy stones may look like a stone too
   * many, and the people at the table know better. The picture the board holds is then taken as the
   * position, provided it has stones exactly where the position has.
   */
  confirm(): ConsoleResult {
    if (!this.resuming) return { ok: true, events: [] };
    const picture = this.unexplained ?? this.unread;
    if (!picture || !this.settler.holding) {
      return { ok: false, error: 'console/board-moving', message: 'The board is not standing still yet; confirm once it does.' };
    }
    const here: Candidate = { kind: 'here', target: { counts: observe(this.state), transfers: this.pending } };
    const scale = this.scaleOf(picture);
    const placed = placeStones(here.target, picture.grams, scale.stone);
    if (!placed) {
      const off = cellsOff(scale, here.target.counts, picture.grams);
      const named = off.map(({ cell, diff }) => `${cellName(cell)} ${diff > 0 ? '+' : ''}${diff}`).join(', ');
      return { ok: false, error: 'console/board-differs', message: `The board does not show the game: ${named}.`, params: { cells: named, count: off.length } };
    }
    return { ok: true, events: this.takeReading(here, placed, picture) };
  }

  /** After a console command while a resumed game's board is unread: read its picture again once it holds still. */
  private readAgain(t: number): void {
    if (!this.resuming || !this.unread) return;
    this.unexplained = this.unread;
    this.unexplainedSince = this.settler.holding ? t : null;
  }

  /**
   * The board as the last move left it, read the moment the next move's pit is lifted: the other
   * cells as the newest frames show them (as long as they hold still among themselves, at most
   * four frames), the lifted pit as it weighed just before the hand took its stones. Read as a
   * glimpse is, with a model as noisy as so few frames are. A press of the last stone's drop
   * that lasts until the lift has gone by then; the stones in the hand are the lifted pit's.
   */
  private beforeLift(t: number, liftsBefore: number): RefereeEvent[] {
    if (this.resuming || this.pending.length || this.unexplained || this.alerts.key || !this.model || this.settler.expectedTotal === null) return NONE;
    const model = this.model;
    const pit = this.lifts.since(liftsBefore)[0].cell;
    const frames = this.lastFrames;
    const fullAbove = Math.max(0.8 * model.lightest, 6 * this.frameNoise);
    let full = frames.length - 1;
    while (full >= 0 && frames[full][pit] - this.zeros[pit] < fullAbove) full--;
    if (full < 0) return NONE;
    const newest = frames[frames.length - 1];
    const still = this.settler.stillTolerance;
    let n = 1;
    while (n < 4 && frames.length - 1 - n >= 0 && frames[frames.length - 1 - n].every((w, i) => i === pit || Math.abs(w - newest[i]) <= still)) n++;
    const grams = new Float64Array(CELLS);
    for (let j = frames.length - n; j < frames.length; j++) for (let i = 0; i < CELLS; i++) grams[i] += frames[j][i] / n;
    // The lifted pit: its last full frames that agree with the last of them.
    let m = 0;
    let w = 0;
    while (m < 4 && full - m >= 0 && Math.abs(frames[full - m][pit] - frames[full][pit]) <= still) w += frames[full - m++][pit];
    grams[pit] = w / m;
    const total = grams.reduce((sum, g) => sum + g, 0);
    // So few frames weigh the total noisier than a settled picture does; the cells still must each
    // fit their stones, which is what tells a stone still in the hand.
    if (Math.abs(total - this.settler.expectedTotal) > Math.max(this.settler.totalTolerance, 3 * this.frameNoise * Math.sqrt(CELLS / n))) return NONE;
    const settledFrames = Math.max(this.settleOptions.minFrames, Math.round(this.settleOptions.settleMs / FRAME_MS));
    const noisier = Math.sqrt(settledFrames / Math.min(n, m));
    const early = { ...model, tolerance: model.tolerance * noisier, noise: model.noise * noisier };
    return this.decideEarly({ t, grams, total }, early, liftsBefore);
  }

  /** The short window's picture, when the board is being read as usual and nothing waits. */
  private glance(t: number, tenths: ArrayLike<number>): SettledPicture | null {
    this.quick.expectedTotal = this.settler.expectedTotal;
    const glimpse = this.quick.push(t, tenths);
    if (!glimpse || this.resuming || this.pending.length || this.unexplained || this.alerts.key || !this.quickModel) return null;
    return glimpse;
  }

  /**
   * A glimpse of a board that has held still only briefly: a move is taken early when its pit was
   * seen lifted, it alone explains the board, and the board is not simply as it was. The settled
   * picture then confirms it (nothing happened since), or the decoder corrects it.
   */
  private decideEarly(glimpse: SettledPicture, model = this.quickModel as WeightModel, lifts = this.lifts.count): RefereeEvent[] {
    const ref = this.ref as Reference;
    const lifted = this.liftedSinceReference();
    if (!lifted) return NONE;
    const fits: { c: Candidate; score: number; complete: boolean }[] = [];
    for (const c of this.candidates()) {
      const fit = matchTarget(model, ref, c.target, glimpse.grams);
      if (fit) fits.push({ c, score: fit.score + PRIOR[c.kind], complete: fit.complete });
    }
    fits.sort((a, b) => a.score - b.score);
    // Nothing one move leads to: a run of quick moves, read from the lifts as a settled picture would be.
    if (fits.length === 0) {
      const decoded = this.decode(glimpse, { anchors: 1, early: { model, lifts } });
      return decoded && decoded !== 'undecided' ? decoded : NONE;
    }
    const [best, second] = fits;
    // Early only for a move wholly done: stones still owed to a store are read from the settled board.
    if (!best || best.c.kind !== 'move' || !best.complete || !lifted.has(best.c.move.pit) || (second && second.score < best.score + this.margin)) return NONE;
    const c = best.c;
    const before = this.state;
    this.plies.push(c.ply);
    // The glimpse is the reference until a settled picture replaces it (as `here`): the next
    // quick move is weighed from the board as this one left it, not from before it.
    this.setReference(c.target.counts, glimpse.grams, model, lifts);
    const events: RefereeEvent[] = [{ kind: 'move', t: glimpse.t, move: PITS[c.move.pit], ply: this.plies.length - 1, pending: [] }];
    if (c.ply.state.outcome && !before.outcome) events.push({ kind: 'end', t: glimpse.t, outcome: c.ply.state.outcome });
    return events;
  }

  /** A settled picture: which candidate explains it? */
  decide(picture: SettledPicture): RefereeEvent[] {
    const model = (this.refModel ?? this.model) as WeightModel;
    const ref = this.ref as Reference;
    let best: { c: Candidate; m: Match } | null = null;
    let second: { c: Candidate; m: Match } | null = null;
    let here: { c: Candidate; m: Match } | null = null;
    const lifted = this.liftedSinceReference();
    for (const c of this.candidates()) {
      const fit = matchTarget(model, ref, c.target, picture.grams);
      if (!fit) continue;
      // A move whose pit nobody lifted is less likely than one whose pit was seen emptied.
      const unseen = c.kind === 'move' && lifted && !lifted.has(c.move.pit) ? BLIND_MOVE : 0;
      const m = { ...fit, score: fit.score + PRIOR[c.kind] + unseen };
      if (c.kind === 'here') here = { c, m };
      if (!best || m.score < best.m.score) {
        second = best;
        best = { c, m };
      } else if (!second || m.score < second.m.score) second = { c, m };
    }
    const t = picture.t;
    if (!best) {
      // Several moves without a still board between them, or a move read wrongly before: the
      // order of the lifts and the histories since the last positions the referee was sure of. A
      // history that keeps the record as it is confirms it: the reference was a glimpse, and a
      // stone moved since (set into the wrong pit, and put right) that weights could not place.
      const decoded = this.decode(picture, { confirm: true });
      if (decoded === 'undecided') {
        this.explainNot(picture);
        return NONE;
      }
      if (decoded) {
        this.unexplained = null;
        return decoded;
      }
      const both = this.twoMoves(picture);
      if (both) {
        this.unexplained = null;
        return both;
      }
      const loose = this.stirred ? this.decideStirred(picture, this.stirred) ?? this.decideStirred(picture, this.stirred | this.strayTo(picture)) : null;
      if (loose) {
        this.unexplained = null;
        return loose;
      }
      // A stone put right with another (as above), and the next move made before the board settled.
      const strayed = this.stirred ? this.decode(picture, { anchors: 1, stirred: this.stirred | this.strayTo(picture) }) : null;
      if (strayed && strayed !== 'undecided') {
        this.unexplained = null;
        return strayed;
      }
      this.explainNot(picture);
      return NONE;
    }
    this.unexplained = null;
    // Nothing happened is the safest reading whenever it fits about as well as anything else.
    if (here && here.m.score <= best.m.score + this.margin) return this.apply(here.c, here.m, picture);
    // Before a person is told a move was wrong: were several right ones made in a row?
    if (best.c.kind === 'illegal' || best.c.kind === 'takeback' || best.c.kind === 'new-game') {
      const decoded = this.decode(picture, { anchors: 1, within: best.m.score + this.margin });
      if (decoded && decoded !== 'undecided') return decoded;
    }
    if (second && second.m.score < best.m.score + this.margin && !sameMeaning(best.c, second.c)) {
      // The lifts may tell the two apart where the picture cannot.
      if (best.c.kind === 'move' && second.c.kind === 'move') {
        const decoded = this.decode(picture, { anchors: 1 });
        if (decoded && decoded !== 'undecided') return decoded;
      }
      const moves = [best.c, second.c].map(describe).join(' / ');
      return [this.alerts.raise(t, `ambiguous:${moves}`, 'referee/ambiguous', `The board fits more than one reading (${moves}); waiting for a clearer picture.`, { options: moves })].filter(isEvent);
    }
    return this.apply(best.c, best.m, picture);
  }

  /** The pits lifted since the reference picture, or null when none were seen (the lifts tell nothing then). */
  private liftedSinceReference(): Set<number> | null {
    const newest = this.anchors[this.anchors.length - 1];
    if (!newest || newest.ply !== this.plies.length - 1) return null;
    const lifts = this.lifts.since(newest.lifts);
    return lifts.length ? new Set(lifts.map((l) => l.cell)) : null;
  }

  /**
   * The histories from the positions the referee was sure of (the newest first, then back to
   * `reviseDepth` moves of the record) that explain the picture, through the lifts seen since:
   * what every close one agrees on is taken, moves of the record it replaces are corrected.
   * `anchors` limits how many of the newest anchors are tried.
   */
  private decode(picture: SettledPicture, how: DecodeOptions = {}): RefereeEvent[] | 'undecided' | null {
    const { anchors = Infinity, within = Infinity, confirm = false, early, stirred = 0 } = how;
    const model = early?.model ?? (this.model as WeightModel);
    const n = this.plies.length - 1;
    const usable = this.anchors.filter((a) => a.ply <= n && a.ply >= n - this.reviseDepth).reverse().slice(0, anchors);
    for (const anchor of usable) {
      const evidence = { model, ref: anchor.ref, picture: picture.grams, lifts: this.lifts.since(anchor.lifts), stirred };
      const recorded = this.plies.slice(anchor.ply + 1).map((p) => p.pit as number);
      const found = explain(sowingAdapter, rootNode(this.plies[anchor.ply]), evidence, { depth: recorded.length + this.quickRun, width: 400, beam: 4 * this.margin }).filter((e) => e.cost <= Math.min(within, MOST_COST));
      const agreement = agree(sowingAdapter, recorded, found, this.margin);
      if (agreement.kind === 'none') continue;
      if (agreement.kind === 'undecided') return 'undecided';
      if (agreement.add.length === 0 && agreement.replace.length === 0 && !confirm) return null;
      if (early) {
        // Early only for a run the lifts tell move for move, wholly done, that changes nothing recorded.
        const added = agreement.history.nodes.slice(agreement.keep + 1);
        if (agreement.replace.length || added.length < 2 || added[added.length - 1].blind > 0) return null;
        const m = matchNode(added[added.length - 1], evidence);
        if (!m || !m.complete) return null;
      }
      return this.takeHistory(anchor, agreement, evidence, picture, early);
    }
    return null;
  }

  /** A history the decoder agreed on, into the record: corrected moves, then new ones. */
  private takeHistory(anchor: Anchor, agreement: Extract<Agreement<SowingNode, number>, { kind: 'agreed' }>, evidence: Parameters<typeof matchNode>[1], picture: SettledPicture, early?: EarlyReading): RefereeEvent[] {
    const t = picture.t;
    const events: RefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(t));
    const from = anchor.ply + agreement.keep;
    const wasOver = this.plies[from].state.outcome !== null;
    const old = this.plies.slice(from + 1).map((p) => p.move as string);
    const nodes = agreement.history.nodes.slice(agreement.keep + 1);
    this.plies.length = from + 1;
    for (const node of nodes) this.plies.push(node.ply);
    this.forgetAnchorsPast(from);
    const added = nodes.map((node) => node.ply.move as string);
    if (old.length && added.length) events.push({ kind: 'correction', t, ply: from + 1, old, new: added, reason: 'evidence' });
    else if (old.length) events.push({ kind: 'takeback', t, undone: old, ply: from });
    else for (const [k, move] of added.entries()) events.push({ kind: 'move', t, move, ply: from + k + 1, pending: [] });
    const last = agreement.history.nodes[agreement.history.nodes.length - 1];
    const m = matchNode(last, evidence);
    // The record confirmed as it stands, the stones its last move owed now where they belong.
    if (!old.length && !added.length && this.pending.length && m?.complete) events.push({ kind: 'settled', t });
    this.pending = m && !m.complete ? last.owed : [];
    if (this.pending.length === 0) this.setReference(observe(this.state), picture.grams, early?.model ?? null, early?.lifts);
    const moveEvent = events.findLast((e) => e.kind === 'move');
    if (moveEvent && moveEvent.kind === 'move' && this.pending.length) events[events.lastIndexOf(moveEvent)] = { ...moveEvent, pending: this.pending };
    const outcome = this.state.outcome;
    if (outcome && !wasOver) events.push({ kind: 'end', t, outcome });
    return events;
  }

  /** Nothing fits as it stands; does something fit if the stirred cells exchanged stones? */
  private decideStirred(picture: SettledPicture, stirred: number): RefereeEvent[] | null {
    const model = this.model as WeightModel;
    const ref = this.ref as Reference;
    const fits: { c: Candidate; m: Match }[] = [];
    for (const c of this.candidates()) {
      const fit = matchTarget(model, ref, c.target, picture.grams, stirred);
      if (fit) fits.push({ c, m: { ...fit, score: fit.score + PRIOR[c.kind] } });
    }
    fits.sort((x, y) => x.m.score - y.m.score);
    if (fits.length === 0) return null;
    if (fits.length > 1 && fits[1].m.score < fits[0].m.score + this.margin && !sameMeaning(fits[0].c, fits[1].c)) return null;
    return this.apply(fits[0].c, fits[0].m, picture);
  }

  /**
   * The pits a stone taken from a stirred pit may have gone to: a stone dropped into the pit after
   * the one it was meant for is put right with any stone of that pit, so the pit before it gained
   * one of the other's stones, not its own (a pit that gained, next to a stirred one).
   */
  private strayTo(picture: SettledPicture): number {
    const model = this.model as WeightModel;
    const ref = this.ref as Reference;
    let to = 0;
    for (let i = 0; i < 12; i++) {
      const next = (i + 1) % 12;
      if (this.stirred & (1 << next) && picture.grams[i] - ref.grams[i] > model.tolerance) to |= 1 << i;
    }
    return to;
  }

  private explainNot(picture: SettledPicture): void {
    if (!this.unexplained) this.unexplainedSince = picture.t;
    this.unexplained = picture;
  }

  /** Two legal moves in a row that explain the picture, if exactly one pair does. */
  private twoMoves(picture: SettledPicture): RefereeEvent[] | null {
    const model = this.model as WeightModel;
    const ref = this.ref as Reference;
    const state = this.state;
    if (state.outcome || this.pending.length) return null;
    let found: { first: KalahaMove; second: KalahaMove; score: number }[] = [];
    for (const first of legalMoves(state)) {
      const mid = play(state, first);
      if (!mid.ok || mid.value.outcome) continue;
      for (const second of legalMoves(mid.value)) {
        const next = play(mid.value, second);
        if (!next.ok) continue;
        const m = matchTarget(model, ref, { counts: observe(next.value), transfers: [] }, picture.grams);
        if (m) found.push({ first, second, score: m.score });
      }
    }
    found = found.sort((a, b) => a.score - b.score);
    if (found.length === 0 || (found.length > 1 && found[1].score < found[0].score + this.margin)) return null;
    const events: RefereeEvent[] = [];
    if (this.alerts.key) events.push(this.alerts.clear(picture.t));
    for (const move of [found[0].first, found[0].second]) {
      const sown = sowingPly(this.state, move.pit);
      if (!sown.ok) return null;
      this.plies.push(sown.ply);
      events.push({ kind: 'move', t: picture.t, move: PITS[move.pit], ply: this.plies.length - 1, pending: [] });
      if (sown.ply.state.outcome) events.push({ kind: 'end', t: picture.t, outcome: sown.ply.state.outcome });
    }
    this.setReference(observe(this.state), picture.grams);
    return events;
  }

  private *candidates(): Generator<Candidate> {
    const state = this.state;
    const n = this.plies.length - 1;
    yield { kind: 'here', target: { counts: observe(state), transfers: this.pending } };
    const reached = new Set([observe(state).join()]);
    const legal = state.outcome ? [] : legalMoves(state);
    for (const move of legal) {
      const next = play(state, move);
      if (!next.ok) continue;
      const sown = sowing(state, move.pit);
      const capturesApplied = capturedIn(state, sown.afterSow, sown.captures, next.value);
      const captures = capturesApplied ? sown.captures : [];
      // What the board shows on the way (sown, captures not yet carried) is this move too.
      reached.add(observe(next.value).join());
      reached.add(sown.afterSow.join());
      reached.add(afterCaptures(sown.afterSow, captures, STORE[state.toMove]).join());
      const owed = transfersOf(state, sown.afterSow, captures, next.value);
      // Stones the last move still owed a store may arrive while this move is made (a pit this
      // move sows into again is done once it holds only what it was sown: weigh.ts).
      const ply: Ply = { state: next.value, move: PITS[move.pit], pit: move.pit, sown: sownPits(state, move.pit), captures };
      yield { kind: 'move', move, ply, target: { counts: observe(next.value), transfers: [...this.pending, ...owed] } };
      // The capture was not allowed (every move was forbidden), but a person may carry it anyway.
      if (!capturesApplied && sown.captures.length > 0) {
        const physical = afterCaptures(sown.afterSow, sown.captures, STORE[state.toMove]);
        yield {
          kind: 'illegal',
          pit: move.pit,
          error: {
            code: 'kalaha/capture-not-allowed',
            message: `pit ${PITS[move.pit]} may be sown, but its capture is not allowed — put the captured stones back`,
            params: { pit: PITS[move.pit] },
          },
          target: { counts: physical, transfers: captureTransfers(sown.afterSow, sown.captures, STORE[state.toMove]) },
        };
      }
    }
    for (let pit = 0; pit < 12; pit++) {
      if (state.pits[pit] === 0 || legal.some((m) => m.pit === pit)) continue;
      const error = whyIllegal(state, { kind: 'sow', pit });
      if (!error) continue;
      const sown = sowing(state, pit);
      const store = STORE[owner(pit)];
      // A person sowing an illegal pit may or may not go on to carry its capture: both fit.
      yield { kind: 'illegal', pit, error, target: { counts: sown.afterSow, transfers: [] } };
      if (sown.captures.length) yield { kind: 'illegal', pit, error, target: { counts: afterCaptures(sown.afterSow, sown.captures, store), transfers: [] } };
    }
    // Positions repeat in Kalaha: a take-back to a position that a move also reaches is that move.
    for (let k = n - 1; k >= Math.max(0, n - this.takebackDepth); k--) {
      const counts = observe(this.plies[k].state);
      if (reached.has(counts.join())) continue;
      reached.add(counts.join());
      yield { kind: 'takeback', toPly: k, target: { counts, transfers: [] } };
    }
    if (state.outcome) yield { kind: 'new-game', target: { counts: observe(initial(this.rules)), transfers: [] } };
  }

  private apply(c: Candidate, m: Match, picture: SettledPicture): RefereeEvent[] {
    const t = picture.t;
    const events: RefereeEvent[] = [];
    const settleOn = (counts: readonly number[]) => this.setReference(counts, picture.grams);
    switch (c.kind) {
      case 'here':
        if (this.alerts.key) events.push(this.alerts.clear(t));
        if (m.complete) {
          settleOn(c.target.counts);
          if (this.pending.length) events.push({ kind: 'settled', t });
          this.pending = [];
        }
        return events;
      case 'move': {
        if (this.alerts.key) events.push(this.alerts.clear(t));
        const before = this.state;
        this.plies.push(c.ply);
        this.pending = m.complete ? [] : c.target.transfers;
        if (m.complete) settleOn(c.target.counts);
        events.push({ kind: 'move', t, move: PITS[c.move.pit], ply: this.plies.length - 1, pending: this.pending });
        if (c.ply.state.outcome && !before.outcome) events.push({ kind: 'end', t, outcome: c.ply.state.outcome });
        return events;
      }
      case 'illegal': {
        if (m.complete) settleOn(c.target.counts);
        const alert = this.alerts.raise(t, `illegal:${this.plies.length}:${c.pit}`, c.error.code, c.error.message, c.error.params ?? { pit: PITS[c.pit] });
        return alert ? [alert] : NONE;
      }
      case 'takeback': {
        if (this.alerts.key) events.push(this.alerts.clear(t));
        const undone = this.plies.slice(c.toPly + 1).map((p) => p.move as string);
        this.plies.length = c.toPly + 1;
        this.pending = [];
        settleOn(c.target.counts);
        events.push({ kind: 'takeback', t, undone, ply: c.toPly });
        return events;
      }
      case 'new-game':
        if (this.alerts.key) events.push(this.alerts.clear(t));
        this.plies = [{ state: initial(this.rules), move: null, pit: null, sown: [], captures: [] }];
        this.pending = [];
        settleOn(c.target.counts);
        events.push({ kind: 'new-game', t });
        return events;
    }
  }

  /** No candidate fits: say which cells differ from the expected board, and by how many stones. */
  private mismatch(picture: SettledPicture): RefereeEvent[] {
    const model = this.model as WeightModel;
    const ref = this.ref as Reference;
    const expected = observe(this.state);
    const pendingFrom = new Set(this.pending.map((tr) => tr.from));
    const pendingTo = new Set(this.pending.map((tr) => tr.to));
    const cells: { cell: number; diff: number }[] = [];
    for (let i = 0; i < CELLS; i++) {
      if (pendingFrom.has(i) || pendingTo.has(i)) continue;
      const change = picture.grams[i] - ref.grams[i];
      if (Math.abs(change) <= model.tolerance && ref.counts[i] === expected[i]) continue;
      const diff = ref.counts[i] + fewestStones(model, change) - expected[i];
      if (diff !== 0) cells.push({ cell: i, diff });
    }
    const alert = this.mismatchAlert(picture.t, cells);
    return alert ? [alert] : NONE;
  }

  /** The mismatch alert: the cells to fix, by how many stones (positive: too many). */
  private mismatchAlert(t: number, cells: readonly { cell: number; diff: number }[]): RefereeAlert | null {
    const named = cells.map(({ cell, diff }) => `${cellName(cell)} ${diff > 0 ? '+' : ''}${diff}`).join(', ');
    const key = `mismatch:${this.plies.length}:${named}`;
    const message = cells.length
      ? `The board does not match the game: ${named}. Please restore it.`
      : 'The board does not match the game. Please restore it.';
    const alert = this.alerts.raise(t, key, 'referee/mismatch', message, { count: cells.length, cells: named });
    return alert ? { ...alert, cells } : null;
  }

}

const NONE: RefereeEvent[] = [];

/** A picture read early (a glimpse, the board just before a pit was lifted): its noisier weights, and the lifts it had seen. */
interface EarlyReading {
  readonly model: WeightModel;
  readonly lifts: number;
}

/** How `decode` searches: how many anchors, newest first; the most a history may cost; whether a record it leaves as it is is confirmed; an early picture's reading. */
interface DecodeOptions {
  readonly anchors?: number;
  readonly within?: number;
  readonly confirm?: boolean;
  readonly early?: EarlyReading;
  /** Cells whose stones were exchanged since the newest anchor (only with `anchors: 1`). */
  readonly stirred?: number;
}

function isEvent<T>(e: T | null): e is T {
  return e !== null;
}

export function cellName(cell: number): string {
  if (cell < 12) return PITS[cell];
  return cell === STORE.south ? 'store south' : 'store north';
}

function describe(c: Candidate): string {
  switch (c.kind) {
    case 'here':
      return 'nothing';
    case 'move':
      return PITS[c.move.pit];
    case 'illegal':
      return `${PITS[c.pit]}?`;
    case 'takeback':
      return `back to ply ${c.toPly}`;
    case 'new-game':
      return 'new game';
  }
}

/**
 * Two readings that name the same move: a move whose capture is not allowed and the same move with
 * the capture carried look alike until the stones are carried; the priors choose the allowed one.
 */
function sameMeaning(a: Candidate, b: Candidate): boolean {
  return describe(a).replace('?', '') === describe(b).replace('?', '');
}

/**
 * How many stones a weight change stands for, at the fewest: stones differ too much in weight to
 * count them by dividing, and a person fixing the board is better told too few than too many.
 */
function fewestStones(model: WeightModel, change: number): number {
  if (Math.abs(change) <= model.tolerance) return 0;
  const heaviest = Math.min(model.heaviest, model.stone + 2.5 * model.stoneSpread);
  return Math.sign(change) * Math.max(1, Math.ceil((Math.abs(change) - model.tolerance) / heaviest));
}

/**
 * Noise of a load cell: the pooled standard deviation of each cell's readings over the still
 * frames that made the calibration picture. A reading more than 1.5 g from its cell's median is a
 * glitch and left out (a stone's worth of change would not have let the board settle).
 */
function estimateNoise(frames: readonly Float64Array[]): number {
  let sum = 0;
  let degrees = 0;
  const values: number[] = [];
  for (let i = 0; i < CELLS; i++) {
    values.length = 0;
    for (const frame of frames) values.push(frame[i]);
    const median = [...values].sort((a, b) => a - b)[values.length >> 1];
    const kept = values.filter((v) => Math.abs(v - median) <= 1.5);
    if (kept.length < 2) continue;
    const mean = kept.reduce((a, v) => a + v, 0) / kept.length;
    sum += kept.reduce((a, v) => a + (v - mean) ** 2, 0);
    degrees += kept.length - 1;
  }
  return degrees ? Math.max(Math.sqrt(sum / degrees), 0.05) : 0.1;
}
