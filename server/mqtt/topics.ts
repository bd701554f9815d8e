// The topic layout every table publishes under, and what each topic carries (TOPICS.md says the same in prose).
import type { ServerMessage } from '../http/messages.ts';
import { GAME_NAMES, type GameName } from '../rules/types.ts';

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
 * One start of a table's service. Its stateIds count from 0 at every start, so a sequence number
 * means something only together with its run; a later `started` is the newer run.
 */
export interface Run {
  readonly id: string;
  /** Wall clock of the start, ms since the epoch. */
  readonly started: number;
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

/** Which of two runs is the newer: >0 when `a` is. */
export function compareRuns(a: Run, b: Run): number {
  return a.started - b.started || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A payload read from the broker, checked as far as the broadcast service relies on it; null for
 * anything else (a stranger on an open broker must not crash the display).
 */
export function readPayload(channel: Channel, bytes: Uint8Array | string): TablePayload | null {
  if (bytes.length > MAX_PAYLOAD_BYTES) return null;
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(value) || value.v !== 1 || !isRun(value.run)) return null;
  switch (channel) {
    case 'status':
      if (value.status !== 'online' && value.status !== 'offline') return null;
      if (value.game !== undefined && !(GAME_NAMES as readonly unknown[]).includes(value.game)) return null;
      return { channel, payload: value as unknown as StatusPayload };
    case 'state': {
      const sync = value.sync;
      if (!isSequenced(value) || !isObject(sync) || sync.type !== 'sync' || sync.stateId !== value.seq || !isGameState(sync)) return null;
      if (!Array.isArray(sync.alerts) || !isObject(sync.board)) return null;
      return { channel, payload: value as unknown as StatePayload };
    }
    case 'events': {
      const update = value.update;
      if (!isSequenced(value) || !isObject(update) || update.type !== 'update' || update.stateId !== value.seq || !isGameState(update)) return null;
      if (typeof update.event !== 'string') return null;
      return { channel, payload: value as unknown as EventPayload };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRun(value: unknown): value is Run {
  return isObject(value) && typeof value.id === 'string' && value.id.length <= 64 && Number.isSafeInteger(value.started);
}

function isSequenced(value: Record<string, unknown>): boolean {
  return Number.isSafeInteger(value.seq) && (value.seq as number) >= 0 && Number.isFinite(value.at) && (value.gameId === null || Number.isSafeInteger(value.gameId));
}

function isGameState(message: Record<string, unknown>): boolean {
  const { record, view } = message;
  return (
    Array.isArray(record) &&
    record.every((move) => typeof move === 'string') &&
    isObject(view) &&
    (GAME_NAMES as readonly unknown[]).includes(view.game)
  );
}
