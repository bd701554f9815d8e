// The public face of the stand-in pages: <coming-later> (registered on import).
export * from './coming-later.ts';
