// Tests of simulated Malawi players at a live board: games follow one another, the board set up again between them, in virtual time and behind a mock serial port.
import { afterEach, describe, expect, test } from 'vitest';
import { GridTable, Scheduler, isOccupied, startSimulatedGridBoard, type GridMessage, type SimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { initial, observe, observeCounts, type MalawiOptions } from '../../server/rules/malawi.ts';
import {
  malawiBoardSetup,
  malawiLayout,
  planMalawiGame,
  playMalawiGames,
  setUpMalawiActions,
  type MalawiGamePlan,
} from '../../server/simulate/index.ts';

const startCounts = (rules: Partial<MalawiOptions> = {}): number[] =>
  observeCounts(initial({ size: 6, maxStrength: 5, baselineWin: 'static', ...rules }));

describe('live play', () => {
  test('games follow one another on the same board, set up again in between', () => {
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 'live', sense: 'count', ...malawiBoardSetup() }, () => {});
    table.boot();
    const plans: MalawiGamePlan[] = [];
    const atStart: number[][] = [];
    const live = playMalawiGames(table, { seed: 'live', games: 3, takeBackProbability: 0.1, illegalProbability: 0.1 }, (plan) => {
      plans.push(plan);
      atStart.push(table.counts());
    });
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 10_000)).toBe(true);
    live.stop();
    expect(plans).toHaveLength(3);
    for (const counts of atStart) expect(counts).toEqual(startCounts());
    // Different games, each played to its end; the board ends in the last game's final position.
    expect(new Set(plans.map((p) => p.record.join(' '))).size).toBe(3);
    for (const p of plans) expect(p.final.outcome).not.toBeNull();
    expect(table.counts()).toEqual(observeCounts(plans[2].final));
    expect(table.faults).toBe(0);
    expect(table.totalBeads()).toBe(24);
    expect(table.totalPieces()).toBe(12);
  });

  test.each([
    ['a finished game', { seed: 'a' }],
    ['a game of strong pieces', { seed: 'b', distributeProbability: 0.9, captureEagerness: 0 }],
    ['an 8 × 8 game', { seed: 'c', rules: { size: 8, maxStrength: 7 } as Partial<MalawiOptions> }],
  ])('setting up after %s puts every piece on its baseline with two beads', (_name, options) => {
    const plan = planMalawiGame(options);
    const size = plan.options.size;
    const scheduler = new Scheduler();
    // Whatever beads were lost in the game wait in the box.
    const lost = 4 * size - plan.final.squares.reduce((n, p) => n + (p?.strength ?? 0), 0);
    const table = new GridTable(scheduler, { seed: 1, cols: size, rows: size, pieces: malawiLayout(plan.final), spareBeads: lost }, () => {});
    table.perform(setUpMalawiActions(table.pieces(), size));
    scheduler.runWhile(() => table.busy, 3600_000);
    expect(table.faults).toBe(0);
    expect(table.counts()).toEqual(startCounts(plan.options));
    for (const p of table.pieces()) expect(Math.floor(p.cell! / size)).toBe(p.colour === 'light' ? 0 : size - 1);
    expect(table.spareBeads).toBe(0);
  });

  test('a board of the wrong size is refused', () => {
    const table = new GridTable(new Scheduler(), { seed: 1, cols: 7, rows: 7 }, () => {});
    expect(() => playMalawiGames(table, { seed: 1 })).toThrow(RangeError);
  });
});

describe('live play behind a mock serial port', () => {
  let sim: SimulatedGridBoard | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  test('the service receives the game as G frames in real time, ending in the final position', async () => {
    sim = await startSimulatedGridBoard({ seed: 'port', simSpeed: 400, virtualTimestamps: true, ...malawiBoardSetup() });
    const frames: GridMessage[] = [];
    sim.link.on('grid', (f) => frames.push(f));
    let plan: MalawiGamePlan | null = null;
    playMalawiGames(sim.table, { seed: 'port', games: 1, maxMoves: 8, betweenGamesMs: 500 }, (p) => (plan = p));
    while (sim.table.busy) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(plan).not.toBeNull();
    const occupied = (f: GridMessage): number[] => Array.from({ length: 36 }, (_, i) => (isOccupied(f, i) ? 1 : 0));
    expect(occupied(frames[0])).toEqual(observe(initial()));
    expect(occupied(frames.at(-1)!)).toEqual(observe(plan!.final));
    for (let i = 1; i < frames.length; i++) expect(frames[i].seq).toBe(frames[i - 1].seq + 1);
    expect(sim.link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });
});
