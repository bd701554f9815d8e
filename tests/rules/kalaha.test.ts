// Kalaha engine: one named test per rule of RULES.md §1 (explicit board, one move, whole board compared),
// legal-move counts by table, and random play checking invariants against replay and the fast core.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_OPTIONS,
  KalahaCore,
  PITS,
  capturesSuspended,
  endByAgreement,
  fromSetup,
  initial,
  legalMoves,
  observe,
  owner,
  parseOptions,
  play,
  sowing,
  whyIllegal,
  type KalahaOptions,
  type KalahaSetup,
  type KalahaState,
} from '../../server/rules/kalaha.ts';
import {
  formatMove,
  formatPosition,
  kalahaGame,
  parseMove,
  parsePosition,
  stateFromPosition,
} from '../../server/rules/kalaha-notation.ts';
import { formatRecord } from '../../server/rules/record.ts';
import { replay } from '../../server/rules/replay.ts';
import { xorshift32 as random } from '../support/prng.ts';

/** A state from position notation: `A–F / a–f / store south, north / player to move`. */
function at(position: string, options: Partial<KalahaOptions> = {}): KalahaState {
  const parsed = parseOptions(options);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const state = stateFromPosition(position, parsed.value);
  if (!state.ok) throw new Error(state.error.message);
  return state.value;
}

function sow(state: KalahaState, letters: string): KalahaState {
  for (const letter of letters.split(' ')) {
    const move = parseMove(letter);
    if (!move.ok) throw new Error(move.error.message);
    const next = play(state, move.value);
    if (!next.ok) throw new Error(`${letter}: ${next.error.message}`);
    state = next.value;
  }
  return state;
}

/** The error code and params of an illegal move, given by letter. */
function refusal(state: KalahaState, letter: string) {
  const move = parseMove(letter);
  if (!move.ok) throw new Error(move.error.message);
  const result = play(state, move.value);
  if (result.ok) throw new Error(`${letter} was accepted`);
  return result.error;
}

const letters = (state: KalahaState) => legalMoves(state).map(formatMove).join(' ');
const board = formatPosition;

describe('start', () => {
  test('4 stones in every pit, stores empty, south to move', () => {
    const state = initial();
    expect(board(state)).toBe('4 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south');
    expect(state.outcome).toBeNull();
    expect(observe(state).reduce((a, b) => a + b, 0)).toBe(48);
  });

  test('options that bypassed parseOptions are a programming error', () => {
    expect(() => initial({ ...DEFAULT_OPTIONS, seedsPerPit: 30 })).toThrow(RangeError);
    expect(board(initial({ ...DEFAULT_OPTIONS, seedsPerPit: 6 }))).toBe('6 6 6 6 6 6 / 6 6 6 6 6 6 / 0 0 / south');
  });

  test('seedsPerPit 3 gives the 36-stone variant', () => {
    const options = parseOptions({ seedsPerPit: 3 });
    expect(options.ok).toBe(true);
    const state = initial(options.ok ? options.value : DEFAULT_OPTIONS);
    expect(board(state)).toBe('3 3 3 3 3 3 / 3 3 3 3 3 3 / 0 0 / south');
    expect(observe(state).reduce((a, b) => a + b, 0)).toBe(36);
  });
});

describe('sowing', () => {
  test('south sows counter-clockwise from its row into north’s, one stone a pit', () => {
    const next = sow(at('0 0 0 1 0 3 / 4 4 4 4 4 4 / 0 0 / south'), 'F');
    expect(board(next)).toBe('0 0 0 1 0 0 / 5 5 5 4 4 4 / 0 0 / north');
  });

  test('north’s sowing goes on from f to A; stores are never sown', () => {
    const next = sow(initial(), 'C e');
    expect(board(next)).toBe('5 5 1 5 5 5 / 5 4 4 4 0 5 / 0 0 / south');
  });

  test('south’s sowing goes on from f to A past both stores', () => {
    const next = sow(at('4 4 4 4 8 4 / 4 4 4 4 4 4 / 0 0 / south'), 'E');
    expect(board(next)).toBe('5 4 4 4 0 5 / 5 5 5 5 5 5 / 0 0 / north');
  });

  test('skipOrigin (default): with 12 stones the emptied pit is skipped', () => {
    const next = sow(at('12 0 0 0 0 0 / 4 4 4 4 4 4 / 0 0 / south'), 'A');
    expect(board(next)).toBe('0 2 1 1 1 1 / 5 5 5 5 5 5 / 0 0 / north');
  });

  test('skipOrigin false: the 12th stone falls back into the emptied pit, which captures nothing', () => {
    const next = sow(at('12 0 0 0 0 0 / 4 4 4 4 4 4 / 0 0 / south', { skipOrigin: false }), 'A');
    expect(board(next)).toBe('1 1 1 1 1 1 / 5 5 5 5 5 5 / 0 0 / north');
  });

  test('a sowing of 13 skips its pit, laps on and captures where its last stone falls', () => {
    const next = sow(at('0 0 0 0 0 13 / 4 1 4 4 4 4 / 0 0 / south'), 'F');
    expect(board(next)).toBe('1 1 1 1 1 0 / 6 0 5 5 5 5 / 3 0 / north');
  });
});

describe('capture', () => {
  test('the last stone makes 2 in an opponent pit: captured', () => {
    const next = sow(at('1 0 0 0 0 1 / 1 4 4 4 4 4 / 0 0 / south'), 'F');
    expect(board(next)).toBe('1 0 0 0 0 0 / 0 4 4 4 4 4 / 2 0 / north');
  });

  test('the last stone makes 3 in an opponent pit: captured', () => {
    const next = sow(at('1 0 0 0 0 1 / 2 4 4 4 4 4 / 0 0 / south'), 'F');
    expect(board(next)).toBe('1 0 0 0 0 0 / 0 4 4 4 4 4 / 3 0 / north');
  });

  test.each([
    ['4 stones', '1 0 0 0 0 1 / 3 4 4 4 4 4 / 0 0 / south', '1 0 0 0 0 0 / 4 4 4 4 4 4 / 0 0 / north'],
    ['1 stone', '1 0 0 0 0 1 / 0 4 4 4 4 4 / 0 0 / south', '1 0 0 0 0 0 / 1 4 4 4 4 4 / 0 0 / north'],
  ])('no capture when the opponent pit then holds %s', (_, before, after) => {
    expect(board(sow(at(before), 'F'))).toBe(after);
  });

  test('no capture in the sower’s own row, even with 2 or 3', () => {
    const next = sow(at('0 0 0 2 0 1 / 4 4 4 4 4 4 / 0 0 / south'), 'D');
    expect(board(next)).toBe('0 0 0 0 1 2 / 4 4 4 4 4 4 / 0 0 / north');
  });

  test('the chain runs backwards over 2s and 3s and stops at the first pit that does not qualify', () => {
    // E sows F a b c d: d 1→2, c 2→3 captured; b 4→5 stops the chain, so a (now 2) stays.
    const next = sow(at('0 0 0 0 5 0 / 1 4 2 1 4 4 / 0 0 / south'), 'E');
    expect(board(next)).toBe('0 0 0 0 0 1 / 2 5 0 0 4 4 / 5 0 / north');
  });

  test.each([
    // e sows f A B: B and A hold 2 and are captured; f, north's own, holds 2 but is not.
    ['north', '1 1 4 4 4 4 / 4 4 4 4 3 1 / 0 0 / north', 'e', '0 0 4 4 4 4 / 4 4 4 4 0 2 / 0 4 / south'],
    // D sows E F a b: b (3) and a (2) are captured; F, south's own, holds 2 but is not.
    ['south', '0 0 0 4 1 1 / 1 2 4 4 4 4 / 0 0 / south', 'D', '0 0 0 0 2 2 / 0 0 4 4 4 4 / 5 0 / north'],
  ])('the chain stops at the end of the opponent’s row (%s sows)', (_, before, letter, after) => {
    expect(board(sow(at(before), letter))).toBe(after);
  });

  test('seed example: C e F d — north sows d: e f A B C, captures the 2 in C, B (6) stops the chain', () => {
    let state = initial();
    state = sow(state, 'C');
    expect(board(state)).toBe('4 4 0 5 5 5 / 5 4 4 4 4 4 / 0 0 / north');
    state = sow(state, 'e');
    expect(board(state)).toBe('5 5 1 5 5 5 / 5 4 4 4 0 5 / 0 0 / south');
    state = sow(state, 'F');
    expect(board(state)).toBe('5 5 1 5 5 0 / 6 5 5 5 1 5 / 0 0 / north');
    const physical = sowing(state, PITS.indexOf('d'));
    expect(physical).toEqual({ afterSow: [6, 6, 2, 5, 5, 0, 6, 5, 5, 0, 2, 6, 0, 0], lastPit: 2, captures: [2], captured: 2 });
    state = sow(state, 'd');
    expect(board(state)).toBe('6 6 0 5 5 0 / 6 5 5 0 2 6 / 0 2 / south');
  });
});

describe('forbidden moves', () => {
  test('a capture of 12 or more stones is forbidden while another move exists', () => {
    // F sows a…f: f e d c b become 2 2 3 3 3 = 13; a (6) ends the chain and north keeps stones.
    const state = at('1 0 0 0 0 6 / 5 2 2 2 1 1 / 0 0 / south');
    expect(letters(state)).toBe('A');
    const error = refusal(state, 'F');
    expect(error).toEqual({
      code: 'kalaha/forbidden-capture',
      message: 'Pit F would capture 13 stones — not allowed (captures of 12 or more are forbidden).',
      params: { pit: 'F', stones: 13 },
    });
    expect(whyIllegal(state, { kind: 'sow', pit: 5 })).toEqual(error);
  });

  test.each([
    [11, '5 2 1 1 1 1', true],
    [12, '5 2 2 1 1 1', false],
  ])('a capture of %i stones: allowed %s', (stones, north, allowed) => {
    const state = at(`1 0 0 0 0 6 / ${north} / 0 0 / south`);
    expect(sowing(state, 5).captured).toBe(stones);
    expect(letters(state)).toBe(allowed ? 'A F' : 'A');
  });

  test('forbiddenCaptureAtLeast moves the limit', () => {
    const state = at('1 0 0 0 0 6 / 5 2 2 2 1 1 / 0 0 / south', { forbiddenCaptureAtLeast: 14 });
    expect(letters(state)).toBe('A F');
    expect(board(sow(state, 'F'))).toBe('1 0 0 0 0 0 / 6 0 0 0 0 0 / 13 0 / north');
  });

  test.each([
    [2, '1 0 0 0 0 1 / 1 0 0 0 0 0 / 0 0 / south'],
    [3, '1 0 0 0 0 1 / 2 0 0 0 0 0 / 0 0 / south'],
    [5, '1 0 0 0 0 2 / 1 2 0 0 0 0 / 0 0 / south'],
  ])('a capture that takes every stone on the opponent’s side is unfair, so forbidden (%i stones)', (stones, position) => {
    const state = at(position);
    expect(letters(state)).toBe('A');
    expect(refusal(state, 'F')).toEqual({
      code: 'kalaha/unfair-capture',
      message: `Pit F would capture every stone on north's side (${stones} stones) — not allowed.`,
      params: { pit: 'F', stones },
    });
  });

  test('a capture that leaves the opponent one stone is fair', () => {
    const next = sow(at('1 0 0 0 0 1 / 1 0 0 0 0 1 / 0 0 / south'), 'F');
    expect(board(next)).toBe('1 0 0 0 0 0 / 0 0 0 0 0 1 / 2 0 / north');
  });

  test('when every move is forbidden, any of them is played and captures nothing', () => {
    // E (a 1→2, every north stone) and F (the same) are both unfair; nothing else to play.
    const state = at('0 0 0 0 2 1 / 1 0 0 0 0 0 / 0 0 / south');
    expect(letters(state)).toBe('E F');
    expect(capturesSuspended(state)).toBe(true);
    expect(board(sow(state, 'E'))).toBe('0 0 0 0 0 2 / 2 0 0 0 0 0 / 0 0 / north');
    expect(board(sow(state, 'F'))).toBe('0 0 0 0 2 0 / 2 0 0 0 0 0 / 0 0 / north');
    expect(capturesSuspended(initial())).toBe(false);
  });

  test('the capture-nothing fallback does not open empty pits or the opponent’s pits', () => {
    const state = at('0 0 0 0 2 1 / 1 0 0 0 0 0 / 0 0 / south');
    expect(refusal(state, 'A').code).toBe('kalaha/empty-pit');
    expect(refusal(state, 'a').code).toBe('kalaha/not-your-pit');
  });
});

describe('feeding', () => {
  test('with the opponent’s row empty, only moves that reach it are legal', () => {
    const state = at('1 0 0 0 0 2 / 0 0 0 0 0 0 / 10 10 / south');
    expect(letters(state)).toBe('F');
    expect(refusal(state, 'A')).toEqual({
      code: 'kalaha/must-feed',
      message: "North has no stones left, so south must sow into north's row; pit A does not reach it.",
      params: { pit: 'A' },
    });
    expect(board(sow(state, 'F'))).toBe('1 0 0 0 0 0 / 1 1 0 0 0 0 / 10 10 / north');
  });

  test('a forbidden feeding move gives way to a feeding move that is not forbidden', () => {
    // F (17) would lap twice and take 12; E feeds a with one stone and captures nothing.
    const state = at('0 0 0 0 2 17 / 0 0 0 0 0 0 / 0 0 / south');
    expect(letters(state)).toBe('E');
    expect(refusal(state, 'F')).toMatchObject({ code: 'kalaha/forbidden-capture', params: { pit: 'F', stones: 12 } });
  });

  test('when every feeding move is forbidden, one is played capturing nothing; a non-feeding move stays illegal', () => {
    const state = at('1 0 0 0 0 17 / 0 0 0 0 0 0 / 0 0 / south');
    expect(letters(state)).toBe('F');
    expect(capturesSuspended(state)).toBe(true);
    expect(refusal(state, 'A').code).toBe('kalaha/must-feed');
    expect(board(sow(state, 'F'))).toBe('2 1 1 1 1 0 / 2 2 2 2 2 2 / 0 0 / north');
  });
});

describe('end of game', () => {
  test('1. the player to move has no stones: the other takes the stones in their own pits', () => {
    const state = at('0 0 0 0 0 0 / 1 2 0 0 0 0 / 5 4 / south');
    expect(board(state)).toBe('0 0 0 0 0 0 / 0 0 0 0 0 0 / 5 7 / over');
    expect(state.outcome).toEqual({ reason: 'no-stones', winner: 'north' });
    expect(legalMoves(state)).toEqual([]);
  });

  test('2. the player to move must feed and cannot: they take the stones in their own pits', () => {
    // F feeds a (4→5, no capture); now north must feed south and a needs 6 stones to reach A.
    const next = sow(at('0 0 0 0 0 1 / 4 0 0 0 0 0 / 3 5 / south'), 'F');
    expect(board(next)).toBe('0 0 0 0 0 0 / 0 0 0 0 0 0 / 3 10 / over');
    expect(next.outcome).toEqual({ reason: 'cannot-feed', winner: 'north' });
    expect(next.toMove).toBe('north');
    expect(next.plies).toBe(1);
  });

  test('2. also for a set-up position', () => {
    const state = at('3 0 0 0 0 0 / 0 0 0 0 0 0 / 20 25 / south');
    expect(board(state)).toBe('0 0 0 0 0 0 / 0 0 0 0 0 0 / 23 25 / over');
    expect(state.outcome).toEqual({ reason: 'cannot-feed', winner: 'north' });
  });

  test('3. the third occurrence of a position ends the game; each takes their own pits', () => {
    // Two single stones chase each other round the board: the start recurs every 12 plies.
    const lap = 'A a B b C c D d E e F f';
    const start = at('1 0 0 0 0 0 / 1 0 0 0 0 0 / 0 0 / south');
    const once = sow(start, lap);
    expect(board(once)).toBe('1 0 0 0 0 0 / 1 0 0 0 0 0 / 0 0 / south');
    expect(once.outcome).toBeNull();
    const almost = sow(once, lap.split(' ').slice(0, 11).join(' '));
    expect(almost.outcome).toBeNull();
    const twice = sow(almost, 'f');
    expect(board(twice)).toBe('0 0 0 0 0 0 / 0 0 0 0 0 0 / 1 1 / over');
    expect(twice.outcome).toEqual({ reason: 'repetition', winner: 'draw' });
    expect(twice.plies).toBe(24);
  });

  test('3. a state rebuilt from its position starts a fresh repetition count', () => {
    const lap = 'A a B b C c D d E e F f';
    const once = sow(at('1 0 0 0 0 0 / 1 0 0 0 0 0 / 0 0 / south'), lap);
    const rebuilt = fromSetup({ pits: once.pits, stores: once.stores, toMove: once.toMove });
    expect(rebuilt.ok && sow(rebuilt.value, lap).outcome).toBeNull();
    expect(sow(once, lap).outcome?.reason).toBe('repetition');
  });

  test('4. by agreement each takes the stones in their own pits; more stones wins', () => {
    const state = sow(initial(), 'C e F d');
    const ended = endByAgreement(state);
    expect(ended.ok && board(ended.value)).toBe('0 0 0 0 0 0 / 0 0 0 0 0 0 / 22 26 / over');
    expect(ended.ok && ended.value.outcome).toEqual({ reason: 'agreement', winner: 'north' });
    expect(ended.ok && endByAgreement(ended.value)).toMatchObject({ ok: false, error: { code: 'kalaha/game-over' } });
  });

  test('equal stones is a draw', () => {
    const ended = endByAgreement(initial());
    expect(ended.ok && ended.value.outcome).toEqual({ reason: 'agreement', winner: 'draw' });
  });

  test('no move after the end', () => {
    const over = at('0 0 0 0 0 0 / 1 2 0 0 0 0 / 5 4 / north');
    expect(refusal(over, 'a')).toEqual({ code: 'kalaha/game-over', message: 'The game is over; no more moves can be played.' });
  });
});

describe('illegal moves are values, named by letter', () => {
  const state = at('0 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south');
  test.each([
    ['an opponent’s pit', { kind: 'sow', pit: 7 }, 'kalaha/not-your-pit', "Pit b belongs to north, but it is south's turn."],
    ['an empty pit', { kind: 'sow', pit: 0 }, 'kalaha/empty-pit', 'Pit A is empty.'],
    ['pit 12', { kind: 'sow', pit: 12 }, 'kalaha/no-such-pit', 'There is no pit 12; the pits are 0–11 (A–F for south, a–f for north).'],
    ['pit -1', { kind: 'sow', pit: -1 }, 'kalaha/no-such-pit', 'There is no pit -1; the pits are 0–11 (A–F for south, a–f for north).'],
    ['pit 1.5', { kind: 'sow', pit: 1.5 }, 'kalaha/no-such-pit', 'There is no pit 1.5; the pits are 0–11 (A–F for south, a–f for north).'],
    ['another kind of move', { kind: 'pass', pit: 1 }, 'kalaha/malformed-move', 'A Kalaha move sows one pit: {kind: "sow", pit: 0–11}.'],
  ])('%s', (_, move, code, message) => {
    const result = play(state, move as never);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe(code);
    expect(!result.ok && result.error.message).toBe(message);
    expect(whyIllegal(state, move as never)?.code).toBe(code);
  });

  test('whyIllegal is null exactly for the legal moves', () => {
    for (const s of [initial(), state, at('0 0 0 0 2 17 / 0 0 0 0 0 0 / 0 0 / south')]) {
      const legal = PITS.map((_, pit) => pit).filter((pit) => whyIllegal(s, { kind: 'sow', pit }) === null);
      expect(legal).toEqual(legalMoves(s).map((m) => m.pit));
    }
  });
});

describe('sowing, observe, owner', () => {
  test('sowing gives the physical outcome of a forbidden move: what a person would do', () => {
    const state = at('1 0 0 0 0 1 / 1 0 0 0 0 0 / 0 0 / south');
    expect(sowing(state, 5)).toEqual({
      afterSow: [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
      lastPit: 6,
      captures: [6],
      captured: 2,
    });
  });

  test('sowing an opponent’s pit captures as if its owner sowed it', () => {
    const state = at('1 2 0 0 0 0 / 0 0 0 0 0 3 / 0 0 / south');
    expect(sowing(state, 11)).toEqual({
      afterSow: [2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      lastPit: 2,
      captures: [],
      captured: 0,
    });
    const north = at('1 2 0 0 0 0 / 0 0 0 0 0 2 / 0 0 / south');
    expect(sowing(north, 11).captures).toEqual([1, 0]);
  });

  test('sowing an empty pit moves nothing', () => {
    expect(sowing(initial(), 12)).toEqual({ afterSow: observe(initial()), lastPit: -1, captures: [], captured: 0 });
    const state = at('0 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south');
    expect(sowing(state, 0).lastPit).toBe(-1);
  });

  test('observe reads pits A…F, a…f, then the stores of south and north', () => {
    const state = at('1 2 3 4 5 6 / 7 8 9 10 11 12 / 13 14 / north');
    expect(observe(state)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  test('owner: A–F are south’s, a–f north’s', () => {
    expect(PITS.map((_, pit) => owner(pit)).join(' ')).toBe(
      'south south south south south south north north north north north north',
    );
  });
});

describe('fromSetup refuses bad input without throwing', () => {
  const good: KalahaSetup = { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], stores: [0, 0], toMove: 'south' };
  test.each([
    ['11 pits', { ...good, pits: good.pits.slice(1) }],
    ['13 pits', { ...good, pits: [...good.pits, 4] }],
    ['a negative count', { ...good, pits: [-1, ...good.pits.slice(1)] }],
    ['a fraction', { ...good, pits: [1.5, ...good.pits.slice(1)] }],
    ['NaN', { ...good, pits: [NaN, ...good.pits.slice(1)] }],
    ['a string count', { ...good, pits: ['4', ...good.pits.slice(1)] }],
    ['one store', { ...good, stores: [0] }],
    ['a negative store', { ...good, stores: [0, -2] }],
    ['no pits', { ...good, pits: undefined }],
    ['an unknown side', { ...good, toMove: 'east' }],
    ['too many stones', { ...good, stores: [200, 100] }],
    ['null', null],
  ])('%s', (_, setup) => {
    const result = fromSetup(setup as never);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('kalaha/bad-setup');
  });

  test('a good setup is accepted as given', () => {
    const result = fromSetup(good);
    expect(result.ok && board(result.value)).toBe('4 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south');
  });
});

describe('options', () => {
  test('defaults, and a partial object merged over them', () => {
    expect(parseOptions(undefined)).toEqual({ ok: true, value: DEFAULT_OPTIONS });
    expect(parseOptions({ skipOrigin: false })).toEqual({
      ok: true,
      value: { seedsPerPit: 4, skipOrigin: false, forbiddenCaptureAtLeast: 12 },
    });
  });

  test.each([
    ['an unknown option', { seeds: 3 }],
    ['seedsPerPit 0', { seedsPerPit: 0 }],
    ['seedsPerPit 2.5', { seedsPerPit: 2.5 }],
    ['seedsPerPit 21', { seedsPerPit: 21 }],
    ['skipOrigin as a string', { skipOrigin: 'yes' }],
    ['forbiddenCaptureAtLeast 0', { forbiddenCaptureAtLeast: 0 }],
    ['an array', [3]],
    ['a number', 3],
  ])('%s is refused', (_, input) => {
    const result = parseOptions(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('options/invalid');
  });
});

describe('notation', () => {
  test('moves are pit letters, case telling the side', () => {
    expect(parseMove('C')).toEqual({ ok: true, value: { kind: 'sow', pit: 2 } });
    expect(parseMove('c')).toEqual({ ok: true, value: { kind: 'sow', pit: 8 } });
    for (const bad of ['G', 'g', 'CC', '', '1', 'sow C']) {
      expect(parseMove(bad)).toMatchObject({ ok: false, error: { code: 'kalaha/unreadable-move' } });
    }
    expect(PITS.map((_, pit) => formatMove({ kind: 'sow', pit })).join('')).toBe('ABCDEFabcdef');
  });

  test('positions read back as written', () => {
    const text = '0 13 2 1 0 9 / 4 0 3 3 1 0 / 7 5 / north';
    const setup = parsePosition(text);
    expect(setup.ok && board(setup.value)).toBe(text);
    expect(parsePosition('4 4 4 / 4 4 4 4 4 4 / 0 0 / south').ok).toBe(false);
    expect(parsePosition('4 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / west').ok).toBe(false);
  });
});

describe('legal moves by position', () => {
  test.each([
    ['the start', '4 4 4 4 4 4 / 4 4 4 4 4 4 / 0 0 / south', 6],
    ['north after C e F', '5 5 1 5 5 0 / 6 5 5 5 1 5 / 0 0 / north', 6],
    ['empty pits do not count', '0 4 0 4 0 4 / 4 4 4 4 4 4 / 0 0 / south', 3],
    ['north with two stones left', '4 4 4 4 4 4 / 0 0 1 0 0 1 / 10 12 / north', 2],
    ['must feed: only F reaches', '1 0 0 0 0 2 / 0 0 0 0 0 0 / 10 10 / south', 1],
    ['must feed: every pit reaches', '6 5 4 3 2 1 / 0 0 0 0 0 0 / 0 0 / south', 6],
    ['must feed: five of six reach', '5 5 4 3 2 1 / 0 0 0 0 0 0 / 0 0 / south', 5],
    ['the capture of 13 is forbidden', '1 0 0 0 0 6 / 5 2 2 2 1 1 / 0 0 / south', 1],
    ['the unfair capture is forbidden', '1 0 0 0 0 1 / 1 0 0 0 0 0 / 0 0 / south', 1],
    ['all forbidden: both may be played', '0 0 0 0 2 1 / 1 0 0 0 0 0 / 0 0 / south', 2],
    ['must feed and cannot: over', '3 0 0 0 0 0 / 0 0 0 0 0 0 / 0 0 / south', 0],
    ['no stones to move: over', '0 0 0 0 0 0 / 4 0 0 0 0 0 / 0 0 / south', 0],
  ])('%s: %s → %i', (_, position, count) => {
    expect(legalMoves(at(position))).toHaveLength(count);
  });
});

describe('random play', () => {
  const total = (s: KalahaState) => observe(s).reduce((a, b) => a + b, 0);
  const sum = (cells: readonly number[], from: number) => cells.slice(from, from + 6).reduce((a, b) => a + b, 0);

  /**
   * RULES.md §1 written out plainly from the physical sowing, as an oracle for legalMoves and play:
   * the legal pits, and whether captures are suspended (every candidate forbidden).
   */
  function reference(state: KalahaState): { pits: number[]; fallback: boolean } {
    const own = state.toMove === 'south' ? 0 : 6;
    const opp = 6 - own;
    const cells = observe(state);
    const candidates: number[] = [];
    const allowed: number[] = [];
    for (let pit = own; pit < own + 6; pit++) {
      if (cells[pit] === 0) continue;
      const s = sowing(state, pit);
      if (sum(cells, opp) === 0 && sum(s.afterSow, opp) === 0) continue;
      candidates.push(pit);
      const unfair = s.captured > 0 && s.captured === sum(s.afterSow, opp);
      if (s.captured < state.options.forbiddenCaptureAtLeast && !unfair) allowed.push(pit);
    }
    return allowed.length > 0 ? { pits: allowed, fallback: false } : { pits: candidates, fallback: true };
  }

  test.each([
    ['default rules', {}, 2000],
    ['36 stones', { seedsPerPit: 3 }, 500],
    ['no skipping of the origin', { skipOrigin: false }, 500],
    ['captures of 6 forbidden', { forbiddenCaptureAtLeast: 6 }, 500],
  ])('%s: stones conserved, counts never negative, every game ends, replay and fast core agree', (_, given, games) => {
    const parsed = parseOptions(given);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const options = parsed.value;
    const next = random(0x9e3779b9 ^ games ^ options.seedsPerPit);
    const core = new KalahaCore(options);
    const endings = new Set<string>();
    const problems: string[] = [];
    let fallbacks = 0;
    for (let g = 0; g < games && problems.length === 0; g++) {
      let state = initial(options);
      const stones = total(state);
      core.reset();
      const moves: string[] = [];
      const problem = (what: string) => problems.push(`game ${g}, ply ${state.plies} (${moves.join(' ')}): ${what}`);
      while (state.outcome === null && problems.length === 0) {
        const legal = legalMoves(state);
        if (legal.length === 0) problem('no legal move in a game not over');
        const mask = legal.reduce((m, move) => m | (1 << move.pit), 0);
        if ((core.legalMask() & 0xfff) !== mask) problem(`the fast core allows ${core.legalMask() & 0xfff}, play() ${mask}`);
        const expected = reference(state);
        if (expected.pits.join() !== legal.map((m) => m.pit).join()) problem(`legal ${letters(state)}, expected ${expected.pits}`);
        if (capturesSuspended(state) !== expected.fallback) problem('captures suspended or not, unlike the rules');
        if (expected.fallback) fallbacks++;
        const move = legal[next() % legal.length];
        const result = play(state, move);
        if (!result.ok) {
          problem(result.error.message);
          break;
        }
        // The board after the move is the sowing, less its capture unless suspended (until the game ends).
        const physical = sowing(state, move.pit);
        const after = [...physical.afterSow];
        if (!expected.fallback) {
          for (const pit of physical.captures) after[state.toMove === 'south' ? 12 : 13] += after[pit];
          for (const pit of physical.captures) after[pit] = 0;
        }
        if (result.value.outcome === null && after.join() !== observe(result.value).join()) problem(`board ${board(result.value)}`);
        state = result.value;
        core.play(move.pit);
        moves.push(formatMove(move));
        if (total(state) !== stones) problem(`${total(state)} stones instead of ${stones}`);
        if (Math.min(...observe(state)) < 0) problem(`a negative count: ${board(state)}`);
        if (state.plies >= 5000) problem('the game does not end');
      }
      if (state.outcome === null) break;
      endings.add(state.outcome.reason);
      expect(core.toState()).toEqual(state);
      const record = formatRecord({ Game: 'kalaha', Options: JSON.stringify(given) }, moves);
      const replayed = replay(kalahaGame, record);
      expect(replayed.exitCode).toBe(0);
      expect(replayed.line).toEqual({ ok: true, plies: moves.length, ...kalahaGame.summary(state) });
    }
    expect(problems).toEqual([]);
    // The games reach the interesting rules, or this test would prove little.
    expect(endings).toContain('repetition');
    expect(endings).toContain('cannot-feed');
    if (games >= 2000) expect(fallbacks).toBeGreaterThan(0);
  });
});

describe('KalahaCore, the fast core', () => {
  test('playRandom plays only legal moves and ends where play() ends', () => {
    const next = random(7);
    const core = new KalahaCore();
    const problems: string[] = [];
    for (let g = 0; g < 300; g++) {
      core.reset();
      let state = initial();
      for (;;) {
        const mask = core.legalMask();
        const pit = core.playRandom(next);
        if (pit < 0) break;
        if ((mask & (1 << pit)) === 0) problems.push(`game ${g}: pit ${PITS[pit]} is not legal in ${board(state)}`);
        const result = play(state, { kind: 'sow', pit });
        if (!result.ok) break;
        state = result.value;
      }
      expect(core.toState()).toEqual(state);
    }
    expect(problems).toEqual([]);
  });

  test('playRandom draws evenly among the legal moves, never the forbidden one', () => {
    // A and D are legal; F would capture 13 and is forbidden.
    const core = new KalahaCore();
    const state = at('1 0 0 1 0 6 / 5 2 2 2 1 1 / 0 0 / south');
    const next = random(99);
    const drawn: Record<string, number> = {};
    for (let k = 0; k < 3000; k++) {
      core.load(state);
      const pit = core.playRandom(next);
      drawn[PITS[pit]] = (drawn[PITS[pit]] ?? 0) + 1;
    }
    expect(Object.keys(drawn).sort()).toEqual(['A', 'D']);
    expect(drawn.A).toBeGreaterThan(1350);
    expect(drawn.D).toBeGreaterThan(1350);
  });

  test('when every move is forbidden, playRandom plays one capturing nothing', () => {
    const core = new KalahaCore();
    core.load(at('0 0 0 0 2 1 / 1 0 0 0 0 0 / 0 0 / south'));
    expect(core.legalMask() & 0xfff).toBe(0b110000);
    const pit = core.playRandom(random(3));
    expect(core.cells[12] + core.cells[13]).toBe(0);
    expect(pit === 4 || pit === 5).toBe(true);
  });

  test('play refuses an illegal pit and changes nothing', () => {
    const core = new KalahaCore();
    core.load(at('1 0 0 0 0 6 / 5 2 2 2 1 1 / 0 0 / south'));
    expect(core.play(5)).toBe(false);
    expect(core.play(6)).toBe(false);
    expect(core.play(12)).toBe(false);
    expect(board(core.toState())).toBe('1 0 0 0 0 6 / 5 2 2 2 1 1 / 0 0 / south');
    expect(core.play(0)).toBe(true);
  });

  test('the same pits with the other player to move are another position', () => {
    // Found by search: the board of the last ply has occurred twice before with north to move
    // and once with south; counted together the game would end here, counted apart it goes on.
    const start = '1 2 1 1 0 0 / 1 0 0 0 0 0 / 0 0 / south';
    const moves =
      'A a B b D c F a C d E a F e D a E f F b A d B c C e D a E b F f A c B a C d D f E b A c B d F a C b D c ' +
      'E d F e A f B a A b D c B d C e E f A a D b E c B d C e F a D b E f F c A a B d C e D b E c F f A d B e ' +
      'C f A a D b F c E a F d B a C e D b E c F f A';
    const state = sow(at(start), moves);
    expect(state.outcome).toBeNull();
    const core = new KalahaCore();
    core.load(at(start));
    for (const letter of moves.split(' ')) expect(core.play(PITS.indexOf(letter as never))).toBe(true);
    expect(core.ending).toBeNull();
    expect(core.toState()).toEqual(state);
  });

  test('endings and agreement as in the immutable API', () => {
    const core = new KalahaCore();
    core.load(at('3 0 0 0 0 0 / 0 0 0 0 0 0 / 20 25 / south'));
    expect(core.ending).toBe('cannot-feed');
    expect(core.playRandom(random(1))).toBe(-1);
    core.reset();
    expect(core.endByAgreement()).toBe(true);
    expect(core.winner()).toBe('draw');
    expect(core.endByAgreement()).toBe(false);
  });
});
