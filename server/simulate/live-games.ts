// Simulated players at a live simulated board, game after game: what every game's live table shares.
import type { CommonAction, SimulatedFirmware } from '../../firmware-bridge/index.ts';

/** What a live table adds to its players' options. */
export interface LiveGamesOptions {
  readonly seed: number | string;
  /** The board stands still this long before each game (the referee calibrates). Default 3000 ms. */
  readonly calibrationMs?: number;
  /** Pause after a game before the board is set up again. Default 5000 ms. */
  readonly betweenGamesMs?: number;
  /** Games to play; default: until stopped. */
  readonly games?: number;
}

export interface LiveGames {
  /** Stops after the game being played (the board finishes its script). */
  stop(): void;
}

/**
 * Has simulated players play on `board`, game after game: game i is planned with seed
 * `<seed>/<i>`, and `onGame` hears its plan as it begins, so a demo can show the true record
 * beside the referee's. After each game the players set the board up again (`setUp` reads the
 * board as the game left it).
 */
export function playGameAfterGame<Action extends { readonly kind: string }, Plan extends { readonly actions: readonly (Action | CommonAction)[] }>(
  board: SimulatedFirmware<Action | CommonAction>,
  options: LiveGamesOptions,
  plan: (seed: string) => Plan,
  setUp: (played: Plan) => readonly (Action | CommonAction)[],
  onGame?: (plan: Plan, index: number) => void,
): LiveGames {
  let stopped = false;
  let index = 0;
  const more = (): boolean => !stopped && (options.games === undefined || index < options.games);
  const next = (): void => {
    if (!more()) return;
    const game = plan(`${String(options.seed)}/${index}`);
    onGame?.(game, index);
    index++;
    board.perform([{ kind: 'wait', ms: options.calibrationMs ?? 3000 }, ...game.actions, { kind: 'wait', ms: options.betweenGamesMs ?? 5000 }], () => {
      if (!more()) return;
      board.perform(setUp(game), next);
    });
  };
  next();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
