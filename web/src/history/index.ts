// The public face of the history pages for other pages: the API's shapes, filters in the address, wording, the
// chart element (registered on import) and the pages' shared look. <games-page> itself comes in through main.ts.
export * from './api.ts';
export * from './filters.ts';
export * from './format.ts';
export * from './colours.ts';
export * from './chart.ts';
export * from './page.ts';
