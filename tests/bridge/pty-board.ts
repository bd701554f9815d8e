// A simulated board on the far end of a pty cable, run in real time at a chosen speed; the lines it sends carry their virtual send times to the service's stamp.
import { RealTimeDriver, Scheduler, type LineOut, type SimulatedFirmware } from '../../firmware-bridge/index.ts';
import type { PtyCable } from './pty.ts';

/** What a rig may do to each line on its way into the cable (corrupt it, add noise): the bytes to write. */
export type LineFault = (line: string) => string;

/**
 * A board (a KalahaTable, a GridTable) writing into a pty cable. Its lines go out with `\r\n`
 * as an Arduino's `Serial.println` sends them; `stamp` tells the service's link when each line
 * was sent on the board's clock, so the referee's timing means the same at every speed.
 */
export class PtyBoard<Table extends SimulatedFirmware<{ readonly kind: string }>> {
  readonly scheduler = new Scheduler();
  readonly driver: RealTimeDriver;
  readonly table: Table;
  /** Lines written into the cable (after any fault). */
  linesWritten = 0;
  /** Virtual send time of the latest line the service stamped. */
  lastStamped = 0;
  fault: LineFault | null = null;
  /** Every line the board's firmware sent, as it sent it (before any fault). */
  readonly sentLines = new Set<string>();
  /** Lines written, by text, with their virtual send time; a line leaves the map when stamped. */
  private readonly sent = new Map<string, number>();

  constructor(
    readonly cable: PtyCable,
    makeTable: (scheduler: Scheduler, out: LineOut) => Table,
    simSpeed: number,
  ) {
    this.driver = new RealTimeDriver(this.scheduler, { speed: simSpeed });
    this.table = makeTable(this.scheduler, (line, t) => this.send(line, t));
    cable.onBytes = (bytes) => {
      this.driver.sync();
      this.table.receive(bytes);
    };
  }

  /** The service's stamp for a received line: when the board sent it. */
  readonly stamp = (text: string): number => {
    const t = this.sent.get(text);
    if (t === undefined) return this.driver.virtualNow();
    this.sent.delete(text);
    if (t > this.lastStamped) this.lastStamped = t;
    return t;
  };

  start(): void {
    this.driver.start();
    this.table.boot();
  }

  /** Performs `actions` on the table; resolves when the hand is done. */
  perform(actions: Parameters<Table['perform']>[0]): Promise<void> {
    return new Promise<void>((resolve) => this.table.perform(actions, resolve));
  }

  /** Resolves once the service has stamped a line the board sent at `t` or later (it has read the board up to then). */
  async heardUntil(t: number, limitMs = 20_000): Promise<void> {
    const start = Date.now();
    while (this.lastStamped < t) {
      if (Date.now() - start > limitMs) throw new Error(`the service heard the board only up to ${this.lastStamped} ms, not ${t} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Writes a line the board's firmware did not make (a fault a test injects), stamped like the
   * board's own; `raw` bytes are written as they are and never stamped (they are not lines the
   * service can accept).
   */
  inject(line: string, raw = false): void {
    if (!this.cable.write(raw ? line : line + '\r\n')) return;
    this.linesWritten++;
    if (!raw) this.sent.set(line, this.scheduler.now);
  }

  stop(): void {
    this.table.shutdown();
    this.driver.stop();
  }

  private send(line: string, t: number): void {
    this.sentLines.add(line);
    const bytes = this.fault ? this.fault(line) : line + '\r\n';
    if (!this.cable.write(bytes)) return;
    this.linesWritten++;
    this.sent.set(line, t);
  }
}
