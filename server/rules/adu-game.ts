// Adu as a GameDefinition: what replay, import, the session and the referee use (RULES.md §4).
import type { GameDefinition, ReplaySummary } from './types.ts';
import { DEFAULT_OPTIONS, initial, legalMoves, parseOptions, play } from './adu.ts';
import type { AduMove, AduOptions, AduState } from './adu.ts';
import { formatMove, parseMove, positionJson } from './adu-notation.ts';
import type { AduPosition } from './adu-notation.ts';

export function summary(state: AduState): ReplaySummary & { readonly position: AduPosition } {
  const over = state.outcome !== null;
  return {
    over,
    winner: state.outcome === null ? null : String(state.outcome.winner),
    toMove: over ? null : String(state.toMove),
    position: positionJson(state),
  };
}

export const aduGame: GameDefinition<AduState, AduMove, AduOptions> = {
  name: 'adu',
  defaultOptions: DEFAULT_OPTIONS,
  // `[Players "n"]` is Adu's own header; `[Options "…"]` arrives already parsed as `input`.
  parseOptions: (input, headers) => parseOptions(input, headers),
  initial: (options) => initial(options),
  parseMove: (token, state) => parseMove(token, state.options.size),
  formatMove: (move, state) => formatMove(move, state.options.size),
  play,
  legalMoves,
  summary,
};
