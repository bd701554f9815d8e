// Boards wired straight to an Arduino running StandardFirmata: johnny-five reads the switches, and this transport speaks the board line protocol for them.
//
// The transport is the board's end of a line: a Duplex that says HELLO, sends G frames at the
// scan rate and at once on change, heartbeats, and answers commands, exactly as a protocol board's
// firmware does. A BoardLink (or a SerialBoard, which then reconnects it like any board) reads it,
// so nothing after the bridge can tell the two kinds of board apart.
//
// Switches are read in one of two ways:
// - one digital pin per square, each a johnny-five Switch (debounced at the edge, changes only);
// - a chain of 74HC165 shift registers on three pins (load, clock, data), clocked through
//   Firmata. StandardFirmata has no shift-in, so each bit is read by asking for the data pin's
//   port at once (REPORT_DIGITAL on, which StandardFirmata 2.5 and later answers immediately,
//   then off), pipelined: one scan costs one round trip, not one per bit.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { Duplex } from 'node:stream';
import { LineFramer, type LineSink } from './line-stream.ts';
import { RATE_MAX_HZ, RATE_MIN_HZ, formatLine, parseCommand, tagOf, type DropReason } from './protocol.ts';
import { openSerialPort } from './link.ts';
import { serialPorts, type PortAccess } from './autodetect.ts';
import { closePort } from './port-relay.ts';

// ---------------------------------------------------------------------------------------------
// The pin map

/** How the switches of a square board are wired to the Arduino. */
export interface FirmataPinMap {
  readonly cols: number;
  readonly rows: number;
  /** One digital pin per square in cell order (row 0 = rank 1, col 0 = file a); null for a square without a switch. */
  readonly cells?: readonly (number | null)[];
  /** A chain of 74HC165s: the first bit shifted out is cell 0. */
  readonly shiftIn?: { readonly load: number; readonly clock: number; readonly data: number; readonly chips: number };
  /** A closed switch pulls its input to ground (the usual wiring, with pull-ups). Default true. */
  readonly activeLow: boolean;
  /** The board's id in HELLO; default `firmata-` and the port's name. */
  readonly id?: string;
}

/** The largest board a G frame may describe (as the protocol boards: 13 × 13). */
const MAX_SIDE = 13;

/** Checks a pin map read from JSON. Throws an Error that says what is wrong. */
export function parsePinMap(input: unknown): FirmataPinMap {
  const fail = (why: string): never => {
    throw new Error(`pin map: ${why}`);
  };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('must be a JSON object such as {"cols":6,"rows":6,"cells":[2,3,…]}');
  const m = input as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!['cols', 'rows', 'cells', 'shiftIn', 'activeLow', 'id'].includes(key)) fail(`unknown key "${key}"`);
  const side = (key: 'cols' | 'rows'): number => {
    const v = m[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_SIDE) fail(`"${key}" must be a whole number from 1 to ${MAX_SIDE}`);
    return v as number;
  };
  const cols = side('cols');
  const rows = side('rows');
  const pin = (v: unknown, what: string): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 127) fail(`${what} must be a pin number, not ${JSON.stringify(v)}`);
    return v as number;
  };
  if ((m.cells === undefined) === (m.shiftIn === undefined)) fail('give either "cells" (a pin per square) or "shiftIn" (74HC165s), not both or neither');
  let cells: (number | null)[] | undefined;
  let shiftIn: FirmataPinMap['shiftIn'];
  if (m.cells !== undefined) {
    if (!Array.isArray(m.cells) || m.cells.length !== cols * rows) fail(`"cells" must list ${cols * rows} pins (cols × rows), one per square, null for none`);
    cells = (m.cells as unknown[]).map((v, i) => (v === null ? null : pin(v, `cells[${i}]`)));
    const used = cells.filter((p): p is number => p !== null);
    const twice = used.find((p, i) => used.indexOf(p) !== i);
    if (twice !== undefined) fail(`pin ${twice} is given for two squares`);
  } else {
    const s = m.shiftIn as Record<string, unknown>;
    if (typeof s !== 'object' || s === null) fail('"shiftIn" must be {"load":…,"clock":…,"data":…,"chips":…}');
    const load = pin(s.load, 'shiftIn.load');
    const clock = pin(s.clock, 'shiftIn.clock');
    const data = pin(s.data, 'shiftIn.data');
    if (new Set([load, clock, data]).size !== 3) fail('shiftIn.load, .clock and .data must be three different pins');
    const chips = s.chips ?? Math.ceil((cols * rows) / 8);
    if (typeof chips !== 'number' || !Number.isInteger(chips) || chips < 1 || chips * 8 < cols * rows || chips > 22) fail(`shiftIn.chips must be enough for ${cols * rows} squares (at least ${Math.ceil((cols * rows) / 8)}), at most 22`);
    shiftIn = { load, clock, data, chips: chips as number };
  }
  if (m.activeLow !== undefined && typeof m.activeLow !== 'boolean') fail('"activeLow" must be true or false');
  if (m.id !== undefined && (typeof m.id !== 'string' || !/^[A-Za-z0-9._:-]{1,40}$/.test(m.id))) fail('"id" must be 1–40 letters, digits or ._:-');
  return { cols, rows, cells, shiftIn, activeLow: m.activeLow !== false, id: m.id as string | undefined };
}

// ---------------------------------------------------------------------------------------------
// What this transport needs of an IO plugin (firmata-io's Firmata, mock-firmata, any IO plugin)

export interface FirmataIO extends EventEmitter {
  readonly pins: readonly { readonly supportedModes: readonly number[] }[];
  readonly MODES: { readonly INPUT: number; readonly OUTPUT: number };
  readonly name?: string;
  readonly isReady?: boolean;
  pinMode(pin: number, mode: number): void;
  digitalWrite(pin: number, value: number): void;
  digitalRead(pin: number, callback: (value: number) => void): void;
  reportDigitalPin?(pin: number, value: 0 | 1): void;
  /** firmata-io: the serial port under it. */
  readonly transport?: unknown;
}

/** A missing capability the board needs: the transport refuses to start. */
export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
}

interface JohnnyFive {
  Board: new (options: Record<string, unknown>) => EventEmitter & { readonly io: FirmataIO };
  Switch: new (options: Record<string, unknown>) => EventEmitter & { readonly isClosed: boolean; readonly isOpen: boolean };
}

const require = createRequire(import.meta.url);
let five: JohnnyFive | null = null;
/** johnny-five, loaded on first use: serve without --transport firmata never loads it. */
function johnnyFive(): JohnnyFive {
  five ??= require('johnny-five') as JohnnyFive;
  return five;
}

const J5_VERSION = (() => {
  try {
    return (require('johnny-five/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

/** Pins 0 and 1 of an Arduino are its USB serial line, which Firmata itself talks over. */
function checkCapabilities(io: FirmataIO, pins: FirmataPinMap): void {
  const missing: string[] = [];
  for (const method of ['pinMode', 'digitalWrite', 'digitalRead'] as const) {
    if (typeof io[method] !== 'function') missing.push(`the IO plugin has no ${method}()`);
  }
  if (pins.shiftIn && typeof io.reportDigitalPin !== 'function') missing.push('the IO plugin has no reportDigitalPin(), needed to clock shift registers');
  const can = (pin: number, mode: number, what: string): void => {
    const modes = io.pins[pin]?.supportedModes;
    if (!modes) missing.push(`pin ${pin} (${what}) does not exist on this board (it has ${io.pins.length} pins)`);
    else if (!modes.includes(mode)) missing.push(`pin ${pin} (${what}) cannot be ${mode === io.MODES.INPUT ? 'an input' : 'an output'}${modes.length === 0 ? ' (pins 0 and 1 carry Firmata itself)' : ''}`);
  };
  if (pins.cells) pins.cells.forEach((pin, i) => pin !== null && can(pin, io.MODES.INPUT, `square ${i}`));
  if (pins.shiftIn) {
    can(pins.shiftIn.load, io.MODES.OUTPUT, 'shift load');
    can(pins.shiftIn.clock, io.MODES.OUTPUT, 'shift clock');
    can(pins.shiftIn.data, io.MODES.INPUT, 'shift data');
  }
  if (missing.length) throw new CapabilityError(`the Firmata board cannot read this pin map: ${missing.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Reading the switches

/** Reads every square's switch; calls back with the occupancy bits (bit i = cell i) whenever they change. */
interface SwitchReader {
  /** Resolves once every switch has been read once; rejects, saying which, when some never are. */
  start(onChange: (bits: bigint) => void, timeoutMs: number): Promise<bigint>;
  stop(): void;
}

/** One johnny-five Switch per square. */
class PinSwitches implements SwitchReader {
  private readonly switches: ((EventEmitter & { readonly isClosed: boolean; readonly isOpen: boolean }) | null)[];

  constructor(board: EventEmitter, cells: readonly (number | null)[], activeLow: boolean) {
    const { Switch } = johnnyFive();
    // "NO" with invert: a closed switch reads LOW through the pull-up johnny-five turns on.
    // "NC" without: a closed switch reads HIGH (pull-downs on the board), no pull-up.
    this.switches = cells.map((pin) => (pin === null ? null : new Switch({ pin, board, type: activeLow ? 'NO' : 'NC', invert: activeLow })));
  }

  private bits(): bigint {
    let bits = 0n;
    this.switches.forEach((s, i) => {
      if (s?.isClosed) bits |= 1n << BigInt(i);
    });
    return bits;
  }

  start(onChange: (bits: bigint) => void, timeoutMs: number): Promise<bigint> {
    const changed = (): void => onChange(this.bits());
    for (const s of this.switches) {
      s?.on('open', changed);
      s?.on('close', changed);
    }
    return new Promise<bigint>((resolve, reject) => {
      const started = Date.now();
      const check = (): void => {
        const silent = this.switches.flatMap((s, i) => (s && !s.isOpen && !s.isClosed ? [i] : []));
        if (silent.length === 0) return resolve(this.bits());
        if (Date.now() - started > timeoutMs) {
          return reject(new CapabilityError(`no reading from the switches of squares ${silent.join(', ')} within ${timeoutMs} ms: does the board run StandardFirmata, and are the pins right?`));
        }
        setTimeout(check, 5);
      };
      check();
    });
  }

  stop(): void {
    for (const s of this.switches) s?.removeAllListeners();
  }
}

/** A chain of 74HC165s clocked through Firmata. A square's new reading counts once two scans agree. */
class ShiftInChain implements SwitchReader {
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private confirmed = 0n;
  private candidate = -1n;
  /** Scans that timed out (a reply lost): reported as ERR lines by the board. */
  onFault: ((text: string) => void) | null = null;

  constructor(
    private readonly io: FirmataIO,
    private readonly chain: NonNullable<FirmataPinMap['shiftIn']>,
    private readonly cells: number,
    private readonly activeLow: boolean,
  ) {
    io.pinMode(chain.load, io.MODES.OUTPUT);
    io.pinMode(chain.clock, io.MODES.OUTPUT);
    io.pinMode(chain.data, io.MODES.INPUT);
    io.digitalWrite(chain.clock, 0);
    io.digitalWrite(chain.load, 1);
  }

  /** One pass over the chain: the bits in the order they are shifted out. */
  scan(timeoutMs: number): Promise<bigint> {
    const { io, chain } = this;
    const n = chain.chips * 8;
    return new Promise<bigint>((resolve, reject) => {
      let got = 0;
      let bits = 0n;
      const event = `digital-read-${chain.data}`;
      const onBit = (value: number): void => {
        const occupied = this.activeLow ? value === 0 : value === 1;
        if (occupied && got < this.cells) bits |= 1n << BigInt(got);
        if (++got === n) {
          clearTimeout(timer);
          io.off(event, onBit);
          resolve(bits);
        }
      };
      const timer = setTimeout(() => {
        io.off(event, onBit);
        reject(new Error(`${got} of ${n} shift-register bits answered within ${timeoutMs} ms`));
      }, timeoutMs);
      io.on(event, onBit);
      // Load the switches into the chain, then read and clock out one bit at a time.
      io.digitalWrite(chain.load, 0);
      io.digitalWrite(chain.load, 1);
      for (let i = 0; i < n; i++) {
        io.reportDigitalPin!(chain.data, 1);
        io.reportDigitalPin!(chain.data, 0);
        io.digitalWrite(chain.clock, 1);
        io.digitalWrite(chain.clock, 0);
      }
    });
  }

  async start(onChange: (bits: bigint) => void, timeoutMs: number): Promise<bigint> {
    let first: bigint;
    try {
      first = await this.scan(timeoutMs);
    } catch (e) {
      throw new CapabilityError(`the shift registers did not answer: ${(e as Error).message}; StandardFirmata 2.5 or later is needed, and load/clock/data on the right pins`);
    }
    this.confirmed = this.candidate = first;
    const loop = async (): Promise<void> => {
      if (this.stopped) return;
      try {
        const bits = await this.scan(1000);
        if (bits === this.candidate && bits !== this.confirmed) {
          this.confirmed = bits;
          onChange(bits);
        }
        this.candidate = bits;
      } catch (e) {
        this.onFault?.((e as Error).message);
      }
      if (!this.stopped) this.timer = setTimeout(() => void loop(), 5);
    };
    this.timer = setTimeout(() => void loop(), 5);
    return first;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------
// The board's end of the line

export interface FirmataBoardOptions {
  readonly io: FirmataIO;
  readonly pins: FirmataPinMap;
  /** The id in HELLO. */
  readonly id: string;
  /** Frames per second until a RATE command. Default 20, as protocol boards. */
  readonly rateHz?: number;
  /** How long the board may take to be ready and to report every switch. Default 10 s (an Arduino boots for about 2 s). */
  readonly readyTimeoutMs?: number;
  /** Called when the transport ends, to release what is under the IO plugin (the serial port). */
  readonly release?: () => Promise<void>;
}

/**
 * The board line protocol spoken for switches read through johnny-five. Read its bytes with a
 * BoardLink; write commands to it. Ends (emits `close`) when the Firmata board goes away.
 */
export class FirmataBoard extends Duplex implements LineSink {
  private readonly framer = new LineFramer();
  private occupancy = 0n;
  private seq = 0;
  private heartbeatSeq = 0;
  private periodMs: number;
  private frameTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly bootAt = Date.now();
  private readonly hello: string;

  /** @internal use startFirmataBoard */
  constructor(
    private readonly reader: SwitchReader,
    private readonly options: FirmataBoardOptions,
    first: bigint,
  ) {
    super();
    const { cols, rows } = options.pins;
    this.hello = `HELLO proto=1 fw=johnny-five/${J5_VERSION} board=grid id=${options.id} cols=${cols} rows=${rows} sense=occupancy`;
    this.periodMs = Math.round(1000 / (options.rateHz ?? 20));
    this.occupancy = first;
    this.say(this.hello);
    this.scheduleFrame();
    this.heartbeat = setInterval(() => {
      this.say(`HB ${this.heartbeatSeq} ${Date.now() - this.bootAt}`);
      this.heartbeatSeq = (this.heartbeatSeq + 1) >>> 0;
    }, 1000);
    const gone = (): void => {
      if (!this.destroyed) this.destroy();
    };
    options.io.on('close', gone);
    options.io.on('disconnect', gone);
    options.io.on('error', gone);
  }

  /** The switches changed: a frame at once, as protocol boards send on change. */
  changed(bits: bigint): void {
    if (bits === this.occupancy) return;
    this.occupancy = bits;
    this.frame();
    this.scheduleFrame();
  }

  /** Occupancy as the last frame said it. */
  get bits(): bigint {
    return this.occupancy;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.framer.push(chunk, this);
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.frameTimer) clearTimeout(this.frameTimer);
    clearInterval(this.heartbeat);
    this.reader.stop();
    const release = this.options.release ?? (() => Promise.resolve());
    release().then(
      () => callback(err),
      () => callback(err),
    );
  }

  /** @internal LineSink: a command from the service. */
  acceptLine(text: string, bodyEnd: number): void {
    const body = text.slice(0, bodyEnd);
    const command = parseCommand(body);
    if (command === 'unknown-type') return this.say(`ERR unknown ${tagOf(body)}`);
    if (command === 'malformed') return this.say(`ERR syntax ${body}`);
    switch (command.kind) {
      case 'hello':
        return this.say(this.hello);
      case 'rate':
        if (command.hz < RATE_MIN_HZ || command.hz > RATE_MAX_HZ) return this.say(`ERR range rate must be ${RATE_MIN_HZ}-${RATE_MAX_HZ}`);
        this.periodMs = Math.round(1000 / command.hz);
        this.scheduleFrame();
        return this.say(`OK ${body}`);
      case 'tare':
        return this.say('ERR unsupported switches need no tare');
      case 'led':
      case 'leds-off':
        return this.say('ERR unsupported no LEDs on this board');
      default:
        return assertNever(command);
    }
  }

  /** @internal LineSink */
  dropLine(reason: DropReason): void {
    this.say(`ERR ${reason} line dropped`);
  }

  /** @internal LineSink */
  blankLine(): void {}

  /** A line from the board (for faults the reader reports). */
  report(code: string, text: string): void {
    this.say(`ERR ${code} ${text.replace(/[^ -)+-~]/g, '?').slice(0, 200)}`);
  }

  private say(body: string): void {
    if (!this.destroyed) this.push(formatLine(body));
  }

  private frame(): void {
    this.say(`G ${this.seq} ${this.occupancy.toString(16).toUpperCase()}`);
    this.seq = (this.seq + 1) >>> 0;
  }

  private scheduleFrame(): void {
    if (this.frameTimer) clearTimeout(this.frameTimer);
    this.frameTimer = setTimeout(() => {
      this.frame();
      this.scheduleFrame();
    }, this.periodMs);
  }
}

/**
 * Starts johnny-five on `io`, checks that the board can read the pin map (a missing pin or
 * mode fails here, loudly, naming it), reads every switch once, and resolves with the board's
 * end of the line, which has already said HELLO.
 */
export async function startFirmataBoard(options: FirmataBoardOptions): Promise<FirmataBoard> {
  const { io, pins } = options;
  const timeoutMs = options.readyTimeoutMs ?? 10_000;
  const { Board } = johnnyFive();
  const board = new Board({ io, repl: false, debug: false, sigint: false, timeout: timeoutMs });
  // Errors of the port under the board end the line (FirmataBoard listens); johnny-five passes
  // them on as its own `error` events, which must not go unheard and crash the service.
  let failed: ((err: Error) => void) | null = null;
  const onError = (err: unknown): void => failed?.(err instanceof Error ? err : new Error(String(err)));
  io.on('error', onError);
  board.on('error', onError);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CapabilityError(`the Firmata board was not ready within ${timeoutMs} ms: does it run StandardFirmata, at 57600 baud?`)), timeoutMs);
    board.once('ready', () => {
      clearTimeout(timer);
      failed = null;
      resolve();
    });
    failed = (err) => {
      clearTimeout(timer);
      reject(new CapabilityError(`the Firmata board failed to start: ${err.message}`));
    };
    // firmata-io says `connect` when it opens its port; a port opened before it was handed over
    // never does, and johnny-five waits for it.
    io.emit('connect');
  });
  checkCapabilities(io, pins);
  const cells = pins.cols * pins.rows;
  const reader: SwitchReader = pins.cells ? new PinSwitches(board, pins.cells, pins.activeLow) : new ShiftInChain(io, pins.shiftIn!, cells, pins.activeLow);
  let line: FirmataBoard | null = null;
  const first = await reader.start((bits) => line?.changed(bits), timeoutMs);
  line = new FirmataBoard(reader, options, first);
  if (reader instanceof ShiftInChain) reader.onFault = (text) => line?.report('shift-in', text);
  return line;
}

/** StandardFirmata's default baud rate. */
export const FIRMATA_BAUD_RATE = 57600;

/** firmata-io's Firmata class, which johnny-five uses for Arduinos; reached through johnny-five's own dependencies. */
function firmataClass(): new (port: unknown, options?: Record<string, unknown>) => FirmataIO {
  const fromFive = createRequire(require.resolve('johnny-five'));
  const fromFirmata = createRequire(fromFive.resolve('firmata'));
  return (fromFirmata('firmata-io') as { Firmata: new (port: unknown, options?: Record<string, unknown>) => FirmataIO }).Firmata;
}

/**
 * Ports whose boards are read through Firmata: opening a path opens the serial port at 57600
 * baud, starts johnny-five on it, and gives the protocol line for its switches. A SerialBoard on
 * these ports reconnects a Firmata board like any other.
 */
export function firmataPorts(pins: FirmataPinMap, options: { readonly baudRate?: number; readonly readyTimeoutMs?: number } = {}): PortAccess {
  const serial = serialPorts(options.baudRate ?? FIRMATA_BAUD_RATE);
  return {
    list: () => serial.list(),
    open: async (path) => {
      const port = await openSerialPort(path, options.baudRate ?? FIRMATA_BAUD_RATE);
      const Firmata = firmataClass();
      const io = new Firmata(port, { reportVersionTimeout: 3000 });
      try {
        return await startFirmataBoard({
          io,
          pins,
          id: pins.id ?? `firmata-${basename(path).replace(/[^A-Za-z0-9._:-]/g, '_')}`,
          readyTimeoutMs: options.readyTimeoutMs,
          release: () => closePort(port),
        });
      } catch (e) {
        await closePort(port);
        throw e;
      }
    },
  };
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
