// Tests of the Makis referee: one test per verdict, built from explicit frames of a wooden 9 × 9 board with reed switches, and whole random games.
import { describe, expect, test } from 'vitest';
import {
  MakisReferee,
  diceOrder,
  type GridPicture,
  type MakisCommandResult,
  type MakisRefereeEvent,
  type MakisRefereeOptions,
} from '../../server/referee/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import {
  SIZE,
  initial,
  legalMoves,
  play,
  rollEffects,
  square,
  stepEffects,
  type MakisMove,
  type MakisOptions,
  type MakisState,
  type Roll,
} from '../../server/rules/makis.ts';
import { formatMove, parseMove, parseSquare } from '../../server/rules/makis-notation.ts';
import { mulberry32 as rng } from '../support/prng.ts';

const FRAME_MS = 50;

const sq = (name: string): number => {
  const parsed = parseSquare(name);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

const rules = (players: number, knights?: readonly number[]): MakisOptions => ({
  players,
  mode: 'competitive',
  knights: knights ?? [1, 1, 1, 1, 1, 1, 1, 1, 1],
});

function stateAfter(options: MakisOptions, record: readonly string[]): MakisState {
  const start = initial(options);
  if (!start.ok) throw new Error(start.error.message);
  let state = start.value;
  for (const token of record) {
    const move = parseMove(token);
    if (!move.ok) throw new Error(`${token}: ${move.error.message}`);
    const next = play(state, move.value);
    if (!next.ok) throw new Error(`${token}: ${next.error.message}`);
    state = next.value;
  }
  return state;
}

/** What a board shows in a position: knights and Makis on the board. */
function occupancy(state: MakisState): number[] {
  const cells = new Array<number>(SIZE * SIZE).fill(0);
  state.knights.forEach((row, i) => (cells[square(i + 1, row)] = 1));
  for (const spot of state.makis) if (typeof spot === 'number') cells[spot] = 1;
  return cells;
}

/**
 * A wooden Makis set on a board with a reed switch under each square, read twenty times a second.
 * Pieces are just there or not; hands take time; a switch may glitch or flicker.
 */
class WoodenBoard {
  readonly cells: number[];
  t = 0;
  readonly frames: { t: number; picture: GridPicture }[] = [];
  private readonly flickering = new Set<number>();
  private fed = 0;
  readonly random: () => number;

  constructor(state: MakisState, seed = 1) {
    this.cells = occupancy(state);
    this.random = rng(seed);
  }

  frame(glitch = -1): this {
    const values = this.cells.slice();
    for (const c of this.flickering) values[c] = this.random() < 0.5 ? 0 : 1;
    if (glitch >= 0) values[glitch] ^= 1;
    this.frames.push({ t: this.t, picture: { type: 'grid', bits: bitsOf(values) } });
    this.t += FRAME_MS;
    return this;
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / FRAME_MS; k++) this.frame();
    return this;
  }
  /** A hand's pause: 100–300 ms, never long enough for a picture to settle. */
  private pause(): this {
    return this.wait(100 + 50 * Math.floor(this.random() * 5));
  }
  lift(name: string | number): this {
    const c = typeof name === 'number' ? name : sq(name);
    if (this.cells[c] === 0) throw new Error(`no piece on ${name}`);
    this.cells[c] = 0;
    return this.pause();
  }
  put(name: string | number): this {
    const c = typeof name === 'number' ? name : sq(name);
    if (this.cells[c] !== 0) throw new Error(`${name} is taken`);
    this.cells[c] = 1;
    return this.pause();
  }
  carry(from: string | number, to: string | number): this {
    return this.lift(from).put(to);
  }
  glitch(name: string): this {
    return this.frame(sq(name));
  }
  flicker(name: string, on = true): this {
    if (on) this.flickering.add(sq(name));
    else this.flickering.delete(sq(name));
    return this;
  }

  /**
   * A move made by hand as people make it: a Maki put down or stepped; for a roll, each knight
   * moved (a Maki it lands on taken off first). Then the resets the rules ask for, unless `resets` is false.
   */
  make(move: MakisMove, state: MakisState, resets = true): this {
    switch (move.kind) {
      case 'place':
        return this.put(move.square);
      case 'roll': {
        const effects = rollEffects(state.knights, state.makis, move.dice);
        for (let c = 0; c < SIZE; c++) {
          if (effects.knights[c] === state.knights[c]) continue;
          const to = square(c + 1, effects.knights[c]);
          if (this.cells[to]) this.lift(to); // the Maki it lands on comes off
          this.carry(square(c + 1, state.knights[c]), to).wait(200);
        }
        if (!resets || effects.knightHome) return this;
        for (const p of effects.captured) {
          const at = state.makis[p - 1] as number;
          if (!effects.knights.some((row, c) => square(c + 1, row) === at)) this.lift(at);
        }
        for (const s of effects.sentBack) if (s.from !== s.to) this.carry(s.from, s.to);
        return this;
      }
      case 'maki': {
        if (move.to === null) return this;
        const from = state.makis[move.player - 1] as number;
        this.carry(from, move.to);
        if (!resets) return this;
        const effects = stepEffects(state.knights, state.makis, move.player, move.to);
        for (const c of effects.knightsSentBack) if (state.knights[c - 1] !== 1) this.carry(square(c, state.knights[c - 1]), square(c, 1));
        for (const s of effects.makisSentBack) if (s.from !== s.to) this.carry(s.from, s.to);
        return this;
      }
    }
  }

  feed(referee: MakisReferee): MakisRefereeEvent[] {
    const events: MakisRefereeEvent[] = [];
    for (; this.fed < this.frames.length; this.fed++) {
      const f = this.frames[this.fed];
      events.push(...referee.frame(f.t, f.picture));
    }
    return events;
  }
}

const mv = (text: string): MakisMove => {
  const parsed = parseMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

function eventsOf(result: MakisCommandResult): readonly MakisRefereeEvent[] {
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  return result.events;
}

const kinds = (events: readonly MakisRefereeEvent[]): string[] =>
  events.map((e) => {
    switch (e.kind) {
      case 'move':
        return `move ${e.move}`;
      case 'alert':
        return `alert ${e.code}`;
      case 'takeback':
        return `takeback ${e.undone.join(' ')}`;
      case 'end':
        return `end ${e.outcome.winner} ${e.outcome.reason}`;
      default:
        return e.kind;
    }
  });

/** A calibrated referee watching a board in the position after `record`. */
function setUp(players: number, record: readonly string[] = [], options: MakisRefereeOptions = {}, knights?: readonly number[]) {
  const game = rules(players, knights);
  const state = stateAfter(game, record);
  const board = new WoodenBoard(state);
  const referee = new MakisReferee(game, options);
  if (record.length) expect(referee.restore(record)).toEqual({ ok: true });
  board.wait(1000);
  expect(kinds(board.feed(referee))).toEqual(['calibrated']);
  /** Make a move by hand on the board, as the engine says it goes from the referee's position. */
  const make = (text: string, resets = true) => board.make(mv(text), referee.state, resets);
  return { referee, board, make };
}

// A three-player game with every Maki placed: player 1 rolls next.
const PLACED = ['1@c5r9', '2@c2r9', '3@c8r9'];

describe('calibration and placement', () => {
  test('the opening position calibrates: a knight on row 1 of every column, no Maki', () => {
    const referee = new MakisReferee(rules(2));
    const board = new WoodenBoard(stateAfter(rules(2), []));
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['calibrated']);
    expect(referee.calibrated).toBe(true);
  });

  test('a board not in the opening position waits, and then says so', () => {
    const referee = new MakisReferee(rules(2));
    const board = new WoodenBoard(stateAfter(rules(2), []));
    board.carry('c3r1', 'c3r2').wait(2500);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert board/calibrating']);
    board.carry('c3r2', 'c3r1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'calibrated']);
  });

  test('a Maki put on row 9 is the placement of the player whose turn it is', () => {
    const { referee, board } = setUp(3);
    board.put('c5r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1@c5r9']);
    board.put('c2r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 2@c2r9']);
    expect(referee.state.toMove).toBe(3);
  });

  test("a Maki put off row 9 gets the engine's reason; put right, it is placed", () => {
    const { referee, board } = setUp(2);
    board.put('c5r8').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/not-row-9']);
    const alert = events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>;
    expect(alert.message).toBe('a Maki is placed on row 9, not on c5r8');
    expect(alert.params).toMatchObject({ square: 'c5r8', to: 'c5r8' });
    board.carry('c5r8', 'c5r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move 1@c5r9']);
  });

  test('two Makis put down at once: the console says whose came first, then both are placed', () => {
    const { referee, board } = setUp(2);
    board.put('c3r9').put('c7r9').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['question']);
    const q = events[0] as Extract<MakisRefereeEvent, { kind: 'question' }>;
    expect(q.options).toEqual(['1@c3r9', '1@c7r9']);
    expect(q.params).toMatchObject({ reason: 'two-moves' });
    expect(kinds(eventsOf(referee.answer(q.id, '1@c7r9')))).toEqual(['question-closed', 'move 1@c7r9', 'move 2@c3r9']);
  });
});

describe('the roll, read from the knights', () => {
  test('three knights moved one row each, one after the other: the roll, numbers ascending', () => {
    const { referee, board } = setUp(3, PLACED);
    // Each knight's picture settles on its own: a roll is made only once three steps are seen.
    board.carry('c7r1', 'c7r2').wait(800).carry('c2r1', 'c2r2').wait(800);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c5r1', 'c5r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R2.5.7']);
    expect(referee.lastRoll()).toEqual(diceOrder([2, 5, 7]));
    expect(referee.state.phase).toBe('maki');
  });

  test('a double moves one knight two rows', () => {
    const { referee, make, board } = setUp(3, PLACED);
    make('R2.5.5');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R2.5.5']);
    expect(referee.state.knights).toEqual([1, 2, 1, 1, 3, 1, 1, 1, 1]);
  });

  test("numbers Miwin's dice cannot show together are an impossible roll; the knights set right, the roll counts", () => {
    const { referee, board } = setUp(3, PLACED);
    // 1, 5 and 9 are all on dice III and IV: no face of V.
    board.carry('c1r1', 'c1r2').carry('c5r1', 'c5r2').carry('c9r1', 'c9r2').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/impossible-roll']);
    const alert = events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>;
    expect(alert.message).toBe("a roll of 1-5-9 cannot be made with Miwin's dice");
    expect(alert.params).toEqual({ roll: '1-5-9' });
    expect(referee.record()).toEqual(PLACED);
    board.carry('c9r2', 'c9r1').carry('c8r1', 'c8r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move R1.5.8']);
  });

  test('a knight moved three rows is a triple, which no roll shows', () => {
    const { referee, board } = setUp(3, PLACED);
    board.carry('c4r1', 'c4r4').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/impossible-roll']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toEqual({ roll: '4-4-4' });
  });

  test('a knight that lands on a Maki captures it: the Maki comes off as the knight goes on, nothing is owed', () => {
    // Player 1's Maki on c2r8, right in front of the knight of column 2 (row 7).
    const { referee, board, make } = setUp(2, ['1@c2r9', '2@c6r9', 'R1.3.4', '1:c2r8', '2:-'], { homeMs: 2500 }, [1, 7, 1, 1, 1, 1, 1, 1, 1]);
    make('R2.3.4');
    // A knight on a captured Maki's square looks like a knight still in the hand: the referee waits a moment.
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.wait(2500);
    expect(kinds(board.feed(referee))).toEqual(['move R2.3.4']);
    expect(referee.pending()).toEqual([]);
    expect(referee.state.makis[0]).toBe('out');
    expect(referee.state.toMove).toBe(2);
  });

  test('a roll that might be unfinished is played at once when the next Maki moves', () => {
    const { referee, board, make } = setUp(2, ['1@c2r9', '2@c6r9', 'R1.3.4', '1:c2r8', '2:-'], { homeMs: 2500 }, [1, 7, 1, 1, 1, 1, 1, 1, 1]);
    make('R2.3.4');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c6r9', 'c6r8').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R2.3.4', 'move 2:c6r8']);
  });

  test('a Maki moved two squares right after such a roll: the roll counts, the step gets its reason', () => {
    const { referee, board, make } = setUp(2, ['1@c2r9', '2@c6r9', 'R1.3.4', '1:c2r8', '2:-'], { homeMs: 2500 }, [1, 7, 1, 1, 1, 1, 1, 1, 1]);
    make('R2.3.4');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c6r9', 'c6r7').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R2.3.4', 'alert makis/not-adjacent']);
  });

  test('a knight held in the hand below a Maki two rows up is not a double landing on it', () => {
    // Knight 7 on row 2, player 2's Maki on c7r4: knight 7 lifted looks like a double of 7 capturing the Maki.
    const walk = ['R1.2.3', '1:-', '2:c7r8', 'R1.2.3', '2:c7r7', '1:-', 'R1.2.3', '1:-', '2:c7r6', 'R1.2.3', '2:c7r5', '1:-', 'R1.2.3', '1:-', '2:c7r4'];
    const { referee, board } = setUp(2, ['1@c5r9', '2@c7r9', ...walk], { homeMs: 2500 }, [1, 1, 1, 1, 1, 1, 2, 1, 1]);
    board.carry('c5r1', 'c5r2').wait(300).lift('c7r2').wait(1500);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.put('c7r3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c8r1', 'c8r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R5.7.8']);
    expect(referee.state.makis[1]).toBe(sq('c7r4'));
  });

  test('a double that passes over a Maki captures it: the Maki is owed off the board, and the referee says so if the board stands still', () => {
    // Knight 2 on row 5, player 1's Maki on c2r6 in front of it: a double of 2 captures it in passing.
    const record = ['1@c2r9', '2@c6r9', 'R1.3.4', '1:c2r8', '2:-', 'R1.3.4', '2:-', '1:c2r7', 'R1.3.4', '1:c2r6', '2:-'];
    const { referee, board, make } = setUp(2, record, { resetMs: 2000 }, [1, 5, 1, 1, 1, 1, 1, 1, 1]);
    make('R1.2.2', false);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R1.2.2']);
    expect(referee.pending()).toEqual([{ piece: 'maki', player: 1, from: sq('c2r6'), to: 'out' }]);
    board.wait(3000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/remove-maki']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toEqual({ player: 1, square: 'c2r6', remaining: 1 });
    board.lift('c2r6').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'settled']);
    expect(referee.pending()).toEqual([]);
  });

  test('a knight landing beside a Maki sends it back to row 9: a reset owed, not a move, even one square long', () => {
    // Player 2's Maki on c4r8; the knight of column 3 steps from row 7 to row 8 beside it.
    const { referee, board, make } = setUp(2, ['1@c8r9', '2@c4r9', 'R1.2.5', '1:c8r8', '2:c4r8'], {}, [1, 1, 7, 1, 1, 1, 1, 1, 1]);
    make('R1.3.5', false);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R1.3.5']);
    expect(referee.pending()).toEqual([{ piece: 'maki', player: 2, from: sq('c4r8'), to: sq('c4r9') }]);
    // Player 2 is to move, and c4r8 → c4r9 is one square: still it is the reset.
    expect(referee.state.toMove).toBe(2);
    board.carry('c4r8', 'c4r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['settled']);
    expect(referee.pending()).toEqual([]);
    expect(referee.record()).toHaveLength(6);
    make('2:c3r9');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 2:c3r9']);
  });

  test('a Maki whose column is rolled while its knight is behind it goes back to row 9', () => {
    const record = ['1@c6r9', 'R7.8.9', '1:c6r8', 'R7.8.9', '1:c6r7', 'R7.8.9', '1:c5r6', 'R7.8.9', '1:c4r5'];
    const { referee, board, make } = setUp(1, record, {}, [1, 1, 1, 7, 1, 1, 1, 1, 1]);
    make('R4.7.8');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R4.7.8']);
    expect(referee.pending()).toEqual([]);
    expect(referee.state.makis).toEqual([sq('c4r9')]);
  });

  test('knights that only some of the roll has moved are no roll yet, however long the board stands still', () => {
    const { referee, board } = setUp(3, PLACED);
    board.carry('c3r1', 'c3r2').wait(4000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c6r1', 'c6r2').wait(7000);
    // Long enough to be called a mismatch: two knights moved, and a third step owed.
    expect(kinds(board.feed(referee))).toEqual(['alert referee/mismatch']);
    board.carry('c6r2', 'c6r3').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move R3.6.6']);
  });
});

describe('resets after a Maki step', () => {
  test('a Maki stepping beside a knight sends it back to row 1; the board standing still, the referee names it', () => {
    const { referee, board, make } = setUp(1, ['1@c5r9', 'R1.2.3'], { resetMs: 3000 }, [1, 1, 1, 8, 1, 1, 1, 1, 1]);
    make('1:c5r8', false);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c5r8']);
    expect(referee.pending()).toEqual([{ piece: 'knight', from: sq('c4r8'), to: sq('c4r1') }]);
    board.wait(2000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.wait(2000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/reset-knight']);
    const alert = events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>;
    expect(alert.message).toBe('Put the knight in column 4 back to row 1.');
    expect(alert.params).toEqual({ column: 4, row: 1, from: 'c4r8', to: 'c4r1', remaining: 1 });
    expect(alert.cells).toEqual([
      { cell: sq('c4r1'), diff: -1 },
      { cell: sq('c4r8'), diff: 1 },
    ]);
    board.carry('c4r8', 'c4r1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'settled']);
    expect(referee.record()).toEqual(['1@c5r9', 'R1.2.3', '1:c5r8']);
  });

  test("a Maki stepping beside another sends it back to row 9; that Maki's one square is its reset, not its move", () => {
    const { referee, board, make } = setUp(2, ['1@c5r9', '2@c7r9', 'R1.2.3', '1:c5r8'], { resetMs: 2000 });
    make('2:c6r8', false);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 2:c6r8']);
    expect(referee.pending()).toEqual([{ piece: 'maki', player: 1, from: sq('c5r8'), to: sq('c5r9') }]);
    board.wait(3000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/reset-maki']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).message).toBe("Put player 1's Maki back on 5/9.");
    board.carry('c5r8', 'c5r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'settled']);
    expect(referee.record()).toEqual(['1@c5r9', '2@c7r9', 'R1.2.3', '1:c5r8', '2:c6r8']);
  });

  test('resets made at once with the step are part of it: nothing is owed', () => {
    const { referee, board, make } = setUp(1, ['1@c5r9', 'R1.2.3'], {}, [1, 1, 1, 8, 1, 1, 1, 1, 1]);
    make('1:c5r8');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c5r8']);
    expect(referee.pending()).toEqual([]);
  });

  test('the next move waits for the resets: a Maki moved before the knight is back is read once the knight is back', () => {
    const { referee, board, make } = setUp(2, ['1@c5r9', '2@c7r9', 'R1.2.3'], { resetMs: 3000 }, [1, 1, 1, 8, 1, 1, 1, 1, 1]);
    make('1:c5r8', false);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c5r8']);
    board.carry('c7r9', 'c7r8').wait(4000);
    // A picture nothing explains while a reset is owed: the reset is what the referee asks for.
    expect(kinds(board.feed(referee))).toEqual(['alert makis/reset-knight']);
    board.carry('c4r8', 'c4r1').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move 2:c7r8']);
  });
});

describe('Maki moves in turn order, and passes', () => {
  test("a later player's Maki moving means the players before passed", () => {
    const { referee, board, make } = setUp(3, [...PLACED, 'R2.5.7']);
    make('2:c2r8');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:-', 'move 2:c2r8']);
  });

  test('the knights of the next roll moving means everyone left in the round passed', () => {
    const { referee, board, make } = setUp(3, [...PLACED, 'R2.5.7', '1:c5r8']);
    // The engine plays the passes; the board only sees the knights.
    const afterPasses = stateAfter(rules(3), [...PLACED, 'R2.5.7', '1:c5r8', '2:-', '3:-']);
    board.make(mv('R1.3.4'), afterPasses);
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 2:-', 'move 3:-', 'move R1.3.4']);
    expect(referee.state.toMove).toBe(2);
    void make;
  });

  test("a Maki moved two squares gets the engine's reason; put back, nothing happened", () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7']);
    board.carry('c5r9', 'c5r7').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/not-adjacent']);
    const alert = events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>;
    expect(alert.message).toBe('a Maki moves one square in any direction; c5r7 is not next to c5r9');
    expect(alert.params).toEqual({ from: 'c5r9', to: 'c5r7', player: 1 });
    board.carry('c5r7', 'c5r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
    expect(referee.record()).toHaveLength(4);
  });

  test('a Maki moved two squares and then on to a square next to its own: the step counts', () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7']);
    board.carry('c5r9', 'c5r7').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['alert makis/not-adjacent']);
    board.carry('c5r7', 'c4r8').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move 1:c4r8']);
  });

  test("a player whose Maki already moved this round moves again: it is another player's turn", () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7', '1:c5r8']);
    board.carry('c5r8', 'c5r7').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/not-your-turn']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toMatchObject({ player: 1, toMove: 2 });
  });

  test('a Maki moved while the dice are due: the roll comes first, and the alert names the roller', () => {
    const { referee, board } = setUp(3, PLACED);
    board.carry('c8r9', 'c8r8').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/roll-expected']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toEqual({ player: 1, from: 'c8r9', to: 'c8r8' });
  });

  test('two Makis moved at once: played in turn order when only one order fits', () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7']);
    board.carry('c5r9', 'c5r8').carry('c8r9', 'c8r8').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c5r8', 'move 2:-', 'move 3:c8r8']);
  });
});

describe('take-backs', () => {
  test('a Maki put back where it came from takes its step back', () => {
    const { referee, board, make } = setUp(3, [...PLACED, 'R2.5.7']);
    make('1:c5r8');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c5r8']);
    board.carry('c5r8', 'c5r9').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['takeback 1:c5r8']);
    expect(referee.record()).toEqual([...PLACED, 'R2.5.7']);
  });

  test('knights and a sent-back Maki put back take back the roll', () => {
    const record = ['1@c8r9', '2@c4r9', 'R1.2.5', '1:c8r8', '2:c4r8'];
    const { referee, board, make } = setUp(2, record, {}, [1, 1, 7, 1, 1, 1, 1, 1, 1]);
    make('R1.3.5');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R1.3.5']);
    board.carry('c4r9', 'c4r8').carry('c1r3', 'c1r2').carry('c3r8', 'c3r7').carry('c5r3', 'c5r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['takeback R1.3.5']);
    expect(referee.record()).toEqual(record);
  });
});

describe('the display rolls for the table', () => {
  test('the referee then expects exactly that roll: other knights are an alert, the right ones the roll in its dice order', () => {
    const { referee, board, make } = setUp(3, PLACED);
    expect(kinds(eventsOf(referee.expectRoll([5, 3, 2])))).toEqual(['settled']);
    expect(referee.expectedRoll()).toEqual([5, 3, 2]);
    make('R2.5.7');
    board.wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert makis/wrong-roll']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toEqual({ expected: '2-3-5', roll: '2-5-7' });
    board.carry('c7r2', 'c7r1').carry('c3r1', 'c3r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared', 'move R2.3.5']);
    expect(referee.lastRoll()).toEqual([5, 3, 2]);
    expect(referee.expectedRoll()).toBeNull();
  });

  test('while Makis may still move, the roll says those left pass when the knights move', () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7', '1:c5r8']);
    eventsOf(referee.expectRoll([1, 4, 2]));
    const afterPasses = stateAfter(rules(3), [...PLACED, 'R2.5.7', '1:c5r8', '2:-', '3:-']);
    board.make(mv('R1.2.4'), afterPasses).wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 2:-', 'move 3:-', 'move R1.2.4']);
  });

  test('the display cannot roll while the Makis are placed, nor roll twice', () => {
    const { referee } = setUp(3);
    const early = referee.expectRoll([1, 1, 2]);
    expect(early.ok ? '' : early.error.code).toBe('referee/not-roll-time');
    const placed = setUp(3, PLACED).referee;
    eventsOf(placed.expectRoll([1, 1, 2]));
    const twice = placed.expectRoll([5, 3, 2]);
    expect(twice.ok ? '' : twice.error.code).toBe('referee/roll-pending');
  });
});

describe('the end of the game', () => {
  test('a knight reaching row 9 with a step left over: the referee waits for a third knight, then the knights win', () => {
    const { referee, board } = setUp(1, ['1@c5r9'], { homeMs: 2500 }, [8, 1, 1, 1, 1, 1, 1, 1, 1]);
    board.carry('c1r8', 'c1r9').carry('c4r1', 'c4r2').wait(1500);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.wait(2000);
    expect(kinds(board.feed(referee))).toEqual(['move R1.1.4', 'end knights knight-home']);
  });

  test('a third knight moving in time makes it a roll of three numbers', () => {
    const { referee, board } = setUp(1, ['1@c5r9'], { homeMs: 2500 }, [8, 1, 1, 1, 1, 1, 1, 1, 1]);
    board.carry('c1r8', 'c1r9').carry('c4r1', 'c4r2').wait(1000).carry('c5r1', 'c5r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move R1.4.5', 'end knights knight-home']);
  });

  test('two knights home from row 8, each with a step left over: either double ends the game alike, so the record takes one and the console may say which', () => {
    const { referee, board } = setUp(1, ['1@c5r9'], { homeMs: 2000 }, [8, 8, 1, 1, 1, 1, 1, 1, 1]);
    board.carry('c1r8', 'c1r9').carry('c2r8', 'c2r9').wait(3000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move R1.1.2', 'end knights knight-home', 'question']);
    expect(events[0]).toMatchObject({ ply: 2, assumed: true });
    const q = events[2] as Extract<MakisRefereeEvent, { kind: 'question' }>;
    expect(q.options).toEqual(['R1.1.2', 'R1.2.2']);
    expect(q).toMatchObject({ blocking: false, params: { reason: 'ambiguous', ply: 2, taken: 'R1.1.2' } });
    expect(eventsOf(referee.answer(q.id, 'R2.2.1'))).toEqual([
      { kind: 'correction', t: expect.any(Number), ply: 2, old: ['R1.1.2'], new: ['R1.2.2'], reason: 'console' },
      { kind: 'question-closed', t: expect.any(Number), id: q.id },
    ]);
    expect(referee.record()).toEqual(['1@c5r9', 'R1.2.2']);
    expect(referee.openQuestions()).toEqual([]);
  });

  test('a Maki reaching row 1 wins; the opening set up again is a new game', () => {
    const record = ['1@c5r9', 'R1.2.3', '1:c5r8', 'R7.8.9', '1:c5r7', 'R1.2.3', '1:c5r6', 'R7.8.9', '1:c5r5', 'R1.2.3', '1:c5r4', 'R7.8.9', '1:c5r3', 'R1.2.3', '1:c4r2', 'R7.8.9'];
    const { referee, board, make } = setUp(1, record);
    make('1:c3r1');
    board.wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['move 1:c3r1', 'end 1 maki-home']);
    board.lift('c3r1');
    for (const c of [1, 2, 3, 7, 8, 9]) board.carry(square(c, 5), square(c, 1));
    board.wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['new-game']);
    expect(referee.record()).toEqual([]);
  });
});

describe('a question never stops the game', () => {
  test('two Makis put down at once, nobody answers, the roll is made: the placements are assumed, the roll played; a late answer corrects them', () => {
    const { referee, board, make } = setUp(2);
    board.put('c3r9').put('c7r9').wait(1000);
    const [q] = board.feed(referee) as Extract<MakisRefereeEvent, { kind: 'question' }>[];
    expect(q).toMatchObject({ kind: 'question', options: ['1@c3r9', '1@c7r9'] });
    expect(q).not.toHaveProperty('blocking');
    make('R1.2.3');
    board.wait(1500);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move 1@c3r9', 'move 2@c7r9', 'move R1.2.3']);
    expect(events[0]).toMatchObject({ ply: 1, assumed: true });
    expect(events[1]).not.toHaveProperty('assumed');
    expect(referee.openQuestions().map((x) => x.id)).toEqual([q.id]);
    expect(eventsOf(referee.answer(q.id, '1@c7r9'))).toEqual([
      { kind: 'correction', t: expect.any(Number), ply: 1, old: ['1@c3r9', '2@c7r9', 'R1.2.3'], new: ['1@c7r9', '2@c3r9', 'R1.2.3'], reason: 'console' },
      { kind: 'question-closed', t: expect.any(Number), id: q.id },
    ]);
    expect(referee.state.makis).toEqual([sq('c7r9'), sq('c3r9')]);
  });

  test('a step onto an unsure square, then the next player steps: the step that followed decides it', () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7']);
    board.flicker('c4r8').wait(3000);
    board.feed(referee);
    board.carry('c5r9', 'c4r8').wait(1000);
    const [q] = board.feed(referee).filter((e) => e.kind === 'question') as Extract<MakisRefereeEvent, { kind: 'question' }>[];
    expect(q.options).toEqual(['1:c4r8']);
    board.carry('c2r9', 'c2r8').wait(1000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['question-closed', 'move 1:c4r8', 'move 2:c2r8']);
    expect(events.some((e) => e.kind === 'move' && e.assumed)).toBe(false);
  });

  test('an unanswered question is taken after the timeout, assumed, and stays answerable', () => {
    const { referee, board } = setUp(2, [], { assumeMs: 20_000 });
    board.put('c3r9').put('c7r9').wait(1000);
    const [q] = board.feed(referee) as Extract<MakisRefereeEvent, { kind: 'question' }>[];
    board.wait(18_000);
    expect(board.feed(referee)).toEqual([]);
    board.wait(2000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['move 1@c3r9', 'move 2@c7r9']);
    expect(events[0]).toMatchObject({ assumed: true });
    expect(referee.openQuestions().map((x) => x.id)).toEqual([q.id]);
    expect(kinds(eventsOf(referee.answer(q.id, '1@c3r9')))).toEqual(['question-closed']);
    expect(referee.record()).toEqual(['1@c3r9', '2@c7r9']);
  });

  test('without a timeout the question waits for the console', () => {
    const { referee, board } = setUp(2, [], { assumeMs: null });
    board.put('c3r9').put('c7r9').wait(1000);
    board.feed(referee);
    board.wait(60_000);
    expect(board.feed(referee)).toEqual([]);
    expect(referee.record()).toEqual([]);
  });
});

describe('the console', () => {
  test('a move entered by hand is played; the board is then expected to show it', () => {
    const { referee, board } = setUp(3, PLACED, { mismatchMs: 1500 });
    expect(kinds(eventsOf(referee.enter('R2.5.7')))).toEqual(['move R2.5.7']);
    board.wait(2000);
    expect(kinds(board.feed(referee))).toEqual([]);
    board.carry('c2r1', 'c2r2').carry('c5r1', 'c5r2').carry('c7r1', 'c7r2').wait(1000);
    expect(kinds(board.feed(referee))).toEqual([]);
    expect(referee.record()).toEqual([...PLACED, 'R2.5.7']);
  });

  test('an illegal move entered is refused with the engine reason', () => {
    const { referee } = setUp(3, PLACED);
    const result = referee.enter('1:c5r8');
    expect(result.ok ? '' : result.error.code).toBe('makis/roll-expected');
  });

  test('undo takes back one ply, a pass too; with nothing left, nothing happens', () => {
    const { referee, board, make } = setUp(3, [...PLACED, 'R2.5.7']);
    make('2:c2r8');
    board.wait(1000);
    board.feed(referee);
    expect(kinds(referee.undo())).toEqual(['takeback 2:c2r8']);
    expect(kinds(referee.undo())).toEqual(['takeback 1:-']);
    expect(referee.state.toMove).toBe(1);
    const empty = setUp(1).referee;
    expect(empty.undo()).toEqual([]);
  });

  test('restore resumes a game from its record: the board must show that position first', () => {
    const record = [...PLACED, 'R2.5.7', '1:c5r8'];
    const referee = new MakisReferee(rules(3));
    expect(referee.restore(record)).toEqual({ ok: true });
    expect(referee.record()).toEqual(record);
    const board = new WoodenBoard(stateAfter(rules(3), []));
    board.wait(3000);
    expect(kinds(board.feed(referee))).toEqual(['alert board/calibrating']);
    expect(referee.restore(['1@c5r9', '1@c4r9'])).toMatchObject({ ok: false, ply: 2, error: { code: 'makis/not-your-turn' } });
  });

  test('an answer that is not an option is refused', () => {
    const { referee, board } = setUp(2);
    board.put('c3r9').put('c7r9').wait(1000);
    const q = board.feed(referee)[0] as Extract<MakisRefereeEvent, { kind: 'question' }>;
    const wrong = referee.answer(q.id, '1@c4r9');
    expect(wrong.ok ? '' : wrong.error.code).toBe('referee/not-an-option');
    const stale = referee.answer(q.id + 1, '1@c3r9');
    expect(stale.ok ? '' : stale.error.code).toBe('referee/no-such-question');
  });
});

describe('sensors', () => {
  test('a sensor glitching for single frames changes nothing', () => {
    const { referee, board } = setUp(3, PLACED);
    for (let k = 0; k < 10; k++) board.glitch('c4r4').wait(200);
    expect(kinds(board.feed(referee))).toEqual([]);
  });

  test('a piece put where nothing explains it: the referee says which square to fix once the board stands still', () => {
    const { referee, board } = setUp(3, PLACED);
    board.put('c4r4').wait(3000);
    const events = board.feed(referee);
    expect(kinds(events)).toEqual(['alert referee/mismatch']);
    expect((events[0] as Extract<MakisRefereeEvent, { kind: 'alert' }>).params).toEqual({ square: 'c4r4', remaining: 1, action: 'take-off' });
    board.lift('c4r4').wait(1000);
    expect(kinds(board.feed(referee))).toEqual(['cleared']);
  });

  test('a step onto a square whose sensor flickers is not taken on trust: the console is asked', () => {
    const { referee, board } = setUp(3, [...PLACED, 'R2.5.7']);
    board.flicker('c4r8').wait(3000);
    board.feed(referee);
    board.carry('c5r9', 'c4r8').wait(1000);
    const events = board.feed(referee).filter((e) => e.kind === 'question');
    expect(events).toHaveLength(1);
    const q = events[0] as Extract<MakisRefereeEvent, { kind: 'question' }>;
    expect(q.options).toEqual(['1:c4r8']);
    expect(q.params).toMatchObject({ reason: 'unsure', squares: 'c4r8' });
  });
});

describe('whole games', () => {
  /**
   * Random legal play: roll real dice, step or pass; resets made at once, or a moment later. The
   * console answers the referee's questions from the truth, as a person watching would.
   */
  function randomGame(seed: number, players: number): { referee: MakisReferee; truth: string[]; questions: number } {
    const random = rng(seed);
    const game = rules(players);
    let state = stateAfter(game, []);
    const board = new WoodenBoard(state, seed);
    const referee = new MakisReferee(game);
    board.wait(1000);
    const truth: string[] = [];
    let seen = 0;
    let questions = 0;
    const take = (events: readonly MakisRefereeEvent[]): void => {
      for (const e of events) {
        if (process.env.MAKIS_DEBUG) console.log(JSON.stringify(e).slice(0, 240));
        if (e.kind !== 'question') continue;
        questions++;
        const option = e.options.find((o) => truth.slice(referee.record().length).includes(o));
        expect(option, `no true option among ${e.options.join(' ')}`).toBeDefined();
        take(eventsOf(referee.answer(e.id, option as string)));
      }
    };
    take(board.feed(referee));
    for (let ply = 0; ply < 400 && state.outcome === null; ply++) {
      let move: MakisMove;
      if (state.phase === 'roll') {
        const dice = [pick(random, [1, 2, 5, 6, 7, 9]), pick(random, [1, 3, 4, 5, 8, 9]), pick(random, [2, 3, 4, 6, 7, 8])] as unknown as Roll;
        move = { kind: 'roll', dice };
      } else {
        const moves = legalMoves(state);
        const steps = moves.filter((m) => m.kind !== 'maki' || m.to !== null);
        move = random() < 0.15 || steps.length === 0 ? moves[moves.length - 1] : pick(random, steps);
      }
      const next = play(state, move);
      if (!next.ok) throw new Error(next.error.message);
      truth.push(move.kind === 'roll' ? `R${[...move.dice].sort((a, b) => a - b).join('.')}` : formatMove(move));
      if (move.kind !== 'maki' || move.to !== null || next.value.outcome !== null) seen = truth.length;
      if (process.env.MAKIS_DEBUG) console.log('truth', board.t, truth[truth.length - 1]);
      board.make(move, state, random() < 0.8);
      board.wait(1000);
      // Resets left for later are made now.
      const cells = occupancy(next.value);
      for (let c = 0; c < cells.length; c++) board.cells[c] = cells[c];
      board.wait(1000);
      state = next.value;
      take(board.feed(referee));
    }
    board.wait(3000);
    take(board.feed(referee));
    return { referee, truth: truth.slice(0, seen), questions };
  }
  const pick = <T,>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

  test.each([
    [1, 1],
    [2, 2],
    [3, 3],
    [4, 5],
    [5, 3],
    [6, 2],
  ])('seed %i, %i players: the referee reads every move, passes inferred', (seed, players) => {
    const { referee, truth } = randomGame(seed, players);
    expect(referee.record()).toEqual(truth);
    expect(referee.state.outcome).not.toBeNull();
    expect(referee.pending()).toEqual([]);
  });
});
