// An emulated board on the real bridge: the Uno's serial port as a byte Duplex under a BoardLink, run in slices of emulated time.
import { Duplex } from 'node:stream';
import { BoardLink, formatCommand, type BoardCommand, type OkMessage } from '../../firmware-bridge/index.ts';
import { CYCLES_PER_MS, type Uno } from './avr.ts';

/**
 * The service's end of the emulated UART, the way a SerialPort is the service's end of a real
 * one: what the service writes goes to the sketch's receiver at 115200 baud, what the sketch
 * transmits is readable here.
 */
export class EmulatedSerial extends Duplex {
  constructor(private readonly uno: Uno) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.uno.send(chunk);
    callback();
  }

  override _read(): void {}
}

/** One line the board sent, with the emulated time its `\n` left the UART. */
export interface SentLine {
  readonly t: number;
  readonly text: string;
}

export interface RunStats {
  readonly emulatedMs: number;
  /** Wall-clock time spent emulating (inflated when other processes share the cores). */
  readonly realMs: number;
  /** CPU time this process spent emulating, user and system. */
  readonly cpuMs: number;
  /** Emulated CPU cycles per second of CPU time, in MHz (16 means as fast as the real chip). */
  readonly effectiveMHz: number;
  /** Share of emulated time the sketch slept. */
  readonly asleep: number;
}

const SLICE_MS = 5;

/**
 * A sketch in an emulated Uno, talking to a BoardLink through `EmulatedSerial`. Nothing runs by
 * itself: `run` advances emulated time in slices and lets the event loop carry the bytes to the
 * bridge between slices. Lines carry the emulated time they were sent as `receivedAt`.
 */
export class EmulatedBoard {
  readonly serial: EmulatedSerial;
  readonly link: BoardLink;
  /** Every line the board transmitted, checked or not, in order. */
  readonly sent: SentLine[] = [];
  private pendingTx: number[] = [];
  private partial = '';
  private readonly unstamped: SentLine[] = [];
  private realMs = 0;
  private cpuMs = 0;
  private startCycles: number;
  private startExecuted: number;

  constructor(readonly uno: Uno) {
    this.serial = new EmulatedSerial(uno);
    uno.onTransmit((byte) => {
      this.pendingTx.push(byte);
      if (byte === 0x0a) {
        const line = { t: uno.ms, text: this.partial };
        this.sent.push(line);
        this.unstamped.push(line);
        this.partial = '';
      } else {
        this.partial += String.fromCharCode(byte);
      }
    });
    const stamp = (text: string): number => {
      while (this.unstamped.length > 0) {
        const next = this.unstamped.shift() as SentLine;
        if (next.text === text || next.text === `${text}\r`) return next.t;
      }
      return uno.ms;
    };
    this.link = new BoardLink(this.serial, { now: () => uno.ms, stamp });
    this.startCycles = uno.cpu.cycles;
    this.startExecuted = uno.executedCycles;
  }

  /** Emulated time, ms since power-on. */
  get ms(): number {
    return this.uno.ms;
  }

  /** Advances emulated time by `ms`. */
  async run(ms: number): Promise<void> {
    const end = this.uno.cpu.cycles + ms * CYCLES_PER_MS;
    while (this.uno.cpu.cycles < end) await this.slice(end);
  }

  /** Runs until `done()` holds, at most `limitMs` of emulated time; returns whether it held. */
  async runUntil(done: () => boolean, limitMs: number): Promise<boolean> {
    const end = this.uno.cpu.cycles + limitMs * CYCLES_PER_MS;
    while (!done()) {
      if (this.uno.cpu.cycles >= end) return false;
      await this.slice(end);
    }
    return true;
  }

  /** Sends a command and runs the board until it answers (`OK`, or `ERR` as a rejection). */
  async request(command: BoardCommand | string, limitMs = 500): Promise<OkMessage> {
    const body = typeof command === 'string' ? command : formatCommand(command);
    let outcome: { ok: OkMessage } | { err: unknown } | null = null;
    // The bridge's own timeout counts wall-clock time; emulated time is bounded by runUntil.
    this.link.request(body, 600_000).then(
      (ok) => (outcome = { ok }),
      (err: unknown) => (outcome = { err }),
    );
    await this.runUntil(() => outcome !== null, limitMs);
    const result = outcome as { ok: OkMessage } | { err: unknown } | null;
    if (result === null) throw new Error(`no answer to ${body} within ${limitMs} ms of emulated time`);
    if ('err' in result) throw result.err;
    return result.ok;
  }

  /** Lines sent since `t` (emulated ms), `*CS` included. */
  linesSince(t: number): string[] {
    return this.sent.filter((l) => l.t >= t).map((l) => l.text);
  }

  /** Emulation speed since this board was made. */
  stats(): RunStats {
    const cycles = this.uno.cpu.cycles - this.startCycles;
    const executed = this.uno.executedCycles - this.startExecuted;
    return {
      emulatedMs: cycles / CYCLES_PER_MS,
      realMs: this.realMs,
      cpuMs: this.cpuMs,
      effectiveMHz: this.cpuMs > 0 ? cycles / this.cpuMs / 1000 : 0,
      asleep: cycles > 0 ? 1 - executed / cycles : 0,
    };
  }

  async close(): Promise<void> {
    await this.link.close();
  }

  private async slice(end: number): Promise<void> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    this.uno.pumpRx();
    this.uno.runTo(Math.min(end, this.uno.cpu.cycles + SLICE_MS * CYCLES_PER_MS));
    const used = process.cpuUsage(cpu);
    this.cpuMs += (used.user + used.system) / 1000;
    this.realMs += performance.now() - started;
    if (this.pendingTx.length > 0) {
      this.serial.push(Buffer.from(this.pendingTx));
      this.pendingTx = [];
    }
    // Let the stream carry the bytes through the bridge (and the service write its commands).
    await new Promise((resolve) => setImmediate(resolve));
  }
}
