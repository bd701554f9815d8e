// Tests of the second, harsher physical model at the Kalaha table: each behaviour of the people model shows in the generated trace as it should, stones are conserved, the truth replays, and the calm model leaves traces as they were.
import { describe, expect, test } from 'vitest';
import { KalahaTable, Scheduler, parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { PITS, initial, observe, play, type KalahaState } from '../../server/rules/kalaha.ts';
import { CALM_PEOPLE, generateKalahaTrace, harshPeople, planKalahaGame, playKalahaGames, type KalahaPlanEvent, type KalahaTraceOptions, type KalahaTruth, type PeopleModel } from '../../server/simulate/index.ts';
import { peopleOption } from '../../server/commands/options.ts';
import { UsageError } from '../../server/cli.ts';

interface Frame {
  readonly t: number;
  /** Grams per cell. */
  readonly cells: readonly number[];
  readonly seq: number;
}

function frames(trace: string): Frame[] {
  const out: Frame[] = [];
  for (const e of traceEntries(trace)) {
    const r = parseLine(e.line);
    if (r.kind === 'message' && r.message.type === 'weights') out.push({ t: e.t, cells: r.message.cells.map((c) => c / 10), seq: r.message.seq });
  }
  return out;
}

/** Noise and brief presses off, so that every change in a frame is the hand's doing. */
const EXACT = { sensor: { noiseGrams: 0 }, hand: { pressProbability: 0 } } as const;

function generate(people: Partial<PeopleModel>, seed: number, more: Partial<KalahaTraceOptions> = {}) {
  return generateKalahaTrace({ seed, ...EXACT, people, ...more });
}

/** Plays a record with the engine; fails the test at the first illegal move. */
function replay(truth: Pick<KalahaTruth, 'record' | 'rules'>): KalahaState {
  let state = initial(truth.rules);
  truth.record.forEach((letter, i) => {
    const r = play(state, { kind: 'sow', pit: (PITS as readonly string[]).indexOf(letter) });
    if (!r.ok) throw new Error(`ply ${i + 1} ${letter}: ${r.error.code}`);
    state = r.value;
  });
  return state;
}

/** The first frame at or after `t` that differs from the frame before it, as a time. */
function nextChange(fs: readonly Frame[], t: number): number {
  const i = fs.findIndex((f) => f.t > t);
  for (let j = Math.max(1, i + 1); j < fs.length; j++) if (fs[j].cells.some((g, c) => Math.abs(g - fs[j - 1].cells[c]) > 0.05)) return fs[j].t;
  return Infinity;
}

type MoveEvent = Extract<KalahaPlanEvent, { kind: 'move' }>;

describe('the calm model', () => {
  test('people left out, or the calm model given, make the same trace line for line', () => {
    for (const seed of [3, 4]) {
      const without = generateKalahaTrace({ seed, illegalProbability: 0.2, takeBackProbability: 0.1, maxMoves: 30 });
      const calm = generateKalahaTrace({ seed, illegalProbability: 0.2, takeBackProbability: 0.1, maxMoves: 30, people: CALM_PEOPLE });
      expect(calm.trace).toBe(without.trace);
      expect(without.truth.people).toBeUndefined();
      expect(calm.truth.lineGaps).toEqual([]);
      expect(calm.truth.moves.every((m) => m.handling === undefined)).toBe(true);
    }
  });

  test('every move of the truth says when its last stone was set down: after the hand reached in, by the time it was done', () => {
    const { truth } = generateKalahaTrace({ seed: 5, maxMoves: 30 });
    for (const m of truth.moves) {
      expect(m.settledAt).toBeGreaterThan(m.start);
      expect(m.settledAt).toBeLessThanOrEqual(m.end);
    }
  });
});

describe('the harsher model', () => {
  test('a quick start: the next pit is lifted 40–150 ms after the last stone, with no still board of 400 ms between; runs of up to five', () => {
    const people = { quickStart: 0.6, quickRun: 5 };
    let quick = 0;
    let longestRun = 0;
    for (const seed of [11, 12, 13]) {
      const { trace, truth } = generate(people, seed);
      const fs = frames(trace);
      let run = 0;
      truth.moves.forEach((m, i) => {
        if (m.handling?.start !== 'quick') {
          run = 0;
          return;
        }
        longestRun = Math.max(longestRun, ++run);
        quick++;
        const before = truth.moves[i - 1];
        expect(m.handling.stillMs).toBeGreaterThanOrEqual(40);
        expect(m.handling.stillMs).toBeLessThanOrEqual(150);
        // The board changes again (the pit lifted) within 150 ms and a frame of the last stone down.
        expect(nextChange(fs, before.settledAt) - before.settledAt).toBeLessThan(150 + 50 + 1);
      });
    }
    expect(quick).toBeGreaterThan(30);
    expect(longestRun).toBeGreaterThanOrEqual(3);
    expect(longestRun).toBeLessThanOrEqual(5);
  });

  test('a short pause: the board is still for only 400–600 ms between two ordinary moves', () => {
    const { trace, truth } = generate({ shortPause: 1, pauseMs: 400 }, 14, { maxMoves: 30 });
    const fs = frames(trace);
    const short = truth.moves.filter((m) => m.handling?.start === 'short');
    expect(short.length).toBeGreaterThan(20);
    for (const m of short) {
      const before = truth.moves[truth.moves.indexOf(m) - 1];
      const still = nextChange(fs, before.settledAt) - before.settledAt;
      expect(still).toBeGreaterThanOrEqual(400 - 50);
      expect(still).toBeLessThanOrEqual(600 + 50);
    }
  });

  test('a hand resting in a pit: the pit weighs more than its stones, by the hand, for the seconds it rests', () => {
    const { trace, truth } = generate({ handRest: 0.5 }, 15, { maxMoves: 40 });
    const fs = frames(trace);
    const rests = truth.moves.flatMap((m) => (m.handling?.rest ? [m.handling.rest] : []));
    expect(rests.length).toBeGreaterThan(8);
    for (const r of rests) {
      expect(r.ms).toBeGreaterThanOrEqual(1000);
      expect(r.grams).toBeGreaterThanOrEqual(5);
      const before = fs.filter((f) => f.t < r.t).at(-1)!.cells[r.cell];
      const during = fs.filter((f) => f.t > r.t && f.t < r.t + r.ms);
      expect(during.length).toBeGreaterThan(15);
      // The pit is the mover's own and not the one played: while the hand rests it only gains stones.
      for (const f of during) expect(f.cells[r.cell]).toBeGreaterThanOrEqual(before + r.grams - 0.15);
      // It lets go at the end: the jump by the hand's weight is gone.
      const after = fs.find((f) => f.t > r.t + r.ms)!;
      const last = during.at(-1)!;
      expect(last.cells[r.cell] - after.cells[r.cell]).toBeGreaterThanOrEqual(r.grams - 0.15 - 10);
    }
  });

  test('both hands: a captured pit is taken while the last stones are still being sown, or as the last one lands', () => {
    const options = { captureEagerness: 1, ...EXACT, people: { bothHands: 1 } } as const;
    let early = 0;
    let single = 0;
    for (const seed of [16, 17, 18, 19]) {
      const plan = planKalahaGame({ seed, ...options });
      const { trace, truth } = generateKalahaTrace({ seed, ...options });
      const fs = frames(trace);
      const events = plan.events.filter((e): e is MoveEvent => e.kind === 'move');
      for (const [i, e] of events.entries()) {
        if (!e.handling?.bothHands) continue;
        const m = truth.moves[i];
        const last = e.sown.at(-1)!;
        const inMove = fs.filter((f) => f.t >= m.start && f.t <= m.settledAt + 50);
        // The last stone is down when the last pit sown weighs most.
        const lastDown = inMove.reduce((best, f) => (f.cells[last] > best.cells[last] ? f : best)).t;
        for (const c of e.captures) {
          const emptied = inMove.find((f) => f.t > m.start + 100 && f.cells[c.pit] === 0)!.t;
          if (c.pit === last) {
            single++;
            expect(emptied - lastDown).toBeLessThanOrEqual(250 + 50);
          } else {
            early++;
            expect(emptied).toBeLessThan(lastDown);
          }
        }
      }
    }
    expect(early).toBeGreaterThan(3);
    expect(single).toBeGreaterThan(10);
  });

  test('a stone dropped into the wrong pit: one stone leaves the next pit again, and that very stone lands where it belongs', () => {
    const { trace, truth } = generate({ wrongPit: 1 }, 20, { maxMoves: 30 });
    const fs = frames(trace);
    const wrong = truth.moves.filter((m) => m.handling?.wrongPit);
    expect(wrong.length).toBe(truth.moves.length);
    for (const m of wrong) {
      const { pit, into } = m.handling!.wrongPit!;
      const inMove = fs.filter((f) => f.t >= m.start && f.t <= m.settledAt + 50);
      // While sowing, a pit only loses stones to this correction (captures come after the last stone).
      // Readings are to the tenth of a gram, so the same stone may read 0.1 g apart.
      // After the pit played is lifted (the stray stone may have gone into it), one acorn (2–5 g) leaves the wrong pit.
      const lifted = inMove.findIndex((f) => f.cells[PITS.indexOf(m.move as (typeof PITS)[number])] === 0);
      const moved = inMove.findIndex((f, j) => j > lifted && inMove[j - 1].cells[into] - f.cells[into] > 1.9 && inMove[j - 1].cells[into] - f.cells[into] < 5.15);
      expect(moved).toBeGreaterThan(0);
      const grams = inMove[moved - 1].cells[into] - inMove[moved].cells[into];
      expect(inMove.slice(moved).some((f, j) => j > 0 && Math.abs(f.cells[pit] - inMove[moved + j - 1].cells[pit] - grams) < 0.15)).toBe(true);
    }
    expect(observe(replay(truth))).toEqual(truth.final);
  });

  test('lost lines: no line at all for 200–800 ms, and the frames’ seq jumps over the gap', () => {
    const { trace, truth } = generate({ lineGap: 0.5 }, 21, { maxMoves: 30 });
    const gaps = truth.lineGaps!;
    expect(gaps.length).toBeGreaterThan(5);
    const times = [...traceEntries(trace)].map((e) => e.t);
    const fs = frames(trace);
    for (const g of gaps) {
      expect(g.ms).toBeGreaterThanOrEqual(200);
      expect(g.ms).toBeLessThanOrEqual(800);
      expect(times.some((t) => t >= g.t && t < g.t + g.ms)).toBe(false);
      const i = fs.findIndex((f) => f.t >= g.t);
      expect(fs[i].seq - fs[i - 1].seq).toBeGreaterThan(Math.floor(g.ms / 50) - 1);
    }
    expect(truth.frames).toBe(fs.length);
  });

  test('quick sowing: the stones of a move land 120–250 ms apart instead of 300–600', () => {
    const spacing = (people: Partial<PeopleModel>): number[] => {
      const { trace, truth } = generate(people, 22);
      const fs = frames(trace);
      return truth.moves.flatMap((m) => {
        if (m.captured > 0) return [];
        // Frames where a pit gained a stone: one a frame, as the hand lets go.
        const gains = fs.filter((f, j) => f.t > m.start && f.t <= m.settledAt + 50 && j > 0 && f.cells.some((g, c) => g - fs[j - 1].cells[c] > 0.5)).map((f) => f.t);
        return gains.length < 3 ? [] : [(gains.at(-1)! - gains[0]) / (gains.length - 1)];
      });
    };
    const quick = spacing({ quickSowing: 1 });
    const calm = spacing({});
    expect(quick.length).toBeGreaterThan(10);
    for (const s of quick) expect(s).toBeLessThanOrEqual(250 + 25);
    for (const s of calm) expect(s).toBeGreaterThanOrEqual(300 - 25);
  });

  test('at every level, stones are conserved at the end of every move: nothing in the hands, the pits as the engine says', () => {
    for (const level of [1, 2, 3] as const) {
      const seed = 30 + level;
      const options = { seed, illegalProbability: 0.1, takeBackProbability: 0.05, captureEagerness: 0.8, people: harshPeople(level) };
      const plan = planKalahaGame(options);
      const scheduler = new Scheduler();
      const table = new KalahaTable(scheduler, { seed, stoneSet: 'mixed' }, () => {});
      // The position after each move, by its end mark (taken-back moves included: they were on the board too).
      const expected = new Map<string, number[]>();
      let state = initial(plan.options);
      const stack: KalahaState[] = [];
      for (const e of plan.events) {
        if (e.kind === 'move') {
          stack.push(state);
          const r = play(state, { kind: 'sow', pit: (PITS as readonly string[]).indexOf(e.move) });
          if (!r.ok) throw new Error(r.error.code);
          state = r.value;
          if (state.outcome === null) expected.set(e.endLabel, observe(state));
        } else if (e.kind === 'take-back') {
          for (const _ of e.moves) state = stack.pop()!;
        }
      }
      let checked = 0;
      table.onMark = (label) => {
        const board = expected.get(label);
        if (!board) return;
        expect(table.inHand()).toHaveLength(0);
        expect(table.counts()).toEqual(board);
        checked++;
      };
      table.boot();
      table.perform(plan.actions);
      scheduler.runWhile(() => table.busy, 8 * 3600_000);
      expect(table.faults).toBe(0);
      expect(checked).toBe(expected.size);
      expect(checked).toBeGreaterThan(20);
    }
  });

  test('at every level the truth record replays with the engine, ends where the board ends, and the same seed gives the same trace', () => {
    for (const level of [1, 2, 3] as const) {
      const options = { seed: 40 + level, illegalProbability: 0.1, takeBackProbability: 0.05, people: harshPeople(level) };
      const a = generateKalahaTrace(options);
      const state = replay(a.truth);
      expect(observe(state)).toEqual(a.truth.final);
      expect(state.outcome).toEqual(a.truth.end && { reason: a.truth.end.reason, winner: a.truth.end.winner });
      expect(a.truth.people).toEqual(harshPeople(level));
      const handled = a.truth.moves.filter((m) => m.handling).length;
      expect(handled).toBeGreaterThan(a.truth.moves.length * 0.2 * level);
      const b = generateKalahaTrace(options);
      expect(b.trace).toBe(a.trace);
      expect(b.truth).toEqual(a.truth);
    }
  });
});

describe('live play', () => {
  test('the live simulated players take the people model too: whole games with rough hands, the board set up again between', () => {
    const scheduler = new Scheduler();
    const table = new KalahaTable(scheduler, { seed: 'live-harsh', stoneSet: 'mixed' }, () => {});
    table.boot();
    const handled: number[] = [];
    playKalahaGames(table, { seed: 'live-harsh', games: 2, people: harshPeople(3) }, (plan) => {
      handled.push(plan.events.filter((e) => e.kind === 'move' && e.handling !== undefined).length);
      expect(table.counts()).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0]);
    });
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 5000)).toBe(true);
    expect(handled).toHaveLength(2);
    for (const n of handled) expect(n).toBeGreaterThan(10);
    expect(table.faults).toBe(0);
    expect(table.totalStones()).toBe(48);
  });
});

describe('--people of spieltisch simulate', () => {
  test('a level, the calm model, or knobs over the calm model or over a level', () => {
    expect(peopleOption(undefined)).toBeUndefined();
    expect(peopleOption('calm')).toEqual(CALM_PEOPLE);
    expect(peopleOption('harsh:2')).toEqual(harshPeople(2));
    expect(peopleOption('{"quickStart":0.5,"quickStartMs":[40,90]}')).toEqual({ ...CALM_PEOPLE, quickStart: 0.5, quickStartMs: [40, 90] });
    expect(peopleOption('{"harsh":3,"lineGap":0}')).toEqual({ ...harshPeople(3), lineGap: 0 });
  });

  test('anything else is a usage error naming what is wrong', () => {
    for (const [bad, says] of [
      ['harsh:4', 'harsh:1'],
      ['{"quick":1}', 'no knob "quick"'],
      ['{"quickStart":1.5}', 'chance'],
      ['{"quickStartMs":[90,40]}', 'least, most'],
      ['{"quickRun":0}', 'whole number'],
      ['{"harsh":5}', '"harsh"'],
      ['[1]', 'JSON object'],
    ] as const) {
      expect(() => peopleOption(bad)).toThrow(UsageError);
      expect(() => peopleOption(bad)).toThrow(says);
    }
  });
});
