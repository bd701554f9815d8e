// Simulated Makis players at a live simulated 9 × 9 board: game after game, the board set up again between them.
import type { GridAction, GridPiece, GridTable } from '../../firmware-bridge/index.ts';
import { SIZE, square } from '../rules/makis.ts';
import { KNIGHT_COLOUR, checkedOptions, planMakisGame, type MakisGamePlan, type MakisPlayerOptions } from './makis-player.ts';
import { playGameAfterGame, type LiveGames, type LiveGamesOptions } from './live-games.ts';

/**
 * What the players do to set the board up again: every Maki on the board goes back beside it,
 * then every knight goes back to its starting row (knights never leave their column). Pieces of
 * other colours than the knights' are taken to be Makis.
 */
export function setUpMakisActions(pieces: readonly GridPiece[], knights: readonly number[]): GridAction[] {
  const actions: GridAction[] = [];
  const onBoard = pieces.filter((p): p is GridPiece & { cell: number } => p.cell !== null);
  for (const p of onBoard) {
    if (p.colour === KNIGHT_COLOUR) continue;
    actions.push({ kind: 'lift', cell: p.cell }, { kind: 'stow-piece', piece: p.id });
  }
  for (const p of onBoard) {
    if (p.colour !== KNIGHT_COLOUR) continue;
    const column = (p.cell % SIZE) + 1;
    const home = square(column, knights[column - 1]);
    if (p.cell !== home) actions.push({ kind: 'carry', from: p.cell, to: home });
  }
  return actions;
}

export interface LiveMakisOptions extends MakisPlayerOptions, LiveGamesOptions {}

export type LiveMakis = LiveGames;

/**
 * Has simulated players play on `table`, game after game (game i uses seed `<seed>/<i>`). The
 * board must be 9 × 9 and start as `makisBoardSetup(rules)` sets it (knights on their rows, the
 * Makis beside the board). `onGame` hears each game's plan as it begins.
 */
export function playMakisGames(table: GridTable, options: LiveMakisOptions, onGame?: (plan: MakisGamePlan, index: number) => void): LiveMakis {
  if (table.cols !== SIZE || table.rows !== SIZE) throw new RangeError(`Makis needs a 9 × 9 board, not ${table.cols} × ${table.rows}`);
  const rules = checkedOptions(options.rules ?? {});
  return playGameAfterGame(table, options, (seed) => planMakisGame({ ...options, seed }), () => setUpMakisActions(table.pieces(), rules.knights), onGame);
}
