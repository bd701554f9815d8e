// Tests of the Adu referee: one test per behaviour, built from explicit frames of an occupancy grid under wooden pieces.
import { describe, expect, test } from 'vitest';
import {
  AduReferee,
  type AduAlert,
  type AduCommandResult,
  type AduQuestion,
  type AduRefereeEvent,
  type AduRefereeOptions,
  type GridPicture,
} from '../../server/referee/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { DEFAULT_OPTIONS, observe, type AduOptions } from '../../server/rules/adu.ts';
import { parseSquare } from '../../server/rules/adu-notation.ts';

const FRAME_MS = 50;

const rules = (players = 2, size = 9): AduOptions => ({ ...DEFAULT_OPTIONS, players, size });

/**
 * An occupancy grid read twenty times a second: 1 where a piece stands. Hands take time: a piece
 * is lifted, held, put down; pieces come from beside the board and go back there.
 */
class Grid {
  readonly cells: number[];
  t = 0;
  private readonly hand: number[] = [];
  private fed = 0;
  readonly frames: { t: number; picture: GridPicture }[] = [];

  constructor(
    readonly size: number,
    cells?: readonly number[],
  ) {
    this.cells = cells ? [...cells] : new Array<number>(size * size).fill(0);
  }

  sq(name: string): number {
    const parsed = parseSquare(name, this.size);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  }
  frame(glitch = -1, counts = false): this {
    const values = this.cells.slice();
    if (glitch >= 0) values[glitch] ^= 1;
    this.frames.push({ t: this.t, picture: counts ? { type: 'counts', counts: values } : { type: 'grid', bits: bitsOf(values) } });
    this.t += FRAME_MS;
    return this;
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / FRAME_MS; k++) this.frame();
    return this;
  }
  lift(name: string): this {
    const c = this.sq(name);
    if (this.cells[c] === 0) throw new Error(`no piece on ${name}`);
    this.cells[c] = 0;
    this.hand.push(c);
    return this.wait(200);
  }
  put(name: string): this {
    const c = this.sq(name);
    if (this.cells[c] !== 0) throw new Error(`${name} is taken`);
    this.cells[c] = 1;
    this.hand.pop();
    return this.wait(200);
  }
  /** A piece from beside the board onto a point. */
  place(name: string): this {
    this.hand.push(-1);
    return this.put(name);
  }
  /** A piece off the board, put away beside it. */
  remove(name: string): this {
    this.lift(name);
    this.hand.pop();
    return this;
  }
  /** Lift, carry, put down, and let the board stand still. */
  move(from: string, to: string): this {
    return this.lift(from).put(to).wait(800);
  }
  /** Slide a piece along its line over every point between, a moment on each. */
  slide(from: string, to: string): this {
    const a = this.sq(from);
    const b = this.sq(to);
    const step = Math.floor(a / this.size) === Math.floor(b / this.size) ? Math.sign(b - a) : this.size * Math.sign(b - a);
    let at = a;
    while (at !== b) {
      this.cells[at] = 0;
      at += step;
      this.cells[at] = 1;
      this.wait(100);
      if (at !== b) this.cells[at] = 0;
    }
    return this.wait(800);
  }
  /** The captured piece off first, a look, the captor onto its point. */
  capture(from: string, to: string): this {
    return this.remove(to).wait(700).move(from, to);
  }
  /** The captured piece off and the captor on within a moment: no settled picture shows the point empty. */
  sweep(from: string, to: string): this {
    const a = this.sq(from);
    const b = this.sq(to);
    this.cells[b] = 0;
    this.wait(100);
    this.cells[a] = 0;
    this.wait(100);
    this.cells[b] = 1;
    return this.wait(100);
  }
  /** The frames not yet fed, into the referee; its events out. */
  feed(referee: AduReferee): AduRefereeEvent[] {
    const events: AduRefereeEvent[] = [];
    for (; this.fed < this.frames.length; this.fed++) {
      const { t, picture } = this.frames[this.fed];
      events.push(...referee.frame(t, picture));
    }
    return events;
  }
}

/**
 * The placement tokens that put each player's pieces where `layout` says, in the order the rules
 * place them: every player's K1, then six rounds of soldiers S1…S6, then every K2.
 */
function placements(layout: readonly (readonly string[])[]): string[] {
  const tokens: string[] = [];
  for (let round = 0; round < 8; round++) {
    for (const squares of layout) tokens.push(`${round === 0 || round === 7 ? 'K' : 'S'}@${squares[round === 7 ? 7 : round]}`);
  }
  return tokens;
}

/** Each player's pieces in placement order: K1, S1…S6, K2. */
const TWO: readonly (readonly string[])[] = [
  ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'i1'],
  ['a9', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'i9'],
];

/** Black's kings stand on c5 and e5, each a step from a white soldier (c4, e4). */
const TWO_KINGS = placements([
  ['a1', 'b1', 'c4', 'd1', 'e4', 'f1', 'g1', 'i1'],
  ['c5', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'e5'],
]);

/** A referee resumed at the position after `moves`, its board showing that position, calibrated. */
function at(moves: readonly string[], options: AduRefereeOptions = {}, game: AduOptions = rules()): { referee: AduReferee; grid: Grid } {
  const referee = new AduReferee(game, options);
  const restored = referee.restore(moves);
  if (!restored.ok) throw new Error(`ply ${restored.ply}: ${restored.error.message}`);
  const grid = new Grid(game.size, observe(referee.state));
  const events = grid.wait(1000).feed(referee);
  expect(events.map((e) => e.kind)).toEqual(['calibrated']);
  return { referee, grid };
}

const kinds = (events: readonly AduRefereeEvent[]) => events.map((e) => e.kind);
function eventsOf(result: AduCommandResult): readonly AduRefereeEvent[] {
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  return result.events;
}
const moves = (events: readonly AduRefereeEvent[]) => events.flatMap((e) => (e.kind === 'move' ? [e.move] : []));
const alerts = (events: readonly AduRefereeEvent[]) => events.filter((e): e is AduAlert => e.kind === 'alert');
const questions = (events: readonly AduRefereeEvent[]) => events.filter((e): e is AduQuestion => e.kind === 'question');

describe('Adu referee: calibration and placement', () => {
  test('the empty board calibrates at once', () => {
    const referee = new AduReferee(rules());
    const events = new Grid(9).wait(1000).feed(referee);
    expect(kinds(events)).toEqual(['calibrated']);
    expect(referee.calibrated).toBe(true);
  });

  test('a board with pieces on it at the start is said once it has stood still, and calibrates when cleared', () => {
    const referee = new AduReferee(rules());
    const grid = new Grid(9);
    grid.cells[grid.sq('e5')] = 1;
    const events = grid.wait(2500).feed(referee);
    expect(alerts(events).map((a) => [a.code, a.params.pieces, a.params.count])).toEqual([['board/calibrating', 0, 1]]);
    expect(alerts(events)[0].cells).toEqual([{ cell: grid.sq('e5'), diff: 1 }]);
    expect(kinds(grid.remove('e5').wait(1000).feed(referee))).toEqual(['cleared', 'calibrated']);
  });

  test('each piece put on the board is the next placement, and takes its name from the order', () => {
    const referee = new AduReferee(rules());
    const grid = new Grid(9).wait(1000);
    grid.feed(referee);
    const events = grid.place('e5').wait(800).place('d4').wait(800).place('c3').wait(800).feed(referee);
    expect(moves(events)).toEqual(['K@e5', 'K@d4', 'S@c3']);
    const pieces = referee.state.squares.flatMap((p, c) => (p ? [`${p.player}${p.id}@${c}`] : []));
    expect(pieces.sort()).toEqual([`1K1@${grid.sq('e5')}`, `1S1@${grid.sq('c3')}`, `2K1@${grid.sq('d4')}`].sort());
  });

  test('a piece moved during placement gets the engine\'s reason', () => {
    const { referee, grid } = at(placements(TWO).slice(0, 4));
    const events = grid.move('a1', 'a2').feed(referee);
    expect(alerts(events).map((a) => [a.code, a.params.from, a.params.to])).toEqual([['adu/still-placing', 'a1', 'a2']]);
    expect(referee.record()).toHaveLength(4);
  });
});

describe('Adu referee: moves', () => {
  test('a piece lifted and put down where its move reaches is the move, carrying its name along', () => {
    const { referee, grid } = at(placements(TWO));
    const events = grid.move('c1', 'c4').feed(referee);
    expect(moves(events)).toEqual(['c1-c4']);
    expect(referee.state.squares[grid.sq('c4')]).toEqual({ player: 1, kind: 'soldier', id: 'S2' });
    expect(referee.state.toMove).toBe(2);
  });

  test('a piece slid over the points between is the same move, not several', () => {
    const { referee, grid } = at(placements(TWO));
    expect(moves(grid.slide('d1', 'd5').feed(referee))).toEqual(['d1-d5']);
  });

  test('single-frame glitches make no move', () => {
    const { referee, grid } = at(placements(TWO));
    for (let k = 0; k < 40; k++) grid.frame(k % 2 === 0 ? grid.sq('e5') : grid.sq('a1'));
    expect(grid.wait(500).feed(referee)).toEqual([]);
    expect(referee.record()).toHaveLength(16);
  });

  test('a piece held in the hand for a while is no error and no capture; put down, it is the move', () => {
    // White's soldier on c4 could capture the black soldier on c9: lifting it looks like a capture made in one sweep.
    const { referee, grid } = at([...placements(TWO), 'c1-c4', 'a9-a8']);
    const events = grid.lift('c4').wait(2000).put('c6').wait(800).feed(referee);
    expect(questions(events)).toEqual([]);
    expect(alerts(events)).toEqual([]);
    expect(moves(events)).toEqual(['c4-c6']);
  });
});

describe('Adu referee: captures and declared ranges', () => {
  // White's S2 on c4 faces black's S2 on c9 down the c-file (five steps, within any range).
  const OPEN = [...placements(TWO), 'c1-c4', 'a9-a8'];

  test('the captured piece taken off first: the capture is played at once, and its owner is asked for the range', () => {
    const { referee, grid } = at(OPEN);
    const events = grid.capture('c4', 'c9').feed(referee);
    expect(moves(events)).toEqual(['c4xc9']);
    const [q] = questions(events);
    expect(q.code).toBe('referee/declare-range');
    expect(q.options).toEqual(['c4xc9=1', 'c4xc9=2', 'c4xc9=3', 'c4xc9=4', 'c4xc9=5', 'c4xc9=6']);
    expect(q.preselected).toBe('c4xc9=1');
    expect(q.params).toMatchObject({ player: 2, soldier: 'S2', square: 'c9', capture: 'c4xc9', ranges: '1,2,3,4,5,6', lowest: 1 });
    expect(referee.openDeclarations()).toEqual([{ player: 2, soldier: 'S2', square: 'c9', capture: 'c4xc9' }]);
  });

  test('only the ranges still consistent are offered', () => {
    // Black's S1 went six steps (b9-b3), so it holds range 6: the captured S2 can no longer have been the six.
    const { referee, grid } = at([...placements(TWO), 'c1-c4', 'b9-b3']);
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    expect(q.options).toEqual(['c4xc9=1', 'c4xc9=2', 'c4xc9=3', 'c4xc9=4', 'c4xc9=5']);
  });

  test('a declared range other than the lowest rewrites the capture in the record', () => {
    const { referee, grid } = at(OPEN);
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    const result = referee.answer(q.id, 'c4xc9=4');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.events.find((e) => e.kind === 'declared')).toMatchObject({ ply: 19, player: 2, soldier: 'S2', range: 4, undone: ['c4xc9'], moves: ['c4xc9=4'] });
    expect(referee.record().at(-1)).toBe('c4xc9=4');
    expect(referee.openQuestions()).toEqual([]);
  });

  test('the lowest range declared leaves the record as it is', () => {
    const { referee, grid } = at(OPEN);
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    const result = referee.answer(q.id, 'c4xc9=1');
    expect(result.ok && result.events.find((e) => e.kind === 'declared')).toMatchObject({ range: 1, undone: [], moves: [] });
    expect(referee.record().at(-1)).toBe('c4xc9');
  });

  test('a range the question did not offer is refused', () => {
    const { referee, grid } = at([...placements(TWO), 'c1-c4', 'b9-b3']);
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    const result = referee.answer(q.id, 'c4xc9=6');
    expect(result.ok ? null : result.error.code).toBe('referee/not-an-option');
    expect(referee.openQuestions().map((x) => x.id)).toEqual([q.id]);
  });

  test('the game goes on while the owner has not declared', () => {
    const { referee, grid } = at(OPEN);
    grid.capture('c4', 'c9').feed(referee);
    expect(moves(grid.move('d9', 'd8').feed(referee))).toEqual(['d9-d8']);
    expect(referee.openDeclarations()).toHaveLength(1);
  });

  test("a move of the owner's that an offered range would forbid waits for the declaration", () => {
    // Black's S1 holds six (b9-b3). With S2 captured and undeclared, S3 (d9) going five steps is legal
    // if S2 was anything but the five; the referee waits for black to say.
    const { referee, grid } = at([...placements(TWO), 'c1-c4', 'b9-b3']);
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    const events = grid.move('d9', 'd4').feed(referee);
    expect(moves(events)).toEqual([]);
    expect(alerts(events).map((a) => [a.code, a.params.player, a.params.soldier, a.params.move])).toEqual([['referee/declare-first', 2, 'S2', 'd9-d4']]);
    const answered = referee.answer(q.id, 'c4xc9=2');
    expect(answered.ok && moves(answered.events)).toEqual(['d9-d4']);
    expect(referee.record().slice(-2)).toEqual(['c4xc9=2', 'd9-d4']);
  });

  test('the declaration that would forbid the move cannot be given once the move is played', () => {
    const { referee, grid } = at([...placements(TWO), 'c1-c4', 'b9-b3'], { declareTimeoutMs: 0 });
    const [q] = questions(grid.capture('c4', 'c9').feed(referee));
    const events = grid.move('d9', 'd4').feed(referee);
    // Nobody can answer (a simulated table): the default, the lowest, stands as soon as the move needs it.
    expect(events.find((e) => e.kind === 'declared')).toMatchObject({ range: 1, undone: [] });
    expect(events.some((e) => e.kind === 'question-closed' && e.id === q.id)).toBe(true);
    expect(moves(events)).toEqual(['d9-d4']);
  });

  test('a capture in one sweep waits, then the console is asked which piece was captured', () => {
    const { referee, grid } = at(OPEN);
    const early = grid.sweep('c4', 'c9').wait(1500).feed(referee);
    expect(early).toEqual([]);
    const events = grid.wait(1500).feed(referee);
    const [q] = questions(events);
    expect(q.code).toBe('referee/which-move');
    expect(q.params).toMatchObject({ reason: 'capture', from: 'c4', player: 1 });
    expect(q.options).toEqual(['c4xc9']);
    const answered = referee.answer(q.id, 'c4xc9');
    expect(answered.ok && moves(answered.events)).toEqual(['c4xc9']);
    expect(answered.ok && questions(answered.events).map((x) => x.code)).toEqual(['referee/declare-range']);
  });

  test('the console may say at once that a capture was made', () => {
    const { referee, grid } = at(OPEN);
    grid.sweep('c4', 'c9').wait(800).feed(referee);
    const asked = referee.askWhich();
    expect(asked.ok && questions(asked.events).map((q) => q.params.reason)).toEqual(['capture']);
  });

  test('asking with nothing to ask about is refused', () => {
    const { referee } = at(OPEN);
    const asked = referee.askWhich();
    expect(asked.ok ? null : asked.error.code).toBe('referee/no-capture-seen');
  });
});

describe('Adu referee: a question never stops the game', () => {
  const KING = TWO_KINGS;

  test('a move that looks like a king capture, then the reply: the king moving shows it was the move', () => {
    const { referee, grid } = at(KING);
    const [q] = questions(grid.move('c4', 'd4').feed(referee));
    expect(q).not.toHaveProperty('blocking');
    const events = grid.move('c5', 'c6').feed(referee);
    expect(kinds(events)).toEqual(['question-closed', 'move', 'move']);
    expect(moves(events)).toEqual(['c4-d4', 'c5-c6']);
    expect(events.some((e) => e.kind === 'move' && e.assumed)).toBe(false);
    expect(referee.openQuestions()).toEqual([]);
  });

  test('a piece held in the hand while the question waits decides nothing, though a capture would look the same', () => {
    const { referee, grid } = at(KING);
    const [q] = questions(grid.move('c4', 'd4').feed(referee));
    // Black's king on e5 could capture e4 under either option: lifted, it looks like that capture.
    const held = grid.lift('e5').wait(1500).feed(referee);
    expect(held.filter((e) => e.kind === 'move' || e.kind === 'question-closed')).toEqual([]);
    expect(referee.openQuestions().map((x) => x.id)).toEqual([q.id]);
    grid.put('e5').wait(800).feed(referee);
    expect(moves(grid.move('c5', 'c6').feed(referee))).toEqual(['c4-d4', 'c5-c6']);
  });

  test('nobody answers and the board never tells: the likeliest is taken after the timeout, assumed; a late answer corrects it', () => {
    const { referee, grid } = at(KING, { assumeMs: 20_000 });
    const [q] = questions(grid.move('c4', 'd4').feed(referee));
    expect(grid.wait(18_000).feed(referee)).toEqual([]);
    const events = grid.wait(2500).feed(referee);
    expect(events).toEqual([{ kind: 'move', t: expect.any(Number), move: q.options[0], ply: KING.length + 1, assumed: true }]);
    expect(referee.openQuestions().map((x) => x.id)).toEqual([q.id]);
    const other = q.options[1];
    expect(eventsOf(referee.answer(q.id, other))).toEqual([
      { kind: 'correction', t: expect.any(Number), ply: KING.length + 1, old: [q.options[0]], new: [other], reason: 'console' },
      { kind: 'question-closed', t: expect.any(Number), id: q.id },
    ]);
    expect(referee.record().at(-1)).toBe(other);
  });

  test('a move the record assumed, then a reply only another option allows: the record is corrected by the evidence', () => {
    const { referee, grid } = at(KING, { assumeMs: 20_000 });
    const [q] = questions(grid.move('c4', 'd4').feed(referee));
    grid.wait(21_000).feed(referee);
    expect(referee.record().at(-1)).toBe('c4xc5R@d4');
    // Black's king steps off c5: it was never captured.
    const events = grid.move('c5', 'c6').feed(referee);
    expect(kinds(events)).toEqual(['correction', 'question-closed', 'move']);
    expect(events[0]).toMatchObject({ ply: KING.length + 1, old: ['c4xc5R@d4'], new: ['c4-d4'], reason: 'evidence' });
    expect(moves(events)).toEqual(['c5-c6']);
    expect(referee.openQuestions().some((x) => x.id === q.id)).toBe(false);
  });

  test('an answer a later move rules out is refused', () => {
    const { referee, grid } = at(KING, { assumeMs: 20_000 });
    const [q] = questions(grid.move('c4', 'd4').feed(referee));
    grid.wait(21_000).feed(referee);
    expect(moves(grid.move('b9', 'b8').move('c5', 'c6').feed(referee))).toEqual(['b9-b8', 'c5-c6']);
    expect(referee.answer(q.id, 'c4-d4')).toMatchObject({
      ok: false,
      error: { code: 'referee/answer-breaks-record', params: { move: 'c4-d4', ply: KING.length + 1, later: 'c5-c6', laterPly: KING.length + 3 } },
    });
    expect(kinds(eventsOf(referee.answer(q.id, 'c4xc5R@d4')))).toEqual(['question-closed']);
  });

  test('without a timeout the question waits for the console', () => {
    const { referee, grid } = at(KING, { assumeMs: null });
    questions(grid.move('c4', 'd4').feed(referee));
    expect(grid.wait(60_000).feed(referee)).toEqual([]);
    expect(referee.record()).toEqual(KING);
  });
});

describe('Adu referee: kings and reserve kings', () => {
  const KING = TWO_KINGS;

  test('a captured king: the referee waits for the reserve king on a free point, and guides the players', () => {
    const { referee, grid } = at(KING);
    const events = grid.capture('c4', 'c5').feed(referee);
    expect(moves(events)).toEqual([]);
    expect(alerts(events).map((a) => [a.code, a.params.player, a.params.captured, a.params.victim, a.params.supply])).toEqual([['board/place-reserve', 1, 'K1', 2, 10]]);
    expect(referee.pending()).toMatchObject({ from: grid.sq('c4'), to: grid.sq('c5'), player: 1, awaitingReserve: true, remove: [] });
    const done = grid.place('h5').wait(800).feed(referee);
    expect(moves(done)).toEqual(['c4xc5R@h5']);
    expect(kinds(done)).toContain('cleared');
    expect(referee.pending()).toBeNull();
    expect(referee.state.supply).toBe(9);
    expect(referee.state.squares[grid.sq('h5')]).toEqual({ player: 1, kind: 'reserve', id: 'R1' });
  });

  test('the reserve king put where the captor stood', () => {
    const { referee, grid } = at(KING);
    grid.capture('c4', 'c5').feed(referee);
    expect(moves(grid.place('c4').wait(800).feed(referee))).toEqual(['c4xc5R@c4']);
  });

  test('a king captured in one sweep: the reserve king settles it', () => {
    const { referee, grid } = at(KING);
    const events = grid.sweep('c4', 'c5').wait(800).place('h5').wait(800).feed(referee);
    expect(moves(events)).toEqual(['c4xc5R@h5']);
  });

  test('a move that looks like a king capture (its reserve king where the piece went) is asked', () => {
    const { referee, grid } = at(KING);
    const events = grid.move('c4', 'd4').feed(referee);
    const [q] = questions(events);
    expect(q.params.reason).toBe('ambiguous');
    expect([...q.options].sort()).toEqual(['c4-d4', 'c4xc5R@d4']);
    const answered = referee.answer(q.id, 'c4-d4');
    expect(answered.ok && moves(answered.events)).toEqual(['c4-d4']);
  });

  test('the last king captured puts its player out: their pieces come off, guided, and the game is won', () => {
    const { referee, grid } = at([...TWO_KINGS, 'c4xc5R@h5', 'b9-b8']);
    const events = grid.capture('e4', 'e5').wait(500).feed(referee);
    expect(moves(events)).toEqual([]);
    expect(alerts(events).map((a) => [a.code, a.params.player, a.params.count])).toEqual([['board/remove-pieces', 2, 6]]);
    expect(referee.pending()).toMatchObject({ player: 1, awaitingReserve: false });
    const black = ['b8', 'c9', 'd9', 'e9', 'f9', 'g9'];
    const guided: (string | number)[] = [];
    let last: AduRefereeEvent[] = [];
    for (const square of black) {
      last = grid.remove(square).wait(800).feed(referee);
      guided.push(...alerts(last).map((a) => a.params.count));
    }
    expect(guided).toEqual([5, 4, 3, 2, 1]);
    expect(moves(last)).toEqual(['e4xe5']);
    expect(last.find((e) => e.kind === 'end')).toMatchObject({ outcome: { winner: '1', reason: 'last-king', players: [1] } });
  });
});

describe('Adu referee: illegal moves', () => {
  const OPEN = [...placements(TWO), 'c1-c4', 'a9-a8'];

  test.each([
    ['a soldier farther than any range', 'd1', 'd8', 'adu/range-exceeded', { steps: 7, piece: 'S3' }],
    ['a king two steps', 'a1', 'a3', 'adu/king-one-step', { steps: 2 }],
    ['a piece off its lines', 'e1', 'f2', 'adu/not-straight', {}],
    ["another player's piece, out of turn", 'e9', 'e8', 'adu/not-your-piece', { player: 2 }],
  ])("%s: the engine's reason at once, with its points; cleared when put back", (_name, from, to, code, params) => {
    const { referee, grid } = at(OPEN);
    const events = grid.move(from, to).feed(referee);
    const [alert] = alerts(events);
    expect([alert.code, alert.params.from, alert.params.to]).toEqual([code, from, to]);
    expect(alert.params).toMatchObject(params);
    expect(alert.cells).toEqual([{ cell: grid.sq(from), diff: -1 }, { cell: grid.sq(to), diff: 1 }].sort((a, b) => a.cell - b.cell));
    expect(moves(events)).toEqual([]);
    expect(kinds(grid.move(to, from).feed(referee))).toEqual(['cleared']);
    expect(referee.record()).toEqual(OPEN);
  });

  test('a soldier past another piece: adu/jump, naming the piece in the way', () => {
    // Black's S2 came down to c4; white's S2 on c3 goes over it.
    const { referee, grid } = at([...placements(TWO), 'c1-c3', 'c9-c4']);
    const events = grid.move('c3', 'c5').feed(referee);
    expect(alerts(events).map((a) => [a.code, a.params.from, a.params.to, a.params.blocker])).toEqual([['adu/jump', 'c3', 'c5', 'c4']]);
  });

  test('a reserve king moved: adu/reserve-immobile', () => {
    const { referee, grid } = at([...TWO_KINGS, 'c4xc5R@h5', 'b9-b8']);
    expect(alerts(grid.move('h5', 'h6').feed(referee)).map((a) => a.code)).toEqual(['adu/reserve-immobile']);
  });

  test('a piece put on from where it went wrong, to where it may go, is the move', () => {
    const { referee, grid } = at(OPEN);
    grid.move('e1', 'f2').feed(referee);
    expect(moves(grid.move('f2', 'e3').feed(referee))).toEqual(['e1-e3']);
  });
});

describe('Adu referee: take-backs', () => {
  const OPEN = [...placements(TWO), 'c1-c4', 'a9-a8'];

  test('the board back to the position before the last move is a take-back', () => {
    const { referee, grid } = at(OPEN);
    const events = grid.move('a8', 'a9').feed(referee);
    expect(events).toEqual([{ kind: 'takeback', t: expect.any(Number), undone: ['a9-a8'], ply: 17 }]);
    expect(referee.state.toMove).toBe(2);
  });

  test('a capture taken back: the captured piece back, the captor home', () => {
    const { referee, grid } = at([...OPEN, 'c4xc9']);
    const events = grid.lift('c9').place('c9').put('c4').wait(800).feed(referee);
    expect(events.filter((e) => e.kind === 'takeback').map((e) => (e.kind === 'takeback' ? e.undone : []))).toEqual([['c4xc9']]);
    expect(referee.openQuestions()).toEqual([]);
  });

  test('two moves taken back one after the other, without a pause: no alert on the way', () => {
    const { referee, grid } = at(OPEN);
    const events = grid.lift('a8').put('a9').lift('c4').put('c1').wait(800).feed(referee);
    expect(alerts(events)).toEqual([]);
    expect(referee.record()).toEqual(placements(TWO));
  });

  test('the last placement taken off and put elsewhere: a take-back and the placement again', () => {
    const { referee, grid } = at(placements(TWO).slice(0, 5));
    const events = grid.place('h4').wait(800).remove('h4').wait(800).place('h3').wait(800).feed(referee);
    expect(moves(events)).toEqual(['S@h4', 'S@h3']);
    expect(referee.record().at(-1)).toBe('S@h3');
  });

  test('the piece placed last taken off by a capture under way is no take-back', () => {
    // The last king placed (black's K2 on c5) next to white's S2 on c4: the first move captures it.
    const layout = [
      ['a1', 'b1', 'c4', 'd1', 'e1', 'f1', 'g1', 'i1'],
      ['a9', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'c5'],
    ];
    const { referee, grid } = at(placements(layout));
    const events = grid.capture('c4', 'c5').place('h5').wait(800).feed(referee);
    expect(kinds(events)).not.toContain('takeback');
    expect(moves(events)).toEqual(['c4xc5R@h5']);
  });
});

describe('Adu referee: the console and the board', () => {
  const OPEN = [...placements(TWO), 'c1-c4', 'a9-a8'];

  test('a move entered by hand is checked by the engine; a dead sensor does not hold the game up', () => {
    const { referee, grid } = at(OPEN);
    const refused = referee.enter('a1-a3');
    expect(refused.ok ? null : refused.error.code).toBe('adu/king-one-step');
    const entered = referee.enter('d1-d3');
    expect(entered.ok && moves(entered.events)).toEqual(['d1-d3']);
    // The board still shows d1 (its switch stuck); the referee no longer looks there, and black moves on.
    expect(moves(grid.move('b9', 'b8').feed(referee))).toEqual(['b9-b8']);
    expect(referee.untrustedSquares()).toEqual(['d1', 'd3']);
  });

  test('undo takes the last move back; the board must then follow', () => {
    const { referee, grid } = at(OPEN);
    const undone = referee.undo();
    expect(undone).toEqual([{ kind: 'takeback', t: expect.any(Number), undone: ['a9-a8'], ply: 17 }]);
    const events = grid.wait(2000).feed(referee);
    expect(alerts(events).map((a) => [a.code, a.params.action, a.params.square])).toEqual([['referee/mismatch', 'take-off', 'a8']]);
    expect(kinds(grid.move('a8', 'a9').feed(referee))).toEqual(['cleared']);
  });

  test('a piece knocked off is named once the board has stood still', () => {
    const { referee, grid } = at(OPEN);
    const events = grid.remove('f9').wait(2000).feed(referee);
    expect(alerts(events).map((a) => [a.code, a.params.action, a.params.square, a.params.remaining])).toEqual([['referee/mismatch', 'put-back', 'f9', 1]]);
  });

  test('after the end, an empty board is a new game', () => {
    const { referee, grid } = at([...TWO_KINGS, 'c4xc5R@h5', 'b9-b8']);
    grid.capture('e4', 'e5');
    for (const square of ['b8', 'c9', 'd9', 'e9', 'f9', 'g9']) grid.remove(square);
    expect(grid.wait(800).feed(referee).some((e) => e.kind === 'end')).toBe(true);
    grid.cells.fill(0);
    expect(kinds(grid.wait(1000).feed(referee))).toContain('new-game');
    expect(referee.record()).toEqual([]);
  });

  test('a game resumed from its record calibrates on its position', () => {
    const referee = new AduReferee(rules());
    expect(referee.restore(OPEN)).toEqual({ ok: true });
    const grid = new Grid(9);
    expect(alerts(grid.wait(2000).feed(referee)).map((a) => a.message)).toEqual(['Waiting for the board to show the position of the game being resumed.']);
    grid.cells.splice(0, grid.cells.length, ...observe(referee.state));
    expect(kinds(grid.wait(1000).feed(referee))).toEqual(['cleared', 'calibrated']);
  });

  test('a record that does not replay is refused with its ply', () => {
    const referee = new AduReferee(rules());
    const result = referee.restore(['K@a1', 'K@a1']);
    expect(result.ok ? null : [result.ply, result.error.code]).toEqual([2, 'adu/square-taken']);
  });

  test('a counting board is read as occupancy', () => {
    const referee = new AduReferee(rules());
    const grid = new Grid(9);
    for (let k = 0; k < 20; k++) grid.frame(-1, true);
    grid.cells[grid.sq('e5')] = 1;
    for (let k = 0; k < 20; k++) grid.frame(-1, true);
    expect(moves(grid.feed(referee))).toEqual(['K@e5']);
  });
});
