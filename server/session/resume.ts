// Rebuilding a live game's record from its logged events (moves, take-backs and corrections):
// there are no snapshots, the events are the game.
import type { RecordCorrection } from '../http/messages.ts';

export const CORRECTION_REASONS: readonly RecordCorrection['reason'][] = ['evidence', 'console'];

export interface LoggedEvent {
  readonly kind: string;
  readonly payload: unknown;
}

/** A console answer from the log (a question answered, or a move entered by hand), and what it was about. */
export interface LoggedAnswer {
  /** The move the console gave, as it gave it (`b6xb9=3`). */
  readonly move: string;
  /**
   * The plies of the resumed record it may be about: those played when it was given and still in
   * the record, and the move logged right after it (the move it brought, when it brought one), if
   * that still stands (or the moves of the correction it brought).
   */
  readonly plies: readonly number[];
}

/** What a game resumed from its log goes on from: its record, and the console's answers about it. */
export interface ResumedRecord {
  readonly moves: string[];
  readonly answers: LoggedAnswer[];
}

/**
 * A logged correction's payload, checked: `{ply, old, new, reason}` with `ply` ≥ 1 and the moves
 * as lists of strings; null for anything else (a reader passes it by, an import refuses it).
 */
export function correctionOf(payload: unknown): RecordCorrection | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as { ply?: unknown; old?: unknown; new?: unknown; reason?: unknown };
  const moves = (value: unknown): value is string[] => Array.isArray(value) && value.every((m) => typeof m === 'string');
  if (typeof p.ply !== 'number' || !Number.isSafeInteger(p.ply) || p.ply < 1 || !moves(p.old) || !moves(p.new)) return null;
  if (!CORRECTION_REASONS.includes(p.reason as RecordCorrection['reason'])) return null;
  return { ply: p.ply, old: p.old, new: p.new, reason: p.reason as RecordCorrection['reason'] };
}

/** The moves of a game after its take-backs and corrections, from its events in order. */
export function recordOf(events: Iterable<LoggedEvent>): string[] {
  return resumeOf(events).moves;
}

/** The record of a game after its take-backs and corrections, and the console's answers about the moves in it. */
export function resumeOf(events: Iterable<LoggedEvent>): ResumedRecord {
  const moves: string[] = [];
  // Per ply of the record: the event that put its move there, as an index into the events.
  const placedAt: number[] = [];
  const given: { move: string; at: number; plies: number }[] = [];
  let at = 0;
  for (const event of events) {
    const payload = event.payload as { move?: unknown; ply?: unknown; command?: { move?: unknown } };
    if (event.kind === 'move' && typeof payload.move === 'string' && typeof payload.ply === 'number') {
      moves.length = Math.min(moves.length, payload.ply - 1);
      placedAt.length = moves.length;
      moves.push(payload.move);
      placedAt.push(at);
    } else if (event.kind === 'takeback' && typeof payload.ply === 'number') {
      moves.length = Math.min(moves.length, payload.ply);
      placedAt.length = moves.length;
    } else if (event.kind === 'correction') {
      // The record is cut before the first corrected ply and goes on with the new moves, which were
      // placed by this event (an answer given before it is not about them).
      const correction = correctionOf(event.payload);
      if (correction) {
        moves.length = Math.min(moves.length, correction.ply - 1);
        placedAt.length = moves.length;
        for (const move of correction.new) {
          moves.push(move);
          placedAt.push(at);
        }
      }
    } else if (event.kind === 'answer' && typeof payload.command?.move === 'string') {
      given.push({ move: payload.command.move, at, plies: moves.length });
    }
    at++;
  }
  const answers = given.map(({ move, at: when, plies }) => {
    const about: number[] = [];
    // Still standing: placed before the answer, and not replaced since.
    for (let ply = 1; ply <= Math.min(plies, moves.length); ply++) if (placedAt[ply - 1] < when) about.push(ply);
    // What it brought, logged right after it: a move entered or chosen among several, or the moves of
    // a correction (a question answered about a move already played).
    for (let ply = 1; ply <= moves.length; ply++) if (placedAt[ply - 1] === when + 1) about.push(ply);
    return { move, plies: about };
  });
  return { moves, answers };
}
