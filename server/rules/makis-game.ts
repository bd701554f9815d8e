// Makis as a GameDefinition: what replay, import, the session and the referee use (RULES.md §3).
import { fail } from './types.ts';
import type { GameDefinition, Result } from './types.ts';
import { DEFAULT_OPTIONS, initial, legalMoves, parseOptions, play } from './makis.ts';
import type { MakisMove, MakisOptions, MakisState } from './makis.ts';
import { formatMove, parseMove, summary } from './makis-notation.ts';

export const makisGame: GameDefinition<MakisState, MakisMove, MakisOptions> = {
  name: 'makis',
  defaultOptions: DEFAULT_OPTIONS,

  // `[Options "…"]` arrives as `input` (a parsed object or its JSON text); `[Players "3"]` among the headers.
  parseOptions(input: unknown, headers?: ReadonlyMap<string, string>): Result<MakisOptions> {
    if (typeof input !== 'string') return parseOptions(input, headers);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch {
      return fail('options/invalid', `the Makis options ${input} are not valid JSON`);
    }
    return parseOptions(parsed, headers);
  },

  initial(options: MakisOptions): MakisState {
    const state = initial(options);
    // parseOptions has checked them; options it would refuse are a programming error here.
    if (!state.ok) throw new RangeError(state.error.message);
    return state.value;
  },
  parseMove: (token) => parseMove(token),
  formatMove: (move) => formatMove(move),
  play,
  legalMoves,
  summary,
};
