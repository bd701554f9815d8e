// Tests of the referee's figures (tests/support/decoder-metrics.ts, used by `npm run bench`) on hand-made games: exact records, wrong moves, corrections, stalls, needless questions, latency.
import { describe, expect, test } from 'vitest';
import { gameFigures, isNeedless, percentile, recordDistance, stallsOf, summarize, type FiguresEvent, type FiguresTruth, type PositionAfter } from '../support/decoder-metrics.ts';

/** Four moves, a few seconds apart; the last stone of each is down 2 s after the hand reached in. */
const truth: FiguresTruth = {
  record: ['C', 'e', 'F', 'd'],
  moves: [
    { move: 'C', start: 1000, end: 3200, settledAt: 3000 },
    { move: 'e', start: 5000, end: 7200, settledAt: 7000 },
    { move: 'F', start: 9000, end: 11200, settledAt: 11000 },
    { move: 'd', start: 13000, end: 15200, settledAt: 15000 },
  ],
  durationMs: 18000,
};

const move = (t: number, ply: number, m: string): FiguresEvent => ({ t, kind: 'move', move: m, ply });

describe('a game the referee gets right', () => {
  const events = [move(3350, 1, 'C'), { t: 5100, kind: 'settled' }, move(7300, 2, 'e'), move(11200, 3, 'F'), move(15450, 4, 'd')];
  test('exact, nothing wrong, no stall, the latencies from the last stone down', () => {
    const f = gameFigures(truth, events, truth.record);
    expect(f).toEqual({ exact: true, wrongMoves: 0, corrections: 0, stalls: 0, questions: 0, needlessQuestions: 0, moves: 4, latencies: [350, 300, 200, 450] });
  });
});

describe('a game with a wrong move, corrected later, and one left wrong', () => {
  const events: FiguresEvent[] = [
    move(3350, 1, 'C'),
    move(7300, 2, 'f'),
    move(11300, 3, 'F'),
    { t: 11300, kind: 'correction', ply: 2, old: ['f'], new: ['e'], reason: 'evidence' },
    move(15400, 4, 'c'),
  ];
  test('the corrected move counts as right and its latency is that of its first right event; the other is one wrong move', () => {
    const f = gameFigures(truth, events, ['C', 'e', 'F', 'c']);
    expect(f.exact).toBe(false);
    expect(f.wrongMoves).toBe(1);
    expect(f.corrections).toBe(1);
    // Ply 2 was never shown as `e` by a move event (the correction fixed it): no latency for it, nor for the wrong ply 4.
    expect(f.latencies).toEqual([350, 300]);
  });

  test('a move missed shifts the record: one wrong move, not every later one', () => {
    expect(recordDistance(['C', 'F', 'd'], truth.record)).toBe(1);
    expect(recordDistance(['C', 'e', 'F', 'd', 'a'], truth.record)).toBe(1);
    expect(recordDistance([], truth.record)).toBe(4);
    expect(gameFigures(truth, [], ['C', 'F', 'd']).wrongMoves).toBe(1);
  });
});

describe('stalls', () => {
  test('a move the referee says nothing about for more than 10 s is a stall; moves waiting in the same silence are one', () => {
    const long: FiguresTruth = { ...truth, durationMs: 40000 };
    // Silent after move 1 until a question at 21 s: moves 2, 3 and 4 wait in one silence (7 s → 21 s).
    expect(stallsOf(long, [move(3350, 1, 'C'), { t: 21000, kind: 'question', id: 1, options: ['d'] }])).toBe(1);
    // Moves 2–4 never seen, nothing said until the trace ends 25 s after move 4: one silence.
    expect(stallsOf(long, [move(3350, 1, 'C')])).toBe(1);
    expect(stallsOf(long, [])).toBe(1);
    // 10 s exactly is still an answer in time.
    expect(stallsOf(truth, [move(13000, 1, 'C'), move(17000, 2, 'e'), move(21000, 3, 'F'), move(25000, 4, 'd')])).toBe(0);
  });

  test('a long think is no stall, nor a move shown before its last stone landed, nor the trace ending soon after the last move', () => {
    const slow: FiguresTruth = {
      record: ['C', 'e'],
      moves: [
        { move: 'C', start: 1000, end: 3200, settledAt: 3000 },
        { move: 'e', start: 30000, end: 32200, settledAt: 32000 },
      ],
      durationMs: 35000,
    };
    expect(stallsOf(slow, [move(2900, 1, 'C'), move(32300, 2, 'e')])).toBe(0);
    // The last move seen by nobody, but the trace ends 3 s after it: not 10 s of silence.
    expect(stallsOf(slow, [move(2900, 1, 'C')])).toBe(0);
    // Never shown, and the next word 12 s after the last stone: a stall.
    expect(stallsOf({ ...slow, durationMs: 50000 }, [{ t: 15000, kind: 'alert' }, move(32300, 2, 'e')])).toBe(1);
  });
});

describe('needless questions', () => {
  // A made-up game of letters: the board after a move shows its letter folded to lower case, so `X` and `x` leave the same board.
  const positionAfter: PositionAfter = (plies, option) => (option === 'illegal' ? null : `${truth.record.slice(0, plies).join('')}|${option.toLowerCase()}`);
  const q = (options: string[], more: object = {}): FiguresEvent => ({ t: 7500, kind: 'question', id: 1, options, ...more });

  test('asked though every option leaves the same board: needless; counted per 100 moves', () => {
    expect(isNeedless(truth, q(['X', 'x']), positionAfter)).toBe(true);
    const f = gameFigures(truth, [q(['X', 'x']), q(['X', 'y'])], truth.record, positionAfter);
    expect(f.questions).toBe(2);
    expect(f.needlessQuestions).toBe(1);
    expect(summarize([f]).needlessPer100Moves).toBe(25);
  });

  test('not needless: options that leave other boards, an option illegal there, one option, a question that does not block', () => {
    expect(isNeedless(truth, q(['X', 'y']), positionAfter)).toBe(false);
    expect(isNeedless(truth, q(['X', 'illegal']), positionAfter)).toBe(false);
    expect(isNeedless(truth, q(['X']), positionAfter)).toBe(false);
    expect(isNeedless(truth, q(['X', 'x'], { blocking: false }), positionAfter)).toBe(false);
    expect(isNeedless(truth, q(['X', 'x'], { preselected: 'X' }), positionAfter)).toBe(false);
  });

  test('the ply asked about: the question’s own params.ply, else the last move complete by then', () => {
    const seen: number[] = [];
    const spy: PositionAfter = (plies, option) => (seen.push(plies), option);
    isNeedless(truth, q(['a', 'b']), spy); // at 7.5 s: move 2 is complete, so the question is about it
    isNeedless(truth, q(['a', 'b'], { params: { ply: 4 } }), spy);
    expect(seen).toEqual([1, 1, 3, 3]);
  });
});

describe('many games together', () => {
  test('sums, exact records, and latency percentiles by nearest rank', () => {
    const right = gameFigures(truth, [move(3350, 1, 'C'), move(7300, 2, 'e'), move(11200, 3, 'F'), move(15450, 4, 'd')], truth.record);
    const wrong = gameFigures(truth, [move(3350, 1, 'C')], ['C']);
    const s = summarize([right, wrong]);
    expect(s).toMatchObject({ games: 2, exact: 1, wrongMoves: 3, corrections: 0, moves: 8, latencyP50: 350, latencyP99: 450 });
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
  });
});
