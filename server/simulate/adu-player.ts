// Simulated Adu players, 2 to 6: whole games chosen with the engine and turned into the physical actions of hands at an occupancy grid.
import { Random, type GridAction, type GridTableOptions } from '../../firmware-bridge/index.ts';
import {
  DEFAULT_OPTIONS,
  RESERVE_KINGS,
  declarableRanges,
  initial,
  legalMoves,
  observe,
  play,
  squareName,
  whyIllegal,
  type AduMove,
  type AduOptions,
  type AduPiece,
  type AduState,
  type EndReason,
  type MoveKind,
  type PieceKind,
  type Player,
} from '../rules/adu.ts';
import { formatMove } from '../rules/adu-notation.ts';
import { mostSteps } from '../rules/adu-ranges.ts';
import { assertNever } from '../rules/types.ts';
import { canonicalAduMove } from '../referee/index.ts';
import { PeoplePlanner, clearLine, neighbours, sameCells, scriptMarks, type PeoplePlanEvent, type TakeBackPlanEvent } from './player-common.ts';
import type { PeopleModel } from './people.ts';

export interface AduPlayerOptions {
  readonly seed: number | string;
  /** Engine options: `players` (2–6), `size` (also the board's cols and rows), `diagonal`. */
  readonly rules?: Partial<AduOptions>;
  /** Chance per turn that the player first puts a piece where no legal move goes (too far, a king two steps, past a piece, out of turn…), notices, and corrects it. */
  readonly illegalProbability?: number;
  /** Of those, the chance that their own piece goes straight on to a point a legal move reaches instead of back first. Default 0.4. */
  readonly correctOnwardProbability?: number;
  /** Of those, the chance that it is another player's piece that moves (out of turn). Default 0.25. */
  readonly outOfTurnProbability?: number;
  /** Chance after a move (one that does not end the game or put a player out) that the players take back the last move. */
  readonly takeBackProbability?: number;
  /** Of those take-backs, the chance that the last two moves are taken back. Default 0.3. */
  readonly takeBackTwoProbability?: number;
  /** Chance that a piece is slid along its line rather than lifted and carried. Default 0.5. */
  readonly slideProbability?: number;
  /** Chance per turn that the player takes a capture on offer (a king's first). Default 0.7. */
  readonly captureEagerness?: number;
  /**
   * Chance that a capture is made in one sweep of the hand: the captured piece lifted and the captor
   * put in its place at once, so that no settled picture shows the captured piece off the board and
   * the referee console has to say what was captured. Otherwise the captured piece is taken off
   * first. Default 0.25.
   */
  readonly quickCaptureProbability?: number;
  /** Chance that the owner of a captured soldier declares the lowest range still possible (else any other possible one). Default 0.5. */
  readonly lowestDeclarationProbability?: number;
  /**
   * Players who cannot talk to the referee console (a live simulated table): no quick captures, no
   * move that looks like another to the board, and every captured soldier declared at its lowest
   * range (what the referee takes when nobody answers).
   */
  readonly silent?: boolean;
  /** Moves played (placements and taken-back ones included) after which the session stops mid-game; default: play to the end. */
  readonly maxMoves?: number;
  /** How the people behave beyond their moves (people.ts); left out, the calm players of the first model. */
  readonly people?: Partial<PeopleModel>;
}

/** A game that runs this long is a bug (the repetition rule ends every game long before). */
const RUNAWAY_MOVES = 20000;

export const ADU_HANDLINGS = ['place', 'slide', 'carry', 'clear-first', 'quick'] as const;
/**
 * How a hand made a move: put a piece from beside the board on a point, slid or carried a piece,
 * captured by taking the captured piece off first and then moving the captor there, or captured in
 * one sweep (the captured piece off and the captor on within a moment).
 */
export type AduHandling = (typeof ADU_HANDLINGS)[number];

export const ADU_CORRECTIONS = ['back', 'onward'] as const;
export type AduCorrection = (typeof ADU_CORRECTIONS)[number];

/** Each player's colour at the board (the board knows colours, not players), player 1 first. */
export const ADU_COLOURS: readonly string[] = ['blue', 'orange', 'green', 'purple', 'yellow', 'black'];
/** The reserve kings' colour: they come from a common supply. */
export const ADU_RESERVE_COLOUR = 'gold';

/** One thing that happened at the board, tied to the `mark` in the script that times it. */
export type AduPlanEvent =
  | {
      readonly kind: 'move';
      readonly label: string;
      readonly endLabel: string;
      /** Position in the record at the time it was played (1-based). */
      readonly ply: number;
      /** In the record's notation (a declaration only when it is not the lowest range). */
      readonly move: string;
      readonly moveKind: MoveKind;
      readonly player: Player;
      readonly handling: AduHandling;
      /** Other legal moves that leave the same occupancy. */
      readonly lookAlikes: number;
      /** What was captured; null for a placement or a plain move. */
      readonly captured: { readonly player: Player; readonly kind: PieceKind; readonly id: string } | null;
      /** A captured soldier: the ranges its owner could declare, and the one declared. */
      readonly declaration: { readonly ranges: readonly number[]; readonly range: number } | null;
      /** Where the reserve king went; null when none was earned. */
      readonly reserve: string | null;
      /** Pieces taken off because their player was put out. */
      readonly removed: number;
    }
  | {
      readonly kind: 'illegal';
      readonly label: string;
      readonly from: string;
      readonly to: string;
      /** Whose piece was moved (not always the player to move's). */
      readonly player: Player;
      readonly code: string;
      readonly correction: AduCorrection;
      readonly handling: AduHandling;
    }
  | TakeBackPlanEvent
  | { readonly kind: 'end'; readonly label: string; readonly reason: EndReason; readonly winner: Player | 'draw'; readonly players: readonly Player[] };

export interface AduGamePlan {
  readonly options: AduOptions;
  /** The script for the board, `mark`s included. */
  readonly actions: readonly GridAction[];
  readonly events: readonly AduPlanEvent[];
  /** The game record after take-backs, in notation. */
  readonly record: readonly string[];
  readonly final: AduState;
  /** What the people did beyond their moves (none without `people`). */
  readonly people: readonly PeoplePlanEvent[];
}

/**
 * What an Adu board needs at power-on: its size, no piece on it, and every piece beside it —
 * each player's two kings and six soldiers in their colour, the ten reserve kings.
 */
export function aduBoardSetup(rules: Partial<AduOptions> = {}): Required<Pick<GridTableOptions, 'cols' | 'rows' | 'pieces' | 'sparePieces'>> {
  const options: AduOptions = { ...DEFAULT_OPTIONS, ...rules };
  const sparePieces: { colour: string }[] = [];
  for (let p = 0; p < options.players; p++) for (let k = 0; k < 8; k++) sparePieces.push({ colour: ADU_COLOURS[p] });
  for (let k = 0; k < RESERVE_KINGS; k++) sparePieces.push({ colour: ADU_RESERVE_COLOUR });
  return { cols: options.size, rows: options.size, pieces: [], sparePieces };
}

/** The colour of a piece at the board. */
export const aduColour = (piece: AduPiece): string => (piece.kind === 'reserve' ? ADU_RESERVE_COLOUR : ADU_COLOURS[piece.player - 1]);

/** How many other legal moves leave the board reading the same as `next` (they must start where `move` starts). */
function lookAlikes(state: AduState, move: AduMove, next: AduState, moves: readonly AduMove[]): number {
  if (move.kind === 'place-king' || move.kind === 'place-soldier') return 0;
  const picture = observe(next);
  const key = formatMove({ ...move, ...(move.kind === 'capture' ? { declare: null } : {}) } as AduMove, state.options.size);
  let n = 0;
  for (const other of moves) {
    if (other.kind !== 'move' && other.kind !== 'capture') continue;
    if (other.from !== move.from || formatMove(other, state.options.size) === key) continue;
    const r = play(state, other);
    if (r.ok && sameCells(observe(r.value), picture)) n++;
  }
  return n;
}

/** Whether `picture` is `earlier` with exactly one piece lifted. */
function oneLifted(earlier: readonly number[], picture: readonly number[]): boolean {
  let lifted = 0;
  for (let i = 0; i < earlier.length; i++) {
    if (earlier[i] === picture[i]) continue;
    if (earlier[i] === 1 && picture[i] === 0 && ++lifted === 1) continue;
    return false;
  }
  return lifted === 1;
}

interface PlayedMove {
  readonly move: AduMove;
  readonly notation: string;
  readonly before: AduState;
  readonly handling: AduHandling;
}

/** Plans a whole game: the engine offers the legal moves, people choose, err and take back now and then. */
export function planAduGame(options: AduPlayerOptions): AduGamePlan {
  const rules: AduOptions = { ...DEFAULT_OPTIONS, ...options.rules };
  const n = rules.size;
  const rng = new Random(options.seed).fork('player');
  const silent = options.silent ?? false;
  const pIllegal = options.illegalProbability ?? 0;
  const pOnward = options.correctOnwardProbability ?? 0.4;
  const pOutOfTurn = options.outOfTurnProbability ?? 0.25;
  const pTakeBack = options.takeBackProbability ?? 0;
  const pTwo = options.takeBackTwoProbability ?? 0.3;
  const pSlide = options.slideProbability ?? 0.5;
  const eagerness = options.captureEagerness ?? 0.7;
  const pQuick = silent ? 0 : (options.quickCaptureProbability ?? 0.25);
  const pLowest = silent ? 1 : (options.lowestDeclarationProbability ?? 0.5);
  const maxMoves = options.maxMoves ?? Infinity;

  const actions: GridAction[] = [];
  const events: AduPlanEvent[] = [];
  let state = initial(rules);
  const history: PlayedMove[] = [];
  let movesMade = 0;
  const mark = scriptMarks(actions);
  const name = (square: number): string => squareName(square, n);
  const people = options.people === undefined ? null : new PeoplePlanner(options.people, options.seed, actions, mark);
  const ply = (): number => history.length + 1;
  const emptyNeighbours = (squares: AduState['squares'], cell: number, except: readonly number[] = []): number[] =>
    neighbours(cell, n, n).filter((sq) => squares[sq] === null && !except.includes(sq));

  /** A plain move as rougher hands make it, or false for a plain one: a point hovered over on the way, or the piece held in the air a while. */
  const peopleMove = (p: PeoplePlanner, from: number, to: number): boolean => {
    const squares = state.squares.slice();
    squares[from] = null;
    if (p.chance(p.model.hover)) {
      const over = [...emptyNeighbours(squares, to, [from]), ...emptyNeighbours(squares, from, [to])];
      if (over.length > 0) {
        p.hoverCarry(ply(), from, to, p.pick(over));
        return true;
      }
    }
    if (p.chance(p.model.handRest)) {
      p.restingCarry(ply(), from, to);
      return true;
    }
    return false;
  };

  /**
   * A capture as rougher hands make it, the captured piece off the board only `victimOffMs`
   * before the captor lands on its point: the captor first set down beside its victim and then
   * swapped in, or both pieces lifted at once, or the victim lifted and the captor carried at once.
   */
  const peopleCapture = (p: PeoplePlanner, from: number, to: number): void => {
    const off = p.range(p.model.victimOffMs);
    const beside = emptyNeighbours(state.squares, to);
    if (beside.length > 0 && p.chance(p.model.besideVictim)) {
      const b = p.pick(beside);
      p.note('beside-victim', ply(), [b, to], null);
      actions.push({ kind: 'carry', from, to: b }, { kind: 'wait', ms: p.range([200, 600]) });
      from = b;
    } else if (p.chance(p.model.bothHands)) {
      const apart = p.range([0, 40]);
      p.note('both-hands', ply(), [to, from], null);
      p.note('victim-off', ply(), [to], off);
      // The victim in one hand, the captor in the other, the captor set down: the victim goes to the box after.
      actions.push({ kind: 'lift', cell: to, lead: 40, tail: 0 }, { kind: 'lift', cell: from, lead: apart, tail: 0 }, { kind: 'put', cell: to, lead: off - apart }, { kind: 'stow-piece' });
      return;
    }
    p.note('victim-off', ply(), [to], off);
    const lead = p.range([60, 150]);
    actions.push({ kind: 'lift', cell: to, tail: 0 }, { kind: 'carry', from, to, lead, ms: Math.round((off - lead) / 0.6) }, { kind: 'stow-piece' });
  };

  /** Moves the piece on `from` to `to` by hand; `squares` is the board at that moment. */
  const movePiece = (squares: AduState['squares'], from: number, to: number): AduHandling => {
    const handling: AduHandling = clearLine(squares, from, to, n) && (people?.slideAllowed() ?? true) && rng.chance(pSlide) ? 'slide' : 'carry';
    actions.push({ kind: handling === 'slide' ? 'slide' : 'carry', from, to });
    return handling;
  };

  /** The reserve king from the supply onto its point, after a look for a free one. */
  const putReserve = (at: number): void => {
    actions.push({ kind: 'wait', ms: Math.round(rng.range(300, 900)) }, { kind: 'fetch-piece', colour: ADU_RESERVE_COLOUR }, { kind: 'put', cell: at });
  };

  /** The hands' part of a move. */
  const physicalMove = (move: AduMove, next: AduState, at: number | null): AduHandling => {
    switch (move.kind) {
      case 'place-king':
      case 'place-soldier': {
        actions.push({ kind: 'fetch-piece', colour: ADU_COLOURS[state.toMove - 1] });
        const wrong = people !== null && people.chance(people.model.correctPlacement) ? emptyNeighbours(state.squares, move.to) : [];
        // Set down on a point next to the one meant and moved there within half a second.
        if (people !== null && wrong.length > 0) people.correctedCarry(ply(), null, people.pick(wrong), move.to, 'corrected-placement');
        else actions.push({ kind: 'put', cell: move.to });
        return 'place';
      }
      case 'move': {
        if (at === null && people !== null && peopleMove(people, move.from, move.to)) return 'carry';
        if (at === null) return movePiece(state.squares, move.from, move.to);
        const squares = state.squares.slice();
        squares[move.from] = null;
        return movePiece(squares, at, move.to);
      }
      case 'capture': {
        const victim = state.squares[move.to] as AduPiece;
        const putOut = victim.kind !== 'soldier' && next.squares.every((p) => p === null || p.player !== victim.player);
        // A player put out: their pieces come off in cell order (the captured one excepted).
        const removals: number[] = [];
        if (putOut) state.squares.forEach((p, cell) => p !== null && p.player === victim.player && cell !== move.to && removals.push(cell));
        let handling: AduHandling;
        // (A reserve king put where the captor stood would leave no trace of a one-sweep capture at all.)
        if (!putOut && move.reserve !== move.from && rng.chance(pQuick)) {
          // One sweep: the captured piece off and the captor on within a moment; then it goes away.
          actions.push({ kind: 'lift', cell: move.to, ms: 300 }, { kind: 'carry', from: move.from, to: move.to, ms: 300 }, { kind: 'stow-piece' });
          handling = 'quick';
        } else if (people !== null) {
          peopleCapture(people, move.from, move.to);
          handling = 'clear-first';
          if (victim.kind !== 'soldier') actions.push({ kind: 'wait', ms: Math.round(rng.range(300, 700)) });
        } else {
          actions.push({ kind: 'lift', cell: move.to }, { kind: 'stow-piece' }, { kind: 'wait', ms: Math.round(rng.range(200, 600)) });
          const emptied = state.squares.slice();
          emptied[move.to] = null;
          movePiece(emptied, move.from, move.to);
          handling = 'clear-first';
          // A look round the board before the next step (removals, the reserve king): the board settles meanwhile.
          if (victim.kind !== 'soldier') actions.push({ kind: 'wait', ms: Math.round(rng.range(300, 700)) });
        }
        for (const cell of removals) actions.push({ kind: 'lift', cell }, { kind: 'stow-piece' });
        if (move.reserve !== null) putReserve(move.reserve);
        return handling;
      }
      default:
        return assertNever(move);
    }
  };

  /** What the owner of a captured soldier declares. */
  const declare = (move: AduMove): { move: AduMove; declaration: { ranges: number[]; range: number } | null } => {
    if (move.kind !== 'capture') return { move, declaration: null };
    const victim = state.squares[move.to] as AduPiece;
    if (victim.kind !== 'soldier') return { move, declaration: null };
    const ranges = declarableRanges(state, move.to);
    const range = ranges.length === 1 || rng.chance(pLowest) ? ranges[0] : rng.pick(ranges.slice(1));
    return { move: { ...move, declare: range }, declaration: { ranges, range } };
  };

  /** Earlier positions' pictures: a mistake must not look like a take-back. */
  const earlierPictures = (): number[][] => history.slice(-12).map((h) => observe(h.before));

  /**
   * Pieces put where no legal move goes: an own soldier too far or past a piece, an own king two
   * steps, a step off the lines, a reserve king moved, or another player's piece moved out of turn.
   * Only mistakes the board shows as such (no legal move and no earlier position looks the same).
   */
  const mistakes = (outOfTurn: boolean): { from: number; to: number }[] => {
    const out: { from: number; to: number }[] = [];
    const legal = legalMoves(state);
    const legalPictures = new Set<string>();
    for (const m of legal) {
      if (m.kind === 'move' || (m.kind === 'capture' && m.reserve !== null)) legalPictures.add(`${m.from}>${m.kind === 'move' ? m.to : m.reserve}`);
    }
    const earlier = earlierPictures();
    const current = observe(state);
    // The piece placed last, put elsewhere, is that placement taken back and made again.
    const last = history.at(-1)?.move;
    const placedLast = last !== undefined && (last.kind === 'place-king' || last.kind === 'place-soldier') ? last.to : -1;
    for (let from = 0; from < n * n; from++) {
      const piece = state.squares[from];
      if (piece === null || from === placedLast || (piece.player === state.toMove) === outOfTurn) continue;
      const row = Math.floor(from / n);
      const col = from % n;
      const targets: [number, number][] = [];
      const reach = piece.kind === 'soldier' ? mostSteps(state.ledgers[piece.player - 1], Number(piece.id.slice(1)) - 1) : 1;
      for (const [dr, dc] of [
        [1, 0],
        [0, 1],
        [-1, 0],
        [0, -1],
      ] as const) {
        for (const d of outOfTurn ? [1] : [1, 2, reach, reach + 1]) if (d > 0) targets.push([row + dr * d, col + dc * d]);
      }
      if (!rules.diagonal && !outOfTurn) for (const [dr, dc] of [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const) targets.push([row + dr, col + dc]);
      for (const [r, c] of targets) {
        if (r < 0 || r >= n || c < 0 || c >= n) continue;
        const to = r * n + c;
        if (state.squares[to] !== null || legalPictures.has(`${from}>${to}`)) continue;
        if (whyIllegal(state, { kind: 'move', from, to }) === null) continue;
        const picture = current.slice();
        picture[from] = 0;
        picture[to] = 1;
        if (earlier.some((e) => sameCells(e, picture))) continue;
        // Nor like two moves being taken back, the second piece in the hand (the referee waits for such a picture).
        if (history.slice(-2).some((h) => oneLifted(observe(h.before), picture))) continue;
        if (!out.some((m) => m.from === from && m.to === to)) out.push({ from, to });
      }
    }
    return out;
  };

  /** A piece put where no legal move goes; the player notices. Returns where their own piece now stands when it is to move on from there. */
  const illegalAttempt = (): { from: number; at: number } | null => {
    const outOfTurn = rng.chance(pOutOfTurn);
    let candidates = mistakes(outOfTurn);
    if (candidates.length === 0) candidates = mistakes(!outOfTurn);
    if (candidates.length === 0) return null;
    const { from, to } = rng.pick(candidates);
    const piece = state.squares[from] as AduPiece;
    const code = (whyIllegal(state, { kind: 'move', from, to }) as { code: string }).code;
    // Going on from the wrong point: only the player to move's own piece, to a plain move nothing else looks like.
    const onward = piece.player === state.toMove ? legalMoves(state).filter((m) => m.kind === 'move' && m.from === from) : [];
    const correction: AduCorrection = onward.length > 0 && rng.chance(pOnward) ? 'onward' : 'back';
    const label = mark('illegal');
    const handling = movePiece(state.squares, from, to);
    events.push({ kind: 'illegal', label, from: name(from), to: name(to), player: piece.player, code, correction, handling });
    actions.push({ kind: 'wait', ms: Math.round(rng.range(600, 1500)) }); // noticing
    if (correction === 'onward') return { from, at: to };
    const emptied = state.squares.slice();
    emptied[from] = null;
    movePiece(emptied, to, from);
    actions.push({ kind: 'think' });
    return null;
  };

  /** What people play: a king when they can take one, often a soldier, otherwise a step; silent players only what the board can tell apart. */
  const chooseMove = (moves: readonly AduMove[], onlyFrom: number | null): AduMove => {
    let pool = onlyFrom === null ? moves : moves.filter((m) => m.kind === 'move' && m.from === onlyFrom);
    if (onlyFrom === null && state.phase === 'play') {
      const captures = pool.filter((m) => m.kind === 'capture');
      if (captures.length > 0 && rng.chance(eagerness)) {
        const kings = captures.filter((m) => m.kind === 'capture' && state.squares[m.to]?.kind !== 'soldier');
        pool = kings.length > 0 && rng.chance(0.8) ? kings : captures;
      } else {
        const steps = pool.filter((m) => m.kind === 'move');
        if (steps.length > 0) pool = steps;
      }
    }
    if (!silent) return rng.pick(pool);
    for (let tries = 0; tries < 20; tries++) {
      const move = rng.pick(pool);
      const next = play(state, move);
      if (next.ok && lookAlikes(state, move, next.value, moves) === 0) return move;
    }
    return rng.pick(pool);
  };

  const takeBack = (count: number): void => {
    const label = mark('takeback');
    const undone: string[] = [];
    for (let i = 0; i < count; i++) {
      const last = history.pop() as PlayedMove;
      const { move, before } = last;
      const after = state;
      switch (move.kind) {
        case 'place-king':
        case 'place-soldier':
          actions.push({ kind: 'lift', cell: move.to }, { kind: 'stow-piece' });
          break;
        case 'move':
          movePiece(after.squares, move.to, move.from);
          break;
        case 'capture': {
          // The reserve king back to the supply, the captor lifted, the captured piece back, the captor home.
          if (move.reserve !== null) actions.push({ kind: 'lift', cell: move.reserve }, { kind: 'stow-piece' });
          const victim = before.squares[move.to] as AduPiece;
          actions.push({ kind: 'lift', cell: move.to }, { kind: 'fetch-piece', colour: aduColour(victim) }, { kind: 'put', cell: move.to }, { kind: 'put', cell: move.from });
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
    const misplaced = state.phase === 'play' && rng.chance(pIllegal) ? illegalAttempt() : null;
    const moves = legalMoves(state);
    if (moves.length === 0) throw new Error('the engine offers no move in a game that is not over');
    const chosen = chooseMove(moves, misplaced?.from ?? null);
    const { move, declaration } = declare(chosen);
    const result = play(state, move);
    if (!result.ok) throw new Error(`the engine refused its own legal move ${formatMove(move, n)}: ${result.error.code}`);
    const next = result.value;
    const notation = formatMove(canonicalAduMove(state, move), n);
    const victim = move.kind === 'capture' ? (state.squares[move.to] as AduPiece) : null;
    const removed = victim === null ? 0 : state.squares.filter((p, cell) => p !== null && p.player === victim.player && cell !== move.to).length - next.squares.filter((p) => p !== null && p.player === victim.player).length;
    const label = mark('move');
    const handling = physicalMove(move, next, misplaced?.at ?? null);
    const endLabel = mark('moved');
    // Nobody saw what went: the players wait for the console to ask (a capture-shaped picture without evidence).
    if (handling === 'quick' && move.kind === 'capture' && move.reserve === null) actions.push({ kind: 'wait', ms: Math.round(rng.range(3200, 4200)) });
    events.push({
      kind: 'move',
      label,
      endLabel,
      ply: history.length + 1,
      move: notation,
      moveKind: move.kind,
      player: state.toMove,
      handling,
      lookAlikes: lookAlikes(state, move, next, moves),
      captured: victim === null ? null : { player: victim.player, kind: victim.kind, id: victim.id },
      declaration,
      reserve: move.kind === 'capture' && move.reserve !== null ? name(move.reserve) : null,
      removed,
    });
    history.push({ move, notation, before: state, handling });
    movesMade++;
    const mover = state.toMove;
    state = next;
    // Not when the mover moves again (everyone else passed): putting the piece back would be a move of theirs.
    if (state.outcome === null && undoable(history[history.length - 1]) && state.toMove !== mover && rng.chance(pTakeBack)) {
      // People notice after a moment: the board stands still in the position they then undo.
      actions.push({ kind: 'think' });
      const two = history.length >= 2 && rng.chance(pTwo) && undoable(history[history.length - 2]);
      takeBack(two ? 2 : 1);
    }
  }
  if (state.outcome !== null) {
    const label = mark('end');
    events.push({ kind: 'end', label, reason: state.outcome.reason, winner: state.outcome.winner, players: state.outcome.players });
  }
  people?.finish();
  return { options: rules, actions, events, record: history.map((h) => h.notation), final: state, people: people?.events ?? [] };
}

/**
 * Whether players would take this move back: not one that put a player out (every piece of theirs
 * would have to come back), nor a king capture whose reserve king went where the captor stood
 * (undoing it leaves the board reading as before, so nobody would see it was undone).
 */
function undoable(played: PlayedMove): boolean {
  const { move, before } = played;
  if (move.kind !== 'capture') return true;
  if (move.reserve !== null && move.reserve === move.from) return false;
  const victim = before.squares[move.to] as AduPiece;
  if (victim.kind === 'soldier') return true;
  return before.squares.filter((p) => p !== null && p.player === victim.player && p.kind !== 'soldier').length > 1;
}
