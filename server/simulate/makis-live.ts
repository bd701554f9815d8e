// Simulated Makis players at a live simulated 9 × 9 board: game after game, the board set up again between them.
import type { GridAction, GridPiece, GridTable } from '../../firmware-bridge/index.ts';
import { SIZE, square } from '../rules/makis.ts';
import { KNIGHT_COLOUR, checkedOptions, planMakisGame, type MakisGamePlan, type MakisPlayerOptions } from './makis-player.ts';

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

export interface LiveMakisOptions extends MakisPlayerOptions {
  /** The board stands still this long before each game. Default 3000 ms. */
  readonly calibrationMs?: number;
  /** Pause after a game before the board is set up again. Default 5000 ms. */
  readonly betweenGamesMs?: number;
  /** Games to play; default: until stopped. */
  readonly games?: number;
}

export interface LiveMakis {
  /** Stops after the game being played (the board finishes its script). */
  stop(): void;
}

/**
 * Has simulated players play on `table`, game after game (game i uses seed `<seed>/<i>`). The
 * board must be 9 × 9 and start as `makisBoardSetup(rules)` sets it (knights on their rows, the
 * Makis beside the board). `onGame` hears each game's plan as it begins.
 */
export function playMakisGames(table: GridTable, options: LiveMakisOptions, onGame?: (plan: MakisGamePlan, index: number) => void): LiveMakis {
  if (table.cols !== SIZE || table.rows !== SIZE) throw new RangeError(`Makis needs a 9 × 9 board, not ${table.cols} × ${table.rows}`);
  const rules = checkedOptions(options.rules ?? {});
  let stopped = false;
  let index = 0;
  const more = (): boolean => !stopped && (options.games === undefined || index < options.games);
  const next = (): void => {
    if (!more()) return;
    const plan = planMakisGame({ ...options, seed: `${String(options.seed)}/${index}` });
    onGame?.(plan, index);
    index++;
    table.perform([{ kind: 'wait', ms: options.calibrationMs ?? 3000 }, ...plan.actions, { kind: 'wait', ms: options.betweenGamesMs ?? 5000 }], () => {
      if (!more()) return;
      table.perform(setUpMakisActions(table.pieces(), rules.knights), next);
    });
  };
  next();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
