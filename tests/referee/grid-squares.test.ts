// Tests of the square-board foundation: shapes, square names, grids from G and C frames, differences.
import { describe, expect, test } from 'vitest';
import {
  MAX_BOARD_SIZE,
  bitsInto,
  bitsOf,
  boardShape,
  cellAt,
  diffGrids,
  formatGrid,
  gridFromBits,
  gridFromCounts,
  occupancyOf,
  parseSquareName,
  sameCells,
  squareName,
} from '../../server/referee/squares.ts';

describe('square boards', () => {
  test('square names follow the protocol: cell = row × cols + col, row 0 = rank 1', () => {
    const six = boardShape(6);
    expect(squareName(six, 0)).toBe('a1');
    expect(squareName(six, 5)).toBe('f1');
    expect(squareName(six, 6)).toBe('a2');
    expect(squareName(six, 35)).toBe('f6');
    expect(squareName(six, cellAt(six, 2, 3))).toBe('d3');
    const adu = boardShape(MAX_BOARD_SIZE);
    expect(squareName(adu, 168)).toBe('m13');
    for (const shape of [six, adu, boardShape(9, 4)]) {
      for (let cell = 0; cell < shape.cols * shape.rows; cell++) expect(parseSquareName(shape, squareName(shape, cell))).toBe(cell);
    }
  });

  test('names off the board or not names at all are refused; so are shapes beyond 13 × 13', () => {
    const six = boardShape(6);
    expect(parseSquareName(six, 'g1')).toBeNull();
    expect(parseSquareName(six, 'a7')).toBeNull();
    expect(parseSquareName(six, 'a0')).toBeNull();
    expect(parseSquareName(six, 'C3')).toBe(14);
    expect(parseSquareName(six, 'c3 ')).toBeNull();
    expect(() => boardShape(14)).toThrow(RangeError);
    expect(() => boardShape(6, 0)).toThrow(RangeError);
  });

  test('G-frame bits become a 0/1 grid and back, beyond 53 bits too', () => {
    const adu = boardShape(13);
    const occupied = [0, 31, 32, 33, 63, 64, 100, 168];
    let bits = 0n;
    for (const c of occupied) bits |= 1n << BigInt(c);
    const grid = gridFromBits(adu, bits);
    expect(grid.cells.length).toBe(169);
    expect(grid.cells.flatMap((v, c) => (v ? [c] : []))).toEqual(occupied);
    expect(bitsOf(grid.cells)).toBe(bits);
    // A bit beyond the board is not a square.
    expect(gridFromBits(boardShape(6), (1n << 36n) | 1n).cells.reduce((a, b) => a + b, 0)).toBe(1);
    const out = new Int32Array(36).fill(7);
    bitsInto(0b101n, out, 36);
    expect(Array.from(out.slice(0, 4))).toEqual([1, 0, 1, 0]);
    expect(out[35]).toBe(0);
  });

  test('grids are immutable', () => {
    const grid = gridFromCounts(boardShape(4), new Array(16).fill(0));
    expect(Object.isFrozen(grid)).toBe(true);
    expect(Object.isFrozen(grid.cells)).toBe(true);
    expect(() => gridFromCounts(boardShape(4), [1, 2, 3])).toThrow(RangeError);
  });

  test('a counting grid has an occupancy; differences are sensed minus expected, skipped cells left out', () => {
    const shape = boardShape(4);
    const expected = gridFromCounts(shape, [3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3]);
    const sensed = gridFromCounts(shape, [0, 3, 0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 2]);
    expect(occupancyOf(sensed).cells.slice(0, 8)).toEqual([0, 1, 0, 1, 0, 0, 1, 0]);
    expect(diffGrids(expected.cells, sensed.cells)).toEqual([
      { cell: 0, diff: -3 },
      { cell: 3, diff: 3 },
      { cell: 6, diff: 1 },
      { cell: 15, diff: -1 },
    ]);
    expect(diffGrids(expected.cells, sensed.cells, [3, 6])).toEqual([
      { cell: 0, diff: -3 },
      { cell: 15, diff: -1 },
    ]);
    expect(sameCells(expected.cells, sensed.cells)).toBe(false);
    expect(sameCells(expected.cells, sensed.cells, [0, 3, 6, 15])).toBe(true);
    expect(formatGrid(shape, sensed.cells)).toBe('..32/..../..1./.3.3');
  });
});
