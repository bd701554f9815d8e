// The seats' marks: six Okabe–Ito colours that stay apart for people with colour-blindness, each with its own shape,
// and labels that read on every fill.
import { describe, expect, it } from 'vitest';
import { PLAYER_SHAPES, PLAYER_STYLES, playerStyle, shapeGeometry } from '../../web/src/board/players.ts';

// Colour science kept small: sRGB → linear → simulated colour vision (Machado, Oliveira and Fernandes 2009,
// full severity) → CIELAB, and the distance there (ΔE 1976).
const SIMULATIONS: Record<string, readonly (readonly number[])[]> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex: string) => [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16) / 255));

function lab(linearRgb: readonly number[]): [number, number, number] {
  const [r, g, b] = linearRgb.map((v) => Math.min(1, Math.max(0, v)));
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

function seen(hex: string, vision: string): [number, number, number] {
  const m = SIMULATIONS[vision];
  const c = rgb(hex);
  return lab(m.map((row) => row[0] * c[0] + row[1] * c[1] + row[2] * c[2]));
}

const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function closestPair(colours: readonly string[]): number {
  let least = Infinity;
  for (const vision of Object.keys(SIMULATIONS)) {
    for (let i = 0; i < colours.length; i++) {
      for (let j = i + 1; j < colours.length; j++) least = Math.min(least, distance(seen(colours[i], vision), seen(colours[j], vision)));
    }
  }
  return least;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

const OKABE_ITO = ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#000000'];

describe('player colours', () => {
  it('are six different colours of the Okabe–Ito palette', () => {
    const colours = PLAYER_STYLES.map((s) => s.colour);
    expect(new Set(colours).size).toBe(6);
    for (const c of colours) expect(OKABE_ITO).toContain(c);
  });

  it('stay apart in normal vision and with protanopia, deuteranopia and tritanopia, however many seats play', () => {
    const colours = PLAYER_STYLES.map((s) => s.colour);
    // ΔE 1976 of 15 is a difference anyone sees side by side; the two-player pair is far apart.
    for (let n = 2; n <= 6; n++) expect(closestPair(colours.slice(0, n)), `${n} players`).toBeGreaterThan(15);
    expect(closestPair(colours.slice(0, 2))).toBeGreaterThan(60);
  });

  it('are ordered so that no swap of seats would separate the first ones further', () => {
    // The seats fill in order: a two- or three-player game uses the first colours, so those must be the best pairs.
    const colours = PLAYER_STYLES.map((s) => s.colour);
    const three = closestPair(colours.slice(0, 3));
    for (const other of OKABE_ITO.slice(0, 7)) {
      if (colours.slice(0, 3).includes(other)) continue;
      for (let k = 0; k < 3; k++) {
        const swapped = colours.slice(0, 3).map((c, i) => (i === k ? other : c));
        expect(closestPair(swapped), `${other} for seat ${k + 1}`).toBeLessThanOrEqual(three + 1e-9);
      }
    }
  });

  it('carry labels in black or white, whichever reads better, at 4.5 : 1 or more', () => {
    for (const style of PLAYER_STYLES) {
      const other = style.ink === '#000000' ? '#ffffff' : '#000000';
      expect(contrast(style.colour, style.ink)).toBeGreaterThanOrEqual(contrast(style.colour, other));
      expect(contrast(style.colour, style.ink), style.colour).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('player shapes', () => {
  it('give every seat its own shape: a second cue besides colour', () => {
    expect(new Set(PLAYER_STYLES.map((s) => s.shape)).size).toBe(PLAYER_STYLES.length);
    expect([...PLAYER_SHAPES].sort()).toEqual(PLAYER_STYLES.map((s) => s.shape).sort());
  });

  it('never draws yellow as a triangle, which would read as a warning sign', () => {
    for (const style of PLAYER_STYLES) if (style.colour === '#f0e442') expect(style.shape.startsWith('triangle')).toBe(false);
  });

  it('numbers seats from 1 and wraps beyond six', () => {
    expect(playerStyle(1)).toBe(PLAYER_STYLES[0]);
    expect(playerStyle(6)).toBe(PLAYER_STYLES[5]);
    expect(playerStyle(7)).toBe(PLAYER_STYLES[0]);
  });

  it.each(PLAYER_SHAPES)('draws %s within 1.3 radii of its centre, the label inside', (shape) => {
    const c = { x: 100, y: 200 };
    const r = 40;
    const { outline, label } = shapeGeometry(shape, c, r);
    const points =
      outline.kind === 'circle'
        ? [{ x: outline.cx + outline.r, y: outline.cy }]
        : outline.kind === 'rect'
          ? [
              { x: outline.x, y: outline.y },
              { x: outline.x + outline.width, y: outline.y + outline.height },
            ]
          : outline.points;
    for (const p of points) expect(Math.hypot(p.x - c.x, p.y - c.y)).toBeLessThanOrEqual(1.3 * r + 1e-9);
    expect(Math.hypot(label.x - c.x, label.y - c.y)).toBeLessThan(r * 0.4);
  });
});
