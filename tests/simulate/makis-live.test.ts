// Tests of simulated Makis players at a live board: games follow one another, the board set up again between them, in virtual time.
import { describe, expect, test } from 'vitest';
import { GridTable, Scheduler } from '../../firmware-bridge/index.ts';
import { SIZE, initial, square, type MakisOptions } from '../../server/rules/makis.ts';
import { KNIGHT_COLOUR, makisBoardSetup, makisOccupancy, planMakisGame, playMakisGames, setUpMakisActions, type MakisGamePlan } from '../../server/simulate/index.ts';

const opening = (rules: Partial<MakisOptions>): number[] => {
  const s = initial({ players: 1, mode: 'competitive', knights: [1, 1, 1, 1, 1, 1, 1, 1, 1], ...rules });
  if (!s.ok) throw new Error(s.error.message);
  return makisOccupancy(s.value);
};

describe('live play', () => {
  test('games follow one another on the same board, set up again in between', () => {
    const rules = { players: 3 };
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 'live', ...makisBoardSetup(rules) }, () => {});
    table.boot();
    const plans: MakisGamePlan[] = [];
    const atStart: number[][] = [];
    const live = playMakisGames(table, { seed: 'live', rules, games: 3, illegalProbability: 0.1, takeBackProbability: 0.1 }, (plan) => {
      plans.push(plan);
      atStart.push(table.occupancy());
    });
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 10_000)).toBe(true);
    live.stop();
    expect(plans).toHaveLength(3);
    for (const cells of atStart) expect(cells).toEqual(opening(rules));
    expect(new Set(plans.map((p) => p.record.join(' '))).size).toBe(3);
    for (const p of plans) expect(p.final.outcome).not.toBeNull();
    expect(table.occupancy()).toEqual(makisOccupancy(plans[2].final));
    expect(table.faults).toBe(0);
    expect(table.totalPieces()).toBe(9 + 3);
  });

  test('setting up after a game: Makis beside the board, knights back on their starting rows', () => {
    const rules: Partial<MakisOptions> = { players: 4, knights: [2, 1, 3, 1, 4, 1, 5, 1, 6] };
    const plan = planMakisGame({ seed: 'setup', rules });
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 1, ...makisBoardSetup(rules) }, () => {});
    table.perform(plan.actions);
    scheduler.runWhile(() => table.busy, 24 * 3600_000);
    table.perform(setUpMakisActions(table.pieces(), plan.options.knights));
    scheduler.runWhile(() => table.busy, 3600_000);
    expect(table.faults).toBe(0);
    expect(table.occupancy()).toEqual(opening(rules));
    expect(table.pieces().filter((p) => p.cell !== null).every((p) => p.colour === KNIGHT_COLOUR)).toBe(true);
    expect(table.sparePieces()).toHaveLength(4);
    for (const p of table.pieces()) if (p.cell !== null) expect(p.cell).toBe(square((p.cell % SIZE) + 1, plan.options.knights[p.cell % SIZE]));
  });

  test('a board of the wrong size is refused', () => {
    const table = new GridTable(new Scheduler(), { seed: 1, cols: 6, rows: 6 }, () => {});
    expect(() => playMakisGames(table, { seed: 1 })).toThrow(/9 × 9/);
  });
});
