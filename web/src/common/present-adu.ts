// What the pages say about an Adu table: the turn, each seat's kings, the Merkskala, the last move. Pure.
import type { AduView } from '../../../server/http/messages.ts';
import { list, playerName, t, type Lang } from '../i18n/index.ts';

export type AduPiece = AduView['pieces'][number];

/** The ranges a soldier can have: one of 1 to 6, each held by one soldier of a player (RULES.md §4). */
export const RANGES = [1, 2, 3, 4, 5, 6] as const;

/** Whose action is next, in words: "Spieler 3 setzt Soldat S4", "Spieler 2 setzt einen Reservekönig"; null once over. */
export function aduTurn(lang: Lang, view: AduView): string | null {
  if (view.outcome) return null;
  if (view.awaitingReserve) return t(lang, 'turn.adu.reserve', { player: playerName(lang, view.awaitingReserve.player) });
  if (view.toMove === null) return null;
  const player = playerName(lang, view.toMove);
  if (view.phase === 'placement' && view.placing) {
    return t(lang, view.placing.kind === 'king' ? 'turn.adu.king' : 'turn.adu.soldier', { player, id: view.placing.id });
  }
  return t(lang, 'turn.toMove', { side: player });
}

/** The player a page should mark as acting now: the one placing a reserve king, else the one to move. */
export function aduActor(view: AduView): number | null {
  if (view.outcome) return null;
  return view.awaitingReserve?.player ?? view.toMove;
}

export interface MerkskalaRow {
  /** `S3` */
  readonly soldier: string;
  /** Ranges 1–6, each still possible or not. */
  readonly cells: readonly { readonly range: number; readonly possible: boolean }[];
  /** Only one range is left: the soldier's range is known. */
  readonly known: boolean;
}

export interface AduSeat {
  readonly player: number;
  readonly name: string;
  readonly in: boolean;
  readonly kings: number;
  readonly reserves: number;
  /** "2 Könige · 1 Reservekönig" or "ausgeschieden". */
  readonly status: string;
  /** The Merkskala of this player's soldiers on the board, S1 first. */
  readonly merkskala: readonly MerkskalaRow[];
  readonly acting: boolean;
  readonly winner: boolean;
  /** Shares a draw. */
  readonly drawn: boolean;
}

/** `S2` before `S10` should that ever come; otherwise by name. */
function byId(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** The Merkskala of one player: each of their soldiers on the board with the ranges 1–6 marked possible or not. */
export function merkskalaRows(ranges: Readonly<Record<string, readonly number[]>> | undefined): MerkskalaRow[] {
  if (!ranges) return [];
  return Object.keys(ranges)
    .sort(byId)
    .map((soldier) => {
      const possible = new Set(ranges[soldier]);
      return { soldier, cells: RANGES.map((range) => ({ range, possible: possible.has(range) })), known: possible.size === 1 };
    });
}

/** One entry per seat, player 1 first. */
export function aduSeats(lang: Lang, view: AduView): AduSeat[] {
  const actor = aduActor(view);
  const outcome = view.outcome;
  return view.seats.map((seat) => {
    const status = seat.in
      ? [t(lang, 'adu.seat.kings', { kings: seat.kings }), ...(seat.reserves ? [t(lang, 'adu.seat.reserves', { reserves: seat.reserves })] : [])].join(' · ')
      : t(lang, 'adu.seat.out');
    return {
      player: seat.player,
      name: playerName(lang, seat.player),
      in: seat.in,
      kings: seat.kings,
      reserves: seat.reserves,
      status,
      merkskala: merkskalaRows(view.ranges[String(seat.player)]),
      acting: actor === seat.player,
      winner: outcome !== null && outcome.winner === String(seat.player),
      drawn: outcome !== null && outcome.winner === 'draw' && outcome.players.includes(seat.player),
    };
  });
}

const POINT = '([a-s][1-9][0-9]?)';
const PLACE = new RegExp(`^([KS])@${POINT}$`, 'i');
const STEP = new RegExp(`^${POINT}-${POINT}$`, 'i');
const CAPTURE = new RegExp(`^${POINT}x${POINT}(?:=([0-9]+))?(?:R@${POINT})?$`, 'i');

export type AduNotation =
  | { readonly kind: 'place'; readonly piece: 'king' | 'soldier'; readonly to: string }
  | { readonly kind: 'move'; readonly from: string; readonly to: string }
  | { readonly kind: 'capture'; readonly from: string; readonly to: string; readonly declare: number | null; readonly reserve: string | null }
  /** A bare range, as a declaration question may offer it. */
  | { readonly kind: 'declare'; readonly range: number };

/** A move in Adu notation read as data (`K@d4`, `d4-d7`, `d4xd7=2`, `e5xe9R@h8`, or a bare range `2`); null otherwise. */
export function readAduMove(notation: string): AduNotation | null {
  const text = notation.trim();
  if (/^[1-9]$/.test(text)) return { kind: 'declare', range: Number(text) };
  const place = PLACE.exec(text);
  if (place) return { kind: 'place', piece: place[1].toUpperCase() === 'K' ? 'king' : 'soldier', to: place[2].toLowerCase() };
  const step = STEP.exec(text);
  if (step) return { kind: 'move', from: step[1].toLowerCase(), to: step[2].toLowerCase() };
  const capture = CAPTURE.exec(text);
  if (capture) {
    return {
      kind: 'capture',
      from: capture[1].toLowerCase(),
      to: capture[2].toLowerCase(),
      declare: capture[3] === undefined ? null : Number(capture[3]),
      reserve: capture[4] === undefined ? null : capture[4].toLowerCase(),
    };
  }
  return null;
}

/** "König", "Soldat S3", "Reservekönig". */
export function aduPieceName(lang: Lang, piece: Pick<AduPiece, 'kind' | 'id'>): string {
  switch (piece.kind) {
    case 'king':
      return t(lang, 'adu.piece.king');
    case 'soldier':
      return t(lang, 'adu.piece.soldier', { id: piece.id });
    case 'reserve':
      return t(lang, 'adu.piece.reserve');
    default:
      return piece.kind satisfies never;
  }
}

/**
 * An answer button's words: a declaration as its range ("Reichweite 2": the question already names the soldier),
 * a move as "d4 schlägt d7". Notation only; anything unreadable is shown as it is.
 */
export function describeAduMove(lang: Lang, notation: string): string {
  const move = readAduMove(notation);
  if (!move) return notation;
  switch (move.kind) {
    case 'declare':
      return t(lang, 'move.adu.declare', { range: move.range });
    case 'place':
      return t(lang, move.piece === 'king' ? 'move.adu.place.king' : 'move.adu.place.soldier', { to: move.to });
    case 'move':
      return t(lang, 'move.adu.move', { from: move.from, to: move.to });
    case 'capture': {
      if (move.declare !== null) return t(lang, 'move.adu.declare', { range: move.declare });
      const words = t(lang, 'move.adu.capture', { from: move.from, to: move.to });
      return move.reserve === null ? words : t(lang, 'move.adu.reserve', { move: words, square: move.reserve });
    }
    default:
      return move satisfies never;
  }
}

/**
 * The last move in words: "Spieler 2 zieht Soldat S3 von d4 nach d7". The mover is the owner of the piece that
 * now stands on the move's target; without it, the notation is all there is to say.
 */
export function aduLastMove(lang: Lang, view: AduView): string | null {
  const last = view.lastMove;
  if (!last) return null;
  const move = readAduMove(last.notation);
  if (!move || move.kind === 'declare') return last.notation;
  const piece = view.pieces.find((p) => p.square === move.to);
  if (!piece) return last.notation;
  const player = playerName(lang, piece.player);
  const name = aduPieceName(lang, piece);
  switch (move.kind) {
    case 'place':
      return t(lang, 'lastMove.adu.place', { player, piece: name, to: move.to });
    case 'move':
      return t(lang, 'lastMove.adu.move', { player, piece: name, from: move.from, to: move.to });
    case 'capture': {
      const parts = [t(lang, 'lastMove.adu.capture', { player, piece: name, from: move.from, to: move.to })];
      if (move.declare !== null) parts.push(t(lang, 'lastMove.adu.declared', { range: move.declare }));
      if (move.reserve !== null) parts.push(t(lang, 'lastMove.adu.reserve', { square: move.reserve }));
      return parts.join(' — ');
    }
    default:
      return move satisfies never;
  }
}

/**
 * Players skipped for want of a legal move right before the player to move. The Adu referee may add `passed` to the
 * view (the contract is being drafted); read defensively, so a view without it, or with something else, says nothing.
 */
export function aduPassed(view: AduView): number[] {
  const passed = (view as { readonly passed?: unknown }).passed;
  return Array.isArray(passed) ? passed.filter((p): p is number => Number.isInteger(p)) : [];
}

export interface Declaring {
  readonly player: number;
  readonly soldier: string;
  readonly square: string;
}

/** Captured soldiers whose owner has not declared the range yet (`declaring`, read as defensively as `passed`). */
export function aduDeclaring(view: AduView): Declaring[] {
  const declaring = (view as { readonly declaring?: unknown }).declaring;
  if (!Array.isArray(declaring)) return [];
  return declaring.filter(
    (d): d is Declaring =>
      typeof d === 'object' && d !== null && Number.isInteger(d.player) && typeof d.soldier === 'string' && typeof d.square === 'string',
  );
}

/** "Spieler 4 und Spieler 5 können nicht ziehen und passen", or null when nobody passed. */
export function passedLine(lang: Lang, view: AduView): string | null {
  const passed = aduPassed(view);
  if (!passed.length || view.outcome) return null;
  return t(lang, 'adu.passed', { players: list(lang, passed.map((p) => playerName(lang, p))), count: passed.length });
}

/** "S5 geschlagen auf f1 — Reichweite noch nicht erklärt" for each of a player's soldiers awaiting a declaration. */
export function declaringLines(lang: Lang, view: AduView, player: number): string[] {
  return aduDeclaring(view)
    .filter((d) => d.player === player)
    .map((d) => t(lang, 'adu.declaring', { soldier: d.soldier, square: d.square }));
}
