// Square boards (Malawi, Makis, Adu): coordinates, square names, immutable grids read from G and C frames, and their differences.
//
// One foundation for every game played on squares or intersections, up to 13 × 13 (Adu's
// default). Cells follow the line protocol: cell i = row * cols + col, row 0 = rank 1, col 0 =
// file a. A grid holds one number per cell: 0/1 for an occupancy board (G frames), the count for
// a counting board (C frames; Malawi reads 0 for an empty square and 1 + beads for a piece).

export const MAX_BOARD_SIZE = 13;
export const FILE_LETTERS = 'abcdefghijklm';

export interface BoardShape {
  readonly cols: number;
  readonly rows: number;
}

/**
 * The shape of a board of `cols` × `rows` (square when `rows` is left out). A shape outside
 * 1…13 is a programming or configuration error, not something a player did, so it throws.
 */
export function boardShape(cols: number, rows: number = cols): BoardShape {
  for (const [name, n] of [['cols', cols], ['rows', rows]] as const) {
    if (!Number.isInteger(n) || n < 1 || n > MAX_BOARD_SIZE) throw new RangeError(`${name} must be a whole number from 1 to ${MAX_BOARD_SIZE}, not ${n}`);
  }
  return Object.freeze({ cols, rows });
}

export const cellCount = (shape: BoardShape): number => shape.cols * shape.rows;
export const cellAt = (shape: BoardShape, row: number, col: number): number => row * shape.cols + col;
export const rowOf = (shape: BoardShape, cell: number): number => Math.floor(cell / shape.cols);
export const colOf = (shape: BoardShape, cell: number): number => cell % shape.cols;

export function onBoard(shape: BoardShape, row: number, col: number): boolean {
  return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < shape.rows && col >= 0 && col < shape.cols;
}

/** `a1`-style name of a cell: file letter, then rank number. */
export function squareName(shape: BoardShape, cell: number): string {
  return `${FILE_LETTERS[colOf(shape, cell)]}${rowOf(shape, cell) + 1}`;
}

const SQUARE_NAME = /^([a-m])([1-9][0-9]?)$/;

/** The cell a name like `c3` stands for on this board (any case), or null when it is not one. */
export function parseSquareName(shape: BoardShape, text: string): number | null {
  const match = SQUARE_NAME.exec(text.toLowerCase());
  if (!match) return null;
  const col = FILE_LETTERS.indexOf(match[1]);
  const row = Number(match[2]) - 1;
  return onBoard(shape, row, col) ? cellAt(shape, row, col) : null;
}

// ---------------------------------------------------------------------------------------------
// Grids

/** An immutable picture of a square board: one value per cell, in cell order. */
export interface Grid {
  readonly shape: BoardShape;
  readonly cells: readonly number[];
}

/** A grid holding a copy of `values` (one per cell of `shape`). */
export function gridOf(shape: BoardShape, values: ArrayLike<number>): Grid {
  const n = cellCount(shape);
  if (values.length !== n) throw new RangeError(`a ${shape.cols} × ${shape.rows} grid needs ${n} values, not ${values.length}`);
  const cells: number[] = new Array(n);
  for (let i = 0; i < n; i++) cells[i] = values[i];
  return Object.freeze({ shape, cells: Object.freeze(cells) });
}

/** A G frame's occupancy (bit i = cell i) as a grid of 0/1; bits beyond the board are ignored. */
export function gridFromBits(shape: BoardShape, bits: bigint): Grid {
  const values = new Array<number>(cellCount(shape));
  bitsInto(bits, values, values.length);
  return gridOf(shape, values);
}

/** A C frame's counts as a grid; a frame with the wrong number of cells is refused. */
export function gridFromCounts(shape: BoardShape, counts: readonly number[]): Grid {
  return gridOf(shape, counts);
}

/** Occupancy of a counting grid: 1 wherever the count is not zero. */
export function occupancyOf(grid: Grid): Grid {
  return gridOf(
    grid.shape,
    grid.cells.map((v) => (v !== 0 ? 1 : 0)),
  );
}

/** The G-frame bits of a grid (any non-zero cell is an occupied bit): the inverse of gridFromBits. */
export function bitsOf(cells: ArrayLike<number>): bigint {
  let bits = 0n;
  for (let i = cells.length - 1; i >= 0; i--) bits = (bits << 1n) | (cells[i] !== 0 ? 1n : 0n);
  return bits;
}

/**
 * Writes bit i of `bits` into out[i] for the first `cells` cells. For the per-frame path: 32 bits
 * are taken at a time as a plain number, so a 6 × 6 board costs two small bigint operations per
 * changed frame instead of one per cell.
 */
export function bitsInto(bits: bigint, out: { [i: number]: number; readonly length: number }, cells: number): void {
  let rest = bits;
  for (let base = 0; base < cells; base += 32) {
    let word = Number(BigInt.asUintN(32, rest));
    const end = Math.min(base + 32, cells);
    for (let i = base; i < end; i++) {
      out[i] = word & 1;
      word >>>= 1;
    }
    if (end < cells) rest >>= 32n;
  }
}

/** Whether two pictures agree on every cell, except the cells listed in `skip`. */
export function sameCells(a: ArrayLike<number>, b: ArrayLike<number>, skip: readonly number[] = []): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !skip.includes(i)) return false;
  return true;
}

/** One cell where a sensed picture differs from the expected one. */
export interface CellDiff {
  readonly cell: number;
  /** Sensed minus expected, in the board's unit: +1 = a piece there that should not be, −1 = a piece missing. */
  readonly diff: number;
}

/**
 * The cells where `sensed` differs from `expected`, in cell order, with sensed − expected; cells
 * listed in `skip` (sensors not to be trusted) are left out.
 */
export function diffGrids(expected: ArrayLike<number>, sensed: ArrayLike<number>, skip: readonly number[] = []): CellDiff[] {
  if (expected.length !== sensed.length) throw new RangeError(`grids of ${expected.length} and ${sensed.length} cells cannot be compared`);
  const diffs: CellDiff[] = [];
  for (let i = 0; i < expected.length; i++) {
    if (expected[i] !== sensed[i] && !skip.includes(i)) diffs.push({ cell: i, diff: sensed[i] - expected[i] });
  }
  return diffs;
}

/**
 * A grid as text, ranks from the top down to rank 1 (as the board is seen from south): `.` for 0,
 * the value otherwise (values above 9 in brackets). For test failures and logs.
 */
export function formatGrid(shape: BoardShape, cells: ArrayLike<number>): string {
  const ranks: string[] = [];
  for (let row = shape.rows - 1; row >= 0; row--) {
    let rank = '';
    for (let col = 0; col < shape.cols; col++) {
      const v = cells[cellAt(shape, row, col)];
      rank += v === 0 ? '.' : v > 9 || v < 0 ? `(${v})` : String(v);
    }
    ranks.push(rank);
  }
  return ranks.join('/');
}
