// The square-board sketch in an emulated Uno wired as hardware/square-board/WIRING.md says: a reed switch per square on a 74HC165 chain, a WS2812 per square, three buttons.
import { A0, CYCLES_PER_MS, Uno } from './avr.ts';
import { EmulatedBoard } from './board.ts';
import { ShiftChain } from './shift-register.ts';
import { Ws2812Strip } from './ws2812.ts';

export const LOAD_PIN = 2;
export const CLOCK_PIN = 3;
export const DATA_PIN = 4;
export const LED_PIN = 6;
export const BUTTON_PINS = { ok: A0, undo: A0 + 1, help: A0 + 2 } as const;

export interface SquareRigOptions {
  readonly cols: number;
  readonly rows: number;
  readonly eeprom?: Uint8Array;
}

/** A board of cols × rows squares: `place`/`lift` close and open the reed switch under a square. */
export class SquareRig {
  readonly uno: Uno;
  readonly board: EmulatedBoard;
  readonly chain: ShiftChain;
  readonly strip: Ws2812Strip;
  readonly cells: number;

  constructor(
    hex: string,
    readonly options: SquareRigOptions,
  ) {
    this.uno = new Uno(hex, { eeprom: options.eeprom });
    this.cells = options.cols * options.rows;
    this.chain = new ShiftChain(this.uno, Math.ceil(this.cells / 8), LOAD_PIN, CLOCK_PIN, DATA_PIN);
    this.strip = new Ws2812Strip(this.uno, LED_PIN, this.cells);
    // The buttons' inputs rest high (the sketch's pull-ups); the spare analog pin picks up noise.
    for (const pin of Object.values(BUTTON_PINS)) this.uno.setInput(pin, true);
    this.uno.adc.channelValues[5] = 2.1;
    this.board = new EmulatedBoard(this.uno);
  }

  /** A piece on square `cell`: its magnet closes the switch, which pulls the input low. */
  place(cell: number): void {
    this.chain.set(cell, false);
  }

  lift(cell: number): void {
    this.chain.set(cell, true);
  }

  /** Sets every square at once from a list of occupied ones. */
  setOccupied(cells: Iterable<number>): void {
    const on = new Set(cells);
    for (let c = 0; c < this.cells; c++) this.chain.set(c, !on.has(c));
  }

  /** The squares a frame should show, as the G frame's number. */
  expected(cells: Iterable<number>): bigint {
    let bits = 0n;
    for (const c of cells) bits |= 1n << BigInt(c);
    return bits;
  }

  /**
   * A switch that bounces as it closes or opens: `flips` level changes `everyMs` apart, then
   * the final level (`occupied`).
   */
  bounce(cell: number, occupied: boolean, flips: number, everyMs: number): void {
    for (let i = 0; i <= flips; i++) {
      const level = i === flips ? !occupied : i % 2 === 0 ? !occupied : occupied;
      this.uno.after(1 + i * everyMs * CYCLES_PER_MS, () => this.chain.set(cell, level));
    }
  }

  /** Presses a button for `ms`, its contacts bouncing for the first millisecond. */
  press(button: keyof typeof BUTTON_PINS, ms: number): void {
    const pin = BUTTON_PINS[button];
    for (let i = 0; i < 5; i++) this.uno.after(1 + i * 0.2 * CYCLES_PER_MS, () => this.uno.setInput(pin, i % 2 === 1));
    this.uno.after(1.2 * CYCLES_PER_MS, () => this.uno.setInput(pin, false));
    this.uno.after(ms * CYCLES_PER_MS, () => this.uno.setInput(pin, true));
  }

  /** Where square `cell` sits on the LED strip: it runs along rank 1, back along rank 2, and so on. */
  pixelOf(cell: number): number {
    const { cols } = this.options;
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    return row * cols + (row % 2 === 1 ? cols - 1 - col : col);
  }
}
