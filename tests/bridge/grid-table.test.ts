// Tests of the simulated square board: pieces and beads conserved, frames are the physical state, slides, flicker, firmware, determinism.
import { describe, expect, test } from 'vitest';
import {
  GRID_MAX_COUNT_CELLS,
  GridTable,
  Random,
  Scheduler,
  formatLine,
  isOccupied,
  parseLine,
  slidePath,
  type BoardMessage,
  type CountsMessage,
  type GridAction,
  type GridMessage,
  type GridPieceSpec,
  type GridTableOptions,
} from '../../firmware-bridge/index.ts';

interface Run {
  table: GridTable;
  scheduler: Scheduler;
  lines: { t: number; line: string }[];
}

function start(options: GridTableOptions): Run {
  const scheduler = new Scheduler();
  const lines: { t: number; line: string }[] = [];
  const table = new GridTable(scheduler, options, (line, t) => lines.push({ t, line }));
  table.boot();
  return { table, scheduler, lines };
}

function messages(lines: readonly { line: string }[]): BoardMessage[] {
  const out: BoardMessage[] = [];
  for (const { line } of lines) {
    const r = parseLine(line);
    if (r.kind !== 'message') throw new Error(`the board sent a line the service cannot read: ${line}`);
    out.push(r.message);
  }
  return out;
}

/** Each frame as readings per square (0/1 for `G`, counts for `C`), with its time. */
function frames(lines: readonly { t: number; line: string }[], cells: number): { t: number; cells: number[] }[] {
  const out: { t: number; cells: number[] }[] = [];
  for (const { t, line } of lines) {
    const r = parseLine(line);
    if (r.kind !== 'message') continue;
    const m = r.message;
    if (m.type === 'grid') out.push({ t, cells: Array.from({ length: cells }, (_, i) => (isOccupied(m, i) ? 1 : 0)) });
    if (m.type === 'counts') out.push({ t, cells: m.cells });
  }
  return out;
}

/** A Malawi-like start: six pieces of two beads on each baseline. */
const BASELINES: GridPieceSpec[] = [
  ...Array.from({ length: 6 }, (_, c) => ({ cell: c, beads: 2, colour: 'light' })),
  ...Array.from({ length: 6 }, (_, c) => ({ cell: 30 + c, beads: 2, colour: 'dark' })),
];

/** A random but physically possible script: pieces only onto empty squares, slides only along clear ways, beads only from where there are some. */
function randomScript(rng: Random, occupied: boolean[], beadsOn: number[], box: number, steps: number, cols = 6): GridAction[] {
  const occ = occupied.slice();
  const beads = beadsOn.slice();
  const held: number[] = []; // beads of the pieces in the hand, last lifted last
  let hand = 0;
  const script: GridAction[] = [];
  const empty = (): number[] => occ.flatMap((o, i) => (o ? [] : [i]));
  const full = (): number[] => occ.flatMap((o, i) => (o ? [i] : []));
  for (let i = 0; i < steps; i++) {
    const roll = rng.next();
    if (roll < 0.12 && full().length > 0 && held.length < 3) {
      const cell = rng.pick(full());
      script.push({ kind: 'lift', cell });
      occ[cell] = false;
      held.push(beads[cell]);
      beads[cell] = 0;
    } else if (roll < 0.24 && held.length > 0) {
      const cell = rng.pick(empty());
      script.push({ kind: 'put', cell });
      occ[cell] = true;
      beads[cell] = held.pop()!;
    } else if (roll < 0.4 && full().length > 0) {
      const from = rng.pick(full());
      const to = rng.pick(empty());
      script.push({ kind: 'carry', from, to });
      occ[to] = true;
      beads[to] = beads[from];
      occ[from] = false;
      beads[from] = 0;
    } else if (roll < 0.6 && full().length > 0) {
      const from = rng.pick(full());
      const clear = empty().filter((to) => slidePath(from, to, cols).slice(1, -1).every((c) => !occ[c]));
      if (clear.length === 0) continue;
      const to = rng.pick(clear);
      script.push({ kind: 'slide', from, to });
      occ[to] = true;
      beads[to] = beads[from];
      occ[from] = false;
      beads[from] = 0;
    } else if (roll < 0.7) {
      const withBeads = full().filter((c) => beads[c] > 0);
      if (withBeads.length === 0) continue;
      const cell = rng.pick(withBeads);
      const count = rng.int(1, beads[cell]);
      script.push({ kind: 'take-beads', cell, count });
      beads[cell] -= count;
      hand += count;
    } else if (roll < 0.8 && hand > 0 && full().length > 0) {
      const cell = rng.pick(full());
      const count = rng.int(1, hand);
      script.push({ kind: 'add-beads', cell, count });
      beads[cell] += count;
      hand -= count;
    } else if (roll < 0.86 && hand > 0) {
      script.push({ kind: 'stow-beads' });
      box += hand;
      hand = 0;
    } else if (roll < 0.92 && box > 0) {
      const count = rng.int(1, box);
      script.push({ kind: 'fetch-beads', count });
      box -= count;
      hand += count;
    } else {
      script.push({ kind: 'think' });
    }
  }
  while (held.length > 0) {
    const cell = rng.pick(empty());
    script.push({ kind: 'put', cell });
    occ[cell] = true;
    beads[cell] = held.pop()!;
  }
  if (hand > 0) script.push({ kind: 'stow-beads' });
  return script;
}

describe('conservation', () => {
  test.each([1, 2, 3, 4, 5])('random scripts never create or lose pieces or beads (seed %i)', (seed) => {
    const run = start({ seed, pieces: BASELINES, spareBeads: 5, sense: 'count' });
    const { table } = run;
    expect(table.totalPieces()).toBe(12);
    expect(table.totalBeads()).toBe(29);
    const occupied = table.occupancy().map((o) => o === 1);
    const beads = table.counts().map((n) => Math.max(0, n - 1));
    table.perform(randomScript(new Random(`script-${seed}`), occupied, beads, table.spareBeads, 150));
    let steps = 0;
    while (table.busy) {
      run.scheduler.runUntil(run.scheduler.now + 37);
      steps++;
      expect(table.totalPieces()).toBe(12);
      expect(table.totalBeads()).toBe(29);
      // A square never holds two pieces, and the pieces on squares are what the squares sense.
      const onSquares = table.pieces().filter((p) => p.cell !== null);
      expect(new Set(onSquares.map((p) => p.cell)).size).toBe(onSquares.length);
      expect(table.occupancy().reduce((a, b) => a + b, 0)).toBe(onSquares.length);
    }
    expect(steps).toBeGreaterThan(50);
    expect(table.faults).toBe(0);
    expect(table.inHand()).toEqual({ pieces: 0, beads: 0 });
    expect(table.pieces().every((p) => p.cell !== null)).toBe(true);
  });

  test('a script the board cannot perform is counted, not thrown, and changes nothing it cannot', () => {
    const run = start({ seed: 'faults', pieces: [{ cell: 0, beads: 1 }, { cell: 1, beads: 0 }] });
    run.table.perform([
      { kind: 'lift', cell: 7 }, // nothing there
      { kind: 'carry', from: 0, to: 1 }, // a piece cannot stand on another: stays in the hand
      { kind: 'take-beads', cell: 1, count: 1 }, // no beads on it
      { kind: 'fetch-beads', count: 2 }, // the box is empty
      { kind: 'put', cell: 99 }, // off the board
    ]);
    run.scheduler.runWhile(() => run.table.busy, 60_000);
    expect(run.table.faults).toBe(5);
    expect(run.table.totalPieces()).toBe(2);
    expect(run.table.totalBeads()).toBe(1);
    expect(run.table.inHand()).toEqual({ pieces: 1, beads: 0 });
  });
});

describe('what the squares sense', () => {
  test.each(['occupancy', 'count'] as const)('%s: when the board is still, every frame is the physical state', (sense) => {
    const run = start({ seed: `still-${sense}`, pieces: BASELINES, sense });
    run.table.perform([
      { kind: 'slide', from: 2, to: 14 },
      { kind: 'carry', from: 33, to: 21 },
      { kind: 'take-beads', cell: 14 },
      { kind: 'add-beads', cell: 0 },
      { kind: 'stow-beads' },
      { kind: 'take-beads', cell: 21, count: 1 },
      { kind: 'add-beads', cell: 5, count: 1 },
    ]);
    run.scheduler.runWhile(() => run.table.busy, 60_000);
    const from = run.lines.length;
    run.scheduler.runUntil(run.scheduler.now + 1000);
    const still = frames(run.lines.slice(from), 36);
    expect(still).toHaveLength(20);
    const expected = run.table.sensed();
    for (const f of still) expect(f.cells).toEqual(expected);
    const counts = run.table.counts();
    expect(counts[14]).toBe(1); // a piece with no beads
    expect(counts[0]).toBe(4);
    expect(counts[21]).toBe(2);
    expect(counts[5]).toBe(4);
    expect(counts[2] + counts[33]).toBe(0);
    expect(run.table.spareBeads).toBe(1);
    if (sense === 'occupancy') expect(expected).toEqual(counts.map((n) => (n > 0 ? 1 : 0)));
  });

  test('a lifted piece is off the board: its square reads empty until it is put down', () => {
    const run = start({ seed: 'lift', pieces: [{ cell: 7, beads: 2 }] });
    run.table.perform([{ kind: 'lift', cell: 7, ms: 100 }, { kind: 'wait', ms: 1000 }, { kind: 'put', cell: 20, ms: 100 }]);
    run.scheduler.runUntil(3000);
    const f = frames(run.lines, 36);
    const at = (t: number): number[] => f.find((x) => x.t === t)!.cells;
    expect(at(0)[7]).toBe(1);
    expect(at(500).every((x) => x === 0)).toBe(true);
    expect(at(2000)[20]).toBe(1);
    expect(at(2000).reduce((a, b) => a + b, 0)).toBe(1);
  });

  test('a slid piece is sensed by each square it passes, in order, briefly', () => {
    const run = start({ seed: 'slide', pieces: [{ cell: 0, beads: 3 }], sense: 'count', hand: { slideMsPerSquare: [400, 400] } });
    run.table.perform([{ kind: 'wait', ms: 200 }, { kind: 'slide', from: 0, to: 24 }]);
    run.scheduler.runUntil(5000);
    const f = frames(run.lines, 36);
    const path = slidePath(0, 24, 6);
    expect(path).toEqual([0, 6, 12, 18, 24]);
    // When each square first and last reads the piece (count 1 + 3 beads).
    const seen = path.map((cell) => {
      const times = f.filter((x) => x.cells[cell] === 4).map((x) => x.t);
      return { first: times[0], last: times.at(-1)! };
    });
    for (let k = 1; k < path.length; k++) expect(seen[k].first).toBeGreaterThan(seen[k - 1].first);
    for (const k of [1, 2, 3]) {
      // 400 ms per square and a reach of 0.55 squares: about 440 ms, never more than 500.
      expect(seen[k].last - seen[k].first).toBeGreaterThanOrEqual(350);
      expect(seen[k].last - seen[k].first).toBeLessThanOrEqual(500);
    }
    // Never anywhere off the path, never more than two squares at once (reach above one half: both as it crosses).
    for (const x of f) {
      expect(x.cells.filter((n, i) => n > 0 && !path.includes(i))).toEqual([]);
      expect(x.cells.filter((n) => n > 0).length).toBeLessThanOrEqual(2);
      expect(x.cells.filter((n) => n > 0).length).toBeGreaterThanOrEqual(1);
    }
    expect(f.some((x) => x.cells.filter((n) => n > 0).length === 2)).toBe(true);
    expect(run.table.counts()[24]).toBe(4);
  });

  test('a slide off the straight goes along the rank first, then the file', () => {
    expect(slidePath(0, 14, 6)).toEqual([0, 1, 2, 8, 14]);
    expect(slidePath(35, 33, 6)).toEqual([35, 34, 33]);
    expect(slidePath(9, 9, 6)).toEqual([9]);
  });

  test('beads change counts but not occupancy', () => {
    const pieces = [{ cell: 3, beads: 4 }, { cell: 10, beads: 0 }, { cell: 11, beads: 1 }];
    const script: GridAction[] = [
      { kind: 'take-beads', cell: 3 },
      { kind: 'add-beads', cell: 10 },
      { kind: 'add-beads', cell: 11, count: 2 },
      { kind: 'stow-beads' },
    ];
    const occ = start({ seed: 'beads', pieces });
    const cnt = start({ seed: 'beads', pieces, sense: 'count' });
    occ.table.perform(script);
    cnt.table.perform(script);
    occ.scheduler.runUntil(10_000);
    cnt.scheduler.runUntil(10_000);
    const grids = new Set(messages(occ.lines).flatMap((m) => (m.type === 'grid' ? [m.occupancy] : [])));
    expect([...grids]).toEqual([(1n << 3n) | (1n << 10n) | (1n << 11n)]);
    const counts = messages(cnt.lines).flatMap((m) => (m.type === 'counts' ? [m.cells] : []));
    expect(counts[0].slice(0, 12)).toEqual([0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 1, 2]);
    expect(counts.at(-1)!.slice(0, 12)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 4]);
    // The beads leave one by one: the count on d1 passes through every value on its way down.
    expect(new Set(counts.map((c) => c[3]))).toEqual(new Set([5, 4, 3, 2, 1]));
    expect(cnt.table.spareBeads).toBe(1);
  });
});

describe('flicker', () => {
  test('single-frame toggles at the configured rate, on every square alike', () => {
    const rate = 0.01;
    const run = start({ seed: 'flicker', pieces: BASELINES, sensor: { flickerRate: rate } });
    run.scheduler.runUntil(50 * 2000);
    const f = frames(run.lines, 36);
    const truth = run.table.occupancy();
    let toggles = 0;
    let runsLonger = 0;
    const perSquare = new Array<number>(36).fill(0);
    for (let i = 0; i < f.length; i++) {
      for (let c = 0; c < 36; c++) {
        if (f[i].cells[c] === truth[c]) continue;
        toggles++;
        perSquare[c]++;
        if (i + 1 < f.length && f[i + 1].cells[c] !== truth[c]) runsLonger++;
      }
    }
    const observed = toggles / (f.length * 36);
    // 72 000 readings at 1 %: 720 expected, sd about 27.
    expect(observed).toBeGreaterThan(0.0085);
    expect(observed).toBeLessThan(0.0115);
    // Twice in a row on one square is chance (1 in 100), not a stuck switch.
    expect(runsLonger).toBeLessThan(toggles * 0.03);
    expect(Math.max(...perSquare)).toBeLessThan(45);
    expect(Math.min(...perSquare)).toBeGreaterThan(5);
  });

  test('a flaky square sticks in the wrong state for runs of a few frames; the others never misread', () => {
    const run = start({ seed: 'flaky', pieces: BASELINES, sense: 'count', sensor: { flakyCell: 4, flakyRate: 0.02, flakyFrames: [2, 4] } });
    run.scheduler.runUntil(50 * 3000);
    const f = frames(run.lines, 36);
    const truth = run.table.counts();
    const runs: number[] = [];
    let current = 0;
    let elsewhere = 0;
    for (const x of f) {
      for (let c = 0; c < 36; c++) if (c !== 4 && x.cells[c] !== truth[c]) elsewhere++;
      if (x.cells[4] !== truth[4]) {
        expect(x.cells[4]).toBe(0); // an occupied square misreads as empty
        current++;
      } else if (current > 0) {
        runs.push(current);
        current = 0;
      }
    }
    expect(elsewhere).toBe(0);
    expect(runs.length).toBeGreaterThan(25);
    expect(Math.min(...runs)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...runs)).toBeLessThanOrEqual(8); // two runs may meet
    // A run starts with chance 2 % per frame it is not already misreading: about 3000 / (1/0.02 + 3) ≈ 57 runs.
    expect(runs.length).toBeLessThan(90);
  });

  test('an empty flickering square reads a bare piece on a counting board', () => {
    const run = start({ seed: 'flicker-count', sense: 'count', sensor: { flickerRate: 0.05 } });
    run.scheduler.runUntil(50 * 200);
    const values = new Set(frames(run.lines, 36).flatMap((x) => x.cells));
    expect(values).toEqual(new Set([0, 1]));
  });
});

describe('firmware behaviour', () => {
  test('HELLO at boot, G at 20 Hz with consecutive seq, HB once a second', () => {
    const run = start({ seed: 'boot', pieces: BASELINES });
    run.scheduler.runUntil(3000);
    expect(run.lines[0]).toMatchObject({ t: 0 });
    expect(run.lines[0].line).toMatch(/^HELLO proto=1 fw=\S+ board=grid id=\S+ cols=6 rows=6 sense=occupancy\*[0-9A-F]{2}$/);
    const hello = messages(run.lines.slice(0, 1))[0];
    expect(hello).toMatchObject({ type: 'hello', board: 'grid', cols: 6, rows: 6, sense: 'occupancy' });
    const grids = messages(run.lines).filter((m): m is GridMessage => m.type === 'grid');
    expect(grids).toHaveLength(61);
    expect(grids.map((g) => g.seq)).toEqual(grids.map((_, i) => i));
    // Ranks 1 and 6 of a 6 × 6 board: bits 0-5 and 30-35; nine hex digits, upper case.
    expect(grids[0].occupancy).toBe(0xfc000003fn);
    expect(run.lines[1].line).toBe(formatLine('G 0 FC000003F').slice(0, -1));
    const hb = run.lines.filter((l) => l.line.startsWith('HB '));
    expect(hb.map((l) => l.t)).toEqual([1000, 2000, 3000]);
  });

  test('a 13 × 13 board: bit i is square row * cols + col, beyond 53 bits', () => {
    const run = start({ seed: 'go', cols: 13, rows: 13, pieces: [{ cell: 0, beads: 0 }, { cell: 168, beads: 0 }, { cell: 13 * 6 + 6, beads: 0 }] });
    run.scheduler.runUntil(60);
    const grid = messages(run.lines).find((m): m is GridMessage => m.type === 'grid')!;
    expect(grid.occupancy).toBe((1n << 168n) | (1n << 84n) | 1n);
    expect(run.lines.find((l) => l.line.startsWith('G '))!.line).toMatch(/^G 0 [0-9A-F]{43}\*/);
  });

  test('a counting board: C frames in cell order, HELLO says sense=count; one too large for a line is refused', () => {
    const run = start({ seed: 'count', cols: 4, rows: 5, sense: 'count', pieces: [{ cell: 19, beads: 7 }, { cell: 4, beads: 0 }] });
    run.scheduler.runUntil(60);
    const ms = messages(run.lines);
    expect(ms[0]).toMatchObject({ type: 'hello', cols: 4, rows: 5, sense: 'count' });
    const c = ms.find((m): m is CountsMessage => m.type === 'counts')!;
    expect(c.cells).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8]);
    expect(GRID_MAX_COUNT_CELLS).toBe(120);
    expect(() => new GridTable(new Scheduler(), { seed: 1, cols: 11, rows: 11, sense: 'count' }, () => {})).toThrow(RangeError);
    const ten = start({ seed: 1, cols: 10, rows: 10, sense: 'count', pieces: Array.from({ length: 100 }, (_, cell) => ({ cell, beads: 8 })) });
    ten.scheduler.runUntil(60);
    expect(messages(ten.lines).filter((m) => m.type === 'counts')).toHaveLength(2);
  });

  test.each([
    [{ cols: 0 }],
    [{ rows: 14 }],
    [{ cols: 2.5 }],
    [{ pieces: [{ cell: 36, beads: 1 }] }],
    [{ pieces: [{ cell: 1, beads: 1 }, { cell: 1, beads: 2 }] }],
    [{ pieces: [{ cell: 1, beads: -1 }] }],
    [{ sensor: { flakyCell: 40 } }],
  ] as [Partial<GridTableOptions>][])('refuses an impossible board: %j', (bad) => {
    expect(() => new GridTable(new Scheduler(), { seed: 1, ...bad }, () => {})).toThrow(RangeError);
  });

  test('answers commands: HELLO?, RATE, TARE, LED, garbage; presses a button', () => {
    const run = start({ seed: 'cmd', pieces: BASELINES });
    run.scheduler.runUntil(100);
    const send = (body: string): void => run.table.receive(Buffer.from(formatLine(body)));
    const replies = (): string[] =>
      run.lines.filter((l) => !/^(G|HB) /.test(l.line)).map((l) => l.line.replace(/\*..$/, ''));
    send('HELLO?');
    send('RATE 50');
    send('RATE 0');
    send('TARE');
    send('LED 35 00ff00');
    send('LED 36 00ff00');
    send('DANCE');
    run.table.receive(Buffer.from('HELLO?*00\n'));
    run.table.perform([{ kind: 'button', name: 'ok' }]);
    run.scheduler.runUntil(200);
    expect(replies().slice(1)).toEqual([
      expect.stringMatching(/^HELLO proto=1 fw=\S+ board=grid /),
      'OK RATE 50',
      'ERR range rate must be 1-50',
      'ERR unsupported no load cells on this board',
      'OK LED 35 00ff00',
      'ERR range cell must be 0-35',
      'ERR unknown DANCE',
      'ERR checksum line dropped',
      'BTN ok',
    ]);
    expect(messages(run.lines).some((m) => m.type === 'button' && m.name === 'ok')).toBe(true);
    expect(run.table.ledColors()[35]).toBe('00ff00');
    const at = run.lines.length;
    run.scheduler.runUntil(300);
    expect(frames(run.lines.slice(at), 36)).toHaveLength(5);

    const dark = start({ seed: 'no-leds', leds: false });
    dark.table.receive(Buffer.from(formatLine('LEDS off')));
    dark.scheduler.runUntil(10);
    expect(dark.lines.map((l) => l.line.replace(/\*..$/, ''))).toContain('ERR unsupported no LEDs on this board');
  });

  test('the same seed gives the same lines; another seed does not', () => {
    const lines = (seed: number): string[] => {
      const run = start({ seed, pieces: BASELINES, sense: 'count', sensor: { flickerRate: 0.01, flakyCell: 20 } });
      const occupied = run.table.occupancy().map((o) => o === 1);
      run.table.perform(randomScript(new Random(seed), occupied, run.table.counts().map((n) => Math.max(0, n - 1)), 0, 40));
      run.scheduler.runUntil(30_000);
      return run.lines.map((l) => `${l.t} ${l.line}`);
    };
    expect(lines(7)).toEqual(lines(7));
    expect(lines(7)).not.toEqual(lines(8));
  });
});
