// Rebuilding a live game's record from its logged events (moves and take-backs): there are no
// snapshots, the events are the game.

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
   * that still stands.
   */
  readonly plies: readonly number[];
}

/** What a game resumed from its log goes on from: its record, and the console's answers about it. */
export interface ResumedRecord {
  readonly moves: string[];
  readonly answers: LoggedAnswer[];
}

/** The moves of a game after its take-backs, from its events in order. */
export function recordOf(events: Iterable<LoggedEvent>): string[] {
  return resumeOf(events).moves;
}

/** The record of a game after its take-backs, and the console's answers about the moves in it. */
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
    } else if (event.kind === 'answer' && typeof payload.command?.move === 'string') {
      given.push({ move: payload.command.move, at, plies: moves.length });
    }
    at++;
  }
  const answers = given.map(({ move, at: when, plies }) => {
    const about: number[] = [];
    // Still standing: placed before the answer, and not replaced since.
    for (let ply = 1; ply <= Math.min(plies, moves.length); ply++) if (placedAt[ply - 1] < when) about.push(ply);
    // The move it brought, logged right after it (a move entered, or chosen among several).
    if (plies < moves.length && placedAt[plies] === when + 1) about.push(plies + 1);
    return { move, plies: about };
  });
  return { moves, answers };
}
