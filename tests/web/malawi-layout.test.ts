// The drawn Malawi board: seen from south, cell i = row * size + col, labels on every side, beads that fit, marks from the last move.
import { describe, expect, it } from 'vitest';
import {
  BEAD_RADIUS,
  CELL,
  INNER_FRAME,
  MAX_BEADS,
  OUTER_FRAME,
  PIECE_HALF_SIDE,
  PIECE_RADIUS,
  arrowLine,
  beadOffsets,
  boardHeight,
  boardLabels,
  boardWidth,
  gridBox,
  hatchLines,
  isDarkSquare,
  moveMarks,
  squareBox,
  squareCenter,
  turnBar,
} from '../../web/src/board/malawi-layout.ts';
import { squareIndex, squareName } from '../../web/src/i18n/catalogue.ts';

const SIZES = [4, 6, 8, 12] as const;

describe('squares', () => {
  it('puts a1 bottom left and f6 top right, as south sees the board', () => {
    const a1 = squareBox(0, 6);
    const f1 = squareBox(5, 6);
    const a6 = squareBox(30, 6);
    const f6 = squareBox(35, 6);
    expect(a1.x).toBeLessThan(f1.x);
    expect(a1.y).toBe(f1.y);
    expect(a6.y).toBeLessThan(a1.y);
    expect(f6).toEqual({ x: f1.x, y: a6.y, width: CELL, height: CELL });
  });

  it.each(SIZES)('tiles the grid without gaps or overlaps on a %i × %i board', (size) => {
    const grid = gridBox(size);
    const seen = new Set<string>();
    for (let cell = 0; cell < size * size; cell++) {
      const box = squareBox(cell, size);
      expect(box.x).toBeGreaterThanOrEqual(grid.x);
      expect(box.y).toBeGreaterThanOrEqual(grid.y);
      expect(box.x + box.width).toBeLessThanOrEqual(grid.x + grid.width);
      expect(box.y + box.height).toBeLessThanOrEqual(grid.y + grid.height);
      seen.add(`${box.x},${box.y}`);
    }
    expect(seen.size).toBe(size * size);
    expect(grid.x + grid.width).toBeLessThan(boardWidth(size));
    expect(grid.y + grid.height).toBeLessThan(boardHeight(size));
  });

  it('names cells the way the server counts them: i = row * size + col, row 0 = rank 1', () => {
    expect(squareName(0, 6)).toBe('a1');
    expect(squareName(5, 6)).toBe('f1');
    expect(squareName(6, 6)).toBe('a2');
    expect(squareName(35, 6)).toBe('f6');
    expect(squareName(8 * 8 - 1, 8)).toBe('h8');
    expect(squareIndex('c3', 6)).toBe(2 * 6 + 2);
    expect(squareIndex('C3', 6)).toBe(14);
    expect(squareIndex('g1', 6)).toBeNull();
    expect(squareIndex('a7', 6)).toBeNull();
    expect(squareIndex('l12', 12)).toBe(143);
    expect(squareIndex('c1-c3', 6)).toBeNull();
    for (const size of SIZES) {
      for (let cell = 0; cell < size * size; cell++) expect(squareIndex(squareName(cell, size), size)).toBe(cell);
    }
  });

  it('colours a1 dark and alternates like a chessboard', () => {
    expect(isDarkSquare(0, 6)).toBe(true);
    expect(isDarkSquare(1, 6)).toBe(false);
    expect(isDarkSquare(6, 6)).toBe(false);
    expect(isDarkSquare(7, 6)).toBe(true);
  });
});

describe('labels', () => {
  it.each(SIZES)('labels files and ranks on both sides of a %i × %i board, beside their squares', (size) => {
    const { files, ranks } = boardLabels(size);
    expect(files).toHaveLength(2 * size);
    expect(ranks).toHaveLength(2 * size);
    const grid = gridBox(size);
    for (const label of files) {
      const col = 'abcdefghijkl'.indexOf(label.text);
      expect(label.x).toBe(squareCenter(col, size).x);
      expect(label.y < grid.y || label.y > grid.y + grid.height).toBe(true);
    }
    for (const label of ranks) {
      const row = Number(label.text) - 1;
      expect(label.y).toBe(squareCenter(row * size, size).y);
      expect(label.x < grid.x || label.x > grid.x + grid.width).toBe(true);
    }
  });

  it("puts the turn bar at the mover's own edge, outside the labels", () => {
    const { files } = boardLabels(6);
    const south = turnBar('south', 6);
    const north = turnBar('north', 6);
    expect(south.y).toBeGreaterThan(Math.max(...files.map((f) => f.y)));
    expect(north.y + north.height).toBeLessThan(Math.min(...files.map((f) => f.y)));
    expect(south.y + south.height).toBeLessThanOrEqual(boardHeight(6));
    expect(north.y).toBeGreaterThanOrEqual(0);
  });
});

describe('beads', () => {
  it.each(Array.from({ length: MAX_BEADS + 1 }, (_, n) => n))('lays %i beads inside either piece shape, apart', (n) => {
    const beads = beadOffsets(n);
    expect(beads).toHaveLength(n);
    for (const b of beads) {
      // Inside the disc (south) and the rounded square (north), with room for the outline.
      expect(Math.hypot(b.x, b.y) + BEAD_RADIUS).toBeLessThanOrEqual(PIECE_RADIUS - 3);
      expect(Math.max(Math.abs(b.x), Math.abs(b.y)) + BEAD_RADIUS).toBeLessThanOrEqual(PIECE_HALF_SIDE - 3);
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        expect(Math.hypot(beads[i].x - beads[j].x, beads[i].y - beads[j].y)).toBeGreaterThan(2 * BEAD_RADIUS);
      }
    }
  });

  it('draws no beads beyond seven (the board writes the number instead)', () => {
    expect(beadOffsets(8)).toEqual([]);
  });

  it('keeps every count a different picture', () => {
    const pictures = Array.from({ length: MAX_BEADS + 1 }, (_, n) => JSON.stringify(beadOffsets(n)));
    expect(new Set(pictures).size).toBe(MAX_BEADS + 1);
  });
});

describe('frames', () => {
  it('keeps both frame bands between the square edge and the piece', () => {
    const clearance = CELL / 2 - PIECE_RADIUS;
    expect(OUTER_FRAME.inset - OUTER_FRAME.width / 2).toBeGreaterThanOrEqual(0);
    expect(OUTER_FRAME.inset + OUTER_FRAME.width / 2).toBeLessThanOrEqual(INNER_FRAME.inset - INNER_FRAME.width / 2);
    expect(INNER_FRAME.inset + INNER_FRAME.width / 2).toBeLessThanOrEqual(clearance);
  });

  it('clips hatching to the square', () => {
    const box = squareBox(14, 6);
    const lines = hatchLines(box, 20);
    expect(lines.length).toBeGreaterThan(5);
    for (const { a, b } of lines) {
      for (const p of [a, b]) {
        expect(p.x).toBeGreaterThanOrEqual(box.x - 1e-9);
        expect(p.x).toBeLessThanOrEqual(box.x + box.width + 1e-9);
        expect(p.y).toBeGreaterThanOrEqual(box.y - 1e-9);
        expect(p.y).toBeLessThanOrEqual(box.y + box.height + 1e-9);
      }
    }
  });

  it('stops an arrow short of the pieces it joins', () => {
    const line = arrowLine(2, 14, 6, PIECE_RADIUS, PIECE_RADIUS);
    expect(line.from.x).toBe(squareCenter(2, 6).x);
    expect(squareCenter(2, 6).y - line.from.y).toBe(PIECE_RADIUS);
    expect(line.to.y - squareCenter(14, 6).y).toBe(PIECE_RADIUS);
    const fromCentre = arrowLine(2, 14, 6, 0, PIECE_RADIUS);
    expect(fromCentre.from).toEqual(squareCenter(2, 6));
  });
});

describe('moveMarks', () => {
  it('reads a move as from and to', () => {
    expect(moveMarks({ notation: 'c1-c3', kind: 'move', squares: ['c1', 'c3'] }, 6)).toEqual({
      from: 2,
      to: 14,
      captured: null,
      received: [],
    });
  });
  it('reads a capture as the attacker and its target; nobody moves', () => {
    expect(moveMarks({ notation: 'c1xc5', kind: 'capture', squares: ['c1', 'c5'] }, 6)).toMatchObject({
      from: 2,
      to: null,
      captured: 26,
    });
  });
  it('reads a distribution as the emptied piece and its recipients', () => {
    expect(moveMarks({ notation: 'd1>a1,b1,e1', kind: 'distribute', squares: ['d1', 'a1', 'b1', 'e1'] }, 6)).toEqual({
      from: 3,
      to: null,
      captured: null,
      received: [0, 1, 4],
    });
  });
  it('marks nothing without a move, and skips squares off the board', () => {
    expect(moveMarks(null, 6)).toEqual({ from: null, to: null, captured: null, received: [] });
    expect(moveMarks({ notation: 'd1>a1,h1', kind: 'distribute', squares: ['d1', 'a1', 'h1'] }, 6).received).toEqual([0]);
  });
});
