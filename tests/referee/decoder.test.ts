// The history decoder's core on a toy game: a counter that moves by 1 or 2, hints that say which
// steps were seen, and a picture that is the counter's value. What the record takes from the
// histories, and when it waits or corrects.
import { describe, expect, test } from 'vitest';
import { agree, explain, type HistoryAdapter } from '../../server/referee/decoder.ts';

interface Node {
  readonly value: number;
  readonly cursor: number;
}
interface Evidence {
  readonly value: number;
  readonly hints: readonly number[];
}

/** Steps the hints show cost nothing; a step nobody saw costs 5. */
const counter: HistoryAdapter<Node, number, Evidence> = {
  *moves(node, evidence) {
    for (const step of [1, 2]) {
      const k = evidence.hints.indexOf(step, node.cursor);
      if (k >= 0) yield { move: step, next: { value: node.value + step, cursor: k + 1 }, cost: 0 };
      else yield { move: step, next: { value: node.value + step, cursor: node.cursor }, cost: 5 };
    }
  },
  fit: (node, evidence) => (node.value === evidence.value ? 0 : null),
  same: (a, b) => a === b,
};

const root: Node = { value: 0, cursor: 0 };
const limits = { depth: 4, width: 100, beam: 20 };

describe('history decoder', () => {
  test('finds the histories that explain the evidence, best first', () => {
    const found = explain(counter, root, { value: 3, hints: [2, 1] }, limits);
    expect(found[0]).toMatchObject({ moves: [2, 1], cost: 0 });
    expect(found.map((e) => e.moves.join(''))).toContain('12');
    expect(found.every((e) => e.nodes.at(-1)?.value === 3)).toBe(true);
  });

  test('nothing explains a board no history reaches', () => {
    expect(explain(counter, root, { value: 9, hints: [] }, { ...limits, depth: 3 })).toEqual([]);
    expect(agree(counter, [], [], 4)).toEqual({ kind: 'none' });
  });

  test('the record takes the moves every close history agrees on', () => {
    const found = explain(counter, root, { value: 3, hints: [2, 1] }, limits);
    expect(agree(counter, [2], found, 4)).toMatchObject({ kind: 'agreed', keep: 1, replace: [], add: [1] });
  });

  test('histories that fit about as well but differ leave the record undecided', () => {
    const found = explain(counter, root, { value: 3, hints: [1, 2, 1] }, limits);
    expect(agree(counter, [], found, 4)).toMatchObject({ kind: 'undecided' });
  });

  test('a recorded move that a close history keeps stands, even where another fits a little better', () => {
    // 1 then 2 was seen; the record says 2 then 1, which costs two unseen steps (10) more.
    const found = explain(counter, root, { value: 3, hints: [1, 2] }, limits);
    expect(agree(counter, [2, 1], found, 12)).toMatchObject({ kind: 'agreed', keep: 2, replace: [], add: [] });
  });

  test('a recorded move no close history keeps is corrected', () => {
    const found = explain(counter, root, { value: 3, hints: [1, 2] }, limits);
    expect(agree(counter, [2, 1], found, 4)).toMatchObject({ kind: 'agreed', keep: 0, replace: [2, 1], add: [1, 2] });
  });
});
