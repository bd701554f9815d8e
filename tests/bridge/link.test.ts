// Tests of BoardLink over serialport's MockBinding: handshake, frames, commands, and the simulated table behind a mock port.
import { afterEach, describe, expect, test } from 'vitest';
import {
  BoardLink,
  HandshakeError,
  formatLine,
  openMockPair,
  startSimulatedKalahaBoard,
  type MockPair,
  type SimulatedBoard,
  type WeightsMessage,
} from '../../firmware-bridge/index.ts';

const HELLO = formatLine('HELLO proto=1 fw=test/1 board=kalaha id=T1 cells=14');
const W = (seq: number, base = 0): string => formatLine(`W ${seq} ${Array.from({ length: 14 }, (_, i) => base + i).join(' ')}`);

/** Resolves with the first `n` events of a kind. */
function collect<T>(link: BoardLink, event: 'weights' | 'heartbeat' | 'ok' | 'dropped', n: number): Promise<T[]> {
  return new Promise((resolve) => {
    const got: T[] = [];
    const on = (x: T): void => {
      got.push(x);
      if (got.length === n) {
        link.off(event, on as never);
        resolve(got);
      }
    };
    link.on(event, on as never);
  });
}

/** A board end that answers HELLO? like firmware does. */
function answerHello(pair: MockPair, hello = HELLO): void {
  pair.board.onWrite((bytes) => {
    if (bytes.toString('latin1').includes('HELLO?')) pair.board.emit(hello);
  });
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function pair(): Promise<MockPair> {
  const p = await openMockPair();
  open.push(p.link);
  return p;
}

describe('BoardLink over MockBinding', () => {
  test('handshake: sends HELLO? with a checksum and resolves with the HELLO', async () => {
    const p = await pair();
    answerHello(p);
    const hello = await p.link.handshake({ timeoutMs: 5000 });
    expect(hello).toMatchObject({ type: 'hello', proto: 1, board: 'kalaha', id: 'T1', cells: 14 });
    expect(p.board.written().toString('latin1')).toContain(formatLine('HELLO?'));
    expect(p.link.hello).toBe(hello);
  });

  test('handshake without an answer fails with a clear error and asks more than once', async () => {
    const p = await pair();
    const err = await p.link.handshake({ timeoutMs: 200, retryMs: 40 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HandshakeError);
    expect(String((err as Error).message)).toMatch(/no HELLO .* nothing at all was received/);
    const asked = p.board.written().toString('latin1').split(formatLine('HELLO?')).length - 1;
    expect(asked).toBeGreaterThan(1);
  });

  test('handshake hearing only garbage says so', async () => {
    const p = await pair();
    p.board.onWrite(() => p.board.emit('\xff\xfe garbage at the wrong baud rate\n'));
    const err = await p.link.handshake({ timeoutMs: 200, retryMs: 40 }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/bad lines were received: check the baud rate/);
  });

  test('handshake refuses another protocol version', async () => {
    const p = await pair();
    answerHello(p, formatLine('HELLO proto=2 fw=future/9 board=kalaha id=T1 cells=14'));
    await expect(p.link.handshake({ timeoutMs: 5000 })).rejects.toThrow(/protocol 2/);
  });

  test('frames split across chunks arrive as typed weights events, in order', async () => {
    const p = await pair();
    const got = collect<WeightsMessage>(p.link, 'weights', 3);
    const bytes = W(0) + W(1, 100) + W(2, 200);
    p.board.emit(bytes.slice(0, 17));
    p.board.emit(bytes.slice(17, 60));
    p.board.emit(bytes.slice(60));
    const frames = await got;
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2]);
    expect(frames[2].cells).toEqual(Array.from({ length: 14 }, (_, i) => 200 + i));
    expect(typeof frames[0].receivedAt).toBe('number');
  });

  test('board ERR lines do not crash a link nobody listens to, and are counted', async () => {
    const p = await pair();
    const hb = collect(p.link, 'heartbeat', 1);
    p.board.emit(formatLine('ERR hx711 cell 7 not ready') + formatLine('HB 0 1000'));
    await hb;
    expect(p.link.stats().boardErrors).toBe(1);
  });

  test('request resolves on the matching OK and rejects on ERR', async () => {
    const p = await pair();
    p.board.onWrite((bytes) => {
      const text = bytes.toString('latin1');
      if (text.startsWith('TARE')) p.board.emit(formatLine('OK ' + text.slice(0, text.indexOf('*'))));
      if (text.startsWith('RATE')) p.board.emit(formatLine('ERR range rate must be 1-50'));
    });
    await expect(p.link.request({ kind: 'tare', cell: 3 })).resolves.toMatchObject({ command: 'TARE 3' });
    await expect(p.link.request('RATE 99')).rejects.toThrow(/refused RATE 99: ERR range/);
  });

  test('dropped lines are announced and counted in stats', async () => {
    const p = await pair();
    const dropped = collect<string>(p.link, 'dropped', 2);
    p.board.emit('W 1 2 3*00\n' + formatLine('W 1 2 3'));
    expect(await dropped).toEqual(['checksum', 'malformed']);
    expect(p.link.stats().dropped).toMatchObject({ checksum: 1, malformed: 1 });
  });

  test('closing the port ends the link with a disconnect event', async () => {
    const p = await pair();
    const gone = new Promise<Error | null>((resolve) => p.link.on('disconnect', resolve));
    await p.board.close();
    expect(await gone).toBeNull();
    expect(p.link.isClosed).toBe(true);
    expect(p.link.send({ kind: 'hello' })).toBe(false);
  });
});

describe('the simulated table behind a mock port', () => {
  let sim: SimulatedBoard | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  test('handshakes, streams consecutive W frames of the stones on it, and obeys commands', async () => {
    sim = await startSimulatedKalahaBoard({ seed: 'link-test', stoneSet: 'marbles', simSpeed: 20, virtualTimestamps: true });
    expect(sim.link.hello).toMatchObject({ board: 'kalaha', cells: 14 });
    const frames = await collect<WeightsMessage>(sim.link, 'weights', 10);
    for (let i = 1; i < frames.length; i++) expect(frames[i].seq).toBe((frames[i - 1].seq + 1) >>> 0);
    // Virtual timestamps: frame k leaves the board at k × 50 ms of its clock, so it cannot be received before.
    for (const f of frames) expect(f.receivedAt).toBeGreaterThanOrEqual(f.seq * 50);
    const grams = sim.table.cellGrams();
    for (let c = 0; c < 14; c++) expect(Math.abs(frames[9].cells[c] / 10 - grams[c])).toBeLessThan(1.5);

    await sim.link.request({ kind: 'rate', hz: 50 });
    expect(sim.table.frameRateHz).toBe(50);
    await expect(sim.link.request('RATE 0')).rejects.toThrow(/ERR range/);
    await sim.link.request({ kind: 'tare' });
    const after = await collect<WeightsMessage>(sim.link, 'weights', 3);
    for (const c of after[2].cells) expect(Math.abs(c)).toBeLessThan(15);
    expect(sim.link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });

  test('a script performed on the live table shows up in the frames', async () => {
    sim = await startSimulatedKalahaBoard({ seed: 'live', stoneSet: 'chestnuts', simSpeed: 50, sensor: { noiseGrams: 0 } });
    const done = new Promise<void>((resolve) => sim!.table.perform([{ kind: 'carry', from: 0, to: 12, ms: 200 }], resolve));
    await done;
    // Frames sent before the carry ended may still be on the line; frame k leaves at k × 50 ms.
    const doneAt = sim.scheduler.now;
    const frame = await new Promise<WeightsMessage>((resolve) => {
      const on = (f: WeightsMessage): void => {
        if (f.seq * 50 <= doneAt) return;
        sim!.link.off('weights', on);
        resolve(f);
      };
      sim!.link.on('weights', on);
    });
    expect(frame.cells[0]).toBe(0);
    expect(frame.cells[12]).toBe(Math.round(sim.table.cellGrams()[12] * 10));
    expect(sim.table.counts()[12]).toBe(4);
  });
});
