// The table side: one live game published to an MQTT broker under spieltisch/<site>/<board>/… —
// every session update as a numbered event (QoS 1), the whole state retained, the table's
// presence retained with a last will. The referee never waits for the broker: events queue in
// the table's outbox while it is away and go out in order when it is back.
import { randomBytes } from 'node:crypto';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { GameSession } from '../session/index.ts';
import type { BoardStatus, ServerMessage } from '../http/messages.ts';
import { assertNever } from '../rules/types.ts';
import { Outbox, type OutboxEntry } from './outbox.ts';
import { isTopicName, topicOf, type Run, type StatePayload, type StatusPayload } from './topics.ts';

/** What the publisher needs of a live game. */
export type PublishedGame = Pick<GameSession, 'game' | 'sync' | 'subscribe' | 'currentGameId'>;

export interface PublisherOptions {
  /** The broker: `mqtt://host:1883`, `mqtts://…`, `ws://…`; user and password may be in it. */
  readonly url: string;
  readonly site: string;
  readonly board: string;
  /** The most events held while the broker is away (default 10,000; about a day of one table's play). */
  readonly maxQueued?: number;
  /** Events out at the broker awaiting their acknowledgement at once (default 64). */
  readonly window?: number;
  /** Wall clock, ms since the epoch. */
  readonly now?: () => number;
  /** Told when the broker comes or goes (one line each time), for the operator. */
  readonly onNotice?: (line: string) => void;
  /** For tests: more or other options of the mqtt client. */
  readonly client?: Partial<IClientOptions>;
}

export interface PublisherStats {
  readonly connected: boolean;
  /** Events waiting for the broker. */
  readonly waiting: number;
  /** Events sent, acknowledgement outstanding. */
  readonly inFlight: number;
  /** Events the broker has acknowledged. */
  readonly published: number;
  /** Events dropped because the outbox was full (the retained state still carries their effect). */
  readonly dropped: number;
  /** The state still has to go out. */
  readonly stateDue: boolean;
}

export interface TablePublisher {
  readonly run: Run;
  stats(): PublisherStats;
  /** Says `offline`, waits up to `graceMs` for the outbox to empty, and disconnects. */
  close(graceMs?: number): Promise<void>;
}

export function startPublisher(table: PublishedGame, options: PublisherOptions): TablePublisher {
  for (const [name, value] of [['site', options.site], ['board', options.board]] as const) {
    if (!isTopicName(value)) throw new RangeError(`the ${name} name "${value}" cannot be a topic level: letters, digits, . _ - only, at most 64`);
  }
  const now = options.now ?? Date.now;
  const run: Run = { id: randomBytes(6).toString('base64url'), started: now() };
  const runJson = JSON.stringify(run);
  const topics = {
    status: topicOf(options.site, options.board, 'status'),
    state: topicOf(options.site, options.board, 'state'),
    events: topicOf(options.site, options.board, 'events'),
  };
  const offline: StatusPayload = { v: 1, status: 'offline', run };
  const outbox = new Outbox(options.maxQueued ?? 10_000);
  const window = options.window ?? 64;

  let published = 0;
  let stateDue = true;
  let stateInFlight = false;
  let closing = false;
  /** The sensors' status as last published: a changed frame rate alone does not republish the state. */
  let boardShown = '';
  let wasConnected = false;
  let complained = false;
  const drained: (() => void)[] = [];

  const client: MqttClient = connect(options.url, {
    clientId: `spieltisch-${options.site}-${options.board}-${run.id}`,
    clean: true,
    keepalive: 15,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // Everything goes at QoS 1 and only while connected: the outbox, not the client, queues.
    queueQoSZero: false,
    will: { topic: topics.status, payload: Buffer.from(JSON.stringify(offline)), qos: 1, retain: true },
    ...options.client,
  });

  const pump = (): void => {
    if (!client.connected) return;
    while (outbox.inFlight < window) {
      const entry = outbox.next();
      if (!entry) break;
      client.publish(topics.events, entry.text, { qos: 1 }, (err) => settle(entry, err));
    }
    // The state goes after the events before it, so a page that follows the events never sees the
    // state jump ahead of them.
    if (stateDue && !stateInFlight && outbox.waiting === 0) {
      stateDue = false;
      stateInFlight = true;
      const sync = table.sync() as StatePayload['sync'];
      boardShown = significant(sync.board);
      const state: StatePayload = { v: 1, run, gameId: table.currentGameId, seq: sync.stateId, at: now(), sync };
      client.publish(topics.state, JSON.stringify(state), { qos: 1, retain: true }, (err) => {
        stateInFlight = false;
        if (err) stateDue = true;
        pump();
      });
    }
    if (outbox.size === 0 && !stateDue && !stateInFlight) for (const done of drained.splice(0)) done();
  };

  const settle = (entry: OutboxEntry, err: Error | undefined): void => {
    if (err) outbox.failed(entry);
    else {
      outbox.acked(entry);
      published++;
    }
    pump();
  };

  // The table's message reaches the publisher inside the table's own emit: an exception here would be the
  // console's or the board's, so it is told and the message left to the next state instead.
  const unsubscribe = table.subscribe((message: ServerMessage, text: string) => {
    try {
      follow(message, text);
    } catch (e) {
      options.onNotice?.(`MQTT: a ${message.type} message could not be published: ${(e as Error)?.message ?? String(e)}`);
    }
  });
  function follow(message: ServerMessage, text: string): void {
    switch (message.type) {
      case 'update':
        // The session's own JSON of the update goes inside the envelope as it is: no second stringify.
        outbox.push(message.stateId, `{"v":1,"run":${runJson},"gameId":${table.currentGameId},"seq":${message.stateId},"at":${now()},"update":${text}}`);
        stateDue = true;
        break;
      case 'board':
        if (significant(message.board) === boardShown) return;
        stateDue = true;
        break;
      case 'sync':
        // The table was set up for another game: the status names it too.
        if (client.connected) publishOnline();
        stateDue = true;
        break;
      case 'alert':
      case 'alert-cleared':
      case 'question':
      case 'question-closed':
        stateDue = true;
        break;
      case 'command-result':
        return;
      default:
        assertNever(message);
    }
    pump();
  }

  function publishOnline(): void {
    const online: StatusPayload = { v: 1, status: 'online', run, game: table.game, at: now() };
    client.publish(topics.status, JSON.stringify(online), { qos: 1, retain: true });
  }

  client.on('connect', () => {
    noDelay(client);
    publishOnline();
    // The broker may have lost its retained messages: the state goes out again after the events.
    stateDue = true;
    if (!wasConnected || complained) options.onNotice?.(`MQTT: publishing to ${safeUrl(options.url)} as ${topics.status.slice(0, -'/status'.length)}`);
    wasConnected = true;
    complained = false;
    pump();
  });
  client.on('close', () => {
    if (closing || complained) return;
    complained = true;
    options.onNotice?.(`MQTT: the broker at ${safeUrl(options.url)} is out of reach; the table plays on and its events wait (${outbox.size} now)`);
  });
  // Connection errors are retried; they must not end the table.
  client.on('error', () => {});

  return {
    run,
    stats: () => ({
      connected: client.connected,
      waiting: outbox.waiting,
      inFlight: outbox.inFlight,
      published,
      dropped: outbox.dropped,
      stateDue: stateDue || stateInFlight,
    }),
    async close(graceMs = 3000) {
      unsubscribe();
      // The broker may be back within the grace period: wait for it as long, connected or not.
      await within(graceMs, (done) => {
        drained.push(done);
        pump();
      });
      closing = true;
      if (client.connected) {
        await within(graceMs, (done) => client.publish(topics.status, JSON.stringify(offline), { qos: 1, retain: true }, () => done()));
      }
      if (outbox.size > 0) options.onNotice?.(`MQTT: ${outbox.size} events did not reach the broker before the table stopped; the game log has them`);
      // Without a DISCONNECT the broker publishes the last will: offline either way.
      await client.endAsync(true);
    },
  };
}

/**
 * Sends each packet at once: with Nagle's algorithm on, a small publish may wait for the
 * acknowledgement of the one before it, tens of milliseconds on a quiet link.
 */
export function noDelay(client: MqttClient): void {
  const stream = client.stream as { setNoDelay?: (on: boolean) => unknown };
  stream.setNoDelay?.(true);
}

/** Resolves when `start` calls back or after `ms`, whichever is first. */
function within(ms: number, start: (done: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    start(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The part of the sensors' status a display shows; frame rates change every second and ride along. */
function significant(board: BoardStatus): string {
  return `${board.source}/${board.connected}/${board.link ?? ''}/${board.calibrated}`;
}

/** The broker's address without a password, for printing. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
