// The fake server's Makis and Adu tables speak the contract: their views agree with the engines, their moments are the
// ones the screenshots show, and their console endpoints roll, answer a preselected question and refuse with real codes.
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ClientMessage, ServerMessage } from '../../server/http/messages.ts';
import { adu, aduNotation, makis, makisNotation } from '../../server/rules/index.ts';
import { EMPTY_TABLE, applyMessage, parseServerMessage } from '../../web/src/connection/state.ts';
import { FAKE_REFEREE_TOKEN, startFakeServer, type FakeServer } from './fake-server.ts';
import { ADU_SCENARIOS, FakeAduTable } from './fake-adu.ts';
import { FakeMakisTable, MAKIS_SCENARIOS, asDice } from './fake-makis.ts';

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function syncOf(message: ServerMessage) {
  if (message.type !== 'sync') throw new Error(`expected a sync, got ${message.type}`);
  return message;
}

describe('fake Makis table', () => {
  it.each(MAKIS_SCENARIOS)('%s: a view the engine agrees with', (scenario) => {
    const sync = syncOf(new FakeMakisTable(scenario).sync());
    const view = sync.view;
    if (view.game !== 'makis') throw new Error('expected a Makis view');
    let state = makis.initial({ ...makis.DEFAULT_OPTIONS, players: view.players });
    if (!state.ok) throw new Error(state.error.message);
    let current = state.value;
    for (const token of sync.record) {
      const move = makisNotation.parseMove(token);
      if (!move.ok) throw new Error(move.error.message);
      const next = makis.play(current, move.value);
      if (!next.ok) throw new Error(`${token}: ${next.error.message}`);
      current = next.value;
    }
    expect(view.knights).toEqual(current.knights);
    expect(view.makis).toEqual(current.makis.map((s) => (s === null ? null : s === 'out' ? 'out' : makis.squareName(s))));
    expect(view.lastMove).toBe(sync.record[sync.record.length - 1]);
    // Odds only when a roll is due; a Maki's odds are its square's danger.
    expect(view.odds !== null).toBe(current.phase === 'roll');
    for (const m of view.odds?.makis ?? []) expect(view.odds?.danger[m.square]).toEqual({ capture: m.capture, reset: m.reset });
    // Rolls are listed as the dice III, IV and V show them.
    for (const roll of [view.lastRoll, view.expectedRoll]) {
      if (roll) expect([makis.FACES.III.includes(roll[0]), makis.FACES.IV.includes(roll[1]), makis.FACES.V.includes(roll[2])]).toEqual([true, true, true]);
    }
  });

  it('shows the moment the screenshots promise: three players, one out, a knight to put back, the danger map', () => {
    const view = syncOf(new FakeMakisTable('makis').sync()).view;
    if (view.game !== 'makis') throw new Error('expected a Makis view');
    expect(view.players).toBe(3);
    expect(view.makis.filter((s) => s === 'out')).toHaveLength(1);
    expect(view.pending.some((p) => p.piece === 'knight' && p.to.endsWith('r1'))).toBe(true);
    expect(Object.keys(view.odds?.danger ?? {}).length).toBeGreaterThan(50);
  });

  it('orders a roll onto the dice III, IV, V', () => {
    expect(asDice([9, 1, 2])).toEqual([9, 1, 2]);
    expect(asDice([8, 7, 7])).toEqual([7, 8, 7]);
  });
});

describe('fake Adu table', () => {
  it.each(ADU_SCENARIOS)('%s: a view the engine agrees with', (scenario) => {
    const table = new FakeAduTable(scenario);
    const sync = syncOf(table.sync());
    const view = sync.view;
    if (view.game !== 'adu') throw new Error('expected an Adu view');
    let state = adu.initial({ ...adu.DEFAULT_OPTIONS, players: view.players, size: view.size });
    for (const token of sync.record) {
      const move = aduNotation.parseMove(token, view.size);
      if (!move.ok) throw new Error(move.error.message);
      const next = adu.play(state, move.value);
      if (!next.ok) throw new Error(`${token}: ${next.error.message}`);
      state = next.value;
    }
    expect(view.seats.map((s) => s.in)).toEqual(state.inGame);
    // Every soldier on the board has a Merkskala line, and nothing else has.
    const soldiers = view.pieces.filter((p) => p.kind === 'soldier').map((p) => `${p.player}${p.id}`).sort();
    const lines = Object.entries(view.ranges).flatMap(([player, ranges]) => Object.keys(ranges).map((id) => `${player}${id}`)).sort();
    expect(lines).toEqual(soldiers);
    for (const q of sync.questions ?? []) {
      expect(q.preselected === undefined || q.options.includes(q.preselected)).toBe(true);
      for (const option of q.options) {
        const parsed = aduNotation.parseMove(option, view.size);
        expect(parsed.ok && adu.whyIllegal(state, parsed.value)).toBeNull();
      }
    }
  });

  it('shows six seats, one out, a Merkskala that knows something, and a reserve king awaited', () => {
    const view = syncOf(new FakeAduTable('adu').sync()).view;
    if (view.game !== 'adu') throw new Error('expected an Adu view');
    expect(view.players).toBe(6);
    expect(view.seats.filter((s) => !s.in).length).toBeGreaterThanOrEqual(1);
    expect(view.awaitingReserve).toEqual({ player: view.toMove });
    const narrowed = Object.values(view.ranges).flatMap((r) => Object.values(r)).filter((r) => r.length < 6);
    expect(narrowed.length).toBeGreaterThanOrEqual(6);
  });

  it('offers the declarable ranges with the lowest preselected', () => {
    const sync = syncOf(new FakeAduTable('adu-declare').sync());
    const question = sync.questions?.[0];
    expect(question?.code).toBe('adu/declare-range');
    const ranges = question?.options.map((o) => Number(o.split('=')[1])) ?? [];
    expect(ranges).toEqual([...ranges].sort((a, b) => a - b));
    expect(question?.preselected).toBe(question?.options[0]);
  });
});

/** A console on a real socket, signed in: sends commands and waits for what the server says. */
async function signedInConsole(url: string) {
  const socket = new WebSocket(url);
  const got: ServerMessage[] = [];
  const waiters: { test: (m: ServerMessage) => boolean; done: (m: ServerMessage) => void }[] = [];
  socket.on('message', (data) => {
    const message = parseServerMessage(String(data));
    if (!message) return;
    const waiter = waiters.find((w) => w.test(message));
    if (!waiter) return void got.push(message);
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.done(message);
  });
  await new Promise((done, fail) => {
    socket.once('open', done);
    socket.once('error', fail);
  });
  const next = (test: (m: ServerMessage) => boolean): Promise<ServerMessage> => {
    const seen = got.find(test);
    if (seen) {
      got.splice(got.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise((done) => waiters.push({ test, done }));
  };
  const send = (message: ClientMessage) => socket.send(JSON.stringify(message));
  const sync = syncOf(await next((m) => m.type === 'sync'));
  send({ type: 'auth', token: FAKE_REFEREE_TOKEN });
  await next((m) => m.type === 'command-result' && m.ref === 0);
  const result = (ref: number) => next((m) => m.type === 'command-result' && m.ref === ref);
  return { socket, sync, next, send, result };
}

describe('fake console endpoints', () => {
  it('Makis: rolls for the table once, then expects that roll', async () => {
    server = await startFakeServer({ scenario: 'makis', port: 0, dist: tmpdir() });
    const c = await signedInConsole(`ws://127.0.0.1:${server.port}/ws`);
    c.send({ type: 'command', ref: 1, stateId: c.sync.stateId, command: { kind: 'roll' } });
    expect(await c.result(1)).toMatchObject({ ok: true });
    const update = await c.next((m) => m.type === 'update');
    const table = [c.sync, update].reduce(applyMessage, EMPTY_TABLE);
    const view = table.view;
    if (view?.game !== 'makis' || !view.expectedRoll) throw new Error('expected a roll for the table');
    expect(view.pending).toEqual([]);
    c.send({ type: 'command', ref: 2, stateId: table.stateId, command: { kind: 'roll' } });
    expect(await c.result(2)).toMatchObject({ ok: false, error: 'referee/roll-pending' });
    const other = makis.POSSIBLE_ROLLS.find((r) => r.join() !== [...view.expectedRoll!].sort().join()) as readonly number[];
    c.send({ type: 'command', ref: 3, stateId: table.stateId, command: { kind: 'enter', move: `R${other.join('.')}` } });
    expect(await c.result(3)).toMatchObject({ ok: false, error: 'makis/wrong-roll' });
    c.send({ type: 'command', ref: 4, stateId: table.stateId, command: { kind: 'enter', move: `R${view.expectedRoll.join('.')}` } });
    expect(await c.result(4)).toMatchObject({ ok: true });
    const moved = await c.next((m) => m.type === 'update' && m.event === 'move');
    expect(moved.type === 'update' && moved.view.game === 'makis' && moved.view.expectedRoll).toBeNull();
    c.socket.close();
  });

  it('Adu: takes the answer to the declaration question and closes it', async () => {
    server = await startFakeServer({ scenario: 'adu-declare', port: 0, dist: tmpdir() });
    const c = await signedInConsole(`ws://127.0.0.1:${server.port}/ws`);
    const question = c.sync.questions?.[0];
    if (!question?.preselected) throw new Error('expected a preselected question');
    c.send({ type: 'command', ref: 1, stateId: c.sync.stateId, command: { kind: 'choose', questionId: question.id, move: question.preselected } });
    expect(await c.result(1)).toMatchObject({ ok: true });
    expect(await c.next((m) => m.type === 'update')).toMatchObject({ event: 'move', move: question.preselected });
    expect(await c.next((m) => m.type === 'question-closed')).toMatchObject({ id: question.id });
    c.socket.close();
  });

  it('Adu: completes an awaited reserve king from a point entered by hand, refusing a taken one', async () => {
    server = await startFakeServer({ scenario: 'adu', port: 0, dist: tmpdir() });
    const c = await signedInConsole(`ws://127.0.0.1:${server.port}/ws`);
    const view = c.sync.view;
    if (view.game !== 'adu') throw new Error('expected an Adu view');
    const taken = view.pieces.find((p) => p.square !== view.lastMove?.squares[1])?.square as string;
    c.send({ type: 'command', ref: 1, stateId: c.sync.stateId, command: { kind: 'enter', move: taken } });
    expect(await c.result(1)).toMatchObject({ ok: false, error: 'adu/reserve-square-taken' });
    const free = 'abcdefghijklm'.split('').flatMap((f) => Array.from({ length: 13 }, (_, r) => `${f}${r + 1}`)).find((p) => !view.pieces.some((q) => q.square === p));
    c.send({ type: 'command', ref: 2, stateId: c.sync.stateId, command: { kind: 'enter', move: `R@${free}` } });
    expect(await c.result(2)).toMatchObject({ ok: true });
    const update = await c.next((m) => m.type === 'update');
    if (update.type !== 'update' || update.view.game !== 'adu') throw new Error('expected an Adu update');
    expect(update.view.awaitingReserve).toBeNull();
    expect(update.view.pieces.find((p) => p.square === free)).toMatchObject({ kind: 'reserve', player: view.awaitingReserve?.player });
    c.socket.close();
  });
});
