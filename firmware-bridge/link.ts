// BoardLink: one board on any byte Duplex (SerialPort, mock port, pseudo-terminal): handshake, typed events, commands, counters.
import { EventEmitter } from 'node:events';
import { read as fsRead } from 'node:fs';
import { promisify } from 'node:util';
import type { Duplex } from 'node:stream';
import type { SerialPortStream } from '@serialport/stream';
import { LineStream, type CheckedLine, type LineStreamStats } from './line-stream.ts';
import { openMockPort, type MockBoardPort } from './mock-port.ts';
import {
  PROTOCOL_VERSION,
  formatCommand,
  formatLine,
  type BoardCommand,
  type BoardErrorMessage,
  type ButtonMessage,
  type CountsMessage,
  type DropReason,
  type GridMessage,
  type HeartbeatMessage,
  type HelloMessage,
  type OkMessage,
  type WeightsMessage,
} from './protocol.ts';

export const DEFAULT_BAUD_RATE = 115200;

export interface BoardLinkEvents {
  hello: [HelloMessage];
  weights: [WeightsMessage];
  grid: [GridMessage];
  counts: [CountsMessage];
  button: [ButtonMessage];
  heartbeat: [HeartbeatMessage];
  /** `ERR` from the board. Emitted only while someone listens: a board fault must not crash the service. */
  error: [BoardErrorMessage];
  ok: [OkMessage];
  dropped: [DropReason];
  /** Every checked line as received (unknown types included): what a trace recorder writes. */
  line: [text: string, receivedAt: number];
  /** The stream closed or failed; the link is dead. */
  disconnect: [Error | null];
}

export interface BoardLinkOptions {
  /** Clock for `receivedAt` (ms). Default `Date.now`; a replay passes its own. */
  readonly now?: () => number;
  /** `receivedAt` from the line itself (see LineStreamOptions.stamp). */
  readonly stamp?: (text: string) => number;
  /**
   * Limits the frames (W, G, C) passed on, per kind; frames over the limit are counted and not
   * passed on. Absent: no limit. A board flooding frames would otherwise starve the settle stage,
   * whose window holds a bounded number of frames.
   */
  readonly frameLimit?: FrameLimit;
}

/** A token bucket: `perSecond` frames on the frames' clock, bursts of up to `burst`. */
export interface FrameLimit {
  readonly perSecond: number;
  readonly burst: number;
}

/**
 * Twice the fastest rate the protocol allows (50 frames a second, and one more on each change),
 * so a lawful board is never thinned, with bursts for frames a USB adapter delivers together;
 * and still few enough that the Kalaha settle window (64 frames) spans more than its 400 ms.
 */
export const DEFAULT_FRAME_LIMIT: FrameLimit = { perSecond: 100, burst: 10 };

export interface HandshakeOptions {
  /** Give up after this long. Default 3000 ms: an Arduino resets when its port opens and needs about 2 s to boot. */
  readonly timeoutMs?: number;
  /** Ask again this often, because a `HELLO?` sent while the board boots is lost. Default 500 ms. */
  readonly retryMs?: number;
}

export interface LinkStats extends LineStreamStats {
  readonly commandsSent: number;
  readonly hellos: number;
  readonly boardErrors: number;
  /** Good frames not passed on because they came faster than `frameLimit` allows (a flood). */
  readonly framesThinned: number;
}

export class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
}

/**
 * The service's end of one board. Depends only on a byte Duplex, never on a concrete port, so a
 * SerialPort, a MockBinding port and a pseudo-terminal are interchangeable.
 */
export class BoardLink extends EventEmitter<BoardLinkEvents> {
  private readonly lines: LineStream;
  private readonly now: () => number;
  private commands = 0;
  private hellos = 0;
  private boardErrors = 0;
  private lastHello: HelloMessage | null = null;
  private closed = false;
  private readonly frameLimit: FrameLimit | null;
  private thinned = 0;
  /** Per frame kind (weights, grid, counts): tokens left, and when they were last counted. */
  private readonly tokens = [0, 0, 0];
  private readonly tokensAt = [NaN, NaN, NaN];
  private readonly onStreamError = (err: Error): void => this.disconnected(err);
  private readonly onStreamClose = (): void => this.disconnected(null);

  constructor(
    readonly stream: Duplex,
    options: BoardLinkOptions = {},
  ) {
    super();
    this.now = options.now ?? Date.now;
    this.frameLimit = options.frameLimit ?? null;
    this.lines = new LineStream(options.stamp ? { now: this.now, stamp: options.stamp } : { now: this.now });
    this.lines.on('data', (checked: CheckedLine) => this.dispatch(checked));
    this.lines.on('dropped', (reason: DropReason) => this.emit('dropped', reason));
    stream.on('error', this.onStreamError);
    stream.on('close', this.onStreamClose);
    stream.pipe(this.lines);
  }

  /** The board's last HELLO, or null before the first. */
  get hello(): HelloMessage | null {
    return this.lastHello;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends `HELLO?` (again every `retryMs`) and resolves with the next HELLO. Rejects with a
   * HandshakeError that says what was heard when no HELLO comes, or when the board speaks another
   * protocol version.
   */
  handshake(options: HandshakeOptions = {}): Promise<HelloMessage> {
    const timeoutMs = options.timeoutMs ?? 3000;
    const retryMs = options.retryMs ?? 500;
    return new Promise<HelloMessage>((resolve, reject) => {
      let asked = 0;
      let retry: NodeJS.Timeout | undefined;
      const ask = (): void => {
        asked++;
        this.send({ kind: 'hello' });
        retry = setTimeout(ask, retryMs);
      };
      const cleanup = (): void => {
        clearTimeout(retry);
        clearTimeout(timer);
        this.off('hello', onHello);
        this.off('disconnect', onDisconnect);
      };
      const onHello = (hello: HelloMessage): void => {
        cleanup();
        if (hello.proto !== PROTOCOL_VERSION) {
          reject(new HandshakeError(`the board speaks protocol ${hello.proto}, this service speaks ${PROTOCOL_VERSION} (fw=${hello.fw})`));
        } else {
          resolve(hello);
        }
      };
      const onDisconnect = (err: Error | null): void => {
        cleanup();
        reject(new HandshakeError(`the port closed before the board said HELLO${err ? `: ${err.message}` : ''}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        const s = this.lines.stats();
        const dropped = s.dropped.checksum + s.dropped.malformed + s.dropped.overlong + s.dropped.nonAscii;
        const heard =
          s.linesOk + dropped === 0
            ? 'nothing at all was received: is the board connected, and is this its port?'
            : `${s.linesOk} good and ${dropped} bad lines were received: check the baud rate (${DEFAULT_BAUD_RATE}) and that the firmware speaks protocol ${PROTOCOL_VERSION}`;
        reject(new HandshakeError(`no HELLO from the board within ${timeoutMs} ms after asking ${asked} times; ${heard}`));
      }, timeoutMs);
      this.on('hello', onHello);
      this.on('disconnect', onDisconnect);
      if (this.closed) return onDisconnect(null);
      ask();
    });
  }

  /** Sends a command (or a raw body, for tools and tests). Returns false when the link is closed. */
  send(command: BoardCommand | string): boolean {
    if (this.closed || this.stream.destroyed) return false;
    const body = typeof command === 'string' ? command : formatCommand(command);
    this.commands++;
    this.stream.write(formatLine(body));
    return true;
  }

  /**
   * Sends a command and waits for the board's `OK <command>`. The board answers each command with
   * OK or ERR in order, so an ERR while this waits is taken as the refusal.
   */
  request(command: BoardCommand | string, timeoutMs = 1000): Promise<OkMessage> {
    const body = typeof command === 'string' ? command : formatCommand(command);
    return new Promise<OkMessage>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        this.off('ok', onOk);
        this.off('error', onErr);
      };
      const onOk = (ok: OkMessage): void => {
        if (ok.command !== body) return;
        cleanup();
        resolve(ok);
      };
      const onErr = (err: BoardErrorMessage): void => {
        cleanup();
        reject(new Error(`the board refused ${body}: ERR ${err.code} ${err.text}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no answer to ${body} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('ok', onOk);
      this.on('error', onErr);
      if (!this.send(body)) {
        cleanup();
        reject(new Error(`cannot send ${body}: the link is closed`));
      }
    });
  }

  stats(): LinkStats {
    return { ...this.lines.stats(), commandsSent: this.commands, hellos: this.hellos, boardErrors: this.boardErrors, framesThinned: this.thinned };
  }

  /**
   * Lets go of the stream without closing it, and ends this link (no `disconnect` event): the
   * stream, paused, can be handed on. A handshake on a fresh port uses a link for a moment this
   * way before the port joins a link that lives longer. Bytes this link had read but not yet
   * dispatched are lost with it.
   */
  release(): Duplex {
    this.stream.off('error', this.onStreamError);
    this.stream.off('close', this.onStreamClose);
    this.stream.unpipe(this.lines);
    this.stream.pause();
    this.lines.removeAllListeners('data');
    this.closed = true;
    return this.stream;
  }

  /** Stops reading and closes the stream (a SerialPort is closed, any other Duplex destroyed). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const stream = this.stream as Duplex & { close?: (cb: (err: Error | null) => void) => void; isOpen?: boolean };
    this.stream.unpipe(this.lines);
    return new Promise<void>((resolve) => {
      if (typeof stream.close === 'function' && stream.isOpen) {
        stream.close(() => resolve());
      } else {
        stream.destroy();
        resolve();
      }
    }).then(() => this.disconnected(null));
  }

  private dispatch(checked: CheckedLine): void {
    const m = checked.message;
    this.emit('line', checked.text, m ? m.receivedAt : this.now());
    if (m === null) return;
    switch (m.type) {
      case 'hello':
        this.hellos++;
        this.lastHello = m;
        this.emit('hello', m);
        break;
      case 'weights':
        if (this.passFrame(0, m.receivedAt)) this.emit('weights', m);
        break;
      case 'grid':
        if (this.passFrame(1, m.receivedAt)) this.emit('grid', m);
        break;
      case 'counts':
        if (this.passFrame(2, m.receivedAt)) this.emit('counts', m);
        break;
      case 'button':
        this.emit('button', m);
        break;
      case 'heartbeat':
        this.emit('heartbeat', m);
        break;
      case 'error':
        this.boardErrors++;
        if (this.listenerCount('error') > 0) this.emit('error', m);
        break;
      case 'ok':
        this.emit('ok', m);
        break;
      default:
        assertNever(m);
    }
  }

  private passFrame(kind: number, t: number): boolean {
    const limit = this.frameLimit;
    if (limit === null) return true;
    const last = this.tokensAt[kind];
    // A clock that stepped back (the wall clock set) adds no tokens and takes none away.
    const dt = Number.isNaN(last) ? Infinity : Math.max(0, t - last);
    this.tokensAt[kind] = Math.max(t, Number.isNaN(last) ? t : last);
    const tokens = Math.min(limit.burst, this.tokens[kind] + (dt * limit.perSecond) / 1000);
    if (tokens < 1) {
      this.tokens[kind] = tokens;
      this.thinned++;
      return false;
    }
    this.tokens[kind] = tokens - 1;
    return true;
  }

  private disconnected(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('disconnect', err);
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}

/** Opens a real serial port, 8N1 (serialport is loaded lazily, so tests and the simulator never load the native binding). */
export async function openSerialPort(path: string, baudRate = DEFAULT_BAUD_RATE): Promise<SerialPortStream> {
  const [{ SerialPortStream: Stream }, { autoDetect }] = await Promise.all([import('@serialport/stream'), import('@serialport/bindings-cpp')]);
  const port = new Stream({ binding: endOfFileIsDisconnect(autoDetect()), path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) =>
    port.open((err) => (err ? reject(new Error(`cannot open serial port ${path} at ${baudRate} baud: ${err.message}`)) : resolve())),
  );
  return port;
}

type Binding = ReturnType<typeof import('@serialport/bindings-cpp').autoDetect>;
type OpenPort = Awaited<ReturnType<Binding['open']>>;
const readFd = promisify(fsRead);

/**
 * The platform binding, except that a read of zero bytes is a disconnect. A tty whose device has
 * gone (a pulled USB cable, a pseudo-terminal whose other end closed) reads end-of-file; the
 * Unix binding of bindings-cpp 13 reads again at once, forever, so the port would spin and never
 * say it closed.
 */
function endOfFileIsDisconnect(binding: Binding): Binding {
  const open = binding.open.bind(binding);
  return {
    ...binding,
    list: binding.list.bind(binding),
    async open(options: Parameters<Binding['open']>[0]) {
      const port = (await open(options)) as OpenPort & { fd?: number | null; poller?: EventEmitter };
      if (typeof port.fd !== 'number' || !port.poller) return port; // not a Unix port
      const poller = port.poller;
      port.read = async (buffer: Buffer, offset: number, length: number) => {
        for (;;) {
          if (!port.isOpen || typeof port.fd !== 'number') throw Object.assign(new Error('Port is not open'), { canceled: true });
          try {
            const { bytesRead } = await readFd(port.fd, buffer, offset, length, null);
            if (bytesRead > 0) return { bytesRead, buffer };
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK' && code !== 'EINTR') throw e;
            if (!port.isOpen) throw Object.assign(new Error('Port is not open'), { canceled: true });
            await new Promise<void>((resolve, reject) => poller.once('readable', (err?: Error) => (err ? reject(err) : resolve())));
            continue;
          }
          throw Object.assign(new Error('the device is gone (end of file)'), { disconnect: true });
        }
      };
      return port;
    },
  } as Binding;
}

/** A BoardLink on a real serial port (no reconnecting: see SerialBoard for a link that survives a pulled cable). */
export async function openSerial(path: string, baudRate = DEFAULT_BAUD_RATE, options: BoardLinkOptions = {}): Promise<BoardLink> {
  return new BoardLink(await openSerialPort(path, baudRate), options);
}

/** USB vendor ids of Arduinos and the USB-serial chips on their clones. */
const ARDUINO_VENDOR_IDS = ['2341', '2a03', '1a86', '0403', '10c4'] as const;

export interface SerialPortCandidate {
  readonly path: string;
  readonly manufacturer: string | undefined;
  readonly vendorId: string | undefined;
  /** The vendor id is an Arduino's or a common USB-serial chip's. */
  readonly likelyBoard: boolean;
}

/** Serial ports on this machine, likely boards first (for autodetection and the setup page). */
export async function listSerialPorts(): Promise<SerialPortCandidate[]> {
  const { SerialPort } = await import('serialport');
  const ports = await SerialPort.list();
  return ports
    .map((p) => ({
      path: p.path,
      manufacturer: p.manufacturer,
      vendorId: p.vendorId,
      likelyBoard: p.vendorId !== undefined && (ARDUINO_VENDOR_IDS as readonly string[]).includes(p.vendorId.toLowerCase()),
    }))
    .sort((a, b) => Number(b.likelyBoard) - Number(a.likelyBoard));
}

export interface MockPair {
  readonly link: BoardLink;
  /** The board's end: `emit` bytes to the service, `onWrite` to hear its commands. */
  readonly board: MockBoardPort;
}

/** A BoardLink on a fresh MockBinding port, and the port's board end. */
export async function openMockPair(path?: string, options: BoardLinkOptions = {}): Promise<MockPair> {
  const board = await openMockPort(path);
  return { link: new BoardLink(board.stream, options), board };
}
