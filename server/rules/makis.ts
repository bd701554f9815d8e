// Makis with Miwin's dice: the pure engine — the dice, the knights and Makis, rounds, and the end of the game.
/*
 * Follows RULES.md §3 (Makis; Michael Winkelmann; seed `makis.de.txt`) and its part "Common to
 * all games": a roll of the dice is part of the move, never drawn here.
 *
 * Options (parseOptions; DEFAULT_OPTIONS):
 * - `players` (1–5, default 1): one Maki per player. A record's `[Players "3"]` header sets it too.
 * - `mode` ("competitive" default, "cooperative"): who wins when a Maki reaches row 1 — that
 *   player, or the team. One player is the solitaire game in either mode.
 * - `knights` (default all on row 1): the knights' rows, one knight per column, each row 1–8;
 *   an array of nine rows (column 1 first) or an object {"1":row,…,"9":row} as replay prints it.
 *
 * Decisions taken here where RULES.md leaves room:
 * - Seat order is the order of the player numbers; "to the left" is 1 → 2 → … → n → 1.
 * - A roll is its three numbers in any order (the dice are told apart only by their faces). It is
 *   valid when some assignment to III, IV and V uses a face of each die; since every number is
 *   on exactly two dice, that is: not all three numbers lie on the same two dice.
 * - A double is two single steps, and each step lands: a Maki directly in front of a knight is
 *   captured by that column's double (the knight then passes on), as the middle square of a
 *   double also counts for sending a Maki back.
 * - A knight stops on row 9; steps of the roll left for it are dropped. The other knights still
 *   make their steps, then the game is over and nothing else happens: no capture, no Maki sent
 *   back, so the final position may show that knight on a Maki's square.
 * - "The knight of that column is already behind it" is judged where the knight stood before
 *   the roll (knight's row > Maki's row).
 * - A capture puts the player out in both modes; the others play on. The game ends only as
 *   RULES.md names: a Maki on row 1, a knight on row 9, every Maki captured. So the last player
 *   left in a competitive game plays on alone, and a cooperative team plays on without the
 *   captured Maki.
 * - When the roller's own Maki is captured by their roll, the Maki moves of that round begin
 *   with the next player in seat order still in the game.
 * - A pass and a placement are not moves: they send nothing back.
 * - Pieces sent back together are lifted together, then placed in player order on their return
 *   square or, if that is taken, the nearest empty square of the return row (lower column first
 *   on a tie). Only Makis ever need that: a knight's return square could only be taken by a Maki
 *   on row 1, which has already won; so knights never leave their column.
 * - In cooperative mode the winner is "team", also with one player; in competitive mode the
 *   player's number.
 * - `fromSetup` accepts knights on rows 1–9 and judges the end at once: a knight on row 9 (the
 *   knights win) before a Maki on row 1 (its player or the team wins) before every Maki captured.
 */
import { assertNever, fail, ok } from './types.ts';
import type { Result, RuleError } from './types.ts';

export const SIZE = 9;
export const MAX_PLAYERS = 5;

export const MODES = ['competitive', 'cooperative'] as const;
export type Mode = (typeof MODES)[number];

export const PHASES = ['place', 'roll', 'maki', 'over'] as const;
export type Phase = (typeof PHASES)[number];

export const MOVE_KINDS = ['place', 'roll', 'maki'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

export const END_REASONS = ['maki-home', 'knight-home', 'all-captured'] as const;
export type EndReason = (typeof END_REASONS)[number];

export const DICE = ['III', 'IV', 'V'] as const;
export type Die = (typeof DICE)[number];

/** Miwin's dice III, IV and V: every number 1–9 is on exactly two of them. */
export const FACES: { readonly [D in Die]: readonly number[] } = {
  III: [1, 2, 5, 6, 7, 9],
  IV: [1, 3, 4, 5, 8, 9],
  V: [2, 3, 4, 6, 7, 8],
};

export type Roll = readonly [number, number, number];

/** A square is a cell index: (row − 1) · 9 + (column − 1); row 1 is the knights' baseline. */
export type Square = number;

/** Where a player's Maki is: a square, `'out'` once captured, null before it is placed. */
export type MakiSpot = Square | 'out' | null;

export type Winner = number | 'team' | 'knights';

export interface MakisOptions {
  readonly players: number;
  readonly mode: Mode;
  /** The knights' starting rows, column 1 first. */
  readonly knights: readonly number[];
}

export const DEFAULT_KNIGHTS: readonly number[] = [1, 1, 1, 1, 1, 1, 1, 1, 1];
export const DEFAULT_OPTIONS: MakisOptions = { players: 1, mode: 'competitive', knights: DEFAULT_KNIGHTS };

export type MakisMove =
  | { readonly kind: 'place'; readonly player: number; readonly square: Square }
  | { readonly kind: 'roll'; readonly dice: Roll }
  /** A Maki's step onto `to`, or a pass when `to` is null. */
  | { readonly kind: 'maki'; readonly player: number; readonly to: Square | null };

export interface MakisOutcome {
  readonly reason: EndReason;
  readonly winner: Winner;
}

export interface MakisState {
  readonly options: MakisOptions;
  /** The knights' rows (1–9), column 1 first. */
  readonly knights: readonly number[];
  /** One entry per player, player 1 first. */
  readonly makis: readonly MakiSpot[];
  readonly phase: Phase;
  /** Whose action is next: the placer, the roller, or the player whose Maki moves; 0 once over. */
  readonly toMove: number;
  /** The player who rolls next (phase roll) or who rolled this round (phase maki). */
  readonly roller: number;
  /** Phase maki: the players whose Maki still moves this round, `toMove` first; else empty. */
  readonly pending: readonly number[];
  readonly plies: number;
  /** Rolls made so far. */
  readonly rounds: number;
  readonly outcome: MakisOutcome | null;
}

/** An unchecked position: what a test, a sensor scan or a database row writes. */
export interface MakisSetup {
  /** The knights' rows (1–9), column 1 first. */
  readonly knights: readonly number[];
  /** One entry per player (as many as options.players). */
  readonly makis: readonly MakiSpot[];
  readonly phase: 'place' | 'roll' | 'maki';
  /** The player who rolls next (roll) or who rolled this round (maki); unused while placing. */
  readonly roller?: number;
  /** Phase maki: whose Maki moves next; default the first of the round. */
  readonly toMove?: number;
}

/** A piece sent back: its player, where it stood, where it was put. */
export interface SentBack {
  readonly player: number;
  readonly from: Square;
  readonly to: Square;
}

/** What a roll does, resolved as RULES.md §3 step 2 says. */
export interface RollEffects {
  /** Knight rows after every step of the roll, column 1 first. */
  readonly knights: readonly number[];
  /** Every square a knight step landed on, by column, nearer square first. */
  readonly landings: readonly Square[];
  /** A knight reached row 9: the game is over and nothing below happened. */
  readonly knightHome: boolean;
  /** Players whose Maki was captured, ascending. */
  readonly captured: readonly number[];
  /** Makis sent back to row 9, in player order. */
  readonly sentBack: readonly SentBack[];
}

/** What a Maki's step does, resolved as RULES.md §3 step 3 says. */
export interface StepEffects {
  /** Columns whose knight went back to row 1, ascending. */
  readonly knightsSentBack: readonly number[];
  /** Other Makis sent back to row 9, in player order. */
  readonly makisSentBack: readonly SentBack[];
  /** The Maki stands on row 1: it has won. */
  readonly home: boolean;
}

// ---------------------------------------------------------------------------------------------
// Squares

export const square = (column: number, row: number): Square => (row - 1) * SIZE + (column - 1);
export const columnOf = (sq: Square): number => (sq % SIZE) + 1;
export const rowOf = (sq: Square): number => Math.floor(sq / SIZE) + 1;
/** `c5r9`: the record's name of a square (screens show "5/9"). */
export const squareName = (sq: Square): string => `c${columnOf(sq)}r${rowOf(sq)}`;
export const onBoard = (sq: unknown): sq is Square =>
  typeof sq === 'number' && Number.isInteger(sq) && sq >= 0 && sq < SIZE * SIZE;

const isInRange = (n: unknown, low: number, high: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= low && n <= high;

function ruleError(code: string, message: string, params?: Readonly<Record<string, string | number>>): RuleError {
  return params ? { code, message, params } : { code, message };
}

// ---------------------------------------------------------------------------------------------
// Miwin's dice

const PERMUTATIONS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/** Whether three numbers can lie on III, IV and V, one face of each die. */
export function canRoll(dice: readonly number[]): boolean {
  if (dice.length !== 3) return false;
  return PERMUTATIONS.some(
    ([a, b, c]) => FACES.III.includes(dice[a]) && FACES.IV.includes(dice[b]) && FACES.V.includes(dice[c]),
  );
}

/** The 216 equally likely ordered rolls: the faces of III, IV and V in that order. */
export const ORDERED_ROLLS: readonly Roll[] = FACES.III.flatMap((a) =>
  FACES.IV.flatMap((b) => FACES.V.map((c): Roll => [a, b, c])),
);

/** Every roll that can be made, each once, its numbers ascending, in lexicographic order. */
export const POSSIBLE_ROLLS: readonly Roll[] = (() => {
  const seen = new Map<string, Roll>();
  for (const roll of ORDERED_ROLLS) {
    const sorted = [...roll].sort((x, y) => x - y) as unknown as Roll;
    seen.set(sorted.join('.'), sorted);
  }
  return [...seen.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
})();

/** `1-1-1`: a roll as the sentences write it. */
const rollText = (dice: readonly unknown[]): string => dice.map(String).join('-');

// ---------------------------------------------------------------------------------------------
// Options

const OPTION_KEYS = ['players', 'mode', 'knights'] as const;

const badOption = (option: string, message: string): Result<never> => fail('options/invalid', message, { option });

/** The knights option: nine rows 1–8 as an array (column 1 first) or an object keyed "1"…"9". */
function parseKnights(value: unknown): Result<readonly number[]> {
  let rows: unknown[];
  if (Array.isArray(value)) {
    rows = value;
  } else if (typeof value === 'object' && value !== null) {
    const given = value as Record<string, unknown>;
    const keys = Object.keys(given);
    const columns = Array.from({ length: SIZE }, (_, i) => String(i + 1));
    if (keys.length !== SIZE || !columns.every((c) => Object.hasOwn(given, c))) {
      return badOption('knights', 'Option knights needs one row for each column "1" to "9".');
    }
    rows = columns.map((c) => given[c]);
  } else {
    return badOption('knights', 'Option knights must be nine rows, one per column, such as [1,1,1,1,1,1,1,1,1].');
  }
  if (rows.length !== SIZE) {
    return badOption('knights', `Option knights needs one knight in each of the ${SIZE} columns, not ${rows.length}.`);
  }
  for (let i = 0; i < SIZE; i++) {
    if (!isInRange(rows[i], 1, SIZE - 1)) {
      return badOption('knights', `Option knights: the knight in column ${i + 1} must stand on a row from 1 to 8, not ${JSON.stringify(rows[i])}.`);
    }
  }
  return ok(rows as number[]);
}

/**
 * Options from parsed JSON (missing keys take the defaults; unknown keys and bad values are
 * refused), with a record's `[Players "n"]` header setting `players` when the options do not.
 * Both given and different is refused: a record cannot mean two numbers of players.
 */
export function parseOptions(input: unknown, headers?: ReadonlyMap<string, string>): Result<MakisOptions> {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return fail('options/invalid', 'Makis options must be a JSON object such as {"players":3}.');
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      return badOption(key, `Makis has no option "${key}"; the options are ${OPTION_KEYS.join(', ')}.`);
    }
  }
  let players: unknown = given.players;
  const header = headers?.get('Players');
  if (header !== undefined) {
    const fromHeader = /^\s*\d+\s*$/.test(header) ? Number(header) : NaN;
    if (!isInRange(fromHeader, 1, MAX_PLAYERS)) {
      return badOption('players', `The [Players] header must name 1 to ${MAX_PLAYERS} players, not "${header}".`);
    }
    if (players !== undefined && players !== fromHeader) {
      return badOption('players', `The [Players] header says ${fromHeader} players, the options ${JSON.stringify(players)}.`);
    }
    players = fromHeader;
  }
  if (players === undefined) players = DEFAULT_OPTIONS.players;
  if (!isInRange(players, 1, MAX_PLAYERS)) {
    return badOption('players', `Option players must be a whole number from 1 to ${MAX_PLAYERS}.`);
  }
  const mode = given.mode ?? DEFAULT_OPTIONS.mode;
  if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode)) {
    return badOption('mode', 'Option mode must be "competitive" or "cooperative".');
  }
  let knights = DEFAULT_OPTIONS.knights;
  if (given.knights !== undefined) {
    const parsed = parseKnights(given.knights);
    if (!parsed.ok) return parsed;
    knights = parsed.value;
  }
  return ok({ players, mode: mode as Mode, knights });
}

// ---------------------------------------------------------------------------------------------
// Building positions

/** The start: knights as the options set them, every player still to place their Maki, player 1 first. */
export function initial(options: MakisOptions = DEFAULT_OPTIONS): Result<MakisState> {
  const checked = parseOptions(options);
  if (!checked.ok) return checked;
  const { players, knights } = checked.value;
  return ok({
    options: checked.value,
    knights: knights.slice(),
    makis: new Array<MakiSpot>(players).fill(null),
    phase: 'place',
    toMove: 1,
    roller: 1,
    pending: [],
    plies: 0,
    rounds: 0,
    outcome: null,
  });
}

export function fromSetup(setup: MakisSetup, options: MakisOptions = DEFAULT_OPTIONS): Result<MakisState> {
  const checked = parseOptions(options);
  if (!checked.ok) return checked;
  const opts = checked.value;
  const bad = (message: string, params?: Record<string, string | number>) => fail('makis/bad-setup', message, params);
  if (setup === null || typeof setup !== 'object' || !Array.isArray(setup.knights) || !Array.isArray(setup.makis)) {
    return bad('a setup needs the knights, the Makis and the phase');
  }
  if (setup.knights.length !== SIZE || !setup.knights.every((row) => isInRange(row, 1, SIZE))) {
    return bad('a setup needs nine knights, one per column, each on a row from 1 to 9');
  }
  if (setup.makis.length !== opts.players) {
    return bad(`the setup has ${setup.makis.length} Makis for ${opts.players} players`, { makis: setup.makis.length });
  }
  const knights = setup.knights.slice();
  const makis = setup.makis.slice();
  const taken = new Set<Square>();
  for (let p = 1; p <= makis.length; p++) {
    const spot = makis[p - 1];
    if (spot === null || spot === 'out') continue;
    if (!onBoard(spot)) return bad(`the Maki of player ${p} is not on the board`, { player: p });
    const name = squareName(spot);
    if (knights[columnOf(spot) - 1] === rowOf(spot)) {
      return fail('makis/setup-overlap', `the Maki of player ${p} and a knight both stand on ${name}`, { square: name });
    }
    if (taken.has(spot)) return fail('makis/setup-overlap', `two Makis stand on ${name}`, { square: name });
    taken.add(spot);
  }
  let phase: Phase = setup.phase;
  let toMove: number;
  let roller = 1;
  let pending: number[] = [];
  switch (setup.phase) {
    case 'place': {
      const first = makis.indexOf(null);
      if (first < 0) return bad('while placing, at least one Maki is still to be placed');
      if (makis.slice(first).some((spot) => spot !== null)) return bad('Makis are placed in seat order');
      if (makis.some((spot) => spot !== null && (spot === 'out' || rowOf(spot) !== SIZE))) {
        return bad('while placing, every Maki placed stands on row 9');
      }
      toMove = first + 1;
      break;
    }
    case 'roll':
    case 'maki': {
      if (makis.includes(null)) return bad('after the placement every Maki is on the board or out');
      roller = setup.roller ?? 1;
      if (!isInRange(roller, 1, opts.players)) return bad(`there is no player ${String(roller)} to roll`);
      if (setup.phase === 'roll') {
        if (makis[roller - 1] === 'out' && makis.some((spot) => spot !== 'out')) {
          return bad(`player ${roller} is out and cannot roll`, { player: roller });
        }
        toMove = roller;
        break;
      }
      const order = seatOrderFrom(makis, roller);
      toMove = setup.toMove ?? order[0] ?? 0;
      const at = order.indexOf(toMove);
      if (order.length > 0 && at < 0) return bad(`player ${String(toMove)} has no Maki to move this round`);
      pending = order.slice(at);
      break;
    }
    default:
      return assertNever(setup.phase);
  }

  let outcome: MakisOutcome | null = null;
  const home = makis.filter((spot): spot is Square => typeof spot === 'number' && rowOf(spot) === 1);
  if (knights.includes(SIZE)) {
    outcome = { reason: 'knight-home', winner: 'knights' };
  } else if (home.length > 1) {
    return bad('only one Maki can have reached row 1');
  } else if (home.length === 1) {
    outcome = { reason: 'maki-home', winner: winnerFor(opts, makis.indexOf(home[0]) + 1) };
  } else if (makis.every((spot) => spot === 'out')) {
    outcome = { reason: 'all-captured', winner: 'knights' };
  }
  if (outcome !== null) {
    phase = 'over';
    toMove = 0;
    pending = [];
  }
  return ok({ options: opts, knights, makis, phase, toMove, roller, pending, plies: 0, rounds: 0, outcome });
}

const winnerFor = (options: MakisOptions, player: number): Winner => (options.mode === 'cooperative' ? 'team' : player);

// ---------------------------------------------------------------------------------------------
// Seats

/** The players still in the game (Maki on the board), in seat order beginning at `start` (inclusive). */
export function seatOrderFrom(makis: readonly MakiSpot[], start: number): number[] {
  const n = makis.length;
  const order: number[] = [];
  for (let k = 0; k < n; k++) {
    const p = ((start - 1 + k) % n) + 1;
    if (typeof makis[p - 1] === 'number') order.push(p);
  }
  return order;
}

/** The player whose Maki stands on `sq`, or 0. */
function makiOn(makis: readonly MakiSpot[], sq: Square): number {
  for (let i = 0; i < makis.length; i++) if (makis[i] === sq) return i + 1;
  return 0;
}

const knightOn = (knights: readonly number[], sq: Square): boolean => knights[columnOf(sq) - 1] === rowOf(sq);

/**
 * Lifts the given Makis and puts them back on `row`, in player order, each on its own column or,
 * when that is taken, the nearest empty square of the row (lower column first on a tie).
 * Mutates `makis`; returns what moved where.
 */
function sendBack(makis: MakiSpot[], knights: readonly number[], players: readonly number[], row: number): SentBack[] {
  const from = players.map((p) => makis[p - 1] as Square);
  for (const p of players) makis[p - 1] = null;
  const result: SentBack[] = [];
  players.forEach((p, i) => {
    const column = columnOf(from[i]);
    let to = -1;
    for (let d = 0; d < SIZE && to < 0; d++) {
      for (const c of d === 0 ? [column] : [column - d, column + d]) {
        if (c < 1 || c > SIZE) continue;
        const sq = square(c, row);
        if (!knightOn(knights, sq) && makiOn(makis, sq) === 0) {
          to = sq;
          break;
        }
      }
    }
    // A row holds nine squares, at most five Makis and (while the game goes on) no knight on row 9.
    if (to < 0) throw new Error(`no empty square on row ${row}`);
    makis[p - 1] = to;
    result.push({ player: p, from: from[i], to });
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Effects

/** What the roll `dice` does to the knights and Makis; `dice` must be a possible roll. */
export function rollEffects(knights: readonly number[], makis: readonly MakiSpot[], dice: Roll): RollEffects {
  const steps = new Array<number>(SIZE).fill(0);
  for (const d of dice) steps[d - 1]++;
  const after = knights.slice();
  const landings: Square[] = [];
  let knightHome = false;
  for (let c = 0; c < SIZE; c++) {
    for (let s = 0; s < steps[c] && after[c] < SIZE; s++) {
      after[c]++;
      landings.push(square(c + 1, after[c]));
      if (after[c] === SIZE) knightHome = true;
    }
  }
  if (knightHome) return { knights: after, landings, knightHome, captured: [], sentBack: [] };

  const captured: number[] = [];
  const toSend: number[] = [];
  for (let p = 1; p <= makis.length; p++) {
    const spot = makis[p - 1];
    if (typeof spot !== 'number') continue;
    const col = columnOf(spot);
    const row = rowOf(spot);
    if (landings.includes(spot)) {
      captured.push(p);
      continue;
    }
    const besideLanding = landings.some((sq) => rowOf(sq) === row && Math.abs(columnOf(sq) - col) === 1);
    const passedBy = steps[col - 1] > 0 && knights[col - 1] > row;
    if (besideLanding || passedBy) toSend.push(p);
  }
  const nextMakis = makis.slice();
  for (const p of captured) nextMakis[p - 1] = 'out';
  const sentBack = sendBack(nextMakis, after, toSend, SIZE);
  return { knights: after, landings, knightHome, captured, sentBack };
}

/** What player's Maki stepping onto `to` does (the step itself legal). */
export function stepEffects(knights: readonly number[], makis: readonly MakiSpot[], player: number, to: Square): StepEffects {
  const col = columnOf(to);
  const row = rowOf(to);
  const knightsSentBack: number[] = [];
  const neighbours: number[] = [];
  for (const c of [col - 1, col + 1]) {
    if (c < 1 || c > SIZE) continue;
    if (knights[c - 1] === row) knightsSentBack.push(c);
    const other = makiOn(makis, square(c, row));
    if (other !== 0 && other !== player) neighbours.push(other);
  }
  neighbours.sort((a, b) => a - b);
  const moved = makis.slice();
  moved[player - 1] = to;
  const after = knights.slice();
  for (const c of knightsSentBack) after[c - 1] = 1;
  const makisSentBack = sendBack(moved, after, neighbours, SIZE);
  return { knightsSentBack, makisSentBack, home: row === 1 };
}

// ---------------------------------------------------------------------------------------------
// Legal moves

const STEPS = [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => [dr, dc] as const)).filter(([dr, dc]) => dr !== 0 || dc !== 0);

/** Empty squares (no knight, no Maki). */
const isEmpty = (state: MakisState, sq: Square): boolean => !knightOn(state.knights, sq) && makiOn(state.makis, sq) === 0;

/**
 * Every legal move in a fixed order: placements by column; the possible rolls ascending; a
 * Maki's steps by square, then the pass.
 */
export function legalMoves(state: MakisState): MakisMove[] {
  switch (state.phase) {
    case 'over':
      return [];
    case 'place': {
      const moves: MakisMove[] = [];
      for (let c = 1; c <= SIZE; c++) {
        const sq = square(c, SIZE);
        if (isEmpty(state, sq)) moves.push({ kind: 'place', player: state.toMove, square: sq });
      }
      return moves;
    }
    case 'roll':
      return POSSIBLE_ROLLS.map((dice) => ({ kind: 'roll', dice }));
    case 'maki': {
      const player = state.toMove;
      const from = state.makis[player - 1] as Square;
      const targets: Square[] = [];
      for (const [dr, dc] of STEPS) {
        const c = columnOf(from) + dc;
        const r = rowOf(from) + dr;
        if (c < 1 || c > SIZE || r < 1 || r > SIZE) continue;
        const sq = square(c, r);
        if (isEmpty(state, sq)) targets.push(sq);
      }
      targets.sort((a, b) => a - b);
      const moves: MakisMove[] = targets.map((to) => ({ kind: 'maki', player, to }));
      moves.push({ kind: 'maki', player, to: null });
      return moves;
    }
    default:
      return assertNever(state.phase);
  }
}

// ---------------------------------------------------------------------------------------------
// Playing a move

export function play(state: MakisState, move: MakisMove): Result<MakisState> {
  const error = whyIllegal(state, move);
  if (error) return { ok: false, error };
  return ok(apply(state, move));
}

function apply(state: MakisState, move: MakisMove): MakisState {
  const { options } = state;
  const plies = state.plies + 1;
  switch (move.kind) {
    case 'place': {
      const makis = state.makis.slice();
      makis[move.player - 1] = move.square;
      if (move.player < options.players) return { ...state, makis, toMove: move.player + 1, plies };
      return { ...state, makis, phase: 'roll', toMove: 1, roller: 1, plies };
    }
    case 'roll': {
      const effects = rollEffects(state.knights, state.makis, move.dice);
      const rounds = state.rounds + 1;
      if (effects.knightHome) {
        const outcome: MakisOutcome = { reason: 'knight-home', winner: 'knights' };
        return { ...state, knights: effects.knights, phase: 'over', toMove: 0, pending: [], plies, rounds, outcome };
      }
      const makis = state.makis.slice();
      for (const p of effects.captured) makis[p - 1] = 'out';
      for (const { player, to } of effects.sentBack) makis[player - 1] = to;
      const pending = seatOrderFrom(makis, state.roller);
      if (pending.length === 0) {
        const outcome: MakisOutcome = { reason: 'all-captured', winner: 'knights' };
        return { ...state, knights: effects.knights, makis, phase: 'over', toMove: 0, pending, plies, rounds, outcome };
      }
      return { ...state, knights: effects.knights, makis, phase: 'maki', toMove: pending[0], pending, plies, rounds };
    }
    case 'maki': {
      let knights = state.knights;
      let makis = state.makis;
      if (move.to !== null) {
        const effects = stepEffects(state.knights, state.makis, move.player, move.to);
        const nextKnights = state.knights.slice();
        for (const c of effects.knightsSentBack) nextKnights[c - 1] = 1;
        const nextMakis = state.makis.slice();
        nextMakis[move.player - 1] = move.to;
        for (const { player, to } of effects.makisSentBack) nextMakis[player - 1] = to;
        knights = nextKnights;
        makis = nextMakis;
        if (effects.home) {
          const outcome: MakisOutcome = { reason: 'maki-home', winner: winnerFor(options, move.player) };
          return { ...state, knights, makis, phase: 'over', toMove: 0, pending: [], plies, outcome };
        }
      }
      const pending = state.pending.slice(1);
      if (pending.length > 0) return { ...state, knights, makis, toMove: pending[0], pending, plies };
      const roller = seatOrderFrom(makis, (state.roller % options.players) + 1)[0];
      return { ...state, knights, makis, phase: 'roll', toMove: roller, roller, pending, plies };
    }
    default:
      return assertNever(move);
  }
}

// ---------------------------------------------------------------------------------------------
// Why a move is illegal

const END_SENTENCES: { readonly [R in EndReason]: (winner: Winner) => string } = {
  'maki-home': (w) => (w === 'team' ? 'the team won: a Maki reached row 1' : `player ${String(w)} won by reaching row 1`),
  'knight-home': () => 'the knights won: a knight reached row 9',
  'all-captured': () => 'the knights won: every Maki was captured',
};

const EXPECTED: { readonly [P in Exclude<Phase, 'over'>]: (state: MakisState) => RuleError } = {
  place: (s) => ruleError('makis/placement-expected', `the Makis are being placed: player ${s.toMove} puts their Maki on row 9 next`, { player: s.toMove }),
  roll: (s) => ruleError('makis/roll-expected', `it is time to roll the dice (player ${s.toMove} rolls)`, { player: s.toMove }),
  maki: (s) => ruleError('makis/maki-move-expected', `the Makis move before the next roll: player ${s.toMove} moves or passes next`, { player: s.toMove }),
};

/** Null when `move` is legal in `state`; otherwise the reason, as a stable code and a plain sentence. */
export function whyIllegal(state: MakisState, move: MakisMove): RuleError | null {
  if (state.outcome !== null) {
    const { reason, winner } = state.outcome;
    return ruleError('makis/game-over', `the game is over: ${END_SENTENCES[reason](winner)}`, { reason, winner: String(winner) });
  }
  const phase = state.phase as Exclude<Phase, 'over'>;
  switch (move.kind) {
    case 'roll':
      if (phase !== 'roll') return EXPECTED[phase](state);
      return whyNotRoll(move.dice);
    case 'place':
    case 'maki': {
      const players = state.options.players;
      if (!isInRange(move.player, 1, players)) {
        return ruleError('makis/no-such-player', `there is no player ${String(move.player)}; this game has ${players} player${players === 1 ? '' : 's'}`, {
          player: String(move.player),
        });
      }
      if (phase !== move.kind) return EXPECTED[phase](state);
      if (state.makis[move.player - 1] === 'out') {
        return ruleError('makis/player-out', `player ${move.player}'s Maki was captured; player ${move.player} is out of the game`, {
          player: move.player,
        });
      }
      if (move.player !== state.toMove) {
        return ruleError('makis/not-your-turn', `it is player ${state.toMove}'s turn, not player ${move.player}'s`, {
          player: move.player,
          toMove: state.toMove,
        });
      }
      return move.kind === 'place' ? whyNotPlacement(state, move.square) : whyNotStep(state, move.player, move.to);
    }
    default:
      return assertNever(move);
  }
}

function whyNotRoll(dice: readonly unknown[]): RuleError | null {
  const text = Array.isArray(dice) ? rollText(dice) : String(dice);
  if (!Array.isArray(dice) || dice.length !== 3) {
    return ruleError('makis/impossible-roll', `a roll of ${text} cannot be made with Miwin's dice: a roll shows three numbers`, { roll: text });
  }
  if (!dice.every((d) => isInRange(d, 1, SIZE))) {
    return ruleError('makis/impossible-roll', `a roll of ${text} cannot be made with Miwin's dice: their numbers run from 1 to 9`, { roll: text });
  }
  if (!canRoll(dice as number[])) {
    return ruleError('makis/impossible-roll', `a roll of ${text} cannot be made with Miwin's dice`, { roll: text });
  }
  return null;
}

function offBoard(sq: unknown): RuleError {
  return ruleError('makis/off-board', `square ${String(sq)} is not on the 9 × 9 board`, { square: String(sq) });
}

function whyTaken(state: MakisState, sq: Square): RuleError | null {
  const name = squareName(sq);
  if (knightOn(state.knights, sq)) return ruleError('makis/square-taken', `${name} is taken by a knight`, { square: name });
  const other = makiOn(state.makis, sq);
  if (other !== 0) return ruleError('makis/square-taken', `${name} is taken by the Maki of player ${other}`, { square: name, player: other });
  return null;
}

function whyNotPlacement(state: MakisState, sq: Square): RuleError | null {
  if (!onBoard(sq)) return offBoard(sq);
  if (rowOf(sq) !== SIZE) {
    const name = squareName(sq);
    return ruleError('makis/not-row-9', `a Maki is placed on row 9, not on ${name}`, { square: name });
  }
  return whyTaken(state, sq);
}

function whyNotStep(state: MakisState, player: number, to: Square | null): RuleError | null {
  if (to === null) return null;
  if (!onBoard(to)) return offBoard(to);
  const from = state.makis[player - 1] as Square;
  const dc = Math.abs(columnOf(to) - columnOf(from));
  const dr = Math.abs(rowOf(to) - rowOf(from));
  if (Math.max(dc, dr) !== 1) {
    const params = { from: squareName(from), to: squareName(to) };
    return ruleError('makis/not-adjacent', `a Maki moves one square in any direction; ${params.to} is not next to ${params.from}`, params);
  }
  return whyTaken(state, to);
}
