// Malawi: the pure engine — positions, legal moves, playing a move, and the end of the game.
/*
 * Follows RULES.md §2 (Malawi; Gerhard Kodys, Piatnik 1986; seed `malawi.de.txt`).
 *
 * Options:
 * - `size` (default 6): the board has size × size squares; each player starts with `size`
 *   pieces of strength 2 filling their baseline (south rank 1, north rank `size`).
 * - `maxStrength` (default 5, the author's proposal; 6 or 7 allowed): no distribution may lift
 *   a piece above it.
 * - `baselineWin` (default "static"): "static" — rule 3a only, checked at once after the move
 *   onto the opponent's baseline; "survives-reply" — in addition, a player whose piece of
 *   strength ≥ 1 stands on the opponent's baseline at the start of their turn wins.
 *
 * Decisions taken here where RULES.md leaves room:
 * - `size` is an integer from 4 to 12 (squares `a1`…`l12`); `maxStrength` is 5, 6 or 7.
 * - A position built by `fromSetup` may hold 1…`size` pieces per side (tests and puzzles use
 *   small positions; a real board always holds all of them). Its end is judged at once as at
 *   the start of a turn: under "survives-reply" a piece of the player to move already on the
 *   opponent's baseline wins; a player to move without a legal move has lost.
 * - Repetition counts positions from the start of the game or the setup. Captures and
 *   distributions that lose beads lower the total strength for good, so earlier positions
 *   cannot recur; only the positions since the last such move are kept.
 * - A distribution names its recipients in any order but each at most once.
 * - The game ends for "no-strength" when every piece of the player to move has strength 0
 *   (rule 3b), and for "no-legal-move" when they have strength left but no move.
 */
import { assertNever, fail, ok } from './types.ts';
import type { Result, RuleError } from './types.ts';

export const SIDES = ['south', 'north'] as const;
export type Side = (typeof SIDES)[number];

export const BASELINE_WINS = ['static', 'survives-reply'] as const;
export type BaselineWin = (typeof BASELINE_WINS)[number];

export const MOVE_KINDS = ['move', 'capture', 'distribute'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

export const END_REASONS = ['baseline', 'baseline-held', 'no-strength', 'no-legal-move', 'repetition'] as const;
export type EndReason = (typeof END_REASONS)[number];

export const MIN_SIZE = 4;
export const MAX_SIZE = 12;
export const MAX_STRENGTHS = [5, 6, 7] as const;
export const START_STRENGTH = 2;
/** However strong a piece, a distribution gives at most five beads (seed, remark 4a). */
export const MAX_RECIPIENTS = 5;

export interface MalawiOptions {
  readonly size: number;
  readonly maxStrength: number;
  readonly baselineWin: BaselineWin;
}
export const DEFAULT_OPTIONS: MalawiOptions = { size: 6, maxStrength: 5, baselineWin: 'static' };

/** A square is a cell index: i = row * size + col, row 0 = rank 1 (south's baseline), col 0 = file a. */
export type Square = number;

export interface Piece {
  readonly side: Side;
  readonly strength: number;
}

export type MalawiMove =
  | { readonly kind: 'move'; readonly from: Square; readonly to: Square }
  | { readonly kind: 'capture'; readonly from: Square; readonly to: Square }
  | { readonly kind: 'distribute'; readonly from: Square; readonly recipients: readonly Square[] };

export interface MalawiOutcome {
  readonly reason: EndReason;
  readonly winner: Side | 'draw';
}

/** An unchecked position: what a test, a sensor scan or a database row writes. */
export interface MalawiSetup {
  readonly pieces: readonly { readonly square: Square; readonly side: Side; readonly strength: number }[];
  readonly toMove: Side;
}

export interface MalawiState {
  readonly options: MalawiOptions;
  /** One entry per square in cell order; null for an empty square. */
  readonly squares: readonly (Piece | null)[];
  readonly toMove: Side;
  readonly plies: number;
  readonly outcome: MalawiOutcome | null;
  /** Keys of the positions since the total strength last fell, oldest first; the last is this one's. */
  readonly repetitionWindow: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Options

/** Options from parsed JSON: missing keys take the defaults, unknown keys and bad values are refused. */
export function parseOptions(input: unknown): Result<MalawiOptions> {
  if (input === undefined || input === null) return ok(DEFAULT_OPTIONS);
  if (typeof input !== 'object' || Array.isArray(input)) {
    return fail('malawi/bad-options', 'the Malawi options must be an object such as {"size":6}');
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'size' && key !== 'maxStrength' && key !== 'baselineWin') {
      return fail(
        'malawi/unknown-option',
        `"${key}" is not a Malawi option; the options are size, maxStrength and baselineWin`,
        { option: key },
      );
    }
  }
  const options: MalawiOptions = {
    size: record.size === undefined ? DEFAULT_OPTIONS.size : (record.size as number),
    maxStrength: record.maxStrength === undefined ? DEFAULT_OPTIONS.maxStrength : (record.maxStrength as number),
    baselineWin: record.baselineWin === undefined ? DEFAULT_OPTIONS.baselineWin : (record.baselineWin as BaselineWin),
  };
  const error = whyBadOptions(options);
  return error ? { ok: false, error } : ok(options);
}

function whyBadOptions(options: MalawiOptions): RuleError | null {
  const { size, maxStrength, baselineWin } = options as { size: unknown; maxStrength: unknown; baselineWin: unknown };
  if (typeof size !== 'number' || !Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
    return ruleError('malawi/bad-size', `the board size must be a whole number from ${MIN_SIZE} to ${MAX_SIZE}`, {
      size: String(size),
    });
  }
  if (typeof maxStrength !== 'number' || !(MAX_STRENGTHS as readonly number[]).includes(maxStrength)) {
    return ruleError('malawi/bad-max-strength', 'the maximum strength must be 5, 6 or 7', {
      maxStrength: String(maxStrength),
    });
  }
  if (typeof baselineWin !== 'string' || !(BASELINE_WINS as readonly string[]).includes(baselineWin)) {
    return ruleError('malawi/bad-baseline-win', 'baselineWin must be "static" or "survives-reply"', {
      baselineWin: String(baselineWin),
    });
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Squares and sides

export const opponent = (side: Side): Side => (side === 'south' ? 'north' : 'south');

/** The rank (row) index of a side's own baseline. */
export const baselineRow = (side: Side, size: number): number => (side === 'south' ? 0 : size - 1);

export const FILES = 'abcdefghijkl';

/** `a1`-style name of a square (for sentences and notation). */
export function squareName(square: Square, size: number): string {
  return `${FILES[square % size]}${Math.floor(square / size) + 1}`;
}

const onBoard = (square: number, size: number): boolean =>
  Number.isInteger(square) && square >= 0 && square < size * size;

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];
const count = (n: number, noun: string): string => `${NUMBER_WORDS[n] ?? String(n)} ${noun}${n === 1 ? '' : 's'}`;

function ruleError(code: string, message: string, params?: Readonly<Record<string, string | number>>): RuleError {
  return params ? { code, message, params } : { code, message };
}

// ---------------------------------------------------------------------------------------------
// Building positions

export function initial(options: MalawiOptions = DEFAULT_OPTIONS): MalawiState {
  const n = options.size;
  const squares: (Piece | null)[] = new Array(n * n).fill(null);
  for (let col = 0; col < n; col++) {
    squares[col] = { side: 'south', strength: START_STRENGTH };
    squares[(n - 1) * n + col] = { side: 'north', strength: START_STRENGTH };
  }
  return { options, squares, toMove: 'south', plies: 0, outcome: null, repetitionWindow: [positionKey(squares, 'south')] };
}

export function fromSetup(setup: MalawiSetup, options: MalawiOptions = DEFAULT_OPTIONS): Result<MalawiState> {
  const badOptions = whyBadOptions(options);
  if (badOptions) return { ok: false, error: badOptions };
  const n = options.size;
  if (setup === null || typeof setup !== 'object' || !Array.isArray(setup.pieces)) {
    return fail('malawi/bad-setup', 'a setup needs a list of pieces and the side to move');
  }
  if (!(SIDES as readonly unknown[]).includes(setup.toMove)) {
    return fail('malawi/bad-setup', 'the side to move must be south or north', { toMove: String(setup.toMove) });
  }
  const squares: (Piece | null)[] = new Array(n * n).fill(null);
  const perSide = { south: 0, north: 0 };
  for (const entry of setup.pieces) {
    const { square, side, strength } = entry ?? ({} as Partial<typeof entry>);
    if (typeof square !== 'number' || !onBoard(square, n)) {
      return fail('malawi/off-board', `square ${String(square)} is not on the ${n} × ${n} board`, {
        square: String(square),
      });
    }
    const name = squareName(square, n);
    if (!(SIDES as readonly unknown[]).includes(side)) {
      return fail('malawi/bad-setup', `the piece on ${name} must belong to south or north`, { square: name });
    }
    if (typeof strength !== 'number' || !Number.isInteger(strength) || strength < 0 || strength > options.maxStrength) {
      return fail(
        'malawi/bad-strength',
        `the piece on ${name} has strength ${String(strength)}, but strengths run from 0 to ${options.maxStrength}`,
        { square: name, strength: String(strength) },
      );
    }
    if (squares[square] !== null) {
      return fail('malawi/setup-overlap', `two pieces stand on ${name}`, { square: name });
    }
    squares[square] = { side: side as Side, strength };
    perSide[side as Side]++;
  }
  for (const side of SIDES) {
    if (perSide[side] === 0 || perSide[side] > n) {
      return fail('malawi/bad-piece-count', `${side} has ${perSide[side]} pieces, but must have from 1 to ${n}`, {
        side,
        pieces: perSide[side],
      });
    }
  }
  const toMove = setup.toMove;
  let outcome: MalawiOutcome | null = null;
  if (options.baselineWin === 'survives-reply' && holdsOpponentBaseline(squares, n, toMove)) {
    outcome = { reason: 'baseline-held', winner: toMove };
  } else if (!hasLegalMove(squares, options, toMove)) {
    outcome = { reason: allStrengthZero(squares, toMove) ? 'no-strength' : 'no-legal-move', winner: opponent(toMove) };
  }
  return ok({ options, squares, toMove, plies: 0, outcome, repetitionWindow: [positionKey(squares, toMove)] });
}

// ---------------------------------------------------------------------------------------------
// What the sensors see

/** Occupancy per square in cell order: 1 where a piece stands, 0 where none (`G` frames). */
export function observe(state: MalawiState): number[] {
  return state.squares.map((piece) => (piece === null ? 0 : 1));
}

/** What a counting board reads (`C` frames): 0 for an empty square, 1 + strength for a piece. */
export function observeCounts(state: MalawiState): number[] {
  return state.squares.map((piece) => (piece === null ? 0 : 1 + piece.strength));
}

// ---------------------------------------------------------------------------------------------
// Legal moves

const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0], // towards north
  [0, 1], // towards file h
  [-1, 0], // towards south
  [0, -1], // towards file a
];

/**
 * The square a piece of strength `s` on `from` reaches going `s` squares in direction (dr, dc)
 * with every square before it empty; -1 when that leaves the board or the way is blocked.
 */
function endOfRun(squares: readonly (Piece | null)[], n: number, from: Square, s: number, dr: number, dc: number): Square {
  const row = Math.floor(from / n);
  const col = from % n;
  const endRow = row + dr * s;
  const endCol = col + dc * s;
  if (endRow < 0 || endRow >= n || endCol < 0 || endCol >= n) return -1;
  for (let k = 1; k < s; k++) if (squares[(row + dr * k) * n + col + dc * k] !== null) return -1;
  return endRow * n + endCol;
}

/**
 * Every legal move in a fixed order: squares in cell order; for each piece its moves and
 * captures (north, east, south, west), then its distributions (fewest recipients first, each
 * set ascending).
 */
export function legalMoves(state: MalawiState): MalawiMove[] {
  if (state.outcome !== null) return [];
  const { squares, toMove, options } = state;
  const n = options.size;
  const moves: MalawiMove[] = [];
  const receivers = eligibleRecipients(squares, options, toMove);
  for (let from = 0; from < n * n; from++) {
    const piece = squares[from];
    if (piece === null || piece.side !== toMove || piece.strength === 0) continue;
    for (const [dr, dc] of DIRECTIONS) {
      const to = endOfRun(squares, n, from, piece.strength, dr, dc);
      if (to < 0) continue;
      const target = squares[to];
      if (target === null) moves.push({ kind: 'move', from, to });
      else if (target.side !== toMove && target.strength > 0) moves.push({ kind: 'capture', from, to });
    }
    const others = receivers.filter((square) => square !== from);
    const most = Math.min(piece.strength, MAX_RECIPIENTS, others.length);
    for (let k = 1; k <= most; k++) {
      for (const recipients of combinations(others, k)) moves.push({ kind: 'distribute', from, recipients });
    }
  }
  return moves;
}

/** Own pieces that can still take a bead. */
function eligibleRecipients(squares: readonly (Piece | null)[], options: MalawiOptions, side: Side): number[] {
  const result: number[] = [];
  for (let i = 0; i < squares.length; i++) {
    const piece = squares[i];
    if (piece !== null && piece.side === side && piece.strength < options.maxStrength) result.push(i);
  }
  return result;
}

/** All k-element subsets of `items`, each ascending as `items` is, in lexicographic order. */
function combinations(items: readonly number[], k: number): number[][] {
  const result: number[][] = [];
  const chosen: number[] = [];
  const extend = (start: number): void => {
    if (chosen.length === k) {
      result.push(chosen.slice());
      return;
    }
    for (let i = start; i <= items.length - (k - chosen.length); i++) {
      chosen.push(items[i]);
      extend(i + 1);
      chosen.pop();
    }
  };
  extend(0);
  return result;
}

/** Whether `side` has any legal move — cheaper than generating them. */
function hasLegalMove(squares: readonly (Piece | null)[], options: MalawiOptions, side: Side): boolean {
  const n = options.size;
  const receivers = eligibleRecipients(squares, options, side);
  for (let from = 0; from < n * n; from++) {
    const piece = squares[from];
    if (piece === null || piece.side !== side || piece.strength === 0) continue;
    // Distributing needs just one other piece below the maximum.
    if (receivers.length > 1 || (receivers.length === 1 && receivers[0] !== from)) return true;
    for (const [dr, dc] of DIRECTIONS) {
      const to = endOfRun(squares, n, from, piece.strength, dr, dc);
      if (to < 0) continue;
      const target = squares[to];
      if (target === null || (target.side !== side && target.strength > 0)) return true;
    }
  }
  return false;
}

/**
 * Whether a piece of `by` could capture on `square` in its next move: the first piece met
 * along some rank or file from `square` belongs to `by` and its strength equals the distance.
 */
export function threatenedBy(state: MalawiState, square: Square, by: Side): boolean {
  return threatened(state.squares, state.options.size, square, by);
}

function threatened(squares: readonly (Piece | null)[], n: number, square: Square, by: Side): boolean {
  const row = Math.floor(square / n);
  const col = square % n;
  for (const [dr, dc] of DIRECTIONS) {
    for (let k = 1; ; k++) {
      const r = row + dr * k;
      const c = col + dc * k;
      if (r < 0 || r >= n || c < 0 || c >= n) break;
      const piece = squares[r * n + c];
      if (piece === null) continue;
      if (piece.side === by && piece.strength === k) return true;
      break;
    }
  }
  return false;
}

function holdsOpponentBaseline(squares: readonly (Piece | null)[], n: number, side: Side): boolean {
  const start = baselineRow(opponent(side), n) * n;
  for (let i = start; i < start + n; i++) {
    const piece = squares[i];
    if (piece !== null && piece.side === side && piece.strength > 0) return true;
  }
  return false;
}

function allStrengthZero(squares: readonly (Piece | null)[], side: Side): boolean {
  return squares.every((piece) => piece === null || piece.side !== side || piece.strength === 0);
}

/** One character per square (`.`, `A`+strength for south, `a`+strength for north), then the side to move. */
function positionKey(squares: readonly (Piece | null)[], toMove: Side): string {
  let key = '';
  for (const piece of squares) {
    key += piece === null ? '.' : String.fromCharCode((piece.side === 'south' ? 65 : 97) + piece.strength);
  }
  return key + (toMove === 'south' ? 'S' : 'N');
}

// ---------------------------------------------------------------------------------------------
// Playing a move

export function play(state: MalawiState, move: MalawiMove): Result<MalawiState> {
  const error = whyIllegal(state, move);
  if (error) return { ok: false, error };
  return ok(apply(state, move));
}

function apply(state: MalawiState, move: MalawiMove): MalawiState {
  const { options } = state;
  const n = options.size;
  const mover = state.toMove;
  const next = opponent(mover);
  const squares = state.squares.slice();
  const piece = squares[move.from] as Piece;
  let strengthFell: boolean;
  switch (move.kind) {
    case 'move':
      squares[move.to] = piece;
      squares[move.from] = null;
      strengthFell = false;
      break;
    case 'capture':
      squares[move.to] = { side: next, strength: 0 };
      strengthFell = true;
      break;
    case 'distribute':
      squares[move.from] = { side: mover, strength: 0 };
      for (const square of move.recipients) {
        const receiver = squares[square] as Piece;
        squares[square] = { side: mover, strength: receiver.strength + 1 };
      }
      strengthFell = move.recipients.length < piece.strength;
      break;
    default:
      return assertNever(move);
  }
  const key = positionKey(squares, next);
  const repetitionWindow = strengthFell ? [key] : [...state.repetitionWindow, key];

  let outcome: MalawiOutcome | null = null;
  if (move.kind === 'move' && Math.floor(move.to / n) === baselineRow(next, n) && !threatened(squares, n, move.to, next)) {
    outcome = { reason: 'baseline', winner: mover };
  } else if (options.baselineWin === 'survives-reply' && holdsOpponentBaseline(squares, n, next)) {
    outcome = { reason: 'baseline-held', winner: next };
  } else if (!hasLegalMove(squares, options, next)) {
    outcome = { reason: allStrengthZero(squares, next) ? 'no-strength' : 'no-legal-move', winner: mover };
  } else if (repetitionWindow.filter((k) => k === key).length >= 3) {
    outcome = { reason: 'repetition', winner: 'draw' };
  }
  return { options, squares, toMove: next, plies: state.plies + 1, outcome, repetitionWindow };
}

// ---------------------------------------------------------------------------------------------
// Why a move is illegal

const END_SENTENCES: { readonly [R in EndReason]: (winner: Side | 'draw') => string } = {
  baseline: (w) => `${w} won by reaching the opponent's baseline`,
  'baseline-held': (w) => `${w} won by holding a square of the opponent's baseline`,
  'no-strength': (w) => `${w} won: every piece of the opponent has strength 0`,
  'no-legal-move': (w) => `${w} won: the opponent has no legal move`,
  repetition: () => 'it was drawn by threefold repetition',
};

/** Null when `move` is legal in `state`; otherwise the reason, as a stable code and a plain sentence. */
export function whyIllegal(state: MalawiState, move: MalawiMove): RuleError | null {
  if (state.outcome !== null) {
    const { reason, winner } = state.outcome;
    return ruleError('malawi/game-over', `the game is over: ${END_SENTENCES[reason](winner)}`, { reason, winner });
  }
  const n = state.options.size;
  const fromError = whyNotMovable(state, move.from);
  if (fromError) return fromError;
  switch (move.kind) {
    case 'move':
    case 'capture':
      return whyNotStep(state, move.kind, move.from, move.to);
    case 'distribute':
      return whyNotDistribution(state, move.from, move.recipients, n);
    default:
      return assertNever(move);
  }
}

/**
 * For the referee, who sees a piece lifted from `from` and put down on `to`: null when that is a
 * legal move, otherwise why not. Pointing at an opponent piece on `to` is judged as a capture.
 */
export function whyIllegalMoveTo(state: MalawiState, from: Square, to: Square): RuleError | null {
  const target = onBoard(to, state.options.size) ? state.squares[to] : null;
  const kind = target !== null && target.side !== state.toMove ? 'capture' : 'move';
  return whyIllegal(state, { kind, from, to });
}

function whyNotMovable(state: MalawiState, from: Square): RuleError | null {
  const n = state.options.size;
  if (!onBoard(from, n)) {
    return ruleError('malawi/off-board', `square ${String(from)} is not on the ${n} × ${n} board`, { square: String(from) });
  }
  const name = squareName(from, n);
  const piece = state.squares[from];
  if (piece === null) return ruleError('malawi/no-piece', `there is no piece on ${name}`, { from: name });
  if (piece.side !== state.toMove) {
    return ruleError('malawi/not-your-piece', `the piece on ${name} belongs to ${piece.side}; it is ${state.toMove}'s turn`, {
      from: name,
      side: piece.side,
    });
  }
  if (piece.strength === 0) {
    return ruleError('malawi/strength-zero', `the piece on ${name} has strength 0 and can neither move nor distribute`, {
      from: name,
    });
  }
  return null;
}

function whyNotStep(state: MalawiState, kind: 'move' | 'capture', from: Square, to: Square): RuleError | null {
  const { squares } = state;
  const n = state.options.size;
  if (!onBoard(to, n)) {
    return ruleError('malawi/off-board', `square ${String(to)} is not on the ${n} × ${n} board`, { square: String(to) });
  }
  const piece = squares[from] as Piece;
  const s = piece.strength;
  const fromName = squareName(from, n);
  const toName = squareName(to, n);
  const dRow = Math.floor(to / n) - Math.floor(from / n);
  const dCol = (to % n) - (from % n);
  const distance = Math.abs(dRow) + Math.abs(dCol);
  const params = { from: fromName, to: toName, strength: s };
  if (dRow !== 0 && dCol !== 0) {
    return ruleError(
      'malawi/not-straight',
      `${toName} is not on the same rank or file as ${fromName}; a piece moves straight along a rank or file`,
      params,
    );
  }
  if (distance !== s) {
    return ruleError(
      'malawi/wrong-distance',
      `the piece on ${fromName} has strength ${s} and must move exactly ${count(s, 'square')}, not ${NUMBER_WORDS[distance] ?? distance}`,
      { ...params, distance },
    );
  }
  const stepRow = Math.sign(dRow);
  const stepCol = Math.sign(dCol);
  for (let k = 1; k < s; k++) {
    const square = from + (stepRow * n + stepCol) * k;
    if (squares[square] !== null) {
      const blocker = squareName(square, n);
      return ruleError(
        'malawi/path-blocked',
        `the way from ${fromName} to ${toName} is blocked by the piece on ${blocker}; every square passed must be empty`,
        { ...params, blocker },
      );
    }
  }
  const target = squares[to];
  switch (kind) {
    case 'move':
      if (target === null) return null;
      if (target.side === piece.side) {
        return ruleError('malawi/square-occupied', `${toName} is taken by your own piece; a move must end on an empty square`, params);
      }
      if (target.strength > 0) {
        return ruleError(
          'malawi/square-occupied',
          `${toName} holds a ${target.side} piece; a piece ending its move there captures it and stays on ${fromName}`,
          params,
        );
      }
      return ruleError(
        'malawi/square-occupied',
        `${toName} holds a ${target.side} piece of strength 0, which can neither be moved onto nor captured`,
        params,
      );
    case 'capture':
      if (target === null) return ruleError('malawi/nothing-to-capture', `there is no piece on ${toName} to capture`, params);
      if (target.side === piece.side) {
        return ruleError('malawi/capture-own', `the piece on ${toName} is your own; only an opponent piece can be captured`, params);
      }
      if (target.strength === 0) {
        return ruleError('malawi/capture-zero', `the ${target.side} piece on ${toName} already has strength 0 and cannot be captured`, params);
      }
      return null;
    default:
      return assertNever(kind);
  }
}

function whyNotDistribution(state: MalawiState, from: Square, recipients: readonly Square[], n: number): RuleError | null {
  const { squares, options } = state;
  const piece = squares[from] as Piece;
  const s = piece.strength;
  const fromName = squareName(from, n);
  const most = Math.min(s, MAX_RECIPIENTS);
  if (recipients.length === 0) {
    const anyone = eligibleRecipients(squares, options, piece.side).some((square) => square !== from);
    return anyone
      ? ruleError('malawi/no-recipients', `the piece on ${fromName} must give a bead to at least one other piece of yours`, {
          from: fromName,
        })
      : ruleError(
          'malawi/no-recipients',
          `no other piece of yours is below the maximum strength ${options.maxStrength}, so the piece on ${fromName} cannot distribute`,
          { from: fromName },
        );
  }
  if (recipients.length > most) {
    const why = s > MAX_RECIPIENTS ? `; at most five beads are given and the rest are lost` : '';
    return ruleError(
      'malawi/too-many-recipients',
      `the piece on ${fromName} has strength ${s} and can give one bead each to at most ${count(most, 'piece')}${why}`,
      { from: fromName, strength: s, recipients: recipients.length },
    );
  }
  const seen = new Set<number>();
  for (const square of recipients) {
    if (!onBoard(square, n)) {
      return ruleError('malawi/off-board', `square ${String(square)} is not on the ${n} × ${n} board`, { square: String(square) });
    }
    const name = squareName(square, n);
    const params = { from: fromName, recipient: name };
    if (square === from) {
      return ruleError('malawi/recipient-self', `the piece on ${fromName} cannot give a bead to itself`, params);
    }
    if (seen.has(square)) {
      return ruleError('malawi/recipient-twice', `${name} is named twice; each piece takes at most one bead`, params);
    }
    seen.add(square);
    const receiver = squares[square];
    if (receiver === null) {
      return ruleError('malawi/recipient-not-own', `there is no piece on ${name} to take a bead`, params);
    }
    if (receiver.side !== piece.side) {
      return ruleError('malawi/recipient-not-own', `the piece on ${name} belongs to ${receiver.side}; beads go only to your own pieces`, params);
    }
    if (receiver.strength >= options.maxStrength) {
      return ruleError(
        'malawi/recipient-full',
        `the piece on ${name} already has the maximum strength ${options.maxStrength} and cannot take a bead`,
        params,
      );
    }
  }
  return null;
}
