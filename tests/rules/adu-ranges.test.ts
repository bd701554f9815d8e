// Adu's soldier ranges (RULES.md §4 "Moving"): Hall's condition and the Merkskala, held to a brute force over all 720 assignments.
import { describe, expect, test } from 'vitest';
import {
  FRESH_LEDGER,
  admits,
  hallHolds,
  mostSteps,
  possibleRanges,
  recordDeclaration,
  recordMove,
  whyMalformed,
} from '../../server/rules/adu-ranges.ts';
import type { RangeLedger } from '../../server/rules/adu-ranges.ts';
import { mulberry32 as seeded } from '../support/prng.ts';

/** Every way of dealing the ranges 1…6 to soldiers S1…S6 (index = soldier, value = range). */
const ASSIGNMENTS: readonly (readonly number[])[] = (() => {
  const result: number[][] = [];
  const extend = (prefix: number[], left: number[]): void => {
    if (left.length === 0) result.push(prefix);
    left.forEach((r, i) => extend([...prefix, r], [...left.slice(0, i), ...left.slice(i + 1)]));
  };
  extend([], [1, 2, 3, 4, 5, 6]);
  return result;
})();

/** The assignments that fit the ledger: each soldier's range covers its longest move; declared ranges as declared. */
function fitting(ledger: RangeLedger): (readonly number[])[] {
  return ASSIGNMENTS.filter((a) => a.every((r, i) => r >= ledger.longest[i] && (ledger.declared[i] === null || ledger.declared[i] === r)));
}

/** What brute force says about a ledger, in the shapes the module answers in. */
function bruteForce(ledger: RangeLedger) {
  const fits = fitting(ledger);
  return {
    consistent: fits.length > 0,
    possible: [0, 1, 2, 3, 4, 5].map((i) => [...new Set(fits.map((a) => a[i]))].sort((x, y) => x - y)),
    admits: [0, 1, 2, 3, 4, 5].map((i) =>
      [1, 2, 3, 4, 5, 6, 7].map((d) => ledger.declared[i] === null && fits.some((a) => a[i] >= d)),
    ),
  };
}

function answers(ledger: RangeLedger) {
  return {
    consistent: hallHolds(ledger),
    possible: [0, 1, 2, 3, 4, 5].map((i) => (hallHolds(ledger) ? possibleRanges(ledger, i) : [])),
    admits: [0, 1, 2, 3, 4, 5].map((i) => [1, 2, 3, 4, 5, 6, 7].map((d) => admits(ledger, i, d))),
  };
}

const ledger = (longest: number[], declared: (number | null)[] = [null, null, null, null, null, null]): RangeLedger => ({
  longest,
  declared,
});


describe("Hall's condition, named cases checked against brute force", () => {
  test.each([
    ['nothing known yet: every soldier may be anything', ledger([0, 0, 0, 0, 0, 0]), true],
    ['all moved one step: still anything', ledger([1, 1, 1, 1, 1, 1]), true],
    ['one soldier moved 6: it is the six', ledger([6, 0, 0, 0, 0, 0]), true],
    ['two soldiers moved 6: impossible', ledger([6, 6, 0, 0, 0, 0]), false],
    ['three soldiers moved 4: they hold 4, 5, 6 between them', ledger([4, 4, 4, 0, 0, 0]), true],
    ['four soldiers moved 4: impossible', ledger([4, 4, 4, 4, 0, 0]), false],
    ['the ladder 1…6 exactly', ledger([1, 2, 3, 4, 5, 6]), true],
    ['a 5 declared, then two soldiers moved 5: impossible', ledger([0, 5, 5, 0, 0, 0], [5, null, null, null, null, null]), false],
    ['a 1 declared: five soldiers that moved 2 still fit', ledger([1, 2, 2, 2, 2, 2], [1, null, null, null, null, null]), true],
    ['a 6 declared: a soldier that moved 6 has nowhere to go', ledger([0, 6, 0, 0, 0, 0], [6, null, null, null, null, null]), false],
    ['a soldier declared below its own longest move', ledger([3, 0, 0, 0, 0, 0], [2, null, null, null, null, null]), false],
    ['one range declared twice', ledger([0, 0, 0, 0, 0, 0], [2, 2, null, null, null, null]), false],
  ])('%s', (_, given, expected) => {
    expect(hallHolds(given)).toBe(expected);
    expect(bruteForce(given).consistent).toBe(expected);
    expect(answers(given)).toEqual(bruteForce(given));
  });

  test('after S1 moved 6 and S2 moved 5, S3 may move at most 4', () => {
    const given = ledger([6, 5, 0, 0, 0, 0]);
    expect(mostSteps(given, 2)).toBe(4);
    expect(admits(given, 2, 4)).toBe(true);
    expect(admits(given, 2, 5)).toBe(false);
    expect(bruteForce(given).admits[2]).toEqual([true, true, true, true, false, false, false]);
  });

  test('three soldiers that moved 4 leave 1, 2, 3 to the other three (the Merkskala)', () => {
    const given = ledger([4, 0, 4, 0, 4, 0]);
    expect([0, 1, 2, 3, 4, 5].map((i) => possibleRanges(given, i))).toEqual([
      [4, 5, 6],
      [1, 2, 3],
      [4, 5, 6],
      [1, 2, 3],
      [4, 5, 6],
      [1, 2, 3],
    ]);
  });

  test('a declared soldier shows its range and cannot move', () => {
    const given = ledger([1, 1, 0, 0, 0, 0], [null, 1, null, null, null, null]);
    expect(possibleRanges(given, 1)).toEqual([1]);
    expect(mostSteps(given, 1)).toBe(0);
    expect(admits(given, 1, 1)).toBe(false);
    expect(possibleRanges(given, 0)).toEqual([2, 3, 4, 5, 6]);
  });

  test('every longest-move vector without declarations agrees with brute force', () => {
    const disagreements: string[] = [];
    const longest = [0, 0, 0, 0, 0, 0];
    // Longest moves 0…6 for six soldiers: 7^6 vectors; only sorted ones, since the rule does not care which soldier is which.
    const visit = (i: number, low: number): void => {
      if (i === 6) {
        const given = ledger(longest.slice());
        if (JSON.stringify(answers(given)) !== JSON.stringify(bruteForce(given))) disagreements.push(longest.join(''));
        return;
      }
      for (let n = low; n <= 6; n++) {
        longest[i] = n;
        visit(i + 1, n);
      }
    };
    visit(0, 0);
    expect(disagreements).toEqual([]);
  });

  test('2000 random ledgers with declarations agree with brute force', () => {
    const random = seeded(4242);
    const disagreements: string[] = [];
    let consistent = 0;
    for (let k = 0; k < 2000; k++) {
      const longest = [0, 1, 2, 3, 4, 5].map(() => Math.floor(random() * 7));
      const declared = [0, 1, 2, 3, 4, 5].map(() => (random() < 0.3 ? 1 + Math.floor(random() * 6) : null));
      const given = ledger(longest, declared);
      const expected = bruteForce(given);
      if (expected.consistent) consistent++;
      if (JSON.stringify(answers(given)) !== JSON.stringify(expected)) disagreements.push(JSON.stringify(given));
    }
    expect(disagreements).toEqual([]);
    // Both answers must occur, or the comparison proves little.
    expect(consistent).toBeGreaterThan(100);
    expect(consistent).toBeLessThan(1900);
  });
});

describe('the ledger', () => {
  test('a move raises the longest move only when it is longer; the old ledger is untouched', () => {
    const moved = recordMove(FRESH_LEDGER, 2, 3);
    expect(moved.longest).toEqual([0, 0, 3, 0, 0, 0]);
    expect(recordMove(moved, 2, 2)).toBe(moved);
    expect(FRESH_LEDGER.longest).toEqual([0, 0, 0, 0, 0, 0]);
  });

  test('a declaration fixes one soldier', () => {
    const declared = recordDeclaration(FRESH_LEDGER, 4, 2);
    expect(declared.declared).toEqual([null, null, null, null, 2, null]);
    expect(possibleRanges(declared, 0)).toEqual([1, 3, 4, 5, 6]);
  });

  test.each([
    ['not an object', 3],
    ['five entries', { longest: [0, 0, 0, 0, 0], declared: [null, null, null, null, null] }],
    ['a longest move of 7', { longest: [7, 0, 0, 0, 0, 0], declared: [null, null, null, null, null, null] }],
    ['a declared range of 0', { longest: [0, 0, 0, 0, 0, 0], declared: [0, null, null, null, null, null] }],
  ])('a malformed ledger is named: %s', (_, value) => {
    expect(whyMalformed(value)).toEqual(expect.any(String));
  });

  test('a well-formed ledger passes', () => {
    expect(whyMalformed(FRESH_LEDGER)).toBeNull();
  });
});
