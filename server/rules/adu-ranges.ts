// Adu's hidden soldier ranges: whether they can still be dealt out (Hall's condition) and the Merkskala.
/*
 * RULES.md §4 "Moving": a player's six soldiers hold the ranges 1 to 6, one each, but which is which
 * is never fixed in advance. What is known about them is a ledger: for each soldier the longest move
 * it has made (its range must be at least that), and for a captured soldier the range its owner
 * declared. The ledger is consistent when the ranges not yet declared can be dealt out to the soldiers
 * not yet declared, each getting at least its longest move.
 *
 * Why thresholds suffice: a soldier needing n accepts exactly the ranges n…6, an upward-closed set, so
 * the sets of any group of soldiers are nested and the group's joint neighbourhood is the set of the
 * one with the lowest need. Hall's condition over all groups therefore reduces to one check per
 * threshold t = 1…6: the undeclared soldiers needing t or more must not outnumber the free ranges of
 * t or more. Both counts run down from 6, so one pass decides it.
 *
 * Everything here works on the six soldiers `S1`…`S6` by index 0…5; a soldier not yet placed or never
 * moved needs 1 (`longest` 0 says "never moved").
 */

export const RANGES = [1, 2, 3, 4, 5, 6] as const;
export type Range = (typeof RANGES)[number];
/** Soldiers per player, and so also the highest range. */
export const SOLDIER_COUNT = 6;

export interface RangeLedger {
  /** Per soldier S1…S6 (index 0…5): the longest move it has made in steps, 0 while it has not moved. */
  readonly longest: readonly number[];
  /** Per soldier: the range declared when it was captured, or null while it stands (or stood) undeclared. */
  readonly declared: readonly (number | null)[];
}

export const FRESH_LEDGER: RangeLedger = {
  longest: [0, 0, 0, 0, 0, 0],
  declared: [null, null, null, null, null, null],
};

// Scratch counts for the threshold pass; the engine is single-threaded and no call nests another.
const needCount = new Int32Array(SOLDIER_COUNT + 2);

/**
 * Hall's condition for the ledger with two hypothetical changes: soldier `soldier` (or -1 for none)
 * needs at least `need`, and, when `fixed` is a range, that soldier is dealt `fixed` outright.
 */
function dealable(ledger: RangeLedger, soldier: number, need: number, fixed: number | null): boolean {
  needCount.fill(0);
  let freeMask = 0b1111110; // bit r set: range r still free
  for (let i = 0; i < SOLDIER_COUNT; i++) {
    const declared = i === soldier && fixed !== null ? fixed : ledger.declared[i];
    if (declared !== null) {
      const bit = 1 << declared;
      if (declared < 1 || declared > SOLDIER_COUNT || (freeMask & bit) === 0) return false; // off the scale or dealt twice
      if (declared < ledger.longest[i] || (i === soldier && declared < need)) return false;
      freeMask &= ~bit;
      continue;
    }
    let n = ledger.longest[i];
    if (i === soldier && need > n) n = need;
    if (n > SOLDIER_COUNT) return false;
    needCount[n < 1 ? 1 : n]++;
  }
  let soldiersAtLeast = 0;
  let rangesAtLeast = 0;
  for (let t = SOLDIER_COUNT; t >= 1; t--) {
    soldiersAtLeast += needCount[t];
    if ((freeMask >> t) & 1) rangesAtLeast++;
    if (soldiersAtLeast > rangesAtLeast) return false;
  }
  return true;
}

/** Whether the ledger is consistent: the free ranges can still be dealt to the undeclared soldiers. */
export function hallHolds(ledger: RangeLedger): boolean {
  return dealable(ledger, -1, 0, null);
}

/** Whether soldier `soldier` may move `steps` steps: the ledger stays consistent with its need raised to `steps`. */
export function admits(ledger: RangeLedger, soldier: number, steps: number): boolean {
  if (ledger.declared[soldier] !== null) return false;
  return dealable(ledger, soldier, steps, null);
}

/** The ranges soldier `soldier` may still hold, ascending (its Merkskala line); for a declared soldier, that range. */
export function possibleRanges(ledger: RangeLedger, soldier: number): number[] {
  const declared = ledger.declared[soldier];
  if (declared !== null) return [declared];
  const result: number[] = [];
  for (const r of RANGES) if (dealable(ledger, soldier, 0, r)) result.push(r);
  return result;
}

/** The farthest soldier `soldier` may move now: its highest possible range (0 for a declared soldier). */
export function mostSteps(ledger: RangeLedger, soldier: number): number {
  if (ledger.declared[soldier] !== null) return 0;
  for (let r = SOLDIER_COUNT; r >= 1; r--) if (dealable(ledger, soldier, r, null)) return r;
  return 0;
}

/** The ledger after soldier `soldier` moved `steps` steps (unchecked: call admits first). */
export function recordMove(ledger: RangeLedger, soldier: number, steps: number): RangeLedger {
  if (steps <= ledger.longest[soldier]) return ledger;
  const longest = ledger.longest.slice();
  longest[soldier] = steps;
  return { longest, declared: ledger.declared };
}

/** The ledger after soldier `soldier` was captured and declared `range` (unchecked: take it from possibleRanges). */
export function recordDeclaration(ledger: RangeLedger, soldier: number, range: number): RangeLedger {
  const declared = ledger.declared.slice();
  declared[soldier] = range;
  return { longest: ledger.longest, declared };
}

/** Null when `value` is a well-formed ledger (six entries each, whole numbers in bounds); otherwise why not. */
export function whyMalformed(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return 'a ledger has "longest" and "declared", six entries each';
  const { longest, declared } = value as { longest?: unknown; declared?: unknown };
  if (!Array.isArray(longest) || longest.length !== SOLDIER_COUNT || !Array.isArray(declared) || declared.length !== SOLDIER_COUNT) {
    return 'a ledger has "longest" and "declared", six entries each';
  }
  for (const n of longest) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > SOLDIER_COUNT) {
      return `a longest move is a whole number from 0 to ${SOLDIER_COUNT}, not ${String(n)}`;
    }
  }
  for (const r of declared) {
    if (r !== null && (typeof r !== 'number' || !Number.isInteger(r) || r < 1 || r > SOLDIER_COUNT)) {
      return `a declared range is null or a whole number from 1 to ${SOLDIER_COUNT}, not ${String(r)}`;
    }
  }
  return null;
}
