// Tests of simulated Kalaha games: the truth replays legally, the table's script matches the engine at every move, traces are sound and deterministic.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { KalahaTable, LineStream, Scheduler, parseLine, traceEntries, type CheckedLine, type LineStreamStats } from '../../firmware-bridge/index.ts';
import { DEFAULT_OPTIONS, PITS, endByAgreement, initial, observe, play, whyIllegal, type KalahaState } from '../../server/rules/kalaha.ts';
import {
  KALAHA_FIXTURES,
  generateFixture,
  generateKalahaTrace,
  planKalahaGame,
  playKalahaGames,
  setUpActions,
  sowingOrder,
  stringifyTruth,
  type KalahaPlayerOptions,
  type KalahaTruth,
} from '../../server/simulate/index.ts';

const FIXTURE_DIR = new URL('../fixtures/kalaha/', import.meta.url);

/** Plays a record with the engine; fails the test at the first illegal move. */
function replay(truth: Pick<KalahaTruth, 'record' | 'rules'>): KalahaState {
  let state = initial(truth.rules);
  truth.record.forEach((letter, i) => {
    const pit = (PITS as readonly string[]).indexOf(letter);
    const r = play(state, { kind: 'sow', pit });
    if (!r.ok) throw new Error(`ply ${i + 1} ${letter}: ${r.error.code}`);
    state = r.value;
  });
  return state;
}

function checkTruthAgainstEngine(truth: KalahaTruth): void {
  const state = replay(truth);
  expect(observe(state)).toEqual(truth.final);
  if (truth.end === null) {
    expect(state.outcome).toBeNull();
  } else {
    expect(state.outcome).toEqual({ reason: truth.end.reason, winner: truth.end.winner });
  }
  expect(truth.final.reduce((a, b) => a + b, 0)).toBe(12 * truth.rules.seedsPerPit);
  expect(truth.moves.map((m) => m.move)).toEqual(truth.record);
  for (let i = 1; i < truth.moves.length; i++) expect(truth.moves[i].start).toBeGreaterThan(truth.moves[i - 1].end);
}

async function streamTrace(trace: string): Promise<{ lines: CheckedLine[]; stats: LineStreamStats }> {
  const stream = new LineStream({ now: () => 0 });
  const lines: CheckedLine[] = [];
  stream.on('data', (c: CheckedLine) => lines.push(c));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const e of traceEntries(trace)) stream.write(e.line + '\r\n');
  stream.end();
  await ended;
  return { lines, stats: stream.stats() };
}

function weightFrames(trace: string): { t: number; cells: number[] }[] {
  const out: { t: number; cells: number[] }[] = [];
  for (const e of traceEntries(trace)) {
    const r = parseLine(e.line);
    if (r.kind === 'message' && r.message.type === 'weights') out.push({ t: e.t, cells: r.message.cells });
  }
  return out;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

describe('sowing order', () => {
  test('counter-clockwise, skipping the emptied pit on a lap only when skipOrigin', () => {
    expect(sowingOrder(2, 4, true).map((p) => PITS[p]).join('')).toBe('DEFa');
    expect(sowingOrder(10, 3, true).map((p) => PITS[p]).join('')).toBe('fAB');
    expect(sowingOrder(0, 12, true).map((p) => PITS[p]).join('')).toBe('BCDEFabcdefB');
    expect(sowingOrder(0, 12, false).map((p) => PITS[p]).join('')).toBe('BCDEFabcdefA');
  });
});

describe('planned games', () => {
  const cases: [string, KalahaPlayerOptions][] = [
    ['plain', { seed: 11 }],
    ['random moves only', { seed: 12, captureEagerness: 0 }],
    ['36 stones', { seed: 13, rules: { seedsPerPit: 3 } }],
    ['no skipOrigin', { seed: 14, rules: { skipOrigin: false } }],
    ['mistakes and take-backs', { seed: 15, illegalProbability: 0.3, takeBackProbability: 0.15 }],
    ['agreement after 30 moves', { seed: 16, maxMoves: 30, onMaxMoves: 'agree' }],
    ['stopped after 10 moves', { seed: 17, maxMoves: 10, takeBackProbability: 0.3 }],
  ];

  test.each(cases)('%s: at every move the table holds what the engine says, and the end is swept', (_name, options) => {
    const plan = planKalahaGame(options);
    const scheduler = new Scheduler();
    const table = new KalahaTable(scheduler, { seed: options.seed, seedsPerPit: plan.options.seedsPerPit }, () => {});
    const countsAt = new Map<string, number[]>();
    table.onMark = (label) => countsAt.set(label, table.counts());
    table.boot();
    table.perform(plan.actions);
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 5000)).toBe(true);
    expect(table.faults).toBe(0);

    // Walk the events with the engine: the physical table must agree at every mark.
    let state = initial({ ...DEFAULT_OPTIONS, ...options.rules });
    const stack: KalahaState[] = [];
    let illegal = 0;
    for (const e of plan.events) {
      switch (e.kind) {
        case 'move': {
          expect(countsAt.get(e.label)).toEqual(observe(state));
          expect(e.side).toBe(state.toMove);
          const r = play(state, { kind: 'sow', pit: (PITS as readonly string[]).indexOf(e.move) });
          expect(r.ok).toBe(true);
          stack.push(state);
          if (r.ok) state = r.value;
          if (state.outcome === null) expect(countsAt.get(e.endLabel)).toEqual(observe(state));
          break;
        }
        case 'illegal': {
          illegal++;
          expect(countsAt.get(e.label)).toEqual(observe(state));
          const pit = (PITS as readonly string[]).indexOf(e.pit);
          expect(whyIllegal(state, { kind: 'sow', pit })?.code).toBe(e.code);
          break;
        }
        case 'take-back':
          expect(countsAt.get(e.label)).toEqual(observe(state));
          for (let i = 0; i < e.moves.length; i++) state = stack.pop()!;
          break;
        case 'end': {
          // Before the sweep the table shows the last position; swept into the stores it is the engine's final one.
          const before = countsAt.get(e.label)!;
          const swept = before.slice();
          for (let p = 0; p < 12; p++) {
            swept[p < 6 ? 12 : 13] += swept[p];
            swept[p] = 0;
          }
          if (e.reason === 'agreement') {
            expect(before).toEqual(observe(state));
            const agreed = endByAgreement(state);
            expect(agreed.ok).toBe(true);
            if (agreed.ok) state = agreed.value;
          }
          expect(state.outcome).toEqual({ reason: e.reason, winner: e.winner });
          expect(swept).toEqual(observe(state));
          break;
        }
        default:
          throw new Error('unknown event');
      }
    }
    expect(table.counts()).toEqual(observe(state));
    expect(observe(plan.final)).toEqual(observe(state));
    if (options.illegalProbability) expect(illegal).toBeGreaterThan(0);
    if (plan.final.outcome) expect(table.counts().slice(0, 12).every((n) => n === 0)).toBe(true);
    expect(table.totalStones()).toBe(12 * plan.options.seedsPerPit);
  });
});

describe('generated traces', () => {
  test('the truth record replays legally with the engine', () => {
    for (const seed of [21, 22, 23]) {
      const { truth } = generateKalahaTrace({ seed, illegalProbability: 0.2, takeBackProbability: 0.1, stoneSet: 'mixed' });
      checkTruthAgainstEngine(truth);
    }
  });

  test('every line passes the line stream: no drops, no seq gaps, the frames the truth counts', async () => {
    const { trace, truth } = generateKalahaTrace({ seed: 31, maxMoves: 12, sensor: { glitchRate: 0.01, noiseGrams: 0.3 } });
    const { lines, stats } = await streamTrace(trace);
    expect(stats.dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
    expect(stats.lost).toEqual({ weights: 0, grid: 0, counts: 0, heartbeat: 0 });
    expect(lines.filter((l) => l.message?.type === 'weights')).toHaveLength(truth.frames);
    expect(lines[0].message?.type).toBe('hello');
  });

  test('no noise, no pressing: every frame weighs the stones on the table, and all of them whenever the hand is empty', () => {
    const plan = planKalahaGame({ seed: 41, maxMoves: 16, takeBackProbability: 0.2, illegalProbability: 0.2 });
    const scheduler = new Scheduler();
    let checked = 0;
    let handEmpty = 0;
    let table: KalahaTable | null = null;
    table = new KalahaTable(scheduler, { seed: 41, stoneSet: 'mixed', sensor: { noiseGrams: 0 }, hand: { pressProbability: 0 } }, (line) => {
      const r = parseLine(line);
      if (r.kind !== 'message' || r.message.type !== 'weights' || table === null) return;
      const onTable = table.cellGrams().reduce((a, b) => a + b, 0);
      const inHand = table.inHand().reduce((a, st) => a + st.grams, 0);
      const sensed = r.message.cells.reduce((a, b) => a + b, 0);
      expect(Math.abs(sensed - onTable * 10)).toBeLessThanOrEqual(7);
      expect(Math.abs(sensed + inHand * 10 - all * 10)).toBeLessThanOrEqual(7);
      if (inHand === 0) handEmpty++;
      checked++;
    });
    const all = table.cellGrams().reduce((a, b) => a + b, 0);
    table.boot();
    table.perform(plan.actions);
    scheduler.runWhile(() => table!.busy, 3600_000);
    expect(checked).toBeGreaterThan(1000);
    expect(handEmpty).toBeGreaterThan(100);
    expect(handEmpty).toBeLessThan(checked);
  });

  test('the first frames show the starting position and the last ones the final position', () => {
    const { trace, truth } = generateKalahaTrace({ seed: 51, stoneSet: 'chestnuts' });
    const frames = weightFrames(trace);
    const first = frames.slice(0, 20);
    const last = frames.slice(-20);
    for (let c = 0; c < 14; c++) {
      const startGrams = c < 12 ? truth.stoneGrams.slice(c * 4, c * 4 + 4).reduce((a, b) => a + b, 0) : 0;
      expect(Math.abs(median(first.map((f) => f.cells[c])) / 10 - startGrams)).toBeLessThan(0.5);
      expect(Math.abs(median(last.map((f) => f.cells[c])) / 10 - truth.finalGrams[c])).toBeLessThan(0.5);
    }
    expect(truth.end).not.toBeNull();
    expect(truth.final.slice(0, 12).every((n) => n === 0)).toBe(true);
  });

  test('the same seed gives the same trace and truth; another seed does not', () => {
    const options = { illegalProbability: 0.2, takeBackProbability: 0.1, maxMoves: 20, sensor: { glitchRate: 0.002 } } as const;
    const a = generateKalahaTrace({ seed: 61, ...options });
    const b = generateKalahaTrace({ seed: 61, ...options });
    const c = generateKalahaTrace({ seed: 62, ...options });
    expect(b.trace).toBe(a.trace);
    expect(b.truth).toEqual(a.truth);
    expect(c.trace).not.toBe(a.trace);
  });

  test('sensor settings change the readings but not the game', () => {
    const quiet = generateKalahaTrace({ seed: 71, maxMoves: 8 });
    const loud = generateKalahaTrace({ seed: 71, maxMoves: 8, sensor: { noiseGrams: 0.3, glitchRate: 0.01 } });
    expect(loud.truth.record).toEqual(quiet.truth.record);
    expect(loud.trace).not.toBe(quiet.trace);
  });
});

describe('fixtures', () => {
  test.each(KALAHA_FIXTURES.map((f) => [f.name, f] as const))('%s is what its spec generates, and its truth replays legally', (name, fixture) => {
    const trace = readFileSync(new URL(`${name}.trace`, FIXTURE_DIR), 'utf8');
    const truthText = readFileSync(new URL(`${name}.truth.json`, FIXTURE_DIR), 'utf8');
    const fresh = generateFixture(fixture);
    // On failure: the simulator or the engine changed; write the fixtures again with
    //   node bin/run-ts.js server/simulate/kalaha-fixtures.ts
    expect(trace === fresh.trace).toBe(true);
    expect(truthText).toBe(stringifyTruth(fresh.truth));
    const truth = JSON.parse(truthText) as KalahaTruth;
    checkTruthAgainstEngine(truth);
    expect(trace.length).toBeLessThan(400_000);
  });

  test('together they cover what they promise', () => {
    const load = (name: string): KalahaTruth => JSON.parse(readFileSync(new URL(`${name}.truth.json`, FIXTURE_DIR), 'utf8')) as KalahaTruth;
    const clean = load('clean-acorns');
    expect(clean.illegalAttempts).toHaveLength(0);
    expect(clean.takeBacks).toHaveLength(0);
    expect(clean.end).not.toBeNull();
    expect(clean.moves.some((m) => m.captured >= 4)).toBe(true);
    const illegal = load('illegal-attempts');
    expect(illegal.illegalAttempts.length).toBeGreaterThanOrEqual(3);
    expect(illegal.illegalAttempts.some((a) => a.code === 'kalaha/must-feed')).toBe(true);
    expect(illegal.illegalAttempts.some((a) => a.partial)).toBe(true);
    const takeBacks = load('take-backs');
    expect(takeBacks.takeBacks.some((t) => t.moves.length === 2)).toBe(true);
    expect(takeBacks.takeBacks.some((t) => t.moves.length === 1)).toBe(true);
    const noisy = load('noisy-glitches');
    expect(noisy.sensor.noiseGrams).toBeGreaterThanOrEqual(0.3);
    expect(noisy.sensor.glitchRate).toBeGreaterThan(0);
    expect(load('variant-36').rules.seedsPerPit).toBe(3);
    expect(load('marbles').stoneSet).toBe('marbles');
    const mixed = load('mixed').stoneGrams;
    expect(Math.min(...mixed)).toBeLessThan(2);
    expect(Math.max(...mixed)).toBeGreaterThan(7);
  });
});

describe('live play', () => {
  test('games follow one another on the same table, the board set up again in between', () => {
    const scheduler = new Scheduler();
    const table = new KalahaTable(scheduler, { seed: 'live', stoneSet: 'beans' }, () => {});
    table.boot();
    const plans: string[][] = [];
    const countsAtStart: number[][] = [];
    playKalahaGames(table, { seed: 'live', games: 3, maxMoves: 12, takeBackProbability: 0.2 }, (plan) => {
      plans.push([...plan.record]);
      countsAtStart.push(table.counts());
    });
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 5000)).toBe(true);
    expect(plans).toHaveLength(3);
    expect(plans[0]).not.toEqual(plans[1]);
    for (const counts of countsAtStart) expect(counts).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0]);
    expect(table.faults).toBe(0);
    expect(table.totalStones()).toBe(48);
  });

  test('setting up from a finished board fills every pit and empties the stores', () => {
    const scheduler = new Scheduler();
    const cells = [[], [], [], [], [], [], [], [], [], [], [], [], Array(20).fill(3), Array(16).fill(3)];
    const table = new KalahaTable(scheduler, { seed: 1, cells }, () => {});
    table.perform(setUpActions(table.counts(), 3));
    scheduler.runWhile(() => table.busy, 3600_000);
    expect(table.counts()).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0]);
    expect(table.faults).toBe(0);
  });
});
