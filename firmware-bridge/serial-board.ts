// A board on a cable that may be pulled: one BoardLink that lives through lost ports (reconnecting with backoff), reboots and silences (a heartbeat watchdog).
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { findBoard, probePort, refusal, serialPorts, wrongBoards, type FoundBoard, type PortAccess, type WantedBoard } from './autodetect.ts';
import { GaplessClock } from './link-clock.ts';
import { BoardLink, DEFAULT_FRAME_LIMIT, type BoardLinkOptions, type HandshakeOptions, type LinkStats } from './link.ts';
import { PortRelay, closePort } from './port-relay.ts';
import type { HelloMessage } from './protocol.ts';

/**
 * What the pages are told of the link: `live` (frames or heartbeats within the watchdog time),
 * `not-responding` (the port is there but the board has been silent), `reconnecting` (the port
 * is gone; trying again with backoff), `wrong-board` (a board answered where this one was, but it
 * is another board: refused, its frames kept out of the game; still looking for this one).
 */
export const LINK_STATES = ['live', 'not-responding', 'reconnecting', 'wrong-board'] as const;
export type LinkState = (typeof LINK_STATES)[number];

export interface Backoff {
  /** Wait before the first try after a port is lost. Default 500 ms. */
  readonly initialMs: number;
  /** Longest wait between tries. Default 10 s. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 10_000 };
/** No heartbeat or frame for this long: the board is not responding. */
export const DEFAULT_WATCHDOG_MS = 3000;
/** Silent this long with its port still open: the port is closed and opened again (which resets an Arduino). */
export const DEFAULT_REOPEN_AFTER_MS = 10_000;

/** The wait before try `attempt` (0-based): doubling from `initialMs`, at most `maxMs`. */
export function backoffDelay(attempt: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
}

export interface SerialBoardOptions {
  /** The port; absent, the board is found by autodetection (and found again the same way after a reconnect). */
  readonly path?: string;
  /** The kind of board the game needs (`kalaha`, `grid`): another kind is refused. */
  readonly board?: string;
  /** How ports are listed and opened. Default: the machine's serial ports at 115200 baud. */
  readonly ports?: PortAccess;
  readonly handshake?: HandshakeOptions;
  readonly backoff?: Backoff;
  readonly watchdogMs?: number;
  /** See DEFAULT_REOPEN_AFTER_MS. */
  readonly reopenAfterMs?: number;
  /** A silence longer than this is cut out of the frames' clock (see GaplessClock). */
  readonly gapMs?: number;
  /** For the link: its clock (`stamp` is taken through the gapless clock), and its frame limit (default DEFAULT_FRAME_LIMIT). */
  readonly link?: BoardLinkOptions;
}

export interface SerialBoardEvents {
  state: [LinkState];
  /** The board answered again after its port was lost (on `path`, which may differ after autodetection). */
  reconnected: [hello: HelloMessage, path: string];
  /** The board restarted on a live link: a HELLO, and its frames' seq starting again. */
  rebooted: [HelloMessage];
  /** A try to reconnect failed; the next comes after `delayMs`. */
  retry: [error: Error, attempt: number, delayMs: number];
  /** Another board answered where this one was and was refused (`why` names both); told once until it changes. */
  refused: [why: string];
}

export interface SerialBoardStats extends LinkStats {
  /** Ports lost (cable pulled, device reset away) and found again. */
  readonly reconnects: number;
  /** Times the watchdog said the board was not responding. */
  readonly watchdogTrips: number;
  /** Silences cut out of the frames' clock. */
  readonly gapsCut: number;
  /** Commands written while no port was there. */
  readonly writesLost: number;
}

/**
 * The service's end of a real board. `link` stays the same BoardLink for the board's whole life,
 * whatever happens to the port under it, so the session fed by it never notices a reconnect
 * except as frames stopping and starting again: the referee resumes from the board's picture,
 * which protocol-1 frames always carry whole.
 *
 * A port found again is handshaken before any of its frames reach the link, and a board with
 * another id is refused, so a board swapped in while the cable was out never feeds the game.
 */
export class SerialBoard extends EventEmitter<SerialBoardEvents> {
  readonly link: BoardLink;
  private readonly relay: PortRelay;
  private readonly clock: GaplessClock;
  private readonly wanted: WantedBoard;
  private readonly backoff: Backoff;
  private readonly watchdogMs: number;
  private readonly reopenAfterMs: number;
  private currentPath: string;
  private currentState: LinkState = 'live';
  private firstHello: HelloMessage;
  private lastHello: HelloMessage;
  /**
   * A HELLO of this board was heard; whether it was a restart or an answer to a `HELLO?` (a late
   * one to the handshake's, say) shows in the next frame: a restart counts its frames from 0 again.
   */
  private helloPending = false;
  /** The seq of the last frame passed on from this port (-1: none yet). */
  private lastFrameSeq = -1;
  private lastHeard = Date.now();
  private watchdog: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private reconnects = 0;
  private trips = 0;
  /** The last refusal told (`refused`), so a board left plugged in is not told at every retry. */
  private lastRefusal: string | null = null;

  /** Finds (or opens) the board, handshakes, and starts reading. Rejects, saying why, when no board answers. */
  static async open(options: SerialBoardOptions = {}): Promise<SerialBoard> {
    const ports = options.ports ?? serialPorts();
    const wanted: WantedBoard = options.board === undefined ? {} : { board: options.board };
    const found = options.path !== undefined ? await probePort(ports, options.path, wanted, options.handshake) : await findBoard(ports, wanted, options.handshake);
    return new SerialBoard(found, ports, options);
  }

  private constructor(
    found: FoundBoard,
    private readonly ports: PortAccess,
    private readonly options: SerialBoardOptions,
  ) {
    super();
    this.firstHello = this.lastHello = found.hello;
    this.currentPath = found.path;
    this.wanted = { board: options.board ?? found.hello.board, id: found.hello.id };
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS;
    this.reopenAfterMs = Math.max(this.watchdogMs, options.reopenAfterMs ?? DEFAULT_REOPEN_AFTER_MS);
    this.clock = new GaplessClock(options.gapMs);
    const now = options.link?.now ?? Date.now;
    const source = options.link?.stamp ?? (() => now());
    this.relay = new PortRelay((port, err) => this.portLost(port, err));
    this.link = new BoardLink(this.relay, {
      frameLimit: DEFAULT_FRAME_LIMIT,
      ...options.link,
      now,
      stamp: (text) => {
        // A HELLO follows a restart or a new port: the silence before it is no time seen.
        if (text.startsWith('HELLO ')) this.clock.cut();
        return this.clock.at(source(text));
      },
    });
    const frame = (f: { readonly seq: number }): void => this.frameHeard(f.seq);
    this.link.on('weights', frame);
    this.link.on('grid', frame);
    this.link.on('counts', frame);
    this.link.on('heartbeat', () => this.heard());
    this.link.on('hello', (hello) => this.helloHeard(hello));
    this.attach(found);
  }

  get state(): LinkState {
    return this.currentState;
  }

  /** The board's latest HELLO. */
  get hello(): HelloMessage {
    return this.lastHello;
  }

  /** The port the board is on now (or was on, while reconnecting). */
  get path(): string {
    return this.currentPath;
  }

  stats(): SerialBoardStats {
    return {
      ...this.link.stats(),
      reconnects: this.reconnects,
      watchdogTrips: this.trips,
      gapsCut: this.clock.gaps,
      writesLost: this.relay.writesLost,
    };
  }

  /** Stops reconnecting and closes the port. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.stopWatchdog();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.link.close();
  }

  private attach(found: FoundBoard): void {
    this.currentPath = found.path;
    this.lastHello = found.hello;
    this.helloPending = false;
    this.lastFrameSeq = -1;
    this.clock.cut();
    // The HELLO the handshake consumed goes to the link too: it resets the seq counters (a board
    // that was re-plugged has rebooted) and tells listeners who is there.
    this.relay.attach(found.port, found.helloLine ? `${found.helloLine}\n` : undefined);
    this.lastHeard = Date.now();
    this.armWatchdog(this.watchdogMs);
  }

  private frameHeard(seq: number): void {
    if (this.helloPending) {
      this.helloPending = false;
      if (this.lastFrameSeq >= 0 && seq < this.lastFrameSeq) this.emit('rebooted', this.lastHello);
    }
    this.lastFrameSeq = seq;
    this.heard();
  }

  private heard(): void {
    this.lastHeard = Date.now();
    if (this.currentState !== 'live' && this.relay.attached) {
      this.setState('live');
      this.armWatchdog(this.watchdogMs);
    }
  }

  private helloHeard(hello: HelloMessage): void {
    this.lastHello = hello;
    if (hello.id !== this.firstHello.id || hello.board !== this.firstHello.board) {
      // Another board on the same port without the port closing (reflashed, or a hub that kept
      // the device): its frames are not this game's.
      const port = this.relay.detach();
      if (port) {
        void closePort(port);
        this.portLost(port, new Error(`board ${hello.id} (${hello.board}) said HELLO where board ${this.firstHello.id} was`), 'wrong-board');
        // Worded as the reconnect's probe of the same port words it, so a board left there is told once.
        this.refusedBoard(`${this.currentPath}: ${refusal(hello, this.wanted) ?? `board ${hello.id} answered; board ${this.firstHello.id} was playing`}`);
      }
      return;
    }
    this.helloPending = true;
  }

  private portLost(_port: Duplex, _err: Error | null, state: LinkState = 'reconnecting'): void {
    if (this.closing) return;
    void closePort(_port);
    this.stopWatchdog();
    this.clock.cut();
    this.setState(state);
    this.scheduleRetry(0);
  }

  private scheduleRetry(attempt: number): void {
    const delay = backoffDelay(attempt, this.backoff);
    this.retryTimer = setTimeout(() => void this.reconnect(attempt), delay);
  }

  private async reconnect(attempt: number): Promise<void> {
    this.retryTimer = null;
    let found: FoundBoard;
    try {
      const path = this.options.path;
      found = path !== undefined ? await probePort(this.ports, path, this.wanted, this.options.handshake) : await findBoard(this.ports, this.wanted, this.options.handshake);
    } catch (e) {
      if (this.closing) return;
      // Another board answering is told apart from no board at all: it needs a hand to swap the board back.
      const wrong = wrongBoards(e);
      if (wrong.length) this.refusedBoard(wrong.join('; '));
      else {
        this.lastRefusal = null;
        this.setState('reconnecting');
      }
      this.emit('retry', e as Error, attempt + 1, backoffDelay(attempt + 1, this.backoff));
      this.scheduleRetry(attempt + 1);
      return;
    }
    if (this.closing) {
      await closePort(found.port);
      return;
    }
    this.reconnects++;
    this.lastRefusal = null;
    // The game's own board answered: no longer a wrong one; its first frame makes the link live.
    if (this.currentState === 'wrong-board') this.setState('reconnecting');
    this.attach(found);
    this.emit('reconnected', found.hello, found.path);
  }

  private refusedBoard(why: string): void {
    this.setState('wrong-board');
    if (why === this.lastRefusal) return;
    this.lastRefusal = why;
    this.emit('refused', why);
  }

  private setState(state: LinkState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    if (state === 'not-responding') this.trips++;
    this.emit('state', state);
  }

  /** One timer, moved on only when it fires, so a frame costs a clock read and not a timer. */
  private armWatchdog(ms: number): void {
    this.stopWatchdog();
    this.watchdog = setTimeout(() => this.watchdogFired(), ms);
    this.watchdog.unref?.();
  }

  private watchdogFired(): void {
    this.watchdog = null;
    if (this.closing || !this.relay.attached) return;
    const silent = Date.now() - this.lastHeard;
    if (silent < this.watchdogMs) return this.armWatchdog(this.watchdogMs - silent);
    this.setState('not-responding');
    if (silent < this.reopenAfterMs) return this.armWatchdog(this.reopenAfterMs - silent);
    // Still silent, the port still open: a device that went without its port saying so, or a
    // hung firmware. Opening the port again finds out, and resets an Arduino.
    const port = this.relay.detach();
    if (port) this.portLost(port, new Error(`nothing heard for ${silent} ms`));
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }
}
