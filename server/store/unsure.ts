// A write that raised may still have landed (a commit whose answer was lost on the way): both stores remember
// the last such write and, when the same write comes again, look in the log before writing it twice.
import { GameLogWriteError } from './errors.ts';
import type { UnwritableReason } from './errors.ts';

/** One write as the store sends it: a new game's row, or one event (`end` too) with its payload as JSON text. */
export type Attempt =
  | { readonly what: 'game'; readonly game: string; readonly options: string; readonly players: string; readonly boardId: string; readonly source: string; readonly at: number }
  | { readonly what: 'event'; readonly gameId: number; readonly kind: string; readonly at: number; readonly payload: string };

/** What the log holds last, read back to settle a doubt. */
export interface LastWritten {
  /** The newest live game on the attempt's board with no event yet, for a game row. */
  readonly game?: { readonly id: number; readonly game: string; readonly options: string; readonly players: string; readonly source: string; readonly started_at: number };
  /** The game's last event, for an event. */
  readonly event?: { readonly seq: number; readonly kind: string; readonly at: number; readonly payload: string };
}

export class UnsureWrites {
  private doubt: Attempt | null = null;

  /**
   * Runs `write`, unless `attempt` is the write that raised last and `read` shows it landed after all: then
   * the id or seq it was given. Whatever the database throws comes out as a GameLogWriteError.
   */
  write(attempt: Attempt, read: (attempt: Attempt) => LastWritten, write: () => number, unwritable: (error: unknown) => unknown): number {
    try {
      if (this.doubt !== null && same(this.doubt, attempt)) {
        const landed = landedAs(attempt, read(attempt));
        this.doubt = null;
        if (landed !== undefined) return landed;
      } else {
        this.doubt = null;
      }
      return write();
    } catch (error) {
      const failure = unwritable(error);
      if (failure instanceof GameLogWriteError) this.doubt = attempt;
      throw failure;
    }
  }
}

function same(a: Attempt, b: Attempt): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function landedAs(attempt: Attempt, last: LastWritten): number | undefined {
  if (attempt.what === 'game') {
    const g = last.game;
    const landed = g && g.game === attempt.game && g.options === attempt.options && g.players === attempt.players && g.source === attempt.source && g.started_at === attempt.at;
    return landed ? g.id : undefined;
  }
  const e = last.event;
  return e && e.kind === attempt.kind && e.at === attempt.at && e.payload === attempt.payload ? e.seq : undefined;
}

/** The English words for a reason, inside the stores' sentences. */
export const UNWRITABLE_WORDS: Readonly<Record<UnwritableReason, string>> = {
  'disk-full': 'the disk is full',
  'read-only': 'it is read-only',
  gone: 'the database is gone',
  failed: 'the database refused the write',
};
