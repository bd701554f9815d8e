// The decoder over game histories every referee shares: which few histories since the last certain
// position explain all the board has shown, and what of the record they agree on.
//
// In the spirit of a Viterbi decoder: a history is a path of moves from a root (a position the
// referee is sure of), scored by how well it explains the evidence (the settled picture, and what
// the board showed on the way there: which cells were lifted, in which order). The search extends
// paths by the moves a person may make, keeps the best within a beam, and the record takes the
// moves on which every history that fits about as well as the best agrees. A move already in the
// record that the agreed history replaces is corrected, never silently kept. Each game is an
// adapter: what a move leads to, and how well a position explains its board's evidence.

/** What a game gives the decoder. `Node` is a position with whatever the adapter tracks beside it. */
export interface HistoryAdapter<Node, Move, Evidence> {
  /** The moves a person may make from `node` that the evidence allows, each with its prior cost (≥ 0). */
  moves(node: Node, evidence: Evidence): Iterable<{ readonly move: Move; readonly next: Node; readonly cost: number }>;
  /** How well `node` explains the evidence: a cost (lower is better, like a chi-square), or null when it cannot. */
  fit(node: Node, evidence: Evidence): number | null;
  /** Two moves that are one in the record. */
  same(a: Move, b: Move): boolean;
  /**
   * How far `node` is still from explaining the evidence, at least (optional): the beam keeps the
   * histories whose cost so far and this together are least, so a deep search keeps the paths
   * that head for the picture. It orders the search only; the costs found are `fit`'s.
   */
  estimate?(node: Node, evidence: Evidence): number;
}

/** A history that explains the evidence: its moves from the root, the positions they reach, its cost. */
export interface Explanation<Node, Move> {
  readonly moves: readonly Move[];
  readonly nodes: readonly Node[];
  readonly cost: number;
}

export interface SearchLimits {
  /** Most moves a history may add to the root. */
  readonly depth: number;
  /** Most histories expanded per depth (the beam), best prior first. */
  readonly width: number;
  /** Histories costing more than the best by this much are dropped. */
  readonly beam: number;
}

export const DEFAULT_LIMITS: SearchLimits = { depth: 8, width: 400, beam: 40 };

/**
 * Every history from `root` of at most `limits.depth` moves that explains the evidence, best first,
 * none costing more than the best by `limits.beam`. Histories are grown breadth first, the cheapest
 * priors first, at most `limits.width` per depth.
 */
export function explain<Node, Move, Evidence>(
  adapter: HistoryAdapter<Node, Move, Evidence>,
  root: Node,
  evidence: Evidence,
  limits: SearchLimits = DEFAULT_LIMITS,
): Explanation<Node, Move>[] {
  // A history is a chain back to the root: a layer of thousands of candidates copies nothing.
  interface Path {
    readonly parent: Path | null;
    readonly move: Move | null;
    readonly node: Node;
    readonly prior: number;
    /** The adapter's estimate of what is still to explain (0 without one). */
    readonly ahead: number;
  }
  const unwind = (path: Path): { moves: Move[]; nodes: Node[] } => {
    const moves: Move[] = [];
    const nodes: Node[] = [];
    for (let p: Path | null = path; p; p = p.parent) {
      nodes.push(p.node);
      if (p.parent) moves.push(p.move as Move);
    }
    return { moves: moves.reverse(), nodes: nodes.reverse() };
  };
  const found: Explanation<Node, Move>[] = [];
  let layer: Path[] = [{ parent: null, move: null, node: root, prior: 0, ahead: 0 }];
  for (let depth = 0; depth <= limits.depth && layer.length; depth++) {
    const next: Path[] = [];
    for (const path of layer) {
      const cost = adapter.fit(path.node, evidence);
      if (cost !== null) found.push({ ...unwind(path), cost: cost + path.prior });
      if (depth === limits.depth) continue;
      for (const step of adapter.moves(path.node, evidence)) {
        const ahead = adapter.estimate ? adapter.estimate(step.next, evidence) : 0;
        next.push({ parent: path, move: step.move, node: step.next, prior: path.prior + step.cost, ahead });
      }
    }
    next.sort((a, b) => a.prior + a.ahead - (b.prior + b.ahead));
    layer = next.length > limits.width ? next.slice(0, limits.width) : next;
  }
  found.sort((a, b) => a.cost - b.cost);
  if (found.length === 0) return found;
  const worst = found[0].cost + limits.beam;
  return found.filter((e) => e.cost <= worst);
}

/** What the record does with the histories that explain the evidence. */
export type Agreement<Node, Move> =
  /** No history explains the board. */
  | { readonly kind: 'none' }
  /** The histories within the margin disagree on a move the record would need: wait for more evidence. */
  | { readonly kind: 'undecided'; readonly agreed: readonly Move[]; readonly options: readonly (readonly Move[])[] }
  /** They agree on the whole history: `keep` moves of the record stand, `replace` are corrected, `add` are new. */
  | {
      readonly kind: 'agreed';
      /** The history taken, from the root. */
      readonly history: Explanation<Node, Move>;
      readonly keep: number;
      readonly replace: readonly Move[];
      readonly add: readonly Move[];
    };

/**
 * Which history the record takes, given the moves it holds since the root (`recorded`) and the
 * histories found (best first): the histories costing at most the best plus `margin` must agree.
 * Where one of them keeps the record as it is, it is preferred: a move is corrected only when no
 * history that fits about as well keeps it.
 */
export function agree<Node, Move>(
  adapter: Pick<HistoryAdapter<Node, Move, never>, 'same'>,
  recorded: readonly Move[],
  found: readonly Explanation<Node, Move>[],
  margin: number,
): Agreement<Node, Move> {
  if (found.length === 0) return { kind: 'none' };
  const close = found.filter((e) => e.cost <= found[0].cost + margin);
  const keepsRecord = (e: Explanation<Node, Move>) => e.moves.length >= recorded.length && recorded.every((m, i) => adapter.same(m, e.moves[i]));
  // The record standing is the safest reading whenever it fits about as well as anything else.
  const standing = close.filter(keepsRecord);
  const candidates = standing.length ? standing : close;
  const first = candidates[0].moves;
  let agreed = first.length;
  for (const e of candidates) {
    let k = 0;
    while (k < agreed && k < e.moves.length && adapter.same(first[k], e.moves[k])) k++;
    agreed = Math.min(agreed, k);
  }
  const allSame = candidates.every((e) => e.moves.length === agreed);
  if (!allSame) return { kind: 'undecided', agreed: first.slice(0, agreed), options: candidates.map((e) => e.moves) };
  let keep = 0;
  while (keep < recorded.length && keep < first.length && adapter.same(recorded[keep], first[keep])) keep++;
  return { kind: 'agreed', history: candidates[0], keep, replace: recorded.slice(keep), add: first.slice(keep) };
}
