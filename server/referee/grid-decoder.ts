// The decoder of square boards (Malawi, Makis, Adu): which moves since a position the referee was sure of explain a settled picture that no single move does — quick runs made without a still board between them, a placement corrected after it was committed — from the squares the hands touched on the way.
//
// A square board's sensors tell little of a move by themselves, but the squares a hand touched
// between two still pictures are evidence too: a piece moved in a quick run leaves its squares
// touched even when a later move of the run covers them again, and a victim taken off for 300 ms
// leaves its square touched though the settled pictures show it occupied throughout. So a history
// is grown only by moves whose squares were all touched since its root, and it explains the
// picture when the position it reaches shows exactly that picture on every trusted square. The
// search and the agreement are the shared decoder's (decoder.ts); this file is the adapter every
// square board has in common, and each game gives what its moves are and what a position shows.
import { agree, explain, type Agreement, type HistoryAdapter, type SearchLimits } from './decoder.ts';

/** What a square-board game gives the decoder. */
export interface GridGame<S, M> {
  /** The moves a person may make from `state` (the legal ones; a game over has none). */
  moves(state: S): readonly M[];
  /**
   * The squares a hand touches to make `move` from `before` (reaching `after`): every one must have
   * been touched for the move to be read. `changedCells` is what the sensors see change; a game
   * adds squares touched but left as they were (a victim taken off and the captor set down there).
   */
  cells(before: S, move: M, after: S): readonly number[];
  /** The squares a move names, cheaply, before it is played (the squares it may change). */
  named(move: M): readonly number[];
  /** The position after `move`, or null when the rules refuse it. */
  play(state: S, move: M): S | null;
  /** What the board shows of a position, one value per cell (as the settled pictures are). */
  observe(state: S): readonly number[];
  /** Two moves that are one in the record. */
  same(a: M, b: M): boolean;
}

/** The squares whose reading differs between two positions: what a move changes that the sensors see. */
export function changedCells<S>(observe: (state: S) => readonly number[], before: S, after: S): number[] {
  const a = observe(before);
  const b = observe(after);
  const cells: number[] = [];
  for (let c = 0; c < a.length; c++) if (a[c] !== b[c]) cells.push(c);
  return cells;
}

/** What the decoder reads a history against. */
export interface GridEvidence {
  /** The settled picture. */
  readonly cells: readonly number[];
  /** Cells not to look at (unsure or overridden sensors): 1 = wild. */
  readonly wild: ArrayLike<number>;
  /** When a hand touched each cell since the root (every change of its reading), ascending, ms of the board's clock. */
  readonly touched: readonly (readonly number[])[];
  /**
   * Cells touched since the board last showed the record's position, 1 = touched: a move beyond
   * the record must touch one of them. The older windows belong to the moves recorded in them, so a
   * move read into the record now cannot be made of them alone.
   */
  readonly fresh: ArrayLike<number>;
}

export interface GridHistoryLimits {
  /** Most moves of the record a later picture may still replace. */
  readonly back: number;
  /** Most moves made in a row without a still board (people play runs of five). */
  readonly run: number;
}

export const DEFAULT_GRID_HISTORY: GridHistoryLimits = { back: 3, run: 5 };

/** Most moves played out per decoding: about 10 ms of the rules' time on this project's boards. */
const MOST_PLAYS = 2500;

/** Most moves tried from one position: those that change the most squares still unlike the picture. */
const PER_NODE = 16;

/** Two hands at once: a move may begin this long before the one it follows, ms. */
const BOTH_HANDS_MS = 150;

/** About how many squares one move changes (a move two, a capture or a distribution two or three). */
const SQUARES_PER_MOVE = 2;

/** Trusted squares where a position's picture differs from the settled one. */
function differing(shown: readonly number[], ev: GridEvidence): number {
  let n = 0;
  for (let c = 0; c < shown.length; c++) if (shown[c] !== ev.cells[c] && ev.wild[c] !== 1) n++;
  return n;
}

interface Node<S> {
  readonly state: S;
  /** What the board shows of it. */
  readonly shown: readonly number[];
  /** Trusted squares where its picture differs from the settled one. */
  readonly differing: number;
  /** Moves from the root. */
  readonly depth: number;
  /** When the move that led here began: its first square touched. */
  readonly began: number;
}

/**
 * Histories from `root` that add up to `limits.run` moves to the record since it (`recorded`):
 * which of them explain the picture, and what the record makes of them. Where histories that fit
 * as well disagree, the record waits (`undecided`) rather than guess.
 */
export function decodeGrid<S, M>(
  game: GridGame<S, M>,
  root: S,
  recorded: readonly M[],
  evidence: GridEvidence,
  limits: GridHistoryLimits = DEFAULT_GRID_HISTORY,
): Agreement<S, M> {
  // The squares of the moves recorded since the root were touched, whether their window was seen or not.
  const touched = evidence.touched.map((times) => [...times]);
  let state: S | null = root;
  for (const move of recorded) {
    const next: S | null = state === null ? null : game.play(state, move);
    if (state !== null && next !== null) for (const c of game.cells(state, move, next)) if (touched[c].length === 0) touched[c].push(-Infinity);
    state = next;
  }
  // A bound on the work per picture: the referee must keep up with 20 frames a second.
  let budget = MOST_PLAYS;
  const adapter: HistoryAdapter<Node<S>, M, GridEvidence> = {
    // A move is read only where its squares were touched after the move before it began: the hands
    // make a run one move after another, so the same touches cannot make two moves back and forth.
    *moves(node, ev) {
      const beyond = node.depth >= recorded.length;
      const after = beyond ? node.began - BOTH_HANDS_MS : -Infinity;
      // The moves whose squares were all touched, those that change squares still unlike the picture first.
      const candidates: { move: M; helps: number }[] = [];
      for (const move of game.moves(node.state)) {
        let helps = 0;
        let all = true;
        for (const c of game.named(move)) {
          if (touched[c].length === 0) {
            all = false;
            break;
          }
          if (node.shown[c] !== ev.cells[c] && ev.wild[c] !== 1) helps++;
        }
        if (all) candidates.push({ move, helps });
      }
      candidates.sort((a, b) => b.helps - a.helps);
      for (const { move } of candidates.slice(0, PER_NODE)) {
        if (budget-- <= 0) return;
        const next = game.play(node.state, move);
        if (next === null) continue;
        let began = Infinity;
        let ok = true;
        let fresh = false;
        for (const c of game.cells(node.state, move, next)) {
          const t = touched[c].find((x) => x >= after);
          if (t === undefined) {
            ok = false;
            break;
          }
          if (ev.fresh[c] === 1) fresh = true;
          began = Math.min(began, t);
        }
        if (!ok || (beyond && !fresh)) continue;
        const shown = game.observe(next);
        yield { move, next: { state: next, shown, differing: differing(shown, ev), depth: node.depth + 1, began: Math.max(began, node.began) }, cost: 1 };
      }
    },
    fit: (node) => (node.differing === 0 ? 0 : null),
    // A move changes a few squares: a history with many squares still unlike the picture is far from it.
    estimate: (node) => node.differing / SQUARES_PER_MOVE,
    same: game.same,
  };
  const search: SearchLimits = { depth: recorded.length + limits.run, width: 60, beam: 0.1 };
  const found = explain(adapter, { state: root, shown: game.observe(root), differing: differing(game.observe(root), evidence), depth: 0, began: -Infinity }, evidence, search);
  // A history that ends where the record already stands explains nothing new.
  const useful = found.filter((e) => e.moves.length > 0);
  const agreement = agree(adapter, recorded, useful, 0.1);
  if (agreement.kind !== 'agreed') return agreement;
  const h = agreement.history;
  return { ...agreement, history: { moves: h.moves, nodes: h.nodes.map((n) => n.state), cost: h.cost } };
}

/** A move of the record with the touches of the window that ended with it, in order (null: the window is still open). */
export interface TouchedPly {
  touched: readonly (readonly [cell: number, t: number])[] | null;
}

/** What a settle stage keeps of the window still open. */
export interface TouchWindow {
  readonly touched: Uint8Array;
  readonly touches: readonly (readonly [cell: number, t: number])[];
  clearTouched(): void;
}

/**
 * The board showed the record's position: the window of touches closes. The moves committed in it
 * (those at the end of the record that have no window yet) get its touches; the settler starts a
 * new one.
 */
export function closeWindow(plies: readonly TouchedPly[], window: TouchWindow): void {
  const touches = window.touches.slice();
  for (let p = plies.length - 1; p > 0 && plies[p].touched === null; p--) plies[p].touched = touches;
  window.clearTouched();
}

/** When each cell was touched since ply `root`, ascending: the windows of the moves after it, and the one still open. */
export function touchedSince(plies: readonly TouchedPly[], root: number, window: TouchWindow): number[][] {
  const times: number[][] = Array.from({ length: window.touched.length }, () => []);
  const seen = new Set<readonly unknown[]>();
  for (let p = root + 1; p < plies.length; p++) {
    const list = plies[p].touched;
    // Moves committed from one window share it: its touches count once.
    if (!list || seen.has(list)) continue;
    seen.add(list);
    for (const [c, t] of list) times[c].push(t);
  }
  for (const [c, t] of window.touches) times[c].push(t);
  for (const list of times) list.sort((a, b) => a - b);
  return times;
}
