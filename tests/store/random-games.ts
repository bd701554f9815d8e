// Whole games from the engines' random play, for round trips and benches: legal by construction.
import { gameDefinition } from '../../server/rules/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { mulberry32 } from '../support/prng.ts';

export interface RandomGame {
  readonly game: GameName;
  /** The engine's full options. */
  readonly options: object;
  readonly moves: string[];
  readonly over: boolean;
  readonly winner: string | null;
  readonly reason: string | null;
}

/** Plays random legal moves from the start until the game ends or `maxPlies` moves are made. */
export function randomGame(game: GameName, input: object, seed: number, maxPlies = 2000): RandomGame {
  const def = gameDefinition(game);
  if (!def) throw new Error(`no engine for ${game}`);
  const parsed = def.parseOptions(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const random = mulberry32(seed);
  let state = def.initial(parsed.value);
  const moves: string[] = [];
  while (!def.summary(state).over && moves.length < maxPlies) {
    const legal = def.legalMoves(state);
    if (legal.length === 0) throw new Error(`${game}: no legal move in a game that is not over`);
    const move = legal[Math.floor(random() * legal.length)];
    moves.push(def.formatMove(move, state));
    const next = def.play(state, move);
    if (!next.ok) throw new Error(`${game}: the engine refuses its own legal move: ${next.error.message}`);
    state = next.value;
  }
  const summary = def.summary(state);
  const outcome = (state as { outcome?: { reason?: string } | null }).outcome;
  return { game, options: parsed.value as object, moves, over: summary.over, winner: summary.winner, reason: outcome?.reason ?? null };
}
