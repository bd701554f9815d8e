// Simulated Adu players at a live simulated board: game after game, the board cleared between them.
import type { GridAction, GridPiece, GridTable } from '../../firmware-bridge/index.ts';
import { DEFAULT_OPTIONS } from '../rules/adu.ts';
import { planAduGame, type AduGamePlan, type AduPlayerOptions } from './adu-player.ts';

/** What people do after a game of Adu: every piece off the board, back beside it. */
export function clearAduBoardActions(pieces: readonly GridPiece[]): GridAction[] {
  const actions: GridAction[] = [];
  for (const p of pieces) if (p.cell !== null) actions.push({ kind: 'lift', cell: p.cell }, { kind: 'stow-piece' });
  return actions;
}

export interface LiveAduOptions extends Omit<AduPlayerOptions, 'silent'> {
  /** The board stands still this long, empty, before each game. Default 3000 ms. */
  readonly calibrationMs?: number;
  /** Pause after a game before the board is cleared. Default 5000 ms. */
  readonly betweenGamesMs?: number;
  /** Games to play; default: until stopped. */
  readonly games?: number;
}

export interface LiveAdu {
  /** Stops after the game being played (the board finishes its script). */
  stop(): void;
}

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
  let stopped = false;
  let index = 0;
  const more = (): boolean => !stopped && (options.games === undefined || index < options.games);
  const next = (): void => {
    if (!more()) return;
    const plan = planAduGame({ ...options, silent: true, seed: `${String(options.seed)}/${index}` });
    onGame?.(plan, index);
    index++;
    table.perform([{ kind: 'wait', ms: options.calibrationMs ?? 3000 }, ...plan.actions, { kind: 'wait', ms: options.betweenGamesMs ?? 5000 }], () => {
      if (!more()) return;
      table.perform(clearAduBoardActions(table.pieces()), next);
    });
  };
  next();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
