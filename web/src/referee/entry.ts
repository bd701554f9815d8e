// The hand-entry field of the console: taps on squares and joiner keys build a move in notation. Text only, no rules.
import type { GameView } from '../../../server/http/messages.ts';

/** The joiners of Malawi's notation (RULES.md §2): move `c1-c3`, capture `c1xc5`, distribute `d1>a1,b1`. */
export const MALAWI_JOINERS = ['-', 'x', '>', ','] as const;
/** Adu's (RULES.md §4): move `d4-d7`, capture `d4xd7`, the reserve king `e5xe9R@h8`. A declared range is typed. */
export const ADU_JOINERS = ['-', 'x', 'R@'] as const;
export type Joiner = (typeof MALAWI_JOINERS)[number] | (typeof ADU_JOINERS)[number];

/** The joiner keys the console offers for a game: none for Kalaha's pit letters and Makis' tokens. */
export function joinersFor(game: GameView['game']): readonly Joiner[] {
  return game === 'malawi' ? MALAWI_JOINERS : game === 'adu' ? ADU_JOINERS : [];
}

/** How each grid game writes a square: Malawi `c3` (up to 12 × 12), Adu `m13` (up to 19 × 19), Makis `c4r8`. */
const SQUARE_PATTERNS = {
  malawi: '[a-l]\\d{1,2}',
  adu: '[a-s]\\d{1,2}',
  makis: 'c[1-9]r[1-9]',
} as const;
export type GridGame = keyof typeof SQUARE_PATTERNS;

const atEnd = (game: GridGame) => new RegExp(`${SQUARE_PATTERNS[game]}$`, 'i');
const everywhere = (game: GridGame) => new RegExp(SQUARE_PATTERNS[game], 'gi');

/**
 * Adds a tapped square or a joiner to what is typed. A square after a square replaces it (the
 * referee tapped the wrong one); a joiner after a joiner replaces it too; a joiner needs a square
 * before it.
 */
export function appendToEntry(text: string, token: string, game: GridGame = 'malawi'): string {
  const current = text.trim();
  const joiners: readonly string[] = game === 'adu' ? ADU_JOINERS : game === 'malawi' ? MALAWI_JOINERS : [];
  if (joiners.includes(token)) {
    if (current === '') return current;
    const previous = joiners.find((j) => current.endsWith(j));
    if (previous !== undefined) return current.slice(0, -previous.length) + token;
    return current + token;
  }
  const square = atEnd(game);
  if (square.test(current)) return current.replace(square, token);
  return current + token;
}

/** The squares named in the field, for marking them on the board. */
export function squaresIn(text: string, game: GridGame = 'malawi'): string[] {
  return (text.match(everywhere(game)) ?? []).map((s) => s.toLowerCase());
}

/** What is sent: the field without spaces (players write `c1 - c3` too); the server does the checking. */
export function normaliseEntry(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * The answers to show for a question: those that name every square typed or tapped so far, at most
 * `limit` of them. The referee may be offered dozens of distributions; tapping the pieces narrows them.
 */
export function narrowOptions(
  options: readonly string[],
  squares: readonly string[],
  limit: number,
  game: GridGame = 'malawi',
): { readonly shown: readonly string[]; readonly matching: number } {
  const wanted = [...new Set(squares.map((s) => s.toLowerCase()))];
  const matching = wanted.length
    ? options.filter((option) => {
        const named = new Set(squaresIn(option, game));
        return wanted.every((s) => named.has(s));
      })
    : options;
  return { shown: byLikelihood(matching).slice(0, limit), matching: matching.length };
}

/**
 * Captures first (a handful, and what a referee most often has to name), then plain moves, then
 * distributions with the fewest recipients first; otherwise in the server's order. Notation only.
 */
function byLikelihood(options: readonly string[]): string[] {
  const rank = (option: string): number => {
    if (option.includes('x')) return 0;
    if (option.includes('>')) return 2 + option.split(',').length;
    return 1;
  };
  return options
    .map((option, i) => ({ option, i, rank: rank(option) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((o) => o.option);
}

/**
 * The option a question with `preselected` shows chosen: the referee's own pick while it is still
 * offered, else the server's preselection, else none (the question then answers with one tap per option).
 */
export function chosenOption(options: readonly string[], preselected: string | undefined, picked: string | undefined): string | null {
  if (picked !== undefined && options.includes(picked)) return picked;
  if (preselected !== undefined && options.includes(preselected)) return preselected;
  return null;
}
