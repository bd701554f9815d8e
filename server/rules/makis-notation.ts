// Makis text formats: squares (`c5r9`), moves (`R2.5.5`, `1:c4r8`, `2:-`, `1@c5r9`) and the replay JSON.
// Follows RULES.md §3 "Notation" and "Replay output"; the engine in makis.ts never sees these strings.
//
// Decisions where RULES.md leaves room:
// - A roll is read in any order and written as given; `R` may be lower case, as may `c` and `r`.
// - The replay position lists a Maki once it is placed ("c5r9") or captured ("out"); a Maki not
//   yet placed has no entry, so every value is one of the two forms RULES.md names.
import { assertNever, fail, ok } from './types.ts';
import type { ReplaySummary, Result } from './types.ts';
import { SIZE, square, squareName } from './makis.ts';
import type { MakisMove, MakisState, Roll, Square } from './makis.ts';

export { squareName };

const SQUARE = /^c(\d+)r(\d+)$/i;
const ROLL = /^r(\d+)\.(\d+)\.(\d+)$/i;
const MAKI_MOVE = /^(\d+):(.+)$/;
const PLACEMENT = /^(\d+)@(.+)$/;

/** `c4r8` → its square; columns and rows run from 1 to 9. */
export function parseSquare(text: string): Result<Square> {
  const match = SQUARE.exec(text);
  if (!match) {
    return fail('makis/bad-square', `"${text}" is not a square; squares are written like c5r9 (column 5, row 9)`, { square: text });
  }
  const column = Number(match[1]);
  const row = Number(match[2]);
  if (column < 1 || column > SIZE || row < 1 || row > SIZE) {
    return fail('makis/off-board', `${text} is not on the 9 × 9 board; columns and rows run from 1 to 9`, { square: text });
  }
  return ok(square(column, row));
}

const badNotation = (token: string): Result<never> =>
  fail(
    'makis/bad-notation',
    `"${token}" is not a Makis move; write a roll as R2.5.5, a Maki's step as 1:c4r8, a pass as 2:- and a placement as 1@c5r9`,
    { move: token },
  );

/** One record token → a move (not yet checked against the rules). */
export function parseMove(token: string): Result<MakisMove> {
  const roll = ROLL.exec(token);
  if (roll) {
    const dice = [Number(roll[1]), Number(roll[2]), Number(roll[3])] as const satisfies Roll;
    return ok({ kind: 'roll', dice });
  }
  const step = MAKI_MOVE.exec(token);
  if (step) {
    const player = Number(step[1]);
    if (step[2] === '-') return ok({ kind: 'maki', player, to: null });
    const to = parseSquare(step[2]);
    if (!to.ok) return to;
    return ok({ kind: 'maki', player, to: to.value });
  }
  const placement = PLACEMENT.exec(token);
  if (placement) {
    const at = parseSquare(placement[2]);
    if (!at.ok) return at;
    return ok({ kind: 'place', player: Number(placement[1]), square: at.value });
  }
  return badNotation(token);
}

export function formatMove(move: MakisMove): string {
  switch (move.kind) {
    case 'place':
      return `${move.player}@${squareName(move.square)}`;
    case 'roll':
      return `R${move.dice.join('.')}`;
    case 'maki':
      return `${move.player}:${move.to === null ? '-' : squareName(move.to)}`;
    default:
      return assertNever(move);
  }
}

export interface MakisPosition {
  readonly knights: Record<string, number>;
  readonly makis: Record<string, string>;
}

/** RULES.md §3 "Replay output": every column's knight row; each placed Maki's square or "out". */
export function positionJson(state: MakisState): MakisPosition {
  const knights: Record<string, number> = {};
  state.knights.forEach((row, i) => {
    knights[String(i + 1)] = row;
  });
  const makis: Record<string, string> = {};
  state.makis.forEach((spot, i) => {
    if (spot !== null) makis[String(i + 1)] = spot === 'out' ? 'out' : squareName(spot);
  });
  return { knights, makis };
}

/** The replay envelope's game part: `toMove` is the acting player as a string, or "roll". */
export function summary(state: MakisState): ReplaySummary {
  const over = state.outcome !== null;
  return {
    over,
    winner: over ? String(state.outcome?.winner) : null,
    toMove: over ? null : state.phase === 'roll' ? 'roll' : String(state.toMove),
    position: positionJson(state),
  };
}

/** The board as text for logs and failing tests: row 9 on top; `K` knight, `1`–`5` a Maki, `.` empty. */
export function drawBoard(state: MakisState): string {
  const lines: string[] = [];
  for (let row = SIZE; row >= 1; row--) {
    let line = `${row} `;
    for (let column = 1; column <= SIZE; column++) {
      const sq = square(column, row);
      const player = state.makis.indexOf(sq) + 1;
      const knight = state.knights[column - 1] === row;
      line += knight && player > 0 ? '*' : knight ? 'K' : player > 0 ? String(player) : '.';
    }
    lines.push(line);
  }
  lines.push('  123456789');
  return lines.join('\n');
}
