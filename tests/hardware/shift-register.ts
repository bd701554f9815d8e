// An emulated chain of 74HC165 parallel-in/serial-out shift registers on an emulated Uno's pins, with a switch on every input.
import type { Uno } from './avr.ts';

/**
 * `chips` 74HC165s in a chain: SH/LD and CLK shared, QH of the first chip to the Uno, QH of each
 * further chip to SER of the one before, SER of the last tied high. While SH/LD is low the
 * register follows the inputs; each CLK rising edge with SH/LD high shifts it one place toward
 * the first chip's QH. Inputs are levels: `input[8k + b]` is D_b of chip k (A = D0 … H = D7).
 */
export class ShiftChain {
  /** Input levels, true = high (a switch open, pulled up). */
  readonly input: boolean[];
  /** Whether the chain is connected at all: when not, the data pin reads its pull-down, low. */
  connected = true;
  /** Level of the last chip's SER. */
  serialIn = true;
  /** Rising CLK edges while SH/LD was low (the sketch clocked a chain that was not latched). */
  clocksWhileLoading = 0;
  /** Latches (SH/LD pulses). */
  loads = 0;

  /** The register, [0] being what the first chip's QH shows. */
  private register: boolean[];
  private loading = false;

  constructor(
    private readonly uno: Uno,
    readonly chips: number,
    loadPin: number,
    clockPin: number,
    private readonly dataPin: number,
  ) {
    this.input = new Array<boolean>(chips * 8).fill(true);
    this.register = new Array<boolean>(chips * 8).fill(true);
    uno.onOutput(loadPin, (high) => {
      this.loading = !high;
      if (!high) {
        this.loads++;
        this.latch();
      }
    });
    uno.onOutput(clockPin, (high) => {
      if (!high) return;
      if (this.loading) {
        this.clocksWhileLoading++;
        return;
      }
      this.register.shift();
      this.register.push(this.serialIn);
      this.drive();
    });
    this.drive();
  }

  /** Sets input `i` (8k + b) and, while SH/LD is low, the register with it. */
  set(i: number, high: boolean): void {
    this.input[i] = high;
    if (this.loading) this.latch();
  }

  private latch(): void {
    for (let k = 0; k < this.chips; k++) {
      // After a load QH shows H (D7), then G, … A, then the next chip's H.
      for (let b = 0; b < 8; b++) this.register[8 * k + (7 - b)] = this.input[8 * k + b];
    }
    this.drive();
  }

  private drive(): void {
    this.uno.setInput(this.dataPin, this.connected && this.register[0]);
  }
}
