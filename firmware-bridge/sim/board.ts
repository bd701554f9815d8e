// The simulated table as a board on a serial line: bytes through serialport's MockBinding, paced in real time.
import type { MockBoardPort } from '../mock-port.ts';
import type { RealTimeDriver } from './clock.ts';
import { KalahaTable, type KalahaTableOptions } from './kalaha-table.ts';
import { startOnMockPort, wireFirmwareToPort, type RunningSimulation, type SimulatedPortOptions } from './port-board.ts';

export interface SimulatedBoardOptions extends KalahaTableOptions, SimulatedPortOptions {}

export interface SimulatedBoard extends RunningSimulation<KalahaTable> {}

/** Connects a table to the board end of a mock port: its lines out as bytes, the service's bytes in as commands. */
export function wireTableToPort(table: KalahaTable, port: MockBoardPort, driver: RealTimeDriver | null): () => void {
  return wireFirmwareToPort(table, port, driver);
}

/**
 * Starts a simulated Kalaha table behind a MockBinding port, running in real time at `simSpeed`,
 * and returns a BoardLink to it that has completed its handshake.
 */
export function startSimulatedKalahaBoard(options: SimulatedBoardOptions): Promise<SimulatedBoard> {
  return startOnMockPort(options, (scheduler, out) => new KalahaTable(scheduler, options, out));
}
