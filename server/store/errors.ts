// The two ways the game log says no: it refuses a file, or it refuses an input.

/**
 * Why a file or database was refused. It is left exactly as it was in every case. `unreachable`: a
 * PostgreSQL server that did not answer or let us in; `unknown-store`: an address of no store we know; `read-only`:
 * a log this process may read but not write; `not-a-file`: a folder (or the like) where the log's file belongs;
 * `unwritable`: the log cannot be written where it is (a full disk), so the service would lose moves.
 */
export const REFUSAL_REASONS = ['not-a-database', 'foreign-database', 'newer-version', 'damaged', 'cannot-migrate', 'unreachable', 'unknown-store', 'read-only', 'not-a-file', 'unwritable'] as const;
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

/**
 * Why a write did not reach the log: `disk-full`; `read-only` (the file, its folder or the database
 * takes no writes); `gone` (the file or the database server went away, or did not answer); `failed`
 * (the database refused it for another reason).
 */
export const UNWRITABLE_REASONS = ['disk-full', 'read-only', 'gone', 'failed'] as const;
export type UnwritableReason = (typeof UNWRITABLE_REASONS)[number];

/**
 * A write raised instead of landing: the log cannot be written now. The caller may try the same write
 * again later; the log makes sure a write that did land after all (a commit whose answer was lost) is
 * not written twice.
 */
export class GameLogWriteError extends Error {
  override readonly name = 'GameLogWriteError';
  readonly code = 'store/unwritable';
  constructor(
    readonly reason: UnwritableReason,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}
