// The public face of the drawn boards: <kalaha-board> and <malawi-board> (registered on import) and their data types.
export * from './kalaha-board.ts';
export * from './malawi-board.ts';
export { BOARD_HEIGHT, BOARD_WIDTH, MAX_DOTS } from './layout.ts';
export { MAX_BEADS, moveMarks, type MalawiLastMove, type MoveMarks } from './malawi-layout.ts';
