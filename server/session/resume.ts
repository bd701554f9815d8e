// Rebuilding a live game's record from its logged events (moves and take-backs): there are no
// snapshots, the events are the game.

export interface LoggedEvent {
  readonly kind: string;
  readonly payload: unknown;
}

/** The moves of a game after its take-backs, from its events in order. */
export function recordOf(events: Iterable<LoggedEvent>): string[] {
  const moves: string[] = [];
  for (const event of events) {
    const payload = event.payload as { move?: unknown; ply?: unknown };
    if (event.kind === 'move' && typeof payload.move === 'string' && typeof payload.ply === 'number') {
      moves.length = Math.min(moves.length, payload.ply - 1);
      moves.push(payload.move);
    } else if (event.kind === 'takeback' && typeof payload.ply === 'number') {
      moves.length = Math.min(moves.length, payload.ply);
    }
  }
  return moves;
}
