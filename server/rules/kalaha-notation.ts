// Kalaha in text: moves (`C`, `e`), positions for tests and debugging, and the game's GameDefinition.
//
// Move notation (RULES.md §1): the letter of the pit sown, `A`–`F` for south, `a`–`f` for north.
// Position notation (ours, for tests and logs): pits A–F, then a–f, then the stores south and north,
// then the player to move, the groups separated by `/`:
//   `4 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south`
// A finished game prints `over` in the last place; parsePosition reads only `south` or `north`.
import { DEFAULT_OPTIONS, PITS, fromSetup, initial, legalMoves, parseOptions, play } from './kalaha.ts';
import type { KalahaMove, KalahaOptions, KalahaSetup, KalahaState, PitName } from './kalaha.ts';
import { fail, ok } from './types.ts';
import type { GameDefinition, ReplaySummary, Result } from './types.ts';

/** The letter of pit 0–11. */
export function pitName(pit: number): PitName {
  return PITS[pit];
}

/** The pit 0–11 a letter names, or -1 when it names none. Case matters: `C` is south's, `c` north's. */
export function pitIndex(letter: string): number {
  return (PITS as readonly string[]).indexOf(letter);
}

/** One record token → a move. */
export function parseMove(token: string): Result<KalahaMove> {
  const pit = pitIndex(token);
  if (pit < 0) {
    return fail(
      'kalaha/unreadable-move',
      `"${token}" is not a Kalaha move; a move is the letter of the pit sown, A–F for south or a–f for north.`,
      { move: token },
    );
  }
  return ok({ kind: 'sow', pit });
}

export function formatMove(move: KalahaMove): string {
  return PITS[move.pit] ?? `?${String(move.pit)}`;
}

/** Position notation → an unchecked setup (fromSetup checks the counts). */
export function parsePosition(text: string): Result<KalahaSetup> {
  const groups = text.trim().split('/').map((g) => g.trim());
  const bad = (why: string) => fail('kalaha/unreadable-position', `"${text}" is not a Kalaha position: ${why}`);
  if (groups.length !== 4) return bad('write pits A–F / pits a–f / stores south north / player to move.');
  const numbers = (group: string, count: number): number[] | null => {
    const words = group.split(/\s+/).filter((w) => w !== '');
    if (words.length !== count || !words.every((w) => /^\d+$/.test(w))) return null;
    return words.map(Number);
  };
  const south = numbers(groups[0], 6);
  const north = numbers(groups[1], 6);
  const stores = numbers(groups[2], 2);
  if (!south || !north) return bad('each row needs six whole numbers.');
  if (!stores) return bad('the stores need two whole numbers, south then north.');
  const toMove = groups[3];
  if (toMove !== 'south' && toMove !== 'north') return bad('the player to move is "south" or "north".');
  return ok({ pits: [...south, ...north], stores: [stores[0], stores[1]], toMove });
}

/** A state or setup in position notation; a finished game shows `over` instead of the player to move. */
export function formatPosition(position: KalahaSetup | KalahaState): string {
  const { pits, stores } = position;
  const over = 'outcome' in position && position.outcome !== null;
  return `${pits.slice(0, 6).join(' ')} / ${pits.slice(6, 12).join(' ')} / ${stores[0]} ${stores[1]} / ${over ? 'over' : position.toMove}`;
}

/** The board as the south player sees it, for debugging output. */
export function drawBoard(state: KalahaSetup | KalahaState): string {
  const cell = (n: number) => String(n).padStart(3);
  const { pits, stores } = state;
  const north = [11, 10, 9, 8, 7, 6];
  const south = [0, 1, 2, 3, 4, 5];
  const label = (pit: number) => `  ${PITS[pit]}`;
  return [
    `      ${north.map(label).join('')}`,
    `      ${north.map((p) => cell(pits[p])).join('')}`,
    `  ${cell(stores[1])}${' '.repeat(18)}  ${cell(stores[0])}`,
    `      ${south.map((p) => cell(pits[p])).join('')}`,
    `      ${south.map(label).join('')}`,
    `  to move: ${'outcome' in state && state.outcome ? '— (over)' : state.toMove}`,
  ].join('\n');
}

/** The replay output's `position` (RULES.md §1, "Replay output"). */
export interface KalahaPosition {
  readonly pits: Readonly<Record<PitName, number>>;
  readonly stores: { readonly south: number; readonly north: number };
}

export function positionOf(state: KalahaState): KalahaPosition {
  const pits = {} as Record<PitName, number>;
  PITS.forEach((name, pit) => {
    pits[name] = state.pits[pit];
  });
  return { pits, stores: { south: state.stores[0], north: state.stores[1] } };
}

export function summary(state: KalahaState): ReplaySummary & { readonly position: KalahaPosition } {
  const over = state.outcome !== null;
  return {
    over,
    winner: state.outcome ? state.outcome.winner : null,
    toMove: over ? null : state.toMove,
    position: positionOf(state),
  };
}

/** Kalaha as a GameDefinition: what replay, import and the session use without knowing the game. */
export const kalahaGame: GameDefinition<KalahaState, KalahaMove, KalahaOptions> = {
  name: 'kalaha',
  defaultOptions: DEFAULT_OPTIONS,
  parseOptions: (input) => parseOptions(input),
  initial: (options) => initial(options),
  parseMove: (token) => parseMove(token),
  formatMove: (move) => formatMove(move),
  play,
  legalMoves,
  summary,
};

/** A state from position notation (tests, debugging): parsePosition, then fromSetup. */
export function stateFromPosition(text: string, options?: KalahaOptions): Result<KalahaState> {
  const setup = parsePosition(text);
  return setup.ok ? fromSetup(setup.value, options) : setup;
}
