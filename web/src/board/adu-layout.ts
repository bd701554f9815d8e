// Where things sit on the drawn Adu board: pieces on the intersections of a grid, file letters and rank numbers
// on every side, room around the outer lines for the pieces standing there.
import type { Point } from './layout.ts';

/** SVG user units between neighbouring intersections; the board scales to its box. */
export const SPACING = 100;
/** Room for the file letters and rank numbers. */
export const LABEL_MARGIN = 44;
/** From the outer lines to the labels: a piece on an edge point (its shape reaches 1.3 radii) stays on the leather. */
export const EDGE_PAD = 62;
export const PIECE_RADIUS = 38;

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const ORIGIN = LABEL_MARGIN + EDGE_PAD;

export function boardSide(size: number): number {
  return 2 * ORIGIN + (size - 1) * SPACING;
}

/** The square the lines span, from the first intersection to the last. */
export function linesBox(size: number): Box {
  return { x: ORIGIN, y: ORIGIN, width: (size - 1) * SPACING, height: (size - 1) * SPACING };
}

/**
 * Seen from the first seat: file a on the left, rank 1 at the bottom. Cell i = row * size + col,
 * row 0 = rank 1, col 0 = file a, as the server and the sensors count.
 */
export function pointCenter(cell: number, size: number): Point {
  const col = cell % size;
  const row = Math.floor(cell / size);
  return { x: ORIGIN + col * SPACING, y: ORIGIN + (size - 1 - row) * SPACING };
}

/** The square around an intersection a tap hits and a frame is drawn in. */
export function pointBox(cell: number, size: number): Box {
  const c = pointCenter(cell, size);
  return { x: c.x - SPACING / 2, y: c.y - SPACING / 2, width: SPACING, height: SPACING };
}

const FILES = 'abcdefghijklmnopqrs';

export interface Label extends Point {
  readonly text: string;
}

/** File letters below and above the lines, rank numbers left and right: readable from every seat round the board. */
export function boardLabels(size: number): { readonly files: readonly Label[]; readonly ranks: readonly Label[] } {
  const side = boardSide(size);
  const files: Label[] = [];
  const ranks: Label[] = [];
  for (let i = 0; i < size; i++) {
    const x = ORIGIN + i * SPACING;
    files.push({ text: FILES[i], x, y: side - LABEL_MARGIN / 2 });
    files.push({ text: FILES[i], x, y: LABEL_MARGIN / 2 });
    const y = ORIGIN + (size - 1 - i) * SPACING;
    ranks.push({ text: String(i + 1), x: LABEL_MARGIN / 2, y });
    ranks.push({ text: String(i + 1), x: side - LABEL_MARGIN / 2, y });
  }
  return { files, ranks };
}

/** What a piece shows: `K` for a king, its own name for a soldier (`S3`), `R` for a reserve king. */
export function pieceLabel(piece: { readonly kind: 'king' | 'soldier' | 'reserve'; readonly id: string }): string {
  switch (piece.kind) {
    case 'king':
      return 'K';
    case 'soldier':
      return piece.id;
    case 'reserve':
      return 'R';
    default:
      return piece.kind satisfies never;
  }
}

/** A line from one intersection to another, cut back at both ends by `gap` so the pieces stay visible. */
export function arrowLine(from: number, to: number, size: number, startGap: number, endGap: number): { readonly from: Point; readonly to: Point } {
  const a = pointCenter(from, size);
  const b = pointCenter(to, size);
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / length;
  const uy = (b.y - a.y) / length;
  return { from: { x: a.x + ux * startGap, y: a.y + uy * startGap }, to: { x: b.x - ux * endGap, y: b.y - uy * endGap } };
}
