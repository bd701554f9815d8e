// Where things sit on the drawn Kalaha table: pit and store positions, and how stones lie in a pit.
import type { SideName } from '../i18n/catalogue.ts';

/** SVG user units; the board scales to its box. */
export const BOARD_WIDTH = 1580;
export const BOARD_HEIGHT = 640;
export const PIT_RADIUS = 82;
/** Beyond this many stones a pit shows only its number: dots would no longer be countable at a glance. */
export const MAX_DOTS = 20;
export const DOT_RADIUS = 10;

const COLUMN_PITCH = 200;
const FIRST_COLUMN_X = 290;
const TOP_ROW_Y = 184;
const BOTTOM_ROW_Y = 456;

export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * Seen from south: A–F along the bottom, left to right; a–f along the top, right to left.
 * So sowing (A→F→a→f→A) runs counter-clockwise, and each player's store is on their right.
 */
export function pitCenter(pit: number): Point {
  return pit < 6
    ? { x: FIRST_COLUMN_X + COLUMN_PITCH * pit, y: BOTTOM_ROW_Y }
    : { x: FIRST_COLUMN_X + COLUMN_PITCH * (11 - pit), y: TOP_ROW_Y };
}

export function pitOwner(pit: number): SideName {
  return pit < 6 ? 'south' : 'north';
}

export function isTopRow(pit: number): boolean {
  return pit >= 6;
}

/** The big numeral sits outside the pit, away from the middle of the board. */
export function countPosition(pit: number): Point {
  const c = pitCenter(pit);
  return { x: c.x, y: isTopRow(pit) ? 48 : BOARD_HEIGHT - 48 };
}

/** The letter sits on the pit's inner side, between the rows. */
export function letterPosition(pit: number): Point {
  const c = pitCenter(pit);
  return { x: c.x, y: isTopRow(pit) ? TOP_ROW_Y + PIT_RADIUS + 30 : BOTTOM_ROW_Y - PIT_RADIUS - 30 };
}

export interface StoreBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Where the owner's name goes: above north's store, below south's, on their own side of the table. */
  readonly label: Point;
}

/** North's store at the left end, south's at the right end: each player's store to their right. */
export function storeBox(side: SideName): StoreBox {
  const width = 160;
  const y = TOP_ROW_Y - PIT_RADIUS;
  const height = BOTTOM_ROW_Y + PIT_RADIUS - y;
  const x = side === 'north' ? 10 : BOARD_WIDTH - 10 - width;
  return { x, y, width, height, label: { x: x + width / 2, y: side === 'north' ? 48 : BOARD_HEIGHT - 48 } };
}

/** The row band behind the pits of the player to move. */
export function rowBand(side: SideName): { x: number; y: number; width: number; height: number } {
  const pad = 12;
  const cy = side === 'north' ? TOP_ROW_Y : BOTTOM_ROW_Y;
  return {
    x: FIRST_COLUMN_X - PIT_RADIUS - pad,
    y: cy - PIT_RADIUS - pad,
    width: COLUMN_PITCH * 5 + 2 * (PIT_RADIUS + pad),
    height: 2 * (PIT_RADIUS + pad),
  };
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const DOT_SPACING = 14.5;
const dotCache = new Map<number, readonly Point[]>();

/**
 * Offsets from a pit's centre for `count` stones, on a sunflower spiral: it fills a disc evenly
 * for any count, so the pit looks like a heap of stones rather than a grid.
 */
export function dotOffsets(count: number): readonly Point[] {
  const n = Math.max(0, Math.min(MAX_DOTS, Math.floor(count)));
  let dots = dotCache.get(n);
  if (!dots) {
    dots = Array.from({ length: n }, (_, k) => {
      const r = DOT_SPACING * Math.sqrt(k + 0.5);
      const a = k * GOLDEN_ANGLE;
      return { x: Math.round(r * Math.cos(a) * 10) / 10, y: Math.round(r * Math.sin(a) * 10) / 10 };
    });
    dotCache.set(n, dots);
  }
  return dots;
}
