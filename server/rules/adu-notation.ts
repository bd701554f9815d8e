// Adu text formats: intersections (`d4`), moves (`K@d4`, `S@e5`, `d4-d7`, `d4xd7=1`, `e5xe9R@h8`), pieces, and the replay JSON.
// Follows RULES.md §4 "Notation" and "Replay output"; the engine in adu.ts never sees these strings.
// No pass token: a player without a legal move passes by themselves (see adu.ts).
import { assertNever, fail, ok } from './types.ts';
import type { Result } from './types.ts';
import { DEFAULT_OPTIONS, FILES, fromSetup, merkskala, squareName } from './adu.ts';
import type { AduMove, AduOptions, AduSetup, AduState, PieceKind, Square } from './adu.ts';
import type { RangeLedger } from './adu-ranges.ts';

export { squareName };

const SQUARE = /^([a-s])([1-9][0-9]?)$/;
const PLACEMENT = /^([ks])@([a-s][1-9][0-9]?)$/;
const STEP = /^([a-s][1-9][0-9]?)-([a-s][1-9][0-9]?)$/;
const CAPTURE = /^([a-s][1-9][0-9]?)x([a-s][1-9][0-9]?)(?:=([0-9]+))?(?:r@([a-s][1-9][0-9]?))?$/;
const PIECE = /^([1-6])(K[12]|S[1-6]|R(?:10|[1-9]))@([a-s][1-9][0-9]?)$/i;

/** `d4` → its cell index on a board of `size`; case does not matter. */
export function parseSquare(text: string, size: number): Result<Square> {
  const match = SQUARE.exec(text.toLowerCase());
  if (!match) return fail('adu/bad-square', `"${text}" is not an intersection; they are written like a1 or m13`, { square: text });
  const col = FILES.indexOf(match[1]);
  const row = Number(match[2]) - 1;
  if (col >= size || row < 0 || row >= size) {
    return fail('adu/off-board', `${match[0]} is not on the ${size} × ${size} board`, { square: match[0] });
  }
  return ok(row * size + col);
}

const badNotation = (token: string): Result<never> =>
  fail(
    'adu/bad-notation',
    `"${token}" is not an Adu move; write a placement as K@d4 or S@e5, a move as d4-d7 and a capture as d4xd7, d4xd7=2 or e5xe9R@h8`,
    { move: token },
  );

/** One move token → a move (not yet checked against the rules). */
export function parseMove(token: string, size: number): Result<AduMove> {
  const text = token.toLowerCase();
  const placement = PLACEMENT.exec(text);
  if (placement) {
    const to = parseSquare(placement[2], size);
    if (!to.ok) return to;
    return ok({ kind: placement[1] === 'k' ? 'place-king' : 'place-soldier', to: to.value });
  }
  const step = STEP.exec(text);
  if (step) {
    const from = parseSquare(step[1], size);
    if (!from.ok) return from;
    const to = parseSquare(step[2], size);
    if (!to.ok) return to;
    return ok({ kind: 'move', from: from.value, to: to.value });
  }
  const capture = CAPTURE.exec(text);
  if (capture) {
    const from = parseSquare(capture[1], size);
    if (!from.ok) return from;
    const to = parseSquare(capture[2], size);
    if (!to.ok) return to;
    let reserve: Square | null = null;
    if (capture[4] !== undefined) {
      const square = parseSquare(capture[4], size);
      if (!square.ok) return square;
      reserve = square.value;
    }
    const declare = capture[3] === undefined ? null : Number(capture[3]);
    return ok({ kind: 'capture', from: from.value, to: to.value, declare, reserve });
  }
  return badNotation(token);
}

export function formatMove(move: AduMove, size: number): string {
  switch (move.kind) {
    case 'place-king':
      return `K@${squareName(move.to, size)}`;
    case 'place-soldier':
      return `S@${squareName(move.to, size)}`;
    case 'move':
      return `${squareName(move.from, size)}-${squareName(move.to, size)}`;
    case 'capture': {
      const declare = move.declare === null ? '' : `=${move.declare}`;
      const reserve = move.reserve === null ? '' : `R@${squareName(move.reserve, size)}`;
      return `${squareName(move.from, size)}x${squareName(move.to, size)}${declare}${reserve}`;
    }
    default:
      return assertNever(move);
  }
}

/*
 * Pieces as text, for tests, puzzles and logs: one `<player><name>@<intersection>` per piece,
 * separated by spaces, e.g. `1K1@d4 1S3@e5 2R1@h8`.
 */

const KIND_OF_LETTER: Readonly<Record<string, PieceKind>> = { K: 'king', S: 'soldier', R: 'reserve' };

export function parsePieces(text: string, size: number): Result<AduSetup['pieces']> {
  const pieces: { square: Square; player: number; kind: PieceKind; id: string }[] = [];
  for (const token of text.trim().split(/\s+/)) {
    if (token === '') continue;
    const match = PIECE.exec(token);
    if (!match) {
      return fail('adu/bad-pieces', `"${token}" is not a piece; write player, name and intersection like 1K1@d4, 2S3@e5 or 1R1@h8`, {
        piece: token,
      });
    }
    const id = match[2].toUpperCase();
    const square = parseSquare(match[3], size);
    if (!square.ok) return square;
    pieces.push({ square: square.value, player: Number(match[1]), kind: KIND_OF_LETTER[id[0]], id });
  }
  return ok(pieces);
}

/** Every piece in cell order (a1, b1, …), as parsePieces reads it. */
export function formatPieces(state: AduState): string {
  const size = state.options.size;
  const tokens: string[] = [];
  state.squares.forEach((piece, square) => {
    if (piece !== null) tokens.push(`${piece.player}${piece.id}@${squareName(square, size)}`);
  });
  return tokens.join(' ');
}

/** A moving-phase state from pieces as text: parsePieces, then fromSetup. */
export function stateFromPieces(
  text: string,
  toMove: number,
  options: AduOptions = DEFAULT_OPTIONS,
  extra: { readonly ledgers?: Readonly<Record<number, RangeLedger>>; readonly supply?: number } = {},
): Result<AduState> {
  const pieces = parsePieces(text, options.size);
  if (!pieces.ok) return pieces;
  return fromSetup({ pieces: pieces.value, toMove, ...extra }, options);
}

/** RULES.md §4 "Replay output": the pieces in cell order, the Merkskala, the reserve kings left. */
export interface AduPosition {
  readonly pieces: Readonly<Record<string, { readonly player: number; readonly kind: PieceKind; readonly id: string }>>;
  readonly ranges: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>>;
  readonly supply: number;
}

export function positionJson(state: AduState): AduPosition {
  const size = state.options.size;
  const pieces: Record<string, { player: number; kind: PieceKind; id: string }> = {};
  state.squares.forEach((piece, square) => {
    if (piece !== null) pieces[squareName(square, size)] = { player: piece.player, kind: piece.kind, id: piece.id };
  });
  return { pieces, ranges: merkskala(state), supply: state.supply };
}
