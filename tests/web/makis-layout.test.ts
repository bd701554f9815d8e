// The drawn Makis board: column 1 left, row 1 at the bottom, the dice numbers over the columns, the knights a roll
// moves, a danger tint that grows with the chance.
import { describe, expect, it } from 'vitest';
import {
  BOARD_HEIGHT,
  BOARD_WIDTH,
  CELL,
  GRID,
  MAKI_RADIUS,
  KNIGHT_HALF_SIDE,
  arrowBetween,
  cellAt,
  columnLabels,
  dangerLabelAt,
  dangerOpacity,
  knightMoves,
  rolledColumns,
  rowLabels,
  squareBox,
  squareCenter,
} from '../../web/src/board/makis-layout.ts';
import { makisCell, makisSquareName } from '../../web/src/i18n/catalogue.ts';

describe('squares', () => {
  it('puts column 1 on the left and row 1, the knights’ baseline, at the bottom', () => {
    const c1r1 = squareBox(cellAt(1, 1));
    const c9r1 = squareBox(cellAt(9, 1));
    const c1r9 = squareBox(cellAt(1, 9));
    expect(c1r1.x).toBeLessThan(c9r1.x);
    expect(c1r9.y).toBeLessThan(c1r1.y);
    expect(c1r1).toEqual({ x: GRID.x, y: GRID.y + 8 * CELL, width: CELL, height: CELL });
  });

  it('tiles the grid without gaps or overlaps, inside the board', () => {
    const seen = new Set<string>();
    for (let cell = 0; cell < 81; cell++) {
      const box = squareBox(cell);
      expect(box.x).toBeGreaterThanOrEqual(GRID.x);
      expect(box.y + box.height).toBeLessThanOrEqual(GRID.y + GRID.height);
      seen.add(`${box.x},${box.y}`);
    }
    expect(seen.size).toBe(81);
    expect(GRID.x + GRID.width).toBeLessThan(BOARD_WIDTH);
    expect(GRID.y + GRID.height).toBeLessThan(BOARD_HEIGHT);
  });

  it('counts cells as the server and the sensors do: (row − 1) · 9 + (column − 1)', () => {
    expect(cellAt(5, 9)).toBe(makisCell('c5r9'));
    expect(makisSquareName(cellAt(4, 6))).toBe('c4r6');
  });

  it('fits a Maki, a knight and the danger number in a square without covering one another', () => {
    expect(MAKI_RADIUS * 1.3).toBeLessThan(CELL / 2);
    expect(KNIGHT_HALF_SIDE).toBeLessThan(CELL / 2);
    // The number sits in the top-left corner, outside the round Maki in the middle.
    const at = dangerLabelAt(cellAt(3, 3));
    const c = squareCenter(cellAt(3, 3));
    expect(Math.hypot(at.x + 12 - c.x, at.y - c.y)).toBeGreaterThan(MAKI_RADIUS);
  });
});

describe('labels', () => {
  it('draws each column number as a die face above and below its column, and row numbers on both sides', () => {
    const columns = columnLabels();
    expect(columns.map((c) => c.column)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const { column, top, bottom } of columns) {
      const square = squareBox(cellAt(column, 1));
      expect(top.x + top.width / 2).toBeCloseTo(square.x + CELL / 2);
      expect(top.y + top.height).toBeLessThanOrEqual(GRID.y);
      expect(bottom.y).toBeGreaterThanOrEqual(GRID.y + GRID.height);
      expect(bottom.y + bottom.height).toBeLessThanOrEqual(BOARD_HEIGHT);
    }
    const rows = rowLabels();
    expect(rows[0].left.y).toBeCloseTo(squareCenter(cellAt(1, 1)).y);
    expect(rows[8].right.y).toBeCloseTo(squareCenter(cellAt(9, 9)).y);
  });
});

describe('rolls', () => {
  it('marks the columns rolled, twice for a double', () => {
    expect(rolledColumns([2, 5, 5])).toEqual([0, 1, 0, 0, 2, 0, 0, 0, 0]);
    expect(rolledColumns(null)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('moves a knight one row per time its number was rolled, up to row 9', () => {
    const knights = [1, 3, 1, 1, 8, 1, 1, 1, 1];
    expect(knightMoves(knights, [2, 5, 5])).toEqual([
      { column: 2, from: cellAt(2, 3), to: cellAt(2, 4) },
      { column: 5, from: cellAt(5, 8), to: cellAt(5, 9) },
    ]);
    expect(knightMoves(knights, [1, 1, 9])).toEqual([
      { column: 1, from: cellAt(1, 1), to: cellAt(1, 3) },
      { column: 9, from: cellAt(9, 1), to: cellAt(9, 2) },
    ]);
    // A knight already on row 9 has nowhere to go.
    expect(knightMoves([9, 1, 1, 1, 1, 1, 1, 1, 1], [1, 2, 3]).map((m) => m.column)).toEqual([2, 3]);
  });

  it('points an arrow from the knight to its square, clear of both pieces', () => {
    const line = arrowBetween(cellAt(2, 3), cellAt(2, 5), 40, 20);
    expect(line.from.x).toBe(line.to.x);
    expect(line.from.y - line.to.y).toBeCloseTo(2 * CELL - 60);
  });
});

describe('the danger tint', () => {
  it('is absent at no danger and grows with the chance, reaching its strongest at 60 %', () => {
    expect(dangerOpacity(0)).toBe(0);
    expect(dangerOpacity(Number.NaN)).toBe(0);
    const shares = [0.01, 0.1, 0.2, 0.3, 0.45, 0.6];
    const opacities = shares.map(dangerOpacity);
    for (let i = 1; i < opacities.length; i++) expect(opacities[i]).toBeGreaterThan(opacities[i - 1]);
    expect(opacities[0]).toBeGreaterThanOrEqual(0.18);
    expect(dangerOpacity(0.6)).toBe(dangerOpacity(0.9));
    expect(dangerOpacity(1)).toBeLessThanOrEqual(0.9);
  });
});
