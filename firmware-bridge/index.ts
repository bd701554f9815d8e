// The firmware bridge's public face: the line protocol, the byte → message stream, board links (and the serial board that survives a pulled cable), traces, and the simulated table.
export * from './protocol.ts';
export { LineFramer, LineStream, type CheckedLine, type LineSink, type LineStreamOptions, type LineStreamStats } from './line-stream.ts';
export {
  BoardLink,
  DEFAULT_BAUD_RATE,
  DEFAULT_FRAME_LIMIT,
  HandshakeError,
  listSerialPorts,
  openMockPair,
  openSerial,
  openSerialPort,
  type BoardLinkEvents,
  type BoardLinkOptions,
  type FrameLimit,
  type HandshakeOptions,
  type LinkStats,
  type MockPair,
  type SerialPortCandidate,
} from './link.ts';
export { MockBoardPort, openMockPort } from './mock-port.ts';
export { PortRelay, closePort } from './port-relay.ts';
export { DEFAULT_GAP_MS, GaplessClock, STEP_ACROSS_GAP_MS } from './link-clock.ts';
export {
  NoBoardError,
  WrongBoardError,
  candidates,
  findBoard,
  probePort,
  refusal,
  serialPorts,
  type FoundBoard,
  type PortAccess,
  type WantedBoard,
} from './autodetect.ts';
export {
  DEFAULT_BACKOFF,
  DEFAULT_REOPEN_AFTER_MS,
  DEFAULT_WATCHDOG_MS,
  LINK_STATES,
  SerialBoard,
  backoffDelay,
  type Backoff,
  type LinkState,
  type SerialBoardEvents,
  type SerialBoardOptions,
  type SerialBoardStats,
} from './serial-board.ts';
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
export {
  CapabilityError,
  FIRMATA_BAUD_RATE,
  FirmataBoard,
  firmataPorts,
  parsePinMap,
  startFirmataBoard,
  type FirmataBoardOptions,
  type FirmataIO,
  type FirmataPinMap,
} from './johnny-five.ts';
