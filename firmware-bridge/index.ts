// The firmware bridge's public face: the line protocol, the byte → message stream, board links, traces, and the simulated table.
export * from './protocol.ts';
export { LineFramer, LineStream, type CheckedLine, type LineSink, type LineStreamOptions, type LineStreamStats } from './line-stream.ts';
export {
  BoardLink,
  DEFAULT_BAUD_RATE,
  HandshakeError,
  listSerialPorts,
  openMockPair,
  openSerial,
  type BoardLinkEvents,
  type BoardLinkOptions,
  type HandshakeOptions,
  type LinkStats,
  type MockPair,
  type SerialPortCandidate,
} from './link.ts';
export { MockBoardPort, openMockPort } from './mock-port.ts';
export {
  TraceRecorder,
  formatTrace,
  formatTraceLine,
  newTraceStats,
  parseTraceLine,
  readTrace,
  readTraceFile,
  traceEntries,
  type TraceEntry,
  type TraceReadStats,
  type TraceSink,
} from './trace.ts';
export { Random } from './sim/random.ts';
export { RealTimeDriver, Scheduler, systemClock, type Scheduled, type WallClock } from './sim/clock.ts';
export {
  DEFAULT_HAND,
  DEFAULT_SENSOR,
  KalahaTable,
  STONE_KINDS,
  STONE_SETS,
  STONE_WEIGHTS,
  TABLE_ACTION_KINDS,
  makeStones,
  type HandModel,
  type KalahaTableOptions,
  type LineOut,
  type SensorModel,
  type Stone,
  type StoneKind,
  type StoneSet,
  type StoneWeight,
  type TableAction,
  type TableActionKind,
} from './sim/kalaha-table.ts';
export { startSimulatedKalahaBoard, wireTableToPort, type SimulatedBoard, type SimulatedBoardOptions } from './sim/board.ts';
export { replayTraceToLink, scheduleTrace, type TraceReplay } from './sim/replay.ts';
export {
  SimulatedFirmware,
  type CommonAction,
  type FirmwareIdentity,
  type FirmwareOptions,
  type ThinkingModel,
} from './sim/firmware.ts';
export { startOnMockPort, wireFirmwareToPort, type PortFirmware, type RunningSimulation, type SimulatedPortOptions } from './sim/port-board.ts';
export {
  DEFAULT_GRID_HAND,
  DEFAULT_GRID_SENSOR,
  GRID_ACTION_KINDS,
  GRID_MAX_COUNT_CELLS,
  GRID_MAX_SIDE,
  GridTable,
  slidePath,
  type GridAction,
  type GridActionKind,
  type GridHandModel,
  type GridPiece,
  type GridPieceSpec,
  type GridSensorModel,
  type GridTableOptions,
} from './sim/grid-table.ts';
export { startSimulatedGridBoard, type SimulatedGridBoard, type SimulatedGridBoardOptions } from './sim/grid-board.ts';
