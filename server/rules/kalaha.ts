// Kalaha as played on the Vauban table: the pure engine, its immutable API and a mutable fast core.
//
// Follows RULES.md §1 (seed `kalaha-vauban.de.txt`) and the part "Common to all games".
// Options (parseOptions; DEFAULT_OPTIONS):
//   seedsPerPit             stones per pit at the start, default 4 (3 is the 36-stone variant); 1–20.
//   skipOrigin              default true: a sowing of 12 or more stones skips the emptied pit on every lap.
//   forbiddenCaptureAtLeast default 12: a move whose capture would take this many stones or more is forbidden.
//
// How the rules fit together, where RULES.md leaves room (Decisions of this engine):
// - The moves a player "may start with" (the candidates) are their non-empty pits; when every pit of
//   the opponent is empty, only the candidates that put at least one stone into the opponent's row
//   (feeding rule). Feeding is decided first, the forbidden captures second.
// - Among the candidates, a move is forbidden when its capture would take forbiddenCaptureAtLeast
//   stones or more, or every stone left on the opponent's side after the sowing ("unfair").
//   If at least one candidate is not forbidden, exactly those are legal. If every candidate is
//   forbidden, every candidate is legal and none of them captures (the capture-nothing fallback).
//   A forbidden feeding move played under the fallback still feeds: its sown stones stay where they
//   fell. So the forbidden rules never end a game and never excuse a player from feeding.
// - Endings are checked after every move (and for a position from fromSetup) in RULES.md's order:
//   1 `no-stones`, 2 `cannot-feed`, 3 `repetition`; 4 `agreement` is endByAgreement. Rule 1 can only
//   meet a position given to fromSetup: after a legal move the next player always has stones, because
//   the mover had to feed and no capture may empty the opponent's side.
// - In every ending each player takes the stones in their own pits (in endings 1 and 2 every stone
//   left is on one side anyway). A finished state shows the board after that sweep: all pits empty.
// - Repetition: the position is the twelve pits and the player to move; the start (initial() or the
//   setup) is its first occurrence. A capture removes stones from the board for good, so no position
//   before a capture can come back and the history is cut there. The history travels with every
//   state this module returns, held aside in a WeakMap so that states stay plain data (JSON, toEqual);
//   a state built by hand or revived from JSON starts a fresh history at its own position.
// - The winner is the player with more stones in their store once the game is over; equal is a draw.
//
// KalahaCore is the same rules as a mutable board without allocation per move, for playouts,
// benchmarks and search; the tests hold it to play(). The rules never see strings: notation lives
// in kalaha-notation.ts.
import { fail, ok } from './types.ts';
import type { Result, RuleError } from './types.ts';

export const PITS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'] as const;
export type PitName = (typeof PITS)[number];
export const SIDES = ['south', 'north'] as const;
export type Side = (typeof SIDES)[number];

/** Cells in sensor order: pits A…F (0–5), a…f (6–11), south's store (12), north's store (13). */
export const CELL_COUNT = 14;
export const STORE = { south: 12, north: 13 } as const;

export interface KalahaOptions {
  readonly seedsPerPit: number;
  readonly skipOrigin: boolean;
  readonly forbiddenCaptureAtLeast: number;
}
export const DEFAULT_OPTIONS: KalahaOptions = { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 };

/** A move is the pit sown, 0–11 (index into PITS). */
export interface KalahaMove {
  readonly kind: 'sow';
  readonly pit: number;
}

export const END_REASONS = ['no-stones', 'cannot-feed', 'repetition', 'agreement'] as const;
export type EndReason = (typeof END_REASONS)[number];
export interface KalahaOutcome {
  readonly reason: EndReason;
  readonly winner: Side | 'draw';
}

/** An unchecked position: what a test, a sensor scan or a database row writes. */
export interface KalahaSetup {
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: Side;
}

export interface KalahaState {
  readonly options: KalahaOptions;
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: Side;
  readonly plies: number;
  readonly outcome: KalahaOutcome | null;
}

/** The physical outcome of sowing one pit, legal or not. */
export interface Sowing {
  /** All 14 cells after the stones are sown, before any capture is carried to a store. */
  readonly afterSow: readonly number[];
  readonly lastPit: number;
  /** Pits whose stones the sower captures, in chain order (last pit first); empty when none. */
  readonly captures: readonly number[];
  readonly captured: number;
}

/** Most stones a board may hold: the fast core packs a pit's count into 8 bits. */
export const MAX_STONES = 255;
const MAX_SEEDS_PER_PIT = 20;

// ---------------------------------------------------------------------------------------------
// The core: plain functions over the cells in a Uint8Array of 16 (14 cells, 2 spare bytes so that
// the twelve pits read as three 32-bit words), sides as 0 (south) and 1 (north). Shared by the
// immutable API below and by KalahaCore; nothing here allocates.

/** Bit 12 of a legal-move mask: every candidate is forbidden, so the move played captures nothing. */
const FALLBACK = 1 << 12;

function sideIndex(side: Side): 0 | 1 {
  return side === 'south' ? 0 : 1;
}

/** The number of pits one lap of a sowing fills: the emptied pit is skipped or not. */
function lapOf(options: KalahaOptions): number {
  return options.skipOrigin ? 11 : 12;
}

/** Stones in opponent pit `q` once `pit`, holding `n`, is sown (cells still as before the sowing). */
function countAfterSow(cells: ArrayLike<number>, pit: number, n: number, lap: number, q: number): number {
  const d = q > pit ? q - pit : q - pit + 12;
  const laps = (n / lap) | 0;
  return cells[q] + laps + (d <= n - laps * lap ? 1 : 0);
}

/** The pit the last stone of `pit`, holding `n`, falls into. */
function lastPitOf(pit: number, n: number, lap: number): number {
  const rest = n % lap;
  return (pit + (rest === 0 ? lap : rest)) % 12;
}

/** Stones the owner of `pit` captures by sowing it, by the capture rule alone (cells as before). */
function captureOf(cells: ArrayLike<number>, pit: number, n: number, lap: number): number {
  const oppStart = pit < 6 ? 6 : 0;
  const last = lastPitOf(pit, n, lap);
  if (last < oppStart || last >= oppStart + 6) return 0;
  let taken = 0;
  for (let q = last; q >= oppStart; q--) {
    const c = countAfterSow(cells, pit, n, lap, q);
    if (c !== 2 && c !== 3) break;
    taken += c;
  }
  return taken;
}

/** Stones the sowing of `pit` (holding `n`, at place i of its row) puts into the opponent's row. */
function stonesIntoOpponentRow(i: number, n: number, lap: number): number {
  const laps = (n / lap) | 0;
  const extra = n - laps * lap + i - 5;
  return laps * 6 + (extra < 0 ? 0 : extra > 6 ? 6 : extra);
}

function rowTotal(cells: ArrayLike<number>, start: number): number {
  return cells[start] + cells[start + 1] + cells[start + 2] + cells[start + 3] + cells[start + 4] + cells[start + 5];
}

const REASON_NONE = 0;
const REASON_TOO_MANY = 1;
const REASON_UNFAIR = 2;

/** Why the capture of sowing `pit` would be forbidden (REASON_*); REASON_NONE when it is not. */
function forbiddenReason(cells: ArrayLike<number>, pit: number, lap: number, limit: number): number {
  const n = cells[pit];
  const i = pit < 6 ? pit : pit - 6;
  const opp = pit < 6 ? 6 : 0;
  let taken = 0;
  let sown: number; // stones the sowing puts into the opponent's row
  if (n < 12) {
    // Less than a lap, the usual case: every pit passed gets one stone, so a pit captures
    // when it held 1 or 2. The last stone falls into opponent pit `sown - 1` if sown > 0.
    sown = i + n - 5;
    if (sown <= 0 || sown > 6) return REASON_NONE;
    for (let q = opp + sown - 1; q >= opp; q--) {
      const c = cells[q];
      if (c !== 1 && c !== 2) break;
      taken += c + 1;
    }
  } else {
    taken = captureOf(cells, pit, n, lap);
    sown = stonesIntoOpponentRow(i, n, lap);
  }
  if (taken === 0) return REASON_NONE;
  if (taken >= limit) return REASON_TOO_MANY;
  return taken === rowTotal(cells, opp) + sown ? REASON_UNFAIR : REASON_NONE;
}

/**
 * The moves `side` may start with (RULES.md's "every move the player may start with") as a bit
 * mask of pits: the non-empty ones, and of those only the feeding ones when the opponent's row
 * is empty. 0 means the side has no move: no stones (ending 1) or it must feed and cannot (2).
 * The forbidden captures never make it 0: with the fallback some move always remains.
 */
function candidateMask(cells: ArrayLike<number>, side: number): number {
  const own = side * 6;
  let mask = 0;
  for (let i = 0; i < 6; i++) if (cells[own + i] !== 0) mask |= 1 << (own + i);
  if (mask === 0 || rowTotal(cells, 6 - own) !== 0) return mask;
  // Must feed: pit i of a row reaches the opponent's row with 6 - i stones.
  for (let i = 0; i < 6; i++) if (cells[own + i] < 6 - i) mask &= ~(1 << (own + i));
  return mask;
}

/**
 * The legal moves of `side` as a bit mask of pits, with FALLBACK set when every candidate is
 * forbidden, so that all of them are legal and none captures. 0 when the side has no move.
 */
function legalMask(cells: ArrayLike<number>, side: number, lap: number, limit: number): number {
  const candidates = candidateMask(cells, side);
  let allowed = 0;
  for (let pit = side * 6, end = pit + 6; pit < end; pit++) {
    if (candidates & (1 << pit) && forbiddenReason(cells, pit, lap, limit) === REASON_NONE) allowed |= 1 << pit;
  }
  if (allowed !== 0) return allowed;
  return candidates === 0 ? 0 : candidates | FALLBACK;
}

/** Sows `pit` in place; returns the pit of the last stone. */
function sowInPlace(cells: Uint8Array, pit: number, skipOrigin: boolean): number {
  let n = cells[pit];
  cells[pit] = 0;
  if (n < 12) {
    // Less than a lap (the usual case): never back at the origin.
    const end = pit + n;
    if (end < 12) {
      for (let q = pit + 1; q <= end; q++) cells[q]++;
      return end;
    }
    for (let q = pit + 1; q < 12; q++) cells[q]++;
    for (let q = 0; q <= end - 12; q++) cells[q]++;
    return end - 12;
  }
  let q = pit;
  while (n > 0) {
    q = q === 11 ? 0 : q + 1;
    if (q === pit && skipOrigin) continue;
    cells[q]++;
    n--;
  }
  return q;
}

/** Carries the capture chain ending in `last` to the store of `side`; returns the stones taken. */
function captureInPlace(cells: Uint8Array, side: number, last: number): number {
  const oppStart = side === 0 ? 6 : 0;
  if (last < oppStart || last >= oppStart + 6) return 0;
  let taken = 0;
  for (let q = last; q >= oppStart; q--) {
    const c = cells[q];
    if (c !== 2 && c !== 3) break;
    taken += c;
    cells[q] = 0;
  }
  cells[12 + side] += taken;
  return taken;
}

/** The end of the game: each player takes the stones in their own pits. */
function sweepInPlace(cells: Uint8Array): void {
  for (let pit = 0; pit < 6; pit++) {
    cells[12] += cells[pit];
    cells[pit] = 0;
    cells[13] += cells[pit + 6];
    cells[pit + 6] = 0;
  }
}

function rowIsEmpty(cells: ArrayLike<number>, side: number): boolean {
  const own = side * 6;
  return cells[own] + cells[own + 1] + cells[own + 2] + cells[own + 3] + cells[own + 4] + cells[own + 5] === 0;
}

function winnerOf(cells: ArrayLike<number>): Side | 'draw' {
  return cells[12] > cells[13] ? 'south' : cells[12] < cells[13] ? 'north' : 'draw';
}

// ---------------------------------------------------------------------------------------------
// The immutable API.

/** Positions since the last capture, newest first: the threefold-repetition history. */
interface History {
  readonly key: string;
  readonly prev: History | null;
}
const histories = new WeakMap<KalahaState, History>();

/** The position as a short string: twelve pit counts and the player to move. */
function positionKey(cells: ArrayLike<number>, side: number): string {
  return String.fromCharCode(
    cells[0], cells[1], cells[2], cells[3], cells[4], cells[5],
    cells[6], cells[7], cells[8], cells[9], cells[10], cells[11], side,
  );
}

function historyOf(state: KalahaState): History {
  return histories.get(state) ?? { key: positionKey(state.pits, sideIndex(state.toMove)), prev: null };
}

/** One scratch board for the immutable API: every call loads it first and keeps nothing in it. */
const scratch = new Uint8Array(16);

function load(state: KalahaState): Uint8Array {
  for (let pit = 0; pit < 12; pit++) scratch[pit] = state.pits[pit];
  scratch[12] = state.stores[0];
  scratch[13] = state.stores[1];
  return scratch;
}

function maskOf(state: KalahaState): number {
  if (state.outcome) return 0;
  return legalMask(load(state), sideIndex(state.toMove), lapOf(state.options), state.options.forbiddenCaptureAtLeast);
}

/** Builds a state from `cells` (scratch), ending the game first when `reason` is given. */
function stateFrom(
  cells: Uint8Array,
  options: KalahaOptions,
  toMove: Side,
  plies: number,
  reason: EndReason | null,
  history: History | null,
): KalahaState {
  if (reason !== null) sweepInPlace(cells);
  const state: KalahaState = {
    options,
    pits: Array.from(cells.subarray(0, 12)),
    stores: [cells[12], cells[13]],
    toMove,
    plies,
    outcome: reason === null ? null : { reason, winner: winnerOf(cells) },
  };
  if (history !== null && reason === null) histories.set(state, history);
  return state;
}

/** Endings 1 and 2 for the player to move. */
function noMoveReason(cells: Uint8Array, side: number): EndReason | null {
  if (candidateMask(cells, side) !== 0) return null;
  return rowIsEmpty(cells, side) ? 'no-stones' : 'cannot-feed';
}

const OPTION_KEYS = ['seedsPerPit', 'skipOrigin', 'forbiddenCaptureAtLeast'] as const;

/** Options from JSON: a partial object merged over DEFAULT_OPTIONS; undefined or null gives the defaults. */
export function parseOptions(input: unknown): Result<KalahaOptions> {
  if (input === undefined || input === null) return ok(DEFAULT_OPTIONS);
  if (typeof input !== 'object' || Array.isArray(input)) {
    return fail('options/invalid', 'Kalaha options must be a JSON object such as {"seedsPerPit":3}.');
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      return fail('options/invalid', `Kalaha has no option "${key}"; the options are ${OPTION_KEYS.join(', ')}.`, { option: key });
    }
  }
  const { seedsPerPit = DEFAULT_OPTIONS.seedsPerPit, skipOrigin = DEFAULT_OPTIONS.skipOrigin } = given;
  const { forbiddenCaptureAtLeast = DEFAULT_OPTIONS.forbiddenCaptureAtLeast } = given;
  if (!Number.isInteger(seedsPerPit) || (seedsPerPit as number) < 1 || (seedsPerPit as number) > MAX_SEEDS_PER_PIT) {
    return fail('options/invalid', `Option seedsPerPit must be a whole number from 1 to ${MAX_SEEDS_PER_PIT}.`, {
      option: 'seedsPerPit',
    });
  }
  if (typeof skipOrigin !== 'boolean') {
    return fail('options/invalid', 'Option skipOrigin must be true or false.', { option: 'skipOrigin' });
  }
  if (!Number.isInteger(forbiddenCaptureAtLeast) || (forbiddenCaptureAtLeast as number) < 1) {
    return fail('options/invalid', 'Option forbiddenCaptureAtLeast must be a whole number of at least 1.', {
      option: 'forbiddenCaptureAtLeast',
    });
  }
  return ok({
    seedsPerPit: seedsPerPit as number,
    skipOrigin,
    forbiddenCaptureAtLeast: forbiddenCaptureAtLeast as number,
  });
}

/**
 * The start of a game: seedsPerPit stones in every pit, stores empty, south to move. Takes options
 * as parseOptions gives them; options that parseOptions would refuse are a programming error here
 * (a RangeError), since this function has no error value to return.
 */
export function initial(options: KalahaOptions = DEFAULT_OPTIONS): KalahaState {
  if (options !== DEFAULT_OPTIONS) {
    const { seedsPerPit, skipOrigin, forbiddenCaptureAtLeast } = options;
    const checked = parseOptions({ seedsPerPit, skipOrigin, forbiddenCaptureAtLeast });
    if (!checked.ok) throw new RangeError(`initial(): ${checked.error.message}`);
  }
  const pits = new Array<number>(12).fill(options.seedsPerPit);
  const state: KalahaState = { options, pits, stores: [0, 0], toMove: 'south', plies: 0, outcome: null };
  histories.set(state, { key: positionKey(pits, 0), prev: null });
  return state;
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

/**
 * A state from an unchecked position. Refuses (never throws) wrong lengths, counts that are not
 * whole non-negative numbers, an unknown side, and more than MAX_STONES stones. When the player to
 * move has no stones or must feed and cannot, the state returned is already over (endings 1 and 2).
 */
export function fromSetup(setup: KalahaSetup, options: KalahaOptions = DEFAULT_OPTIONS): Result<KalahaState> {
  if (typeof setup !== 'object' || setup === null) return fail('kalaha/bad-setup', 'A Kalaha setup must be an object with pits, stores and toMove.');
  const { pits, stores, toMove } = setup as { pits?: unknown; stores?: unknown; toMove?: unknown };
  if (!Array.isArray(pits) || pits.length !== 12) {
    return fail('kalaha/bad-setup', 'A Kalaha setup needs exactly 12 pit counts, A–F then a–f.');
  }
  if (!Array.isArray(stores) || stores.length !== 2) {
    return fail('kalaha/bad-setup', 'A Kalaha setup needs exactly 2 store counts, south then north.');
  }
  for (let pit = 0; pit < 12; pit++) {
    if (!isCount(pits[pit])) {
      return fail('kalaha/bad-setup', `Pit ${PITS[pit]} must hold a whole number of stones, 0 or more.`, { pit: PITS[pit] });
    }
  }
  for (let s = 0; s < 2; s++) {
    if (!isCount(stores[s])) {
      return fail('kalaha/bad-setup', `The store of ${SIDES[s]} must hold a whole number of stones, 0 or more.`, { side: SIDES[s] });
    }
  }
  if (toMove !== 'south' && toMove !== 'north') {
    return fail('kalaha/bad-setup', 'The player to move must be "south" or "north".');
  }
  let total = stores[0] + stores[1];
  for (let pit = 0; pit < 12; pit++) total += pits[pit] as number;
  if (total > MAX_STONES) {
    return fail('kalaha/bad-setup', `A Kalaha board holds at most ${MAX_STONES} stones; this one has ${total}.`, { stones: total });
  }
  const cells = scratch;
  for (let pit = 0; pit < 12; pit++) cells[pit] = pits[pit] as number;
  cells[12] = stores[0];
  cells[13] = stores[1];
  const side = sideIndex(toMove);
  const history = { key: positionKey(cells, side), prev: null };
  return ok(stateFrom(cells, options, toMove, 0, noMoveReason(cells, side), history));
}

/** Every move the player to move may make, in pit order; none once the game is over. */
export function legalMoves(state: KalahaState): KalahaMove[] {
  const mask = maskOf(state);
  const moves: KalahaMove[] = [];
  for (let pit = 0; pit < 12; pit++) if (mask & (1 << pit)) moves.push({ kind: 'sow', pit });
  return moves;
}

/** True when every legal move captures nothing because every candidate is forbidden (the fallback). */
export function capturesSuspended(state: KalahaState): boolean {
  return (maskOf(state) & FALLBACK) !== 0;
}

/** The error play would give for `move`, given the legal mask of the state; null when it is legal. */
function illegality(state: KalahaState, mask: number, move: KalahaMove): RuleError | null {
  if (state.outcome) return { code: 'kalaha/game-over', message: 'The game is over; no more moves can be played.' };
  if (typeof move !== 'object' || move === null || move.kind !== 'sow') {
    return { code: 'kalaha/malformed-move', message: 'A Kalaha move sows one pit: {kind: "sow", pit: 0–11}.' };
  }
  const pit = move.pit;
  if (!Number.isInteger(pit) || pit < 0 || pit > 11) {
    return {
      code: 'kalaha/no-such-pit',
      message: `There is no pit ${String(pit)}; the pits are 0–11 (A–F for south, a–f for north).`,
      params: { pit: String(pit) },
    };
  }
  if (mask & (1 << pit)) return null;
  const name = PITS[pit];
  const mover = state.toMove;
  const other = mover === 'south' ? 'north' : 'south';
  if (owner(pit) !== mover) {
    return { code: 'kalaha/not-your-pit', message: `Pit ${name} belongs to ${other}, but it is ${mover}'s turn.`, params: { pit: name, side: mover } };
  }
  const cells = load(state);
  const n = cells[pit];
  if (n === 0) return { code: 'kalaha/empty-pit', message: `Pit ${name} is empty.`, params: { pit: name } };
  const lap = lapOf(state.options);
  const opp = pit < 6 ? 6 : 0;
  if (rowTotal(cells, opp) === 0 && stonesIntoOpponentRow(pit % 6, n, lap) === 0) {
    return {
      code: 'kalaha/must-feed',
      message: `${capital(other)} has no stones left, so ${mover} must sow into ${other}'s row; pit ${name} does not reach it.`,
      params: { pit: name },
    };
  }
  const stones = captureOf(cells, pit, n, lap);
  const limit = state.options.forbiddenCaptureAtLeast;
  switch (forbiddenReason(cells, pit, lap, limit)) {
    case REASON_TOO_MANY:
      return {
        code: 'kalaha/forbidden-capture',
        message: `Pit ${name} would capture ${stones} stones — not allowed (captures of ${limit} or more are forbidden).`,
        params: { pit: name, stones },
      };
    case REASON_UNFAIR:
      return {
        code: 'kalaha/unfair-capture',
        message: `Pit ${name} would capture every stone on ${other}'s side (${stones} stones) — not allowed.`,
        params: { pit: name, stones },
      };
    default:
      // Unreachable while legalMask and the checks above agree; say so rather than pass the move.
      return { code: 'kalaha/illegal-move', message: `Pit ${name} cannot be sown now.`, params: { pit: name } };
  }
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The error play would return for `move`, or null when the move is legal. */
export function whyIllegal(state: KalahaState, move: KalahaMove): RuleError | null {
  return illegality(state, maskOf(state), move);
}

/** Plays one move: sow, capture (unless the fallback holds), then the endings in RULES.md's order. */
export function play(state: KalahaState, move: KalahaMove): Result<KalahaState> {
  const mask = maskOf(state);
  const error = illegality(state, mask, move);
  if (error) return { ok: false, error };
  const options = state.options;
  const cells = load(state);
  const side = sideIndex(state.toMove);
  const last = sowInPlace(cells, move.pit, options.skipOrigin);
  const taken = mask & FALLBACK ? 0 : captureInPlace(cells, side, last);
  const next = side ^ 1;
  const toMove = SIDES[next];
  let reason = noMoveReason(cells, next);
  let history: History | null = null;
  if (reason === null) {
    const key = positionKey(cells, next);
    const before = taken > 0 ? null : historyOf(state);
    let seen = 1;
    for (let h = before; h !== null; h = h.prev) if (h.key === key) seen++;
    if (seen >= 3) reason = 'repetition';
    history = { key, prev: before };
  }
  return ok(stateFrom(cells, options, toMove, state.plies + 1, reason, history));
}

/** Ending 4: the players agree to stop; each takes the stones in their own pits. */
export function endByAgreement(state: KalahaState): Result<KalahaState> {
  if (state.outcome) return fail('kalaha/game-over', 'The game is over already.');
  return ok(stateFrom(load(state), state.options, state.toMove, state.plies, 'agreement', null));
}

/** What an ideal sensor reads: pits A…F, a…f, south's store, north's store. */
export function observe(state: KalahaState): number[] {
  return [...state.pits, state.stores[0], state.stores[1]];
}

/**
 * The physical outcome of sowing `pit`, whoever's turn it is and whether or not the move is legal:
 * captures as if the pit's owner sowed it, without the forbidden-capture rules. An empty pit, or a
 * number that is no pit, moves nothing: the cells as they are and lastPit -1.
 */
export function sowing(state: KalahaState, pit: number): Sowing {
  const cells = load(state);
  if (!Number.isInteger(pit) || pit < 0 || pit > 11 || cells[pit] === 0) {
    return { afterSow: Array.from(cells.subarray(0, CELL_COUNT)), lastPit: -1, captures: [], captured: 0 };
  }
  const last = sowInPlace(cells, pit, state.options.skipOrigin);
  const oppStart = pit < 6 ? 6 : 0;
  const captures: number[] = [];
  let captured = 0;
  if (last >= oppStart && last < oppStart + 6) {
    for (let q = last; q >= oppStart; q--) {
      const c = cells[q];
      if (c !== 2 && c !== 3) break;
      captures.push(q);
      captured += c;
    }
  }
  return { afterSow: Array.from(cells.subarray(0, CELL_COUNT)), lastPit: last, captures, captured };
}

/** Who plays pit 0–11: A–F are south's, a–f north's. */
export function owner(pit: number): Side {
  return pit < 6 ? 'south' : 'north';
}

/** The winner once the game is over, null while it goes on. */
export function winner(state: KalahaState): Side | 'draw' | null {
  return state.outcome ? state.outcome.winner : null;
}

// ---------------------------------------------------------------------------------------------
// The mutable fast core, for playouts, benchmarks and search: the same rules as play(), with
// repetition counted in an open-addressing table that a capture clears in O(1) (a new generation).

/** Bits of the own-row part of a mask (6 bits) → how many moves, and the pit offset of the k-th. */
const MOVE_COUNT = new Uint8Array(64);
const NTH_MOVE = new Int8Array(64 * 6).fill(-1);
for (let row = 0; row < 64; row++) {
  let k = 0;
  for (let i = 0; i < 6; i++) if (row & (1 << i)) NTH_MOVE[row * 6 + k++] = i;
  MOVE_COUNT[row] = k;
}

/**
 * A mutable game for playouts, benchmarks and search. Endings need only the candidates (with the
 * fallback, a player with a candidate always has a move), so the forbidden captures are judged
 * only when asked: legalMask(), play(), playNth(), or for the one pit playRandom() draws.
 */
export class KalahaCore {
  /** Pits A…F, a…f, store south, store north (a view of the board); read freely, change only through the methods. */
  readonly cells: Uint8Array;
  /** 0 south, 1 north. */
  side = 0;
  plies = 0;
  /**
   * The moves the player to move may start with (see candidateMask); 0 when the game is over.
   * The legal moves are these less the forbidden ones, unless all are forbidden: legalMask().
   */
  candidates = 0;
  ending: EndReason | null = null;

  /** The cells and two spare bytes; `words` reads the twelve pits as three 32-bit words. */
  private readonly board = new Uint8Array(16);
  private readonly words = new Uint32Array(this.board.buffer);
  private readonly lap: number;
  private readonly limit: number;
  private readonly skipOrigin: boolean;
  private readonly seeds: number;
  // Repetition table: open addressing, 4 words a slot: three of pits, then (generation << 3 |
  // side << 2 | count). A slot is in use when it carries the current generation, so a capture
  // empties the table by starting a new one. A count never passes 3: the third occurrence ends the game.
  private slots = new Int32Array(4 * 1024);
  private shift = 32 - 10;
  private generation = 1;
  private used = 0;

  constructor(readonly options: KalahaOptions = DEFAULT_OPTIONS) {
    if (options.seedsPerPit * 12 > MAX_STONES) throw new RangeError(`KalahaCore holds at most ${MAX_STONES} stones`);
    this.cells = this.board.subarray(0, CELL_COUNT);
    this.lap = lapOf(options);
    this.limit = options.forbiddenCaptureAtLeast;
    this.skipOrigin = options.skipOrigin;
    this.seeds = options.seedsPerPit;
    this.reset();
  }

  /** Back to the start of a game. */
  reset(): void {
    const board = this.board;
    board.fill(this.seeds, 0, 12);
    board[12] = 0;
    board[13] = 0;
    this.side = 0;
    this.plies = 0;
    this.ending = null;
    this.newGeneration();
    this.begin();
  }

  /** Takes over a state of the immutable API (its repetition history starts afresh at it). */
  load(state: KalahaState): void {
    const board = this.board;
    for (let pit = 0; pit < 12; pit++) board[pit] = state.pits[pit];
    board[12] = state.stores[0];
    board[13] = state.stores[1];
    this.side = sideIndex(state.toMove);
    this.plies = state.plies;
    this.ending = state.outcome ? state.outcome.reason : null;
    this.newGeneration();
    if (this.ending === null) this.begin();
    else this.candidates = 0;
  }

  private begin(): void {
    this.candidates = candidateMask(this.board, this.side);
    if (this.candidates === 0) this.end(rowIsEmpty(this.board, this.side) ? 'no-stones' : 'cannot-feed');
    else this.seen();
  }

  /** The legal moves as a bit mask of pits, bit 12 set when they capture nothing (the fallback); 0 when over. */
  legalMask(): number {
    return this.candidates === 0 ? 0 : legalMask(this.board, this.side, this.lap, this.limit);
  }

  /** Plays `pit` if it is legal; returns false (and changes nothing) otherwise. */
  play(pit: number): boolean {
    const mask = this.legalMask();
    if (pit < 0 || pit > 11 || (mask & (1 << pit)) === 0) return false;
    this.sow(pit, (mask & FALLBACK) === 0);
    return true;
  }

  /**
   * Plays a move drawn uniformly from the legal moves with `random` (any source of unsigned
   * integers); returns its pit, or -1 when the game is over. Draws among the candidates and
   * checks only the drawn pit for a forbidden capture, drawing again without it if so: the same
   * distribution as drawing from legalMask(), without judging every pit every ply.
   */
  playRandom(random: () => number): number {
    const shift = this.side * 6;
    const all = (this.candidates >>> shift) & 63;
    let row = all;
    while (row !== 0) {
      const pit = shift + NTH_MOVE[row * 6 + (random() % MOVE_COUNT[row])];
      if (forbiddenReason(this.board, pit, this.lap, this.limit) === REASON_NONE) {
        this.sow(pit, true);
        return pit;
      }
      row &= ~(1 << (pit - shift));
    }
    if (all === 0) return -1;
    // Every candidate is forbidden: any of them, capturing nothing.
    const pit = shift + NTH_MOVE[all * 6 + (random() % MOVE_COUNT[all])];
    this.sow(pit, false);
    return pit;
  }

  /** Sows a legal move, captures if `capture`, then checks the endings. */
  private sow(pit: number, capture: boolean): void {
    const board = this.board;
    const last = sowInPlace(board, pit, this.skipOrigin);
    const taken = capture ? captureInPlace(board, this.side, last) : 0;
    const side = (this.side ^= 1);
    this.plies++;
    const next = candidateMask(board, side);
    this.candidates = next;
    if (next === 0) {
      this.end(rowIsEmpty(board, side) ? 'no-stones' : 'cannot-feed');
      return;
    }
    if (taken > 0) this.newGeneration();
    if (this.seen() >= 3) this.end('repetition');
  }

  /** How many legal moves the player to move has. */
  moveCount(): number {
    return MOVE_COUNT[(this.legalMask() >>> (this.side * 6)) & 63];
  }

  /** Plays the k-th legal move (from 0, in pit order); returns its pit, or -1 when there is none. */
  playNth(k: number): number {
    const mask = this.legalMask();
    const row = (mask >>> (this.side * 6)) & 63;
    if (k < 0 || k >= MOVE_COUNT[row]) return -1;
    const pit = this.side * 6 + NTH_MOVE[row * 6 + k];
    this.sow(pit, (mask & FALLBACK) === 0);
    return pit;
  }

  /** Ending 4. Returns false when the game is over already. */
  endByAgreement(): boolean {
    if (this.ending !== null) return false;
    this.end('agreement');
    return true;
  }

  winner(): Side | 'draw' | null {
    return this.ending === null ? null : winnerOf(this.board);
  }

  /** The position as a state of the immutable API (without the repetition history). */
  toState(): KalahaState {
    const board = this.board;
    const ending = this.ending;
    return {
      options: this.options,
      pits: Array.from(board.subarray(0, 12)),
      stores: [board[12], board[13]],
      toMove: SIDES[this.side],
      plies: this.plies,
      outcome: ending === null ? null : { reason: ending, winner: winnerOf(board) },
    };
  }

  private end(reason: EndReason): void {
    sweepInPlace(this.board);
    this.ending = reason;
    this.candidates = 0;
  }

  private newGeneration(): void {
    this.used = 0;
    if (++this.generation === 1 << 28) {
      this.slots.fill(0);
      this.generation = 1;
    }
  }

  /** Records the current position; returns how often it has now occurred since the last capture. */
  private seen(): number {
    const words = this.words;
    const w0 = words[0] | 0;
    const w1 = words[1] | 0;
    const w2 = words[2] | 0;
    const tag = (this.generation << 3) | (this.side << 2);
    const slots = this.slots;
    const last = slots.length - 4;
    for (let k = (hashKey(w0, w1, w2, this.side) >>> this.shift) << 2; ; k = k === last ? 0 : k + 4) {
      const meta = slots[k + 3];
      if (meta >>> 3 !== this.generation) {
        slots[k] = w0;
        slots[k + 1] = w1;
        slots[k + 2] = w2;
        slots[k + 3] = tag | 1;
        if (++this.used * 8 > slots.length) this.grow();
        return 1;
      }
      if ((meta & ~3) === tag && slots[k] === w0 && slots[k + 1] === w1 && slots[k + 2] === w2) {
        slots[k + 3] = meta + 1;
        return (meta & 3) + 1;
      }
    }
  }

  /** Doubles the table, keeping the current generation's entries. */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const last = slots.length - 4;
    this.shift--;
    for (let o = 0; o < old.length; o += 4) {
      const meta = old[o + 3];
      if (meta >>> 3 !== this.generation) continue;
      let k = (hashKey(old[o], old[o + 1], old[o + 2], (meta >>> 2) & 1) >>> this.shift) << 2;
      while (slots[k + 3] >>> 3 === this.generation) k = k === last ? 0 : k + 4;
      slots.set(old.subarray(o, o + 4), k);
    }
    this.slots = slots;
  }
}

/** Multiplicative hash of a packed position; the caller keeps the top bits. */
function hashKey(w0: number, w1: number, w2: number, side: number): number {
  return Math.imul(w0 ^ Math.imul(w1 ^ side, 0x9e3779b1) ^ Math.imul(w2, 0x85ebca77), 0xc2b2ae3d);
}
