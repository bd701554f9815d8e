// The public face of the pages' texts: the catalogue, alerts as sentences, and the language choice.
export * from './catalogue.ts';
export * from './alerts.ts';
export * from './lang.ts';
