// A logged game's positions (the API's replay output, RULES.md) turned into what the board components draw, ply by
// ply. Pure: the replay output is read defensively, as a log written by an older server may lack a field.
import type { AduView, KalahaView, MakisView, MalawiView } from '../../../server/http/messages.ts';
import type { GameName, PositionStep, Positions } from './api.ts';

/** The pits in the board component's order (sensor order): south's A–F, then north's a–f. */
const PITS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'] as const;

type Side = 'south' | 'north';

export interface KalahaBoardData {
  readonly game: 'kalaha';
  readonly pits: readonly number[];
  readonly stores: { readonly south: number; readonly north: number };
  readonly toMove: Side | null;
  readonly lastMove: KalahaView['lastMove'];
}

export interface MalawiBoardData {
  readonly game: 'malawi';
  readonly size: number;
  readonly pieces: MalawiView['pieces'];
  readonly toMove: Side | null;
  readonly lastMove: MalawiView['lastMove'];
}

export interface MakisBoardData {
  readonly game: 'makis';
  readonly knights: readonly number[];
  readonly makis: readonly (string | null)[];
  readonly toMove: number | null;
  readonly lastRoll: readonly number[] | null;
  readonly lastMove: string | null;
}

export interface AduBoardData {
  readonly game: 'adu';
  readonly size: number;
  readonly pieces: AduView['pieces'];
  readonly lastMove: AduView['lastMove'];
}

export type BoardData = KalahaBoardData | MalawiBoardData | MakisBoardData | AduBoardData;

type Json = Readonly<Record<string, unknown>>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function side(value: string | null): Side | null {
  return value === 'south' || value === 'north' ? value : null;
}

/** A whole-number option, or the engine's default (RULES.md) when the log does not say. */
function option(options: unknown, name: string, fallback: number): number {
  const value = record(options)[name];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The step shown at `ply`, clamped to the steps there are. */
export function stepAt(positions: Positions, ply: number): PositionStep {
  const last = positions.steps.length - 1;
  return positions.steps[Math.max(0, Math.min(last, Math.round(ply)))];
}

/** The last ply the slider can reach. */
export function lastPly(positions: Positions): number {
  return Math.max(0, positions.steps.length - 1);
}

export function kalahaCounts(position: unknown): { pits: number[]; stores: { south: number; north: number } } {
  const p = record(position);
  const pits = record(p.pits);
  const stores = record(p.stores);
  return { pits: PITS.map((letter) => count(pits[letter])), stores: { south: count(stores.south), north: count(stores.north) } };
}

/**
 * The board after `ply` moves. The marks of the last move are read off the two positions around it: Kalaha's sown
 * pits are those that gained stones (a pit sown and then captured shows as captured), Malawi's and Adu's squares
 * come from the notation, Makis's roll is the latest one played.
 */
export function boardAt(positions: Positions, ply: number): BoardData {
  const step = stepAt(positions, ply);
  const game: GameName = positions.game;
  switch (game) {
    case 'kalaha':
      return kalahaBoard(positions, step);
    case 'malawi':
      return malawiBoard(positions, step);
    case 'makis':
      return makisBoard(positions, step);
    case 'adu':
      return aduBoard(positions, step);
    default:
      return game satisfies never;
  }
}

function kalahaBoard(positions: Positions, step: PositionStep): KalahaBoardData {
  const { pits, stores } = kalahaCounts(step.position);
  const origin = step.move === null ? -1 : (PITS as readonly string[]).indexOf(step.move);
  let lastMove: KalahaView['lastMove'] = null;
  if (origin >= 0 && step.ply > 0) {
    const before = kalahaCounts(positions.steps[step.ply - 1].position).pits;
    const sown = pits.flatMap((n, pit) => (pit !== origin && n > before[pit] ? [pit] : []));
    const captures = (step.captures ?? []).map((c) => (PITS as readonly string[]).indexOf(c.pit)).filter((pit) => pit >= 0);
    lastMove = { pit: origin, sown, captures };
  }
  return { game: 'kalaha', pits, stores, toMove: step.over ? null : side(step.toMove), lastMove };
}

/** Malawi's move notation as the board marks it: `c1-c3`, `c1xc5`, `d1>a1,b1`. */
export function malawiLastMove(notation: string | null): MalawiView['lastMove'] {
  if (notation === null) return null;
  const text = notation.trim().toLowerCase();
  const step = /^([a-l]\d{1,2})([-x])([a-l]\d{1,2})$/.exec(text);
  if (step) return { notation, kind: step[2] === 'x' ? 'capture' : 'move', squares: [step[1], step[3]] };
  const distribution = /^([a-l]\d{1,2})>([a-l]\d{1,2}(?:,[a-l]\d{1,2})*)$/.exec(text);
  if (distribution) return { notation, kind: 'distribute', squares: [distribution[1], ...distribution[2].split(',')] };
  return null;
}

function malawiBoard(positions: Positions, step: PositionStep): MalawiBoardData {
  const pieces = Object.entries(record(record(step.position).pieces)).flatMap(([square, value]) => {
    const piece = record(value);
    const s = side(typeof piece.side === 'string' ? piece.side : null);
    return s ? [{ square, side: s, strength: count(piece.strength) }] : [];
  });
  return {
    game: 'malawi',
    size: option(positions.options, 'size', 6),
    pieces,
    toMove: step.over ? null : side(step.toMove),
    lastMove: malawiLastMove(step.move),
  };
}

/** The players of a Makis game: its option, or as many as the positions name. */
export function makisPlayers(positions: Positions): number {
  let players = option(positions.options, 'players', 1);
  for (const step of positions.steps) {
    for (const key of Object.keys(record(record(step.position).makis))) {
      if (/^\d$/.test(key)) players = Math.max(players, Number(key));
    }
  }
  return players;
}

/** A roll token `R2.5.5` as its three numbers; null for any other token. */
export function readRoll(token: string | null): number[] | null {
  const m = token === null ? null : /^R([1-9])\.([1-9])\.([1-9])$/i.exec(token.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function makisBoard(positions: Positions, step: PositionStep): MakisBoardData {
  const position = record(step.position);
  const knightRows = record(position.knights);
  const spots = record(position.makis);
  const players = makisPlayers(positions);
  let lastRoll: number[] | null = null;
  for (let ply = step.ply; ply > 0 && lastRoll === null; ply--) lastRoll = readRoll(positions.steps[ply]?.move ?? null);
  const toMove = step.over || step.toMove === null || !/^\d$/.test(step.toMove) ? null : Number(step.toMove);
  return {
    game: 'makis',
    knights: Array.from({ length: 9 }, (_, i) => count(knightRows[String(i + 1)]) || 1),
    makis: Array.from({ length: players }, (_, i) => {
      const spot = spots[String(i + 1)];
      return typeof spot === 'string' ? spot : null;
    }),
    toMove,
    lastRoll,
    lastMove: step.move,
  };
}

/** Every point an Adu token names, in order: a placement one, a move two, a capture with a reserve king three. */
export function aduSquares(notation: string): string[] {
  return [...notation.toLowerCase().matchAll(/[a-s](?:1[0-9]|[1-9])/g)].map((m) => m[0]);
}

function aduBoard(positions: Positions, step: PositionStep): AduBoardData {
  const pieces = Object.entries(record(record(step.position).pieces)).flatMap(([square, value]): AduView['pieces'][number][] => {
    const piece = record(value);
    const kind = piece.kind;
    if (kind !== 'king' && kind !== 'soldier' && kind !== 'reserve') return [];
    return [{ square, player: count(piece.player), kind, id: typeof piece.id === 'string' ? piece.id : '' }];
  });
  const squares = step.move === null ? [] : aduSquares(step.move);
  return {
    game: 'adu',
    size: option(positions.options, 'size', 13),
    pieces,
    lastMove: step.move === null || squares.length === 0 ? null : { notation: step.move, squares },
  };
}

/** The players of an Adu game: its option, or as many as its pieces name. */
export function aduPlayers(positions: Positions): number {
  let players = option(positions.options, 'players', 2);
  for (const step of positions.steps) {
    for (const value of Object.values(record(record(step.position).pieces))) players = Math.max(players, count(record(value).player));
  }
  return players;
}
