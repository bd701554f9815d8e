// How the seats of Makis and Adu look: one Okabe–Ito colour and one shape per player, the same in both games.
import type { Point } from './layout.ts';

export const PLAYER_SHAPES = ['circle', 'square', 'diamond', 'triangle', 'triangle-down', 'hexagon'] as const;
export type PlayerShape = (typeof PLAYER_SHAPES)[number];

export interface PlayerStyle {
  /** The piece's fill. */
  readonly colour: string;
  /** Text drawn on the piece: black or white, whichever contrasts more with the fill. */
  readonly ink: string;
  /** The second cue, for anyone who cannot tell the colours apart: every seat has its own outline. */
  readonly shape: PlayerShape;
}

/**
 * Six seats (Adu has up to six players, Makis up to five). The colours are six of the eight of
 * Okabe and Ito, ordered so that the first two, three, … stay as far apart as the palette allows when
 * seen with protanopia, deuteranopia or tritanopia (tests/web/players.test.ts measures it); bluish
 * green is left out, being the nearest to sky blue for tritanopes. Colour is never the only cue: each
 * seat also has a shape, and pieces carry their player's number or their own name.
 */
export const PLAYER_STYLES: readonly PlayerStyle[] = [
  { colour: '#0072b2', ink: '#ffffff', shape: 'circle' },
  { colour: '#d55e00', ink: '#000000', shape: 'square' },
  // Yellow is never a triangle: a yellow triangle with a mark in it reads as a warning sign.
  { colour: '#f0e442', ink: '#000000', shape: 'diamond' },
  { colour: '#56b4e9', ink: '#000000', shape: 'triangle' },
  { colour: '#cc79a7', ink: '#000000', shape: 'triangle-down' },
  { colour: '#e69f00', ink: '#000000', shape: 'hexagon' },
];

/** The style of player `player` (numbered from 1); players beyond six reuse the palette. */
export function playerStyle(player: number): PlayerStyle {
  const n = PLAYER_STYLES.length;
  return PLAYER_STYLES[(((Math.floor(player) - 1) % n) + n) % n];
}

export type ShapeOutline =
  | { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly r: number }
  | { readonly kind: 'rect'; readonly x: number; readonly y: number; readonly width: number; readonly height: number; readonly rx: number }
  | { readonly kind: 'polygon'; readonly points: readonly Point[] };

export interface ShapeGeometry {
  readonly outline: ShapeOutline;
  /** Where a label sits: the widest part of the shape, so "S3" fits a triangle too. */
  readonly label: Point;
}

const round = (n: number): number => Math.round(n * 100) / 100;
const polygon = (c: Point, radius: number, angles: readonly number[], dy = 0): Point[] =>
  angles.map((deg) => {
    const a = (deg * Math.PI) / 180;
    return { x: round(c.x + radius * Math.cos(a)), y: round(c.y + dy + radius * Math.sin(a)) };
  });

/**
 * A seat's shape around the centre `c`, sized to look as big as a circle of radius `r`: the
 * corners of pointed shapes reach further, as their area is smaller. Everything stays within
 * 1.3 · r of the centre.
 */
export function shapeGeometry(shape: PlayerShape, c: Point, r: number): ShapeGeometry {
  switch (shape) {
    case 'circle':
      return { outline: { kind: 'circle', cx: c.x, cy: c.y, r }, label: c };
    case 'square': {
      const half = round(r * 0.9);
      return {
        outline: { kind: 'rect', x: c.x - half, y: c.y - half, width: 2 * half, height: 2 * half, rx: round(r * 0.18) },
        label: c,
      };
    }
    case 'diamond':
      return { outline: { kind: 'polygon', points: polygon(c, r * 1.22, [270, 0, 90, 180]) }, label: c };
    case 'triangle': {
      // Its centroid sits a little below the centre, so the shape looks centred on the point; the size is the
      // largest whose lower corners stay within 1.3 · r.
      const dy = r * 0.1;
      return { outline: { kind: 'polygon', points: polygon(c, r * 1.24, [270, 30, 150], dy) }, label: { x: c.x, y: round(c.y + dy + r * 0.14) } };
    }
    case 'triangle-down': {
      const dy = -r * 0.1;
      return { outline: { kind: 'polygon', points: polygon(c, r * 1.24, [90, 210, 330], dy) }, label: { x: c.x, y: round(c.y + dy - r * 0.14) } };
    }
    case 'hexagon':
      return { outline: { kind: 'polygon', points: polygon(c, r * 1.08, [0, 60, 120, 180, 240, 300]) }, label: c };
    default:
      return shape satisfies never;
  }
}

/** The points of an outline for an SVG `points` attribute. */
export function pointsAttribute(points: readonly Point[]): string {
  return points.map((p) => `${p.x},${p.y}`).join(' ');
}
