// The public face of the drawn boards: <kalaha-board>, <malawi-board>, <makis-board>, <adu-board> (registered on
// import), their data types, and the players' marks the pages put beside names.
export * from './kalaha-board.ts';
export * from './malawi-board.ts';
export * from './makis-board.ts';
export * from './adu-board.ts';
export * from './makis-dice.ts';
export { gameBoard, type BoardSelection } from './game-board.ts';
export { BOARD_HEIGHT, BOARD_WIDTH, MAX_DOTS } from './layout.ts';
export { MAX_BEADS, moveMarks, type MalawiLastMove, type MoveMarks } from './malawi-layout.ts';
export { knightMoves, rolledColumns } from './makis-layout.ts';
export { PLAYER_STYLES, playerStyle, type PlayerStyle } from './players.ts';
export { playerIcon } from './player-mark.ts';
