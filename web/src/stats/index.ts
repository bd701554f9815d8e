// The public face of the statistics pages for other pages: <today-at-table> (registered on import) for the public
// display's idle screen, and the wording of counts and wins. <stats-page> itself comes in through main.ts.
export * from './today-at-table.ts';
export * from './present.ts';
