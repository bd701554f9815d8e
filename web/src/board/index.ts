// The public face of the drawn board: <kalaha-board> (registered on import) and its data types.
export * from './kalaha-board.ts';
export { BOARD_HEIGHT, BOARD_WIDTH, MAX_DOTS } from './layout.ts';
