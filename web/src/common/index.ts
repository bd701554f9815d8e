// The public face of what every page shares: <lang-toggle> (registered on import) and what the pages say about a
// table; page.css is imported by each entry.
export * from './lang-toggle.ts';
export * from './present.ts';
