// Common types of every rules engine: result values and stable error codes.

/** A rule error: a stable code (`kalaha/forbidden-capture`), an English sentence, and the values the sentence names. */
export interface RuleError {
  readonly code: string;
  readonly message: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

export type Result<T, E = RuleError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });

export const fail = (
  code: string,
  message: string,
  params?: Readonly<Record<string, string | number>>,
): Result<never> => ({ ok: false, error: params ? { code, message, params } : { code, message } });

export function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}

export const GAME_NAMES = ['kalaha', 'malawi', 'makis', 'adu'] as const;
export type GameName = (typeof GAME_NAMES)[number];

/** The common envelope of `spieltisch replay` (RULES.md, "Common to all games"), less `ok` and `plies`. */
export interface ReplaySummary {
  readonly over: boolean;
  readonly winner: string | null;
  readonly toMove: string | null;
  readonly position: unknown;
}

/**
 * A game as a small object of pure functions (boardgame.io's `Game`): what replay, import,
 * the session and the referee need without knowing which game it is.
 */
export interface GameDefinition<State, Move, Options> {
  readonly name: GameName;
  readonly defaultOptions: Options;
  /** Options from JSON (partial, merged over the defaults); record headers may add to them (`[Players "3"]`). */
  parseOptions(input: unknown, headers?: ReadonlyMap<string, string>): Result<Options>;
  initial(options: Options): State;
  /** One token of a record → a move in this state (the rules never see strings). */
  parseMove(token: string, state: State): Result<Move>;
  formatMove(move: Move, state: State): string;
  play(state: State, move: Move): Result<State>;
  legalMoves(state: State): Move[];
  summary(state: State): ReplaySummary;
}
