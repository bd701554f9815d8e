// The Kalaha table's adapter to the history decoder: which pits were lifted, in which order, and
// which histories of sowings from a certain position explain the picture the table now holds.
//
// A Kalaha move starts by lifting every stone of one pit, so the order in which pits were emptied
// tells a run of quick moves apart where the last picture alone cannot: people start the next
// move before the last stone of the one before has settled. Empties that start no move (a capture
// carried, the final sweep, a stone moved back) are passed over; a move no lift was seen for (the
// lines dropped a moment) is allowed at a price, once per history.
import { legalMoves, observe, type KalahaState } from '../rules/kalaha.ts';
import type { HistoryAdapter } from './decoder.ts';
import { sowingPly, type Ply } from './kalaha-plies.ts';
import { matchTarget, type Match, type Reference, type Transfer, type WeightModel } from './weigh.ts';

/** A pit seen emptied, at `t` on the board's clock. */
export interface Lift {
  readonly cell: number;
  readonly t: number;
}

/** A position the referee was sure of: the record's length then, the picture that showed it, and the lifts seen before it. */
export interface Anchor {
  readonly ply: number;
  readonly ref: Reference;
  readonly lifts: number;
}

/** A position reached by a history: the ply, the stones its last move still owes, how far into the lifts it has used. */
export interface SowingNode {
  readonly ply: Ply;
  readonly owed: readonly Transfer[];
  readonly cursor: number;
  /** Moves of the history that no lift was seen for. */
  readonly blind: number;
  /**
   * Cells whose stones the history lifted and others may have filled since (a bit per cell): their
   * weights no longer follow from the anchor's, only their sum does (weigh.ts, `stirred`).
   */
  readonly stirred: number;
}

export interface SowingEvidence {
  readonly model: WeightModel;
  readonly ref: Reference;
  readonly picture: ArrayLike<number>;
  /** The pits emptied since the anchor, in order. */
  readonly lifts: readonly Lift[];
  /** Cells the hands were seen to exchange stones in since the anchor, whatever the history (weigh.ts, `stirred`). */
  readonly stirred?: number;
}

/** What a move no lift was seen for costs, in chi-square units: about three standard deviations. */
export const BLIND_MOVE = 10;
/** At most this many such moves in one history. */
const MOST_BLIND = 1;

/** Sowing histories from a position: the moves the lifts allow, and how well the last position explains the picture. */
export const sowingAdapter: HistoryAdapter<SowingNode, number, SowingEvidence> = {
  *moves(node, evidence) {
    const state = node.ply.state;
    if (state.outcome) return;
    const legal = legalMoves(state).map((m) => m.pit);
    const seen = new Set<number>();
    for (let k = node.cursor; k < evidence.lifts.length; k++) {
      const pit = evidence.lifts[k].cell;
      if (seen.has(pit) || !legal.includes(pit)) continue;
      seen.add(pit);
      const sown = sowingPly(state, pit);
      if (sown.ok) yield { move: pit, next: { ply: sown.ply, owed: sown.owed, cursor: k + 1, blind: node.blind, stirred: stirredAfter(node, pit) }, cost: 0 };
    }
    if (node.blind >= MOST_BLIND) return;
    for (const pit of legal) {
      if (seen.has(pit)) continue;
      const sown = sowingPly(state, pit);
      if (sown.ok) yield { move: pit, next: { ply: sown.ply, owed: sown.owed, cursor: node.cursor, blind: node.blind + 1, stirred: stirredAfter(node, pit) }, cost: BLIND_MOVE };
    }
  },
  fit(node, evidence) {
    const m = matchNode(node, evidence);
    return m ? m.score : null;
  },
  same: (a, b) => a === b,
};

/** How the picture fits the position a history reached, from the anchor's picture. */
export function matchNode(node: SowingNode, evidence: SowingEvidence): Match | null {
  let stirred = node.stirred | (evidence.stirred ?? 0);
  // Stones still on their way are weighed as they travel, not as stirred.
  for (const tr of node.owed) stirred &= ~((1 << tr.from) | (1 << tr.to));
  return matchTarget(evidence.model, evidence.ref, { counts: observe(node.ply.state), transfers: node.owed }, evidence.picture, stirred);
}

/** After `pit` is sown from `node`: its own pit lifted, and the pits the move before captured emptied and perhaps sown again. */
function stirredAfter(node: SowingNode, pit: number): number {
  let stirred = node.stirred | (1 << pit);
  for (const captured of node.ply.captures) stirred |= 1 << captured;
  return stirred;
}

/** The node a history starts from: a ply the referee was sure of, nothing owed. */
export function rootNode(ply: Ply): SowingNode {
  return { ply, owed: [], cursor: 0, blind: 0, stirred: 0 };
}

/**
 * Sees pits emptied, frame by frame: a pit that held stones and now reads about its zero was
 * lifted. The weights come in as medians of three frames, so a one-frame glitch lifts nothing.
 */
export class LiftWatch {
  private readonly full = new Uint8Array(12);
  private readonly list: Lift[] = [];
  /** Lifts dropped from the front of the list (so that indices stay valid). */
  private dropped = 0;

  /** Start from known counts (the opening, a resumed position). */
  reset(counts: readonly number[]): void {
    for (let pit = 0; pit < 12; pit++) this.full[pit] = counts[pit] > 0 ? 1 : 0;
  }

  /** One frame's medians: `empty` is the most a pit reads when empty, `full` the least it reads holding a stone. */
  see(t: number, grams: ArrayLike<number>, zeros: ArrayLike<number>, emptyAbove: number, fullAbove: number): void {
    for (let pit = 0; pit < 12; pit++) {
      const over = grams[pit] - zeros[pit];
      if (this.full[pit]) {
        if (over <= emptyAbove) {
          this.full[pit] = 0;
          this.list.push({ cell: pit, t });
        }
      } else if (over >= fullAbove) this.full[pit] = 1;
    }
  }

  /** How many lifts have been seen in all: an index for `since`. */
  get count(): number {
    return this.dropped + this.list.length;
  }

  /** The lifts seen since index `from` (a `count` taken earlier). */
  since(from: number): readonly Lift[] {
    return this.list.slice(Math.max(0, from - this.dropped));
  }

  /** Forget lifts before index `from`: no anchor needs them. */
  forgetBefore(from: number): void {
    const n = Math.min(this.list.length, from - this.dropped);
    if (n <= 0) return;
    this.list.splice(0, n);
    this.dropped += n;
  }
}
