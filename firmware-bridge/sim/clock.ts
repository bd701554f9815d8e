// Time for simulators: a discrete-event scheduler on a virtual clock, and a driver that runs it in real time at a speed factor.

export interface Scheduled {
  readonly t: number;
  cancel(): void;
}

interface Entry {
  t: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * Events on a virtual millisecond clock, run in time order (ties in the order they were
 * scheduled, so a run is deterministic). Nothing here reads the wall clock: running it as fast
 * as possible (`runUntil`) generates a trace; `RealTimeDriver` paces it for a live demo.
 */
export class Scheduler {
  private readonly heap: Entry[] = [];
  private order = 0;
  private current = 0;
  /** Called when a newly scheduled event becomes the earliest one, so a real-time driver can re-arm. */
  onEarliestChanged: (() => void) | null = null;

  get now(): number {
    return this.current;
  }

  /** Runs `fn` at virtual time `t` (a time in the past means now). */
  at(t: number, fn: () => void): Scheduled {
    const entry: Entry = { t: Math.max(t, this.current), order: this.order++, fn, cancelled: false };
    this.pushEntry(entry);
    if (this.heap[0] === entry) this.onEarliestChanged?.();
    return {
      t: entry.t,
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  after(ms: number, fn: () => void): Scheduled {
    return this.at(this.current + Math.max(0, ms), fn);
  }

  /** Time of the next event, Infinity when there is none. */
  nextTime(): number {
    this.dropCancelled();
    return this.heap.length > 0 ? this.heap[0].t : Infinity;
  }

  get pending(): number {
    this.dropCancelled();
    return this.heap.length;
  }

  /** Runs every event due at or before `t`, then sets the clock to `t`. Returns how many ran. */
  runUntil(t: number): number {
    let ran = 0;
    while (true) {
      this.dropCancelled();
      const head = this.heap[0];
      if (head === undefined || head.t > t) break;
      this.popEntry();
      this.current = head.t;
      ran++;
      head.fn();
    }
    if (t > this.current) this.current = t;
    return ran;
  }

  /** Runs until `done()` holds, in steps of `stepMs`, at most until `limit`. Returns whether `done()` held. */
  runWhile(busy: () => boolean, limit: number, stepMs = 100): boolean {
    while (busy()) {
      if (this.current >= limit) return false;
      this.runUntil(Math.min(limit, this.current + stepMs));
    }
    return true;
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && this.heap[0].cancelled) this.popEntry();
  }

  private static before(x: Entry, y: Entry): boolean {
    return x.t < y.t || (x.t === y.t && x.order < y.order);
  }

  private pushEntry(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!Scheduler.before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private popEntry(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let i = 0;
      while (true) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && Scheduler.before(h[l], h[m])) m = l;
        if (r < h.length && Scheduler.before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

/** The wall clock a driver paces itself by; injectable so tests need not wait. */
export interface WallClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: WallClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs a scheduler in real time, `speed` virtual ms per wall ms, with one timer armed for the
 * next event (no setInterval: an idle simulation costs nothing, and a fast one is not limited by
 * a fixed tick).
 */
export class RealTimeDriver {
  private virtualAnchor = 0;
  private wallAnchor = 0;
  private timer: unknown = null;
  private armedFor = Infinity;
  private running = false;
  private inSync = false;
  private speedFactor: number;
  private readonly clock: WallClock;

  constructor(
    readonly scheduler: Scheduler,
    options: { readonly speed?: number; readonly clock?: WallClock } = {},
  ) {
    this.speedFactor = checkSpeed(options.speed ?? 1);
    this.clock = options.clock ?? systemClock;
  }

  get speed(): number {
    return this.speedFactor;
  }

  /** Changes the pace from now on (the virtual clock does not jump). */
  set speed(speed: number) {
    this.sync();
    this.anchor();
    this.speedFactor = checkSpeed(speed);
    this.arm();
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.anchor();
    this.scheduler.onEarliestChanged = () => {
      if (!this.inSync) this.arm();
    };
    this.arm();
  }

  stop(): void {
    if (!this.running) return;
    this.sync();
    this.running = false;
    this.scheduler.onEarliestChanged = null;
    this.disarm();
  }

  /** The virtual time that corresponds to the wall clock now (whole ms, so a simulation never sees fractions). */
  virtualNow(): number {
    if (!this.running) return this.scheduler.now;
    // Never behind events already run (a timer may fire a hair early and run its event on time).
    return Math.max(this.scheduler.now, Math.floor(this.virtualAnchor + (this.clock.now() - this.wallAnchor) * this.speedFactor));
  }

  /** Runs everything due by now; call before acting on the simulation from outside (a command arriving). */
  sync(atLeast = 0): number {
    if (!this.running || this.inSync) return this.scheduler.now;
    this.inSync = true;
    try {
      this.scheduler.runUntil(Math.max(this.scheduler.now, this.virtualNow(), atLeast));
    } finally {
      this.inSync = false;
    }
    return this.scheduler.now;
  }

  private anchor(): void {
    this.virtualAnchor = this.scheduler.now;
    this.wallAnchor = this.clock.now();
  }

  private arm(): void {
    if (!this.running) return;
    const next = this.scheduler.nextTime();
    if (next === this.armedFor && this.timer !== null) return;
    this.disarm();
    if (next === Infinity) return;
    const delay = Math.max(0, (next - this.virtualNow()) / this.speedFactor);
    this.armedFor = next;
    this.timer = this.clock.setTimeout(() => this.tick(), delay);
  }

  private disarm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
  }

  private tick(): void {
    // The timer was armed for an event; a timer may fire a hair early, and that event is due anyway.
    const due = this.armedFor;
    this.timer = null;
    this.armedFor = Infinity;
    this.sync(due === Infinity ? 0 : due);
    this.arm();
  }
}

function checkSpeed(speed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`simSpeed must be a positive finite number, not ${speed}`);
  return speed;
}
