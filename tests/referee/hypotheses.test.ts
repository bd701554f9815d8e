// Tests of what the square-board referees share for questions that never stop the game: same positions, the likeliest option, weighing the evidence, the questions still answerable.
import { describe, expect, test } from 'vitest';
import { TakenQuestions, breaksRecord, likeliest, samePosition, weigh } from '../../server/referee/hypotheses.ts';
import type { BoardQuestion } from '../../server/referee/events.ts';

const observe = (s: { cells: number[] }) => s.cells;

describe('samePosition', () => {
  test('options leaving the same picture and the same state are the same position', () => {
    expect(samePosition([{ cells: [1, 0], toMove: 'south' }, { cells: [1, 0], toMove: 'south' }], observe)).toBe(true);
  });
  test('the same picture but another state (whose piece stands where, who is to move) is not', () => {
    expect(samePosition([{ cells: [1, 0], toMove: 'south' }, { cells: [1, 0], toMove: 'north' }], observe)).toBe(false);
    expect(samePosition([{ cells: [1, 0], owner: 1 }, { cells: [1, 0], owner: 2 }], observe)).toBe(false);
  });
  test('another picture is not, even with the same rest', () => {
    expect(samePosition([{ cells: [1, 0] }, { cells: [0, 1] }], observe)).toBe(false);
  });
  test('one option is no choice between positions (its alternative is that nothing happened)', () => {
    expect(samePosition([{ cells: [1] }], observe)).toBe(false);
  });
});

describe('likeliest and weigh', () => {
  test('the preselected option, else the first', () => {
    expect(likeliest(['a', 'b', 'c'], 'b')).toBe(1);
    expect(likeliest(['a', 'b', 'c'])).toBe(0);
    expect(likeliest(['a', 'b'], 'z')).toBe(0);
  });
  test('one option explaining the picture decides; several moved on from; none or only positions leave it open', () => {
    expect(weigh([null, 'move', null])).toEqual({ kind: 'decided', index: 1 });
    expect(weigh([null, 'position'])).toEqual({ kind: 'decided', index: 1 });
    expect(weigh(['position', 'move'])).toEqual({ kind: 'decided', index: 1 });
    expect(weigh(['move', null, 'move'])).toEqual({ kind: 'moved-on', among: [0, 2] });
    expect(weigh(['position', 'position'])).toEqual({ kind: 'open' });
    expect(weigh([null, null])).toEqual({ kind: 'open' });
  });
  test('a single option is decided only by a move made from it', () => {
    expect(weigh(['position'])).toEqual({ kind: 'open' });
    expect(weigh(['move'])).toEqual({ kind: 'decided', index: 0 });
  });
});

describe('TakenQuestions', () => {
  const question = (id: number): BoardQuestion => ({ kind: 'question', t: 0, id, code: 'referee/which-move', message: '', params: {}, options: ['a', 'b'], blocking: false });
  test('listed oldest first, found by id, closed once, dropped when their ply is taken back', () => {
    const taken = new TakenQuestions<string>();
    taken.add('q1', question(1), 3, 0);
    taken.add('q2', question(2), 5, 1);
    expect(taken.events().map((e) => e.id)).toEqual([1, 2]);
    expect(taken.latestFirst().map((x) => x.question)).toEqual(['q2', 'q1']);
    const first = taken.find(1);
    expect(first).toMatchObject({ ply: 3, index: 0 });
    expect(taken.close(first!, 7)).toEqual([{ kind: 'question-closed', t: 7, id: 1 }]);
    expect(taken.close(first!, 8)).toEqual([]);
    taken.retake(taken.find(2)!, 0);
    expect(taken.find(2)).toMatchObject({ index: 0 });
    expect(taken.dropAfter(5, 9)).toEqual([]);
    expect(taken.dropAfter(4, 9)).toEqual([{ kind: 'question-closed', t: 9, id: 2 }]);
    expect(taken.events()).toEqual([]);
  });
  test('an answer that breaks a later move is refused with both plies named', () => {
    expect(breaksRecord('a6xa4', 4, 6, 'a4-a6', { code: 'malawi/strength-zero', message: 'no strength', params: {} })).toEqual({
      code: 'referee/answer-breaks-record',
      message: 'a6xa4 cannot be move 4: move 6, a4-a6, would then be illegal (no strength)',
      params: { move: 'a6xa4', ply: 4, later: 'a4-a6', laterPly: 6, reason: 'malawi/strength-zero' },
    });
  });
});
