// An Arduino Uno in avr8js: the compiled sketch, its timers, serial port and EEPROM, pins for emulated parts, and sleep that skips ahead.
import {
  AVRADC,
  AVREEPROM,
  AVRIOPort,
  AVRTimer,
  AVRUSART,
  CPU,
  EEPROMMemoryBackend,
  adcConfig,
  avrInstruction,
  portBConfig,
  portCConfig,
  portDConfig,
  timer0Config,
  timer1Config,
  timer2Config,
  usart0Config,
} from 'avr8js';

export const CLOCK_HZ = 16_000_000;
export const CYCLES_PER_MS = CLOCK_HZ / 1000;
export const CYCLES_PER_US = CLOCK_HZ / 1_000_000;

const FLASH_BYTES = 0x8000;
const SRAM_START = 0x100;
const SRAM_END = 0x8ff;
/** What RAM holds before the sketch runs, so that the stack's deepest point can be found afterwards. */
const PAINT = 0xa5;
const EEPROM_BYTES = 1024;
const SLEEP_OPCODE = 0x9588;
/** SMCR in data space; bit 0 (SE) enables SLEEP. */
const SMCR = 0x53;
const UCSR0A = 0xc0;
const UCSR0B = 0xc1;
const RXC0 = 0x80;
const RXEN0 = 0x10;

/** Reads an Intel HEX file into program memory (words). */
export function loadHex(text: string, bytes = FLASH_BYTES): Uint16Array {
  const flash = new Uint8Array(bytes);
  let base = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line[0] !== ':') throw new Error(`not an Intel HEX line: ${line}`);
    const count = parseInt(line.slice(1, 3), 16);
    const address = parseInt(line.slice(3, 7), 16);
    const type = parseInt(line.slice(7, 9), 16);
    if (type === 0) {
      for (let i = 0; i < count; i++) flash[base + address + i] = parseInt(line.slice(9 + 2 * i, 11 + 2 * i), 16);
    } else if (type === 2) {
      base = parseInt(line.slice(9, 13), 16) << 4;
    } else if (type === 4) {
      base = parseInt(line.slice(9, 13), 16) << 16;
    }
  }
  return new Uint16Array(flash.buffer);
}

/** Arduino Uno pin numbers: D0–D13, then A0–A5 as 14–19. */
export const A0 = 14;

export interface PinRef {
  readonly port: AVRIOPort;
  readonly bit: number;
}

type PinListener = (high: boolean, cycles: number) => void;

interface ClockEventQueue {
  nextClockEvent: { cycles: number } | null;
}

export interface UnoOptions {
  /** EEPROM contents at power-on (an erased EEPROM reads 0xFF). */
  readonly eeprom?: Uint8Array;
}

/**
 * One ATmega328P at 16 MHz running a sketch from its reset vector (no bootloader). The CPU runs
 * instruction by instruction; when the sketch sleeps, time jumps from one clock event (timer
 * tick, serial byte, an emulated part's event) to the next until an interrupt wakes it.
 */
export class Uno {
  readonly cpu: CPU;
  readonly portB: AVRIOPort;
  readonly portC: AVRIOPort;
  readonly portD: AVRIOPort;
  readonly usart: AVRUSART;
  readonly eeprom: EEPROMMemoryBackend;
  /** Volts on each analog input (channelValues[5] is A5). */
  readonly adc: AVRADC;
  /** Skip ahead while the sketch sleeps (off: SLEEP is a no-op and the sketch spins, as avr8js runs it by itself). */
  skipSleep = true;
  /** Cycles spent executing instructions, and cycles skipped asleep. */
  executedCycles = 0;
  sleptCycles = 0;

  private readonly rxQueue: number[] = [];
  private readonly txListeners: ((byte: number) => void)[] = [];

  constructor(hex: string, options: UnoOptions = {}) {
    this.cpu = new CPU(loadHex(hex), 2048);
    this.cpu.data.fill(PAINT, SRAM_START, SRAM_END + 1);
    new AVRTimer(this.cpu, timer0Config);
    new AVRTimer(this.cpu, timer1Config);
    new AVRTimer(this.cpu, timer2Config);
    this.portB = new AVRIOPort(this.cpu, portBConfig);
    this.portC = new AVRIOPort(this.cpu, portCConfig);
    this.portD = new AVRIOPort(this.cpu, portDConfig);
    this.usart = new AVRUSART(this.cpu, usart0Config, CLOCK_HZ);
    this.eeprom = new EEPROMMemoryBackend(EEPROM_BYTES);
    if (options.eeprom) this.eeprom.memory.set(options.eeprom);
    new AVREEPROM(this.cpu, this.eeprom);
    this.adc = new AVRADC(this.cpu, adcConfig);
    this.usart.onByteTransmit = (byte) => {
      for (const listener of this.txListeners) listener(byte);
    };
    // The next byte goes on the wire when the last one has been received, at the line's baud rate.
    this.usart.onRxComplete = () => this.pumpRx();
    this.keepReceivedByteOnControlWrites();
  }

  /**
   * avr8js 0.21 drops a received byte whose interrupt is pending whenever the sketch writes
   * UCSR0B with the receiver on — and the Arduino core writes it for every byte it sends (UDRIE0).
   * On the chip only reading UDR0 clears RXC0 (ATmega328P datasheet, 19.10.2), so the byte stays.
   */
  private keepReceivedByteOnControlWrites(): void {
    const cpu = this.cpu;
    const hook = cpu.writeHooks[UCSR0B];
    const rxComplete = (this.usart as unknown as { RXC: Parameters<CPU['setInterruptFlag']>[0] }).RXC;
    cpu.writeHooks[UCSR0B] = (value, oldValue, addr, mask) => {
      const pending = (cpu.data[UCSR0A] & RXC0) !== 0;
      const handled = hook(value, oldValue, addr, mask);
      if (pending && value & RXEN0) cpu.setInterruptFlag(rxComplete);
      return handled;
    };
  }

  /** Emulated time since power-on, ms. */
  get ms(): number {
    return this.cpu.cycles / CYCLES_PER_MS;
  }

  pin(n: number): PinRef {
    if (n >= 0 && n <= 7) return { port: this.portD, bit: n };
    if (n >= 8 && n <= 13) return { port: this.portB, bit: n - 8 };
    if (n >= A0 && n <= A0 + 5) return { port: this.portC, bit: n - A0 };
    throw new RangeError(`an Uno has no pin ${n}`);
  }

  /** Drives an input pin from outside (a part's output). */
  setInput(n: number, high: boolean): void {
    const { port, bit } = this.pin(n);
    port.setPin(bit, high);
  }

  /** The level the sketch drives on a pin (false when it is an input). */
  output(n: number): boolean {
    const { port, bit } = this.pin(n);
    return ((this.cpu.data[port.portConfig.PORT] & this.cpu.data[port.portConfig.DDR]) >> bit) & 1 ? true : false;
  }

  /** Calls `listener` whenever the sketch changes the level it drives on pin `n`, with the cycle count. */
  onOutput(n: number, listener: PinListener): void {
    const { port, bit } = this.pin(n);
    const mask = 1 << bit;
    port.addListener((value, old) => {
      if ((value ^ old) & mask) listener((value & mask) !== 0, this.cpu.cycles);
    });
  }

  /**
   * RAM never touched so far between the sketch's static data (`staticBytes`, as avr-size counts
   * data and bss) and the deepest the stack has reached: what was left to spare.
   */
  untouchedRam(staticBytes: number): number {
    let free = 0;
    for (let a = SRAM_START + staticBytes; a <= SRAM_END && this.cpu.data[a] === PAINT; a++) free++;
    return free;
  }

  /** Runs `fn` after `cycles` of emulated time. */
  after(cycles: number, fn: () => void): void {
    this.cpu.addClockEvent(fn, Math.max(1, Math.round(cycles)));
  }

  /** Bytes from the service to the sketch: they arrive one after another at the line's baud rate. */
  send(bytes: Uint8Array | string): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    for (const b of data) this.rxQueue.push(b);
    this.pumpRx();
  }

  /** Hears every byte the sketch transmits. */
  onTransmit(listener: (byte: number) => void): void {
    this.txListeners.push(listener);
  }

  /** Runs the CPU until `cycles` (absolute). */
  runTo(cycles: number): void {
    const cpu = this.cpu;
    const progMem = cpu.progMem;
    const data = cpu.data;
    while (cpu.cycles < cycles) {
      const sleeping = this.skipSleep && progMem[cpu.pc] === SLEEP_OPCODE && (data[SMCR] & 1) !== 0;
      const before = cpu.cycles;
      avrInstruction(cpu);
      const pc = cpu.pc;
      cpu.tick();
      this.executedCycles += cpu.cycles - before;
      // SLEEP done and no interrupt taken at once: the CPU waits for one.
      if (sleeping && cpu.pc === pc) this.sleep(cycles);
    }
  }

  /** Asleep: jump to each clock event in turn until one raises an interrupt the CPU takes. */
  private sleep(limit: number): void {
    const cpu = this.cpu;
    const queue = cpu as unknown as ClockEventQueue;
    const start = cpu.cycles;
    while (cpu.cycles < limit) {
      const next = queue.nextClockEvent;
      const to = next === null ? limit : Math.min(next.cycles, limit);
      if (to > cpu.cycles) cpu.cycles = to;
      const pc = cpu.pc;
      cpu.tick();
      if (cpu.pc !== pc) break; // an interrupt woke the CPU: its handler runs next
    }
    this.sleptCycles += cpu.cycles - start;
  }

  /** Puts the next queued byte on the wire when the line is free (and the sketch has switched its receiver on). */
  pumpRx(): void {
    if (this.rxQueue.length === 0 || this.usart.rxBusy || !this.usart.rxEnable) return;
    this.usart.writeByte(this.rxQueue.shift() as number);
  }
}
