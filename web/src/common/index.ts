// The public face of what every page shares: <lang-toggle> (registered on import) and what the pages say about a
// table, for every game; page.css is imported by each entry.
export * from './lang-toggle.ts';
export * from './present.ts';
export * from './present-makis.ts';
export * from './present-adu.ts';
