// A game log in memory for the resume tests: it holds the moves logged before the restart, and keeps what the
// resumed session logs after them.
import type { SessionLog } from '../../server/session/index.ts';

export type MemoryLog = SessionLog & { events: { kind: string; payload: unknown }[]; ended: { result: unknown }[] };

/** A game log in memory, holding the moves logged before the restart. */
export function memoryLog(moves: readonly string[]): MemoryLog {
  const events: { kind: string; payload: unknown }[] = moves.map((move, i) => ({ kind: 'move', payload: { move, ply: i + 1 } }));
  const ended: { result: unknown }[] = [];
  return {
    events,
    ended,
    startGame: () => {
      throw new Error('a resumed game has its row already');
    },
    append: (_id, event) => {
      events.push({ kind: event.kind, payload: event.payload });
      return events.length;
    },
    endGame: (_id, end) => {
      ended.push(end);
      return events.length + 1;
    },
  };
}
