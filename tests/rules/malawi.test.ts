// Tests of the Malawi engine, its notation and its GameDefinition (RULES.md §2).
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_OPTIONS,
  fromSetup,
  initial,
  legalMoves,
  observe,
  observeCounts,
  parseOptions,
  play,
  threatenedBy,
  whyIllegal,
  whyIllegalMoveTo,
} from '../../server/rules/malawi.ts';
import type { MalawiMove, MalawiOptions, MalawiState } from '../../server/rules/malawi.ts';
import {
  formatMove,
  formatPosition,
  parseMove,
  parsePosition,
  parseSquare,
  positionJson,
} from '../../server/rules/malawi-notation.ts';
import { malawiGame } from '../../server/rules/malawi-game.ts';
import { mulberry32 as seeded } from '../support/prng.ts';

const START = 'n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south';

function position(text: string, options: Partial<MalawiOptions> = {}): MalawiState {
  const result = parsePosition(text, { ...DEFAULT_OPTIONS, ...options });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function move(state: MalawiState, token: string): MalawiMove {
  const result = parseMove(token, state.options.size);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Plays tokens that must be legal. */
function after(state: MalawiState, ...tokens: string[]): MalawiState {
  for (const token of tokens) {
    const result = play(state, move(state, token));
    if (!result.ok) throw new Error(`${token}: ${result.error.message}`);
    state = result.value;
  }
  return state;
}

/** The error code and sentence of a move that must be illegal. */
function refusal(state: MalawiState, token: string): { code: string; message: string } {
  const result = play(state, move(state, token));
  if (result.ok) throw new Error(`${token} was accepted`);
  return { code: result.error.code, message: result.error.message };
}

const sq = (name: string, size = 6): number => {
  const result = parseSquare(name, size);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('start', () => {
  test('six pieces of strength 2 on each baseline, south to move', () => {
    const state = initial();
    expect(formatPosition(state)).toBe(START);
    expect(state.outcome).toBeNull();
    expect(state.plies).toBe(0);
  });

  test('on a larger board each side fills its baseline', () => {
    const state = initial({ ...DEFAULT_OPTIONS, size: 8 });
    expect(formatPosition(state)).toBe(
      'n2n2n2n2n2n2n2n2/......../......../......../......../......../......../s2s2s2s2s2s2s2s2 south',
    );
  });
});

describe('move (b1)', () => {
  test('a piece of strength 2 moves exactly two squares', () => {
    expect(formatPosition(after(initial(), 'c1-c3'))).toBe(
      'n2n2n2n2n2n2/....../....../..s2.../....../s2s2.s2s2s2 north',
    );
  });

  test('a piece of strength 3 moves sideways exactly three squares', () => {
    const state = position('n2...../....../....../s3...../....../.s1.... south');
    expect(formatPosition(after(state, 'a3-d3'))).toBe('n2...../....../....../...s3../....../.s1.... north');
  });

  test('moving another distance is refused with the distance in words', () => {
    expect(refusal(initial(), 'c1-c4')).toEqual({
      code: 'malawi/wrong-distance',
      message: 'the piece on c1 has strength 2 and must move exactly two squares, not three',
    });
    expect(refusal(initial(), 'c1-c2').code).toBe('malawi/wrong-distance');
  });

  test('every square passed must be empty', () => {
    const state = position('n2...../....../....../..n0.../....../..s3... south');
    expect(refusal(state, 'c1-c4')).toEqual({
      code: 'malawi/path-blocked',
      message: 'the way from c1 to c4 is blocked by the piece on c3; every square passed must be empty',
    });
    expect(refusal(initial(), 'a1-c1').code).toBe('malawi/path-blocked');
  });

  test('only straight along a rank or file', () => {
    expect(refusal(initial(), 'c1-d2').code).toBe('malawi/not-straight');
  });

  test('a move cannot end on a piece', () => {
    const own = position('n2...../....../....../..s1.../....../..s2... south');
    expect(refusal(own, 'c1-c3').code).toBe('malawi/square-occupied');
    const zero = position('n2...../....../....../..n0.../....../..s2... south');
    expect(refusal(zero, 'c1-c3').code).toBe('malawi/square-occupied');
  });

  test('a piece of strength 0 cannot move', () => {
    const state = position('n2...../....../....../....../....../s0s1.... south');
    expect(refusal(state, 'a1-a1').code).toBe('malawi/strength-zero');
    expect(refusal(state, 'a1>b1').code).toBe('malawi/strength-zero');
  });

  test('only pieces of the side to move, only where a piece stands', () => {
    expect(refusal(initial(), 'a6-a4')).toEqual({
      code: 'malawi/not-your-piece',
      message: "the piece on a6 belongs to north; it is south's turn",
    });
    expect(refusal(initial(), 'a3-a5')).toEqual({ code: 'malawi/no-piece', message: 'there is no piece on a3' });
  });
});

describe('capture (b3)', () => {
  test('the attacked piece drops to strength 0 and both pieces stay', () => {
    const state = position('n2...../....../..n3.../....../..s2.../s2..... south');
    expect(formatPosition(after(state, 'c2xc4'))).toBe('n2...../....../..n0.../....../..s2.../s2..... north');
  });

  test('a piece of strength 0 cannot be attacked', () => {
    const state = position('n2...../....../..n0.../....../..s2.../s2..... south');
    expect(refusal(state, 'c2xc4').code).toBe('malawi/capture-zero');
    expect(legalMoves(state).some((m) => m.kind === 'capture')).toBe(false);
  });

  test('the capture must end exactly on the piece, over empty squares', () => {
    const far = position('n2...../....../..n3.../....../....../..s2... south');
    expect(refusal(far, 'c1xc4').code).toBe('malawi/wrong-distance');
    const blocked = position('n2...../....../..n3.../..n1.../..s2.../s2..... south');
    expect(refusal(blocked, 'c2xc4').code).toBe('malawi/path-blocked');
  });

  test('a capture needs an opponent piece on the end square', () => {
    expect(refusal(initial(), 'c1xc3').code).toBe('malawi/nothing-to-capture');
    const own = position('n2...../....../....../..s1.../....../..s2... south');
    expect(refusal(own, 'c1xc3').code).toBe('malawi/capture-own');
  });
});

describe('distribute (b2)', () => {
  test('the piece drops to 0 and each recipient gains one bead', () => {
    const state = position('n2...../....../....../....../....../s1s2.s3s4. south');
    expect(formatPosition(after(state, 'd1>a1,b1,e1'))).toBe('n2...../....../....../....../....../s2s3.s0s5. north');
  });

  test('beads not placed are lost', () => {
    const state = position('n2...../....../....../....../....../s1s2.s3s4. south');
    const next = after(state, 'd1>a1');
    expect(formatPosition(next)).toBe('n2...../....../....../....../....../s2s2.s0s4. north');
  });

  test('a piece of strength 0 may receive and so revives', () => {
    const state = position('n2...../....../....../....../....../s0s2.... south');
    expect(formatPosition(after(state, 'b1>a1'))).toBe('n2...../....../....../....../....../s1s0.... north');
  });

  test('at most as many recipients as the strength', () => {
    const state = position('n2...../....../....../....../....../s1s2s1s1.. south');
    expect(refusal(state, 'b1>a1,c1,d1')).toEqual({
      code: 'malawi/too-many-recipients',
      message: 'the piece on b1 has strength 2 and can give one bead each to at most two pieces',
    });
  });

  test('at most five recipients however strong the piece', () => {
    const options = { size: 8, maxStrength: 7 };
    const state = position('n2......./......../......../......../......../......../......../s7s0s0s0s0s0s0. south', options);
    expect(refusal(state, 'a1>b1,c1,d1,e1,f1,g1').code).toBe('malawi/too-many-recipients');
    expect(formatPosition(after(state, 'a1>b1,c1,d1,e1,f1'))).toBe(
      'n2......./......../......../......../......../......../......../s0s1s1s1s1s1s0. north',
    );
  });

  test('no recipient may exceed the maximum strength', () => {
    const state = position('n2...../....../....../....../....../s5s2.... south');
    expect(refusal(state, 'b1>a1')).toEqual({
      code: 'malawi/recipient-full',
      message: 'the piece on a1 already has the maximum strength 5 and cannot take a bead',
    });
    const six = position('n2...../....../....../....../....../s5s2.... south', { maxStrength: 6 });
    expect(formatPosition(after(six, 'b1>a1'))).toBe('n2...../....../....../....../....../s6s0.... north');
  });

  test('without an eligible recipient distributing is not a move', () => {
    const state = position('n2...../....../....../....../....../s5s2.... south');
    expect(legalMoves(state).filter((m) => m.kind === 'distribute').map((m) => formatMove(m, 6))).toEqual(['a1>b1']);
    const result = play(state, { kind: 'distribute', from: sq('b1'), recipients: [] });
    expect(!result.ok && result.error.code).toBe('malawi/no-recipients');
  });

  test('recipients are other own pieces, each named once', () => {
    const state = position('n2...../....../....../....../....../s1s2s1... south');
    expect(refusal(state, 'b1>b1').code).toBe('malawi/recipient-self');
    expect(refusal(state, 'b1>a1,a1').code).toBe('malawi/recipient-twice');
    expect(refusal(state, 'b1>d1').code).toBe('malawi/recipient-not-own');
    expect(refusal(state, 'b1>a6').code).toBe('malawi/recipient-not-own');
  });
});

describe('winning (3a, 3b) and the draw', () => {
  // South's a4 (s2) can reach a6; north's f6 (n2) is too far to answer on a6.
  const REACH = '....n0n2/....../s2...../....../....../s0..... south';

  test('3a: a piece reaching the opponent baseline unthreatened wins at once', () => {
    const next = after(position(REACH), 'a4-a6');
    expect(formatPosition(next)).toBe('s2...n0n2/....../....../....../....../s0..... north');
    expect(next.outcome).toEqual({ reason: 'baseline', winner: 'south' });
    expect(malawiGame.summary(next)).toMatchObject({ over: true, winner: 'south', toMove: null });
  });

  test('3a: no win while an opponent piece could capture it there', () => {
    // b6 (n1) reaches a6 in one step.
    const state = position('.n1...n0/....../s2...../....../....../s0.s1... south');
    const next = after(state, 'a4-a6');
    expect(next.outcome).toBeNull();
    expect(threatenedBy(next, sq('a6'), 'north')).toBe(true);
    expect(formatPosition(after(next, 'b6xa6'))).toBe('s0n1...n0/....../....../....../....../s0.s1... south');
  });

  test('3a: a sideways move along the baseline counts', () => {
    // On a6 the piece is threatened by a3 (n3); on c6 nobody reaches it.
    const state = position('s2....n0/....../....../n3...../....../s1..... south');
    expect(threatenedBy(state, sq('a6'), 'north')).toBe(true);
    const next = after(state, 'a6-c6');
    expect(formatPosition(next)).toBe('..s2..n0/....../....../n3...../....../s1..... north');
    expect(next.outcome).toEqual({ reason: 'baseline', winner: 'south' });
  });

  test('3a static: a piece revived by distribution on the baseline does not win', () => {
    const state = position('s0....n2/....../....../....../....../s1..... south');
    const revived = after(state, 'a1>a6');
    expect(formatPosition(revived)).toBe('s1....n2/....../....../....../....../s0..... north');
    expect(revived.outcome).toBeNull();
    expect(after(revived, 'f6-f4').outcome).toBeNull();
  });

  test('survives-reply: a revived piece still on the baseline at the start of the turn wins', () => {
    const state = position('s0....n2/....../....../....../....../s1..... south', { baselineWin: 'survives-reply' });
    const revived = after(state, 'a1>a6');
    expect(revived.outcome).toBeNull();
    expect(after(revived, 'f6-f4').outcome).toEqual({ reason: 'baseline-held', winner: 'south' });
  });

  test('survives-reply: no win when the reply captures it', () => {
    const state = position('s0n1..../....../....../....../....../s1.s2... south', { baselineWin: 'survives-reply' });
    const revived = after(state, 'a1>a6');
    const captured = after(revived, 'b6xa6');
    expect(formatPosition(captured)).toBe('s0n1..../....../....../....../....../s0.s2... south');
    expect(captured.outcome).toBeNull();
    expect(after(revived, 'b6-b5').outcome).toEqual({ reason: 'baseline-held', winner: 'south' });
  });

  test('survives-reply: the immediate static win still applies', () => {
    const state = position(REACH, { baselineWin: 'survives-reply' });
    expect(after(state, 'a4-a6').outcome).toEqual({ reason: 'baseline', winner: 'south' });
  });

  test('3b: capturing the last strength wins', () => {
    const state = position('n0....n0/....../....../..n2.../....../..s2s0.. south');
    const next = after(state, 'c1xc3');
    expect(formatPosition(next)).toBe('n0....n0/....../....../..n0.../....../..s2s0.. north');
    expect(next.outcome).toEqual({ reason: 'no-strength', winner: 'south' });
  });

  test('a player with strength left but no legal move loses', () => {
    // a6 and b6 are both at the maximum (nobody to distribute to) and walled in by a5 and b5.
    const state = position('n5n5..../s0s0..../....../....../....../.....s1 south');
    const next = after(state, 'f1-f2');
    expect(next.outcome).toEqual({ reason: 'no-legal-move', winner: 'south' });
    expect(legalMoves(next)).toEqual([]);
  });

  test('the third occurrence of a position is a draw', () => {
    let state = position('.....n1/....../....../....../....../s1..... south');
    state = after(state, 'a1-a2', 'f6-f5', 'a2-a1', 'f5-f6', 'a1-a2', 'f6-f5', 'a2-a1');
    expect(state.outcome).toBeNull();
    state = after(state, 'f5-f6');
    expect(state.outcome).toEqual({ reason: 'repetition', winner: 'draw' });
    expect(malawiGame.summary(state)).toMatchObject({ over: true, winner: 'draw', toMove: null });
  });

  test('the strengths are part of the repeated position', () => {
    let state = position('....n1n1/....../....../....../....../s1s1.... south');
    state = after(state, 'a1-a2', 'f6-f5', 'a2-a1', 'f5-f6');
    // The same squares are taken a third time with south to move, but the beads have moved.
    state = after(state, 'a1>b1', 'e6>f6');
    expect(formatPosition(state)).toBe('....n0n2/....../....../....../....../s0s2.... south');
    expect(state.outcome).toBeNull();
  });

  test('checks run in order: the mover’s baseline win before the opponent’s held baseline', () => {
    // North's c1 (n1) stands on south's baseline; south's a4-a6 wins first.
    const state = position('.....n0/....../s2...../....../....../..n1... south', { baselineWin: 'survives-reply' });
    expect(after(state, 'a4-a6').outcome).toEqual({ reason: 'baseline', winner: 'south' });
  });

  test('checks run in order: a held baseline before the lack of a legal move', () => {
    // North's only piece, a1 (n1), survived south's reply but is walled in by a2 and b1.
    const state = position('....../....../....../....../s0...../n1s0...s1 south', { baselineWin: 'survives-reply' });
    expect(after(state, 'f1-f2').outcome).toEqual({ reason: 'baseline-held', winner: 'north' });
    const staticRules = position('....../....../....../....../s0...../n1s0...s1 south');
    expect(after(staticRules, 'f1-f2').outcome).toEqual({ reason: 'no-legal-move', winner: 'south' });
  });

  test('no move after the end of the game', () => {
    const over = after(position(REACH), 'a4-a6');
    expect(refusal(over, 'f6-f4')).toEqual({
      code: 'malawi/game-over',
      message: "the game is over: south won by reaching the opponent's baseline",
    });
    expect(legalMoves(over)).toEqual([]);
  });
});

describe('legal move counts', () => {
  test.each([
    ['the start', START, {}, 96],
    ['the start with maxStrength 7', START, { maxStrength: 7 }, 96],
    ['the start on 8 × 8', 'n2n2n2n2n2n2n2n2/......../......../......../......../......../......../s2s2s2s2s2s2s2s2 south', { size: 8 }, 232],
    ['two lone pieces', '.....n1/....../....../....../....../s1..... south', {}, 2],
    ['a capture, a zero target, a full recipient', '..n2.../....../....../..s3..n0/....../s5..... south', {}, 4],
    ['a strong piece and five empty ones', 'n2...../....../....../....../....../s5s0s0s0s0s0 south', {}, 32],
    ['five of seven beads on 8 × 8', '.......n2/......../......../......../......../......../......../s7s0s0s0s0s0s0s0 south', { size: 8, maxStrength: 7 }, 120],
    ['blocked by own, strength 0 and the edge', '.....n0/....../....../..n0.../....../n1.s2.s1. south', {}, 6],
    ['the north side to move', 'n2...../....../....../....../....../s2..... north', {}, 2],
  ] as const)('%s', (_name, text, options, expected) => {
    expect(legalMoves(position(text, options))).toHaveLength(expected);
  });

  test('a position whose player to move has no legal move is over at once', () => {
    const state = position('n5n5..../s0s0..../....../....../....../.....s1 north');
    expect(state.outcome).toEqual({ reason: 'no-legal-move', winner: 'south' });
    expect(legalMoves(state)).toHaveLength(0);
  });
});

describe('setups and options', () => {
  test('bad setups are results, not exceptions', () => {
    const cases: [unknown, string][] = [
      [{ pieces: [{ square: 0, side: 'south', strength: 2 }, { square: 0, side: 'north', strength: 2 }], toMove: 'south' }, 'malawi/setup-overlap'],
      [{ pieces: [{ square: 0, side: 'south', strength: 6 }, { square: 35, side: 'north', strength: 2 }], toMove: 'south' }, 'malawi/bad-strength'],
      [{ pieces: [{ square: 36, side: 'south', strength: 2 }, { square: 35, side: 'north', strength: 2 }], toMove: 'south' }, 'malawi/off-board'],
      [{ pieces: [{ square: 0, side: 'east', strength: 2 }, { square: 35, side: 'north', strength: 2 }], toMove: 'south' }, 'malawi/bad-setup'],
      [{ pieces: [{ square: 0, side: 'south', strength: 2 }], toMove: 'south' }, 'malawi/bad-piece-count'],
      [{ pieces: [], toMove: 'west' }, 'malawi/bad-setup'],
      [null, 'malawi/bad-setup'],
    ];
    for (const [setup, code] of cases) {
      const result = fromSetup(setup as never);
      expect(result.ok ? 'accepted' : result.error.code).toBe(code);
    }
    const tooMany = parsePosition('s0s0s0s0s0s0/....../....../....../....../s1s1s1s1s1s1 south');
    expect(!tooMany.ok && tooMany.error.code).toBe('malawi/bad-piece-count');
  });

  test('options: defaults, partial input, refusals', () => {
    expect(parseOptions(undefined)).toEqual({ ok: true, value: DEFAULT_OPTIONS });
    expect(parseOptions({ maxStrength: 7 })).toEqual({ ok: true, value: { ...DEFAULT_OPTIONS, maxStrength: 7 } });
    const code = (input: unknown) => {
      const result = parseOptions(input);
      return result.ok ? 'accepted' : result.error.code;
    };
    expect(code({ maxStrength: 4 })).toBe('malawi/bad-max-strength');
    expect(code({ maxStrength: 8 })).toBe('malawi/bad-max-strength');
    expect(code({ size: 6.5 })).toBe('malawi/bad-size');
    expect(code({ size: 13 })).toBe('malawi/bad-size');
    expect(code({ baselineWin: 'later' })).toBe('malawi/bad-baseline-win');
    expect(code({ seedsPerPit: 3 })).toBe('malawi/unknown-option');
    expect(code([])).toBe('malawi/bad-options');
  });
});

describe('what the sensors see', () => {
  test('occupancy and counts in cell order, rank 1 first', () => {
    const state = initial();
    expect(observe(state)).toEqual([...Array(6).fill(1), ...Array(24).fill(0), ...Array(6).fill(1)]);
    expect(observeCounts(state)).toEqual([...Array(6).fill(3), ...Array(24).fill(0), ...Array(6).fill(3)]);
  });

  test('a capture or a distribution leaves occupancy alone; counts see them', () => {
    const state = position('n2...../....../..n3.../....../..s2.../s2..... south');
    const captured = after(state, 'c2xc4');
    expect(observe(captured)).toEqual(observe(state));
    const changed = observeCounts(captured).flatMap((v, i) => (v === observeCounts(state)[i] ? [] : [i]));
    expect(changed).toEqual([sq('c4')]);
    const distributed = after(captured, 'a6>c4');
    expect(observe(distributed)).toEqual(observe(state));
    expect(observeCounts(distributed)[sq('c4')]).toBe(2);
  });

  test('a move changes exactly two squares', () => {
    const before = observe(initial());
    const next = observe(after(initial(), 'c1-c3'));
    expect(before.flatMap((v, i) => (v === next[i] ? [] : [i]))).toEqual([sq('c1'), sq('c3')]);
  });

  test('the referee hears why a piece put down there is illegal', () => {
    const state = initial();
    expect(whyIllegalMoveTo(state, sq('c1'), sq('c3'))).toBeNull();
    expect(whyIllegalMoveTo(state, sq('c1'), sq('c4'))?.message).toBe(
      'the piece on c1 has strength 2 and must move exactly two squares, not three',
    );
    expect(whyIllegalMoveTo(state, sq('c1'), sq('d2'))?.code).toBe('malawi/not-straight');
    const capture = position('n2...../....../..n0.../....../..s2.../s2..... south');
    expect(whyIllegalMoveTo(capture, sq('c2'), sq('c4'))?.code).toBe('malawi/capture-zero');
  });
});

describe('notation', () => {
  test.each([
    ['c1-c3', { kind: 'move', from: 2, to: 14 }],
    ['c1xc5', { kind: 'capture', from: 2, to: 26 }],
    ['d1>a1,b1,e1', { kind: 'distribute', from: 3, recipients: [0, 1, 4] }],
  ] as const)('%s', (token, expected) => {
    const parsed = parseMove(token, 6);
    expect(parsed).toEqual({ ok: true, value: expected });
    expect(formatMove(expected as MalawiMove, 6)).toBe(token);
  });

  test('unreadable tokens and squares off the board', () => {
    const code = (token: string, size = 6) => {
      const result = parseMove(token, size);
      return result.ok ? 'accepted' : result.error.code;
    };
    expect(code('C1-C3')).toBe('accepted');
    expect(code('c1-c')).toBe('malawi/bad-notation');
    expect(code('c1c3')).toBe('malawi/bad-notation');
    expect(code('d1>')).toBe('malawi/bad-notation');
    expect(code('d1>a1,,b1')).toBe('malawi/bad-notation');
    expect(code('c0-c2')).toBe('malawi/bad-notation');
    expect(code('g1-g3')).toBe('malawi/off-board');
    expect(code('g1-g3', 8)).toBe('accepted');
    expect(code('a7>a1')).toBe('malawi/off-board');
    expect(code('h10-h12', 12)).toBe('accepted');
  });

  test('every legal move of random positions round-trips through its text', () => {
    for (const state of randomPositions(40, 7)) {
      const texts = legalMoves(state).map((m) => formatMove(m, state.options.size));
      expect(new Set(texts).size).toBe(texts.length);
      for (const [i, m] of legalMoves(state).entries()) {
        expect(parseMove(texts[i], state.options.size)).toEqual({ ok: true, value: m });
      }
      expect(formatPosition(position(formatPosition(state), state.options))).toBe(formatPosition(state));
    }
  });

  test('replay position JSON lists every piece, strength 0 included', () => {
    const state = position('n2...../....../..n0.../....../....../s2..... south');
    expect(JSON.stringify(positionJson(state))).toBe(
      '{"pieces":{"a1":{"side":"south","strength":2},"c4":{"side":"north","strength":0},"a6":{"side":"north","strength":2}}}',
    );
  });
});

describe('GameDefinition', () => {
  test('options from JSON text or objects, merged over the defaults', () => {
    expect(malawiGame.parseOptions('{"baselineWin":"survives-reply"}')).toEqual({
      ok: true,
      value: { ...DEFAULT_OPTIONS, baselineWin: 'survives-reply' },
    });
    expect(malawiGame.parseOptions({ size: 8 })).toEqual({ ok: true, value: { ...DEFAULT_OPTIONS, size: 8 } });
    const bad = malawiGame.parseOptions('{size:8}');
    expect(!bad.ok && bad.error.code).toBe('malawi/bad-options');
  });

  test('a short record played through the definition', () => {
    let state = malawiGame.initial(malawiGame.defaultOptions);
    for (const token of ['a1-a3', 'f6-f4', 'a3-a5', 'f4-f2']) {
      const parsed = malawiGame.parseMove(token, state);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(malawiGame.formatMove(parsed.value, state)).toBe(token);
      const played = malawiGame.play(state, parsed.value);
      if (!played.ok) throw new Error(played.error.message);
      state = played.value;
    }
    const summary = malawiGame.summary(state);
    expect(summary).toMatchObject({ over: false, winner: null, toMove: 'south' });
    expect(Object.keys((summary.position as { pieces: object }).pieces)).toEqual(
      ['b1', 'c1', 'd1', 'e1', 'f1', 'f2', 'a5', 'a6', 'b6', 'c6', 'd6', 'e6'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Random play


/** Picks a kind first so the many distributions do not crowd out moving and capturing. */
function randomMove(moves: readonly MalawiMove[], random: () => number): MalawiMove {
  const kinds = [...new Set(moves.map((m) => m.kind))];
  const kind = kinds[Math.floor(random() * kinds.length)];
  const ofKind = moves.filter((m) => m.kind === kind);
  return ofKind[Math.floor(random() * ofKind.length)];
}

function randomPositions(count: number, seed: number): MalawiState[] {
  const random = seeded(seed);
  const result: MalawiState[] = [];
  while (result.length < count) {
    let state = initial();
    while (state.outcome === null) {
      if (random() < 0.2) result.push(state);
      const played = play(state, randomMove(legalMoves(state), random));
      if (!played.ok) throw new Error(played.error.message);
      state = played.value;
    }
  }
  return result.slice(0, count);
}

describe('random play', () => {
  test('play accepts exactly the generated moves', () => {
    for (const state of randomPositions(60, 11)) {
      const n = state.options.size;
      const generated = new Set(legalMoves(state).map((m) => formatMove(m, n)));
      const accepted = new Set<string>();
      const own = state.squares.flatMap((p, i) => (p !== null && p.side === state.toMove ? [i] : []));
      for (const from of own) {
        for (let to = 0; to < n * n; to++) {
          for (const kind of ['move', 'capture'] as const) {
            const m: MalawiMove = { kind, from, to };
            if (whyIllegal(state, m) === null) accepted.add(formatMove(m, n));
          }
        }
        // Every subset of the other own pieces, too large ones included.
        const others = own.filter((square) => square !== from);
        for (let mask = 0; mask < 1 << others.length; mask++) {
          const recipients = others.filter((_, bit) => mask & (1 << bit));
          const m: MalawiMove = { kind: 'distribute', from, recipients };
          if (whyIllegal(state, m) === null) accepted.add(formatMove(m, n));
        }
      }
      expect([...accepted].sort()).toEqual([...generated].sort());
    }
  });

  const OPTION_SETS: MalawiOptions[] = [
    DEFAULT_OPTIONS,
    { size: 6, maxStrength: 7, baselineWin: 'survives-reply' },
    { size: 8, maxStrength: 6, baselineWin: 'static' },
  ];

  test.each(OPTION_SETS.map((options) => [JSON.stringify(options), options] as const))(
    'invariants hold over 300 games with %s',
    (_name, options) => {
      const random = seeded(options.size * 100 + options.maxStrength);
      const cells = options.size * options.size;
      const reasons = new Set<string>();
      // Checked per ply without `expect` (it is slow in a hot loop); each broken invariant is noted once per game.
      const problems: string[] = [];
      for (let game = 0; game < 300; game++) {
        let state = initial(options);
        const broken = new Set<string>();
        const seen = new Map<string, number>();
        const note = (s: MalawiState): number => {
          const key = `${observeCounts(s).join(',')}|${s.toMove}`;
          const times = (seen.get(key) ?? 0) + 1;
          seen.set(key, times);
          return times;
        };
        const beads = (s: MalawiState): number => observeCounts(s).reduce((sum, v) => sum + Math.max(0, v - 1), 0);
        note(state);
        while (state.outcome === null) {
          const moves = legalMoves(state);
          if (moves.length === 0) broken.add('no legal move in a running game');
          const chosen = randomMove(moves, random);
          if (whyIllegal(state, chosen) !== null) broken.add('a generated move is called illegal');
          const played = play(state, chosen);
          if (!played.ok) throw new Error(played.error.message);
          const before = state;
          state = played.value;

          // Pieces never leave, never overlap, and strengths stay within 0…max.
          let south = 0;
          let north = 0;
          for (const piece of state.squares) {
            if (piece === null) continue;
            if (piece.side === 'south') south++;
            else north++;
            if (!(Number.isInteger(piece.strength) && piece.strength >= 0 && piece.strength <= options.maxStrength)) {
              broken.add(`strength ${piece.strength} out of range`);
            }
          }
          if (state.squares.length !== cells || south !== options.size || north !== options.size) {
            broken.add('pieces appeared or vanished');
          }
          // Occupancy: a move changes exactly two squares, a capture or distribution none.
          const occupied = observe(before);
          const changed = observe(state).filter((v, i) => v !== occupied[i]).length;
          if (changed !== (chosen.kind === 'move' ? 2 : 0)) broken.add(`a ${chosen.kind} changed ${changed} squares`);
          // Beads are never created.
          if (beads(state) > beads(before)) broken.add('beads were created');
          // The game never goes on past a third occurrence, and ends there if nothing else ended it.
          const times = note(state);
          if (times > 3 || (times === 3 && state.outcome === null)) broken.add('play went on past a third occurrence');
          if (state.outcome?.reason === 'repetition' && times !== 3) broken.add('a draw without a third occurrence');
        }
        if (legalMoves(state).length !== 0) broken.add('legal moves after the end');
        reasons.add(state.outcome.reason);
        for (const problem of broken) problems.push(`game ${game}: ${problem}`);
      }
      expect(problems).toEqual([]);
      // Random play is varied enough to reach more than one kind of ending.
      expect(reasons.size).toBeGreaterThan(1);
    },
  );
});
