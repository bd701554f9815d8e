// Any simulated board on a serial line: its lines out as bytes through serialport's MockBinding, the service's bytes in as commands, paced in real time.
import { BoardLink, type BoardLinkOptions, type HandshakeOptions } from '../link.ts';
import { openMockPort, type MockBoardPort } from '../mock-port.ts';
import { RealTimeDriver, Scheduler, type WallClock } from './clock.ts';
import type { LineOut } from './firmware.ts';

/** How a simulated board is put on a mock serial line and paced. */
export interface SimulatedPortOptions {
  /** Virtual ms per wall ms: 1 is a real game's pace, 20 replays a game twenty times faster. */
  readonly simSpeed?: number;
  /** Mock port path; a fresh one by default. */
  readonly path?: string;
  /** An Arduino's `Serial.println` ends lines with `\r\n`; the service must cope with both. */
  readonly lineEnding?: '\r\n' | '\n';
  /**
   * Stamp `receivedAt` with the simulation's virtual clock instead of `Date.now`, so that timing
   * the service measures (how long the board has been still) means the same at every `simSpeed`.
   */
  readonly virtualTimestamps?: boolean;
  /** Wait for the board's answer to `HELLO?` before resolving (default true). */
  readonly handshake?: boolean | HandshakeOptions;
  /** For tests: the wall clock the driver paces itself by. */
  readonly wallClock?: WallClock;
}

/** The part of a simulated board the serial line needs. */
export interface PortFirmware {
  receive(bytes: Buffer): void;
  boot(): void;
  shutdown(): void;
}

/** A simulated board running behind a mock port. */
export interface RunningSimulation<Table> {
  /** The service's end, exactly as for a real board. */
  readonly link: BoardLink;
  /** The physical board: give it scripts with `table.perform(actions)`. */
  readonly table: Table;
  readonly scheduler: Scheduler;
  readonly driver: RealTimeDriver;
  readonly port: MockBoardPort;
  /** Stops the board and the driver and closes the port. */
  close(): Promise<void>;
}

/** Connects a board to the board end of a mock port: the service's bytes in as commands. */
export function wireFirmwareToPort(board: Pick<PortFirmware, 'receive'>, port: MockBoardPort, driver: RealTimeDriver | null): () => void {
  return port.onWrite((bytes) => {
    // Commands act at the virtual time that corresponds to now, not at the last event's time.
    driver?.sync();
    board.receive(bytes);
  });
}

/**
 * Builds a board with `makeTable` behind a fresh MockBinding port, runs it in real time at
 * `simSpeed`, and resolves with a BoardLink that has completed its handshake.
 */
export async function startOnMockPort<Table extends PortFirmware>(
  options: SimulatedPortOptions,
  makeTable: (scheduler: Scheduler, out: LineOut) => Table,
): Promise<RunningSimulation<Table>> {
  const scheduler = new Scheduler();
  const driver = new RealTimeDriver(scheduler, { speed: options.simSpeed ?? 1, clock: options.wallClock });
  const port = await openMockPort(options.path);
  const ending = options.lineEnding ?? '\r\n';
  // With virtual timestamps each line carries the simulation's time of sending: on a loaded
  // machine the driver catches up in bursts, and stamping lines on arrival would squeeze them.
  const sent: { text: string; t: number }[] = [];
  const table = makeTable(scheduler, (line) => {
    if (options.virtualTimestamps) sent.push({ text: line, t: scheduler.now });
    port.emit(line + ending);
  });
  const unwire = wireFirmwareToPort(table, port, driver);
  const stamp = (text: string): number => {
    while (sent.length) {
      const next = sent.shift() as { text: string; t: number };
      if (next.text === text) return next.t;
    }
    return driver.virtualNow();
  };
  const linkOptions: BoardLinkOptions = options.virtualTimestamps ? { now: () => driver.virtualNow(), stamp } : {};
  const link = new BoardLink(port.stream, linkOptions);
  driver.start();
  table.boot();
  const close = async (): Promise<void> => {
    table.shutdown();
    driver.stop();
    unwire();
    await link.close();
  };
  if (options.handshake !== false) {
    try {
      await link.handshake(typeof options.handshake === 'object' ? options.handshake : {});
    } catch (err) {
      await close();
      throw err;
    }
  }
  return { link, table, scheduler, driver, port, close };
}
