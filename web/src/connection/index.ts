// The public face of a page's link to the server: the controller, the pure table state it keeps, and the console's command log.
export * from './controller.ts';
export * from './state.ts';
export * from './link.ts';
export * from './commands.ts';
