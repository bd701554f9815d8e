// Simulated Malawi players: whole games chosen with the engine and turned into the physical actions of hands on a square board.
import { Random, type GridAction, type GridPieceSpec } from '../../firmware-bridge/index.ts';
import {
  DEFAULT_OPTIONS,
  initial,
  legalMoves,
  observe,
  observeCounts,
  play,
  whyIllegalMoveTo,
  type EndReason,
  type MalawiMove,
  type MalawiOptions,
  type MalawiState,
  type MoveKind,
  type Side,
} from '../rules/malawi.ts';
import { formatMove, squareName } from '../rules/malawi-notation.ts';
import { assertNever } from '../rules/types.ts';
import { PeoplePlanner, clearLine, neighbours, sameCells, scriptMarks, type PeoplePlanEvent, type TakeBackPlanEvent } from './player-common.ts';
import type { PeopleModel } from './people.ts';

export interface MalawiPlayerOptions {
  readonly seed: number | string;
  /** Engine options (`size` is also the board's cols and rows). */
  readonly rules?: Partial<MalawiOptions>;
  /** Chance per turn that the player first puts a piece on a square no legal move reaches, notices, and corrects it. */
  readonly illegalProbability?: number;
  /** Of those, the chance that the player moves the misplaced piece straight on to a legal square instead of back first. Default 0.4. */
  readonly correctOnwardProbability?: number;
  /** Chance after a move (one that does not end the game) that the players take back the last move. */
  readonly takeBackProbability?: number;
  /** Of those take-backs, the chance that the last two moves are taken back. Default 0.3. */
  readonly takeBackTwoProbability?: number;
  /** Chance that a piece is slid along the board rather than lifted and carried (where its way is clear). Default 0.5. */
  readonly slideProbability?: number;
  /** Chance per turn that the player takes a capture on offer. Default 0.6. */
  readonly captureEagerness?: number;
  /** Chance per turn (no capture taken) that the player distributes instead of moving. Default 0.2. */
  readonly distributeProbability?: number;
  /** Moves played (taken-back ones included) after which the session stops mid-game; default: play to the end. */
  readonly maxMoves?: number;
  /** How the people behave beyond their moves (people.ts); left out, the calm players of the first model. */
  readonly people?: Partial<PeopleModel>;
}

/** A game that runs this long is a bug (the repetition rule and the loss of beads end every game long before). */
const RUNAWAY_MOVES = 5000;

export const HANDLINGS = ['slide', 'carry'] as const;
/** How a hand moves a piece: along the board (the squares passed sense it) or through the air. */
export type Handling = (typeof HANDLINGS)[number];

export const CORRECTIONS = ['back', 'onward'] as const;
/** How a misplaced piece is corrected: put back where it came from, or moved on to where a legal move ends. */
export type Correction = (typeof CORRECTIONS)[number];

/** The colour of each side's pieces on the board (the board knows colours, not sides). */
export const MALAWI_COLOURS: Readonly<Record<Side, string>> = { south: 'light', north: 'dark' };

/** One thing that happened at the board, tied to the `mark` in the script that times it. */
export type MalawiPlanEvent =
  | {
      readonly kind: 'move';
      readonly label: string;
      readonly endLabel: string;
      /** Position in the record at the time it was played (1-based). */
      readonly ply: number;
      readonly move: string;
      readonly moveKind: MoveKind;
      readonly side: Side;
      /** How the piece travelled; null for a capture or a distribution (only beads move). */
      readonly handling: Handling | null;
      /** Beads taken off the attacked piece, or off the distributing piece. */
      readonly beads: number;
      /** Other legal moves in the same position that leave the same occupancy (for a capture or distribution: the rest of them). */
      readonly sameOccupancy: number;
      /** Other legal moves that leave the same counts (a capture that several pieces could have made). */
      readonly sameCounts: number;
    }
  | {
      readonly kind: 'illegal';
      readonly label: string;
      readonly from: string;
      readonly to: string;
      readonly side: Side;
      /** What the engine says of a move from `from` to `to` (`malawi/wrong-distance`, …). */
      readonly code: string;
      readonly correction: Correction;
      readonly handling: Handling;
    }
  | TakeBackPlanEvent
  | { readonly kind: 'end'; readonly label: string; readonly reason: EndReason; readonly winner: Side | 'draw' };

export interface MalawiGamePlan {
  readonly options: MalawiOptions;
  /** The starting position as pieces on the board. */
  readonly layout: readonly GridPieceSpec[];
  /** The script for the board, `mark`s included. */
  readonly actions: readonly GridAction[];
  readonly events: readonly MalawiPlanEvent[];
  /** The game record after take-backs, in notation. */
  readonly record: readonly string[];
  readonly final: MalawiState;
  /** What the people did beyond their moves (none without `people`). */
  readonly people: readonly PeoplePlanEvent[];
}

/** The pieces of a position as set on a board: each on its square, with its beads, in its side's colour. */
export function malawiLayout(state: MalawiState): GridPieceSpec[] {
  const out: GridPieceSpec[] = [];
  state.squares.forEach((piece, cell) => {
    if (piece !== null) out.push({ cell, beads: piece.strength, colour: MALAWI_COLOURS[piece.side] });
  });
  return out;
}

/** What a square board needs to start a Malawi game: its size and the starting position. */
export function malawiBoardSetup(rules: Partial<MalawiOptions> = {}): { cols: number; rows: number; pieces: GridPieceSpec[] } {
  const options: MalawiOptions = { ...DEFAULT_OPTIONS, ...rules };
  return { cols: options.size, rows: options.size, pieces: malawiLayout(initial(options)) };
}

/** How many other legal moves leave the same sensor reading as `move`. */
function lookAlikes(state: MalawiState, move: MalawiMove, next: MalawiState, moves: readonly MalawiMove[]): { occupancy: number; counts: number } {
  // A step changes two squares that name it; only captures and distributions can look alike.
  if (move.kind === 'move') return { occupancy: 0, counts: 0 };
  const occupancy = observe(next);
  const counts = observeCounts(next);
  let sameOccupancy = 0;
  let sameCounts = 0;
  const size = state.options.size;
  const notation = formatMove(move, size);
  for (const other of moves) {
    if (formatMove(other, size) === notation) continue;
    const r = play(state, other);
    if (!r.ok) continue;
    if (sameCells(observe(r.value), occupancy)) sameOccupancy++;
    if (sameCells(observeCounts(r.value), counts)) sameCounts++;
  }
  return { occupancy: sameOccupancy, counts: sameCounts };
}

/** What people play: a capture when they see one, a winning step always, otherwise mostly steps, sometimes a distribution. */
function chooseMove(state: MalawiState, moves: readonly MalawiMove[], rng: Random, eagerness: number, pDistribute: number): MalawiMove {
  const captures = moves.filter((m) => m.kind === 'capture');
  if (captures.length > 0 && rng.chance(eagerness)) return rng.pick(captures);
  const steps = moves.filter((m) => m.kind === 'move');
  const winning = steps.filter((m) => {
    const r = play(state, m);
    return r.ok && r.value.outcome?.winner === state.toMove;
  });
  if (winning.length > 0) return rng.pick(winning);
  const distributions = moves.filter((m) => m.kind === 'distribute');
  if (distributions.length > 0 && (steps.length === 0 || rng.chance(pDistribute))) {
    // Most players give every bead they can rather than lose some.
    const most = Math.max(...distributions.map((m) => (m.kind === 'distribute' ? m.recipients.length : 0)));
    const full = distributions.filter((m) => m.kind === 'distribute' && m.recipients.length === most);
    return rng.chance(0.7) ? rng.pick(full) : rng.pick(distributions);
  }
  if (steps.length > 0) return rng.pick(steps);
  return rng.pick(moves);
}

interface PlayedMove {
  readonly move: MalawiMove;
  readonly notation: string;
  readonly before: MalawiState;
}

/** Plans a whole game: the engine offers the legal moves, people choose, err and take back now and then. */
export function planMalawiGame(options: MalawiPlayerOptions): MalawiGamePlan {
  const rules: MalawiOptions = { ...DEFAULT_OPTIONS, ...options.rules };
  const n = rules.size;
  const rng = new Random(options.seed).fork('player');
  const pIllegal = options.illegalProbability ?? 0;
  const pOnward = options.correctOnwardProbability ?? 0.4;
  const pTakeBack = options.takeBackProbability ?? 0;
  const pTwo = options.takeBackTwoProbability ?? 0.3;
  const pSlide = options.slideProbability ?? 0.5;
  const eagerness = options.captureEagerness ?? 0.6;
  const pDistribute = options.distributeProbability ?? 0.2;
  const maxMoves = options.maxMoves ?? Infinity;

  const actions: GridAction[] = [];
  const events: MalawiPlanEvent[] = [];
  const start = initial(rules);
  let state = start;
  const history: PlayedMove[] = [];
  let movesMade = 0;
  const mark = scriptMarks(actions);
  const name = (square: number): string => squareName(square, n);
  const people = options.people === undefined ? null : new PeoplePlanner(options.people, options.seed, actions, mark);
  const ply = (): number => history.length + 1;

  /**
   * A step as rougher hands make it, or null for a plain one: the piece set down one square off
   * and moved on within half a second, a square hovered over on the way, or the piece held in the
   * air for a while.
   */
  const peopleStep = (p: PeoplePlanner, from: number, to: number): Handling | null => {
    const squares = state.squares.slice();
    squares[from] = null;
    const empty = (sq: number): boolean => squares[sq] === null && sq !== from && sq !== to;
    if (p.chance(p.model.correctPlacement)) {
      const wrong = neighbours(to, n, n).filter(empty);
      if (wrong.length > 0) {
        p.correctedCarry(ply(), from, p.pick(wrong), to, 'corrected-placement');
        return 'carry';
      }
    }
    if (p.chance(p.model.hover)) {
      const over = [...neighbours(to, n, n), ...neighbours(from, n, n)].filter(empty);
      if (over.length > 0) {
        p.hoverCarry(ply(), from, to, p.pick(over));
        return 'carry';
      }
    }
    if (p.chance(p.model.handRest)) {
      p.restingCarry(ply(), from, to);
      return 'carry';
    }
    return null;
  };

  /** Moves the piece on `from` to `to` by hand; `squares` is the board at that moment (for whether the way is clear). */
  const movePiece = (squares: MalawiState['squares'], from: number, to: number): Handling => {
    const handling: Handling = clearLine(squares, from, to, n) && (people?.slideAllowed() ?? true) && rng.chance(pSlide) ? 'slide' : 'carry';
    actions.push({ kind: handling, from, to });
    return handling;
  };

  /**
   * The squares a piece is put on by mistake: one short or one too far along a rank or file,
   * diagonally next to it, or at the right distance but past another piece. A piece of
   * strength 0 moved one square is a mistake too.
   */
  const mistakes = (): { from: number; to: number }[] => {
    const out: { from: number; to: number }[] = [];
    for (let from = 0; from < n * n; from++) {
      const piece = state.squares[from];
      if (piece === null || piece.side !== state.toMove) continue;
      const s = piece.strength;
      const row = Math.floor(from / n);
      const col = from % n;
      const targets: [number, number][] = [];
      for (const [dr, dc] of [
        [1, 0],
        [0, 1],
        [-1, 0],
        [0, -1],
      ] as const) {
        for (const d of s === 0 ? [1] : [s - 1, s, s + 1]) if (d > 0) targets.push([row + dr * d, col + dc * d]);
      }
      for (const [dr, dc] of [
        [1, 1],
        [1, -1],
        [-1, 1],
        [-1, -1],
      ] as const) {
        targets.push([row + dr, col + dc]);
      }
      for (const [r, c] of targets) {
        if (r < 0 || r >= n || c < 0 || c >= n) continue;
        const to = r * n + c;
        if (state.squares[to] === null && whyIllegalMoveTo(state, from, to) !== null) out.push({ from, to });
      }
    }
    return out;
  };

  /** A piece put where no legal move reaches; the player notices. Returns the corrected piece's square when it is to move on. */
  const illegalAttempt = (): { from: number; at: number } | null => {
    const candidates = mistakes();
    if (candidates.length === 0) return null;
    const { from, to } = rng.pick(candidates);
    const code = whyIllegalMoveTo(state, from, to)!.code;
    const steps = legalMoves(state).filter((m) => m.kind === 'move' && m.from === from);
    const correction: Correction = steps.length > 0 && rng.chance(pOnward) ? 'onward' : 'back';
    const label = mark('illegal');
    const handling = movePiece(state.squares, from, to);
    events.push({ kind: 'illegal', label, from: name(from), to: name(to), side: state.toMove, code, correction, handling });
    actions.push({ kind: 'wait', ms: Math.round(rng.range(400, 1500)) }); // noticing
    if (correction === 'onward') return { from, at: to };
    const emptied = state.squares.slice();
    emptied[from] = null;
    movePiece(emptied, to, from);
    actions.push({ kind: 'think' });
    return null;
  };

  /** The hands' part of a move. `at` is where a misplaced piece now stands, if the player moves it on from there. */
  const physicalMove = (move: MalawiMove, at: number | null): { handling: Handling | null; beads: number } => {
    switch (move.kind) {
      case 'move': {
        const rough = at === null && people !== null ? peopleStep(people, move.from, move.to) : null;
        if (rough !== null) return { handling: rough, beads: 0 };
        if (at === null) return { handling: movePiece(state.squares, move.from, move.to), beads: 0 };
        const squares = state.squares.slice();
        squares[move.from] = null;
        return { handling: movePiece(squares, at, move.to), beads: 0 };
      }
      case 'capture': {
        // The attacker's player takes the beads off the attacked piece; neither piece moves.
        const beads = state.squares[move.to]!.strength;
        if (people !== null) {
          // Rougher hands lift the attacked piece, pull its beads off in the air and set it back.
          const off = people.range(people.model.victimOffMs);
          const strip = Math.round(off * 0.3);
          const stow = Math.round(off * 0.2);
          people.note('victim-off', ply(), [move.to], off);
          actions.push({ kind: 'lift', cell: move.to, tail: 0 }, { kind: 'strip-beads', ms: strip }, { kind: 'stow-beads', ms: stow }, { kind: 'put', cell: move.to, lead: off - strip - stow });
          return { handling: null, beads };
        }
        actions.push({ kind: 'take-beads', cell: move.to }, { kind: 'stow-beads' });
        return { handling: null, beads };
      }
      case 'distribute': {
        const beads = state.squares[move.from]!.strength;
        actions.push({ kind: 'take-beads', cell: move.from });
        let given = 0;
        if (people !== null && move.recipients.length >= 2 && people.chance(people.model.bothHands)) {
          // A bead in each hand, set on two pieces at once.
          const [a, b] = move.recipients;
          people.note('both-hands', ply(), [a, b], null);
          actions.push({ kind: 'add-beads', cell: a, ms: 80, tail: 0 }, { kind: 'add-beads', cell: b, ms: 80, lead: people.range([0, 40]) });
          given = 2;
        }
        for (const r of move.recipients.slice(given)) actions.push({ kind: 'add-beads', cell: r });
        if (beads > move.recipients.length) actions.push({ kind: 'stow-beads' });
        return { handling: null, beads };
      }
      default:
        return assertNever(move);
    }
  };

  const takeBack = (count: number): void => {
    const label = mark('takeback');
    const undone: string[] = [];
    for (let i = 0; i < count; i++) {
      const last = history.pop()!;
      const { move, before } = last;
      const after = state;
      switch (move.kind) {
        case 'move':
          movePiece(after.squares, move.to, move.from);
          break;
        case 'capture': {
          const beads = before.squares[move.to]!.strength;
          actions.push({ kind: 'fetch-beads', count: beads }, { kind: 'add-beads', cell: move.to, count: beads });
          break;
        }
        case 'distribute': {
          const beads = before.squares[move.from]!.strength;
          for (let j = move.recipients.length - 1; j >= 0; j--) actions.push({ kind: 'take-beads', cell: move.recipients[j], count: 1 });
          const lost = beads - move.recipients.length;
          if (lost > 0) actions.push({ kind: 'fetch-beads', count: lost });
          actions.push({ kind: 'add-beads', cell: move.from, count: beads });
          break;
        }
        default:
          assertNever(move);
      }
      state = before;
      undone.push(last.notation);
    }
    events.push({ kind: 'take-back', label, moves: undone });
  };

  while (state.outcome === null) {
    if (movesMade >= RUNAWAY_MOVES) throw new Error(`no end after ${RUNAWAY_MOVES} moves`);
    if (movesMade >= maxMoves) break;
    if (people !== null) people.turn(ply());
    else actions.push({ kind: 'think' });
    const misplaced = rng.chance(pIllegal) ? illegalAttempt() : null;
    const moves = legalMoves(state);
    if (moves.length === 0) throw new Error('the engine offers no move in a game that is not over');
    const move =
      misplaced === null
        ? chooseMove(state, moves, rng, eagerness, pDistribute)
        : rng.pick(moves.filter((m) => m.kind === 'move' && m.from === misplaced.from));
    const result = play(state, move);
    if (!result.ok) throw new Error(`the engine refused its own legal move ${formatMove(move, n)}: ${result.error.code}`);
    const next = result.value;
    const notation = formatMove(move, n);
    const alike = lookAlikes(state, move, next, moves);
    const label = mark('move');
    const { handling, beads } = physicalMove(move, misplaced?.at ?? null);
    const endLabel = mark('moved');
    events.push({
      kind: 'move',
      label,
      endLabel,
      ply: history.length + 1,
      move: notation,
      moveKind: move.kind,
      side: state.toMove,
      handling,
      beads,
      sameOccupancy: alike.occupancy,
      sameCounts: alike.counts,
    });
    history.push({ move, notation, before: state });
    movesMade++;
    state = next;
    if (state.outcome === null && rng.chance(pTakeBack)) {
      // People notice after a moment: the board stands still in the position they then undo.
      actions.push({ kind: 'think' });
      takeBack(history.length >= 2 && rng.chance(pTwo) ? 2 : 1);
    }
  }
  if (state.outcome !== null) {
    const label = mark('end');
    events.push({ kind: 'end', label, reason: state.outcome.reason, winner: state.outcome.winner });
  }
  people?.finish();
  return { options: rules, layout: malawiLayout(start), actions, events, record: history.map((h) => h.notation), final: state, people: people?.events ?? [] };
}
