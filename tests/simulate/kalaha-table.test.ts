// Tests of the simulated weighing table: stones conserved, weights are the stones' weights, sensor effects, commands, determinism.
import { describe, expect, test } from 'vitest';
import {
  KalahaTable,
  Random,
  STONE_KINDS,
  STONE_SETS,
  STONE_WEIGHTS,
  Scheduler,
  formatLine,
  makeStones,
  parseLine,
  type KalahaTableOptions,
  type TableAction,
  type WeightsMessage,
} from '../../firmware-bridge/index.ts';

interface Run {
  table: KalahaTable;
  scheduler: Scheduler;
  lines: { t: number; line: string }[];
}

function start(options: KalahaTableOptions): Run {
  const scheduler = new Scheduler();
  const lines: { t: number; line: string }[] = [];
  const table = new KalahaTable(scheduler, options, (line, t) => lines.push({ t, line }));
  table.boot();
  return { table, scheduler, lines };
}

function weights(lines: readonly { line: string }[]): WeightsMessage[] {
  const out: WeightsMessage[] = [];
  for (const { line } of lines) {
    const r = parseLine(line);
    if (r.kind === 'message' && r.message.type === 'weights') out.push(r.message);
  }
  return out;
}

/** A random but physically possible script: never lifts more than a cell holds, never drops from an empty hand. */
function randomScript(rng: Random, counts: number[], steps: number): TableAction[] {
  const c = counts.slice();
  let hand = 0;
  const script: TableAction[] = [];
  for (let i = 0; i < steps; i++) {
    const cell = rng.int(0, 13);
    const roll = rng.next();
    if (roll < 0.25 && c[cell] > 0) {
      const count = rng.int(1, c[cell]);
      script.push({ kind: 'lift', cell, count });
      c[cell] -= count;
      hand += count;
    } else if (roll < 0.6 && hand > 0) {
      script.push({ kind: 'drop', cell });
      c[cell]++;
      hand--;
    } else if (roll < 0.7 && hand > 0) {
      script.push({ kind: 'put', cell });
      c[cell] += hand;
      hand = 0;
    } else if (roll < 0.8) {
      const to = rng.int(0, 13);
      script.push({ kind: 'carry', from: cell, to });
      if (to !== cell) {
        c[to] += c[cell];
        c[cell] = 0;
      }
    } else if (roll < 0.9) {
      script.push({ kind: 'press', cell, grams: rng.range(1, 9), ms: rng.int(50, 300) });
    } else {
      script.push({ kind: 'think' });
    }
  }
  if (hand > 0) script.push({ kind: 'put', cell: rng.int(0, 13) });
  return script;
}

describe('stones', () => {
  test.each(STONE_KINDS)('%s weigh what the set says, always within 1–10 g', (kind) => {
    const grams = makeStones(kind, 500, new Random(kind));
    const w = STONE_WEIGHTS[kind];
    for (const g of grams) {
      expect(g).toBeGreaterThanOrEqual(Math.max(1, w.min));
      expect(g).toBeLessThanOrEqual(Math.min(10, w.max));
    }
    const mean = grams.reduce((a, b) => a + b, 0) / grams.length;
    expect(Math.abs(mean - w.mean)).toBeLessThan(0.25);
  });

  test('a mixed set mixes kinds', () => {
    const grams = makeStones('mixed', 400, new Random('mixed'));
    expect(grams.some((g) => g < 2)).toBe(true);
    expect(grams.some((g) => g > 7)).toBe(true);
    expect(STONE_SETS).toContain('mixed');
  });
});

describe('conservation', () => {
  test.each([1, 2, 3, 4, 5])('random scripts never create or lose stones (seed %i)', (seed) => {
    const run = start({ seed, stoneSet: 'mixed', sensor: { noiseGrams: 0 }, hand: { pressProbability: 0 } });
    const total = run.table.totalStones();
    expect(total).toBe(48);
    const allGrams = run.table.cellGrams().reduce((a, b) => a + b, 0);
    const rng = new Random(`script-${seed}`);
    run.table.perform(randomScript(rng, run.table.counts(), 120));
    let steps = 0;
    while (run.table.busy) {
      run.scheduler.runUntil(run.scheduler.now + 37);
      steps++;
      expect(run.table.totalStones()).toBe(total);
      // Weight on the table plus weight in the hand is the weight of all the stones.
      const onTable = run.table.cellGrams().reduce((a, b) => a + b, 0);
      const inHand = run.table.inHand().reduce((a, s) => a + s.grams, 0);
      expect(onTable + inHand).toBeCloseTo(allGrams, 6);
    }
    expect(steps).toBeGreaterThan(10);
    expect(run.table.faults).toBe(0);
    expect(run.table.inHand()).toHaveLength(0);
    expect(run.table.counts().reduce((a, b) => a + b, 0)).toBe(total);
  });

  test('with no hand on the table and no noise, each cell reads the sum of its stones, to the tenth of a gram', () => {
    const run = start({ seed: 'exact', stoneSet: 'acorns', sensor: { noiseGrams: 0 }, hand: { pressProbability: 0 } });
    run.table.perform([{ kind: 'lift', cell: 3 }, { kind: 'drop', cell: 4 }, { kind: 'drop', cell: 5 }, { kind: 'put', cell: 12 }]);
    run.scheduler.runWhile(() => run.table.busy, 60_000);
    const settledFrom = run.lines.length;
    run.scheduler.runUntil(run.scheduler.now + 500);
    const frames = weights(run.lines.slice(settledFrom));
    expect(frames.length).toBe(10);
    for (const f of frames) {
      for (let c = 0; c < 14; c++) {
        const expected = Math.round(run.table.stonesIn(c).reduce((a, s) => a + s.grams, 0) * 10);
        expect(f.cells[c]).toBe(expected);
      }
    }
    expect(run.table.counts()).toEqual([4, 4, 4, 0, 5, 5, 4, 4, 4, 4, 4, 4, 2, 0]);
  });

  test('stones in the hand are off the table: the total drops while they are held', () => {
    const run = start({ seed: 'hand', stoneSet: 'chestnuts', sensor: { noiseGrams: 0 }, hand: { pressProbability: 0 } });
    const before = run.table.cellGrams().reduce((a, b) => a + b, 0);
    run.table.perform([{ kind: 'lift', cell: 0, ms: 100 }, { kind: 'wait', ms: 1000 }, { kind: 'put', cell: 0, ms: 100 }]);
    run.scheduler.runUntil(600);
    const held = run.table.inHand().reduce((a, s) => a + s.grams, 0);
    expect(run.table.inHand()).toHaveLength(4);
    const frame = weights(run.lines).at(-1)!;
    // Each of the 14 cells rounds to a tenth of a gram on its own: the sum is within 14 half-tenths.
    expect(Math.abs(frame.cells.reduce((a, b) => a + b, 0) - (before - held) * 10)).toBeLessThanOrEqual(7);
    expect(held).toBeGreaterThan(4 * 7);
    expect(frame.cells[0]).toBe(0);
  });
});

describe('sensor and hand effects', () => {
  test('noise has the configured spread around the true weight', () => {
    const run = start({ seed: 'noise', sensor: { noiseGrams: 0.3 } });
    run.scheduler.runUntil(50 * 400);
    const frames = weights(run.lines);
    const truth = run.table.cellGrams().map((g) => g * 10);
    const dev = frames.flatMap((f) => f.cells.map((w, c) => w - truth[c]));
    const mean = dev.reduce((a, b) => a + b, 0) / dev.length;
    const sd = Math.sqrt(dev.reduce((a, b) => a + (b - mean) ** 2, 0) / dev.length);
    expect(Math.abs(mean)).toBeLessThan(0.2);
    expect(sd).toBeGreaterThan(2.7);
    expect(sd).toBeLessThan(3.3);
  });

  test('glitches are single frames of 0 or garbage', () => {
    const run = start({ seed: 'glitch', stoneSet: 'marbles', sensor: { noiseGrams: 0, glitchRate: 0.01 } });
    run.scheduler.runUntil(50 * 1000);
    const frames = weights(run.lines);
    const truth = run.table.cellGrams().map((g) => Math.round(g * 10));
    let glitches = 0;
    let zeros = 0;
    let repeated = 0;
    for (let i = 0; i < frames.length; i++) {
      for (let c = 0; c < 12; c++) {
        if (frames[i].cells[c] === truth[c]) continue;
        glitches++;
        if (frames[i].cells[c] === 0) zeros++;
        // A glitch lasts one frame; the same cell glitching in the next frame is chance (1 in 100).
        if (i + 1 < frames.length && frames[i + 1].cells[c] !== truth[c]) repeated++;
      }
    }
    const rate = glitches / (frames.length * 12);
    expect(rate).toBeGreaterThan(0.005);
    expect(rate).toBeLessThan(0.02);
    expect(zeros / glitches).toBeGreaterThan(0.3);
    expect(zeros / glitches).toBeLessThan(0.7);
    expect(repeated).toBeLessThan(glitches * 0.05);
  });

  test('a pressing hand adds grams to the pit for a few frames only', () => {
    const run = start({
      seed: 'press',
      sensor: { noiseGrams: 0 },
      hand: { pressProbability: 1, pressGrams: [5, 5], pressFrames: [3, 3] },
    });
    run.table.perform([{ kind: 'lift', cell: 0, count: 1, ms: 100 }, { kind: 'drop', cell: 7, ms: 100 }]);
    run.scheduler.runUntil(2000);
    const stone = run.table.stonesIn(7).reduce((a, s) => a + s.grams, 0);
    const cell7 = weights(run.lines).map((f) => f.cells[7]);
    const pressed = cell7.filter((w) => w === Math.round((stone + 5) * 10)).length;
    expect(pressed).toBe(3);
    expect(cell7.at(-1)).toBe(Math.round(stone * 10));
  });

  test('drift moves a cell slowly and steadily', () => {
    const run = start({ seed: 'drift', sensor: { noiseGrams: 0, driftGramsPerMinute: 2 } });
    run.scheduler.runUntil(120_000);
    const frames = weights(run.lines);
    const first = frames[0].cells;
    const last = frames.at(-1)!.cells;
    const moved = first.map((w, c) => Math.abs(last[c] - w));
    expect(Math.max(...moved)).toBeGreaterThan(5);
    expect(Math.max(...moved)).toBeLessThanOrEqual(41);
  });
});

describe('firmware behaviour', () => {
  test('HELLO at boot, W at 20 Hz with consecutive seq, HB once a second', () => {
    const run = start({ seed: 'boot' });
    run.scheduler.runUntil(3000);
    expect(run.lines[0]).toMatchObject({ t: 0 });
    expect(run.lines[0].line).toMatch(/^HELLO proto=1 fw=\S+ board=kalaha id=\S+ cells=14\*[0-9A-F]{2}$/);
    const frames = weights(run.lines);
    expect(frames).toHaveLength(61);
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i));
    const hb = run.lines.filter((l) => l.line.startsWith('HB '));
    expect(hb.map((l) => l.t)).toEqual([1000, 2000, 3000]);
    expect(hb[1].line).toBe(formatLine('HB 1 2000').slice(0, -1));
  });

  test('answers commands: HELLO?, RATE, TARE, LED, garbage', () => {
    const run = start({ seed: 'cmd', sensor: { noiseGrams: 0 } });
    run.scheduler.runUntil(100);
    const send = (body: string): void => run.table.receive(Buffer.from(formatLine(body)));
    const replies = (): string[] => run.lines.filter((l) => !l.line.startsWith('W ') && !l.line.startsWith('HB ')).map((l) => l.line.replace(/\*..$/, ''));
    send('HELLO?');
    send('RATE 50');
    send('RATE 51');
    send('LED 3 00ff00');
    send('DANCE');
    run.table.receive(Buffer.from('TARE*00\n'));
    run.scheduler.runUntil(200);
    expect(replies().slice(1)).toEqual([
      expect.stringMatching(/^HELLO proto=1/),
      'OK RATE 50',
      'ERR range rate must be 1-50',
      'OK LED 3 00ff00',
      'ERR unknown DANCE',
      'ERR checksum line dropped',
    ]);
    expect(run.table.ledColors()[3]).toBe('00ff00');
    const at = run.lines.length;
    run.scheduler.runUntil(300);
    expect(weights(run.lines.slice(at))).toHaveLength(5);
    send('TARE');
    run.scheduler.runUntil(400);
    expect(weights(run.lines).at(-1)!.cells.every((w) => w === 0)).toBe(true);
  });

  test('the same seed gives the same lines; another seed does not', () => {
    const lines = (seed: number): string[] => {
      const run = start({ seed, stoneSet: 'mixed', sensor: { glitchRate: 0.01, driftGramsPerMinute: 1 } });
      run.table.perform(randomScript(new Random(seed), run.table.counts(), 40));
      run.scheduler.runUntil(20_000);
      return run.lines.map((l) => `${l.t} ${l.line}`);
    };
    expect(lines(7)).toEqual(lines(7));
    expect(lines(7)).not.toEqual(lines(8));
  });
});
