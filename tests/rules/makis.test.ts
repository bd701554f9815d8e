// Tests of the Makis engine, its notation and its GameDefinition (RULES.md §3): one named test per rule, the seed's examples, tables of rolls, random play.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_OPTIONS,
  FACES,
  ORDERED_ROLLS,
  POSSIBLE_ROLLS,
  canRoll,
  fromSetup,
  initial,
  legalMoves,
  parseOptions,
  play,
  rollEffects,
} from '../../server/rules/makis.ts';
import type { MakiSpot, MakisMove, MakisOptions, MakisSetup, MakisState } from '../../server/rules/makis.ts';
import { drawBoard, formatMove, parseMove, parseSquare, positionJson } from '../../server/rules/makis-notation.ts';
import { makisGame } from '../../server/rules/makis-game.ts';
import { formatRecord, replay } from '../../server/rules/index.ts';
import { xorshift32 } from '../support/prng.ts';

// ---------------------------------------------------------------------------------------------
// Helpers

const sq = (name: string): number => {
  const result = parseSquare(name);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

/**
 * A position: knights as nine digits (the rows, column 1 first), Makis by square name, "out"
 * or null (not yet placed), one per player; by default player 1 is to roll.
 */
function position(
  knights: string,
  makis: readonly (string | null)[],
  next: { phase?: MakisSetup['phase']; roller?: number; toMove?: number } = {},
  options: Partial<MakisOptions> = {},
): MakisState {
  const spots: MakiSpot[] = makis.map((m) => (m === null || m === 'out' ? m : sq(m)));
  const setup: MakisSetup = { knights: [...knights].map(Number), makis: spots, phase: next.phase ?? 'roll', roller: next.roller, toMove: next.toMove };
  const result = fromSetup(setup, { ...DEFAULT_OPTIONS, players: makis.length, ...options });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function move(token: string): MakisMove {
  const result = parseMove(token);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Plays tokens that must be legal. */
function after(state: MakisState, ...tokens: string[]): MakisState {
  for (const token of tokens) {
    const result = play(state, move(token));
    if (!result.ok) throw new Error(`${token}: ${result.error.message}\n${drawBoard(state)}`);
    state = result.value;
  }
  return state;
}

/** The error code and sentence of a move that must be illegal. */
function refusal(state: MakisState, token: string): { code: string; message: string } {
  const result = play(state, move(token));
  if (result.ok) throw new Error(`${token} was accepted`);
  return { code: result.error.code, message: result.error.message };
}

/** The whole board and whose action is next, compactly. */
function board(state: MakisState) {
  return {
    knights: state.knights.join(''),
    makis: state.makis.map((spot) => (spot === null || spot === 'out' ? spot : `c${(spot % 9) + 1}r${Math.floor(spot / 9) + 1}`)),
    toMove: makisGame.summary(state).toMove,
    winner: makisGame.summary(state).winner,
  };
}

const unwrap = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};


// ---------------------------------------------------------------------------------------------
// Miwin's dice

describe("Miwin's dice", () => {
  test('every number 1–9 is on exactly two of the three dice', () => {
    for (let n = 1; n <= 9; n++) {
      expect([FACES.III, FACES.IV, FACES.V].filter((faces) => faces.includes(n))).toHaveLength(2);
    }
  });

  test.each([
    ['1.2.3', true],
    ['2.5.5', true], // the record example: 5 on III and IV, 2 on V
    ['5.5.2', true], // order does not matter
    ['9.9.3', true],
    ['7.7.4', true],
    ['1.5.8', true],
    ['1.1.1', false], // a triple
    ['4.4.4', false],
    ['1.5.9', false], // all three only on III and IV
    ['2.6.7', false], // all three only on III and V
    ['3.4.8', false], // all three only on IV and V
    ['1.1.5', false], // a double of 1 takes III and IV; 5 has no die left
    ['6.6.2', false],
    ['8.8.3', false],
    ['0.1.2', false],
    ['1.2.10', false],
  ])('the roll %s can be made: %s', (roll, valid) => {
    const dice = roll.split('.').map(Number);
    expect(canRoll(dice)).toBe(valid);
    const result = play(position('111111111', ['c5r9']), { kind: 'roll', dice: dice as [number, number, number] });
    expect(result.ok).toBe(valid);
    if (!result.ok) expect(result.error.code).toBe('makis/impossible-roll');
  });

  test('a triple is refused with the plain sentence', () => {
    expect(refusal(position('111111111', ['c5r9']), 'R1.1.1')).toEqual({
      code: 'makis/impossible-roll',
      message: "a roll of 1-1-1 cannot be made with Miwin's dice",
    });
  });

  test('216 ordered rolls; 135 possible rolls, exactly those three numbers for which an assignment to III, IV, V exists', () => {
    expect(ORDERED_ROLLS).toHaveLength(216);
    // Counted a second way: every ordered triple of 1–9 checked by assignment, then as a multiset.
    const byAssignment = new Set<string>();
    for (let a = 1; a <= 9; a++) {
      for (let b = 1; b <= 9; b++) {
        for (let c = 1; c <= 9; c++) if (canRoll([a, b, c])) byAssignment.add([a, b, c].sort().join('.'));
      }
    }
    expect(byAssignment.size).toBe(135);
    expect(new Set(POSSIBLE_ROLLS.map((r) => r.join('.')))).toEqual(byAssignment);
    // 165 multisets of three numbers 1–9, less the 3 × 10 whose numbers all share the same two dice.
    expect(POSSIBLE_ROLLS).toHaveLength(165 - 30);
  });

  test('no possible roll is a triple', () => {
    expect(POSSIBLE_ROLLS.some(([a, b, c]) => a === b && b === c)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The roll: knight steps

describe('knight steps', () => {
  test('each number rolled once moves the knight of that column one row forward', () => {
    expect(board(after(position('111111111', ['c5r9']), 'R1.2.3'))).toEqual({
      knights: '222111111',
      makis: ['c5r9'],
      toMove: '1',
      winner: null,
    });
  });

  test('a double moves its knight two rows (two single steps)', () => {
    expect(after(position('111111111', ['c5r9']), 'R2.5.5').knights.join('')).toBe('121131111');
  });

  test('a knight on row 9 ends the game at once: the knights win', () => {
    const state = after(position('111111181', ['c2r9']), 'R1.2.8');
    expect(board(state)).toEqual({ knights: '221111191', makis: ['c2r9'], toMove: null, winner: 'knights' });
    expect(state.outcome).toEqual({ reason: 'knight-home', winner: 'knights' });
  });

  test('a double from row 8 stops on row 9', () => {
    const state = after(position('181111111', ['c5r9']), 'R2.2.1');
    expect(state.knights.join('')).toBe('291111111');
    expect(state.outcome?.reason).toBe('knight-home');
  });

  test('when a knight reaches row 9 nothing else happens: no capture, no Maki sent back', () => {
    // Column 4's double would capture player 1 and column 7's knight reaches row 9.
    const state = after(position('111311811', ['c4r5', 'c8r5']), 'R4.4.7');
    expect(board(state)).toEqual({ knights: '111511911', makis: ['c4r5', 'c8r5'], toMove: null, winner: 'knights' });
    expect(positionJson(state)).toEqual({
      knights: { 1: 1, 2: 1, 3: 1, 4: 5, 5: 1, 6: 1, 7: 9, 8: 1, 9: 1 },
      makis: { 1: 'c4r5', 2: 'c8r5' },
    });
    const before = position('111311811', ['c4r5', 'c8r5']);
    expect(rollEffects(before.knights, before.makis, [4, 4, 7])).toMatchObject({ knightHome: true, captured: [], sentBack: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// The roll: captures and Makis sent back (the seed's figure: the red Maki in column 2)

describe('captures', () => {
  // The seed's figure: the Maki on c2r5; the knight of column 1 one row below it, those of
  // columns 2 and 3 two rows below.
  const FIGURE = '433111111';

  test('a knight step onto a Maki captures it: the player is out', () => {
    const state = after(position('131111111', ['c2r4', 'c7r9']), 'R2.1.4');
    expect(board(state)).toEqual({ knights: '241211111', makis: ['out', 'c7r9'], toMove: '2', winner: null });
  });

  test('the seed: a 2-2-1 roll captures the Maki in column 2 rather than sending it back; alone, the game is over', () => {
    const state = after(position(FIGURE, ['c2r5']), 'R2.1.2');
    expect(board(state)).toEqual({ knights: '553111111', makis: ['out'], toMove: null, winner: 'knights' });
    expect(state.outcome).toEqual({ reason: 'all-captured', winner: 'knights' });
  });

  test('the seed: a 2-2-1 roll captures, with two players the other plays on', () => {
    const state = after(position(FIGURE, ['c2r5', 'c8r9']), 'R2.1.2');
    expect(board(state)).toEqual({ knights: '553111111', makis: ['out', 'c8r9'], toMove: '2', winner: null });
  });

  test("a double's first step captures a Maki directly in front of the knight", () => {
    const state = after(position('131111111', ['c2r4', 'c7r9']), 'R2.2.1');
    expect(board(state)).toEqual({ knights: '251111111', makis: ['out', 'c7r9'], toMove: '2', winner: null });
  });

  test('every Maki captured: the knights win', () => {
    const state = after(position('131111311', ['c2r4', 'c7r4']), 'R2.7.4');
    expect(board(state)).toEqual({ knights: '141211411', makis: ['out', 'out'], toMove: null, winner: 'knights' });
    expect(state.outcome?.reason).toBe('all-captured');
  });
});

describe('Makis sent back by the roll', () => {
  const FIGURE = '433111111';

  test('the seed: a 1 sends the Maki in column 2 back (the knight lands directly beside it)', () => {
    expect(board(after(position(FIGURE, ['c2r5']), 'R1.4.6'))).toEqual({
      knights: '533212111',
      makis: ['c2r9'],
      toMove: '1',
      winner: null,
    });
  });

  test('the seed: a double 3 sends it back too (its second step lands beside it)', () => {
    expect(board(after(position(FIGURE, ['c2r5']), 'R3.3.9'))).toEqual({
      knights: '435111112',
      makis: ['c2r9'],
      toMove: '1',
      winner: null,
    });
  });

  test("the seed: a double 1 counts its middle square, though the knight ends past the Maki's row", () => {
    expect(board(after(position(FIGURE, ['c2r5']), 'R1.1.4'))).toEqual({
      knights: '633211111',
      makis: ['c2r9'],
      toMove: '1',
      winner: null,
    });
  });

  test('a knight landing diagonally next to a Maki or two columns away does nothing', () => {
    // Column 1 lands on c1r4 (diagonal to c2r5), column 4 on c4r5 (two columns away).
    expect(board(after(position('313411111', ['c2r5']), 'R1.4.6')).makis).toEqual(['c2r5']);
  });

  test('the seed: a Maki with no knight before it is sent back when its column is rolled (column 7, a 7)', () => {
    expect(board(after(position('111111511', ['c7r3']), 'R1.3.7'))).toEqual({
      knights: '212111611',
      makis: ['c7r9'],
      toMove: '1',
      winner: null,
    });
  });

  test('a Maki whose knight is still in front of it is not sent back when its column is rolled', () => {
    expect(board(after(position('111111111', ['c7r3']), 'R1.3.7')).makis).toEqual(['c7r3']);
  });

  test('a Maki that the knight has passed stays while its column is not rolled', () => {
    expect(board(after(position('111111511', ['c7r3']), 'R1.2.3')).makis).toEqual(['c7r3']);
  });

  test('return square taken: the nearest empty square of row 9, lower column first; in player order', () => {
    // Column 5's knight has passed players 2 and 3; player 1 holds c5r9.
    const state = after(position('111161111', ['c5r9', 'c5r5', 'c5r3']), 'R3.5.8');
    expect(board(state)).toEqual({ knights: '112171121', makis: ['c5r9', 'c4r9', 'c6r9'], toMove: '1', winner: null });
  });

  test('the nearest empty square may lie to the right when the left is taken', () => {
    const state = after(position('111161111', ['c4r9', 'c5r9', 'c5r3']), 'R3.5.8');
    expect(board(state).makis).toEqual(['c4r9', 'c5r9', 'c6r9']);
  });

  test('at the edge the search goes one way only', () => {
    const state = after(position('111111116', ['c9r9', 'c9r4']), 'R1.3.9');
    expect(board(state).makis).toEqual(['c9r9', 'c8r9']);
  });

  test('rollEffects reports steps, captures and Makis sent back without changing the state', () => {
    const state = position('433111111', ['c2r5', 'c8r9']);
    const effects = rollEffects(state.knights, state.makis, [2, 1, 2]);
    expect(effects).toEqual({
      knights: [5, 5, 3, 1, 1, 1, 1, 1, 1],
      landings: [sq('c1r5'), sq('c2r4'), sq('c2r5')],
      knightHome: false,
      captured: [1],
      sentBack: [],
    });
    expect(state.knights.join('')).toBe('433111111');
  });
});

// ---------------------------------------------------------------------------------------------
// Maki moves

describe('Maki moves', () => {
  const makiTurn = (knights: string, makis: string[], toMove = 1, roller = 1) =>
    position(knights, makis, { phase: 'maki', roller, toMove });

  test('a Maki steps one square in any of the eight directions onto an empty square, or passes', () => {
    const state = makiTurn('111111111', ['c5r5']);
    expect(legalMoves(state).map((m) => formatMove(m))).toEqual([
      '1:c4r4', '1:c5r4', '1:c6r4', '1:c4r5', '1:c6r5', '1:c4r6', '1:c5r6', '1:c6r6', '1:-',
    ]);
    expect(board(after(state, '1:c4r6')).makis).toEqual(['c4r6']);
  });

  test('a Maki moves one square only', () => {
    const state = makiTurn('111111111', ['c5r5']);
    expect(refusal(state, '1:c5r3')).toEqual({
      code: 'makis/not-adjacent',
      message: 'a Maki moves one square in any direction; c5r3 is not next to c5r5',
    });
    expect(refusal(state, '1:c5r5').code).toBe('makis/not-adjacent');
  });

  test('a Maki cannot step onto a knight or another Maki', () => {
    const state = makiTurn('111141111', ['c5r5', 'c6r6']);
    expect(refusal(state, '1:c5r4')).toEqual({ code: 'makis/square-taken', message: 'c5r4 is taken by a knight' });
    expect(refusal(state, '1:c6r6')).toEqual({ code: 'makis/square-taken', message: 'c6r6 is taken by the Maki of player 2' });
  });

  test('at the edge of the board fewer steps; a square off the board is not a square', () => {
    const state = makiTurn('222222222', ['c1r9']);
    expect(legalMoves(state).map((m) => formatMove(m))).toEqual(['1:c1r8', '1:c2r8', '1:c2r9', '1:-']);
    expect(parseMove('1:c0r9')).toMatchObject({ ok: false, error: { code: 'makis/off-board' } });
  });

  test('a knight directly left or right of the Maki after its move goes back to row 1', () => {
    const state = after(makiTurn('111151111', ['c6r6']), '1:c6r5');
    expect(board(state)).toEqual({ knights: '111111111', makis: ['c6r5'], toMove: 'roll', winner: null });
  });

  test('a Maki stepping between two knights sends both back', () => {
    const state = after(makiTurn('111414111', ['c5r5']), '1:c5r4');
    expect(state.knights.join('')).toBe('111111111');
  });

  test('a knight diagonally next to the Maki stays', () => {
    const state = after(makiTurn('111151111', ['c6r7']), '1:c6r6');
    expect(state.knights.join('')).toBe('111151111');
  });

  test('another Maki directly left or right of the Maki after its move goes back to row 9', () => {
    const state = after(makiTurn('111111111', ['c5r5', 'c3r4']), '1:c4r4');
    expect(board(state)).toEqual({ knights: '111111111', makis: ['c4r4', 'c3r9'], toMove: '2', winner: null });
  });

  test('a Maki sent back to a taken square takes the nearest empty one of row 9', () => {
    const state = after(makiTurn('111111111', ['c5r5', 'c3r4', 'c3r9']), '1:c4r4');
    expect(board(state).makis).toEqual(['c4r4', 'c2r9', 'c3r9']);
  });

  test('a piece sent back causes nothing where it lands', () => {
    // Player 2 lands on c3r9 between player 3 (c2r9) and player 4 (c4r9); they stay.
    const state = after(makiTurn('111111111', ['c5r5', 'c3r4', 'c2r9', 'c4r9']), '1:c4r4');
    expect(board(state).makis).toEqual(['c4r4', 'c3r9', 'c2r9', 'c4r9']);
  });

  test('a pass sends nothing back', () => {
    // A setup may have a knight beside a Maki; only a move triggers the rule.
    const state = after(makiTurn('111151111', ['c4r5', 'c6r9']), '1:-');
    expect(board(state)).toEqual({ knights: '111151111', makis: ['c4r5', 'c6r9'], toMove: '2', winner: null });
  });

  test('a Maki on row 1 wins: in competitive play that player', () => {
    const state = after(makiTurn('222232222', ['c5r9', 'c5r2'], 2, 1), '2:c5r1');
    expect(board(state)).toEqual({ knights: '222232222', makis: ['c5r9', 'c5r1'], toMove: null, winner: '2' });
    expect(state.outcome).toEqual({ reason: 'maki-home', winner: 2 });
  });

  test('a Maki on row 1 wins: in cooperative play the team', () => {
    const state = position('222232222', ['c5r9', 'c5r2'], { phase: 'maki', roller: 1, toMove: 2 }, { mode: 'cooperative' });
    expect(board(after(state, '2:c6r1')).winner).toBe('team');
  });

  test('solitaire: reaching row 1 wins for player 1', () => {
    expect(board(after(makiTurn('222232222', ['c5r2']), '1:c4r1')).winner).toBe('1');
  });
});

// ---------------------------------------------------------------------------------------------
// Turns

describe('placement', () => {
  const start = (players: number) => unwrap(initial({ ...DEFAULT_OPTIONS, players }));

  test('each player in turn puts their Maki on an empty square of row 9; then player 1 rolls', () => {
    const state = after(start(3), '1@c5r9', '2@c2r9', '3@c8r9');
    expect(board(state)).toEqual({ knights: '111111111', makis: ['c5r9', 'c2r9', 'c8r9'], toMove: 'roll', winner: null });
    expect(state.roller).toBe(1);
  });

  test('while placing, the summary names the placer and lists only the Makis placed', () => {
    const state = after(start(3), '1@c5r9');
    expect(makisGame.summary(state)).toEqual({
      over: false,
      winner: null,
      toMove: '2',
      position: { knights: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1 }, makis: { 1: 'c5r9' } },
    });
  });

  test('only on row 9', () => {
    expect(refusal(start(2), '1@c5r8')).toEqual({ code: 'makis/not-row-9', message: 'a Maki is placed on row 9, not on c5r8' });
  });

  test('only on an empty square', () => {
    expect(refusal(after(start(2), '1@c5r9'), '2@c5r9')).toEqual({
      code: 'makis/square-taken',
      message: 'c5r9 is taken by the Maki of player 1',
    });
  });

  test('in seat order', () => {
    expect(refusal(start(3), '2@c5r9')).toEqual({ code: 'makis/not-your-turn', message: "it is player 1's turn, not player 2's" });
  });

  test('no roll and no Maki move before every Maki is placed', () => {
    expect(refusal(start(2), 'R1.2.3').code).toBe('makis/placement-expected');
    expect(refusal(start(2), '1:c5r8').code).toBe('makis/placement-expected');
  });

  test('a player the game does not have', () => {
    expect(refusal(start(3), '4@c5r9')).toEqual({
      code: 'makis/no-such-player',
      message: 'there is no player 4; this game has 3 players',
    });
  });

  test('placement lists one move per empty square of row 9', () => {
    const state = after(start(2), '1@c5r9');
    expect(legalMoves(state).map((m) => formatMove(m))).toEqual(['2@c1r9', '2@c2r9', '2@c3r9', '2@c4r9', '2@c6r9', '2@c7r9', '2@c8r9', '2@c9r9']);
  });

  test('a placement beside another Maki sends nothing back', () => {
    expect(board(after(start(2), '1@c5r9', '2@c4r9')).makis).toEqual(['c5r9', 'c4r9']);
  });
});

describe('rounds', () => {
  test('the Maki moves begin with the roller and go round the table; then the next player rolls', () => {
    let state = position('111111111', ['c1r9', 'c3r9', 'c5r9'], { roller: 2 });
    state = after(state, 'R2.5.5');
    expect(state.pending).toEqual([2, 3, 1]);
    expect(refusal(state, '1:c1r8')).toEqual({ code: 'makis/not-your-turn', message: "it is player 2's turn, not player 1's" });
    state = after(state, '2:-', '3:-');
    expect(board(state).toMove).toBe('1');
    state = after(state, '1:-');
    expect(board(state).toMove).toBe('roll');
    expect(state.roller).toBe(3);
  });

  test('after the last seat the first rolls again', () => {
    const state = after(position('111111111', ['c1r9', 'c3r9'], { roller: 2 }), 'R1.2.3', '2:-', '1:-');
    expect(state.roller).toBe(1);
  });

  test('no roll while Makis are still to move; no Maki move when a roll is due', () => {
    const state = after(position('111111111', ['c1r9', 'c3r9']), 'R1.2.3');
    expect(refusal(state, 'R1.2.3').code).toBe('makis/maki-move-expected');
    expect(refusal(position('111111111', ['c1r9', 'c3r9']), '1:c1r8')).toEqual({
      code: 'makis/roll-expected',
      message: 'it is time to roll the dice (player 1 rolls)',
    });
    expect(refusal(position('111111111', ['c1r9', 'c3r9']), '1@c2r9').code).toBe('makis/roll-expected');
  });

  test('a captured player is out: skipped in the Maki moves and as the next roller', () => {
    // Player 2 (c2r4) is captured by player 1's roll.
    let state = after(position('131111111', ['c7r9', 'c2r4', 'c9r9']), 'R2.1.4');
    expect(state.pending).toEqual([1, 3]);
    expect(refusal(state, '2:c2r5')).toEqual({
      code: 'makis/player-out',
      message: "player 2's Maki was captured; player 2 is out of the game",
    });
    state = after(state, '1:-', '3:-');
    expect(state.roller).toBe(3);
  });

  test("a roller captured by their own roll: the Maki moves begin with the next player still in", () => {
    let state = after(position('131111111', ['c9r9', 'c2r4', 'c7r9'], { roller: 2 }), 'R2.1.4');
    expect(state.pending).toEqual([3, 1]);
    state = after(state, '3:-', '1:-');
    expect(state.roller).toBe(3);
  });

  test('the last player left plays on alone in competitive play', () => {
    const state = after(position('131111111', ['c9r9', 'c2r4']), 'R2.1.4', '1:-');
    expect(board(state)).toEqual({ knights: '241211111', makis: ['c9r9', 'out'], toMove: 'roll', winner: null });
    expect(state.roller).toBe(1);
  });

  test('a captured Maki of a cooperative team is out; the team plays on', () => {
    const state = position('131111111', ['c9r9', 'c2r4'], {}, { mode: 'cooperative' });
    expect(board(after(state, 'R2.1.4'))).toEqual({ knights: '241211111', makis: ['c9r9', 'out'], toMove: '1', winner: null });
  });

  test('nothing is played after the end', () => {
    const over = after(position('433111111', ['c2r5']), 'R2.1.2');
    expect(refusal(over, 'R1.2.3')).toEqual({ code: 'makis/game-over', message: 'the game is over: the knights won: every Maki was captured' });
    expect(refusal(over, '1:-').code).toBe('makis/game-over');
    expect(legalMoves(over)).toEqual([]);
  });

  test('a roll lists the 135 possible rolls as its legal moves', () => {
    const moves = legalMoves(position('111111111', ['c5r9']));
    expect(moves).toHaveLength(135);
    expect(moves.every((m) => m.kind === 'roll' && canRoll(m.dice))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Options and setups

describe('options', () => {
  test('defaults: one player, competitive, knights on row 1', () => {
    expect(unwrap(parseOptions({}))).toEqual({ players: 1, mode: 'competitive', knights: [1, 1, 1, 1, 1, 1, 1, 1, 1] });
    const state = unwrap(initial());
    expect(board(state)).toEqual({ knights: '111111111', makis: [null], toMove: '1', winner: null });
  });

  test('the [Players] header sets the number of players', () => {
    expect(unwrap(parseOptions({}, new Map([['Players', '3']]))).players).toBe(3);
    expect(unwrap(parseOptions({ players: 3 }, new Map([['Players', '3']]))).players).toBe(3);
  });

  test('the [Players] header and the options must agree', () => {
    expect(parseOptions({ players: 2 }, new Map([['Players', '3']]))).toMatchObject({ ok: false, error: { code: 'options/invalid' } });
  });

  test('knights: nine rows as an array or keyed by column as replay prints them', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7, 8, 1];
    expect(unwrap(parseOptions({ knights: rows })).knights).toEqual(rows);
    const keyed = Object.fromEntries(rows.map((row, i) => [String(i + 1), row]));
    expect(unwrap(parseOptions({ knights: keyed })).knights).toEqual(rows);
    expect(unwrap(initial(unwrap(parseOptions({ knights: rows })))).knights).toEqual(rows);
  });

  test.each([
    ['players 0', { players: 0 }],
    ['players 6', { players: 6 }],
    ['players 2.5', { players: 2.5 }],
    ['a mode not in the rules', { mode: 'team' }],
    ['a knight on row 9', { knights: [1, 1, 1, 1, 9, 1, 1, 1, 1] }],
    ['a knight on row 0', { knights: [0, 1, 1, 1, 1, 1, 1, 1, 1] }],
    ['eight knights', { knights: [1, 1, 1, 1, 1, 1, 1, 1] }],
    ['a column missing', { knights: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 10: 1 } }],
    ['an unknown option', { size: 9 }],
  ])('refused: %s', (_, input) => {
    expect(parseOptions(input)).toMatchObject({ ok: false, error: { code: 'options/invalid' } });
  });

  test('a [Players] header outside 1–5 is refused', () => {
    expect(parseOptions({}, new Map([['Players', 'six']])).ok).toBe(false);
    expect(parseOptions({}, new Map([['Players', '0']])).ok).toBe(false);
  });
});

describe('fromSetup', () => {
  const setup = (s: Partial<MakisSetup>, players = 1) =>
    fromSetup({ knights: [1, 1, 1, 1, 1, 1, 1, 1, 1], makis: [sq('c5r9')], phase: 'roll', ...s }, { ...DEFAULT_OPTIONS, players });

  test('a Maki and a knight on one square are refused', () => {
    expect(setup({ makis: [sq('c5r1')] })).toMatchObject({ ok: false, error: { code: 'makis/setup-overlap' } });
  });

  test('two Makis on one square are refused', () => {
    expect(setup({ makis: [sq('c5r9'), sq('c5r9')] }, 2)).toMatchObject({ ok: false, error: { code: 'makis/setup-overlap' } });
  });

  test('one Maki per player', () => {
    expect(setup({}, 2)).toMatchObject({ ok: false, error: { code: 'makis/bad-setup' } });
  });

  test('a knight on row 9 is a finished game: the knights won', () => {
    expect(unwrap(setup({ knights: [1, 1, 1, 1, 1, 1, 1, 1, 9] })).outcome).toEqual({ reason: 'knight-home', winner: 'knights' });
  });

  test('a Maki on row 1 is a finished game: its player won', () => {
    expect(unwrap(setup({ knights: [2, 2, 2, 2, 2, 2, 2, 2, 2], makis: [sq('c1r9'), sq('c4r1')] }, 2)).outcome).toEqual({
      reason: 'maki-home',
      winner: 2,
    });
  });

  test('placing: the next placer is the first player without a Maki', () => {
    expect(unwrap(setup({ phase: 'place', makis: [sq('c5r9'), null, null] }, 3)).toMove).toBe(2);
    expect(setup({ phase: 'place', makis: [null, sq('c5r9')] }, 2).ok).toBe(false);
  });

  test('an out player cannot be the roller', () => {
    expect(setup({ makis: ['out', sq('c5r9')], roller: 1 }, 2).ok).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Notation

describe('notation', () => {
  test.each(['R2.5.5', 'R1.2.3', '1:c4r8', '2:-', '1@c5r9', '5:c9r1'])('%s reads and writes back', (token) => {
    expect(formatMove(move(token))).toBe(token);
  });

  test('the parts of a token', () => {
    expect(move('R2.5.5')).toEqual({ kind: 'roll', dice: [2, 5, 5] });
    expect(move('1:c4r8')).toEqual({ kind: 'maki', player: 1, to: sq('c4r8') });
    expect(move('2:-')).toEqual({ kind: 'maki', player: 2, to: null });
    expect(move('1@c5r9')).toEqual({ kind: 'place', player: 1, square: 8 * 9 + 4 });
    expect(sq('c1r1')).toBe(0);
    expect(sq('c9r9')).toBe(80);
  });

  test.each(['R1.2', 'X1.2.3', '1-c4r8', 'c4r8', '1@', ''])('"%s" is not a move', (token) => {
    expect(parseMove(token)).toMatchObject({ ok: false, error: { code: 'makis/bad-notation' } });
  });

  test.each(['1:d4', '1:c4', '1@c4r'])('"%s" names no square', (token) => {
    expect(parseMove(token)).toMatchObject({ ok: false, error: { code: 'makis/bad-square' } });
  });

  test.each(['1:c10r1', '1@c5r0'])('"%s" is off the board', (token) => {
    expect(parseMove(token)).toMatchObject({ ok: false, error: { code: 'makis/off-board' } });
  });
});

// ---------------------------------------------------------------------------------------------
// Random play

describe('random play', () => {
  /**
   * One random game; returns the states after every ply and the tokens played. Bold Makis step
   * towards row 1 three times in four when they can (purely random ones hardly ever get there).
   */
  function randomGame(options: MakisOptions, next: () => number, bold = false, maxPlies = 20_000) {
    let state = unwrap(initial(options));
    const states: MakisState[] = [state];
    const tokens: string[] = [];
    while (state.outcome === null && tokens.length < maxPlies) {
      let chosen: MakisMove;
      if (state.phase === 'roll') {
        chosen = { kind: 'roll', dice: ORDERED_ROLLS[next() % ORDERED_ROLLS.length] };
      } else {
        const moves = legalMoves(state);
        const row = (sq: number) => Math.floor(sq / 9);
        const from = state.makis[state.toMove - 1];
        const forward = moves.filter((m) => m.kind === 'maki' && m.to !== null && typeof from === 'number' && row(m.to) < row(from));
        const pool = bold && forward.length > 0 && next() % 4 !== 0 ? forward : moves;
        chosen = pool[next() % pool.length];
      }
      const played = play(state, chosen);
      if (!played.ok) throw new Error(`${formatMove(chosen)} refused: ${played.error.message}\n${drawBoard(state)}`);
      state = played.value;
      states.push(state);
      tokens.push(makisGame.formatMove(chosen, state));
    }
    return { states, tokens, final: state };
  }

  function checkInvariants(state: MakisState, previous: MakisState): void {
    for (const row of state.knights) expect(row >= 1 && row <= 9).toBe(true);
    expect(state.knights.filter((row) => row === 9).length > 0).toBe(state.outcome?.reason === 'knight-home');
    const squares = state.makis.filter((spot): spot is number => typeof spot === 'number');
    expect(new Set(squares).size).toBe(squares.length);
    for (const spot of squares) {
      const onKnight = state.knights[spot % 9] === Math.floor(spot / 9) + 1;
      // Only the roll that brings a knight home leaves a Maki where a knight stepped.
      if (onKnight) expect(state.outcome?.reason).toBe('knight-home');
    }
    previous.makis.forEach((spot, i) => {
      if (spot === 'out') expect(state.makis[i]).toBe('out');
    });
    expect(state.makis.some((spot) => typeof spot === 'number' && Math.floor(spot / 9) === 0)).toBe(state.outcome?.reason === 'maki-home');
  }

  test.each([
    [1, 'competitive'],
    [2, 'competitive'],
    [3, 'cooperative'],
    [5, 'competitive'],
    [5, 'cooperative'],
  ] as const)('%i players, %s: invariants hold and every game ends; replay agrees', (players, mode) => {
    const next = xorshift32(0x6d616b69 ^ (players * 31 + mode.length));
    const ends = new Set<string>();
    for (let game = 0; game < 150; game++) {
      const knights = game % 3 === 0 ? Array.from({ length: 9 }, () => 1 + (next() % 8)) : [1, 1, 1, 1, 1, 1, 1, 1, 1];
      const options: MakisOptions = { players, mode, knights };
      const { states, tokens, final } = randomGame(options, next, game % 2 === 1);
      expect(final.outcome).not.toBeNull();
      ends.add(final.outcome?.reason ?? 'none');
      for (let k = 1; k < states.length; k++) checkInvariants(states[k], states[k - 1]);
      if (game % 10 === 0) {
        const record = formatRecord({ Game: 'makis', Players: String(players), Options: JSON.stringify({ mode, knights }) }, tokens, players + 1);
        const { line, exitCode } = replay(makisGame, record);
        expect(exitCode).toBe(0);
        expect(line).toEqual({ ok: true, plies: tokens.length, ...makisGame.summary(final) });
      }
    }
    expect(ends.has('knight-home')).toBe(true);
    expect(ends.has('maki-home')).toBe(true);
    if (players < 5) expect(ends.has('all-captured')).toBe(true);
  });

  test('every move a random game chooses reads back from its notation', () => {
    const next = xorshift32(12345);
    const { states, tokens } = randomGame({ players: 4, mode: 'competitive', knights: [1, 1, 1, 1, 1, 1, 1, 1, 1] }, next);
    tokens.forEach((token, k) => {
      const parsed = unwrap(makisGame.parseMove(token, states[k]));
      expect(makisGame.formatMove(parsed, states[k])).toBe(token);
    });
  });
});
