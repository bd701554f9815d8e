// The public face of a page's link to the server: the controller, and the pure state it keeps.
export * from './controller.ts';
export * from './state.ts';
export * from './link.ts';
