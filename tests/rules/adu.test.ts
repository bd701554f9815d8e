// Adu engine: one named test per rule of RULES.md §4 (explicit board, one move, whole board compared), legal-move counts, notation.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_OPTIONS,
  declarableRanges,
  fromSetup,
  initial,
  legalMoves,
  merkskala,
  observe,
  parseOptions,
  placementDue,
  play,
  playersIn,
  whyIllegal,
} from '../../server/rules/adu.ts';
import type { AduMove, AduOptions, AduState } from '../../server/rules/adu.ts';
import type { RangeLedger } from '../../server/rules/adu-ranges.ts';
import {
  formatMove,
  formatPieces,
  parseMove,
  parsePieces,
  parseSquare,
  positionJson,
  stateFromPieces,
} from '../../server/rules/adu-notation.ts';

const options = (given: Partial<AduOptions> = {}): AduOptions => ({ ...DEFAULT_OPTIONS, ...given });

/** A moving-phase state from pieces as text (`1K1@d4 2S3@e5`). */
function at(
  pieces: string,
  toMove: number,
  given: Partial<AduOptions> = {},
  extra: { ledgers?: Record<number, RangeLedger>; supply?: number } = {},
): AduState {
  const result = stateFromPieces(pieces, toMove, options(given), extra);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function move(state: AduState, token: string): AduMove {
  const result = parseMove(token, state.options.size);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Plays tokens that must be legal. */
function after(state: AduState, ...tokens: string[]): AduState {
  for (const token of tokens) {
    const result = play(state, move(state, token));
    if (!result.ok) throw new Error(`${token}: ${result.error.message}`);
    state = result.value;
  }
  return state;
}

/** The error code and sentence of a move that must be illegal. */
function refusal(state: AduState, token: string): { code: string; message: string } {
  const result = play(state, move(state, token));
  if (result.ok) throw new Error(`${token} was accepted`);
  return { code: result.error.code, message: result.error.message };
}

const ledger = (longest: number[], declared: (number | null)[] = [null, null, null, null, null, null]): RangeLedger => ({
  longest,
  declared,
});

// Placement on the default board: player 1 along rank 1, player 2 along rank 13.
const PLACEMENT = ['K@a1', 'K@a13', 'S@b1', 'S@b13', 'S@c1', 'S@c13', 'S@d1', 'S@d13', 'S@e1', 'S@e13', 'S@f1', 'S@f13', 'S@g1', 'S@g13', 'K@h1', 'K@h13'];

describe('options', () => {
  test('defaults: two players, 13 × 13 intersections, no diagonals', () => {
    expect(parseOptions({})).toEqual({ ok: true, value: { players: 2, size: 13, diagonal: false } });
    expect(parseOptions(undefined)).toEqual({ ok: true, value: DEFAULT_OPTIONS });
  });

  test('the [Players] header sets the number of players', () => {
    expect(parseOptions({}, new Map([['Players', '3']]))).toEqual({ ok: true, value: { players: 3, size: 13, diagonal: false } });
    expect(parseOptions({ players: 3 }, new Map([['Players', '3']])).ok).toBe(true);
  });

  test('a [Players] header that disagrees with the option is refused', () => {
    const result = parseOptions({ players: 4 }, new Map([['Players', '3']]));
    expect(result).toEqual({
      ok: false,
      error: { code: 'options/invalid', message: 'The [Players "3"] header and the option players 4 disagree', params: { option: 'players' } },
    });
  });

  test.each([
    ['one player', { players: 1 }],
    ['seven players', { players: 7 }],
    ['a board of 6', { size: 6 }],
    ['a board of 20', { size: 20 }],
    ['diagonal as text', { diagonal: 'yes' }],
    ['an unknown option', { kings: 3 }],
    ['not an object', [2]],
  ])('refused: %s', (_, given) => {
    const result = parseOptions(given);
    expect(result.ok ? null : result.error.code).toBe('options/invalid');
  });

  test('a [Players] header with a bad count is refused', () => {
    expect(parseOptions({}, new Map([['Players', 'seven']])).ok).toBe(false);
    expect(parseOptions({}, new Map([['Players', '7']])).ok).toBe(false);
  });
});

describe('placement', () => {
  test('every player a king, then six rounds of one soldier each, then the second king, in turn order', () => {
    const state = after(initial(), ...PLACEMENT);
    expect(formatPieces(state)).toBe(
      '1K1@a1 1S1@b1 1S2@c1 1S3@d1 1S4@e1 1S5@f1 1S6@g1 1K2@h1 2K1@a13 2S1@b13 2S2@c13 2S3@d13 2S4@e13 2S5@f13 2S6@g13 2K2@h13',
    );
    expect(state.phase).toBe('play');
    expect(state.toMove).toBe(1);
    expect(state.plies).toBe(16);
  });

  test('who places what is due: K1 for all, then S1…S6, then K2', () => {
    let state = initial(options({ players: 3 }));
    const due: string[] = [];
    for (let k = 0; k < 24; k++) {
      const next = placementDue(state);
      due.push(`${next?.player}${next?.id}`);
      const placed = play(state, legalMoves(state)[0]);
      if (!placed.ok) throw new Error(placed.error.message);
      state = placed.value;
    }
    expect(due.join(' ')).toBe('1K1 2K1 3K1 1S1 2S1 3S1 1S2 2S2 3S2 1S3 2S3 3S3 1S4 2S4 3S4 1S5 2S5 3S5 1S6 2S6 3S6 1K2 2K2 3K2');
    expect(placementDue(state)).toBeNull();
  });

  test('placing the wrong kind of piece is refused', () => {
    expect(refusal(initial(), 'S@d4')).toEqual({ code: 'adu/wrong-placement', message: 'player 1 places a king (K1) now, not a soldier' });
    expect(refusal(after(initial(), 'K@a1', 'K@a13'), 'K@d4').code).toBe('adu/wrong-placement');
  });

  test('a piece goes on an empty intersection', () => {
    expect(refusal(after(initial(), 'K@d4'), 'K@d4')).toEqual({
      code: 'adu/square-taken',
      message: 'd4 is taken; a piece is placed on an empty intersection',
    });
  });

  test('nothing moves before every piece is placed', () => {
    expect(refusal(after(initial(), 'K@d4', 'K@j10'), 'd4-d5')).toEqual({
      code: 'adu/still-placing',
      message: 'pieces are still being placed: player 1 places a soldier (S1) now',
    });
  });

  test('nothing is placed once the pieces move', () => {
    expect(refusal(after(initial(), ...PLACEMENT), 'S@d4').code).toBe('adu/placement-over');
  });

  test('every empty intersection is a placement', () => {
    const moves = legalMoves(after(initial(), 'K@g7'));
    expect(moves).toHaveLength(168);
    expect(moves.every((m) => m.kind === 'place-king')).toBe(true);
  });
});

describe('moving', () => {
  const BOARD = '1K1@d4 1S1@f6 2S1@f10 2K1@m13';

  test('a soldier moves along a file onto an empty intersection', () => {
    const next = after(at(BOARD, 1), 'f6-f9');
    expect(formatPieces(next)).toBe('1K1@d4 1S1@f9 2S1@f10 2K1@m13');
    expect(next.toMove).toBe(2);
  });

  test('only along one straight line', () => {
    expect(refusal(at(BOARD, 1), 'f6-g8')).toEqual({
      code: 'adu/not-straight',
      message: 'f6 and g8 are not on one line; pieces move straight along ranks and files',
    });
  });

  test('diagonals only with the diagonal option', () => {
    expect(refusal(at(BOARD, 1), 'f6-h8').code).toBe('adu/not-straight');
    expect(formatPieces(after(at(BOARD, 1, { diagonal: true }), 'f6-h8'))).toBe('1K1@d4 1S1@h8 2S1@f10 2K1@m13');
    expect(formatPieces(after(at(BOARD, 1, { diagonal: true }), 'd4-e5'))).toBe('1K1@e5 1S1@f6 2S1@f10 2K1@m13');
  });

  test('no piece jumps over another', () => {
    expect(refusal(at(BOARD, 1), 'f6-f11')).toEqual({
      code: 'adu/jump',
      message: 'the way from f6 to f11 is blocked on f10; a piece never jumps',
    });
  });

  test('a king moves exactly one step', () => {
    expect(refusal(at(BOARD, 1), 'd4-d6')).toEqual({ code: 'adu/king-one-step', message: 'a king moves exactly one step; d4 to d6 is 2' });
    expect(formatPieces(after(at(BOARD, 1), 'd4-c4'))).toBe('1K1@c4 1S1@f6 2S1@f10 2K1@m13');
  });

  test('a reserve king never moves', () => {
    expect(refusal(at(`${BOARD} 1R1@c3`, 1), 'c3-c2')).toEqual({ code: 'adu/reserve-immobile', message: 'the reserve king R1 on c3 never moves' });
  });

  test('a move ends on an empty intersection, not on an own piece', () => {
    const state = at('1K1@d4 1S1@d5 2K1@m13', 1);
    expect(refusal(state, 'd4-d5')).toEqual({
      code: 'adu/own-piece',
      message: 'd5 holds your own S1; a move ends on an empty intersection or captures',
    });
    expect(refusal(state, 'd4xd5').code).toBe('adu/own-piece');
  });

  test('ending on an opponent piece is a capture, and a capture needs one', () => {
    expect(refusal(at(BOARD, 1), 'f6-f10')).toEqual({
      code: 'adu/square-occupied',
      message: 'f10 holds a piece of player 2; ending there is a capture, not a plain move',
    });
    expect(refusal(at(BOARD, 1), 'f6xf9')).toEqual({ code: 'adu/nothing-to-capture', message: 'there is no piece on f9 to capture' });
  });

  test('only the pieces of the player to move, only where a piece stands, and not standing still', () => {
    expect(refusal(at(BOARD, 1), 'f10-f11')).toEqual({
      code: 'adu/not-your-piece',
      message: "the piece on f10 belongs to player 2; it is player 1's turn",
    });
    expect(refusal(at(BOARD, 1), 'a1-a2')).toEqual({ code: 'adu/no-piece', message: 'there is no piece on a1' });
    expect(refusal(at(BOARD, 1), 'f6-f6').code).toBe('adu/same-square');
  });
});

describe('soldier ranges', () => {
  test('a soldier nothing is known of may move six steps, and is then the six', () => {
    const next = after(at('1K1@a1 1S1@c1 2K1@m13', 1), 'c1-c7');
    expect(next.ledgers[0].longest).toEqual([6, 0, 0, 0, 0, 0]);
    expect(merkskala(next)).toEqual({ '1': { S1: [6] } });
  });

  test('no soldier moves seven steps', () => {
    expect(refusal(at('1K1@a1 1S1@c1 2K1@m13', 1), 'c1-c8').code).toBe('adu/range-exceeded');
  });

  test('a move the ranges left cannot cover is refused', () => {
    // S1 moved 6, S2 moved 5, S4 moved 4: S3 holds 1, 2 or 3.
    const state = at('1K1@a1 1S3@c1 2K1@m13', 1, {}, { ledgers: { 1: ledger([6, 5, 0, 4, 0, 0]) } });
    expect(refusal(state, 'c1-c5')).toEqual({
      code: 'adu/range-exceeded',
      message: 'S3 cannot move 4 steps: the ranges left for your soldiers do not allow it',
    });
    expect(whyIllegal(state, move(state, 'c1-c5'))?.params).toMatchObject({ piece: 'S3', steps: 4, most: 3 });
    expect(formatPieces(after(state, 'c1-c4'))).toBe('1K1@a1 1S3@c4 2K1@m13');
  });

  test('a move narrows the Merkskala of the soldier and of the others', () => {
    const state = at('1K1@a1 1S1@c1 1S2@d1 2K1@m13', 1, {}, { ledgers: { 1: ledger([0, 5, 0, 0, 0, 0]) } });
    expect(merkskala(state)).toEqual({ '1': { S1: [1, 2, 3, 4, 5, 6], S2: [5, 6] } });
    expect(merkskala(after(state, 'c1-c6'))).toEqual({ '1': { S1: [5, 6], S2: [5, 6] } });
  });

  test("the seed's example: all moved one step, one captured is declared the Einser, the others may move two without revealing more", () => {
    const moved = ledger([1, 1, 1, 1, 1, 1]);
    const pieces = '1K1@a1 1S1@c3 2S1@c4 2S2@e3 2S3@g3 2S4@i3 2S5@k3 2S6@m3 2K1@m13';
    const state = at(pieces, 1, {}, { ledgers: { 2: moved } });
    // Player 1 captures S1; player 2 declares nothing, so the lowest consistent value: 1.
    const captured = after(state, 'c3xc4');
    expect(captured.ledgers[1].declared).toEqual([1, null, null, null, null, null]);
    const two = [2, 3, 4, 5, 6];
    expect(merkskala(captured)['2']).toEqual({ S2: two, S3: two, S4: two, S5: two, S6: two });
    // Each of the others now moves two steps; the Merkskala stays as it was.
    let state2 = captured;
    for (const [token, reply] of [['e3-e5', 'a1-a2'], ['g3-g5', 'a2-a1'], ['i3-i5', 'a1-a2'], ['k3-k5', 'a2-a1'], ['m3-m5', null]] as const) {
      state2 = after(state2, token);
      expect(merkskala(state2)['2']).toEqual({ S2: two, S3: two, S4: two, S5: two, S6: two });
      if (reply) state2 = after(state2, reply);
    }
  });

  test('the Merkskala lists only soldiers on the board, and only players who have some', () => {
    const state = at('1K1@a1 1S4@c3 2K1@m13', 1, {}, { ledgers: { 1: ledger([0, 0, 0, 2, 0, 0], [null, 1, null, null, null, null]) } });
    expect(merkskala(state)).toEqual({ '1': { S4: [2, 3, 4, 5, 6] } });
  });
});

describe('captures', () => {
  const SOLDIERS = '1K1@a1 1S1@c3 2S2@c6 2K1@m13 2K2@k13';

  test("a captured soldier's owner declares the lowest consistent range unless they say otherwise", () => {
    const state = at(SOLDIERS, 1, {}, { ledgers: { 2: ledger([0, 3, 0, 0, 0, 0]) } });
    const next = after(state, 'c3xc6');
    expect(formatPieces(next)).toBe('1K1@a1 1S1@c6 2K2@k13 2K1@m13');
    expect(next.ledgers[1].declared).toEqual([null, 3, null, null, null, null]);
    expect(after(state, 'c3xc6=5').ledgers[1].declared).toEqual([null, 5, null, null, null, null]);
  });

  test('the declared range must still be consistent', () => {
    const state = at(SOLDIERS, 1, {}, { ledgers: { 2: ledger([0, 3, 6, 0, 0, 0]) } });
    expect(declarableRanges(state, parseSquareOrThrow('c6'))).toEqual([3, 4, 5]);
    expect(refusal(state, 'c3xc6=6')).toEqual({
      code: 'adu/declare-inconsistent',
      message: 'S2 of player 2 cannot be declared 6: the ranges still consistent are 3, 4, 5',
    });
    expect(refusal(state, 'c3xc6=2').code).toBe('adu/declare-inconsistent');
    expect(refusal(state, 'c3xc6=9').code).toBe('adu/declare-inconsistent');
  });

  test('only a soldier is declared, and a soldier earns no reserve king', () => {
    const kings = at('1K1@a1 1S1@c3 2K1@c6 2K2@m13', 1);
    expect(refusal(kings, 'c3xc6=2R@a2')).toEqual({
      code: 'adu/declare-not-soldier',
      message: "only a captured soldier's range is declared, and K1 is a king",
    });
    expect(refusal(at(SOLDIERS, 1), 'c3xc6R@a2').code).toBe('adu/reserve-not-earned');
  });

  test('a captured king earns a reserve king, placed on an empty intersection in the same move', () => {
    const state = at('1K1@a1 1S1@c3 2K1@c6 2K2@m13', 1);
    expect(refusal(state, 'c3xc6')).toEqual({
      code: 'adu/reserve-missing',
      message: 'capturing K1 earns a reserve king; name the empty intersection it goes on',
    });
    expect(refusal(state, 'c3xc6R@m13')).toEqual({
      code: 'adu/reserve-square-taken',
      message: 'm13 is taken; the reserve king goes on an empty intersection',
    });
    expect(refusal(state, 'c3xc6R@c6').code).toBe('adu/reserve-square-taken');
    const next = after(state, 'c3xc6R@h8');
    expect(formatPieces(next)).toBe('1K1@a1 1S1@c6 1R1@h8 2K2@m13');
    expect(next.supply).toBe(9);
    // The intersection the capturer left is free for it.
    expect(formatPieces(after(state, 'c3xc6R@c3'))).toBe('1K1@a1 1R1@c3 1S1@c6 2K2@m13');
  });

  test('a captured reserve king earns one too; reserve kings are numbered per player', () => {
    const state = at('1K1@a1 1R1@b1 1S1@c3 2R1@c6 2K2@m13', 1, {}, { supply: 5 });
    const next = after(state, 'c3xc6R@h8');
    expect(formatPieces(next)).toBe('1K1@a1 1R1@b1 1S1@c6 1R2@h8 2K2@m13');
    expect(next.supply).toBe(4);
  });

  test('with the supply used up a captured king earns nothing', () => {
    const state = at('1K1@a1 1S1@c3 2K1@c6 2K2@m13', 1, {}, { supply: 0 });
    expect(formatPieces(after(state, 'c3xc6'))).toBe('1K1@a1 1S1@c6 2K2@m13');
    expect(refusal(state, 'c3xc6R@h8')).toEqual({
      code: 'adu/supply-empty',
      message: 'the supply of reserve kings is used up; none can be placed',
    });
  });

  test('a player whose last king falls is out, their pieces leave the board, and the turn skips them', () => {
    const state = at('1K1@a1 1S1@c3 2K1@c6 2S1@e6 2S2@f7 3K1@m13', 1, { players: 3 });
    // The reserve king may take an intersection the player who is out has just left.
    const next = after(state, 'c3xc6R@e6');
    expect(formatPieces(next)).toBe('1K1@a1 1S1@c6 1R1@e6 3K1@m13');
    expect(playersIn(next)).toEqual([1, 3]);
    expect(next.toMove).toBe(3);
    expect(next.passed).toEqual([]);
    expect(merkskala(next)).toEqual({ '1': { S1: [3, 4, 5, 6] } });
  });

  test('the last player with a king wins; no reserve king is taken then', () => {
    const state = at('1K1@a1 1S1@c3 2K1@c6 2S1@h8', 1);
    const next = after(state, 'c3xc6');
    expect(next.outcome).toEqual({ reason: 'last-king', winner: 1, players: [1] });
    expect(next.phase).toBe('over');
    expect(formatPieces(next)).toBe('1K1@a1 1S1@c6');
    expect(next.supply).toBe(10);
    expect(refusal(state, 'c3xc6R@h9')).toEqual({
      code: 'adu/reserve-not-earned',
      message: 'capturing K1 ends the game, so no reserve king is placed',
    });
  });

  test('nothing is played after the end', () => {
    const over = after(at('1K1@a1 1S1@c3 2K1@c6', 1), 'c3xc6');
    expect(refusal(over, 'a1-a2')).toEqual({ code: 'adu/game-over', message: 'the game is over: player 1 won as the last player with a king' });
    expect(legalMoves(over)).toEqual([]);
  });
});

describe('turns and the end', () => {
  test('a player with no legal move passes by themselves', () => {
    // Player 2 has only a reserve king, which never moves.
    const state = at('1K1@a1 1S1@c3 2R1@h8 3K1@m13', 1, { players: 3 });
    const next = after(state, 'c3-c4');
    expect(next.toMove).toBe(3);
    expect(next.passed).toEqual([2]);
    expect(after(next, 'm13-m12').toMove).toBe(1);
  });

  test('a king boxed in by its own pieces has no move', () => {
    const state = at('1K1@a1 1R1@a2 1R2@b1 2K1@m13', 2, {}, { supply: 8 });
    expect(after(state, 'm13-m12').toMove).toBe(2);
    expect(after(state, 'm13-m12').passed).toEqual([1]);
  });

  test('when nobody can move the game is drawn among the players still in', () => {
    // After the capture player 1's king sits in the corner between two of its own reserve kings;
    // player 2 has only a reserve king left.
    const state = at('1K1@b1 1R1@a2 2K1@a1 2R1@m13', 1, {}, { supply: 8 });
    const next = after(state, 'b1xa1R@b1');
    expect(formatPieces(next)).toBe('1K1@a1 1R2@b1 1R1@a2 2R1@m13');
    expect(next.outcome).toEqual({ reason: 'no-moves', winner: 'draw', players: [1, 2] });
  });

  test('a setup where nobody can move is drawn at once', () => {
    expect(at('1R1@a1 2R1@m13', 1).outcome).toEqual({ reason: 'no-moves', winner: 'draw', players: [1, 2] });
  });

  test('the third occurrence of a position with the same player to move draws', () => {
    const start = at('1K1@a1 2K1@m13 3K1@g7', 1, { players: 3 });
    const round = ['a1-a2', 'm13-m12', 'g7-g8', 'a2-a1', 'm12-m13', 'g8-g7'];
    const again = after(start, ...round);
    expect(again.outcome).toBeNull();
    const almost = after(again, ...round.slice(0, 5));
    expect(almost.outcome).toBeNull();
    const third = after(almost, 'g8-g7');
    expect(third.outcome).toEqual({ reason: 'repetition', winner: 'draw', players: [1, 2, 3] });
  });

  test('a longer soldier move changes the position for repetition (the Merkskala knows more)', () => {
    const start = at('1K1@a1 1S1@c3 2K1@m13', 1);
    // c3-c5 is the longest move yet, so the positions before it cannot recur.
    const moved = after(start, 'c3-c5', 'm13-m12', 'c5-c3', 'm12-m13', 'c3-c5', 'm13-m12', 'c5-c3', 'm12-m13');
    expect(moved.outcome).toBeNull();
    expect(after(moved, 'c3-c5').outcome?.reason).toBe('repetition');
  });
});

describe('fromSetup', () => {
  test.each([
    ['two pieces on one intersection', '1K1@a1 1S1@a1 2K1@m13', 1, {}, 'two pieces stand on a1'],
    ['two pieces with one name', '1K1@a1 1K1@b1 2K1@m13', 1, {}, 'player 1 has two pieces named K1'],
    ['a piece of a player without a king', '1K1@a1 2S1@c3', 1, {}, 'player 2 has no king, so is out of the game, yet has a piece on c3'],
    ['a player to move who is out', '1K1@a1 2K1@m13', 3, {}, 'the player to move must be a player still in the game (one with a king)'],
    [
      'a captured soldier on the board',
      '1K1@a1 1S2@c3 2K1@m13',
      1,
      { ledgers: { 1: ledger([0, 0, 0, 0, 0, 0], [null, 4, null, null, null, null]) } },
      'S2 of player 1 stands on c3, but only a captured soldier has a declared range',
    ],
    [
      'ranges that cannot be dealt',
      '1K1@a1 2K1@m13',
      1,
      { ledgers: { 1: ledger([6, 6, 0, 0, 0, 0]) } },
      "player 1's soldiers cannot all be given different ranges from 1 to 6 that cover their moves",
    ],
    ['more reserve kings than there are', '1K1@a1 1R1@b1 2K1@m13', 1, { supply: 10 }, 'the supply holds 0 to 9 reserve kings: 10 less the 1 on the board'],
  ])('refuses %s', (_, pieces, toMove, extra, message) => {
    const parsed = parsePieces(pieces, 13);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const result = fromSetup({ pieces: parsed.value, toMove, ...extra }, options({ players: 2 }));
    expect(result.ok ? null : result.error).toMatchObject({ code: 'adu/bad-setup', message });
  });

  test('a setup with one player left is won', () => {
    expect(at('1K1@a1 1S1@c3', 1).outcome).toEqual({ reason: 'last-king', winner: 1, players: [1] });
  });

  test('the supply defaults to ten less the reserve kings on the board', () => {
    expect(at('1K1@a1 1R1@b1 2R1@m13', 1).supply).toBe(8);
  });

  test('occupancy is what the sensors see', () => {
    const state = at('1K1@a1 2K1@c1', 1, { size: 7 });
    expect(observe(state).slice(0, 7)).toEqual([1, 0, 1, 0, 0, 0, 0]);
    expect(observe(state).reduce((a, b) => a + b, 0)).toBe(2);
  });
});

function parseSquareOrThrow(name: string, size = 13): number {
  const result = parseSquare(name, size);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('legal moves', () => {
  test.each([
    ['a king in the open: four steps', '1K1@g7 2K1@a13', {}, {}, 4],
    ['a king in the open with diagonals: eight', '1K1@g7 2K1@a13', { diagonal: true }, {}, 8],
    ['a king in the corner: two', '1K1@a1 2K1@m13', {}, {}, 2],
    ['a fresh soldier in the open: six each way', '1K1@a1 1S1@g7 2K1@b13', {}, {}, 2 + 24],
    // Towards a1 the soldier meets its own king after five steps.
    ['a fresh soldier with diagonals', '1K1@a1 1S1@g7 2K1@b13', { diagonal: true }, {}, 3 + 24 + 6 + 6 + 6 + 5],
    ['a soldier that can be at most the three', '1K1@a1 1S1@g7 2K1@m13', {}, { ledgers: { 1: ledger([0, 4, 4, 4, 0, 0]) } }, 2 + 12],
    ['a soldier stopped by its own piece and by a capture', '1K1@a1 1S1@g7 1S2@g9 2S1@j7 2K1@m13', {}, {}, 2 + (1 + 3 + 6 + 6) + (4 + 1 + 6 + 6)],
    ['a reserve king adds none', '1R1@a1 1K1@m1 2K1@m13', {}, {}, 2],
  ])('%s', (_, pieces, given, extra, count) => {
    expect(legalMoves(at(pieces, 1, given, extra))).toHaveLength(count);
  });

  test('a soldier capture is listed once, a king capture once per free intersection for the reserve king', () => {
    const soldier = legalMoves(at('1K1@a1 1S1@g7 2S1@g8 2K1@m13', 1)).filter((m) => m.kind === 'capture');
    expect(soldier).toEqual([{ kind: 'capture', from: parseSquareOrThrow('g7'), to: parseSquareOrThrow('g8'), declare: null, reserve: null }]);
    const king = legalMoves(at('1K1@a1 1S1@g7 2K2@g8 2K1@m13', 1)).filter((m) => m.kind === 'capture');
    // 169 intersections less the three still taken after the capture (a1, g8, m13).
    expect(king).toHaveLength(166);
    expect(king.some((m) => m.kind === 'capture' && m.reserve === parseSquareOrThrow('g7'))).toBe(true);
  });

  test('every legal move plays, and some moves that are not listed are refused', () => {
    const state = at('1K1@a1 1S1@g7 1S2@g9 2S1@j7 2K1@m13 2K2@g4', 1, {}, { ledgers: { 1: ledger([0, 0, 3, 3, 3, 0]) } });
    const legal = legalMoves(state);
    for (const m of legal) expect(whyIllegal(state, m)).toBeNull();
    const listed = new Set(legal.map((m) => formatMove(m, 13)));
    let refused = 0;
    for (let to = 0; to < 169; to++) {
      const token = formatMove({ kind: 'move', from: parseSquareOrThrow('g7'), to }, 13);
      if (listed.has(token)) continue;
      expect(play(state, { kind: 'move', from: parseSquareOrThrow('g7'), to }).ok).toBe(false);
      refused++;
    }
    expect(refused).toBeGreaterThan(100);
  });
});

describe('notation', () => {
  test.each(['K@d4', 'S@e5', 'd4-d7', 'd4xd7', 'd4xd7=1', 'e5xe9R@h8', 'a1xm13'])('%s reads and writes back', (token) => {
    const parsed = parseMove(token, 13);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(formatMove(parsed.value, 13)).toBe(token);
  });

  test('moves are plain data', () => {
    expect(parseMove('e5xe9R@h8', 13)).toEqual({
      ok: true,
      value: { kind: 'capture', from: parseSquareOrThrow('e5'), to: parseSquareOrThrow('e9'), declare: null, reserve: parseSquareOrThrow('h8') },
    });
    expect(parseMove('d4xd7=2', 13)).toMatchObject({ ok: true, value: { declare: 2, reserve: null } });
  });

  test('letters may be written in either case', () => {
    const parsed = parseMove('k@D4', 13);
    expect(parsed.ok && formatMove(parsed.value, 13)).toBe('K@d4');
    const capture = parseMove('E5XE9r@H8', 13);
    expect(capture.ok && formatMove(capture.value, 13)).toBe('e5xe9R@h8');
  });

  test.each([
    ['a pass', '-', 'adu/bad-notation'],
    ['a piece letter', 'Kd4-d5', 'adu/bad-notation'],
    ['a declaration without a value', 'd4xd7=', 'adu/bad-notation'],
    ['an intersection off the board', 'n1-n2', 'adu/off-board'],
    ['rank 14', 'a14-a13', 'adu/off-board'],
  ])('refused: %s', (_, token, code) => {
    const parsed = parseMove(token, 13);
    expect(parsed.ok ? null : parsed.error.code).toBe(code);
  });

  test('pieces as text read and write back', () => {
    const state = at('2K1@m13 1S3@e5 1K1@d4 1R2@h8', 1);
    expect(formatPieces(state)).toBe('1K1@d4 1S3@e5 1R2@h8 2K1@m13');
    expect(parsePieces('1X1@d4', 13).ok).toBe(false);
  });

  test('the replay position: pieces in cell order, the Merkskala, the supply', () => {
    const state = at('1K1@d4 1S3@e5 1R1@h8 2K1@m13', 1, {}, { ledgers: { 1: ledger([0, 0, 2, 0, 0, 0]) } });
    expect(JSON.stringify(positionJson(state))).toBe(
      '{"pieces":{"d4":{"player":1,"kind":"king","id":"K1"},"e5":{"player":1,"kind":"soldier","id":"S3"},' +
        '"h8":{"player":1,"kind":"reserve","id":"R1"},"m13":{"player":2,"kind":"king","id":"K1"}},' +
        '"ranges":{"1":{"S3":[2,3,4,5,6]}},"supply":9}',
    );
  });
});
