// The public face of the referee console: <referee-console> (registered on import).
export * from './referee-console.ts';
