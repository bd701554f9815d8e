// Decodes the WS2812 bit stream an emulated Uno drives on a pin, from the pin's timing, and checks that timing against the datasheet.
import { CYCLES_PER_US, type Uno } from './avr.ts';

/** Datasheet windows (WS2812B), microseconds. */
const T0H = [0.25, 0.55] as const;
const T1H = [0.65, 0.95] as const;
/** Low for this long latches the colours (datasheet: above 50 us). */
const RESET_US = 50;
/** Older WS2812s latch after as little as 6 us low: a frame must never pause that long. */
const MAX_GAP_US = 5;

export interface Ws2812Frame {
  /** Pixels in strip order as [r, g, b]. */
  readonly pixels: readonly (readonly [number, number, number])[];
  /** Emulated ms when the frame was latched. */
  readonly at: number;
}

/**
 * A strip of `length` WS2812s on `pin`. Each frame the sketch sends is decoded bit by bit from
 * how long the line stays high (a 0 short, a 1 long); a low of 50 us ends it. Timing outside
 * the datasheet's windows is counted, never silently accepted.
 */
export class Ws2812Strip {
  private readonly latched: Ws2812Frame[] = [];
  /** Bits whose high time fell in neither window, lows inside a frame longer than MAX_GAP_US. */
  badHighs = 0;
  longGaps = 0;
  /** Widest high of a 0 and of a 1 bit and longest low inside a frame seen, us. */
  readonly widest = { zero: 0, one: 0, gap: 0 };
  readonly narrowest = { zero: Infinity, one: Infinity };

  private bits: number[] = [];
  private riseAt = 0;
  private fallAt = 0;
  private high = false;

  constructor(
    private readonly uno: Uno,
    pin: number,
    readonly length: number,
  ) {
    uno.onOutput(pin, (high, cycles) => (high ? this.rise(cycles) : this.fall(cycles)));
  }

  /** Every frame latched so far (a frame whose line has been low for the reset time by now included). */
  get frames(): readonly Ws2812Frame[] {
    this.flush();
    return this.latched;
  }

  /** The colours the strip shows now: the last latched frame (dark before any). */
  shown(): (readonly [number, number, number])[] {
    const last = this.frames.at(-1);
    return Array.from({ length: this.length }, (_, i) => last?.pixels[i] ?? [0, 0, 0]);
  }

  private rise(cycles: number): void {
    const lowUs = (cycles - this.fallAt) / CYCLES_PER_US;
    if (this.bits.length > 0) {
      if (lowUs >= RESET_US) {
        this.latch(this.fallAt);
      } else {
        this.widest.gap = Math.max(this.widest.gap, lowUs);
        if (lowUs > MAX_GAP_US) this.longGaps++;
      }
    }
    this.riseAt = cycles;
    this.high = true;
  }

  private fall(cycles: number): void {
    if (!this.high) return;
    this.high = false;
    this.fallAt = cycles;
    const us = (cycles - this.riseAt) / CYCLES_PER_US;
    const one = us > (T0H[1] + T1H[0]) / 2;
    if (one) {
      this.widest.one = Math.max(this.widest.one, us);
      this.narrowest.one = Math.min(this.narrowest.one, us);
      if (us < T1H[0] || us > T1H[1]) this.badHighs++;
    } else {
      this.widest.zero = Math.max(this.widest.zero, us);
      this.narrowest.zero = Math.min(this.narrowest.zero, us);
      if (us < T0H[0] || us > T0H[1]) this.badHighs++;
    }
    this.bits.push(one ? 1 : 0);
  }

  /** A frame whose line has been low for the reset time by now is latched. */
  private flush(): void {
    if (this.bits.length > 0 && !this.high && (this.uno.cpu.cycles - this.fallAt) / CYCLES_PER_US >= RESET_US) this.latch(this.fallAt);
  }

  private latch(cycles: number): void {
    const bytes: number[] = [];
    for (let i = 0; i + 8 <= this.bits.length; i += 8) bytes.push(this.bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
    const pixels: [number, number, number][] = [];
    // Each LED takes the first 24 bits it sees, green, red, blue, and passes the rest on.
    for (let i = 0; i + 3 <= bytes.length && pixels.length < this.length; i += 3) pixels.push([bytes[i + 1], bytes[i], bytes[i + 2]]);
    this.latched.push({ pixels, at: cycles / (CYCLES_PER_US * 1000) });
    this.bits = [];
  }
}
