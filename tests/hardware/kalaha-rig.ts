// The kalaha-table sketch in an emulated Uno wired as hardware/kalaha-table/WIRING.md says: 14 emulated HX711s on one SCK, each under a load cell with stones on it.
import { A0, Uno } from './avr.ts';
import { EmulatedBoard } from './board.ts';
import { Hx711 } from './hx711.ts';

export const CELLS = 14;
/** DOUT of cell 0…13 (pits A–F, a–f, store south, store north), and the shared SCK: as in the sketch. */
export const DOUT_PINS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, A0, A0 + 1, A0 + 2, A0 + 3] as const;
export const SCK_PIN = A0 + 4;

export interface KalahaRigOptions {
  readonly eeprom?: Uint8Array;
  /** Counts per gram of each cell's load cell and amplifier (2147 is what the sketch assumes before CAL). */
  readonly countsPerGram?: number | readonly number[];
  /** What each cell reads with nothing on it, in counts: the pit's own weight and the bridge's offset. */
  readonly emptyCounts?: readonly number[];
  /** Standard deviation of each conversion, in counts; 0 for none. */
  readonly noiseCounts?: number;
  readonly seed?: number;
  /** Amplifiers at 10 samples per second (RATE pin low) instead of 80. */
  readonly samplesPerSecond?: number;
}

/**
 * A weighing table: `grams[c]` is the load on cell c. Each amplifier's next conversion reads
 * `emptyCounts[c] + grams[c] * countsPerGram[c]` plus noise; the chips run on clocks a little
 * apart, as real ones do.
 */
export class KalahaRig {
  readonly uno: Uno;
  readonly board: EmulatedBoard;
  readonly amplifiers: Hx711[];
  readonly grams = new Float64Array(CELLS);
  readonly countsPerGram: number[];
  readonly emptyCounts: number[];
  private readonly noise: number;
  private rng: number;

  constructor(hex: string, options: KalahaRigOptions = {}) {
    this.uno = new Uno(hex, { eeprom: options.eeprom });
    const cpg = options.countsPerGram ?? 2147;
    this.countsPerGram = Array.from({ length: CELLS }, (_, c) => (typeof cpg === 'number' ? cpg : cpg[c]));
    this.emptyCounts = Array.from({ length: CELLS }, (_, c) => options.emptyCounts?.[c] ?? 40_000 + 1_000 * c);
    this.noise = options.noiseCounts ?? 0;
    this.rng = (options.seed ?? 1) >>> 0 || 1;
    this.amplifiers = DOUT_PINS.map(
      (pin, c) =>
        new Hx711(this.uno, pin, SCK_PIN, {
          samplesPerSecond: options.samplesPerSecond ?? 80,
          clockSkew: ((c % 5) - 2) * 0.004,
          phaseMs: 3 + c * 0.7,
        }),
    );
    this.amplifiers.forEach((amplifier, c) => {
      amplifier.source = () => this.emptyCounts[c] + this.grams[c] * this.countsPerGram[c] + this.gaussian() * this.noise;
    });
    this.board = new EmulatedBoard(this.uno);
  }

  /** Sets the load on every cell (grams) at once. */
  load(grams: ArrayLike<number>): void {
    for (let c = 0; c < CELLS; c++) this.grams[c] = grams[c];
  }

  private gaussian(): number {
    if (this.noise === 0) return 0;
    // Sum of four uniforms: close enough to normal for sensor noise, and cheap.
    let s = 0;
    for (let i = 0; i < 4; i++) {
      this.rng ^= this.rng << 13;
      this.rng ^= this.rng >>> 17;
      this.rng ^= this.rng << 5;
      s += (this.rng >>> 0) / 4294967296;
    }
    return (s - 2) * Math.sqrt(3);
  }
}
