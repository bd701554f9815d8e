// A game log in memory for the session tests that refuses what the real store refuses (a write to a game that
// has ended or does not exist) and can be made to fail every write, as a full disk does.
import { GameLogInputError, GameLogWriteError, type GameEnd, type NewEvent, type NewGame, type UnwritableReason } from '../../server/store/index.ts';
import type { SessionLog } from '../../server/session/index.ts';

export interface MemoryLog extends SessionLog {
  /** Every event written, of every game, in order: `{ kind, payload }`, the `end` events too only in `ended`. */
  readonly events: { kind: string; payload: unknown }[];
  /** Every game's end as written. */
  readonly ended: GameEnd[];
  /** The games started, in order. */
  readonly games: NewGame[];
  /** From now on every write raises GameLogWriteError for `reason` and writes nothing; null: writes land again. */
  failWrites(reason: UnwritableReason | null): void;
  /** Writes that raised so far. */
  readonly refused: number;
}

export interface MemoryLogOptions {
  /** Game 1 is open with these moves already logged (a game to resume). */
  readonly moves?: readonly string[];
  /** False: a session that starts a game fails the test (a resumed game has its row already). */
  readonly newGames?: boolean;
}

export function memoryLog(options: MemoryLogOptions = {}): MemoryLog {
  const events: { kind: string; payload: unknown }[] = [];
  const ended: GameEnd[] = [];
  const games: NewGame[] = [];
  /** Per game id: how many events it has, and whether it has ended. */
  const rows = new Map<number, { seq: number; ended: boolean }>();
  let failing: UnwritableReason | null = null;
  let refused = 0;
  if (options.moves) {
    options.moves.forEach((move, i) => events.push({ kind: 'move', payload: { move, ply: i + 1 } }));
    rows.set(1, { seq: options.moves.length, ended: false });
  }
  const writable = () => {
    if (failing === null) return;
    refused++;
    throw new GameLogWriteError(failing, 'memory', `the game log memory cannot be written: ${failing}`);
  };
  const open = (gameId: number) => {
    const row = rows.get(gameId);
    if (!row) throw new GameLogInputError('store/no-such-game', `there is no game ${gameId} in the log`);
    if (row.ended) throw new GameLogInputError('store/game-ended', `game ${gameId} has ended; nothing more is written to it`);
    return row;
  };
  return {
    events,
    ended,
    games,
    get refused() {
      return refused;
    },
    failWrites(reason) {
      failing = reason;
    },
    startGame(game: NewGame) {
      if (options.newGames === false) throw new Error('a resumed game has its row already');
      writable();
      games.push(game);
      const id = rows.size + 1;
      rows.set(id, { seq: 0, ended: false });
      return id;
    },
    append(gameId: number, event: NewEvent) {
      const row = open(gameId);
      writable();
      events.push({ kind: event.kind, payload: event.payload });
      return ++row.seq;
    },
    endGame(gameId: number, end: GameEnd) {
      const row = open(gameId);
      writable();
      ended.push(end);
      row.ended = true;
      return ++row.seq;
    },
  };
}
