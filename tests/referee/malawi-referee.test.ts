// Tests of the Malawi referee: one test per verdict, built from explicit frames of a wooden board, and whole random games.
import { describe, expect, test } from 'vitest';
import { MalawiReferee, type GridPicture, type MalawiCommandResult, type MalawiQuestion, type MalawiRefereeEvent, type MalawiRefereeOptions } from '../../server/referee/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { DEFAULT_OPTIONS, initial, legalMoves, observe, play, type MalawiMove, type MalawiState } from '../../server/rules/malawi.ts';
import { formatMove, formatPosition, parseMove, parseSquare } from '../../server/rules/malawi-notation.ts';
import { mulberry32 as rng } from '../support/prng.ts';
import { tables } from '../../server/tables/index.ts';

const FRAME_MS = 50;
const RULES = DEFAULT_OPTIONS;
type Sense = 'occupancy' | 'count';


const sq = (name: string): number => {
  const parsed = parseSquare(name, RULES.size);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};
const mv = (text: string, state?: MalawiState): MalawiMove => {
  const parsed = parseMove(text, RULES.size);
  if (!parsed.ok) throw new Error(parsed.error.message);
  if (state) {
    const next = play(state, parsed.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
  }
  return parsed.value;
};

/**
 * A wooden Malawi set on a sensing board, read twenty times a second. Each square holds nothing
 * (0) or a piece with its beads (1 + beads), as a counting board reads it; an occupancy board
 * reports only whether a square is taken. Hands take time; sensors may glitch or flicker.
 */
class WoodenBoard {
  readonly cells: number[];
  t = 0;
  readonly frames: { t: number; picture: GridPicture }[] = [];
  private readonly hand: number[] = [];
  private readonly flickering = new Set<number>();
  private readonly dead = new Set<number>();
  readonly random: () => number;
  private fed = 0;

  constructor(
    readonly sense: Sense,
    state: MalawiState = initial(RULES),
    seed = 1,
  ) {
    this.cells = state.squares.map((p) => (p === null ? 0 : 1 + p.strength));
    this.random = rng(seed);
  }

  private read(glitch = -1): number[] {
    const values = this.cells.slice();
    for (const c of this.flickering) values[c] = this.random() < 0.5 ? 0 : Math.max(1, values[c]);
    for (const c of this.dead) values[c] = 0;
    if (glitch >= 0) values[glitch] = values[glitch] ? 0 : 1;
    return values;
  }

  frame(glitch = -1): this {
    const values = this.read(glitch);
    this.frames.push({
      t: this.t,
      picture: this.sense === 'occupancy' ? { type: 'grid', bits: bitsOf(values) } : { type: 'counts', counts: values },
    });
    this.t += FRAME_MS;
    return this;
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / FRAME_MS; k++) this.frame();
    return this;
  }
  /** A hand's pause: 100–300 ms. */
  private pause(): this {
    return this.wait(100 + 50 * Math.floor(this.random() * 5));
  }
  lift(name: string): this {
    const c = sq(name);
    if (this.cells[c] === 0) throw new Error(`no piece on ${name}`);
    this.hand.push(this.cells[c]);
    this.cells[c] = 0;
    return this.pause();
  }
  put(name: string): this {
    const c = sq(name);
    if (this.cells[c] !== 0) throw new Error(`${name} is taken`);
    this.cells[c] = this.hand.pop() as number;
    return this.pause();
  }
  /** Slide a piece along its rank or file, over every square between, a moment on each. */
  slide(from: string, to: string): this {
    const a = sq(from);
    const b = sq(to);
    const step = Math.floor(a / 6) === Math.floor(b / 6) ? Math.sign(b - a) : 6 * Math.sign(b - a);
    let at = a;
    const piece = this.cells[a];
    while (at !== b) {
      this.cells[at] = 0;
      at += step;
      const over = this.cells[at];
      this.cells[at] = piece;
      this.wait(100);
      if (at !== b) this.cells[at] = over;
    }
    return this.wait(50);
  }
  /** Take beads off a piece, one at a time. */
  takeBeads(name: string, n: number): this {
    const c = sq(name);
    for (let k = 0; k < n; k++) {
      if (this.cells[c] <= 1) throw new Error(`no bead left on ${name}`);
      this.cells[c]--;
      this.pause();
    }
    return this;
  }
  giveBead(name: string): this {
    const c = sq(name);
    if (this.cells[c] === 0) throw new Error(`no piece on ${name}`);
    this.cells[c]++;
    return this.pause();
  }
  /** Remove a piece from the board altogether (or add one). */
  remove(name: string): this {
    this.cells[sq(name)] = 0;
    return this.pause();
  }
  add(name: string, beads = 2): this {
    this.cells[sq(name)] = 1 + beads;
    return this.pause();
  }
  glitch(name: string): this {
    return this.frame(sq(name));
  }
  flicker(name: string, on = true): this {
    if (on) this.flickering.add(sq(name));
    else this.flickering.delete(sq(name));
    return this;
  }
  kill(name: string): this {
    this.dead.add(sq(name));
    return this;
  }

  /** Make a move by hand as people do: lift and put (or slide) a piece; take beads off; hand beads out. */
  make(move: MalawiMove, state: MalawiState, slide = false): this {
    const name = (c: number) => formatMove({ kind: 'move', from: c, to: c }, RULES.size).split('-')[0];
    switch (move.kind) {
      case 'move':
        if (slide) this.slide(name(move.from), name(move.to));
        else this.lift(name(move.from)).put(name(move.to));
        return this;
      case 'capture':
        return this.sense === 'count' ? this.takeBeads(name(move.to), (state.squares[move.to]?.strength ?? 0)) : this;
      case 'distribute':
        if (this.sense !== 'count') return this;
        this.takeBeads(name(move.from), state.squares[move.from]?.strength ?? 0);
        for (const r of move.recipients) this.giveBead(name(r));
        return this;
    }
  }

  /** Frames not yet given to the referee. */
  feed(referee: MalawiReferee): MalawiRefereeEvent[] {
    const events: MalawiRefereeEvent[] = [];
    for (; this.fed < this.frames.length; this.fed++) {
      const f = this.frames[this.fed];
      events.push(...referee.frame(f.t, f.picture));
    }
    return events;
  }
}

/** The events of a console action that must have succeeded. */
function eventsOf(result: MalawiCommandResult): readonly MalawiRefereeEvent[] {
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  return result.events;
}

const kinds = (events: readonly MalawiRefereeEvent[]): string[] =>
  events.map((e) => {
    switch (e.kind) {
      case 'move':
        return `move ${e.move}`;
      case 'alert':
        return `alert ${e.code}`;
      case 'takeback':
        return `takeback ${e.undone.join(' ')}`;
      default:
        return e.kind;
    }
  });

/** A calibrated referee and the board it watches, after `moves` were played and seen. */
function setUp(sense: Sense, moves: readonly string[] = [], options: MalawiRefereeOptions = {}, seed = 1) {
  let state = initial(RULES);
  for (const text of moves) state = (play(state, mv(text, state)) as { ok: true; value: MalawiState }).value;
  const board = new WoodenBoard(sense, state, seed);
  const referee = new MalawiReferee(RULES, options);
  if (moves.length) expect(referee.restore(moves)).toEqual({ ok: true });
  board.wait(1000);
  expect(kinds(board.feed(referee))).toEqual(['calibrated']);
  return { board, referee, state };
}

describe('Malawi referee: calibration', () => {
  test('the opening position calibrates at once', () => {
    for (const sense of ['occupancy', 'count'] as const) {
      const { referee } = setUp(sense);
      expect(referee.calibrated).toBe(true);
      expect(referee.sensing).toBe(sense);
    }
  });

  test('a board not yet set up is said once it has stood still, and calibrates when it is right', () => {
    const board = new WoodenBoard('occupancy');
    const referee = new MalawiReferee(RULES);
    board.remove('c1').remove('d6').wait(1000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(2000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert board/calibrating']);
    expect(events[0]).toMatchObject({ cells: [{ cell: sq('c1'), diff: -1 }, { cell: sq('d6'), diff: -1 }] });
    board.add('c1').add('d6').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'calibrated']);
  });
});

describe('Malawi referee: moves on an occupancy board', () => {
  test('a piece lifted and put down two squares on is the move', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('c1').wait(200).put('c3').wait(1000);
    const events = board.feed(referee);
    expect(events).toEqual([{ kind: 'move', t: expect.any(Number), move: 'c1-c3', ply: 1 }]);
    expect(referee.record()).toEqual(['c1-c3']);
    expect(referee.lastMove()).toEqual({ notation: 'c1-c3', kind: 'move', squares: ['c1', 'c3'] });
  });

  test('a piece slid over the square between is the same move, not two', () => {
    const { board, referee } = setUp('occupancy');
    board.slide('c1', 'c3').wait(1000);
    board.slide('d6', 'd4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move c1-c3', 'move d6-d4']);
  });

  test('single-frame glitches make no move', () => {
    const { board, referee } = setUp('occupancy');
    for (let k = 0; k < 20; k++) board.wait(300).glitch(k % 2 ? 'c3' : 'c1');
    board.wait(1000);
    expect(board.feed(referee)).toEqual([]);
    board.lift('a1').put('a3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move a1-a3']);
  });

  test('a stuck flickering sensor makes no move, and the game goes on around it', () => {
    const { board, referee } = setUp('occupancy');
    board.flicker('c3').wait(5000);
    expect(board.feed(referee)).toEqual([]);
    // A move onto the flickering square is not taken on trust: the console confirms it.
    board.lift('c1').put('c3').wait(1000);
    let events = board.feed(referee);
    expect(kinds(events)).toEqual(['question']);
    const question = events[0] as MalawiQuestion;
    expect(question.options).toEqual(['c1-c3']);
    expect(question.params).toMatchObject({ reason: 'unsure', squares: 'c3' });
    expect(referee.answer(question.id, 'c1-c3')).toMatchObject({ ok: true });
    // Moves elsewhere are seen as ever.
    board.lift('e6').put('e4').wait(1000);
    events = board.feed(referee);
    expect(kinds(events)).toEqual(['move e6-e4']);
    // Off the flickering square: the square emptied is not needed to see where the piece went.
    board.lift('c3').put('e3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move c3-e3']);
    expect(referee.record()).toEqual(['c1-c3', 'e6-e4', 'c3-e3']);
  });

  test('a piece in the hand of the player to move is no error while they think', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('b1').wait(4000);
    expect(board.feed(referee)).toEqual([]);
    board.put('b3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move b1-b3']);
  });
});

describe('Malawi referee: illegal placements', () => {
  test("a piece put where its strength does not reach: the engine's reason, from and to; cleared when put back", () => {
    const { board, referee } = setUp('occupancy');
    board.lift('c1').put('c2').wait(1000);
    const events = board.feed(referee);
    expect(events).toEqual([
      {
        kind: 'alert',
        t: expect.any(Number),
        code: 'malawi/wrong-distance',
        message: 'the piece on c1 has strength 2 and must move exactly two squares, not one',
        params: { from: 'c1', to: 'c2', strength: 2, distance: 1 },
        cells: [
          { cell: sq('c1'), diff: -1 },
          { cell: sq('c2'), diff: 1 },
        ],
      },
    ]);
    board.wait(3000);
    expect(board.feed(referee)).toEqual([]);
    board.lift('c2').put('c1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
    expect(referee.record()).toEqual([]);
  });

  test('a legal move after an illegal placement clears the alert and counts', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('d1').put('e2').wait(1000);
    const first = board.feed(referee);
    expect(first).toMatchObject([{ kind: 'alert', code: 'malawi/not-straight', params: { from: 'd1', to: 'e2' } }]);
    board.lift('e2').put('d3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move d1-d3']);
  });

  test("moving the opponent's piece is refused with the engine's reason", () => {
    const { board, referee } = setUp('occupancy');
    board.lift('a6').put('a4').wait(1000);
    const [alert] = board.feed(referee);
    expect(alert).toMatchObject({
      kind: 'alert',
      code: 'malawi/not-your-piece',
      message: "the piece on a6 belongs to north; it is south's turn",
      params: { from: 'a6', to: 'a4' },
    });
  });
});

describe('Malawi referee: mismatch', () => {
  test('pieces knocked off: after standing still, the squares to fix are named one at a time', () => {
    const { board, referee } = setUp('occupancy');
    board.remove('d6');
    const last = board.t;
    board.remove('e6').wait(1000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(1500);
    const events = board.feed(referee);
    expect(events).toEqual([
      {
        kind: 'alert',
        t: expect.any(Number),
        code: 'referee/mismatch',
        message: 'Put the piece back on d6 (first of 2 squares to fix).',
        params: { square: 'd6', remaining: 2, action: 'put-back' },
        cells: [
          { cell: sq('d6'), diff: -1 },
          { cell: sq('e6'), diff: -1 },
        ],
      },
    ]);
    // Not before the picture had settled (held for the hold time from the frame it was first read) and stood still for the mismatch time.
    expect((events[0] as { t: number }).t).toBe(last + 400 + 1500);
    board.add('d6').wait(2500);
    expect(board.feed(referee)).toMatchObject([{ kind: 'alert', message: 'Put the piece back on e6.', params: { square: 'e6', remaining: 1 } }]);
    board.add('e6').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
  });

  test('a piece too many is taken off before a missing one is put back', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('e6').wait(100).put('e5').wait(100).add('b4').wait(3000);
    const events = board.feed(referee);
    expect(events).toMatchObject([
      { kind: 'alert', code: 'referee/mismatch', message: 'Take the piece off b4 (first of 3 squares to fix).', params: { square: 'b4', remaining: 3, action: 'take-off' } },
    ]);
    expect((events[0] as { cells: unknown }).cells).toEqual([
      { cell: sq('b4'), diff: 1 },
      { cell: sq('e5'), diff: 1 },
      { cell: sq('e6'), diff: -1 },
    ]);
  });

  test('a piece lifted and held for long is called back', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('f1').wait(5000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(2000);
    expect(board.feed(referee)).toMatchObject([{ kind: 'alert', message: 'Put the piece back on f1.', params: { action: 'put-back' } }]);
  });
});

describe('Malawi referee: take-backs', () => {
  test('the board back to an earlier position is a take-back', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('a1').put('a3').wait(1000);
    board.lift('f6').put('f4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move a1-a3', 'move f6-f4']);
    board.lift('f4').put('f6').wait(1000);
    expect(board.feed(referee)).toEqual([{ kind: 'takeback', t: expect.any(Number), undone: ['f6-f4'], ply: 1 }]);
    board.lift('a3').put('a1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['takeback a1-a3']);
    expect(referee.record()).toEqual([]);
  });

  test('a legal move that reaches an earlier picture is the move, not a take-back', () => {
    // a1-a3, then north distributes (occupancy cannot see it), then south a3-a1: the picture of the opening.
    const { board, referee } = setUp('occupancy', ['a1-a3', 'f6>e6']);
    board.lift('a3').put('a1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move a3-a1']);
    expect(referee.record()).toEqual(['a1-a3', 'f6>e6', 'a3-a1']);
  });

  test('the console undoes a move; the board must then follow, square by square', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('b1').put('b3').wait(1000);
    board.feed(referee);
    expect(referee.undo()).toEqual([{ kind: 'takeback', t: expect.any(Number), undone: ['b1-b3'], ply: 0 }]);
    board.wait(2000);
    expect(board.feed(referee)).toMatchObject([{ kind: 'alert', message: 'Take the piece off b3 (first of 2 squares to fix).' }]);
    board.lift('b3').put('b1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
    expect(referee.undo()).toEqual([]);
  });
});

describe('Malawi referee: captures and distributions on an occupancy board', () => {
  test('the console asks which capture or distribution; only legal ones are offered, a wrong answer is refused', () => {
    const { board, referee, state } = setUp('occupancy', ['a1>e1,f1', 'e6-e4']);
    const asked = referee.askWhich();
    expect(asked.ok).toBe(true);
    const question = eventsOf(asked)[0] as MalawiQuestion;
    expect(question).toMatchObject({ kind: 'question', code: 'referee/which-move', params: { reason: 'hidden', side: 'south' } });
    const expected = legalMoves(state).filter((m) => m.kind !== 'move').map((m) => formatMove(m, RULES.size));
    expect(question.options).toEqual(expected);
    expect(question.options).toContain('e1xe4');
    expect(referee.openQuestions()).toEqual([question]);

    const notOffered = referee.answer(question.id, 'e1-e4');
    expect(notOffered).toMatchObject({ ok: false, error: { code: 'referee/not-an-option', params: { move: 'e1-e4' } } });
    expect(referee.answer(question.id, 'a1>b1')).toMatchObject({
      ok: false,
      error: {
        code: 'referee/not-an-option',
        message: 'a1>b1 is not one of the moves offered: the piece on a1 has strength 0 and can neither move nor distribute',
        params: { reason: 'malawi/strength-zero' },
      },
    });
    expect(referee.answer(question.id + 1, 'e1xe4')).toMatchObject({ ok: false, error: { code: 'referee/no-such-question' } });
    expect(referee.answer(question.id, 'e1*e4')).toMatchObject({ ok: false, error: { code: 'malawi/bad-notation' } });

    const answered = referee.answer(question.id, 'e1xe4');
    expect(answered.ok).toBe(true);
    expect(kinds(eventsOf(answered))).toEqual(['question-closed', 'move e1xe4']);
    expect(referee.openQuestions()).toEqual([]);
    expect(referee.state.squares[sq('e4')]).toEqual({ side: 'north', strength: 0 });
    // The board did not change, and says nothing.
    board.wait(3000);
    expect(board.feed(referee)).toEqual([]);
  });

  test('recipients may be named in any order', () => {
    const { referee } = setUp('occupancy');
    const question = eventsOf(referee.askWhich())[0] as MalawiQuestion;
    expect(question.options).toContain('d1>a1,f1');
    const answered = referee.answer(question.id, 'd1>f1,a1');
    expect(kinds(eventsOf(answered))).toEqual(['question-closed', 'move d1>a1,f1']);
  });

  test("a distribution nobody entered, then the opponent's move: not north's turn, until the console enters it", () => {
    const { board, referee } = setUp('occupancy');
    // South distributes d1>a1,f1 unseen; north answers with e6-e4.
    board.lift('e6').put('e4').wait(1000);
    expect(board.feed(referee)).toMatchObject([{ kind: 'alert', code: 'malawi/not-your-piece', params: { from: 'e6', to: 'e4' } }]);
    const asked = referee.askWhich();
    const question = eventsOf(asked)[0] as MalawiQuestion;
    expect(question.options).toContain('d1>a1,f1');
    const answered = referee.answer(question.id, 'd1>a1,f1');
    // The board is looked at again: north's move is now legal.
    expect(kinds(eventsOf(answered))).toEqual(['question-closed', 'cleared', 'move d1>a1,f1', 'move e6-e4']);
    expect(referee.record()).toEqual(['d1>a1,f1', 'e6-e4']);
  });

  test('a move entered by hand is checked by the engine; a dead sensor does not hold the game up', () => {
    const { board, referee } = setUp('occupancy');
    board.kill('c3');
    board.lift('c1').put('c3').wait(1000);
    // The board shows c1 emptied and nothing on c3: a piece in the hand, as far as anyone can tell.
    expect(board.feed(referee)).toEqual([]);
    expect(referee.enter('c1-c4')).toMatchObject({ ok: false, error: { code: 'malawi/wrong-distance' } });
    expect(referee.enter('c1-c3')).toMatchObject({ ok: true, events: [{ kind: 'move', move: 'c1-c3', ply: 1 }] });
    expect(referee.untrustedSquares()).toEqual(['c3']);
    board.wait(3000);
    expect(board.feed(referee)).toEqual([]);
    board.lift('b6').put('b4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move b6-b4']);
  });
});

describe('Malawi referee: a counting board sees captures and distributions', () => {
  test('a capture: beads taken off the attacked piece', () => {
    const { board, referee, state } = setUp('count', ['a1>e1,f1', 'e6-e4']);
    board.make(mv('e1xe4'), state).wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move e1xe4']);
  });

  test('a distribution to as many pieces as it may is played at once', () => {
    const { board, referee } = setUp('count');
    board.takeBeads('c1', 2).giveBead('b1').giveBead('e1').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move c1>b1,e1']);
  });

  test('a distribution that could give more waits until the board has stood still', () => {
    const { board, referee } = setUp('count');
    board.takeBeads('c1', 2).giveBead('f1').wait(1000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(3000);
    expect(kinds(board.feed(referee))).toEqual(['move c1>f1']);
  });

  test('beads handed out slowly are one distribution, not the first bead alone', () => {
    const { board, referee } = setUp('count');
    board.takeBeads('d1', 2).wait(2000).giveBead('a1').wait(1500).giveBead('b1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move d1>a1,b1']);
  });

  test('a capture two pieces could have made: both leave the same position, so the record takes one and the console may still say which', () => {
    const { board, referee, state } = setUp('count', ['e1>a1', 'c6-c4', 'a1-a4']);
    board.make(mv('c4xa4'), state).wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move c4xa4', 'question']);
    expect(events[0]).toMatchObject({ kind: 'move', ply: 4, assumed: true });
    const question = events[1] as MalawiQuestion;
    expect([...question.options].sort()).toEqual(['a6xa4', 'c4xa4']);
    expect(question).toMatchObject({ blocking: false, params: { reason: 'ambiguous', ply: 4, taken: 'c4xa4' } });
    expect(referee.openQuestions()).toEqual([question]);
    // A legal move, but not one that fits the board.
    expect(referee.answer(question.id, 'e6>d6')).toMatchObject({
      ok: false,
      error: { code: 'referee/not-an-option', message: 'e6>d6 is not one of the moves offered: the moves offered are c4xa4, a6xa4' },
    });
    // The answer the record took closes the question and changes nothing.
    expect(kinds(eventsOf(referee.answer(question.id, 'c4xa4')))).toEqual(['question-closed']);
    expect(referee.record().at(-1)).toBe('c4xa4');
    expect(referee.openQuestions()).toEqual([]);
  });

  test('a distribution the rules refuse gets the engine\'s reason', () => {
    const { board, referee } = setUp('count');
    // Strength 2 gives at most two beads.
    board.takeBeads('c1', 2).giveBead('a1').giveBead('b1').giveBead('d1').wait(1000);
    expect(board.feed(referee)).toMatchObject([
      { kind: 'alert', code: 'malawi/too-many-recipients', params: { from: 'c1', move: 'c1>a1,b1,d1' } },
    ]);
  });

  test('beads wrong are named: how many, on which piece', () => {
    const { board, referee } = setUp('count');
    board.giveBead('b6').giveBead('b6').wait(2500);
    expect(board.feed(referee)).toMatchObject([
      {
        kind: 'alert',
        code: 'referee/mismatch',
        message: 'Take two beads off the piece on b6.',
        params: { square: 'b6', remaining: 1, action: 'remove-beads', beads: 2 },
        cells: [{ cell: sq('b6'), diff: 0, beads: 2 }],
      },
    ]);
  });

  test('beads taken off an opponent piece look like a capture under way: said only after a long while', () => {
    const { board, referee } = setUp('count');
    board.takeBeads('b6', 1).wait(3000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.wait(4000);
    expect(board.feed(referee)).toMatchObject([{ kind: 'alert', message: 'Put one bead back on the piece on b6.', params: { action: 'add-beads', beads: 1 } }]);
  });
});

describe('Malawi referee: two moves without a pause', () => {
  test('two plain moves seen in one picture are both played', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('a1').put('a3').lift('f6').put('f4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move a1-a3', 'move f6-f4']);
  });

  test('a capture two pieces could have made, then the reply at once: both played, the capture assumed, the console may say which came first', () => {
    const { board, referee, state } = setUp('count', ['e1>a1', 'c6-c4', 'a1-a4']);
    board.make(mv('c4xa4'), state).lift('b1').put('b3').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move c4xa4', 'move b1-b3', 'question']);
    expect(events[0]).toMatchObject({ assumed: true, ply: 4 });
    expect(events[1]).not.toHaveProperty('assumed');
    const question = events[2] as MalawiQuestion;
    expect([...question.options].sort()).toEqual(['a6xa4', 'c4xa4']);
    expect(question).toMatchObject({ blocking: false, params: { reason: 'hidden-before', side: 'north', then: 'b1-b3' } });
    const answered = eventsOf(referee.answer(question.id, 'a6xa4'));
    expect(answered).toEqual([
      { kind: 'correction', t: expect.any(Number), ply: 4, old: ['c4xa4', 'b1-b3'], new: ['a6xa4', 'b1-b3'], reason: 'console' },
      { kind: 'question-closed', t: expect.any(Number), id: question.id },
    ]);
    expect(referee.record().slice(3)).toEqual(['a6xa4', 'b1-b3']);
  });
});

describe('Malawi referee: runs decoded from the squares the hands touched (grid-decoder.ts)', () => {
  test('four moves made without a still board between them are read in the order they were made', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('a1').put('a3').lift('f6').put('f4').lift('b1').put('b3').lift('e6').put('e4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move a1-a3', 'move f6-f4', 'move b1-b3', 'move e6-e4']);
  });

  test('of two orders of the same moves, the one the hands made is read', () => {
    const { board, referee } = setUp('occupancy');
    board.lift('c1').put('c3').lift('f6').put('f4').lift('a1').put('a3').wait(1000);
    board.feed(referee);
    expect(referee.record()).toEqual(['c1-c3', 'f6-f4', 'a1-a3']);
  });

  test('generated counting-board games with quick starts (people model): every record exact', () => {
    const kit = tables.malawi.withRules({});
    const people = { quickStart: 0.3, quickStartMs: [40, 150] as const, quickRun: 5, pauseMs: 400 };
    // Seeds whose games have runs of two to four moves made without a still board.
    for (const seed of [1, 2, 6, 7, 8, 9, 11, 12, 16]) {
      const generated = kit.generateTrace({ seed, illegal: 0.1, takebacks: 0.05, sense: 'count', people });
      const truth = JSON.parse(generated.truth) as { record: string[] };
      const { record } = kit.refereeTrace(generated.trace, undefined, () => {});
      expect({ seed, record }).toEqual({ seed, record: truth.record });
    }
  });
});

describe('Malawi referee: a question never stops the game', () => {
  test('counting board: a same-position capture is taken, play goes on, and a late answer corrects the record', () => {
    const { board, referee, state } = setUp('count', ['e1>a1', 'c6-c4', 'a1-a4']);
    board.make(mv('c4xa4'), state).wait(1000);
    const [move, question] = board.feed(referee) as [MalawiRefereeEvent, MalawiQuestion];
    expect(move).toMatchObject({ kind: 'move', move: 'c4xa4', assumed: true });
    expect(question.blocking).toBe(false);
    // Nobody answers; the game goes on.
    board.lift('b1').put('b3').wait(1000).lift('b6').put('b4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move b1-b3', 'move b6-b4']);
    const answered = eventsOf(referee.answer(question.id, 'a6xa4'));
    expect(answered[0]).toEqual({ kind: 'correction', t: expect.any(Number), ply: 4, old: ['c4xa4', 'b1-b3', 'b6-b4'], new: ['a6xa4', 'b1-b3', 'b6-b4'], reason: 'console' });
    expect(kinds(answered)).toEqual(['correction', 'question-closed']);
    expect(referee.record()).toEqual(['e1>a1', 'c6-c4', 'a1-a4', 'a6xa4', 'b1-b3', 'b6-b4']);
    // The position did not change: the board says nothing.
    board.wait(3000);
    expect(board.feed(referee)).toEqual([]);
  });

  test('counting board: while the console’s question waits, the board showing one option decides it (as before)', () => {
    const { board, referee, state } = setUp('count', ['a1>e1,f1', 'e6-e4']);
    const question = eventsOf(referee.askWhich())[0] as MalawiQuestion;
    expect(question).not.toHaveProperty('blocking');
    board.make(mv('e1xe4'), state).wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['question-closed', 'move e1xe4']);
    expect(events[1]).not.toHaveProperty('assumed');
    expect(referee.openQuestions()).toEqual([]);
  });

  test('occupancy board: the reply to an unannounced distribution is played, the distribution assumed; the next move tells it apart', () => {
    const { board, referee } = setUp('occupancy');
    // South distributed d1>e1,f1; the console asks, nobody answers, north replies.
    const question = eventsOf(referee.askWhich())[0] as MalawiQuestion;
    expect(question.options[0]).toBe('a1>b1');
    board.lift('e6').put('e4').wait(1000);
    const replied = board.feed(referee);
    expect(kinds(replied)).toEqual(['move a1>b1', 'move e6-e4']);
    expect(replied[0]).toMatchObject({ assumed: true, ply: 1 });
    expect(referee.openQuestions().map((q) => q.id)).toEqual([question.id]);
    // a1 moves two squares: it was not the piece that distributed, nor a recipient.
    board.lift('a1').put('a3').wait(1000);
    const moved = board.feed(referee);
    expect(kinds(moved)).toEqual(['correction', 'move a1-a3']);
    expect(moved[0]).toMatchObject({ ply: 1, old: ['a1>b1', 'e6-e4'], new: ['b1>c1', 'e6-e4'], reason: 'evidence' });
    // Several distributions still fit: the question stays. An answer that a1-a3 rules out is refused.
    expect(referee.openQuestions().map((q) => q.id)).toEqual([question.id]);
    expect(referee.answer(question.id, 'a1>b1')).toMatchObject({
      ok: false,
      error: { code: 'referee/answer-breaks-record', params: { move: 'a1>b1', ply: 1, later: 'a1-a3', laterPly: 3 } },
    });
    // a1 given a bead would have gone three squares: refused too.
    expect(referee.answer(question.id, 'd1>a1,f1')).toMatchObject({ ok: false, error: { code: 'referee/answer-breaks-record' } });
    const answered = eventsOf(referee.answer(question.id, 'd1>e1,f1'));
    expect(answered[0]).toMatchObject({ kind: 'correction', ply: 1, old: ['b1>c1', 'e6-e4', 'a1-a3'], new: ['d1>e1,f1', 'e6-e4', 'a1-a3'], reason: 'console' });
    expect(kinds(answered)).toEqual(['correction', 'question-closed']);
    expect(referee.openQuestions()).toEqual([]);
  });

  test('occupancy board: an unanswered question is taken after the timeout, assumed; a late answer corrects it', () => {
    const { board, referee } = setUp('occupancy', [], { assumeMs: 20_000 });
    const question = eventsOf(referee.askWhich())[0] as MalawiQuestion;
    board.wait(19_000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(1500);
    const events = board.feed(referee);
    expect(events).toEqual([{ kind: 'move', t: expect.any(Number), move: 'a1>b1', ply: 1, assumed: true }]);
    expect(referee.openQuestions().map((q) => q.id)).toEqual([question.id]);
    board.lift('e6').put('e4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move e6-e4']);
    expect(kinds(eventsOf(referee.answer(question.id, 'd1>a1,f1')))).toEqual(['correction', 'question-closed']);
    expect(referee.record()).toEqual(['d1>a1,f1', 'e6-e4']);
  });

  test('counting board: an unanswered question is taken after the timeout; without a timeout it waits', () => {
    const timed = setUp('count', ['a1>e1,f1', 'e6-e4'], { assumeMs: 5000 });
    const question = eventsOf(timed.referee.askWhich())[0] as MalawiQuestion;
    timed.board.wait(6000);
    const events = timed.board.feed(timed.referee);
    expect(events[0]).toMatchObject({ kind: 'move', ply: 3, move: question.options[0], assumed: true });
    const waiting = setUp('count', ['a1>e1,f1', 'e6-e4'], { assumeMs: null });
    waiting.referee.askWhich();
    waiting.board.wait(60_000);
    expect(waiting.board.feed(waiting.referee)).toEqual([]);
  });
});

describe('Malawi referee: the end of a game', () => {
  test('a move onto the opponent\'s baseline that nothing can capture ends the game', () => {
    const { board, referee } = setUp('occupancy', ['c1-c3', 'c6-c4', 'e1>b1,c3', 'c4-a4']);
    board.lift('c3').put('c6').wait(1000);
    const events = board.feed(referee);
    expect(events).toEqual([
      { kind: 'move', t: expect.any(Number), move: 'c3-c6', ply: 5 },
      { kind: 'end', t: expect.any(Number), outcome: { reason: 'baseline', winner: 'south' } },
    ]);
    // Nothing more is a move; the opening set up again is a new game.
    board.lift('b6').put('b4').wait(3000);
    expect(board.feed(referee)).toMatchObject([
      { kind: 'alert', code: 'malawi/game-over', message: "the game is over: south won by reaching the opponent's baseline" },
    ]);
    board.lift('b4').put('b6').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
    board.cells.splice(0, 36, ...initial(RULES).squares.map((p) => (p === null ? 0 : 3)));
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['new-game']);
    expect(referee.record()).toEqual([]);
  });
});

/** Random play that first picks a kind of move, so distributions (the most numerous) do not crowd out moving. */
function randomGame(seed: number, plies: number): { moves: MalawiMove[]; states: MalawiState[] } {
  const random = rng(seed);
  const states = [initial(RULES)];
  const moves: MalawiMove[] = [];
  while (moves.length < plies && states[states.length - 1].outcome === null) {
    const state = states[states.length - 1];
    const legal = legalMoves(state);
    const kinds = [...new Set(legal.map((m) => m.kind))];
    // Mostly moves, as people play.
    const kind = random() < 0.6 && kinds.includes('move') ? 'move' : kinds[Math.floor(random() * kinds.length)];
    const ofKind = legal.filter((m) => m.kind === kind);
    const move = ofKind[Math.floor(random() * ofKind.length)];
    moves.push(move);
    states.push((play(state, move) as { ok: true; value: MalawiState }).value);
  }
  return { moves, states };
}

describe('Malawi referee: whole random games, move for move', () => {
  test.each([1, 2, 3, 4, 5, 6])('occupancy board, seed %i: hidden moves answered from the truth', (seed) => {
    const { moves, states } = randomGame(seed, 80);
    const { board, referee } = setUp('occupancy', [], {}, seed);
    const all: MalawiRefereeEvent[] = [];
    let unannounced = false;
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i];
      const truth = formatMove(move, RULES.size);
      if (move.kind === 'move') {
        board.make(move, states[i], board.random() < 0.3);
        if (board.random() < 0.3) board.glitch(formatMove({ kind: 'move', from: Math.floor(board.random() * 36), to: 0 }, RULES.size).split('-')[0]);
        board.wait(700);
        const events = board.feed(referee);
        if (unannounced) {
          // A hidden move went unannounced before this one: the referee says it is not this
          // side's turn; the console then enters the hidden move from the truth.
          expect(events).toMatchObject([{ kind: 'alert', code: 'malawi/not-your-piece' }]);
          const hidden = formatMove(moves[i - 1], RULES.size);
          const question = eventsOf(referee.askWhich())[0] as MalawiQuestion;
          expect(question.options).toContain(hidden);
          const answered = referee.answer(question.id, hidden);
          expect(answered.ok).toBe(true);
          expect(kinds(eventsOf(answered))).toEqual(['question-closed', 'cleared', `move ${hidden}`, `move ${truth}`]);
          unannounced = false;
        } else {
          all.push(...events);
        }
        expect(referee.record().at(-1)).toBe(truth);
        continue;
      }
      // Captures and distributions: announced on the console, unless the next move is a plain one
      // and nobody remembers (then the referee asks when it sees the opponent move).
      const next = moves[i + 1];
      // Not when the opponent's move puts the board back to an earlier picture: that reads as a
      // take-back (the last mover putting their piece back), as it should.
      const after = observe(states[i + 2] ?? states[i]).join('');
      const repeats = states.slice(Math.max(0, i - 12), i + 1).some((s) => observe(s).join('') === after);
      if (next && next.kind === 'move' && !repeats && board.random() < 0.5) {
        unannounced = true;
        continue;
      }
      const result = referee.askWhich();
      expect(result.ok).toBe(true);
      const question = referee.openQuestions()[0];
      expect(question.options).toContain(truth);
      const answered = referee.answer(question.id, truth);
      expect(answered.ok).toBe(true);
      all.push(...eventsOf(result), ...eventsOf(answered));
      board.wait(200);
      all.push(...board.feed(referee));
    }
    board.wait(3000);
    all.push(...board.feed(referee));
    expect(referee.record()).toEqual(moves.map((m) => formatMove(m, RULES.size)));
    expect(formatPosition(referee.state)).toBe(formatPosition(states[states.length - 1]));
    expect(all.filter((e) => e.kind === 'alert')).toEqual([]);
    expect(all.filter((e) => e.kind === 'takeback')).toEqual([]);
    const end = states[states.length - 1].outcome;
    expect(all.filter((e) => e.kind === 'end')).toEqual(end ? [{ kind: 'end', t: expect.any(Number), outcome: end }] : []);
    expect(moves.length).toBeGreaterThan(10);
  });

  test.each([11, 12, 13, 14, 15, 16])('counting board, seed %i: every move seen by itself, ambiguous captures asked', (seed) => {
    const { moves, states } = randomGame(seed, 80);
    const { board, referee } = setUp('count', [], {}, seed);
    const all: MalawiRefereeEvent[] = [];
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i];
      const truth = formatMove(move, RULES.size);
      board.make(move, states[i], board.random() < 0.3);
      if (board.random() < 0.3) board.glitch(formatMove({ kind: 'move', from: Math.floor(board.random() * 36), to: 0 }, RULES.size).split('-')[0]);
      // A distribution that could have gone to more pieces is played once the board has stood still.
      board.wait(move.kind === 'distribute' ? 3800 : 700);
      const events = board.feed(referee);
      all.push(...events);
      const question = events.find((e): e is MalawiQuestion => e.kind === 'question');
      if (question) {
        expect(question.params.reason).toBe('ambiguous');
        expect(move.kind).toBe('capture');
        const answered = referee.answer(question.id, truth);
        expect(answered.ok).toBe(true);
        all.push(...eventsOf(answered));
      }
      expect(referee.record().at(-1)).toBe(truth);
    }
    expect(referee.record()).toEqual(moves.map((m) => formatMove(m, RULES.size)));
    expect(formatPosition(referee.state)).toBe(formatPosition(states[states.length - 1]));
    expect(all.filter((e) => e.kind === 'alert')).toEqual([]);
  });
});
