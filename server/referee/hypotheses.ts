// Questions the square-board referees (Malawi, Makis, Adu) never stop the game for: what an option leaves, which the evidence keeps, which the record takes unasked, and the questions still answerable about moves already in the record.
//
// A public table has nobody at the console most of the time. So a question whose options all
// leave the same game is never a blocking one: the record takes the likeliest option (`assumed`)
// and the question stays open for the console (`blocking: false`). A question that matters keeps
// every option as a hypothesis: the next pictures are read from each option's position, and the
// one option that explains them is taken. When several do and the board has moved on (the next
// move was made from a state the options share), or nobody answered for `assumeMs`, the record
// takes the likeliest, marked `assumed`. An answer that differs from what the record took later
// corrects the record (`correction`, reason `console`), the plies after it replayed on top.
import type { RuleError } from '../rules/types.ts';
import type { BoardCorrection, BoardQuestion } from './events.ts';

/**
 * How long a question that matters waits for the console or the board before the record takes the
 * likeliest option, ms of the board's clock: long enough for someone at the console to answer,
 * short enough that a game nobody watches goes on within a move or two.
 */
export const DEFAULT_ASSUME_MS = 20_000;

/**
 * How many committed moves back a move the record took unasked is still reconsidered when a
 * picture nothing else explains would be explained by another of its options.
 */
export const REVISE_PLIES = 3;

/**
 * Whether every option leaves the same game: the same picture on the board and the same state
 * (pieces, player to move, outcome, history the rules count), so the same futures. One option
 * alone is no choice between positions: its alternative is that nothing happened.
 */
export function samePosition<S>(states: readonly S[], observe: (state: S) => readonly number[]): boolean {
  if (states.length < 2) return false;
  const picture = observe(states[0]).join(',');
  const key = JSON.stringify(states[0]);
  return states.every((s, i) => i === 0 || (observe(s).join(',') === picture && JSON.stringify(s) === key));
}

/** The option the record takes when nobody decides: the preselected one, else the first (options come in a stable order). */
export function likeliest(options: readonly string[], preselected?: string): number {
  const i = preselected === undefined ? -1 : options.indexOf(preselected);
  return i >= 0 ? i : 0;
}

/** How a picture is explained from one option's position: the position itself, a legal move from it, or not at all. */
export type Explains = 'position' | 'move' | null;

/**
 * What the pictures since a question say about its options:
 * - `decided`: exactly one option explains the picture (another option's position shown, or a
 *   move legal only after one of them): take it;
 * - `moved-on`: several explain it by a move made from their positions: the board went on from a
 *   state they share; the record takes the likeliest of `among`;
 * - `open`: nothing told them apart yet (or nothing explains the picture: the referee reads it as usual).
 */
export type Weighing = { readonly kind: 'decided'; readonly index: number } | { readonly kind: 'moved-on'; readonly among: readonly number[] } | { readonly kind: 'open' };

export function weigh(explains: readonly Explains[]): Weighing {
  const any = explains.flatMap((e, i) => (e !== null ? [i] : []));
  const moved = any.filter((i) => explains[i] === 'move');
  // One option alone explains by its position only the picture it was asked on: no evidence.
  if (explains.length === 1) return moved.length === 1 ? { kind: 'decided', index: 0 } : { kind: 'open' };
  if (any.length === 1) return { kind: 'decided', index: any[0] };
  if (moved.length === 1 && any.length > 1) return { kind: 'decided', index: moved[0] };
  if (moved.length > 1) return { kind: 'moved-on', among: moved };
  return { kind: 'open' };
}

/** One move played again by a referee's rules: the ply it makes, or why the rules refuse it (and its name). */
export type ReplayStep<S, M, P> = (state: S, move: M) => { readonly ok: true; readonly state: S; readonly ply: P } | { readonly ok: false; readonly error: RuleError; readonly name: string };

/**
 * The record from a position on played again with other moves first (the console's answer, `lead`
 * of them): the plies, or the refusal — the rules' own for the answer, `breaksRecord` for a later
 * move the answer would leave illegal. Every square-board referee replays through this one loop.
 */
export function replayRecord<S, M, P>(
  start: S,
  moves: readonly M[],
  step: ReplayStep<S, M, P>,
  answer: { readonly lead: number; readonly name: string; readonly ply: number },
): { readonly ok: true; readonly plies: P[] } | { readonly ok: false; readonly error: RuleError } {
  const plies: P[] = [];
  let state = start;
  for (const [k, move] of moves.entries()) {
    const next = step(state, move);
    if (!next.ok) return { ok: false, error: k < answer.lead ? next.error : breaksRecord(answer.name, answer.ply, answer.ply + k, next.name, next.error) };
    state = next.state;
    plies.push(next.ply);
  }
  return { ok: true, plies };
}

/** Another option of a question the record took that explains the board: the record replayed with it. */
export interface Revision<Q, P> {
  readonly taken: Taken<Q>;
  /** The options that explain the picture, each with the record replayed from the taken ply. */
  readonly explaining: readonly { readonly index: number; readonly plies: P[] }[];
}

/**
 * The latest question the record took within `horizon` moves whose other options explain a picture
 * the record does not: each option replayed (`replay`), and kept when its last ply explains it.
 * The referee replaces the taken option by the first (`correction`, reason `evidence`).
 */
export function revision<Q, P>(
  taken: TakenQuestions<Q>,
  plies: number,
  how: {
    readonly horizon: (taken: Taken<Q>) => number;
    readonly options: (taken: Taken<Q>) => number;
    readonly replay: (taken: Taken<Q>, index: number) => { readonly ok: true; readonly plies: P[] } | { readonly ok: false };
    readonly explains: (plies: readonly P[], taken: Taken<Q>) => boolean;
  },
): Revision<Q, P> | null {
  for (const t of taken.latestFirst()) {
    if (plies - 1 - t.ply >= how.horizon(t)) continue;
    const explaining: { index: number; plies: P[] }[] = [];
    for (let j = 0; j < how.options(t); j++) {
      if (j === t.index) continue;
      const replayed = how.replay(t, j);
      if (replayed.ok && how.explains(replayed.plies, t)) explaining.push({ index: j, plies: replayed.plies });
    }
    if (explaining.length) return { taken: t, explaining };
  }
  return null;
}

/** The refusal of an answer that would leave a later move in the record illegal. */
export function breaksRecord(answer: string, ply: number, laterPly: number, later: string, error: RuleError): RuleError {
  return {
    code: 'referee/answer-breaks-record',
    message: `${answer} cannot be move ${ply}: move ${laterPly}, ${later}, would then be illegal (${error.message})`,
    params: { move: answer, ply, later, laterPly, reason: error.code },
  };
}

export function correction(t: number, ply: number, old: readonly string[], now: readonly string[], reason: BoardCorrection['reason']): BoardCorrection {
  return { kind: 'correction', t, ply, old, new: now, reason };
}

type Closed = { readonly kind: 'question-closed'; readonly t: number; readonly id: number };

/** A question about a move the record already took: still answerable. */
export interface Taken<Q> {
  readonly question: Q;
  readonly event: BoardQuestion;
  /** The ply the record took an option at. */
  readonly ply: number;
  /** The option it took. */
  readonly index: number;
}

/** The questions still open about moves already in the record, oldest first. */
export class TakenQuestions<Q> {
  private list: Taken<Q>[] = [];

  add(question: Q, event: BoardQuestion, ply: number, index: number): void {
    this.list.push({ question, event, ply, index });
  }

  find(id: number): Taken<Q> | undefined {
    return this.list.find((x) => x.event.id === id);
  }

  /** The newest first: the moves the record took last. */
  latestFirst(): readonly Taken<Q>[] {
    return [...this.list].reverse();
  }

  /** The record now holds another of its options (the board said so, but not alone). */
  retake(taken: Taken<Q>, index: number): void {
    const i = this.list.indexOf(taken);
    if (i >= 0) this.list[i] = { ...taken, index };
  }

  events(): BoardQuestion[] {
    return this.list.map((x) => x.event);
  }

  /** Closes one (answered): its `question-closed` event. */
  close(taken: Taken<Q>, t: number): Closed[] {
    const i = this.list.indexOf(taken);
    if (i < 0) return [];
    this.list.splice(i, 1);
    return [{ kind: 'question-closed', t, id: taken.event.id }];
  }

  /** Closes those about plies after `ply` (taken back; 0: a new game). */
  dropAfter(ply: number, t: number): Closed[] {
    return this.list.filter((x) => x.ply > ply).flatMap((x) => this.close(x, t));
  }

  /** Forgets them all without a word (a game restored from its log). */
  reset(): void {
    this.list = [];
  }
}
