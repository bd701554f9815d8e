// The fake server speaks the real message types: folded through the page's state logic, its script ends where it should;
// its Malawi table is the engine's, and its console endpoint answers like the real server.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ClientMessage, ServerMessage } from '../../server/http/messages.ts';
import { malawi, malawiNotation } from '../../server/rules/index.ts';
import { EMPTY_TABLE, applyMessage, parseServerMessage } from '../../web/src/connection/state.ts';
import { FakeMalawiTable, MALAWI_SCENARIOS, malawiView } from './fake-malawi.ts';
import { FAKE_REFEREE_TOKEN, playRecord, script, startFakeServer, type FakeServer } from './fake-server.ts';

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function collect(url: string, count: number): Promise<ServerMessage[]> {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url);
    const got: ServerMessage[] = [];
    socket.on('message', (data) => {
      const message = parseServerMessage(String(data));
      if (!message) return fail(new Error(`unreadable: ${String(data)}`));
      got.push(message);
      if (got.length === count) {
        socket.close();
        done(got);
      }
    });
    socket.on('error', fail);
  });
}

describe('fake server', () => {
  it('sows the rulebook example: after C e F, d captures the two stones in C', () => {
    const steps = playRecord(['C', 'e', 'F', 'd']);
    const d = steps[3];
    expect(d.captures).toEqual([2]);
    expect(d.afterSow[2]).toBe(2);
    expect(d.afterSow[1]).toBe(6);
    expect(d.settled.stores).toEqual({ south: 0, north: 2 });
    // Like the server's view: the capture already counted, the pit listed until its stones are carried.
    expect(d.sown.pits[2]).toBe(0);
    expect(d.sown.pending).toEqual([{ pit: 2, stones: 2, store: 'north', reason: 'capture' }]);
    expect(d.settled.pits.reduce((a, b) => a + b, 0) + 2).toBe(48);
  });

  it('plays the live script to its end over a real socket, the stale update ignored', async () => {
    server = await startFakeServer({ scenario: 'live', port: 0, interval: 2, dist: tmpdir() });
    const { onConnect, later } = script('live');
    const messages = await collect(`ws://127.0.0.1:${server.port}/ws`, onConnect.length + later.length);
    const table = messages.reduce(applyMessage, EMPTY_TABLE);
    expect(table.record).toEqual(['C', 'e', 'F', 'd']);
    expect(table.stateId).toBe(15);
    // The stale update (14) still had the captured stones pending; the page must show them carried.
    const view = table.view;
    if (view?.game !== 'kalaha') throw new Error(`expected a Kalaha view, got ${view?.game}`);
    expect(view.pending).toEqual([]);
    expect(view.stores).toEqual({ south: 0, north: 2 });
    expect(table.alerts.map((a) => a.code)).toEqual(['referee/mismatch']);
    expect(table.board?.framesPerSecond).toBe(19);
  });

  it('serves pages the way the real server should: / and /display, never outside its folder', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'spieltisch-dist-'));
    try {
      await writeFile(join(dist, 'index.html'), 'index');
      await writeFile(join(dist, 'display.html'), 'display');
      await mkdir(join(dist, 'assets'));
      await writeFile(join(dist, 'assets', 'a.js'), 'js');
      server = await startFakeServer({ scenario: 'down', port: 0, dist });
      const get = async (path: string) => {
        const res = await fetch(`${server!.url}${path}`);
        return [res.status, await res.text()] as const;
      };
      expect(await get('/')).toEqual([200, 'index']);
      expect(await get('/display')).toEqual([200, 'display']);
      expect(await get('/assets/a.js')).toEqual([200, 'js']);
      expect((await get('/%2e%2e/etc/passwd'))[0]).toBe(404);
      expect((await get('/referee'))[0]).toBe(404);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

/** A console on a real socket: sends, and collects everything the server says. */
async function openConsole(url: string) {
  const socket = new WebSocket(url);
  const got: ServerMessage[] = [];
  const waiters: { test: (m: ServerMessage) => boolean; done: (m: ServerMessage) => void }[] = [];
  socket.on('message', (data) => {
    const message = parseServerMessage(String(data));
    if (!message) return;
    // Each message is taken once: by the first waiter that wants it, or kept for a later `next`.
    const waiter = waiters.find((w) => w.test(message));
    if (!waiter) {
      got.push(message);
      return;
    }
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
  const result = (ref: number) => next((m) => m.type === 'command-result' && m.ref === ref);
  return { socket, got, next, send, result };
}

describe('fake Malawi table', () => {
  it.each(MALAWI_SCENARIOS)('%s: a view the engine agrees with', (scenario) => {
    const table = new FakeMalawiTable(scenario);
    const sync = table.sync();
    if (sync.type !== 'sync' || sync.view.game !== 'malawi') throw new Error('expected a Malawi sync');
    // Replaying the record with the engine gives the same pieces.
    let state = malawi.initial();
    for (const move of sync.record) {
      const parsed = malawiNotation.parseMove(move, 6);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const next = malawi.play(state, parsed.value);
      if (!next.ok) throw new Error(next.error.message);
      state = next.value;
    }
    expect(malawiView(state, null).pieces).toEqual(sync.view.pieces);
    expect(sync.view.lastMove?.notation).toBe(sync.record[sync.record.length - 1]);
    for (const q of sync.questions ?? []) {
      for (const option of q.options) {
        const parsed = malawiNotation.parseMove(option, 6);
        expect(parsed.ok && malawi.whyIllegal(state, parsed.value)).toBeNull();
      }
    }
  });

  it('ends malawi-over with a winner', () => {
    const sync = new FakeMalawiTable('malawi-over').sync();
    expect(sync.type === 'sync' && sync.view.outcome).toMatchObject({ winner: expect.any(String) });
  });
});

describe('fake console endpoint', () => {
  it('answers the token with ref 0 and refuses commands without it', async () => {
    server = await startFakeServer({ scenario: 'malawi-question', port: 0, dist: tmpdir() });
    const c = await openConsole(`ws://127.0.0.1:${server.port}/ws`);
    const sync = await c.next((m) => m.type === 'sync');
    const stateId = sync.type === 'sync' ? sync.stateId : -1;
    c.send({ type: 'command', ref: 1, stateId, command: { kind: 'undo' } });
    expect(await c.result(1)).toMatchObject({ ok: false, error: 'console/unauthorized' });
    c.send({ type: 'auth', token: 'wrong' });
    expect(await c.result(0)).toMatchObject({ ok: false, error: 'console/bad-token' });
    c.send({ type: 'auth', token: FAKE_REFEREE_TOKEN });
    expect(await c.result(0)).toMatchObject({ ok: true });
    c.socket.close();
  });

  it('refuses a stale command, a wrong option and an illegal move with the real codes; takes a good answer', async () => {
    server = await startFakeServer({ scenario: 'malawi-question', port: 0, dist: tmpdir() });
    const c = await openConsole(`ws://127.0.0.1:${server.port}/ws`);
    const sync = await c.next((m) => m.type === 'sync');
    if (sync.type !== 'sync') throw new Error('no sync');
    const question = sync.questions?.[0];
    if (!question) throw new Error('no question');
    c.send({ type: 'auth', token: FAKE_REFEREE_TOKEN });
    await c.result(0);

    c.send({ type: 'command', ref: 1, stateId: sync.stateId - 1, command: { kind: 'undo' } });
    expect(await c.result(1)).toMatchObject({ ok: false, error: 'console/stale-state' });
    c.send({ type: 'command', ref: 2, stateId: sync.stateId, command: { kind: 'choose', questionId: question.id, move: 'a1-a2' } });
    expect(await c.result(2)).toMatchObject({ ok: false, error: 'referee/not-an-option' });
    c.send({ type: 'command', ref: 3, stateId: sync.stateId, command: { kind: 'enter', move: 'a1-a2' } });
    expect(await c.result(3)).toMatchObject({ ok: false, error: 'malawi/wrong-distance' });

    const move = question.options[0];
    c.send({ type: 'command', ref: 4, stateId: sync.stateId, command: { kind: 'choose', questionId: question.id, move } });
    expect(await c.result(4)).toEqual({ type: 'command-result', ref: 4, ok: true });
    const update = await c.next((m) => m.type === 'update');
    expect(update).toMatchObject({ stateId: sync.stateId + 1, event: 'move', move });
    expect(await c.next((m) => m.type === 'question-closed')).toMatchObject({ id: question.id });

    // Folded like a page folds it: the question is gone, the move is on the record.
    const table = [sync, update, { type: 'question-closed', stateId: sync.stateId + 1, id: question.id } as ServerMessage].reduce(applyMessage, EMPTY_TABLE);
    expect(table.questions).toEqual([]);
    expect(table.record[table.record.length - 1]).toBe(move);

    c.send({ type: 'command', ref: 5, stateId: sync.stateId + 1, command: { kind: 'undo' } });
    expect(await c.result(5)).toMatchObject({ ok: true });
    expect(await c.next((m) => m.type === 'update' && m.event === 'takeback')).toMatchObject({ undone: [move] });
    c.socket.close();
  });

  it('asks which capture or distribution it was when told one happened', async () => {
    server = await startFakeServer({ scenario: 'malawi', port: 0, dist: tmpdir() });
    const c = await openConsole(`ws://127.0.0.1:${server.port}/ws`);
    const sync = await c.next((m) => m.type === 'sync');
    if (sync.type !== 'sync') throw new Error('no sync');
    expect(sync.questions).toEqual([]);
    c.send({ type: 'auth', token: FAKE_REFEREE_TOKEN });
    c.send({ type: 'command', ref: 1, stateId: sync.stateId, command: { kind: 'ask' } });
    expect(await c.result(1)).toMatchObject({ ok: true });
    const asked = await c.next((m) => m.type === 'question');
    expect(asked.type === 'question' && asked.question.options.every((o) => !o.includes('-'))).toBe(true);
    c.socket.close();
  });
});
