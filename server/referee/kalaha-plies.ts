// What a Kalaha move does physically, beside what the engine says it does: the pits sown in order, the
// captures carried, the stones owed to a store. The referee and its decoder expect boards by these.
import { PITS, STORE, owner, play, sowing, type KalahaState } from '../rules/kalaha.ts';
import type { RuleError } from '../rules/types.ts';
import type { Transfer } from './weigh.ts';

/** The pits that receive a stone when `pit` is sown, in order (the origin skipped on a lap when the rules say so). */
export function sownPits(state: KalahaState, pit: number): number[] {
  const sown: number[] = [];
  let at = pit;
  for (let stones = state.pits[pit]; stones > 0; ) {
    at = (at + 1) % 12;
    if (at === pit && state.options.skipOrigin && state.pits[pit] >= 12) continue;
    sown.push(at);
    stones--;
  }
  return sown;
}

export function afterCaptures(afterSow: readonly number[], captures: readonly number[], store: number): number[] {
  const counts = afterSow.slice();
  for (const pit of captures) {
    counts[store] += counts[pit];
    counts[pit] = 0;
  }
  return counts;
}

export function captureTransfers(afterSow: readonly number[], captures: readonly number[], store: number): Transfer[] {
  return captures.map((pit) => ({ from: pit, to: store, stones: afterSow[pit] }));
}

/** Did the engine's move carry out the capture the sowing offers? (Not when every move was forbidden.) */
export function capturedIn(before: KalahaState, afterSow: readonly number[], captures: readonly number[], next: KalahaState): boolean {
  if (captures.length === 0) return false;
  const mover = STORE[before.toMove];
  const taken = captures.reduce((s, pit) => s + afterSow[pit], 0);
  const gained = next.stores[mover - 12] - before.stores[mover - 12];
  if (!next.outcome) return gained === taken;
  // At the end the mover also sweeps their own pits; compare with what that would give.
  const own = afterCaptures(afterSow, captures, mover);
  let swept = 0;
  for (let pit = 0; pit < 12; pit++) if (STORE[owner(pit)] === mover) swept += own[pit];
  return gained === taken + swept;
}

/** What the players must carry after a move: captured pits to the mover's store, and at the end every pit to its owner's store. */
export function transfersOf(before: KalahaState, afterSow: readonly number[], captures: readonly number[], next: KalahaState): Transfer[] {
  const mover = STORE[before.toMove];
  const transfers = captureTransfers(afterSow, captures, mover);
  if (next.outcome) transfers.push(...sweepOf(afterCaptures(afterSow, captures, mover)));
  return transfers;
}

export function sweepOf(pits: readonly number[]): Transfer[] {
  const transfers: Transfer[] = [];
  for (let pit = 0; pit < 12; pit++) if (pits[pit] > 0) transfers.push({ from: pit, to: STORE[owner(pit)], stones: pits[pit] });
  return transfers;
}


/** A ply of the record as the referee keeps it: the position after it, and what the move did physically. */
export interface Ply {
  readonly state: KalahaState;
  readonly move: string | null;
  readonly pit: number | null;
  readonly sown: readonly number[];
  readonly captures: readonly number[];
}

/**
 * `pit` sown from `before` by the rules: the ply, and the stones its captures and the final sweep
 * still owe the stores; the rules' error when they do not allow it.
 */
export function sowingPly(
  before: KalahaState,
  pit: number,
): { readonly ok: true; readonly ply: Ply; readonly owed: readonly Transfer[] } | { readonly ok: false; readonly error: RuleError } {
  const next = play(before, { kind: 'sow', pit });
  if (!next.ok) return next;
  const sown = sowing(before, pit);
  const captures = capturedIn(before, sown.afterSow, sown.captures, next.value) ? sown.captures : [];
  return {
    ok: true,
    ply: { state: next.value, move: PITS[pit], pit, sown: sownPits(before, pit), captures },
    owed: transfersOf(before, sown.afterSow, captures, next.value),
  };
}
