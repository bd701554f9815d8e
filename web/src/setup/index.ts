// The public face of the setup page: <setup-page> and its parts (registered on import), and the pure logic behind them.
export * from './setup-page.ts';
export * from './game-form.ts';
export * from './scales-wizard.ts';
export * from './raw-view.ts';
export * from './raw.ts';
export * from './seats.ts';
export * from './outcome.ts';
