// The drawn table: sowing runs counter-clockwise, stores at the right ends, stones fit their pits.
import { describe, expect, it } from 'vitest';
import {
  BOARD_HEIGHT,
  BOARD_WIDTH,
  DOT_RADIUS,
  MAX_DOTS,
  PIT_RADIUS,
  dotOffsets,
  pitCenter,
  storeBox,
} from '../../web/src/board/layout.ts';

describe('board layout', () => {
  it('runs sowing A→F→a→f counter-clockwise as seen from south', () => {
    const cx = BOARD_WIDTH / 2;
    const cy = BOARD_HEIGHT / 2;
    // Screen y grows downwards; flip it so a counter-clockwise turn is a growing angle, measured from A.
    const angle = (pit: number) => {
      const p = pitCenter(pit);
      return Math.atan2(-(p.y - cy), p.x - cx);
    };
    const angles = Array.from({ length: 12 }, (_, pit) => {
      const a = angle(pit) - angle(0);
      return a < 0 ? a + 2 * Math.PI : a;
    });
    for (let i = 1; i < 12; i++) expect(angles[i], `pit ${i}`).toBeGreaterThan(angles[i - 1]);
    expect(angles[11] - angles[0]).toBeLessThan(2 * Math.PI);
  });

  it('puts A–F on the bottom row left to right and a–f on the top row right to left', () => {
    expect(pitCenter(0).x).toBeLessThan(pitCenter(5).x);
    expect(pitCenter(6).x).toBeGreaterThan(pitCenter(11).x);
    expect(pitCenter(0).y).toBeGreaterThan(pitCenter(6).y);
    // f sits above A, a above F.
    expect(pitCenter(11).x).toBe(pitCenter(0).x);
    expect(pitCenter(6).x).toBe(pitCenter(5).x);
  });

  it("puts each player's store to their right: north's at the left end, south's at the right", () => {
    const north = storeBox('north');
    const south = storeBox('south');
    const xs = Array.from({ length: 12 }, (_, pit) => pitCenter(pit).x);
    expect(north.x + north.width).toBeLessThan(Math.min(...xs) - PIT_RADIUS);
    expect(south.x).toBeGreaterThan(Math.max(...xs) + PIT_RADIUS);
    expect(south.x + south.width).toBeLessThanOrEqual(BOARD_WIDTH);
  });

  it.each(Array.from({ length: MAX_DOTS + 1 }, (_, n) => n))('lays %i stones inside the pit without overlap', (n) => {
    const dots = dotOffsets(n);
    expect(dots).toHaveLength(n);
    for (const d of dots) expect(Math.hypot(d.x, d.y) + DOT_RADIUS).toBeLessThanOrEqual(PIT_RADIUS - 4);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        expect(Math.hypot(dots[i].x - dots[j].x, dots[i].y - dots[j].y)).toBeGreaterThanOrEqual(2 * DOT_RADIUS);
      }
    }
  });

  it(`draws no more than ${MAX_DOTS} dots`, () => {
    expect(dotOffsets(48)).toHaveLength(MAX_DOTS);
  });
});
