// The drawn Adu board: intersections seen from the first seat, labels on every side, pieces that stay on the leather.
import { describe, expect, it } from 'vitest';
import {
  EDGE_PAD,
  LABEL_MARGIN,
  PIECE_RADIUS,
  SPACING,
  arrowLine,
  boardLabels,
  boardSide,
  linesBox,
  pieceLabel,
  pointBox,
  pointCenter,
} from '../../web/src/board/adu-layout.ts';
import { squareIndex } from '../../web/src/i18n/catalogue.ts';

const SIZES = [7, 13, 19] as const;

describe('intersections', () => {
  it('puts a1 bottom left and m13 top right on the default board', () => {
    const a1 = pointCenter(squareIndex('a1', 13) as number, 13);
    const m1 = pointCenter(squareIndex('m1', 13) as number, 13);
    const m13 = pointCenter(squareIndex('m13', 13) as number, 13);
    expect(a1.x).toBeLessThan(m1.x);
    expect(a1.y).toBe(m1.y);
    expect(m13).toEqual({ x: m1.x, y: a1.y - 12 * SPACING });
  });

  it.each(SIZES)('keeps every point on the lines and every piece on the leather on a %i × %i board', (size) => {
    const lines = linesBox(size);
    const side = boardSide(size);
    for (let cell = 0; cell < size * size; cell++) {
      const c = pointCenter(cell, size);
      expect(c.x).toBeGreaterThanOrEqual(lines.x);
      expect(c.x).toBeLessThanOrEqual(lines.x + lines.width);
      expect(c.y).toBeGreaterThanOrEqual(lines.y);
      expect(c.y).toBeLessThanOrEqual(lines.y + lines.height);
      // The widest piece (a king's triangle, 1.3 of a slightly larger radius) stays clear of the labels.
      const reach = PIECE_RADIUS * 1.05 * 1.3 + PIECE_RADIUS * 0.08;
      expect(c.x - reach).toBeGreaterThanOrEqual(LABEL_MARGIN);
      expect(c.y + reach).toBeLessThanOrEqual(side - LABEL_MARGIN);
    }
    expect(EDGE_PAD).toBeGreaterThan(PIECE_RADIUS * 1.3);
  });

  it('keeps neighbouring pieces apart', () => {
    expect(2 * PIECE_RADIUS * 1.05 * 1.3).toBeLessThan(SPACING + 10);
    expect(2 * PIECE_RADIUS * 1.22).toBeLessThan(SPACING);
  });

  it('gives every point a tap box of its own', () => {
    const a = pointBox(0, 13);
    const b = pointBox(1, 13);
    expect(a.x + a.width).toBe(b.x);
  });
});

describe('labels', () => {
  it('letters the files a… and numbers the ranks 1… on every side', () => {
    const { files, ranks } = boardLabels(19);
    expect(files.filter((f) => f.y > 100).map((f) => f.text).join('')).toBe('abcdefghijklmnopqrs');
    expect(ranks.filter((r) => r.x < 100).map((r) => r.text)).toEqual(Array.from({ length: 19 }, (_, i) => String(i + 1)));
    expect(files).toHaveLength(38);
  });
});

describe('pieces', () => {
  it('names kings K, soldiers by their own name, reserve kings R', () => {
    expect(pieceLabel({ kind: 'king', id: 'K2' })).toBe('K');
    expect(pieceLabel({ kind: 'soldier', id: 'S4' })).toBe('S4');
    expect(pieceLabel({ kind: 'reserve', id: 'R3' })).toBe('R');
  });

  it('draws the last move’s line between two points, cut back at both ends', () => {
    const from = squareIndex('d4', 13) as number;
    const to = squareIndex('d7', 13) as number;
    const line = arrowLine(from, to, 13, 10, 20);
    expect(line.from.x).toBe(line.to.x);
    expect(line.from.y - line.to.y).toBeCloseTo(3 * SPACING - 30);
  });
});
