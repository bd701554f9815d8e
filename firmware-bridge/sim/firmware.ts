// What every simulated board shares: the firmware (HELLO, frames at the scan rate, heartbeats, answers to commands) and a hand that works through a script of physical actions in virtual time.
import { LineFramer, type LineSink } from '../line-stream.ts';
import { RATE_MAX_HZ, RATE_MIN_HZ, formatLine, parseCommand, tagOf, type BoardKind, type DropReason } from '../protocol.ts';
import type { Scheduled, Scheduler } from './clock.ts';
import type { Random } from './random.ts';

/** Where a board's lines go: the protocol line (no terminator) and the virtual time it was sent. */
export type LineOut = (line: string, t: number) => void;

/** What the firmware of every simulated board can be told at power-on. */
export interface FirmwareOptions {
  readonly seed: number | string;
  /** Frames per second until a `RATE` command says otherwise. */
  readonly rateHz?: number;
  readonly heartbeatMs?: number;
  readonly firmware?: string;
  readonly boardId?: string;
  /** Board answers `LED` commands (LEDs under its cells); without, it answers `ERR unsupported`. */
  readonly leds?: boolean;
}

/** What a board says about itself in `HELLO`, and how it names itself in error answers. */
export interface FirmwareIdentity {
  readonly board: BoardKind;
  readonly cells: number;
  /** The HELLO fields after `id=`: `cells=14`, `cols=6 rows=6 sense=occupancy`. */
  readonly shape: string;
  /** `table`, `board`: the word in `ERR unsupported no LEDs on this …`. */
  readonly noun: string;
}

/** How long a human takes to decide: `thinkMs`, now and then a longer pause (talks, looks away). Ranges are [min, max], uniform. */
export interface ThinkingModel {
  readonly thinkMs: readonly [number, number];
  readonly pauseProbability: number;
  readonly pauseMs: readonly [number, number];
}

/** Actions every board's script knows. */
export type CommonAction =
  | { readonly kind: 'wait'; readonly ms: number }
  /** A human deciding: `thinkMs`, now and then a longer pause. */
  | { readonly kind: 'think' }
  /** Zero-time: reports the virtual time it is reached (ground truth for generated traces). */
  | { readonly kind: 'mark'; readonly label: string };

const PROTOCOL_LINE_LATENCY_MS = 2;

/**
 * The firmware and the script runner of a simulated board. A subclass owns the physics: what a
 * frame reads (`frameBody`), what `TARE` does, and how each physical action plays out (`act`,
 * which returns the action's duration). Time is the scheduler's virtual clock.
 */
export abstract class SimulatedFirmware<Action extends { readonly kind: string }> implements LineSink {
  /** Script problems (taking from an empty cell, putting from an empty hand): counted, never thrown, so a live demo survives them. */
  faults = 0;
  /** Called when a `mark` action is reached. */
  onMark: ((label: string, t: number) => void) | null = null;

  protected readonly leds: string[];
  /** When the board was powered on (virtual ms): heartbeats count uptime from it, drift grows from it. */
  protected bootTime = 0;

  private readonly framer = new LineFramer();
  private readonly queue: Action[] = [];
  private readonly doneCallbacks: (() => void)[] = [];
  private acting = false;
  private frameTimer: Scheduled | null = null;
  private heartbeatTimer: Scheduled | null = null;
  private floodTimer: Scheduled | null = null;
  /** Counts reboots, so a reboot's delayed boot is skipped when another reboot or a shutdown came since. */
  private boots = 0;
  private seq = 0;
  private heartbeatSeq = 0;
  private periodMs: number;
  private booted = false;

  constructor(
    protected readonly scheduler: Scheduler,
    private readonly firmwareOptions: FirmwareOptions,
    private readonly out: LineOut,
    private readonly identity: FirmwareIdentity,
  ) {
    this.periodMs = Math.round(1000 / (firmwareOptions.rateHz ?? 20));
    this.leds = new Array<string>(identity.cells).fill('off');
  }

  /** What one frame says now (`W …`, `G …`, `C …`), given its `seq`; called at the scan rate. */
  protected abstract frameBody(seq: number, t: number): string;

  /** Carries out `TARE` (all cells, or one) and returns the answer's body. */
  protected abstract tare(cell: number | undefined, command: string): string;

  /** Starts one physical action; returns its duration in ms. */
  protected abstract act(action: Action): number;

  // -------------------------------------------------------------------------------------------
  // The firmware

  /** Power on: HELLO, then frames at the scan rate and a heartbeat every second. */
  boot(): void {
    if (this.booted) return;
    this.booted = true;
    this.bootTime = this.scheduler.now;
    this.sendHello();
    this.scheduleFrame(this.scheduler.now);
    this.scheduleHeartbeat(this.scheduler.now + (this.firmwareOptions.heartbeatMs ?? 1000));
  }

  /**
   * The firmware restarts (reset button, brown-out, the port opened with DTR): silent for
   * `downMs`, then HELLO and frames and heartbeats counting from 0 again at the default rate, LEDs
   * off. The physical board and the hand's script carry on meanwhile.
   */
  reboot(downMs = 1500): void {
    this.booted = false;
    this.frameTimer?.cancel();
    this.heartbeatTimer?.cancel();
    this.floodTimer?.cancel();
    this.framer.reset();
    const boot = ++this.boots;
    this.scheduler.after(downMs, () => {
      if (boot !== this.boots) return;
      this.seq = 0;
      this.heartbeatSeq = 0;
      this.periodMs = Math.round(1000 / (this.firmwareOptions.rateHz ?? 20));
      this.leds.fill('off');
      this.boot();
    });
  }

  /**
   * A firmware fault: besides its scan, the board sends extra frames at `linesPerSecond` (of its
   * own clock) for `ms`, each a true frame with its own seq. Lines per ms are spread evenly.
   */
  flood(linesPerSecond: number, ms: number): void {
    this.floodTimer?.cancel();
    const end = this.scheduler.now + ms;
    let owed = 0;
    const tick = (): void => {
      if (!this.booted || this.scheduler.now >= end) return;
      owed += linesPerSecond / 1000;
      for (; owed >= 1; owed--) this.sendFrame();
      this.floodTimer = this.scheduler.after(1, tick);
    };
    tick();
  }

  /** Power off: no more lines (the script, if any, stops too). */
  shutdown(): void {
    this.booted = false;
    this.boots++;
    this.frameTimer?.cancel();
    this.heartbeatTimer?.cancel();
    this.floodTimer?.cancel();
    this.queue.length = 0;
  }

  /** Bytes the service wrote to the board. */
  receive(bytes: Buffer): void {
    this.framer.push(bytes, this);
  }

  /** @internal LineSink: a checked command line. */
  acceptLine(text: string, bodyEnd: number): void {
    const body = text.slice(0, bodyEnd);
    const command = parseCommand(body);
    if (command === 'unknown-type') return this.reply(`ERR unknown ${tagOf(body)}`);
    if (command === 'malformed') return this.reply(`ERR syntax ${body}`);
    const cells = this.identity.cells;
    switch (command.kind) {
      case 'hello':
        return this.later(() => this.sendHello());
      case 'tare':
        return this.reply(this.tare(command.cell, body));
      case 'rate':
        if (command.hz < RATE_MIN_HZ || command.hz > RATE_MAX_HZ) return this.reply(`ERR range rate must be ${RATE_MIN_HZ}-${RATE_MAX_HZ}`);
        this.periodMs = Math.round(1000 / command.hz);
        if (this.booted) {
          this.frameTimer?.cancel();
          this.scheduleFrame(this.scheduler.now + this.periodMs);
        }
        return this.reply(`OK ${body}`);
      case 'led':
        if (!(this.firmwareOptions.leds ?? true)) return this.reply(`ERR unsupported no LEDs on this ${this.identity.noun}`);
        if (command.cell >= cells) return this.reply(`ERR range cell must be 0-${cells - 1}`);
        this.leds[command.cell] = command.color;
        return this.reply(`OK ${body}`);
      case 'leds-off':
        if (!(this.firmwareOptions.leds ?? true)) return this.reply(`ERR unsupported no LEDs on this ${this.identity.noun}`);
        this.leds.fill('off');
        return this.reply(`OK ${body}`);
      default:
        return assertNever(command);
    }
  }

  /** @internal LineSink */
  dropLine(reason: DropReason): void {
    this.reply(`ERR ${reason} line dropped`);
  }

  /** @internal LineSink */
  blankLine(): void {}

  /** The LED state per cell (`rrggbb` or `off`). */
  ledColors(): readonly string[] {
    return this.leds.slice();
  }

  get frameRateHz(): number {
    return 1000 / this.periodMs;
  }

  /** Milliseconds between frames at the current rate. */
  protected get framePeriodMs(): number {
    return this.periodMs;
  }

  /** Sends a line now (a board event such as `BTN ok`), if the board is on. */
  protected send(body: string): void {
    const line = formatLine(body);
    this.out(line.slice(0, -1), this.scheduler.now);
  }

  /** Sends a line after the firmware's reaction time, unless the board was switched off meanwhile. */
  protected sendSoon(body: string): void {
    this.later(() => this.send(body));
  }

  private reply(body: string): void {
    this.sendSoon(body);
  }

  private later(fn: () => void): void {
    this.scheduler.after(PROTOCOL_LINE_LATENCY_MS, () => {
      if (this.booted) fn();
    });
  }

  private sendHello(): void {
    const fw = this.firmwareOptions.firmware ?? 'spieltisch-sim/1.0';
    const id = this.firmwareOptions.boardId ?? `SIM-${String(this.firmwareOptions.seed).replace(/[^A-Za-z0-9_-]/g, '_')}`;
    this.send(`HELLO proto=1 fw=${fw} board=${this.identity.board} id=${id} ${this.identity.shape}`);
  }

  private scheduleFrame(t: number): void {
    this.frameTimer = this.scheduler.at(t, () => {
      this.sendFrame();
      this.scheduleFrame(this.scheduler.now + this.periodMs);
    });
  }

  private scheduleHeartbeat(t: number): void {
    this.heartbeatTimer = this.scheduler.at(t, () => {
      this.send(`HB ${this.heartbeatSeq} ${Math.round(this.scheduler.now - this.bootTime)}`);
      this.heartbeatSeq = (this.heartbeatSeq + 1) >>> 0;
      this.scheduleHeartbeat(this.scheduler.now + (this.firmwareOptions.heartbeatMs ?? 1000));
    });
  }

  private sendFrame(): void {
    const body = this.frameBody(this.seq, this.scheduler.now);
    this.seq = (this.seq + 1) >>> 0;
    this.send(body);
  }

  // -------------------------------------------------------------------------------------------
  // The hand

  /** Appends physical actions to the script; `onDone` runs when the board has performed them all. */
  perform(actions: readonly Action[], onDone?: () => void): void {
    this.queue.push(...actions);
    if (onDone) this.doneCallbacks.push(onDone);
    if (!this.acting) this.nextAction();
  }

  /** Whether the hand is still working through its script. */
  get busy(): boolean {
    return this.acting;
  }

  private nextAction(): void {
    const action = this.queue.shift();
    if (action === undefined) {
      this.acting = false;
      for (const done of this.doneCallbacks.splice(0)) done();
      return;
    }
    this.acting = true;
    const ms = Math.max(0, Math.round(this.act(action)));
    this.scheduler.after(ms, () => this.nextAction());
  }

  /** The duration of a `think`: drawn from the model, now and then a longer pause. */
  protected thinkingMs(model: ThinkingModel, rng: Random): number {
    return rng.chance(model.pauseProbability) ? rng.range(model.pauseMs[0], model.pauseMs[1]) : rng.range(model.thinkMs[0], model.thinkMs[1]);
  }

  /** A `mark` reached now. */
  protected reachMark(label: string): void {
    this.onMark?.(label, this.scheduler.now);
  }

  /** Runs `fn` `ms` into the action under way (whole ms, as the scheduler runs). */
  protected at(ms: number, fn: () => void): void {
    this.scheduler.after(Math.round(ms), fn);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
