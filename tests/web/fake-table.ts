// What the fake server's live tables share: one table per fake server, a sync for each new socket, and console
// commands checked for the token and the state the console saw, as the real server does.
import type { ClientMessage, ConsoleCommand, ServerMessage } from '../../server/http/messages.ts';

export type CommandResult = Extract<ServerMessage, { type: 'command-result' }>;
export type CommandMessage = Extract<ClientMessage, { type: 'command' }>;
export type Applied = { readonly error: { readonly code: string; readonly message: string; readonly params?: Readonly<Record<string, string | number>> } } | { readonly broadcast: ServerMessage[] };

export interface FakeTable {
  sync(): ServerMessage;
  handle(message: CommandMessage, authed: boolean): { readonly reply: CommandResult; readonly broadcast: readonly ServerMessage[] };
}

/**
 * The checks every command passes first (the real server's codes and sentences), then `apply`; a refusal
 * carries the rule's params so the console can word it in its own language.
 */
export function handleCommand(
  message: CommandMessage,
  authed: boolean,
  stateId: number,
  apply: (command: ConsoleCommand) => Applied,
): { readonly reply: CommandResult; readonly broadcast: readonly ServerMessage[] } {
  const refuse = (error: string, text: string, params?: Readonly<Record<string, string | number>>) => ({
    reply: { type: 'command-result', ref: message.ref, ok: false, error, message: text, ...(params ? { params } : {}) } as CommandResult,
    broadcast: [],
  });
  if (!authed) return refuse('console/unauthorized', 'Console commands need the referee token.');
  if (message.stateId !== stateId) {
    return refuse('console/stale-state', `The game has moved on (state ${stateId}, the console saw ${message.stateId}); look again and repeat.`);
  }
  const outcome = apply(message.command);
  if ('error' in outcome) return refuse(outcome.error.code, outcome.error.message, outcome.error.params);
  return { reply: { type: 'command-result', ref: message.ref, ok: true }, broadcast: outcome.broadcast };
}

/** A small deterministic PRNG (an LCG, as the other fakes use): the same seed draws the same game. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
