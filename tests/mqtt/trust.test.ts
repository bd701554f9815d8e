// Whoever can publish to the broker is a stranger until proven otherwise: forged runs, malformed retained states of
// every game, a flood of invented boards, boards gone quiet, unsigned and badly signed messages on a site with a key,
// and the headers the display is served with. Real tables and a real Mosquitto; the clock is turned by hand.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import { WebSocket } from 'ws';
import type { Request, Response } from 'express';
import { sign, startBroadcast, topicOf, type BoardRecord, type BroadcastMessage, type BroadcastOptions, type Outcome, type RunningBroadcast } from '../../server/mqtt/index.ts';
import { securityHeaders } from '../../server/http/security.ts';
import type { GameName } from '../../server/rules/types.ts';
import { TestBroker, mosquittoPath } from './broker.ts';
import { startTable, until, type TableOptions, type TestTable } from './harness.ts';

const SITE = 'turnier';
const SPEED = 40;
const KEY = 'the turnier key: long and secret';
const TEN_YEARS = 10 * 365 * 24 * 3600_000;

let broker: TestBroker | null = null;
let broadcast: RunningBroadcast | null = null;
let tables: TestTable[] = [];
let forger: MqttClient | null = null;
const sockets: WebSocket[] = [];

beforeAll(() => {
  mosquittoPath();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(tables.map((table) => table.close()));
  await forger?.endAsync(true);
  await broadcast?.close();
  await broker?.close();
  tables = [];
  forger = null;
  broadcast = null;
  broker = null;
});

interface Service {
  readonly service: RunningBroadcast;
  readonly notices: string[];
  readonly outcomes: Outcome[];
}

async function startService(options: Partial<BroadcastOptions> = {}): Promise<Service> {
  const notices: string[] = [];
  const service = await startBroadcast({
    url: broker!.url,
    port: 0,
    listen: '127.0.0.1',
    clientId: `broadcast-${randomBytes(4).toString('hex')}`,
    onNotice: (line) => notices.push(line),
    ...options,
  });
  const outcomes: Outcome[] = [];
  service.subscribe((outcome) => outcomes.push(outcome));
  await until('the broadcast service is subscribed', () => service.broker().connected);
  return { service, notices, outcomes };
}

function table(game: GameName, name: string, more: Partial<TableOptions> = {}): Promise<TestTable> {
  return startTable(game, { url: broker!.url, site: SITE, name, seed: 300 + name.length, simSpeed: SPEED, ...more });
}

async function publishAs(stranger: MqttClient, topic: string, payload: unknown, retain = true): Promise<void> {
  await stranger.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain });
}

/** A well-formed Kalaha state, for boards nobody plays on. */
function kalahaState(run: unknown, seq: number, record: string[]) {
  return {
    v: 1,
    run,
    gameId: 1,
    seq,
    at: 1,
    sync: {
      type: 'sync',
      stateId: seq,
      game: 'kalaha',
      record,
      view: { game: 'kalaha', pits: Array(12).fill(4), stores: { south: 0, north: 0 }, toMove: 'south', outcome: null, lastMove: null, pending: [] },
      alerts: [],
      board: { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 },
    },
  };
}

/** Publishes a marker board's state last; once the service has it, it has had everything the stranger sent before. */
async function heardAll(stranger: MqttClient, service: RunningBroadcast, marker = 'marker'): Promise<void> {
  await publishAs(stranger, topicOf(SITE, marker, 'state'), kalahaState({ id: 'marker', log: { gameId: 0, seq: 0 } }, 0, []), false);
  await until('the service has heard the stranger out', () => service.book.get(`${SITE}/${marker}`) !== undefined);
}

/** The table stops; its board at the service must come to equal it. */
async function settled(service: RunningBroadcast, list: readonly TestTable[]): Promise<void> {
  await Promise.all(list.map((t) => t.stopPlaying()));
  await until(`every board equals its table`, () =>
    list.every((t) => {
      const stats = t.publisher.stats();
      const board = service.book.get(`${t.site}/${t.name}`);
      return stats.waiting === 0 && stats.inFlight === 0 && !stats.stateDue && board?.run?.id === t.publisher.run.id && board.seq === t.session.currentStateId;
    }),
  ).catch((e: Error) => {
    const where = list.map((t) => ({ table: t.name, run: t.publisher.run.id, seq: t.session.currentStateId, stats: t.publisher.stats(), board: service.book.get(`${t.site}/${t.name}`) ?? null }));
    throw new Error(`${e.message}: ${JSON.stringify(where.map((w) => ({ ...w, board: w.board && { run: w.board.run, seq: w.board.seq, presence: w.board.presence, resyncFrom: w.board.resyncFrom } })))}`);
  });
  for (const t of list) {
    const board = service.book.get(`${t.site}/${t.name}`)!;
    expect(board.record, t.name).toEqual(t.session.record());
    expect(board.view, t.name).toEqual(t.session.view());
  }
}

async function boards(service: RunningBroadcast): Promise<BoardRecord[]> {
  const response = await fetch(`http://127.0.0.1:${service.port}/api/boards`);
  return ((await response.json()) as { boards: BoardRecord[] }).boards;
}

describe('the broadcast service trusts no payload', () => {
  test('a forged run with a far-future start does not replace a real board’s game, nor does a table’s clock that was once ahead', async () => {
    broker = await TestBroker.start({ persistence: false });
    let { service, outcomes } = await startService();
    broadcast = service;
    // The table's clock is ten years ahead at first; then it is put right and the service restarted.
    const real = await table('kalaha', 'brett-1', { now: () => Date.now() + TEN_YEARS });
    tables = [real];
    const key = `${SITE}/brett-1`;
    await until('the table has played a few moves', () => real.session.record().length >= 3 && service.book.get(key)?.record.length === real.session.record().length);
    const ahead = real.publisher.run;
    await real.restartPublisher(Date.now);
    expect(real.publisher.run.log.gameId).toBeGreaterThan(0);
    await until('the restarted table’s run shows, though its clock went back', () => service.book.get(key)?.run?.id === real.publisher.run.id);
    expect(real.publisher.run.id).not.toBe(ahead.id);

    forger = await connectAsync(broker.url, { clientId: `forger-${randomBytes(4).toString('hex')}` });
    const forgedRecord = ['F', 'F', 'F', 'F'];
    // The forgery (a run named by its far-future start), and the same with a log position riding along.
    for (const run of [
      { id: 'forged', started: 9e12 },
      { id: 'forged2', started: 9e12, log: { gameId: 0, seq: 0 } },
    ]) {
      await publishAs(forger, topicOf(SITE, 'brett-1', 'status'), { v: 1, status: 'online', run, game: 'kalaha', at: 9e12 });
      await publishAs(forger, topicOf(SITE, 'brett-1', 'state'), kalahaState(run, 999, forgedRecord));
      await publishAs(forger, topicOf(SITE, 'brett-1', 'events'), { ...kalahaState(run, 1000, forgedRecord), sync: undefined, update: { type: 'update', stateId: 1000, event: 'move', move: 'F', record: forgedRecord, view: kalahaState(run, 0, []).sync.view } }, false);
    }
    await heardAll(forger, service);
    expect(outcomes.filter((o) => o.key === key && o.kind === 'refused').length).toBeGreaterThanOrEqual(3);
    expect(service.book.get(key)!.run?.id).toBe(real.publisher.run.id);
    expect(service.book.get(key)!.record).not.toEqual(forgedRecord);

    // The real table's later moves are applied, and still after the broadcast service restarts on the forged
    // retained messages.
    const before = outcomes.filter((o) => o.key === key && o.kind === 'applied').length;
    await until('the real table’s next moves are applied', () => outcomes.filter((o) => o.key === key && o.kind === 'applied').length >= before + 2);
    await service.close();
    broadcast = null;
    ({ service, outcomes } = await startService());
    broadcast = service;
    await settled(service, tables);
    expect(outcomes.some((o) => o.key === key && (o.kind === 'applied' || o.kind === 'synced'))).toBe(true);
    const shown = service.book.get(key)!;
    expect(shown.run?.id).toBe(real.publisher.run.id);
    expect(shown.record).not.toEqual(forgedRecord);
  }, 120_000);

  test('a malformed retained state of each of the four games is dropped and logged; every other board stays', async () => {
    broker = await TestBroker.start({ persistence: false });
    const { service, notices } = await startService();
    broadcast = service;
    tables = await Promise.all([table('kalaha', 'brett-1'), table('malawi', 'brett-2')]);
    await until('both tables are on the display', () => tables.every((t) => (service.book.get(`${SITE}/${t.name}`)?.record.length ?? 0) >= 2));

    forger = await connectAsync(broker.url, { clientId: `forger-${randomBytes(4).toString('hex')}` });
    const run = { id: 'stranger', log: { gameId: 0, seq: 0 } };
    const good = kalahaState(run, 1, ['A']);
    const views: Record<GameName, unknown> = {
      // The issue's own payload.
      adu: { game: 'adu', seats: 3 },
      kalaha: { game: 'kalaha', pits: 'ABCDEF', stores: null },
      malawi: { game: 'malawi', size: 6, pieces: { a1: 2 }, toMove: 'south', outcome: null, lastMove: null },
      makis: { game: 'makis', players: 3, knights: 9, makis: 'c1r1' },
    };
    for (const [game, view] of Object.entries(views)) {
      await publishAs(forger, topicOf(SITE, `bad-${game}`, 'state'), { ...good, sync: { ...good.sync, game, view } });
    }
    // And on a real board's own topic, as its own run: that board keeps its game.
    const brett1 = service.book.get(`${SITE}/brett-1`)!;
    await publishAs(forger, topicOf(SITE, 'brett-1', 'state'), { ...good, run: brett1.run, seq: 5000, sync: { ...good.sync, stateId: 5000, view: views.adu, game: 'adu' } });
    await heardAll(forger, service);

    for (const game of Object.keys(views)) expect(notices.join('\n')).toMatch(new RegExp(`dropped a message for ${SITE}/bad-${game}: malformed state: sync\\.view`));
    expect(notices.join('\n')).toMatch(new RegExp(`dropped a message for ${SITE}/brett-1: malformed state`));
    expect((await boards(service)).map((b) => b.key)).toEqual([`${SITE}/brett-1`, `${SITE}/brett-2`, `${SITE}/marker`]);
    // A page that connects now gets the good boards, each whole.
    const socket = new WebSocket(`ws://127.0.0.1:${service.port}/ws`);
    sockets.push(socket);
    const first = await new Promise<BroadcastMessage>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)) as BroadcastMessage)));
    expect(first.type === 'boards' && first.boards.map((b) => [b.key, b.view?.game])).toEqual([
      [`${SITE}/brett-1`, 'kalaha'],
      [`${SITE}/brett-2`, 'malawi'],
      [`${SITE}/marker`, 'kalaha'],
    ]);
    await settled(service, tables);
  }, 120_000);

  test('no more boards than --max-boards: a flood of invented names is dropped in a few lines of log, the real board plays on', async () => {
    broker = await TestBroker.start({ persistence: false });
    let now = 1_000_000;
    const { service, notices, outcomes } = await startService({ maxBoards: 4, now: () => now });
    broadcast = service;
    tables = [await table('kalaha', 'brett-1')];
    await until('the table is on the display', () => service.book.get(`${SITE}/brett-1`) !== undefined);
    forger = await connectAsync(broker.url, { clientId: `forger-${randomBytes(4).toString('hex')}` });
    const invent = (name: string) => publishAs(forger!, topicOf(SITE, name, 'state'), kalahaState({ id: name, log: { gameId: 0, seq: 0 } }, 1, ['A']));
    for (let n = 0; n < 40; n++) await invent(`invented-${n}`);
    // The last finds no room either: once it is refused, the service has heard the whole flood.
    await invent('last');
    await until('the service has heard the flood', () => outcomes.some((o) => o.kind === 'refused' && o.key === `${SITE}/last`));
    const shown = await boards(service);
    expect(shown.map((b) => b.key)).toEqual([`${SITE}/brett-1`, `${SITE}/invented-0`, `${SITE}/invented-1`, `${SITE}/invented-2`]);
    expect(outcomes.filter((o) => o.kind === 'refused' && o.reason.startsWith('no room')).length).toBe(38);
    // The log names 20 of the 38 in the minute; a minute later one line counts the rest.
    expect(notices.filter((line) => line.includes('no room')).length).toBe(20);
    now += 60_000;
    await invent('one-more');
    await until('the next minute’s first refusal', () => notices.some((line) => line.includes(`${SITE}/one-more: no room`)));
    expect(notices).toContain('MQTT: dropped 18 more messages in the last minute, of boards not named above');
    await settled(service, tables);
  }, 120_000);

  test('a board unheard for --forget-after is forgotten, and the pages are told; a table that stands still but says it is there stays', async () => {
    broker = await TestBroker.start({ persistence: false });
    let now = 1_000_000;
    const staleMs = 5 * 60_000;
    const { service, outcomes } = await startService({ now: () => now, staleMs });
    broadcast = service;
    tables = await Promise.all([table('kalaha', 'brett-1'), table('kalaha', 'brett-2', { heartbeatMs: 100 })]);
    await until('both tables are on the display', () => tables.every((t) => service.book.get(`${SITE}/${t.name}`) !== undefined));
    const socket = new WebSocket(`ws://127.0.0.1:${service.port}/ws`);
    sockets.push(socket);
    const told: BroadcastMessage[] = [];
    socket.on('message', (data) => told.push(JSON.parse(String(data)) as BroadcastMessage));
    await until('the page has its boards', () => told.some((m) => m.type === 'boards'));

    // brett-1's table goes away for good (a goodbye, then silence); brett-2's stops playing but stays on.
    await tables[0].close();
    tables = [tables[1]];
    await tables[0].stopPlaying();
    await until('brett-1 is offline', () => service.book.get(`${SITE}/brett-1`)?.presence === 'offline');
    now += staleMs - 1;
    expect(service.expire()).toEqual([]);
    // brett-2 says it is there after the clock moved: nothing new to show, but it is heard.
    const heard = outcomes.length;
    await until('brett-2 has said it is there since', () => outcomes.slice(heard).some((o) => o.key === `${SITE}/brett-2` && o.kind === 'ignored'));
    now += 2;
    expect(service.expire()).toEqual([`${SITE}/brett-1`]);
    await until('the page is told', () => told.some((m) => m.type === 'gone'));
    expect(told.filter((m) => m.type === 'gone')).toEqual([{ type: 'gone', key: `${SITE}/brett-1` }]);
    expect((await boards(service)).map((b) => b.key)).toEqual([`${SITE}/brett-2`]);
    await settled(service, tables);
  }, 120_000);

  test('a site with a key: what its key signed shows; unsigned and badly signed messages are dropped', async () => {
    broker = await TestBroker.start({ persistence: false });
    const { service, notices } = await startService({ keys: new Map([[SITE, KEY]]) });
    broadcast = service;
    const signed = await table('kalaha', 'brett-1', { key: KEY });
    const unsigned = await table('kalaha', 'brett-2');
    const elsewhere = await startTable('kalaha', { url: broker.url, site: 'gast', name: 'brett-3', seed: 5, simSpeed: SPEED });
    tables = [signed, unsigned, elsewhere];
    await until('the signed table and the one of a site without a key show', () => (service.book.get(`${SITE}/brett-1`)?.record.length ?? 0) >= 2 && service.book.get('gast/brett-3') !== undefined);

    forger = await connectAsync(broker.url, { clientId: `forger-${randomBytes(4).toString('hex')}` });
    const run = { id: 'forged', log: { gameId: 99, seq: 99 } };
    const topic = topicOf(SITE, 'brett-1', 'state');
    await publishAs(forger, topic, kalahaState(run, 1, ['F']));
    await publishAs(forger, topic, sign('a key of the forger, long', topic, JSON.stringify(kalahaState(run, 2, ['F', 'F']))));
    // A signed state of brett-1, replayed on another board's topic.
    await publishAs(forger, topicOf(SITE, 'brett-9', 'state'), sign(KEY, topic, JSON.stringify(kalahaState(run, 3, ['F']))));
    await publishAs(forger, topicOf('gast', 'marker', 'state'), kalahaState({ id: 'marker', log: { gameId: 0, seq: 0 } }, 0, []), false);
    await until('the service has heard the forger out', () => service.book.get('gast/marker') !== undefined);

    const text = notices.join('\n');
    expect(text).toMatch(new RegExp(`dropped a message for ${SITE}/brett-2: unsigned, and the site has a key`));
    expect(text).toMatch(new RegExp(`dropped a message for ${SITE}/brett-1: (unsigned|badly signed)`));
    expect(text).toMatch(new RegExp(`dropped a message for ${SITE}/brett-9: badly signed \\(another key, or for another topic\\)`));
    expect((await boards(service)).map((b) => b.key)).toEqual(['gast/brett-3', 'gast/marker', `${SITE}/brett-1`]);
    await settled(service, [signed, elsewhere]);
    expect(service.book.get(`${SITE}/brett-1`)!.run?.id).toBe(signed.publisher.run.id);
  }, 120_000);

  test('the display is served with the same security headers as serve', async () => {
    broker = await TestBroker.start({ persistence: false });
    const { service } = await startService();
    broadcast = service;
    const expected: Record<string, string> = {};
    securityHeaders()({} as Request, { set: (headers: Record<string, string>) => Object.assign(expected, headers) } as unknown as Response, () => {});
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['Content-Security-Policy', 'Cross-Origin-Opener-Policy', 'Cross-Origin-Resource-Policy']));
    for (const path of ['/tournament', '/tournament/turnier/brett-1', '/api/boards', '/api/boards/x/y', '/api/nothing', '/healthz', '/']) {
      const response = await fetch(`http://127.0.0.1:${service.port}${path}`, { redirect: 'manual' });
      for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), `${path} ${name}`).toBe(value);
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
    // An address that is not valid percent-encoding is a short refusal, with the headers, and names nothing inside.
    for (const path of ['/api/boards/%E0%A4%A/x', '/tournament/%/x']) {
      const response = await fetch(`http://127.0.0.1:${service.port}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ error: 'api/bad-request', message: 'The request could not be read.' });
      for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), `${path} ${name}`).toBe(value);
    }
  }, 60_000);
});
