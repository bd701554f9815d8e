// Where a Kalaha game's stones were captured, pit by pit, from the captures the API lists per step. Pure.
import type { PositionStep } from './api.ts';

export const HEAT_PITS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'] as const;

export interface PitHeat {
  readonly pit: (typeof HEAT_PITS)[number];
  /** Stones taken from this pit over the game. */
  readonly stones: number;
  /** Moves that captured from this pit. */
  readonly captures: number;
}

export interface CaptureHeat {
  /** Twelve entries in the board's (sensor) order: A–F, then a–f. */
  readonly pits: readonly PitHeat[];
  readonly stones: number;
  /** The most stones taken from one pit: the top of the colour scale. */
  readonly max: number;
}

/** Counts the captures of every step up to and including `upto` (all of them when omitted). */
export function captureHeat(steps: readonly PositionStep[], upto = Infinity): CaptureHeat {
  const stones = new Map<string, number>();
  const captures = new Map<string, number>();
  for (const step of steps) {
    if (step.ply > upto) break;
    for (const c of step.captures ?? []) {
      if (!(HEAT_PITS as readonly string[]).includes(c.pit) || !(c.stones > 0)) continue;
      stones.set(c.pit, (stones.get(c.pit) ?? 0) + c.stones);
      captures.set(c.pit, (captures.get(c.pit) ?? 0) + 1);
    }
  }
  const pits = HEAT_PITS.map((pit) => ({ pit, stones: stones.get(pit) ?? 0, captures: captures.get(pit) ?? 0 }));
  return { pits, stones: pits.reduce((s, p) => s + p.stones, 0), max: Math.max(0, ...pits.map((p) => p.stones)) };
}

/** 0 for none, up to 1 for the pit with the most stones: the strength of a pit's colour. */
export function heatLevel(stones: number, max: number): number {
  return max > 0 ? Math.min(1, Math.max(0, stones / max)) : 0;
}
