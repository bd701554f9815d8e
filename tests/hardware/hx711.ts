// Emulated HX711 load-cell amplifiers on an emulated Uno's pins: conversions at 80 per second, DOUT low when ready, 24 bits out on SCK, gain pulses, power-down.
import { CYCLES_PER_MS, CYCLES_PER_US, type Uno } from './avr.ts';

/** SCK high for longer than this powers the chip down (datasheet: 60 us). */
const POWER_DOWN_CYCLES = 60 * CYCLES_PER_US;
const MAX_COUNTS = 0x7fffff;

export interface Hx711Options {
  /** Samples per second: 80 with the RATE pin high, 10 with it low. */
  readonly samplesPerSecond?: number;
  /** This chip's clock is off by this fraction (each chip has its own oscillator). */
  readonly clockSkew?: number;
  /** When its first conversion ends, ms after power-on (chips do not start in step). */
  readonly phaseMs?: number;
}

/**
 * One HX711 on channel A. `source()` is what the bridge and the ADC make of the load now;
 * each conversion latches it. DOUT goes low when a conversion is ready; each SCK rising edge shifts
 * out the next bit, MSB first; the 25th, 26th or 27th pulse sets the gain of the next
 * conversion (128, 32 on channel B, 64). SCK held high for 60 us powers the chip down; when it
 * falls again the chip resets to gain 128 and needs four conversions to settle.
 */
export class Hx711 {
  /** What the next conversion reads, in counts: the load on the bridge now (noise included). */
  source: () => number = () => 0;
  /** A chip that never becomes ready (a broken wire, no power). */
  dead = false;
  /** Conversions the sketch read completely. */
  reads = 0;
  /** SCK pulses while DOUT was high (no data ready): the sketch clocked a chip that was not ready. */
  pulsesWhileBusy = 0;
  powerDowns = 0;
  /** The longest SCK high time seen that did not power the chip down, in us. */
  longestPulseUs = 0;
  /** Gain the sketch selected with its last read's extra pulses. */
  gain: 128 | 64 | 32 = 128;

  private readonly periodCycles: number;
  private data = 0;
  /** A conversion is latched and has not been replaced by the next one. */
  private latched = false;
  /** SCK pulses since the last conversion was latched. */
  private pulses = 0;
  private riseAt = 0;
  private riseWhileBusy = false;
  private settling = 0;
  private generation = 0;

  constructor(
    private readonly uno: Uno,
    private readonly doutPin: number,
    sckPin: number,
    options: Hx711Options = {},
  ) {
    const sps = options.samplesPerSecond ?? 80;
    this.periodCycles = Math.round((CYCLES_PER_MS * 1000) / sps / (1 + (options.clockSkew ?? 0)));
    uno.setInput(doutPin, true);
    uno.onOutput(sckPin, (high, cycles) => (high ? this.rise(cycles) : this.fall(cycles)));
    this.startConversions(Math.round((options.phaseMs ?? 5) * CYCLES_PER_MS));
  }

  private startConversions(firstInCycles: number): void {
    const generation = ++this.generation;
    const convert = (): void => {
      if (generation !== this.generation) return;
      this.uno.after(this.periodCycles, convert);
      if (this.dead) return;
      if (this.settling > 0) {
        this.settling--;
        return;
      }
      // A conversion that ends while the sketch is shifting the last one out waits for the next.
      if (this.pulses > 0 && this.pulses < 25) return;
      this.data = Math.max(-MAX_COUNTS - 1, Math.min(MAX_COUNTS, Math.round(this.source()))) & 0xffffff;
      this.latched = true;
      this.pulses = 0;
      this.uno.setInput(this.doutPin, false);
    };
    this.uno.after(firstInCycles, convert);
  }

  private rise(cycles: number): void {
    this.riseAt = cycles;
    this.riseWhileBusy = this.dead || !this.latched || this.pulses >= 27;
    if (this.riseWhileBusy) {
      this.pulsesWhileBusy++;
      return;
    }
    this.pulses++;
    if (this.pulses <= 24) {
      this.uno.setInput(this.doutPin, ((this.data >> (24 - this.pulses)) & 1) === 1);
      return;
    }
    // Pulses 25 to 27 end the read: DOUT high until the next conversion; their count picks the gain.
    this.uno.setInput(this.doutPin, true);
    this.gain = this.pulses === 25 ? 128 : this.pulses === 26 ? 32 : 64;
    if (this.pulses === 25) this.reads++;
  }

  private fall(cycles: number): void {
    const high = cycles - this.riseAt;
    if (high < POWER_DOWN_CYCLES) {
      this.longestPulseUs = Math.max(this.longestPulseUs, high / CYCLES_PER_US);
      return;
    }
    // Powered down while SCK was high; SCK low powers it up again: channel A, gain 128, settling.
    // A power-down pulse is no data pulse, whatever the chip was doing.
    if (this.riseWhileBusy) this.pulsesWhileBusy--;
    this.powerDowns++;
    this.latched = false;
    this.pulses = 0;
    this.gain = 128;
    this.settling = 3;
    this.uno.setInput(this.doutPin, true);
    this.startConversions(this.periodCycles);
  }
}
