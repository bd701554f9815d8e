// Why an import was refused: a stable code, a sentence, and where in the file.

export const IMPORT_ERROR_CODES = [
  /** The file as a whole cannot be read in its format (bad JSON, an unclosed comment, a broken CSV row). */
  'import/unreadable',
  /** JSON nested deeper than MAX_JSON_DEPTH: no game's record is, and reading it would exhaust the stack. */
  'import/too-deep',
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

/** No game's JSON nests deeper than this (an event's payload is four levels); deeper is refused before it is read. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` (parsed JSON) nests arrays and objects deeper than `max`; walked without recursion, whatever its depth. */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON text read as import input: unreadable or too deep is an ImportError of `code`, saying `what` it was. */
export function parseImportJson(text: string, what: string, code: ImportErrorCode = 'import/unreadable'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ImportError(code, `${what} is not JSON: ${(e as Error).message}`);
  }
  if (nestedDeeperThan(value)) throw new ImportError('import/too-deep', `${what} nests its JSON deeper than ${MAX_JSON_DEPTH} levels; no game's record does.`);
  return value;
}
