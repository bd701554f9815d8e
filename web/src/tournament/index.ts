// The public face of the tournament pages: <tournament-page> (registered on import) and what its cards say.
export * from './tournament-page.ts';
export * from './summary.ts';
export { boardOfPath } from './route.ts';
export { applyMessage, BroadcastConnection, type LinkState } from './connection.ts';
export { tt, TOURNAMENT_CATALOGUES, type TournamentKey } from './catalogue.ts';
