// The public face of the display page: <table-display> (registered on import).
export * from './table-display.ts';
