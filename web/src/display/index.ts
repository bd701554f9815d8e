// The public face of the display page: <kalaha-display> (registered on import) and what it says about a table.
export * from './kalaha-display.ts';
export * from './present.ts';
