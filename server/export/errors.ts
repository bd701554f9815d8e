// Why an import was refused: a stable code, a sentence, and where in the file.

export const IMPORT_ERROR_CODES = [
  /** The file as a whole cannot be read in its format (bad JSON, an unclosed comment, a broken CSV row). */
  'import/unreadable',
  'import/unknown-format',
  /** The file holds no game. */
  'import/empty',
  /** A game does not say which game it is (no `[Game]` header, no `game` field) and none was given. */
  'import/no-game',
  'import/bad-game',
  'import/bad-options',
  'import/bad-field',
  'import/bad-time',
  /** The engine refuses a move; `ply` and `move` name the first such. */
  'import/bad-move',
  /** The moves end the game, and the declared result says otherwise. */
  'import/wrong-result',
  'import/bad-event',
  /** Two parts of one game disagree (its moves and its events). */
  'import/inconsistent',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export interface ImportErrorDetails {
  /** Which game of the file, from 1. */
  readonly game?: number;
  /** The first bad move's ply, from 1, and its token. */
  readonly ply?: number;
  readonly move?: string;
  /** The engine's own code for a refused move or options (`kalaha/empty-pit`). */
  readonly rule?: string;
  /** Line of the file, from 1, where known. */
  readonly line?: number;
}

export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    readonly code: ImportErrorCode,
    message: string,
    readonly details: ImportErrorDetails = {},
  ) {
    super(message);
  }

  /** The API's error body: `{ error, message, …details }`. */
  toJSON(): { error: ImportErrorCode; message: string } & ImportErrorDetails {
    return { error: this.code, message: this.message, ...this.details };
  }
}
