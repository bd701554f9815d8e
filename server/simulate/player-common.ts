// What every game's simulated players share: marks that time the script, take-backs as plan events, comparing what sensors read, a piece's way along a line.
/** The players take back moves: the mark their hands start at, and the moves undone, last first. */
export interface TakeBackPlanEvent {
  readonly kind: 'take-back';
  readonly label: string;
  readonly moves: readonly string[];
}

/**
 * Marks in a script: each call puts a `mark` with a label of its own (`<kind>-<n>`) into
 * `actions` and returns the label, so the generator can tell when the board reached it.
 */
export function scriptMarks(actions: { push(mark: { readonly kind: 'mark'; readonly label: string }): unknown }): (kind: string) => string {
  let labels = 0;
  return (kind) => {
    const label = `${kind}-${++labels}`;
    actions.push({ kind: 'mark', label });
    return label;
  };
}

/** Whether two readings of a board's cells are the same. */
export function sameCells(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether every square strictly between `from` and `to`, on one rank or file of an `n` × `n` board, is empty (a piece slides only over empty squares). */
export function clearLine(squares: readonly unknown[], from: number, to: number, n: number): boolean {
  const dRow = Math.floor(to / n) - Math.floor(from / n);
  const dCol = (to % n) - (from % n);
  if (dRow !== 0 && dCol !== 0) return false;
  const step = Math.sign(dRow) * n + Math.sign(dCol);
  for (let sq = from + step; sq !== to; sq += step) if (squares[sq] !== null) return false;
  return true;
}
