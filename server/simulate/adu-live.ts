// Simulated Adu players at a live simulated board: game after game, the board cleared between them.
import type { GridAction, GridPiece, GridTable } from '../../firmware-bridge/index.ts';
import { DEFAULT_OPTIONS } from '../rules/adu.ts';
import { planAduGame, type AduGamePlan, type AduPlayerOptions } from './adu-player.ts';
import { playGameAfterGame, type LiveGames, type LiveGamesOptions } from './live-games.ts';

/** What people do after a game of Adu: every piece off the board, back beside it. */
export function clearAduBoardActions(pieces: readonly GridPiece[]): GridAction[] {
  const actions: GridAction[] = [];
  for (const p of pieces) if (p.cell !== null) actions.push({ kind: 'lift', cell: p.cell }, { kind: 'stow-piece' });
  return actions;
}

/** The board stands still, empty, before each game, and is cleared after it. */
export interface LiveAduOptions extends Omit<AduPlayerOptions, 'silent'>, LiveGamesOptions {}

export type LiveAdu = LiveGames;

/**
 * Has simulated players play on `table`, game after game (game i uses seed `<seed>/<i>`). The
 * board must be `size` × `size`, empty, with the pieces beside it (`aduBoardSetup(rules)`).
 *
 * These players cannot talk to the referee console. So they play silently (`silent` in
 * AduPlayerOptions): they take the captured piece off before moving onto its point, so the board
 * sees what was captured; they make no move that looks like another to the board; and the owner of
 * a captured soldier always declares the lowest range still possible — the rules' default, which
 * is what the referee takes when a move depends on a declaration nobody gave
 * (`declareTimeoutMs: 0` on the simulated table). The declaration question stays open on the
 * console until then, and the game never waits for it.
 */
export function playAduGames(table: GridTable, options: LiveAduOptions, onGame?: (plan: AduGamePlan, index: number) => void): LiveAdu {
  const size = options.rules?.size ?? DEFAULT_OPTIONS.size;
  if (table.cols !== size || table.rows !== size) throw new RangeError(`Adu of size ${size} needs a ${size} × ${size} board, not ${table.cols} × ${table.rows}`);
  return playGameAfterGame(table, options, (seed) => planAduGame({ ...options, silent: true, seed }), () => clearAduBoardActions(table.pieces()), onGame);
}
