// Simulated players at a live simulated table (`serve --simulate`): game after game, the board set up again between them.
import type { KalahaTable, TableAction } from '../../firmware-bridge/index.ts';
import { planKalahaGame, type KalahaGamePlan, type KalahaPlayerOptions } from './kalaha-player.ts';
import { playGameAfterGame, type LiveGames, type LiveGamesOptions } from './live-games.ts';

/**
 * What two people do to set the board up again: take the stones out of the stores (and from any
 * pit with too many), then drop them one by one into the pits until each holds `seedsPerPit`.
 */
export function setUpActions(counts: readonly number[], seedsPerPit: number): TableAction[] {
  const actions: TableAction[] = [];
  for (const store of [12, 13]) if (counts[store] > 0) actions.push({ kind: 'lift', cell: store });
  for (let p = 0; p < 12; p++) if (counts[p] > seedsPerPit) actions.push({ kind: 'lift', cell: p, count: counts[p] - seedsPerPit });
  for (let p = 0; p < 12; p++) for (let n = counts[p]; n < seedsPerPit; n++) actions.push({ kind: 'drop', cell: p, ms: 250 });
  return actions;
}

export interface LiveKalahaOptions extends KalahaPlayerOptions, LiveGamesOptions {}

export type LiveKalaha = LiveGames;

/**
 * Has simulated players play on `table`, game after game (game i uses seed `<seed>/<i>`). The
 * table must start in the starting position. `onGame` hears each game's plan as it begins, so a
 * demo can show the true record beside the referee's.
 */
export function playKalahaGames(table: KalahaTable, options: LiveKalahaOptions, onGame?: (plan: KalahaGamePlan, index: number) => void): LiveKalaha {
  return playGameAfterGame(
    table,
    options,
    (seed) => planKalahaGame({ ...options, seed }),
    (played) => setUpActions(table.counts(), played.options.seedsPerPit),
    onGame,
  );
}
