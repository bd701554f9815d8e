// The hand-entry field of the console: taps on squares and joiner keys build a move in notation. Text only, no rules.

/** The joiners of Malawi's notation (RULES.md §2): move `c1-c3`, capture `c1xc5`, distribute `d1>a1,b1`. */
export const MALAWI_JOINERS = ['-', 'x', '>', ','] as const;
export type Joiner = (typeof MALAWI_JOINERS)[number];

const SQUARE_AT_END = /[a-l]\d{1,2}$/i;
const SQUARES = /[a-l]\d{1,2}/gi;

/**
 * Adds a tapped square or a joiner to what is typed. A square after a square replaces it (the
 * referee tapped the wrong one); a joiner after a joiner replaces it too; a joiner needs a square
 * before it.
 */
export function appendToEntry(text: string, token: string): string {
  const current = text.trim();
  const isJoiner = (MALAWI_JOINERS as readonly string[]).includes(token);
  if (isJoiner) {
    if (current === '') return current;
    const last = current[current.length - 1];
    if ((MALAWI_JOINERS as readonly string[]).includes(last)) return current.slice(0, -1) + token;
    return current + token;
  }
  if (SQUARE_AT_END.test(current)) return current.replace(SQUARE_AT_END, token);
  return current + token;
}

/** The squares named in the field, for marking them on the board. */
export function squaresIn(text: string): string[] {
  return (text.match(SQUARES) ?? []).map((s) => s.toLowerCase());
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
): { readonly shown: readonly string[]; readonly matching: number } {
  const wanted = [...new Set(squares.map((s) => s.toLowerCase()))];
  const matching = wanted.length
    ? options.filter((option) => {
        const named = new Set(squaresIn(option));
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
