// The two ways the game log says no: it refuses a file, or it refuses an input.

/**
 * Why a file or database was refused. It is left exactly as it was in every case. `unreachable`: a
 * PostgreSQL server that did not answer or let us in; `unknown-store`: an address of no store we know; `read-only`:
 * a log this process may read but not write; `not-a-file`: a folder (or the like) where the log's file belongs.
 */
export const REFUSAL_REASONS = ['not-a-database', 'foreign-database', 'newer-version', 'damaged', 'cannot-migrate', 'unreachable', 'unknown-store', 'read-only', 'not-a-file'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The game log will not open this file or database: opening it could damage someone else's data or a newer Spieltisch's. */
export class GameLogRefusedError extends Error {
  override readonly name = 'GameLogRefusedError';
  constructor(
    readonly reason: RefusalReason,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Stable codes (boardgame.io style) so a caller can tell bad input apart without parsing sentences. */
export const INPUT_ERROR_CODES = [
  'store/bad-game',
  'store/bad-kind',
  'store/bad-source',
  'store/bad-time',
  'store/bad-id',
  'store/bad-query',
  'store/not-json',
  'store/no-such-game',
  'store/game-ended',
  'store/bad-import',
] as const;
export type InputErrorCode = (typeof INPUT_ERROR_CODES)[number];

/** A call was refused before anything was written. */
export class GameLogInputError extends Error {
  override readonly name = 'GameLogInputError';
  constructor(
    readonly code: InputErrorCode,
    message: string,
  ) {
    super(message);
  }
}
