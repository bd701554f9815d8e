// Tests of the johnny-five transport on mock-firmata: switches on digital pins and on 74HC165 shift registers become the protocol's HELLO and G frames, and missing capabilities fail at start.
import { afterEach, describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import {
  BoardLink,
  CapabilityError,
  SerialBoard,
  parsePinMap,
  startFirmataBoard,
  type FirmataBoard,
  type FirmataIO,
  type FirmataPinMap,
  type GridMessage,
  type LinkState,
  type PortAccess,
} from '../../firmware-bridge/index.ts';

const { Firmata: MockFirmata, Pins } = createRequire(import.meta.url)('mock-firmata') as {
  Firmata: new (options: { pins: unknown[] }) => FirmataIO;
  Pins: { UNO: unknown[]; MEGA: unknown[] };
};

/**
 * A mock Firmata board whose inputs the test sets. Like firmata.js, `digitalRead` starts
 * reporting a pin and its values come as `digital-read-<pin>` events; reporting a port on
 * (REPORT_DIGITAL) answers with its value at once, as StandardFirmata 2.5 does.
 */
class Arduino {
  readonly io: FirmataIO;
  readonly level = new Map<number, number>();
  readonly modes = new Map<number, number>();
  readonly reading = new Set<number>();
  /** Sees every digitalWrite (pin, value), for emulated chips. */
  onWrite: ((pin: number, value: number) => void) | null = null;
  /** Answers a forced report of `pin` (emulated chips set it). */
  reportValue: ((pin: number) => number) | null = null;

  constructor(pins: unknown[] = Pins.MEGA, withReport = true) {
    this.io = new MockFirmata({ pins: structuredClone(pins) });
    const io = this.io as FirmataIO & Record<string, unknown>;
    io.pinMode = (pin: number, mode: number) => void this.modes.set(pin, mode);
    io.digitalWrite = (pin: number, value: number) => this.onWrite?.(pin, value);
    io.digitalRead = (pin: number, callback: (v: number) => void) => {
      this.reading.add(pin);
      io.on(`digital-read-${pin}`, callback);
      // The port's value comes back at once when reporting starts.
      setImmediate(() => this.report(pin));
    };
    if (withReport) {
      io.reportDigitalPin = (pin: number, value: number) => {
        if (value !== 1) return;
        // The board answers in order, with the pin as it is when the request is carried out;
        // the answer travels back later.
        const now = this.reportValue ? this.reportValue(pin) : (this.level.get(pin) ?? 1);
        setImmediate(() => this.io.emit(`digital-read-${pin}`, now));
      };
    } else {
      io.reportDigitalPin = undefined;
    }
  }

  /** Sets an input and reports it, as a port change does. */
  set(pin: number, value: number): void {
    this.level.set(pin, value);
    if (this.reading.has(pin)) this.report(pin);
  }

  private report(pin: number): void {
    this.io.emit(`digital-read-${pin}`, this.level.get(pin) ?? 1);
  }
}

/** A chain of 74HC165s on an emulated Arduino: switches to ground with pull-ups (closed = 0). */
class ShiftChain {
  /** Closed switches (occupied squares), by chain bit. */
  readonly closed: boolean[];
  private shift: number[] = [];
  loads = 0;
  /** Called at each parallel load, before the switches are latched. */
  onLoad: ((scan: number) => void) | null = null;

  constructor(
    arduino: Arduino,
    readonly pins: { load: number; clock: number; data: number; chips: number },
  ) {
    this.closed = new Array(pins.chips * 8).fill(false);
    let clock = 0;
    arduino.onWrite = (pin, value) => {
      if (pin === pins.load && value === 0) {
        this.onLoad?.(this.loads++);
        this.shift = this.closed.map((c) => (c ? 0 : 1));
      }
      if (pin === pins.clock) {
        if (value === 1 && clock === 0) this.shift.shift();
        clock = value;
      }
    };
    arduino.reportValue = (pin) => (pin === pins.data ? (this.shift[0] ?? 1) : 1);
  }
}

const GRID_PINS = (cols: number, rows: number, first = 22): FirmataPinMap =>
  parsePinMap({ cols, rows, cells: Array.from({ length: cols * rows }, (_, i) => first + i) });

const running: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** Starts the transport on `arduino`, playing the board's `ready`, and reads it with a BoardLink. */
async function start(arduino: Arduino, pins: FirmataPinMap, expectReads = 0): Promise<{ board: FirmataBoard; link: BoardLink; frames: GridMessage[] }> {
  const started = startFirmataBoard({ io: arduino.io, pins, id: 'T1', readyTimeoutMs: 1000 });
  arduino.io.emit('ready');
  const board = await started;
  const link = new BoardLink(board);
  running.push(link);
  const frames: GridMessage[] = [];
  link.on('grid', (g) => frames.push(g));
  expect(arduino.reading.size).toBe(expectReads);
  return { board, link, frames };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 5000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('pin maps', () => {
  test('reads a map of pins or of shift registers, and says what is wrong with a bad one', () => {
    expect(parsePinMap({ cols: 2, rows: 1, cells: [2, null] })).toEqual({ cols: 2, rows: 1, cells: [2, null], shiftIn: undefined, activeLow: true, id: undefined });
    expect(parsePinMap({ cols: 6, rows: 6, shiftIn: { load: 8, clock: 9, data: 10 }, activeLow: false }).shiftIn).toEqual({ load: 8, clock: 9, data: 10, chips: 5 });
    expect(() => parsePinMap({ cols: 2, rows: 2, cells: [2, 3, 4] })).toThrow(/must list 4 pins/);
    expect(() => parsePinMap({ cols: 2, rows: 1, cells: [2, 2] })).toThrow(/pin 2 is given for two squares/);
    expect(() => parsePinMap({ cols: 8, rows: 8, shiftIn: { load: 8, clock: 9, data: 10, chips: 7 } })).toThrow(/at least 8/);
    expect(() => parsePinMap({ cols: 2, rows: 1 })).toThrow(/either "cells"/);
    expect(() => parsePinMap({ cols: 2, rows: 1, cells: [2, 3], led: 4 })).toThrow(/unknown key "led"/);
  });
});

describe('switches on digital pins through johnny-five', () => {
  test('HELLO of a grid board, then G frames of the closed switches, at once on a change', async () => {
    const arduino = new Arduino();
    const pins = GRID_PINS(3, 2); // pins 22–27
    // Squares a1 and c2 hold pieces: their switches are closed (LOW through the pull-ups).
    for (let p = 22; p < 28; p++) arduino.level.set(p, 1);
    arduino.level.set(22, 0);
    arduino.level.set(27, 0);
    const { link, frames } = await start(arduino, pins, 6);
    const hello = await link.handshake({ timeoutMs: 1000 });
    expect(hello).toMatchObject({ board: 'grid', id: 'T1', cols: 3, rows: 2, sense: 'occupancy', proto: 1 });
    expect(hello.fw).toMatch(/^johnny-five\//);
    // Pull-ups on: johnny-five wrote the inputs HIGH... as inputs.
    expect(arduino.modes.get(22)).toBe(arduino.io.MODES.INPUT);

    await until(() => frames.length >= 2, 'scan frames');
    expect(frames[0].occupancy).toBe(0b100001n);
    // Consecutive seq, as a protocol board's.
    expect(frames[1].seq).toBe(frames[0].seq + 1);

    // The piece on a1 moves to b1.
    const before = frames.length;
    arduino.set(22, 1);
    arduino.set(23, 0);
    await until(() => frames.at(-1)!.occupancy === 0b100010n, 'the move in a frame');
    // Nothing in between but the two pictures of a hand at work (lifted, then put down).
    const seen = new Set(frames.slice(before).map((f) => f.occupancy));
    for (const bits of seen) expect([0b100001n, 0b100000n, 0b100010n]).toContain(bits);
    expect(link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });

  test('answers commands as protocol boards do', async () => {
    const arduino = new Arduino();
    const { link } = await start(arduino, GRID_PINS(1, 1), 1);
    await expect(link.request({ kind: 'rate', hz: 50 })).resolves.toMatchObject({ command: 'RATE 50' });
    await expect(link.request('RATE 99')).rejects.toThrow(/ERR range/);
    await expect(link.request({ kind: 'led', cell: 0, color: 'ff0000' })).rejects.toThrow(/ERR unsupported no LEDs/);
    await expect(link.request({ kind: 'tare' })).rejects.toThrow(/ERR unsupported/);
  });

  test('a pin the board cannot read fails loudly at start, naming it', async () => {
    const arduino = new Arduino(Pins.UNO);
    const started = startFirmataBoard({ io: arduino.io, pins: parsePinMap({ cols: 3, rows: 1, cells: [1, 2, 40] }), id: 'T', readyTimeoutMs: 1000 });
    arduino.io.emit('ready');
    const err = await started.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CapabilityError);
    expect((err as Error).message).toMatch(/pin 1 \(square 0\) cannot be an input \(pins 0 and 1 carry Firmata itself\)/);
    expect((err as Error).message).toMatch(/pin 40 \(square 2\) does not exist on this board \(it has 20 pins\)/);
  });

  test('switches that never report, or a board that never gets ready, fail at start', async () => {
    const silent = new Arduino();
    (silent.io as unknown as Record<string, unknown>).digitalRead = () => {};
    const started = startFirmataBoard({ io: silent.io, pins: GRID_PINS(2, 1), id: 'T', readyTimeoutMs: 200 });
    silent.io.emit('ready');
    await expect(started).rejects.toThrow(/no reading from the switches of squares 0, 1/);

    const asleep = new Arduino();
    await expect(startFirmataBoard({ io: asleep.io, pins: GRID_PINS(1, 1), id: 'T', readyTimeoutMs: 200 })).rejects.toThrow(/not ready within 200 ms/);
  });

  test('the Firmata board going away ends the line, and a SerialBoard reconnects it like a protocol board', async () => {
    // Ports whose every opening is a fresh mock Arduino with one closed switch.
    const arduinos: Arduino[] = [];
    let plugged = true;
    const ports: PortAccess = {
      list: async () => [{ path: 'mock/firmata', manufacturer: 'Arduino', vendorId: '2341', likelyBoard: true }],
      open: async (path) => {
        if (!plugged) throw new Error(`cannot open ${path}`);
        const arduino = new Arduino();
        arduino.level.set(22, 0);
        arduinos.push(arduino);
        const started = startFirmataBoard({ io: arduino.io, pins: GRID_PINS(2, 1), id: 'F1', readyTimeoutMs: 1000 });
        arduino.io.emit('ready');
        return started;
      },
    };
    const serial = await SerialBoard.open({ ports, path: 'mock/firmata', board: 'grid', backoff: { initialMs: 10, maxMs: 40 }, handshake: { timeoutMs: 500, retryMs: 50 } });
    running.push(serial);
    const states: LinkState[] = [];
    serial.on('state', (s) => states.push(s));
    const frames: GridMessage[] = [];
    serial.link.on('grid', (g) => frames.push(g));
    await until(() => frames.length > 0, 'a frame');
    expect(frames[0].occupancy).toBe(0b01n);

    plugged = false;
    arduinos[0].io.emit('disconnect');
    await until(() => serial.state === 'reconnecting', 'reconnecting');
    plugged = true;
    const heard = frames.length;
    await until(() => serial.state === 'live' && frames.length > heard, 'live again');
    expect(states).toEqual(['reconnecting', 'live']);
    expect(serial.stats().reconnects).toBe(1);
    expect(serial.hello).toMatchObject({ id: 'F1', board: 'grid' });
  });
});

describe('switches on 74HC165 shift registers, clocked through Firmata', () => {
  const chainPins = { load: 8, clock: 9, data: 10, chips: 2 };

  test('each scan reads the whole chain; the first bit out is cell 0', async () => {
    const arduino = new Arduino();
    const chain = new ShiftChain(arduino, chainPins);
    chain.closed[0] = chain.closed[5] = chain.closed[11] = true;
    const { link, frames } = await start(arduino, parsePinMap({ cols: 4, rows: 3, shiftIn: chainPins }));
    expect(arduino.modes.get(8)).toBe(arduino.io.MODES.OUTPUT);
    expect(arduino.modes.get(10)).toBe(arduino.io.MODES.INPUT);
    const hello = await link.handshake({ timeoutMs: 1000 });
    expect(hello).toMatchObject({ cols: 4, rows: 3 });
    await until(() => frames.length > 0, 'a frame');
    expect(frames[0].occupancy).toBe((1n << 0n) | (1n << 5n) | (1n << 11n));
    // Chain bits past the board's 12 squares are not squares.
    chain.closed[14] = true;
    chain.closed[5] = false;
    await until(() => frames.at(-1)!.occupancy === ((1n << 0n) | (1n << 11n)), 'the change');
  });

  test('a reading that lasts a single scan is a bounce, never a frame', async () => {
    const arduino = new Arduino();
    const chain = new ShiftChain(arduino, chainPins);
    const { frames } = await start(arduino, parsePinMap({ cols: 4, rows: 4, shiftIn: chainPins }));
    // From scan 5 on, square 3 bounces closed for one scan in every three; from scan 20 it stays closed.
    chain.onLoad = (scan) => {
      chain.closed[3] = scan >= 20 || (scan >= 5 && scan % 3 === 0);
    };
    await until(() => frames.some((f) => f.occupancy === 0b1000n), 'the switch closed for good');
    expect(chain.loads).toBeGreaterThan(20);
    const firstClosed = frames.findIndex((f) => f.occupancy !== 0n);
    expect(frames.slice(firstClosed).every((f) => f.occupancy === 0b1000n)).toBe(true);
    // The bounces were read (the scan saw them) but the frames never showed one.
    expect(chain.loads).toBeGreaterThanOrEqual(21);
  });

  test('an IO plugin without digital reporting cannot clock shift registers: fails at start', async () => {
    const arduino = new Arduino(Pins.MEGA, false);
    const started = startFirmataBoard({ io: arduino.io, pins: parsePinMap({ cols: 2, rows: 2, shiftIn: chainPins }), id: 'T', readyTimeoutMs: 500 });
    arduino.io.emit('ready');
    await expect(started).rejects.toThrow(/no reportDigitalPin\(\), needed to clock shift registers/);
  });

  test('shift registers that never answer fail at start', async () => {
    const arduino = new Arduino();
    (arduino.io as unknown as Record<string, unknown>).reportDigitalPin = () => {};
    const started = startFirmataBoard({ io: arduino.io, pins: parsePinMap({ cols: 2, rows: 2, shiftIn: chainPins }), id: 'T', readyTimeoutMs: 200 });
    arduino.io.emit('ready');
    await expect(started).rejects.toThrow(/shift registers did not answer: 0 of 16 shift-register bits/);
  });
});
