// A game log in memory for the resume tests: it holds the moves logged before the restart, and keeps what the
// resumed session logs after them; like the real store, it refuses writes to the game once it has ended.
import { memoryLog as memory, type MemoryLog } from './memory-log.ts';

export type { MemoryLog };

/** A game log in memory, holding the moves logged before the restart as game 1. */
export function memoryLog(moves: readonly string[]): MemoryLog {
  return memory({ moves, newGames: false });
}
