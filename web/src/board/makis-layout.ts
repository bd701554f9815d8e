// Where things sit on the drawn Makis board: 9 × 9 squares, the dice numbers over the columns, row numbers beside
// them, the danger tint, and the arrows for knights to move and pieces to put back.
import { MAKIS_SIZE, makisCell } from '../i18n/catalogue.ts';
import type { Point } from './layout.ts';

export { MAKIS_SIZE };

/** SVG user units; the board scales to its box. */
export const CELL = 100;
/** Above and below the squares: the column numbers, drawn as dice faces (they are the numbers rolled). */
export const COLUMN_MARGIN = 64;
/** Left and right of the squares: the row numbers. */
export const ROW_MARGIN = 48;
/** The side of a column number's die face. */
export const DIE_FACE = 46;
export const MAKI_RADIUS = 30;
export const KNIGHT_HALF_SIDE = 35;

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const BOARD_WIDTH = 2 * ROW_MARGIN + MAKIS_SIZE * CELL;
export const BOARD_HEIGHT = 2 * COLUMN_MARGIN + MAKIS_SIZE * CELL;

export const GRID: Box = { x: ROW_MARGIN, y: COLUMN_MARGIN, width: MAKIS_SIZE * CELL, height: MAKIS_SIZE * CELL };

/**
 * Column 1 on the left, row 1 (the knights' baseline) at the bottom: knights climb the board, Makis
 * come down it from row 9. Cell i = (row − 1) · 9 + (column − 1), as the server and the sensors count.
 */
export function squareBox(cell: number): Box {
  const column = cell % MAKIS_SIZE;
  const row = Math.floor(cell / MAKIS_SIZE);
  return { x: GRID.x + column * CELL, y: GRID.y + (MAKIS_SIZE - 1 - row) * CELL, width: CELL, height: CELL };
}

export function squareCenter(cell: number): Point {
  const box = squareBox(cell);
  return { x: box.x + CELL / 2, y: box.y + CELL / 2 };
}

/** The cell of column `column`, row `row` (both 1–9). */
export function cellAt(column: number, row: number): number {
  return (row - 1) * MAKIS_SIZE + (column - 1);
}

/** Each column's number as a die face above and below the board; each row's number left and right. */
export function columnLabels(): readonly { readonly column: number; readonly top: Box; readonly bottom: Box }[] {
  return Array.from({ length: MAKIS_SIZE }, (_, i) => {
    const x = GRID.x + i * CELL + (CELL - DIE_FACE) / 2;
    const gap = (COLUMN_MARGIN - DIE_FACE) / 2;
    return {
      column: i + 1,
      top: { x, y: gap, width: DIE_FACE, height: DIE_FACE },
      bottom: { x, y: BOARD_HEIGHT - gap - DIE_FACE, width: DIE_FACE, height: DIE_FACE },
    };
  });
}

export function rowLabels(): readonly { readonly row: number; readonly left: Point; readonly right: Point }[] {
  return Array.from({ length: MAKIS_SIZE }, (_, i) => {
    const y = GRID.y + (MAKIS_SIZE - 1 - i) * CELL + CELL / 2;
    return { row: i + 1, left: { x: ROW_MARGIN / 2, y }, right: { x: BOARD_WIDTH - ROW_MARGIN / 2, y } };
  });
}

/**
 * How strongly a square is tinted for a danger share (0–1): nothing at 0, then from a faint wash up to
 * nearly solid at 60 % and beyond. Lightness carries it, so it reads in any colour vision; the
 * number on the square says it exactly.
 */
export function dangerOpacity(share: number): number {
  if (!(share > 0)) return 0;
  return Math.round((0.18 + 0.72 * Math.min(1, share / 0.6)) * 1000) / 1000;
}

/** Where a square's danger number sits: its top-left corner, clear of a Maki in the middle. */
export function dangerLabelAt(cell: number): Point {
  const box = squareBox(cell);
  return { x: box.x + 6, y: box.y + 17 };
}

export interface Line {
  readonly from: Point;
  readonly to: Point;
}

/** A line between two squares' centres, cut back by `startGap` and `endGap` so it leaves the pieces there visible. */
export function arrowBetween(from: number, to: number, startGap: number, endGap: number): Line {
  const a = squareCenter(from);
  const b = squareCenter(to);
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / length;
  const uy = (b.y - a.y) / length;
  return { from: { x: a.x + ux * startGap, y: a.y + uy * startGap }, to: { x: b.x - ux * endGap, y: b.y - uy * endGap } };
}

export interface KnightStep {
  readonly column: number;
  /** The knight's square now. */
  readonly from: number;
  /** Where the roll takes it: one row up per time its number was rolled, at most row 9. */
  readonly to: number;
}

/** The knights a roll moves and where to (RULES.md §3: a double is two single steps; a knight stops on row 9). */
export function knightMoves(knights: readonly number[], roll: readonly number[]): KnightStep[] {
  const counts = new Map<number, number>();
  for (const n of roll) if (n >= 1 && n <= MAKIS_SIZE) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .flatMap(([column, count]) => {
      const row = knights[column - 1];
      if (!(row >= 1 && row <= MAKIS_SIZE)) return [];
      const target = Math.min(MAKIS_SIZE, row + count);
      return target === row ? [] : [{ column, from: cellAt(column, row), to: cellAt(column, target) }];
    });
}

/** How many times each column was rolled (0, 1 or 2), column 1 first. */
export function rolledColumns(roll: readonly number[] | null): number[] {
  const counts = new Array<number>(MAKIS_SIZE).fill(0);
  for (const n of roll ?? []) if (n >= 1 && n <= MAKIS_SIZE) counts[n - 1]++;
  return counts;
}

/** A square name (`c4r6`) as a cell, or null when it is none. */
export function cellOf(name: string | null | undefined): number | null {
  return typeof name === 'string' ? makisCell(name) : null;
}

/** The knight's silhouette in a 100 × 100 box: a horse's head facing left on a base. */
export const KNIGHT_PATH =
  'M27 88 L75 88 L73 77 L65 72 C63 60 65 50 71 40 C76 31 74 20 64 14 L61 5 L54 13 C44 13 34 21 28 33 ' +
  'L19 48 C17 53 20 58 25 58 L31 57 L40 50 C45 52 46 57 42 63 C37 69 33 72 33 77 L28 78 Z';
