// Where things sit on the drawn Malawi board: squares seen from south, labels on every side, beads on a piece.
import type { MalawiView } from '../../../server/http/messages.ts';
import { squareIndex } from '../i18n/catalogue.ts';
import type { Point } from './layout.ts';

export type MalawiLastMove = NonNullable<MalawiView['lastMove']>;

/** SVG user units; the board scales to its box. */
export const CELL = 100;
/** Room around the squares for the file letters and rank numbers. */
export const LABEL_MARGIN = 46;
/** Beyond the labels, at south's and north's edge, the bar that shows whose turn it is. */
export const TURN_MARGIN = 22;
export const PIECE_RADIUS = 36;
/** North's pieces are rounded squares of this half-side: a shape, not only a shade, tells the sides apart. */
export const PIECE_HALF_SIDE = 33;
export const BEAD_RADIUS = 7;
/** The most beads drawn as dots (maxStrength is at most 7); a stronger piece shows a numeral. */
export const MAX_BEADS = 7;

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Label extends Point {
  readonly text: string;
}

export function boardWidth(size: number): number {
  return 2 * LABEL_MARGIN + size * CELL;
}

export function boardHeight(size: number): number {
  return 2 * (LABEL_MARGIN + TURN_MARGIN) + size * CELL;
}

/** The squares' area, without labels and turn bars. */
export function gridBox(size: number): Box {
  return { x: LABEL_MARGIN, y: TURN_MARGIN + LABEL_MARGIN, width: size * CELL, height: size * CELL };
}

/**
 * Seen from south, as the players' record reads: file a on the left, rank 1 (south's baseline)
 * at the bottom. Cell i = row * size + col, row 0 = rank 1, col 0 = file a.
 */
export function squareBox(cell: number, size: number): Box {
  const row = Math.floor(cell / size);
  const col = cell % size;
  const grid = gridBox(size);
  return { x: grid.x + col * CELL, y: grid.y + (size - 1 - row) * CELL, width: CELL, height: CELL };
}

export function squareCenter(cell: number, size: number): Point {
  const box = squareBox(cell, size);
  return { x: box.x + CELL / 2, y: box.y + CELL / 2 };
}

/** Dark and light squares alternate as on a chessboard: a1 dark, so each side's left-hand corner is dark. */
export function isDarkSquare(cell: number, size: number): boolean {
  return (Math.floor(cell / size) + (cell % size)) % 2 === 0;
}

const FILES = 'abcdefghijkl';

/** File letters under and above the squares, rank numbers left and right of them: readable from both ends of the table. */
export function boardLabels(size: number): { readonly files: readonly Label[]; readonly ranks: readonly Label[] } {
  const grid = gridBox(size);
  const files: Label[] = [];
  const ranks: Label[] = [];
  for (let i = 0; i < size; i++) {
    const x = grid.x + i * CELL + CELL / 2;
    files.push({ text: FILES[i], x, y: grid.y + grid.height + LABEL_MARGIN / 2 });
    files.push({ text: FILES[i], x, y: grid.y - LABEL_MARGIN / 2 });
    const y = grid.y + (size - 1 - i) * CELL + CELL / 2;
    ranks.push({ text: String(i + 1), x: LABEL_MARGIN / 2, y });
    ranks.push({ text: String(i + 1), x: grid.x + grid.width + LABEL_MARGIN / 2, y });
  }
  return { files, ranks };
}

/** The bar along the edge of the side to move: south's at the bottom, north's at the top. */
export function turnBar(side: 'south' | 'north', size: number): Box {
  const grid = gridBox(size);
  const height = 12;
  const y = side === 'south' ? boardHeight(size) - TURN_MARGIN / 2 - height / 2 : TURN_MARGIN / 2 - height / 2;
  return { x: grid.x, y, width: grid.width, height };
}

const BEAD_STEP = 16;
const BEAD_ROW = 18;
/** Dice faces: a count is seen, not counted, and 6 and 7 stay apart by the middle bead. */
const BEAD_PATTERNS: readonly (readonly (readonly [number, number])[])[] = [
  [],
  [[0, 0]],
  [[-1, -1], [1, 1]],
  [[-1, -1], [0, 0], [1, 1]],
  [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]],
];

/** Offsets from a piece's centre for `strength` beads (0–7); more than 7 draws none (the board shows a numeral). */
export function beadOffsets(strength: number): readonly Point[] {
  const pattern = BEAD_PATTERNS[Math.floor(strength)] ?? [];
  // Rows of three (6 and 7) need a little more height than the corners of 4 and 5.
  const dy = pattern.length >= 6 ? BEAD_ROW : BEAD_STEP;
  return pattern.map(([x, y]) => ({ x: x * BEAD_STEP, y: y * dy }));
}

/**
 * The ring of each square outside its piece, split in two bands: the outer one for differences
 * from the game and the console's selection, the inner one for the last move — both can show at once.
 */
export const OUTER_FRAME = { inset: 3.5, width: 7 } as const;
export const INNER_FRAME = { inset: 10.5, width: 7 } as const;

/** A square's frame line, drawn centred on the stroke: `inset` from the square's edge. */
export function frameBox(cell: number, size: number, inset: number): Box {
  const box = squareBox(cell, size);
  return { x: box.x + inset, y: box.y + inset, width: CELL - 2 * inset, height: CELL - 2 * inset };
}

/** Diagonal stripes across a box, clipped by arithmetic (pattern ids do not cross shadow roots reliably). */
export function hatchLines(box: Box, step: number): readonly { readonly a: Point; readonly b: Point }[] {
  const x0 = box.x;
  const y0 = box.y;
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  const lines: { a: Point; b: Point }[] = [];
  // Lines x + y = k, from the top-left corner to the bottom-right one.
  for (let k = x0 + y0 + step / 2; k < x1 + y1; k += step) {
    const xa = Math.max(x0, k - y1);
    const xb = Math.min(x1, k - y0);
    if (xb > xa) lines.push({ a: { x: xa, y: k - xa }, b: { x: xb, y: k - xb } });
  }
  return lines;
}

/** Clearance an arrow keeps from a piece it starts or ends at. */
export const PIECE_GAP = PIECE_RADIUS + 6;

/**
 * The line of an arrow from one square's centre to another's, cut back by `startGap` and `endGap`
 * so it does not cover a piece standing there (a moved piece's old square is empty: gap 0).
 */
export function arrowLine(
  from: number,
  to: number,
  size: number,
  startGap: number,
  endGap: number,
): { readonly from: Point; readonly to: Point } {
  const a = squareCenter(from, size);
  const b = squareCenter(to, size);
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / length;
  const uy = (b.y - a.y) / length;
  return {
    from: { x: a.x + ux * startGap, y: a.y + uy * startGap },
    to: { x: b.x - ux * endGap, y: b.y - uy * endGap },
  };
}

/** What the last move did to each square it touched, read from its kind and the order of its squares. */
export interface MoveMarks {
  readonly from: number | null;
  readonly to: number | null;
  readonly captured: number | null;
  readonly received: readonly number[];
}

/**
 * The view lists a move's squares in notation order: `c1-c3` from, to; `c1xc5` attacker, target;
 * `d1>a1,b1` the emptied piece, then the recipients. Squares that are not on the board are left out.
 */
export function moveMarks(lastMove: MalawiLastMove | null, size: number): MoveMarks {
  const none: MoveMarks = { from: null, to: null, captured: null, received: [] };
  if (!lastMove) return none;
  const cells = lastMove.squares.map((name) => squareIndex(name, size));
  const [first = null, ...rest] = cells;
  const second = rest[0] ?? null;
  switch (lastMove.kind) {
    case 'move':
      return { ...none, from: first, to: second };
    case 'capture':
      return { ...none, from: first, captured: second };
    case 'distribute':
      return { ...none, from: first, received: rest.filter((c): c is number => c !== null) };
    default:
      return none;
  }
}
