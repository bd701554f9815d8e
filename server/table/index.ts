// The live table's public face: the table that changes its game, the boards it stands on, what a board hosts, and the scales' calibration.
export { LiveTable, SetupError, type EndRequest, type FirstGame, type LiveTableOptions, type RawListener, type SetupState, type TableListener, type TableLog } from './live-table.ts';
export { realBoard, simulatedBoard, type AttachedBoard, type TableBoard } from './boards.ts';
export { SEATS, SIDES, checkOptions, defaultPlayers, hostedGames, playersOf, type BoardKind, type BoardShape, type HostedGame, type OptionField, type Seats } from './hosting.ts';
export { KALAHA_CELLS, MIN_CALIBRATION_FRAMES, WeightWindow, measureStones, stoneStats, type CellReading, type CellSuspicion, type Measured, type StoneMeasurement } from './calibration.ts';
