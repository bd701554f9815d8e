// Which games a board can host, the options and seats the setup page offers for each, and the players' names as the log keeps them.
//
// A Kalaha table hosts Kalaha only. A square board hosts the games whose board is exactly its own size
// (HELLO cols × rows): a sensor's cell number is the game's own (cell = row · size + col), and a smaller
// game laid in one corner would leave live sensors around it where people set pieces aside, which the
// referee would read as moves. So a 6 × 6 board hosts Malawi; a 9 × 9 board Malawi on 9 × 9, Makis and
// Adu on 9 × 9; a 13 × 13 board Adu. A simulated board is started afresh for each game at that game's
// size, so it hosts every game of its kind at every size the game allows.
import { GAME_NAMES, kalaha, malawi, makis, adu, type GameName } from '../rules/index.ts';
import { GRID_MAX_COUNT_CELLS, GRID_MAX_SIDE, type HelloMessage } from '../../firmware-bridge/index.ts';
import type { TableKit } from '../tables/index.ts';

export type BoardKind = 'kalaha' | 'grid';

/** One option as the setup page offers it. `fixed`: the board decides it (a real board's size). */
export type OptionField =
  | { readonly key: string; readonly kind: 'int'; readonly min: number; readonly max: number; readonly default: number; readonly fixed?: boolean }
  | { readonly key: string; readonly kind: 'choice'; readonly values: readonly (string | number)[]; readonly default: string | number }
  | { readonly key: string; readonly kind: 'bool'; readonly default: boolean };

/** How a game's players sit: two sides (south opens), or numbered seats in turn order. */
export interface Seats {
  readonly min: number;
  readonly max: number;
  readonly kind: 'sides' | 'numbered';
}

export interface HostedGame {
  readonly game: GameName;
  readonly title: string;
  readonly seats: Seats;
  readonly options: readonly OptionField[];
}

export const SEATS: Readonly<Record<GameName, Seats>> = {
  kalaha: { min: 2, max: 2, kind: 'sides' },
  malawi: { min: 2, max: 2, kind: 'sides' },
  makis: { min: 1, max: makis.MAX_PLAYERS, kind: 'numbered' },
  adu: { min: adu.MIN_PLAYERS, max: adu.MAX_PLAYERS, kind: 'numbered' },
};

/** The sides in seat order: south opens (RULES.md §1, §2). */
export const SIDES = ['south', 'north'] as const;
/** The names the log has always kept when nobody gave one. */
const SIDE_NAMES = { south: 'Süd', north: 'Nord' } as const;
export const MAX_NAME_LENGTH = 40;

/** What a board is, as far as hosting goes. */
export interface BoardShape {
  readonly kind: BoardKind;
  readonly source: 'simulated' | 'serial';
  /** A real board's HELLO (its size); null for a simulated one. */
  readonly hello: HelloMessage | null;
  /** A simulated square board that counts beads can carry fewer cells in one line. */
  readonly sense?: 'occupancy' | 'count';
}

/** The games this board hosts, in the order of GAME_NAMES, each with its options and seats. */
export function hostedGames(board: BoardShape, kits: Partial<Record<GameName, TableKit>>): HostedGame[] {
  const out: HostedGame[] = [];
  for (const game of GAME_NAMES) {
    const kit = kits[game];
    if (!kit || kit.board !== board.kind) continue;
    const options = optionFields(game, board);
    if (options) out.push({ game, title: kit.title, seats: SEATS[game], options });
  }
  return out;
}

/** The options of `game` on this board, or null when the board cannot host it. */
function optionFields(game: GameName, board: BoardShape): OptionField[] | null {
  const size = boardSize(board);
  switch (game) {
    case 'kalaha':
      return [
        // parseOptions has the last word on every bound; these are what the page offers.
        { key: 'seedsPerPit', kind: 'int', min: 1, max: 20, default: kalaha.DEFAULT_OPTIONS.seedsPerPit },
        { key: 'skipOrigin', kind: 'bool', default: kalaha.DEFAULT_OPTIONS.skipOrigin },
        { key: 'forbiddenCaptureAtLeast', kind: 'int', min: 1, max: 48, default: kalaha.DEFAULT_OPTIONS.forbiddenCaptureAtLeast },
      ];
    case 'malawi': {
      // A simulated counting board sends one number per square, and a line holds only so many.
      const simulatedMax = board.sense === 'count' ? Math.floor(Math.sqrt(GRID_MAX_COUNT_CELLS)) : GRID_MAX_SIDE;
      const sizeField = sized(size, malawi.MIN_SIZE, Math.min(malawi.MAX_SIZE, simulatedMax), malawi.DEFAULT_OPTIONS.size);
      if (!sizeField) return null;
      return [
        sizeField,
        { key: 'maxStrength', kind: 'choice', values: [...malawi.MAX_STRENGTHS], default: malawi.DEFAULT_OPTIONS.maxStrength },
        { key: 'baselineWin', kind: 'choice', values: [...malawi.BASELINE_WINS], default: malawi.DEFAULT_OPTIONS.baselineWin },
      ];
    }
    case 'makis':
      if (size === 'any' || size === makis.SIZE) return [{ key: 'mode', kind: 'choice', values: [...makis.MODES], default: makis.DEFAULT_OPTIONS.mode }];
      return null;
    case 'adu': {
      const sizeField = sized(size, adu.MIN_SIZE, Math.min(adu.MAX_SIZE, GRID_MAX_SIDE), adu.DEFAULT_OPTIONS.size);
      if (!sizeField) return null;
      return [sizeField, { key: 'diagonal', kind: 'bool', default: adu.DEFAULT_OPTIONS.diagonal }];
    }
    default:
      return game satisfies never;
  }
}

/** A real square board's side (null: not square), or `any` for a board started afresh at each game's size. */
function boardSize(board: BoardShape): number | null | 'any' {
  if (board.source === 'simulated' || board.kind !== 'grid') return 'any';
  const { cols, rows } = board.hello ?? { cols: null, rows: null };
  return cols !== null && cols === rows ? cols : null;
}

function sized(size: number | null | 'any', min: number, max: number, fallback: number): OptionField | null {
  if (size === 'any') return { key: 'size', kind: 'int', min, max, default: fallback };
  if (size === null || size < min || size > max) return null;
  return { key: 'size', kind: 'int', min: size, max: size, default: size, fixed: true };
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: string; readonly message: string };

/**
 * The options a start request gives, checked against the fields offered: only known keys, of the right
 * kind, in range. The engine's parseOptions checks them again when the game is built.
 */
export function checkOptions(hosted: HostedGame, given: unknown): Checked<Record<string, unknown>> {
  if (given === undefined) return { ok: true, value: {} };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return { ok: false, code: 'setup/bad-options', message: 'options must be an object, such as {"seedsPerPit": 4}.' };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    const field = hosted.options.find((f) => f.key === key);
    if (!field) {
      const known = hosted.options.map((f) => f.key).join(', ');
      return { ok: false, code: 'setup/unknown-option', message: `${hosted.title} on this board has no option "${key}"; the options are ${known || 'none'}.` };
    }
    const bad = (why: string): Checked<never> => ({ ok: false, code: 'setup/bad-options', message: `Option ${key} ${why}.` });
    switch (field.kind) {
      case 'int':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < field.min || value > field.max) {
          return bad(field.min === field.max ? `is ${field.min} on this board` : `must be a whole number from ${field.min} to ${field.max}`);
        }
        break;
      case 'choice':
        if (!field.values.includes(value as string | number)) return bad(`must be one of ${field.values.map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'bool':
        if (typeof value !== 'boolean') return bad('must be true or false');
        break;
      default:
        return field satisfies never;
    }
    out[key] = value;
  }
  // A size the board decides is written into the options, so the log says what was played.
  for (const field of hosted.options) if (field.kind === 'int' && field.fixed && !(field.key in out)) out[field.key] = field.default;
  return { ok: true, value: out };
}

/**
 * The players' names in seat order (south first for two sides, player 1 first for numbered seats) as
 * the log keeps them: `{ south, north }` or `{ "1", "2", … }`. A blank name becomes the seat's own.
 */
export function playersOf(game: GameName, names: unknown): Checked<Record<string, string>> {
  const seats = SEATS[game];
  if (names === undefined) names = Array.from({ length: seats.min }, () => '');
  if (!Array.isArray(names)) return { ok: false, code: 'setup/bad-players', message: 'players must be a list of names in seat order, such as ["Anna", "Ben"].' };
  if (names.length < seats.min || names.length > seats.max) {
    const range = seats.min === seats.max ? `${seats.min}` : `${seats.min} to ${seats.max}`;
    return { ok: false, code: 'setup/bad-players', message: `${gameTitle(game)} is played by ${range} players, not ${names.length}.` };
  }
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [i, name] of names.entries()) {
    if (typeof name !== 'string') return { ok: false, code: 'setup/bad-players', message: `Player ${i + 1}'s name must be text.` };
    const trimmed = name.trim().replace(/\s+/g, ' ');
    if (trimmed.length > MAX_NAME_LENGTH) return { ok: false, code: 'setup/bad-players', message: `Player ${i + 1}'s name is longer than ${MAX_NAME_LENGTH} characters.` };
    if (/[\u0000-\u001f\u007f]/.test(trimmed)) return { ok: false, code: 'setup/bad-players', message: `Player ${i + 1}'s name has a control character.` };
    if (trimmed !== '' && seen.has(trimmed.toLowerCase())) {
      return { ok: false, code: 'setup/bad-players', message: `"${trimmed}" sits at two seats; give each player their own name.` };
    }
    if (trimmed !== '') seen.add(trimmed.toLowerCase());
    const seat = seats.kind === 'sides' ? SIDES[i] : String(i + 1);
    out[seat] = trimmed || (seats.kind === 'sides' ? SIDE_NAMES[SIDES[i]] : `Spieler ${i + 1}`);
  }
  return { ok: true, value: out };
}

/** The names a game is logged with when nobody gave any: the sides', or `Spieler n` for each seat. */
export function defaultPlayers(game: GameName, count: number): Record<string, string> {
  const result = playersOf(game, Array.from({ length: Math.min(Math.max(count, SEATS[game].min), SEATS[game].max) }, () => ''));
  return result.ok ? result.value : {};
}

function gameTitle(game: GameName): string {
  return game[0].toUpperCase() + game.slice(1);
}
