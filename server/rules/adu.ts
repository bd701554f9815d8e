// Adu: the pure engine — placement, moves and captures, hidden soldier ranges, reserve kings, the end of the game.
/*
 * Follows RULES.md §4 (Adu; Michael Winkelmann; seed `adu.de.txt`) and its part "Common to all games".
 *
 * Options (parseOptions; DEFAULT_OPTIONS):
 * - `players` (default 2): 2 to 6 players, numbered 1… in seat order; a record's `[Players "n"]`
 *   header sets it too (a header and an option that disagree are refused rather than guessed at).
 * - `size` (default 13): the board has size × size intersections, files `a`…, ranks `1`….
 * - `diagonal` (default false): pieces move along the diagonals as well as the ranks and files.
 *
 * Decisions taken here where RULES.md leaves room:
 * - `size` is a whole number from 7 to 19: a range-6 soldier needs seven intersections in a line,
 *   six players' 48 pieces need 49 intersections, and files run `a`…`s` as on a Go board.
 * - Placement needs no choice of piece: the round says what is placed (K1, then S1…S6, then K2).
 *   After the last placement player 1 moves first.
 * - A soldier's move of d steps counts d intersections along its line, diagonals included.
 * - A move names its kind: `move` must end on an empty intersection, `capture` on an opponent's
 *   piece (as Malawi's engine does), so a record says which happened.
 * - The declared range is the captured soldier's owner's choice, not the mover's: a capture carries
 *   `declare` (null → the lowest consistent value) and play accepts any consistent value; legalMoves
 *   lists each soldier capture once, with `declare: null`.
 * - Taking a reserve king is compulsory while the supply lasts (RULES.md: "takes … and places it").
 *   The player whose last king falls is out before the reserve king is placed, so the reserve king
 *   may go where their pieces stood; the capturer's starting intersection is always free, so there
 *   is always room. A capture that leaves only the capturer with a king ends the game at once: no
 *   reserve king is taken then, and naming one is refused (`adu/reserve-not-earned`).
 * - A captured reserve king leaves the game; it does not go back to the supply. Reserve kings are
 *   named R1, R2, … per player in the order that player took them.
 * - Passing is automatic, so records need no pass token: after every move the turn goes to the next
 *   player in seat order who is still in and has a legal move; the players skipped are listed in
 *   `passed`. If no player still in has a legal move (the mover included), the game is drawn.
 * - Repetition: a position is the pieces with their names, the player to move and what the
 *   Merkskala knows (every soldier's longest move and declared range). Captures, placements and
 *   longer soldier moves are irreversible, so only the positions since the last of them are kept.
 *   The third occurrence ends the game as a draw among the players still in.
 * - fromSetup builds positions of the moving phase only. A soldier missing from such a setup without
 *   a declared range still holds one of the ranges (as a soldier not yet placed does); the supply
 *   defaults to 10 less the reserve kings on the board. If the player to move has no legal move,
 *   the turn passes at once as after a move.
 *
 * The rules never see strings: notation lives in adu-notation.ts, the range arithmetic in adu-ranges.ts.
 */
import { assertNever, fail, ok } from './types.ts';
import type { Result, RuleError } from './types.ts';
import {
  FRESH_LEDGER,
  SOLDIER_COUNT,
  admits,
  hallHolds,
  mostSteps,
  possibleRanges,
  recordDeclaration,
  recordMove,
  whyMalformed,
} from './adu-ranges.ts';
import type { RangeLedger } from './adu-ranges.ts';

export const PLAYERS = [1, 2, 3, 4, 5, 6] as const;
export type Player = (typeof PLAYERS)[number];

export const PIECE_KINDS = ['king', 'soldier', 'reserve'] as const;
export type PieceKind = (typeof PIECE_KINDS)[number];

export const PHASES = ['placement', 'play', 'over'] as const;
export type Phase = (typeof PHASES)[number];

export const MOVE_KINDS = ['place-king', 'place-soldier', 'move', 'capture'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

export const END_REASONS = ['last-king', 'no-moves', 'repetition'] as const;
export type EndReason = (typeof END_REASONS)[number];

export const OPTION_KEYS = ['players', 'size', 'diagonal'] as const;

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 6;
export const MIN_SIZE = 7;
export const MAX_SIZE = 19;
/** The common supply of reserve kings at the start. */
export const RESERVE_KINGS = 10;
/** Placement rounds: the first king, six soldiers, the second king. */
export const PLACEMENT_ROUNDS = 2 + SOLDIER_COUNT;

export interface AduOptions {
  readonly players: number;
  readonly size: number;
  readonly diagonal: boolean;
}
export const DEFAULT_OPTIONS: AduOptions = { players: 2, size: 13, diagonal: false };

/** An intersection is a cell index: i = row * size + col, row 0 = rank 1, col 0 = file a. */
export type Square = number;

export interface AduPiece {
  readonly player: Player;
  readonly kind: PieceKind;
  /** `K1`, `K2`, `S1`…`S6` by placement order, `R1`… by the order the player took reserve kings. */
  readonly id: string;
}

export type AduMove =
  | { readonly kind: 'place-king'; readonly to: Square }
  | { readonly kind: 'place-soldier'; readonly to: Square }
  | { readonly kind: 'move'; readonly from: Square; readonly to: Square }
  | {
      readonly kind: 'capture';
      readonly from: Square;
      readonly to: Square;
      /** For a captured soldier: the range its owner declares; null → the lowest consistent value. */
      readonly declare: number | null;
      /** For a captured king or reserve king: where the capturer's new reserve king goes; null when none is taken. */
      readonly reserve: Square | null;
    };

export interface AduOutcome {
  readonly reason: EndReason;
  readonly winner: Player | 'draw';
  /** The winner alone, or the players still in who share the draw, in seat order. */
  readonly players: readonly Player[];
}

/** An unchecked position of the moving phase: what a test, a sensor scan or a database row writes. */
export interface AduSetup {
  readonly pieces: readonly {
    readonly square: Square;
    readonly player: number;
    readonly kind: PieceKind;
    readonly id: string;
  }[];
  readonly toMove: number;
  /** Per player number: the Merkskala's knowledge; a player not named starts fresh. */
  readonly ledgers?: Readonly<Record<number, RangeLedger>>;
  /** Reserve kings left; default 10 less those on the board. */
  readonly supply?: number;
}

export interface AduState {
  readonly options: AduOptions;
  readonly phase: Phase;
  /** One entry per intersection in cell order; null where none stands. */
  readonly squares: readonly (AduPiece | null)[];
  /** The player to place or move; in a finished game, the one who would have been next. */
  readonly toMove: Player;
  /** Placements made so far (players × 8 once the moving phase begins). */
  readonly placed: number;
  /** Per player (index player − 1): what is known of their soldiers' ranges. */
  readonly ledgers: readonly RangeLedger[];
  /** Per player (index player − 1): still in the game. */
  readonly inGame: readonly boolean[];
  readonly supply: number;
  /** Per player (index player − 1): reserve kings taken so far, which names the next one. */
  readonly reservesTaken: readonly number[];
  readonly plies: number;
  /** Players who had no legal move and passed right before `toMove`'s turn, in seat order. */
  readonly passed: readonly Player[];
  readonly outcome: AduOutcome | null;
  /** Keys of the positions since the last irreversible move, oldest first; the last is this one's. */
  readonly repetitionWindow: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Options

const optionError = (message: string, option: string): Result<never> => fail('options/invalid', message, { option });

/**
 * Options from parsed JSON (missing keys take the defaults; unknown keys and bad values are refused)
 * and the record's headers: `[Players "3"]` sets `players`; it must agree with a `players` option.
 */
export function parseOptions(input: unknown, headers?: ReadonlyMap<string, string>): Result<AduOptions> {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return fail('options/invalid', 'Adu options must be a JSON object such as {"players":3}');
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      return optionError(`Adu has no option "${key}"; the options are ${OPTION_KEYS.join(', ')}`, key);
    }
  }
  let players: unknown = given.players;
  const header = headers?.get('Players');
  if (header !== undefined) {
    const fromHeader = /^\s*\d+\s*$/.test(header) ? Number(header) : NaN;
    if (!Number.isInteger(fromHeader) || fromHeader < MIN_PLAYERS || fromHeader > MAX_PLAYERS) {
      return optionError(`The [Players "${header}"] header must name ${MIN_PLAYERS} to ${MAX_PLAYERS} players`, 'players');
    }
    if (players !== undefined && players !== fromHeader) {
      return optionError(`The [Players "${header}"] header and the option players ${String(players)} disagree`, 'players');
    }
    players = fromHeader;
  }
  const options = {
    players: players === undefined ? DEFAULT_OPTIONS.players : players,
    size: given.size === undefined ? DEFAULT_OPTIONS.size : given.size,
    diagonal: given.diagonal === undefined ? DEFAULT_OPTIONS.diagonal : given.diagonal,
  };
  const error = whyBadOptions(options);
  return error ? { ok: false, error } : ok(options as AduOptions);
}

function whyBadOptions(options: { players: unknown; size: unknown; diagonal: unknown }): RuleError | null {
  const { players, size, diagonal } = options;
  if (typeof players !== 'number' || !Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    return ruleError('options/invalid', `Option players must be a whole number from ${MIN_PLAYERS} to ${MAX_PLAYERS}`, { option: 'players' });
  }
  if (typeof size !== 'number' || !Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
    return ruleError('options/invalid', `Option size must be a whole number from ${MIN_SIZE} to ${MAX_SIZE}`, { option: 'size' });
  }
  if (typeof diagonal !== 'boolean') {
    return ruleError('options/invalid', 'Option diagonal must be true or false', { option: 'diagonal' });
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Intersections and pieces

export const FILES = 'abcdefghijklmnopqrs';

/** `a1`-style name of an intersection (for sentences and notation). */
export function squareName(square: Square, size: number): string {
  return `${FILES[square % size]}${Math.floor(square / size) + 1}`;
}

export const onBoard = (square: number, size: number): boolean =>
  Number.isInteger(square) && square >= 0 && square < size * size;

function ruleError(code: string, message: string, params?: Readonly<Record<string, string | number>>): RuleError {
  return params ? { code, message, params } : { code, message };
}

const ORTHOGONAL: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
];
const ALL_DIRECTIONS: readonly (readonly [number, number])[] = [...ORTHOGONAL, [1, 1], [-1, 1], [-1, -1], [1, -1]];

const directionsOf = (options: AduOptions) => (options.diagonal ? ALL_DIRECTIONS : ORTHOGONAL);

/** Index 0…5 of soldier `S1`…`S6`. */
const soldierIndex = (piece: AduPiece): number => piece.id.charCodeAt(1) - 49;

const isKing = (piece: AduPiece): boolean => piece.kind === 'king' || piece.kind === 'reserve';

/** What placement number `placed` puts down: whose turn, which kind and name. */
function placementAt(placed: number, players: number): { player: Player; kind: 'king' | 'soldier'; id: string } {
  const round = Math.floor(placed / players);
  const player = ((placed % players) + 1) as Player;
  if (round === 0) return { player, kind: 'king', id: 'K1' };
  if (round === PLACEMENT_ROUNDS - 1) return { player, kind: 'king', id: 'K2' };
  return { player, kind: 'soldier', id: `S${round}` };
}

/** During placement: who places what next; null once every piece is placed. */
export function placementDue(state: AduState): { player: Player; kind: 'king' | 'soldier'; id: string } | null {
  return state.phase === 'placement' ? placementAt(state.placed, state.options.players) : null;
}

// ---------------------------------------------------------------------------------------------
// Building positions

export function initial(options: AduOptions = DEFAULT_OPTIONS): AduState {
  const bad = whyBadOptions(options);
  if (bad) throw new RangeError(bad.message);
  const n = options.players;
  return {
    options,
    phase: 'placement',
    squares: new Array(options.size * options.size).fill(null),
    toMove: 1,
    placed: 0,
    ledgers: new Array(n).fill(FRESH_LEDGER),
    inGame: new Array(n).fill(true),
    supply: RESERVE_KINGS,
    reservesTaken: new Array(n).fill(0),
    plies: 0,
    passed: [],
    outcome: null,
    repetitionWindow: [],
  };
}

const KING_IDS = ['K1', 'K2'] as const;
const SOLDIER_ID = /^S[1-6]$/;
const RESERVE_ID = /^R([1-9]|10)$/;

/** A position of the moving phase from an unchecked setup; refuses anything a real game cannot show. */
export function fromSetup(setup: AduSetup, options: AduOptions = DEFAULT_OPTIONS): Result<AduState> {
  const badOptions = whyBadOptions(options);
  if (badOptions) return { ok: false, error: badOptions };
  const bad = (why: string, params?: Readonly<Record<string, string | number>>) => fail('adu/bad-setup', why, params);
  if (setup === null || typeof setup !== 'object' || !Array.isArray(setup.pieces)) {
    return bad('a setup needs a list of pieces and the player to move');
  }
  const size = options.size;
  const n = options.players;
  const squares: (AduPiece | null)[] = new Array(size * size).fill(null);
  const seen = new Set<string>();
  const reservesTaken: number[] = new Array(n).fill(0);
  let reservesOnBoard = 0;
  for (const entry of setup.pieces) {
    const { square, player, kind, id } = entry ?? ({} as Partial<typeof entry>);
    if (typeof square !== 'number' || !onBoard(square, size)) {
      return fail('adu/off-board', `intersection ${String(square)} is not on the ${size} × ${size} board`, { square: String(square) });
    }
    const name = squareName(square, size);
    if (typeof player !== 'number' || !Number.isInteger(player) || player < 1 || player > n) {
      return bad(`the piece on ${name} must belong to a player from 1 to ${n}`, { square: name });
    }
    const idOk =
      kind === 'king'
        ? (KING_IDS as readonly unknown[]).includes(id)
        : kind === 'soldier'
          ? typeof id === 'string' && SOLDIER_ID.test(id)
          : kind === 'reserve'
            ? typeof id === 'string' && RESERVE_ID.test(id)
            : false;
    if (!idOk) return bad(`the piece on ${name} must be a king K1 or K2, a soldier S1…S6 or a reserve king R1…R10`, { square: name });
    if (squares[square] !== null) return bad(`two pieces stand on ${name}`, { square: name });
    const key = `${player}${id}`;
    if (seen.has(key)) return bad(`player ${player} has two pieces named ${id}`, { player, id: id as string });
    seen.add(key);
    squares[square] = { player: player as Player, kind: kind as PieceKind, id: id as string };
    if (kind === 'reserve') {
      reservesOnBoard++;
      reservesTaken[player - 1] = Math.max(reservesTaken[player - 1], Number((id as string).slice(1)));
    }
  }
  const ledgers: RangeLedger[] = [];
  for (let p = 1; p <= n; p++) {
    const ledger = setup.ledgers?.[p] ?? FRESH_LEDGER;
    const malformed = whyMalformed(ledger);
    if (malformed) return bad(`player ${p}'s ranges: ${malformed}`, { player: p });
    if (!hallHolds(ledger)) {
      return bad(`player ${p}'s soldiers cannot all be given different ranges from 1 to 6 that cover their moves`, { player: p });
    }
    ledgers.push({ longest: ledger.longest.slice(), declared: ledger.declared.slice() });
  }
  const inGame: boolean[] = new Array(n).fill(false);
  squares.forEach((piece) => {
    if (piece !== null && isKing(piece)) inGame[piece.player - 1] = true;
  });
  for (let i = 0; i < squares.length; i++) {
    const piece = squares[i];
    if (piece === null) continue;
    const name = squareName(i, size);
    if (!inGame[piece.player - 1]) {
      return bad(`player ${piece.player} has no king, so is out of the game, yet has a piece on ${name}`, { player: piece.player, square: name });
    }
    if (piece.kind === 'soldier' && ledgers[piece.player - 1].declared[soldierIndex(piece)] !== null) {
      return bad(`${piece.id} of player ${piece.player} stands on ${name}, but only a captured soldier has a declared range`, {
        player: piece.player,
        square: name,
      });
    }
  }
  const supply = setup.supply ?? RESERVE_KINGS - reservesOnBoard;
  if (!Number.isInteger(supply) || supply < 0 || supply > RESERVE_KINGS - reservesOnBoard) {
    return bad(`the supply holds 0 to ${RESERVE_KINGS - reservesOnBoard} reserve kings: ${RESERVE_KINGS} less the ${reservesOnBoard} on the board`, {
      supply: String(supply),
    });
  }
  const toMove = setup.toMove;
  if (typeof toMove !== 'number' || !Number.isInteger(toMove) || toMove < 1 || toMove > n || !inGame[toMove - 1]) {
    return bad('the player to move must be a player still in the game (one with a king)', { toMove: String(toMove) });
  }
  const stillIn = inPlayers(inGame);
  if (stillIn.length === 0) return bad('at least one player must have a king');
  const base = {
    options,
    squares,
    placed: n * PLACEMENT_ROUNDS,
    ledgers,
    inGame,
    supply,
    reservesTaken,
    plies: 0,
  };
  if (stillIn.length === 1) {
    const winner = stillIn[0];
    return ok({ ...base, phase: 'over', toMove: winner, passed: [], outcome: { reason: 'last-king', winner, players: [winner] }, repetitionWindow: [] });
  }
  const turn = turnFrom(squares, options, inGame, toMove as Player);
  if (turn === null) {
    return ok({
      ...base,
      phase: 'over',
      toMove: toMove as Player,
      passed: [],
      outcome: { reason: 'no-moves', winner: 'draw', players: stillIn },
      repetitionWindow: [],
    });
  }
  const key = positionKey(squares, ledgers, turn.toMove);
  return ok({ ...base, phase: 'play', toMove: turn.toMove, passed: turn.passed, outcome: null, repetitionWindow: [key] });
}

// ---------------------------------------------------------------------------------------------
// What the display and the sensors see

/** Occupancy per intersection in cell order: 1 where a piece stands, 0 where none. */
export function observe(state: AduState): number[] {
  return state.squares.map((piece) => (piece === null ? 0 : 1));
}

/**
 * The Merkskala: for each player with soldiers on the board, each such soldier's ranges still
 * possible, ascending, keyed by player number and soldier name in order.
 */
export function merkskala(state: AduState): Record<string, Record<string, number[]>> {
  const onBoardSoldiers: boolean[][] = state.ledgers.map(() => new Array(SOLDIER_COUNT).fill(false));
  for (const piece of state.squares) {
    if (piece !== null && piece.kind === 'soldier') onBoardSoldiers[piece.player - 1][soldierIndex(piece)] = true;
  }
  const result: Record<string, Record<string, number[]>> = {};
  state.ledgers.forEach((ledger, p) => {
    if (!onBoardSoldiers[p].includes(true)) return;
    const line: Record<string, number[]> = {};
    for (let i = 0; i < SOLDIER_COUNT; i++) if (onBoardSoldiers[p][i]) line[`S${i + 1}`] = possibleRanges(ledger, i);
    result[String(p + 1)] = line;
  });
  return result;
}

/** The ranges the owner may declare for the soldier on `square` if it is captured now (ascending); [] when no soldier stands there. */
export function declarableRanges(state: AduState, square: Square): number[] {
  const piece = onBoard(square, state.options.size) ? state.squares[square] : null;
  if (piece === null || piece.kind !== 'soldier') return [];
  return possibleRanges(state.ledgers[piece.player - 1], soldierIndex(piece));
}

/** The players still in the game, in seat order. */
export function playersIn(state: AduState): Player[] {
  return inPlayers(state.inGame);
}

function inPlayers(inGame: readonly boolean[]): Player[] {
  const result: Player[] = [];
  inGame.forEach((isIn, p) => {
    if (isIn) result.push((p + 1) as Player);
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Legal moves

/**
 * Every legal move in a fixed order. Placement: every empty intersection in cell order. Moving: the
 * pieces in cell order, each along its directions (north, east, south, west, then the diagonals),
 * nearest target first. A soldier capture is listed once with `declare: null`; a king capture once
 * per intersection the reserve king may take (in cell order), or once with `reserve: null` when
 * none is taken.
 */
export function legalMoves(state: AduState): AduMove[] {
  switch (state.phase) {
    case 'over':
      return [];
    case 'placement': {
      const kind = placementAt(state.placed, state.options.players).kind === 'king' ? 'place-king' : 'place-soldier';
      const moves: AduMove[] = [];
      state.squares.forEach((piece, to) => {
        if (piece === null) moves.push({ kind, to });
      });
      return moves;
    }
    case 'play':
      return movesOf(state);
    default:
      return assertNever(state.phase);
  }
}

function movesOf(state: AduState): AduMove[] {
  const { squares, options, toMove, ledgers, inGame, supply } = state;
  const size = options.size;
  const directions = directionsOf(options);
  const ledger = ledgers[toMove - 1];
  const reach = new Array<number>(SOLDIER_COUNT);
  for (let i = 0; i < SOLDIER_COUNT; i++) reach[i] = mostSteps(ledger, i);
  // Kings (and reserve kings) each player has: a capture of one of them may put its owner out.
  const kings = new Array<number>(options.players).fill(0);
  let playersInGame = 0;
  for (const piece of squares) if (piece !== null && isKing(piece)) kings[piece.player - 1]++;
  for (const isIn of inGame) if (isIn) playersInGame++;

  const moves: AduMove[] = [];
  const pushCapture = (from: Square, to: Square, victim: AduPiece): void => {
    if (victim.kind === 'soldier') {
      moves.push({ kind: 'capture', from, to, declare: null, reserve: null });
      return;
    }
    const putsOut = kings[victim.player - 1] === 1;
    if ((putsOut && playersInGame === 2) || supply === 0) {
      moves.push({ kind: 'capture', from, to, declare: null, reserve: null });
      return;
    }
    for (let r = 0; r < squares.length; r++) {
      const there = squares[r];
      const free = r === from || (r !== to && (there === null || (putsOut && there.player === victim.player)));
      if (free) moves.push({ kind: 'capture', from, to, declare: null, reserve: r });
    }
  };

  for (let from = 0; from < squares.length; from++) {
    const piece = squares[from];
    if (piece === null || piece.player !== toMove || piece.kind === 'reserve') continue;
    const limit = piece.kind === 'king' ? 1 : reach[soldierIndex(piece)];
    const row = Math.floor(from / size);
    const col = from % size;
    for (const [dr, dc] of directions) {
      for (let k = 1; k <= limit; k++) {
        const r = row + dr * k;
        const c = col + dc * k;
        if (r < 0 || r >= size || c < 0 || c >= size) break;
        const to = r * size + c;
        const target = squares[to];
        if (target === null) {
          moves.push({ kind: 'move', from, to });
          continue;
        }
        if (target.player !== toMove) pushCapture(from, to, target);
        break;
      }
    }
  }
  return moves;
}

/** Whether `player` has a legal move: a king or soldier of theirs with a neighbour not their own. */
function canMove(squares: readonly (AduPiece | null)[], options: AduOptions, player: Player): boolean {
  const size = options.size;
  const directions = directionsOf(options);
  for (let from = 0; from < squares.length; from++) {
    const piece = squares[from];
    // Every undeclared soldier of a consistent ledger can take one step, so reach is no question here.
    if (piece === null || piece.player !== player || piece.kind === 'reserve') continue;
    const row = Math.floor(from / size);
    const col = from % size;
    for (const [dr, dc] of directions) {
      const r = row + dr;
      const c = col + dc;
      if (r < 0 || r >= size || c < 0 || c >= size) continue;
      const target = squares[r * size + c];
      if (target === null || target.player !== player) return true;
    }
  }
  return false;
}

/**
 * The turn from seat `first` on: the first player still in with a legal move, and the players
 * still in passed over on the way; null when nobody still in can move.
 */
function turnFrom(
  squares: readonly (AduPiece | null)[],
  options: AduOptions,
  inGame: readonly boolean[],
  first: Player,
): { toMove: Player; passed: Player[] } | null {
  const n = options.players;
  const passed: Player[] = [];
  for (let k = 0; k < n; k++) {
    const player = (((first - 1 + k) % n) + 1) as Player;
    if (!inGame[player - 1]) continue;
    if (canMove(squares, options, player)) return { toMove: player, passed };
    passed.push(player);
  }
  return null;
}

/** One character per intersection, the player to move, and every ledger: what makes a position repeat. */
function positionKey(squares: readonly (AduPiece | null)[], ledgers: readonly RangeLedger[], toMove: Player): string {
  let key = '';
  for (const piece of squares) {
    if (piece === null) {
      key += '.';
      continue;
    }
    const index = piece.kind === 'king' ? piece.id.charCodeAt(1) - 49 : piece.kind === 'soldier' ? 2 + soldierIndex(piece) : 7 + Number(piece.id.slice(1));
    key += String.fromCharCode(64 + piece.player * 32 + index);
  }
  key += toMove;
  for (const ledger of ledgers) key += `|${ledger.longest.join('')}${ledger.declared.map((r) => r ?? 0).join('')}`;
  return key;
}

// ---------------------------------------------------------------------------------------------
// Playing a move

const END_SENTENCES: { readonly [R in EndReason]: (outcome: AduOutcome) => string } = {
  'last-king': (o) => `player ${o.winner} won as the last player with a king`,
  'no-moves': (o) => `it was drawn among players ${o.players.join(', ')}: none of them could move`,
  repetition: (o) => `it was drawn among players ${o.players.join(', ')} by the third repetition of the position`,
};

/** Null when `move` is legal in `state`; otherwise the reason, as a stable code and a plain sentence. */
export function whyIllegal(state: AduState, move: AduMove): RuleError | null {
  const result = play(state, move);
  return result.ok ? null : result.error;
}

export function play(state: AduState, move: AduMove): Result<AduState> {
  switch (state.phase) {
    case 'over': {
      const outcome = state.outcome as AduOutcome;
      return fail('adu/game-over', `the game is over: ${END_SENTENCES[outcome.reason](outcome)}`, {
        reason: outcome.reason,
        winner: String(outcome.winner),
      });
    }
    case 'placement':
      switch (move.kind) {
        case 'place-king':
        case 'place-soldier':
          return place(state, move.kind, move.to);
        case 'move':
        case 'capture': {
          const due = placementAt(state.placed, state.options.players);
          return fail(
            'adu/still-placing',
            `pieces are still being placed: player ${due.player} places ${due.kind === 'king' ? 'a king' : 'a soldier'} (${due.id}) now`,
            { player: due.player, id: due.id },
          );
        }
        default:
          return assertNever(move);
      }
    case 'play':
      switch (move.kind) {
        case 'place-king':
        case 'place-soldier':
          return fail('adu/placement-over', 'every piece has been placed; pieces are moved now');
        case 'move':
        case 'capture':
          return step(state, move);
        default:
          return assertNever(move);
      }
    default:
      return assertNever(state.phase);
  }
}

function place(state: AduState, kind: 'place-king' | 'place-soldier', to: Square): Result<AduState> {
  const { options } = state;
  const size = options.size;
  const due = placementAt(state.placed, options.players);
  if (!onBoard(to, size)) {
    return fail('adu/off-board', `intersection ${String(to)} is not on the ${size} × ${size} board`, { square: String(to) });
  }
  const name = squareName(to, size);
  if ((kind === 'place-king') !== (due.kind === 'king')) {
    return fail(
      'adu/wrong-placement',
      `player ${due.player} places ${due.kind === 'king' ? `a king (${due.id})` : `a soldier (${due.id})`} now, not ${kind === 'place-king' ? 'a king' : 'a soldier'}`,
      { player: due.player, id: due.id },
    );
  }
  if (state.squares[to] !== null) {
    return fail('adu/square-taken', `${name} is taken; a piece is placed on an empty intersection`, { square: name });
  }
  const squares = state.squares.slice();
  squares[to] = { player: due.player, kind: due.kind, id: due.id };
  const placed = state.placed + 1;
  const base = { ...state, squares, placed, plies: state.plies + 1, passed: [] as Player[] };
  if (placed < options.players * PLACEMENT_ROUNDS) {
    return ok({ ...base, toMove: placementAt(placed, options.players).player });
  }
  // Every player is in after placement; only the first to move might be boxed in by their own pieces.
  const turn = turnFrom(squares, options, state.inGame, 1);
  if (turn === null) {
    const stillIn = inPlayers(state.inGame);
    return ok({ ...base, phase: 'over', outcome: { reason: 'no-moves', winner: 'draw', players: stillIn }, repetitionWindow: [] });
  }
  const key = positionKey(squares, state.ledgers, turn.toMove);
  return ok({ ...base, phase: 'play', toMove: turn.toMove, passed: turn.passed, repetitionWindow: [key] });
}

function step(state: AduState, move: Extract<AduMove, { kind: 'move' | 'capture' }>): Result<AduState> {
  const { options, toMove } = state;
  const size = options.size;
  const { from, to } = move;
  for (const square of [from, to]) {
    if (!onBoard(square, size)) {
      return fail('adu/off-board', `intersection ${String(square)} is not on the ${size} × ${size} board`, { square: String(square) });
    }
  }
  const fromName = squareName(from, size);
  const toName = squareName(to, size);
  const piece = state.squares[from];
  if (piece === null) return fail('adu/no-piece', `there is no piece on ${fromName}`, { from: fromName });
  if (piece.player !== toMove) {
    return fail('adu/not-your-piece', `the piece on ${fromName} belongs to player ${piece.player}; it is player ${toMove}'s turn`, {
      from: fromName,
      player: piece.player,
    });
  }
  const params = { from: fromName, to: toName, piece: piece.id };
  if (piece.kind === 'reserve') {
    return fail('adu/reserve-immobile', `the reserve king ${piece.id} on ${fromName} never moves`, params);
  }
  if (from === to) return fail('adu/same-square', `a move must leave ${fromName}`, params);
  const dRow = Math.floor(to / size) - Math.floor(from / size);
  const dCol = (to % size) - (from % size);
  const straight = dRow === 0 || dCol === 0 || (options.diagonal && Math.abs(dRow) === Math.abs(dCol));
  if (!straight) {
    const lines = options.diagonal ? 'ranks, files and diagonals' : 'ranks and files';
    return fail('adu/not-straight', `${fromName} and ${toName} are not on one line; pieces move straight along ${lines}`, params);
  }
  const steps = Math.max(Math.abs(dRow), Math.abs(dCol));
  if (piece.kind === 'king' && steps !== 1) {
    return fail('adu/king-one-step', `a king moves exactly one step; ${fromName} to ${toName} is ${steps}`, { ...params, steps });
  }
  const stride = Math.sign(dRow) * size + Math.sign(dCol);
  for (let k = 1; k < steps; k++) {
    const square = from + stride * k;
    if (state.squares[square] !== null) {
      const blocker = squareName(square, size);
      return fail('adu/jump', `the way from ${fromName} to ${toName} is blocked on ${blocker}; a piece never jumps`, { ...params, blocker });
    }
  }
  const target = state.squares[to];
  switch (move.kind) {
    case 'move':
      if (target !== null) {
        return target.player === toMove
          ? fail('adu/own-piece', `${toName} holds your own ${target.id}; a move ends on an empty intersection or captures`, params)
          : fail('adu/square-occupied', `${toName} holds a piece of player ${target.player}; ending there is a capture, not a plain move`, params);
      }
      break;
    case 'capture':
      if (target === null) return fail('adu/nothing-to-capture', `there is no piece on ${toName} to capture`, params);
      if (target.player === toMove) {
        return fail('adu/own-piece', `${toName} holds your own ${target.id}; only an opponent's piece can be captured`, params);
      }
      break;
    default:
      return assertNever(move);
  }
  let ledgers = state.ledgers;
  if (piece.kind === 'soldier') {
    const soldier = soldierIndex(piece);
    const ledger = ledgers[toMove - 1];
    if (!admits(ledger, soldier, steps)) {
      return fail('adu/range-exceeded', `${piece.id} cannot move ${steps} steps: the ranges left for your soldiers do not allow it`, {
        ...params,
        steps,
        most: mostSteps(ledger, soldier),
      });
    }
    const recorded = recordMove(ledger, soldier, steps);
    if (recorded !== ledger) ledgers = withEntry(ledgers, toMove - 1, recorded);
  }
  const squares = state.squares.slice();
  squares[to] = piece;
  squares[from] = null;
  let { inGame, supply, reservesTaken } = state;
  if (move.kind === 'capture') {
    const victim = target as AduPiece;
    const victimParams = { ...params, captured: victim.id, player: victim.player };
    if (victim.kind === 'soldier') {
      if (move.reserve !== null) {
        return fail('adu/reserve-not-earned', `capturing the soldier ${victim.id} earns no reserve king; only capturing a king does`, victimParams);
      }
      const ledger = ledgers[victim.player - 1];
      const soldier = soldierIndex(victim);
      const consistent = possibleRanges(ledger, soldier);
      const range = move.declare ?? consistent[0];
      if (!consistent.includes(range)) {
        return fail(
          'adu/declare-inconsistent',
          `${victim.id} of player ${victim.player} cannot be declared ${range}: the ranges still consistent are ${consistent.join(', ')}`,
          { ...victimParams, declare: range, consistent: consistent.join(',') },
        );
      }
      ledgers = withEntry(ledgers, victim.player - 1, recordDeclaration(ledger, soldier, range));
    } else {
      if (move.declare !== null) {
        return fail('adu/declare-not-soldier', `only a captured soldier's range is declared, and ${victim.id} is a king`, victimParams);
      }
      const kingLeft = squares.some((p) => p !== null && p.player === victim.player && isKing(p));
      if (!kingLeft) {
        inGame = withEntry(inGame, victim.player - 1, false);
        for (let i = 0; i < squares.length; i++) if (squares[i]?.player === victim.player) squares[i] = null;
      }
      const gameEnds = inPlayers(inGame).length === 1;
      if (move.reserve !== null) {
        if (gameEnds) {
          return fail('adu/reserve-not-earned', `capturing ${victim.id} ends the game, so no reserve king is placed`, victimParams);
        }
        if (supply === 0) return fail('adu/supply-empty', 'the supply of reserve kings is used up; none can be placed', victimParams);
        if (!onBoard(move.reserve, size)) {
          return fail('adu/off-board', `intersection ${String(move.reserve)} is not on the ${size} × ${size} board`, { square: String(move.reserve) });
        }
        const reserveName = squareName(move.reserve, size);
        if (squares[move.reserve] !== null) {
          return fail('adu/reserve-square-taken', `${reserveName} is taken; the reserve king goes on an empty intersection`, {
            ...victimParams,
            reserve: reserveName,
          });
        }
        const taken = reservesTaken[toMove - 1] + 1;
        squares[move.reserve] = { player: toMove, kind: 'reserve', id: `R${taken}` };
        reservesTaken = withEntry(reservesTaken, toMove - 1, taken);
        supply -= 1;
      } else if (!gameEnds && supply > 0) {
        return fail('adu/reserve-missing', `capturing ${victim.id} earns a reserve king; name the empty intersection it goes on`, victimParams);
      }
    }
  }
  return ok(finish(state, squares, ledgers, inGame, supply, reservesTaken, move.kind === 'capture' || ledgers !== state.ledgers));
}

function withEntry<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice();
  copy[index] = value;
  return copy;
}

/** The state after a move of the moving phase: who is next, and whether the game has ended. */
function finish(
  state: AduState,
  squares: (AduPiece | null)[],
  ledgers: readonly RangeLedger[],
  inGame: readonly boolean[],
  supply: number,
  reservesTaken: readonly number[],
  irreversible: boolean,
): AduState {
  const { options, toMove: mover } = state;
  const base = { options, squares, placed: state.placed, ledgers, inGame, supply, reservesTaken, plies: state.plies + 1 };
  const stillIn = inPlayers(inGame);
  if (stillIn.length === 1) {
    return { ...base, phase: 'over', toMove: mover, passed: [], outcome: { reason: 'last-king', winner: mover, players: [mover] }, repetitionWindow: [] };
  }
  const turn = turnFrom(squares, options, inGame, ((mover % options.players) + 1) as Player);
  if (turn === null) {
    return { ...base, phase: 'over', toMove: mover, passed: [], outcome: { reason: 'no-moves', winner: 'draw', players: stillIn }, repetitionWindow: [] };
  }
  const key = positionKey(squares, ledgers, turn.toMove);
  const repetitionWindow = irreversible ? [key] : [...state.repetitionWindow, key];
  let seen = 0;
  for (const earlier of repetitionWindow) if (earlier === key) seen++;
  if (seen >= 3) {
    return {
      ...base,
      phase: 'over',
      toMove: turn.toMove,
      passed: turn.passed,
      outcome: { reason: 'repetition', winner: 'draw', players: stillIn },
      repetitionWindow,
    };
  }
  return { ...base, phase: 'play', toMove: turn.toMove, passed: turn.passed, outcome: null, repetitionWindow };
}
