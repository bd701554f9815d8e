// Several simulated tables and one broadcast service on a real Mosquitto broker, which is stopped
// and started again mid-game: every board ends as its table has it, nothing lost or doubled.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startBroadcast, type RunningBroadcast } from '../../server/mqtt/index.ts';
import type { GameName } from '../../server/rules/types.ts';
import { TestBroker, mosquittoPath } from './broker.ts';
import { startTable, until, type TestTable } from './harness.ts';

const SITE = 'turnier';
const SPEED = 40;

let broker: TestBroker | null = null;
let broadcast: RunningBroadcast | null = null;
let tables: TestTable[] = [];

beforeAll(() => {
  // No broker, no test: this fails, it does not skip.
  mosquittoPath();
});

afterEach(async () => {
  await Promise.all(tables.map((table) => table.close()));
  await broadcast?.close();
  await broker?.close();
  tables = [];
  broadcast = null;
  broker = null;
});

/** What the broadcast service applied as events, per board: (game, seq) in the order applied. */
function recordApplied(service: RunningBroadcast): Map<string, string[]> {
  const applied = new Map<string, string[]>();
  service.subscribe((outcome) => {
    if (outcome.kind !== 'applied') return;
    const list = applied.get(outcome.key) ?? [];
    list.push(`${outcome.event.gameId}:${outcome.event.seq}`);
    applied.set(outcome.key, list);
  });
  return applied;
}

async function startTables(url: string, games: readonly GameName[]): Promise<TestTable[]> {
  return Promise.all(games.map((game, i) => startTable(game, { url, site: SITE, name: `brett-${i + 1}`, seed: 100 + i, simSpeed: SPEED })));
}

/** Each table has said `more` things beyond `from` (its own count of events). */
function advanced(list: readonly TestTable[], from: readonly number[], more: number): boolean {
  return list.every((table, i) => table.events.length >= from[i] + more);
}

/** The tables stop playing; then every board at the broadcast service must come to equal its table. */
async function settleAndCompare(service: RunningBroadcast, list: readonly TestTable[]): Promise<void> {
  await Promise.all(list.map((table) => table.stopPlaying()));
  await until('every board at the broadcast service equals its table', () =>
    list.every((table) => {
      const stats = table.publisher.stats();
      const board = service.book.get(`${SITE}/${table.name}`);
      return stats.waiting === 0 && stats.inFlight === 0 && !stats.stateDue && board?.seq === table.session.currentStateId;
    }),
  );
  for (const table of list) {
    const board = service.book.get(`${SITE}/${table.name}`)!;
    expect(board.record, table.name).toEqual(table.session.record());
    expect(board.record, table.name).toEqual(table.loggedRecord());
    expect(board.gameId, table.name).toBe(table.session.currentGameId);
    expect(board.view, table.name).toEqual(table.session.view());
    expect(board.presence, table.name).toBe('online');
    expect(table.publisher.stats().dropped, table.name).toBe(0);
  }
}

describe('tables and a broadcast service on a real Mosquitto', () => {
  test('the broker is restarted mid-game (saving its state): every event reaches the display once, in order', async () => {
    broker = await TestBroker.start({ persistence: true });
    broadcast = await startBroadcast({ url: broker.url, port: 0, listen: '127.0.0.1', clientId: `broadcast-${randomBytes(4).toString('hex')}` });
    const applied = recordApplied(broadcast);
    await until('the broadcast service is subscribed', () => broadcast!.broker().connected);
    tables = await startTables(broker.url, ['kalaha', 'kalaha', 'kalaha', 'malawi']);

    await until('every table has played a little', () => advanced(tables, [0, 0, 0, 0], 4));
    await broker.stop('SIGTERM');
    const atStop = tables.map((table) => table.events.length);
    const statesAtStop = tables.map((table) => table.session.currentStateId);

    // The broker is away: the tables referee on, and their events wait in the outbox.
    await until('every table has played on without the broker', () => advanced(tables, atStop, 4));
    for (const [i, table] of tables.entries()) {
      expect(table.session.currentStateId).toBeGreaterThan(statesAtStop[i]);
      expect(table.publisher.stats().connected).toBe(false);
      expect(table.publisher.stats().waiting).toBeGreaterThan(0);
      expect(table.loggedRecord()).toEqual(table.session.record());
    }
    expect(broadcast.broker().connected).toBe(false);

    await broker.resume();
    const atResume = tables.map((table) => table.events.length);
    await until('every table has played on after the broker came back', () => advanced(tables, atResume, 3));
    await settleAndCompare(broadcast, tables);

    // With the broker's state kept, not even the event stream has a hole: the display applied
    // exactly the events each table made, each once, in order.
    for (const table of tables) {
      const key = `${SITE}/${table.name}`;
      expect(applied.get(key), table.name).toEqual(table.events.map((e) => `${e.gameId}:${e.seq}`));
      expect(broadcast.book.get(key)!.counts.gaps, table.name).toBe(0);
    }
  }, 120_000);

  test('the broker is killed mid-game and forgets everything: the boards re-sync and still end equal', async () => {
    broker = await TestBroker.start({ persistence: false });
    broadcast = await startBroadcast({ url: broker.url, port: 0, listen: '127.0.0.1', clientId: `broadcast-${randomBytes(4).toString('hex')}` });
    const applied = recordApplied(broadcast);
    await until('the broadcast service is subscribed', () => broadcast!.broker().connected);
    tables = await startTables(broker.url, ['kalaha', 'malawi', 'kalaha']);

    await until('every table has played a little', () => advanced(tables, [0, 0, 0], 4));
    await broker.stop('SIGKILL');
    const atStop = tables.map((table) => table.events.length);
    await until('every table has played on without the broker', () => advanced(tables, atStop, 3));
    await broker.resume();
    const atResume = tables.map((table) => table.events.length);
    await until('every table has played on after the broker came back', () => advanced(tables, atResume, 3));
    await settleAndCompare(broadcast, tables);

    // Events lost with the broker were made up for by the state; none was applied twice or out of order.
    for (const table of tables) {
      const seqs = (applied.get(`${SITE}/${table.name}`) ?? []).map((e) => Number(e.split(':')[1]));
      // Events were applied (before the kill at least), so the order below says something.
      expect(seqs.length, table.name).toBeGreaterThan(0);
      expect(seqs, table.name).toEqual([...new Set(seqs)].sort((a, b) => a - b));
      const made = new Set(table.events.map((e) => `${e.gameId}:${e.seq}`));
      for (const e of applied.get(`${SITE}/${table.name}`) ?? []) expect(made.has(e), `${table.name} ${e}`).toBe(true);
    }
  }, 120_000);

  test('a table started while the broker is away referees all the same, and its whole game arrives later', async () => {
    broker = await TestBroker.start({ persistence: true });
    broadcast = await startBroadcast({ url: broker.url, port: 0, listen: '127.0.0.1', clientId: `broadcast-${randomBytes(4).toString('hex')}` });
    const applied = recordApplied(broadcast);
    await until('the broadcast service is subscribed', () => broadcast!.broker().connected);
    await broker.stop('SIGTERM');

    tables = await startTables(broker.url, ['kalaha']);
    const [table] = tables;
    await until('the table has played without ever reaching the broker', () => table.events.some((e) => e.event === 'move') && table.events.length >= 6);
    expect(table.publisher.stats()).toMatchObject({ connected: false, published: 0 });
    expect(table.loggedRecord()).toEqual(table.session.record());
    expect(table.session.record().length).toBeGreaterThan(0);

    await broker.resume();
    await settleAndCompare(broadcast, tables);
    expect(applied.get(`${SITE}/${table.name}`)).toEqual(table.events.map((e) => `${e.gameId}:${e.seq}`));
  }, 120_000);
});
