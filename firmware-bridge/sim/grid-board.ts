// The simulated square board as a board on a serial line: bytes through serialport's MockBinding, paced in real time.
import { GridTable, type GridTableOptions } from './grid-table.ts';
import { startOnMockPort, type RunningSimulation, type SimulatedPortOptions } from './port-board.ts';

export interface SimulatedGridBoardOptions extends GridTableOptions, SimulatedPortOptions {}

export interface SimulatedGridBoard extends RunningSimulation<GridTable> {}

/**
 * Starts a simulated square board behind a MockBinding port, running in real time at `simSpeed`,
 * and returns a BoardLink to it that has completed its handshake (`HELLO … board=grid`).
 */
export function startSimulatedGridBoard(options: SimulatedGridBoardOptions): Promise<SimulatedGridBoard> {
  return startOnMockPort(options, (scheduler, out) => new GridTable(scheduler, options, out));
}
