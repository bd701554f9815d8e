// The topic layout every table publishes under, and what each topic carries (TOPICS.md says the same in prose).
import type { ServerMessage } from '../http/messages.ts';
import type { z } from 'zod';
import type { GameName } from '../rules/types.ts';
import { describeIssue } from '../http/schemas.ts';
import { eventPayloadSchema, statePayloadSchema, statusPayloadSchema } from './schemas.ts';

export const TOPIC_ROOT = 'spieltisch';
export const CHANNELS = ['status', 'state', 'events'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What the broadcast service subscribes to: every channel of every board at every site. */
export const EVERY_TABLE = `${TOPIC_ROOT}/+/+/#`;

/** Payloads larger than this are not ours (a Kalaha state is about 1 kB). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/** A site or board name is one topic level: no wildcards or separators, nothing a shell or URL would mangle. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isTopicName(name: string): boolean {
  return NAME.test(name);
}

export function topicOf(site: string, board: string, channel: Channel): string {
  return `${TOPIC_ROOT}/${site}/${board}/${channel}`;
}

export interface TableTopic {
  readonly site: string;
  readonly board: string;
  readonly channel: Channel;
}

/** A topic of the layout, or null for anything else under the root (future channels pass by). */
export function parseTopic(topic: string): TableTopic | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== TOPIC_ROOT) return null;
  const [, site, board, channel] = parts;
  if (!isTopicName(site) || !isTopicName(board) || !(CHANNELS as readonly string[]).includes(channel)) return null;
  return { site, board, channel: channel as Channel };
}

/**
 * One start of a table's service. Its stateIds count from 0 at every start, so a sequence number means something
 * only together with its run. Runs are ordered by the table's own game log, never by its clock: `log` is where the
 * log stood when the run started (its newest game on this board and that game's last event seq; 0, 0 when empty).
 * The log only grows, so a later run of one table is never behind an earlier one; two runs at the same place (a
 * restart with nothing logged between) are told apart by which is heard last (TOPICS.md, "Runs").
 */
export interface Run {
  readonly id: string;
  readonly log: { readonly gameId: number; readonly seq: number };
}

export type SyncMessage = Extract<ServerMessage, { type: 'sync' }>;
export type UpdateMessage = Extract<ServerMessage, { type: 'update' }>;

/** `…/status`, retained; the broker publishes the `offline` one as the table's last will. */
export interface StatusPayload {
  readonly v: 1;
  readonly status: 'online' | 'offline';
  readonly run: Run;
  /** Which game the table is set up for (absent in the last will). */
  readonly game?: GameName;
  /** When the table said so (absent in the last will: the broker says it, not the table). */
  readonly at?: number;
}

/** `…/state`, retained, QoS 1: the table's whole state as a page's `sync` gets it. */
export interface StatePayload {
  readonly v: 1;
  readonly run: Run;
  /** The game in the table's own log (null before the first game starts). */
  readonly gameId: number | null;
  /** The session's stateId: the last event this state includes. */
  readonly seq: number;
  readonly at: number;
  readonly sync: SyncMessage;
}

/** `…/events`, QoS 1, not retained: one session update (move, take-back, end, …), the seq-th of the run. */
export interface EventPayload {
  readonly v: 1;
  readonly run: Run;
  readonly gameId: number | null;
  /** The session's stateId after this event: 1, 2, 3, … without holes within a run. */
  readonly seq: number;
  /** When the table decided it (its wall clock, ms). */
  readonly at: number;
  readonly update: UpdateMessage;
}

export type TablePayload =
  | { readonly channel: 'status'; readonly payload: StatusPayload }
  | { readonly channel: 'state'; readonly payload: StatePayload }
  | { readonly channel: 'events'; readonly payload: EventPayload };

/** Where two runs started in their table's log: >0 when `a` started further on. */
export function compareRuns(a: Run, b: Run): number {
  return a.log.gameId - b.log.gameId || a.log.seq - b.log.seq;
}

/** What became of a payload: read and checked, or why not (for the service's log). */
export type PayloadReading = { readonly ok: true; readonly read: TablePayload } | { readonly ok: false; readonly reason: string };

/**
 * A payload's text read and checked against the schemas of the pages' own messages (schemas.ts), per game; the
 * reason when it is not one (a stranger on an open broker must not crash the display, nor reach the pages).
 */
export function readPayload(channel: Channel, text: string): PayloadReading {
  if (text.length > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'larger than a table sends' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  switch (channel) {
    case 'status':
      return reading(channel, statusPayloadSchema.safeParse(value));
    case 'state':
      return reading(channel, statePayloadSchema.safeParse(value));
    case 'events':
      return reading(channel, eventPayloadSchema.safeParse(value));
  }
}

function reading<C extends Channel>(channel: C, parsed: z.ZodSafeParseResult<Extract<TablePayload, { channel: C }>['payload']>): PayloadReading {
  if (parsed.success) return { ok: true, read: { channel, payload: parsed.data } as TablePayload };
  return { ok: false, reason: describeIssue(parsed.error.issues[0]) };
}
