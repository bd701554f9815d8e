// Raw frames over the WebSocket: only sockets that asked get them, about ten a second on the table's clock, until
// they stop asking or go; a malformed request is refused like any other garbage.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startHttp, type RunningServer } from '../../server/http/index.ts';
import type { RawFrameMessage } from '../../server/http/messages.ts';
import { KALAHA_HELLO, rig, type Rig } from '../table/helpers.ts';

let r: Rig;
let http: RunningServer;

beforeEach(async () => {
  r = await rig(KALAHA_HELLO, { game: 'kalaha' });
  http = await startHttp(r.table, { port: 0, host: '127.0.0.1', token: 't', webRoot: '/nonexistent', setup: r.table });
});
afterEach(async () => {
  await http.close();
  await r.close();
});

interface Page {
  readonly socket: WebSocket;
  readonly raw: RawFrameMessage[];
  readonly results: { ok: boolean; error?: string }[];
  send(message: unknown): void;
  /** Resolves once every message the server sent before its answer to this one has arrived. */
  roundTrip(): Promise<void>;
}

async function page(): Promise<Page> {
  const socket = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
  const raw: RawFrameMessage[] = [];
  const results: { ok: boolean; error?: string }[] = [];
  socket.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'raw') raw.push(m);
    if (m.type === 'command-result') results.push(m);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const send = (message: unknown): void => socket.send(JSON.stringify(message));
  return {
    socket,
    raw,
    results,
    send,
    async roundTrip() {
      // A command without the token is answered at once, after everything sent before it on this socket.
      const before = results.length;
      send({ type: 'command', ref: 99, stateId: 0, command: { kind: 'undo' } });
      await until(() => results.length > before);
    },
  };
}

/** Frames at 20 a second for `seconds` of the table's clock, the clock moving with them. */
function frames(seconds: number, from = 0): void {
  for (let i = 0; i < seconds * 20; i++) {
    r.weights([{ t: from + i * 50, tenths: Array.from({ length: 14 }, (_, c) => (c < 12 ? 200 + c : 0)) }]);
    r.clock.advance(50);
  }
}

describe('raw frames', () => {
  test('go only to the sockets that asked, at most one per 100 ms of the table’s clock', async () => {
    const asking = await page();
    const display = await page();
    asking.send({ type: 'raw', on: true });
    await asking.roundTrip();
    frames(2);
    await asking.roundTrip();
    await display.roundTrip();
    // 40 frames 50 ms apart: every second one goes out.
    expect(asking.raw).toHaveLength(20);
    expect(display.raw).toEqual([]);
    expect(asking.raw[0]).toMatchObject({ type: 'raw', sense: 'weights', cols: null, rows: null, dropped: 0, lost: 0 });
    expect(asking.raw[0].cells).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 0, 0]);
    const seqs = asking.raw.map((m) => m.seq);
    expect(seqs.every((s, i) => i === 0 || s - seqs[i - 1] === 2)).toBe(true);
    asking.socket.close();
    display.socket.close();
  });

  test('stop when the page says so, and when it goes; the table makes none while nobody asks', async () => {
    const a = await page();
    const b = await page();
    a.send({ type: 'raw', on: true });
    b.send({ type: 'raw', on: true });
    await a.roundTrip();
    await b.roundTrip();
    frames(1);
    await a.roundTrip();
    await b.roundTrip();
    expect([a.raw.length, b.raw.length]).toEqual([10, 10]);

    a.send({ type: 'raw', on: false });
    await a.roundTrip();
    frames(1, 1000);
    await a.roundTrip();
    await b.roundTrip();
    expect([a.raw.length, b.raw.length]).toEqual([10, 20]);

    b.socket.close();
    await until(() => http.clients() === 1);
    let made = 0;
    const stop = r.table.subscribeRaw(() => made++);
    stop();
    frames(1, 2000);
    expect(made).toBe(0);
    await a.roundTrip();
    expect(a.raw).toHaveLength(10);
    a.socket.close();
  });

  test('a malformed request is garbage, answered as such and counted against the socket', async () => {
    const p = await page();
    for (const bad of [{ type: 'raw' }, { type: 'raw', on: 'yes' }, { type: 'raw', on: true, extra: 1 }]) p.send(bad);
    await p.roundTrip();
    expect(p.results.slice(0, 3).map((x) => x.error)).toEqual(['console/bad-message', 'console/bad-message', 'console/bad-message']);
    frames(1);
    await p.roundTrip();
    expect(p.raw).toEqual([]);
    p.socket.close();
  });
});

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}
