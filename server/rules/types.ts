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
