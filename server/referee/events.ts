// What the square-board referees (Malawi, Makis, Adu) say, in the shapes they share: an alert
// with the cells to fix, a question for the console, and the common run of events around them.
// Each referee's own type adds what only it says.
import type { CellDiff } from './squares.ts';

export interface BoardAlert<Cell extends CellDiff = CellDiff> {
  readonly kind: 'alert';
  readonly t: number;
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
  /** Cells that differ from the expected board, in cell order: +1 = a piece too many there, −1 = one missing. */
  readonly cells?: readonly Cell[];
}

export interface BoardQuestion {
  readonly kind: 'question';
  readonly t: number;
  readonly id: number;
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
  /** The answers offered, as moves in notation; the console answers with one of them. */
  readonly options: readonly string[];
  /** The option the console shows chosen at first (Adu's declaration: the lowest range). */
  readonly preselected?: string;
  /**
   * False: the game does not wait for the answer. The record took an option already (every option
   * left the same position); an answer that differs corrects the record.
   */
  readonly blocking?: false;
}

/**
 * The record from `ply` (1-based) on was `old` and is now `new` (either may be longer). `evidence`:
 * later pictures showed the committed move was wrong; `console`: the console answered a question
 * about a move already in the record.
 */
export interface BoardCorrection {
  readonly kind: 'correction';
  readonly t: number;
  readonly ply: number;
  readonly old: readonly string[];
  readonly new: readonly string[];
  readonly reason: 'evidence' | 'console';
}

/** The events every square-board referee speaks in, with its game's outcome and cells. */
export type BoardRefereeEvent<Outcome, Cell extends CellDiff = CellDiff> =
  | { readonly kind: 'calibrated'; readonly t: number }
  /** `assumed`: taken without the board or the console deciding it; the console may still change it. */
  | { readonly kind: 'move'; readonly t: number; readonly move: string; readonly ply: number; readonly assumed?: true }
  | BoardCorrection
  | { readonly kind: 'takeback'; readonly t: number; readonly undone: readonly string[]; readonly ply: number }
  | { readonly kind: 'end'; readonly t: number; readonly outcome: Outcome }
  | { readonly kind: 'new-game'; readonly t: number }
  | BoardAlert<Cell>
  | { readonly kind: 'cleared'; readonly t: number }
  | BoardQuestion
  | { readonly kind: 'question-closed'; readonly t: number; readonly id: number };
