// Tests of the simulated Adu players and their board: legal plans, what the board does with pieces beside it, silent players, live games one after another.
import { describe, expect, test } from 'vitest';
import { GridTable, Scheduler } from '../../firmware-bridge/index.ts';
import { aduGame } from '../../server/rules/adu-game.ts';
import { replay } from '../../server/rules/replay.ts';
import { observe } from '../../server/rules/adu.ts';
import {
  ADU_RESERVE_COLOUR,
  aduBoardSetup,
  clearAduBoardActions,
  formatAduRecord,
  generateAduTrace,
  planAduGame,
  playAduGames,
  type AduGamePlan,
  type AduPlanEvent,
} from '../../server/simulate/index.ts';

const movesOf = (plan: AduGamePlan) => plan.events.filter((e): e is Extract<AduPlanEvent, { kind: 'move' }> => e.kind === 'move');

describe('planned games', () => {
  test.each([2, 3, 6])('%i players: the record replays, to the end of the game', (players) => {
    const plan = planAduGame({ seed: `plan-${players}`, rules: { players }, illegalProbability: 0.1, takeBackProbability: 0.1 });
    const { line } = replay(aduGame, formatAduRecord(plan.record, plan.options));
    expect(line).toMatchObject({ ok: true, plies: plan.record.length, over: true });
    expect(plan.final.outcome).not.toBeNull();
  });

  test('the same seed plans the same game', () => {
    const a = planAduGame({ seed: 42, rules: { players: 3 }, illegalProbability: 0.2 });
    const b = planAduGame({ seed: 42, rules: { players: 3 }, illegalProbability: 0.2 });
    expect(a.record).toEqual(b.record);
    expect(a.actions).toEqual(b.actions);
  });

  test('a declared range is written only when it is not the lowest', () => {
    const plan = planAduGame({ seed: 5, rules: { players: 2 }, lowestDeclarationProbability: 0 });
    const declared = movesOf(plan).filter((e) => e.declaration !== null && e.declaration.ranges.length > 1);
    expect(declared.length).toBeGreaterThan(0);
    for (const e of declared) expect(e.move).toMatch(/=\d$/);
    const lowest = movesOf(planAduGame({ seed: 5, rules: { players: 2 }, lowestDeclarationProbability: 1 })).filter((e) => e.declaration !== null);
    for (const e of lowest) expect(e.move).not.toMatch(/=\d/);
  });

  test('silent players make no capture in one sweep, no move that looks like another, and declare the lowest range', () => {
    for (const seed of [1, 2, 3]) {
      const events = movesOf(planAduGame({ seed, rules: { players: 4 }, silent: true }));
      expect(events.some((e) => e.handling === 'quick')).toBe(false);
      expect(events.filter((e) => e.lookAlikes > 0 && e.moveKind !== 'capture')).toEqual([]);
      expect(events.filter((e) => e.declaration !== null && e.declaration.range !== e.declaration.ranges[0])).toEqual([]);
    }
  });

  test('mistakes are ones the board shows as mistakes: each has the engine\'s reason', () => {
    const plan = planAduGame({ seed: 11, rules: { players: 3 }, illegalProbability: 0.5, maxMoves: 80 });
    const mistakes = plan.events.filter((e) => e.kind === 'illegal');
    expect(mistakes.length).toBeGreaterThan(5);
    for (const m of mistakes) expect(m.kind === 'illegal' && m.code).toMatch(/^adu\//);
  });
});

describe('the board with pieces beside it', () => {
  test('pieces come from beside the board and go back there; none is lost', () => {
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 1, cols: 5, rows: 5, sparePieces: [{ colour: 'blue' }, { colour: 'gold' }] }, () => {});
    expect(table.totalPieces()).toBe(2);
    table.perform([
      { kind: 'fetch-piece', colour: 'gold' },
      { kind: 'put', cell: 12 },
      { kind: 'fetch-piece' },
      { kind: 'put', cell: 3 },
      { kind: 'lift', cell: 12 },
      { kind: 'stow-piece' },
    ]);
    scheduler.runWhile(() => table.busy, 60_000);
    expect(table.faults).toBe(0);
    expect(table.occupancy().flatMap((v, c) => (v ? [c] : []))).toEqual([3]);
    expect(table.pieces().map((p) => p.colour)).toEqual(['blue']);
    expect(table.sparePieces().map((p) => p.colour)).toEqual(['gold']);
    expect(table.totalPieces()).toBe(2);
  });

  test('fetching a colour none of which is beside the board is a fault, not a piece from nowhere', () => {
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 1, cols: 5, rows: 5, sparePieces: [{ colour: 'blue' }] }, () => {});
    table.perform([{ kind: 'fetch-piece', colour: 'gold' }, { kind: 'stow-piece' }]);
    scheduler.runWhile(() => table.busy, 60_000);
    expect(table.faults).toBe(2);
    expect(table.totalPieces()).toBe(1);
  });

  test("an Adu set: each player's eight pieces in their colour and the ten reserve kings, the board empty", () => {
    const setup = aduBoardSetup({ players: 3, size: 11 });
    expect([setup.cols, setup.rows, setup.pieces.length, setup.sparePieces.length]).toEqual([11, 11, 0, 34]);
    expect(setup.sparePieces.filter((p) => p.colour === ADU_RESERVE_COLOUR)).toHaveLength(10);
  });

  test('a generated trace ends with the board as the engine ends, every piece accounted for', () => {
    const { truth } = generateAduTrace({ seed: 3, rules: { players: 2, size: 9 }, takeBackProbability: 0.2, illegalProbability: 0.2 });
    expect(truth.final.reduce((n, v) => n + v, 0)).toBe(truth.finalPosition.split(' ').length);
    expect(truth.frames).toBeGreaterThan(100);
  });
});

describe('live play', () => {
  test('games follow one another on the same board, cleared in between', () => {
    const rules = { players: 3, size: 9 };
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 'live', sense: 'occupancy', ...aduBoardSetup(rules) }, () => {});
    table.boot();
    const plans: AduGamePlan[] = [];
    const atStart: number[][] = [];
    const live = playAduGames(table, { seed: 'live', rules, games: 3, illegalProbability: 0.05, takeBackProbability: 0.05 }, (plan) => {
      plans.push(plan);
      atStart.push(table.occupancy());
    });
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 10_000)).toBe(true);
    live.stop();
    expect(plans).toHaveLength(3);
    for (const cells of atStart) expect(cells.every((v) => v === 0)).toBe(true);
    expect(new Set(plans.map((p) => p.record.join(' '))).size).toBe(3);
    for (const p of plans) expect(p.final.outcome).not.toBeNull();
    expect(table.occupancy()).toEqual(observe(plans[2].final));
    expect(table.faults).toBe(0);
    expect(table.totalPieces()).toBe(34);
  });

  test('clearing the board takes every piece off', () => {
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 2, cols: 4, rows: 4, pieces: [{ cell: 1, beads: 0 }, { cell: 9, beads: 0 }] }, () => {});
    table.perform(clearAduBoardActions(table.pieces()));
    scheduler.runWhile(() => table.busy, 60_000);
    expect(table.occupancy().every((v) => v === 0)).toBe(true);
    expect(table.sparePieces()).toHaveLength(2);
  });

  test('a board of the wrong size is refused', () => {
    const table = new GridTable(new Scheduler(), { seed: 1, cols: 9, rows: 9 }, () => {});
    expect(() => playAduGames(table, { seed: 1, rules: { size: 13 } })).toThrow(/13 × 13/);
  });
});
