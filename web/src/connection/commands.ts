// The referee console's own commands: numbering them, what is still unanswered, and what the server said. Pure.
import type { ClientMessage, ConsoleCommand, ServerMessage } from '../../../server/http/messages.ts';

export type CommandResult = Extract<ServerMessage, { type: 'command-result' }>;
export type CommandMessage = Extract<ClientMessage, { type: 'command' }>;

export interface SentCommand {
  readonly ref: number;
  /** The state the console showed when the command was given. */
  readonly stateId: number;
  readonly command: ConsoleCommand;
}

export interface CommandOutcome extends SentCommand {
  readonly ok: boolean;
  readonly error?: string;
  /** The server's English sentence for a refusal. */
  readonly message?: string;
  /**
   * The values the error names, when the server sends them (the contract has no such field yet;
   * without it a refused move can only be shown in the server's English).
   */
  readonly params?: Readonly<Record<string, string | number>>;
}

/** What the server said about the token: nothing yet, accepted, or refused (commands then wait for a new one). */
export type AuthState = 'unknown' | 'accepted' | 'refused';

/** The server answers `auth` with a command-result of ref 0; this console numbers its commands from 1. */
export const AUTH_REF = 0;

export interface CommandLog {
  /** The next command's ref; it keeps counting across reconnects, so a late answer never matches a new command. */
  readonly nextRef: number;
  readonly pending: readonly SentCommand[];
  /** Answers, newest last; only the last few are kept. */
  readonly outcomes: readonly CommandOutcome[];
  readonly auth: AuthState;
  /** Why the token was last refused, when it was not simply wrong (too many attempts, with the seconds to wait). */
  readonly authRefusal?: { readonly code: string; readonly params?: Readonly<Record<string, string | number>> };
}

export const EMPTY_LOG: CommandLog = { nextRef: AUTH_REF + 1, pending: [], outcomes: [], auth: 'unknown' };

const KEEP_OUTCOMES = 5;

/** Error codes that mean the token is wrong (the answer to `auth`) or was never accepted (a command's). */
export const TOKEN_ERRORS: ReadonlySet<string> = new Set(['console/bad-token', 'console/unauthorized', 'console/too-many-attempts']);
/** The token was not even compared: this device sent too many wrong ones and must wait (`params.seconds`). */
export const TOO_MANY_ATTEMPTS = 'console/too-many-attempts';
/** The command was based on a state the server has since left. */
export const STALE_ERRORS: ReadonlySet<string> = new Set(['console/stale-state']);
/** Not from the server: the link dropped before the answer came. */
export const NO_ANSWER = 'console/no-answer';

/** Numbers a command and returns the message to send. */
export function issueCommand(
  log: CommandLog,
  command: ConsoleCommand,
  stateId: number,
): { readonly log: CommandLog; readonly message: CommandMessage } {
  const sent: SentCommand = { ref: log.nextRef, stateId, command };
  return {
    log: { ...log, nextRef: log.nextRef + 1, pending: [...log.pending, sent] },
    message: { type: 'command', ref: sent.ref, stateId, command },
  };
}

function authAfter(log: CommandLog, result: CommandResult): AuthState {
  if (result.ok) return 'accepted';
  return result.error !== undefined && TOKEN_ERRORS.has(result.error) ? 'refused' : log.auth;
}

/**
 * Folds the server's answer in. Ref 0 answers the token (or a message the server could not read,
 * which changes nothing here); an answer to no command of ours changes nothing either.
 */
export function applyCommandResult(log: CommandLog, result: CommandResult): CommandLog {
  if (result.ref === AUTH_REF) {
    const auth = authAfter(log, result);
    if (result.error === TOO_MANY_ATTEMPTS) {
      const params = (result as CommandResult & { readonly params?: unknown }).params;
      return { ...log, auth, authRefusal: { code: result.error, ...(isParams(params) ? { params } : {}) } };
    }
    if (auth === log.auth && log.authRefusal === undefined) return log;
    const { authRefusal: _gone, ...rest } = log;
    return { ...rest, auth };
  }
  const sent = log.pending.find((p) => p.ref === result.ref);
  if (!sent) return log;
  const extra = result as CommandResult & { readonly params?: unknown };
  const params = isParams(extra.params) ? extra.params : undefined;
  const outcome: CommandOutcome = {
    ...sent,
    ok: result.ok,
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.message !== undefined ? { message: result.message } : {}),
    ...(params ? { params } : {}),
  };
  return {
    ...log,
    pending: log.pending.filter((p) => p.ref !== result.ref),
    outcomes: [...log.outcomes, outcome].slice(-KEEP_OUTCOMES),
    auth: authAfter(log, result),
  };
}

/**
 * The socket closed: the server answers on the socket a command came in on, so commands still
 * waiting will never hear back. Each is reported as unanswered; the record shows whether it arrived.
 */
export function connectionLost(log: CommandLog): CommandLog {
  if (!log.pending.length) return log;
  const lost = log.pending.map((sent): CommandOutcome => ({ ...sent, ok: false, error: NO_ANSWER }));
  return { ...log, pending: [], outcomes: [...log.outcomes, ...lost].slice(-KEEP_OUTCOMES) };
}

/** A new token was given: what the server said about the old one no longer applies. */
export function tokenChanged(log: CommandLog): CommandLog {
  return log.auth === 'unknown' ? log : { ...log, auth: 'unknown' };
}

export function latestOutcome(log: CommandLog): CommandOutcome | null {
  return log.outcomes[log.outcomes.length - 1] ?? null;
}

function isParams(value: unknown): value is Readonly<Record<string, string | number>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}
