// The shapes a client may send, as zod schemas: every WebSocket message a page sends, checked before anything reads it.
import { z } from 'zod';
import type { ClientMessage, ConsoleCommand, RawRequest } from './messages.ts';

/** A referee token longer than this is refused unread. */
export const MAX_TOKEN_LENGTH = 256;
/** A move in any game's notation (`c1xc5`, `d1>a1,b1`, `R2.5.5`) is far shorter. */
export const MAX_MOVE_LENGTH = 64;

const move = z.string().min(1).max(MAX_MOVE_LENGTH);
/** A JSON number that is a whole number JavaScript holds exactly (`ref`, `stateId`, a question's id). */
const whole = z.int();

/** Unknown fields are dropped, not refused: an older server still reads a newer console's command. */
export const consoleCommandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('choose'), questionId: whole, move }),
  z.object({ kind: z.literal('ask') }),
  z.object({ kind: z.literal('undo') }),
  z.object({ kind: z.literal('enter'), move }),
  z.object({ kind: z.literal('agree') }),
  z.object({ kind: z.literal('confirm') }),
  z.object({ kind: z.literal('roll') }),
]);

const authSchema = z.object({ type: z.literal('auth'), token: z.string().max(MAX_TOKEN_LENGTH) });
const commandSchema = z.object({ type: z.literal('command'), ref: whole, stateId: whole, command: consoleCommandSchema });

/** The referee console's messages. */
export const clientMessageSchema = z.discriminatedUnion('type', [authSchema, commandSchema]);

/** Any page (the setup page's raw view) turns the board's raw frames on or off; exactly these two fields. */
export const rawRequestSchema = z.strictObject({ type: z.literal('raw'), on: z.boolean() });

/** Everything a page may send over the WebSocket. */
export const pageMessageSchema = z.discriminatedUnion('type', [authSchema, commandSchema, rawRequestSchema]);
export type PageMessage = ClientMessage | RawRequest;

// The schemas and the message types in messages.ts must describe the same messages: a kind added to one and not the
// other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const commandsAgree: Same<z.infer<typeof consoleCommandSchema>, ConsoleCommand> = true;
const messagesAgree: Same<z.infer<typeof clientMessageSchema>, ClientMessage> = true;
const rawAgrees: Same<z.infer<typeof rawRequestSchema>, RawRequest> = true;
void commandsAgree;
void messagesAgree;
void rawAgrees;

/** What became of a client's text: the message, or why it was refused (the English sentence for `command-result`). */
export type PageMessageReading =
  | { readonly ok: true; readonly message: PageMessage }
  | { readonly ok: false; readonly error: 'console/bad-message'; readonly message: string };

const REFUSED = 'That message is not one the server understands';

/** Reads one WebSocket text as a page's message, saying what is wrong with it when it is not one. */
export function readPageMessage(text: string): PageMessageReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'console/bad-message', message: `${REFUSED}: it is not JSON.` };
  }
  const parsed = pageMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  return { ok: false, error: 'console/bad-message', message: `${REFUSED}: ${describeIssue(parsed.error.issues[0])}.` };
}

/** A console message, checked against the schema; anything else (a raw request too) is null. */
export function parseClientMessage(text: string): ClientMessage | null {
  const reading = readPageMessage(text);
  return reading.ok && reading.message.type !== 'raw' ? reading.message : null;
}

/** One zod issue as a short English phrase naming the field: `command.move: Too big: …`. */
export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'it does not fit any message';
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the message';
  return `${where}: ${issue.message}`;
}
