// The public face of what every page shares: <lang-toggle> (registered on import); page.css is imported by each entry.
export * from './lang-toggle.ts';
