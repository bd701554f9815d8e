// Malawi as a GameDefinition: what replay, import, the session and the referee use (RULES.md §2).
import { fail } from './types.ts';
import type { GameDefinition, ReplaySummary, Result } from './types.ts';
import { DEFAULT_OPTIONS, initial, legalMoves, parseOptions, play } from './malawi.ts';
import type { MalawiMove, MalawiOptions, MalawiState } from './malawi.ts';
import { formatMove, parseMove, positionJson } from './malawi-notation.ts';

export const malawiGame: GameDefinition<MalawiState, MalawiMove, MalawiOptions> = {
  name: 'malawi',
  defaultOptions: DEFAULT_OPTIONS,

  // Malawi has no headers of its own; `[Options "…"]` arrives as `input` (a parsed object or its JSON text).
  parseOptions(input: unknown): Result<MalawiOptions> {
    if (typeof input !== 'string') return parseOptions(input);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch {
      return fail('malawi/bad-options', `the Malawi options ${input} are not valid JSON`);
    }
    return parseOptions(parsed);
  },

  initial: (options) => initial(options),
  parseMove: (token, state) => parseMove(token, state.options.size),
  formatMove: (move, state) => formatMove(move, state.options.size),
  play,
  legalMoves,

  summary(state: MalawiState): ReplaySummary {
    return {
      over: state.outcome !== null,
      winner: state.outcome?.winner ?? null,
      toMove: state.outcome === null ? state.toMove : null,
      position: positionJson(state),
    };
  },
};
