// Tests of simulated Malawi games: the truth replays legally, the board's script matches the engine at every move, questions and answers, traces are sound and deterministic, fixtures.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  GridTable,
  LineStream,
  Scheduler,
  isOccupied,
  parseLine,
  traceEntries,
  type CheckedLine,
  type LineStreamStats,
} from '../../firmware-bridge/index.ts';
import { malawiGame } from '../../server/rules/malawi-game.ts';
import {
  DEFAULT_OPTIONS,
  initial,
  legalMoves,
  observe,
  observeCounts,
  play,
  whyIllegalMoveTo,
  type MalawiState,
} from '../../server/rules/malawi.ts';
import { formatMove, formatPosition, parseMove, parseSquare } from '../../server/rules/malawi-notation.ts';
import { replay } from '../../server/rules/replay.ts';
import {
  MALAWI_FIXTURES,
  answersOf,
  generateMalawiFixture,
  generateMalawiTrace,
  planMalawiGame,
  stringifyMalawiTruth,
  type MalawiPlayerOptions,
  type MalawiTruth,
} from '../../server/simulate/index.ts';

const FIXTURE_DIR = new URL('../fixtures/malawi/', import.meta.url);

function playToken(state: MalawiState, token: string): MalawiState {
  const move = parseMove(token, state.options.size);
  if (!move.ok) throw new Error(`${token}: ${move.error.code}`);
  const r = play(state, move.value);
  if (!r.ok) throw new Error(`${token}: ${r.error.code}`);
  return r.value;
}

/** The truth's record through `spieltisch replay`'s code, and its end and final readings against the engine. */
function checkTruthAgainstEngine(truth: MalawiTruth): void {
  const result = replay(malawiGame, truth.recordText);
  expect(result.exitCode).toBe(0);
  expect(result.line).toMatchObject({ ok: true, plies: truth.record.length, over: truth.end !== null });
  if (truth.end !== null) expect(result.line).toMatchObject({ winner: truth.end.winner });
  const state = truth.record.reduce(playToken, initial(truth.rules));
  expect(state.outcome === null ? null : { reason: state.outcome.reason, winner: state.outcome.winner }).toEqual(
    truth.end === null ? null : { reason: truth.end.reason, winner: truth.end.winner },
  );
  expect(truth.final).toEqual(truth.sense === 'count' ? observeCounts(state) : observe(state));
  expect(truth.finalPosition).toBe(formatPosition(state));
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

/** Readings per square of every G or C frame, with its time. */
function sensorFrames(trace: string, cells: number): { t: number; cells: number[] }[] {
  const out: { t: number; cells: number[] }[] = [];
  for (const e of traceEntries(trace)) {
    const r = parseLine(e.line);
    if (r.kind !== 'message') continue;
    const m = r.message;
    if (m.type === 'grid') out.push({ t: e.t, cells: Array.from({ length: cells }, (_, i) => (isOccupied(m, i) ? 1 : 0)) });
    if (m.type === 'counts') out.push({ t: e.t, cells: m.cells });
  }
  return out;
}

describe('planned games', () => {
  const cases: [string, MalawiPlayerOptions][] = [
    ['plain', { seed: 11 }],
    ['no captures unless forced', { seed: 12, captureEagerness: 0, maxMoves: 60 }],
    ['many distributions', { seed: 13, distributeProbability: 0.7 }],
    ['all carried', { seed: 14, slideProbability: 0 }],
    ['mistakes and take-backs', { seed: 15, illegalProbability: 0.4, takeBackProbability: 0.2 }],
    ['mistakes moved on', { seed: 16, illegalProbability: 0.5, correctOnwardProbability: 1, maxMoves: 40 }],
    ['8 × 8, strength up to 7, survives-reply', { seed: 17, rules: { size: 8, maxStrength: 7, baselineWin: 'survives-reply' }, maxMoves: 50 }],
    ['stopped after 10 moves', { seed: 18, maxMoves: 10, takeBackProbability: 0.3 }],
  ];

  test.each(cases)('%s: at every mark the board holds what the engine says', (_name, options) => {
    const plan = planMalawiGame(options);
    const rules = { ...DEFAULT_OPTIONS, ...options.rules };
    expect(plan.options).toEqual(rules);
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: options.seed, cols: rules.size, rows: rules.size, sense: 'count', pieces: plan.layout }, () => {});
    const countsAt = new Map<string, number[]>();
    table.onMark = (label) => countsAt.set(label, table.counts());
    table.boot();
    table.perform(plan.actions);
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 5000)).toBe(true);
    expect(table.faults).toBe(0);
    expect(table.inHand()).toEqual({ pieces: 0, beads: 0 });

    // Walk the events with the engine: the physical board must agree at every mark.
    let state = initial(rules);
    const stack: MalawiState[] = [];
    const record: string[] = [];
    let movedOnFrom: string | null = null;
    let illegal = 0;
    for (const e of plan.events) {
      switch (e.kind) {
        case 'move': {
          // After a piece put on the wrong square and moved on, the board is not the position until the move ends.
          if (movedOnFrom === null) expect(countsAt.get(e.label)).toEqual(observeCounts(state));
          else expect(e.move.startsWith(`${movedOnFrom}-`)).toBe(true);
          movedOnFrom = null;
          expect(e.side).toBe(state.toMove);
          expect(e.ply).toBe(stack.length + 1);
          const move = parseMove(e.move, rules.size);
          expect(move.ok && move.value.kind).toBe(e.moveKind);
          expect(e.handling === null).toBe(e.moveKind !== 'move');
          stack.push(state);
          record.push(e.move);
          state = playToken(state, e.move);
          expect(countsAt.get(e.endLabel)).toEqual(observeCounts(state));
          break;
        }
        case 'illegal': {
          illegal++;
          expect(countsAt.get(e.label)).toEqual(observeCounts(state));
          expect(e.side).toBe(state.toMove);
          const from = parseSquare(e.from, rules.size);
          const to = parseSquare(e.to, rules.size);
          if (!from.ok || !to.ok) throw new Error('bad square');
          expect(state.squares[from.value]?.side).toBe(state.toMove);
          expect(state.squares[to.value]).toBeNull();
          expect(whyIllegalMoveTo(state, from.value, to.value)?.code).toBe(e.code);
          if (e.correction === 'onward') movedOnFrom = e.from;
          break;
        }
        case 'take-back':
          expect(countsAt.get(e.label)).toEqual(observeCounts(state));
          for (const undone of e.moves) {
            const before = stack.pop()!;
            expect(record.pop()).toBe(undone);
            expect(formatPosition(playToken(before, undone))).toBe(formatPosition(state));
            state = before;
          }
          break;
        case 'end':
          expect(state.outcome).toEqual({ reason: e.reason, winner: e.winner });
          break;
        default:
          throw new Error('unknown event');
      }
    }
    expect(table.counts()).toEqual(observeCounts(state));
    expect(formatPosition(plan.final)).toBe(formatPosition(state));
    expect(plan.record).toEqual(record);
    // The pieces keep their colours: south's are light, north's dark, wherever they went.
    for (const p of table.pieces()) expect(state.squares[p.cell!]?.side).toBe(p.colour === 'light' ? 'south' : 'north');
    if (options.illegalProbability) expect(illegal).toBeGreaterThan(0);
    if (options.maxMoves === undefined) expect(plan.final.outcome).not.toBeNull();
  });

  test('moves are slid or carried as configured, and a slide never passes another piece', () => {
    const events = (slideProbability: number) => planMalawiGame({ seed: 19, slideProbability, maxMoves: 60 }).events.filter((e) => e.kind === 'move' && e.moveKind === 'move');
    const handlings = (p: number) => new Set(events(p).map((e) => (e.kind === 'move' ? e.handling : null)));
    expect(handlings(0)).toEqual(new Set(['carry']));
    expect(handlings(1)).toEqual(new Set(['slide']));
    expect(handlings(0.5)).toEqual(new Set(['slide', 'carry']));
  });

  test('look-alikes: a capture or distribution is told apart by occupancy from no other hidden move only when it is the only one', () => {
    const plan = planMalawiGame({ seed: 20, maxMoves: 80 });
    let state = initial(plan.options);
    for (const e of plan.events) {
      if (e.kind !== 'move') continue;
      const moves = legalMoves(state);
      const next = playToken(state, e.move);
      const hidden = moves.filter((m) => m.kind !== 'move' && formatMove(m, 6) !== e.move);
      if (e.moveKind === 'move') {
        expect([e.sameOccupancy, e.sameCounts]).toEqual([0, 0]);
      } else {
        // Every capture and distribution leaves occupancy as it was, so all the others look the same.
        expect(e.sameOccupancy).toBe(hidden.length);
        const sameCounts = hidden.filter((m) => observeCounts(playToken(state, formatMove(m, 6))).join() === observeCounts(next).join()).length;
        expect(e.sameCounts).toBe(sameCounts);
      }
      state = next;
    }
  });
});

describe('generated traces', () => {
  test('the truth record replays legally with the engine', () => {
    for (const seed of [21, 22, 23]) {
      for (const sense of ['occupancy', 'count'] as const) {
        const { truth } = generateMalawiTrace({ seed, sense, illegalProbability: 0.2, takeBackProbability: 0.1, maxMoves: sense === 'count' ? 30 : undefined });
        checkTruthAgainstEngine(truth);
      }
    }
  });

  test('every line passes the line stream: no drops, no seq gaps, the frames the truth counts', async () => {
    for (const sense of ['occupancy', 'count'] as const) {
      const { trace, truth } = generateMalawiTrace({ seed: 31, sense, maxMoves: 12, sensor: { flickerRate: 0.01, flakyCell: 3 } });
      const { lines, stats } = await streamTrace(trace);
      expect(stats.dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
      expect(stats.lost).toEqual({ weights: 0, grid: 0, counts: 0, heartbeat: 0 });
      expect(lines.filter((l) => l.message?.type === (sense === 'count' ? 'counts' : 'grid'))).toHaveLength(truth.frames);
      expect(lines[0].message).toMatchObject({ type: 'hello', board: 'grid', cols: 6, rows: 6, sense });
    }
  });

  test('the first frames show the starting position and the last ones the final position', () => {
    for (const sense of ['occupancy', 'count'] as const) {
      const { trace, truth } = generateMalawiTrace({ seed: 41, sense, maxMoves: 20 });
      const frames = sensorFrames(trace, 36);
      const start = initial(truth.rules);
      const expected = sense === 'count' ? observeCounts(start) : observe(start);
      for (const f of frames.slice(0, 20)) expect(f.cells).toEqual(expected);
      for (const f of frames.slice(-20)) expect(f.cells).toEqual(truth.final);
    }
  });

  test('between moves the board is still and every frame shows the position', () => {
    const { trace, truth } = generateMalawiTrace({ seed: 42, sense: 'count', maxMoves: 16 });
    const frames = sensorFrames(trace, 36);
    let state = initial(truth.rules);
    let checked = 0;
    truth.moves.forEach((m, i) => {
      state = playToken(state, m.move);
      const nextStart = truth.moves[i + 1]?.start ?? truth.durationMs;
      for (const f of frames) {
        if (f.t > m.end + 60 && f.t < nextStart) {
          expect(f.cells).toEqual(observeCounts(state));
          checked++;
        }
      }
    });
    expect(checked).toBeGreaterThan(200);
  });

  test('a slid piece shows on the squares it passes; a carried one on none of them', () => {
    const { trace, truth } = generateMalawiTrace({ seed: 43, maxMoves: 60 });
    const frames = sensorFrames(trace, 36);
    let passes = 0;
    let state = initial(truth.rules);
    for (const m of truth.moves) {
      const before = state;
      state = playToken(state, m.move);
      if (m.kind !== 'move') continue;
      const move = parseMove(m.move, 6);
      if (!move.ok || move.value.kind !== 'move') throw new Error('not a step');
      const { from, to } = move.value;
      const step = Math.sign(to - from) * (Math.abs(to - from) >= 6 ? 6 : 1);
      const between: number[] = [];
      for (let sq = from + step; sq !== to; sq += step) between.push(sq);
      if (between.length === 0) continue;
      const during = frames.filter((f) => f.t >= m.start && f.t <= m.end);
      const lit = between.filter((sq) => before.squares[sq] === null && during.some((f) => f.cells[sq] === 1));
      if (m.handling === 'slide') {
        expect(lit).toEqual(between);
        passes++;
      } else {
        expect(lit).toEqual([]);
      }
    }
    expect(passes).toBeGreaterThan(3);
  });

  test('questions: every capture and distribution on an occupancy board, in order; only look-alike captures on a counting board', () => {
    const options = { seed: 44, takeBackProbability: 0.15, maxMoves: 60 } as const;
    const occupancy = generateMalawiTrace(options).truth;
    const count = generateMalawiTrace({ ...options, sense: 'count' }).truth;
    const plan = planMalawiGame(options);
    const hidden = plan.events.flatMap((e) => (e.kind === 'move' && e.moveKind !== 'move' ? [e] : []));
    expect(occupancy.questions.map((q) => q.move)).toEqual(hidden.map((e) => e.kind === 'move' && e.move));
    expect(occupancy.questions.length).toBeGreaterThan(5);
    expect(count.questions.map((q) => q.move)).toEqual(hidden.flatMap((e) => (e.kind === 'move' && e.sameCounts > 0 ? [e.move] : [])));
    for (const q of count.questions) expect(q.kind).toBe('capture');
    for (let i = 1; i < occupancy.questions.length; i++) expect(occupancy.questions[i].t).toBeGreaterThan(occupancy.questions[i - 1].t);
    // A question about a move later taken back was still asked; the record no longer holds that move at that ply.
    expect(occupancy.questions.filter((q) => !q.takenBack).every((q) => occupancy.record[q.ply - 1] === q.move)).toBe(true);
    // On an occupancy board the console announces each hidden move a moment after it is made.
    const announced = answersOf(occupancy).split('\n').filter((l) => l !== '' && !l.includes(' back ')).map((l) => l.split(' '));
    expect(announced.map(([, move]) => move)).toEqual(occupancy.questions.map((q) => q.move));
    announced.forEach(([t], i) => expect(Number(t)).toBeGreaterThan(occupancy.questions[i].t));
    expect(answersOf(count).split('\n').filter((l) => l !== '' && !l.includes(' back '))).toEqual(count.questions.map((q) => q.move));
  });

  test('answering the questions in order, with what the sensors saw, rebuilds the record', () => {
    const { truth } = generateMalawiTrace({ seed: 45, maxMoves: 50 });
    const answers = answersOf(truth).split('\n').filter((l) => l !== '' && !l.includes(' back ')).map((l) => l.split(' ').at(-1) as string);
    // A console-driven referee: steps come from the sensors (from/to), hidden moves from the answers.
    let state = initial(truth.rules);
    const record: string[] = [];
    for (const m of truth.moves) {
      const before = observe(state);
      const truthNext = playToken(state, m.move);
      const after = observe(truthNext);
      const changed = before.flatMap((x, i) => (x !== after[i] ? [i] : []));
      let token: string;
      if (changed.length === 0) {
        token = answers.shift()!;
      } else {
        const from = changed.find((i) => before[i] === 1)!;
        const to = changed.find((i) => after[i] === 1)!;
        token = formatMove({ kind: 'move', from, to }, 6);
      }
      state = playToken(state, token);
      record.push(token);
    }
    expect(record).toEqual(truth.record);
    expect(answers).toEqual([]);
  });

  test('the same seed gives the same trace and truth; another seed does not', () => {
    const options = { illegalProbability: 0.2, takeBackProbability: 0.1, maxMoves: 20, sensor: { flickerRate: 0.002 } } as const;
    const a = generateMalawiTrace({ seed: 61, ...options });
    const b = generateMalawiTrace({ seed: 61, ...options });
    const c = generateMalawiTrace({ seed: 62, ...options });
    expect(b.trace).toBe(a.trace);
    expect(b.truth).toEqual(a.truth);
    expect(c.trace).not.toBe(a.trace);
  });

  test('sensor settings change the readings but not the game', () => {
    const quiet = generateMalawiTrace({ seed: 71, maxMoves: 8 });
    const loud = generateMalawiTrace({ seed: 71, maxMoves: 8, sensor: { flickerRate: 0.01, flakyCell: 7 } });
    expect(loud.truth.record).toEqual(quiet.truth.record);
    expect(loud.trace).not.toBe(quiet.trace);
  });
});

describe('fixtures', () => {
  test.each(MALAWI_FIXTURES.map((f) => [f.name, f] as const))('%s: the files are what the generator writes today, small, and true', (name, fixture) => {
    const trace = readFileSync(new URL(`${name}.trace`, FIXTURE_DIR), 'utf8');
    const truthText = readFileSync(new URL(`${name}.truth.json`, FIXTURE_DIR), 'utf8');
    const answers = readFileSync(new URL(`${name}.answers`, FIXTURE_DIR), 'utf8');
    const fresh = generateMalawiFixture(fixture);
    expect(trace).toBe(fresh.trace);
    expect(truthText).toBe(stringifyMalawiTruth(fresh.truth));
    expect(answers).toBe(answersOf(fresh.truth));
    expect(statSync(new URL(`${name}.trace`, FIXTURE_DIR)).size).toBeLessThan(200 * 1024);
    const truth = JSON.parse(truthText) as MalawiTruth;
    checkTruthAgainstEngine(truth);
  });

  test('together they cover what they promise', () => {
    const truths = new Map(MALAWI_FIXTURES.map((f) => [f.name, JSON.parse(readFileSync(new URL(`${f.name}.truth.json`, FIXTURE_DIR), 'utf8')) as MalawiTruth]));
    const game = truths.get('occupancy-game')!;
    expect(game.end?.reason).toBe('baseline');
    expect(new Set(game.questions.map((q) => q.kind))).toEqual(new Set(['capture', 'distribute']));
    const counting = truths.get('count-board')!;
    expect(counting.sense).toBe('count');
    expect(counting.questions.length).toBeGreaterThan(0);
    const illegal = truths.get('illegal-placements')!;
    expect(new Set(illegal.illegalAttempts.map((a) => a.code))).toEqual(
      new Set(['malawi/wrong-distance', 'malawi/not-straight', 'malawi/path-blocked', 'malawi/strength-zero']),
    );
    expect(new Set(illegal.illegalAttempts.map((a) => a.correction))).toEqual(new Set(['back', 'onward']));
    const takeBacks = truths.get('take-backs')!;
    expect(takeBacks.takeBacks.some((t) => t.moves.length === 2)).toBe(true);
    const undone = takeBacks.takeBacks.flatMap((t) => t.moves);
    expect(undone.some((m) => m.includes('x'))).toBe(true);
    expect(undone.some((m) => m.includes('>'))).toBe(true);
    expect(takeBacks.questions.some((q) => q.takenBack)).toBe(true);
    const flicker = truths.get('flicker')!;
    expect(flicker.sensor.flickerRate).toBeGreaterThan(0);
    expect(flicker.sensor.flakyCell).not.toBeNull();
    expect(flicker.end).not.toBeNull();
    expect(truths.get('size-8')!.cols).toBe(8);
  });
});
