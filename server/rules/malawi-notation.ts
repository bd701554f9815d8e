// Malawi text formats: squares (`a1`), moves (`c1-c3`, `c1xc5`, `d1>a1,b1,e1`), positions, and the replay JSON.
// Follows RULES.md §2 "Notation" and "Replay output"; the engine in malawi.ts never sees these strings.
import { assertNever, fail, ok } from './types.ts';
import type { Result } from './types.ts';
import { DEFAULT_OPTIONS, FILES, SIDES, fromSetup, squareName } from './malawi.ts';
import type { MalawiMove, MalawiOptions, MalawiSetup, MalawiState, Side, Square } from './malawi.ts';

export { squareName };

const SQUARE = /^([a-l])([1-9][0-9]?)$/;
const STEP = /^([a-l][1-9][0-9]?)([-x])([a-l][1-9][0-9]?)$/;
const DISTRIBUTION = /^([a-l][1-9][0-9]?)>([a-l0-9,]+)$/;

/** `c3` → its cell index on a board of `size`; case does not matter. */
export function parseSquare(text: string, size: number): Result<Square> {
  const match = SQUARE.exec(text.toLowerCase());
  if (!match) return fail('malawi/bad-square', `"${text}" is not a square; squares are written like a1 or f6`, { square: text });
  const col = FILES.indexOf(match[1]);
  const row = Number(match[2]) - 1;
  if (col >= size || row >= size) {
    return fail('malawi/off-board', `${match[0]} is not on the ${size} × ${size} board`, { square: match[0] });
  }
  return ok(row * size + col);
}

const badNotation = (token: string): Result<never> =>
  fail(
    'malawi/bad-notation',
    `"${token}" is not a Malawi move; write a move as c1-c3, a capture as c1xc5 and a distribution as d1>a1,b1,e1`,
    { move: token },
  );

/** One move token → a move (not yet checked against the rules). */
export function parseMove(token: string, size: number): Result<MalawiMove> {
  const text = token.toLowerCase();
  const step = STEP.exec(text);
  if (step) {
    const from = parseSquare(step[1], size);
    if (!from.ok) return from;
    const to = parseSquare(step[3], size);
    if (!to.ok) return to;
    return ok({ kind: step[2] === 'x' ? 'capture' : 'move', from: from.value, to: to.value });
  }
  const distribution = DISTRIBUTION.exec(text);
  if (distribution) {
    const from = parseSquare(distribution[1], size);
    if (!from.ok) return from;
    const recipients: Square[] = [];
    for (const name of distribution[2].split(',')) {
      if (name === '') return badNotation(token);
      const square = parseSquare(name, size);
      if (!square.ok) return square;
      recipients.push(square.value);
    }
    return ok({ kind: 'distribute', from: from.value, recipients });
  }
  return badNotation(token);
}

export function formatMove(move: MalawiMove, size: number): string {
  const from = squareName(move.from, size);
  switch (move.kind) {
    case 'move':
      return `${from}-${squareName(move.to, size)}`;
    case 'capture':
      return `${from}x${squareName(move.to, size)}`;
    case 'distribute':
      return `${from}>${move.recipients.map((square) => squareName(square, size)).join(',')}`;
    default:
      return assertNever(move);
  }
}

/*
 * Positions as text, for tests, puzzles and logs: the ranks from the top (north's baseline) down
 * to rank 1, separated by `/`; in each rank `.` is an empty square, `s3` a south piece of
 * strength 3, `n0` a north piece of strength 0; then a space and the side to move.
 * The start: `n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south`.
 */

export function parsePosition(text: string, options: MalawiOptions = DEFAULT_OPTIONS): Result<MalawiState> {
  const size = options.size;
  const parts = text.trim().split(/\s+/);
  const bad = (why: string): Result<never> => fail('malawi/bad-position', `the position "${text}" is not readable: ${why}`);
  if (parts.length !== 2) return bad('write the ranks, a space, and the side to move');
  const toMove = parts[1] === 's' ? 'south' : parts[1] === 'n' ? 'north' : parts[1];
  if (!(SIDES as readonly string[]).includes(toMove)) return bad('the side to move is south or north');
  const ranks = parts[0].split('/');
  if (ranks.length !== size) return bad(`it has ${ranks.length} ranks, the board ${size}`);
  const pieces: { square: Square; side: Side; strength: number }[] = [];
  for (let r = 0; r < size; r++) {
    const row = size - 1 - r;
    const rank = ranks[r];
    let col = 0;
    for (let i = 0; i < rank.length; col++) {
      const c = rank[i];
      if (c === '.') {
        i++;
        continue;
      }
      const digit = rank[i + 1];
      if ((c !== 's' && c !== 'n') || digit === undefined || digit < '0' || digit > '9') {
        return bad(`rank ${row + 1} holds "${rank}"; use "." for an empty square and s2 or n2 for a piece`);
      }
      if (col < size) pieces.push({ square: row * size + col, side: c === 's' ? 'south' : 'north', strength: Number(digit) });
      i += 2;
    }
    if (col !== size) return bad(`rank ${row + 1} has ${col} squares, not ${size}`);
  }
  const setup: MalawiSetup = { pieces, toMove: toMove as Side };
  return fromSetup(setup, options);
}

export function formatPosition(state: MalawiState): string {
  const n = state.options.size;
  const ranks: string[] = [];
  for (let row = n - 1; row >= 0; row--) {
    let rank = '';
    for (let col = 0; col < n; col++) {
      const piece = state.squares[row * n + col];
      rank += piece === null ? '.' : `${piece.side === 'south' ? 's' : 'n'}${piece.strength}`;
    }
    ranks.push(rank);
  }
  return `${ranks.join('/')} ${state.toMove}`;
}

/** RULES.md §2 "Replay output": one entry per piece in cell order (a1, b1, …), strength-0 pieces included. */
export function positionJson(state: MalawiState): { pieces: Record<string, { side: Side; strength: number }> } {
  const n = state.options.size;
  const pieces: Record<string, { side: Side; strength: number }> = {};
  state.squares.forEach((piece, square) => {
    if (piece !== null) pieces[squareName(square, n)] = { side: piece.side, strength: piece.strength };
  });
  return { pieces };
}
