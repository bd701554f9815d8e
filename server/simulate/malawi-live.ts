// Simulated Malawi players at a live simulated square board: game after game, the board set up again between them.
import type { GridAction, GridPiece, GridTable } from '../../firmware-bridge/index.ts';
import { DEFAULT_OPTIONS, START_STRENGTH, baselineRow, type Side } from '../rules/malawi.ts';
import { MALAWI_COLOURS, planMalawiGame, type MalawiGamePlan, type MalawiPlayerOptions } from './malawi-player.ts';
import { playGameAfterGame, type LiveGames, type LiveGamesOptions } from './live-games.ts';

/**
 * What two people do to set the board up again: first the beads, while every piece stands on a
 * square (extra beads off into the box, missing ones from the box onto the piece), then the
 * pieces: every piece not on its own baseline is taken off the board and put on a free square
 * of its baseline. Pieces of a colour no side uses are left alone.
 */
export function setUpMalawiActions(pieces: readonly GridPiece[], size: number): GridAction[] {
  const actions: GridAction[] = [];
  const onBoard = pieces.filter((p): p is GridPiece & { cell: number } => p.cell !== null);
  let stow = false;
  for (const p of onBoard) {
    if (p.beads > START_STRENGTH) {
      actions.push({ kind: 'take-beads', cell: p.cell, count: p.beads - START_STRENGTH });
      stow = true;
    }
  }
  if (stow) actions.push({ kind: 'stow-beads' });
  const missing = onBoard.reduce((n, p) => n + Math.max(0, START_STRENGTH - p.beads), 0);
  if (missing > 0) {
    actions.push({ kind: 'fetch-beads', count: missing });
    for (const p of onBoard) if (p.beads < START_STRENGTH) actions.push({ kind: 'add-beads', cell: p.cell, count: START_STRENGTH - p.beads });
  }

  const sideOf = (colour: string): Side | null => (colour === MALAWI_COLOURS.south ? 'south' : colour === MALAWI_COLOURS.north ? 'north' : null);
  const isHome = (cell: number, side: Side): boolean => Math.floor(cell / size) === baselineRow(side, size);
  const misplaced = onBoard.filter((p) => {
    const side = sideOf(p.colour);
    return side !== null && !isHome(p.cell, side);
  });
  const taken = new Set<number>(onBoard.filter((p) => !misplaced.includes(p)).map((p) => p.cell));
  for (const p of misplaced) actions.push({ kind: 'lift', cell: p.cell });
  for (const p of misplaced) {
    const side = sideOf(p.colour)!;
    const row = baselineRow(side, size);
    let cell = -1;
    for (let col = 0; col < size && cell < 0; col++) if (!taken.has(row * size + col)) cell = row * size + col;
    if (cell < 0) continue; // more pieces of a colour than squares on its baseline: not a Malawi set
    taken.add(cell);
    actions.push({ kind: 'put', cell, piece: p.id });
  }
  return actions;
}

export interface LiveMalawiOptions extends MalawiPlayerOptions, LiveGamesOptions {}

export type LiveMalawi = LiveGames;

/**
 * Has simulated players play on `table`, game after game (game i uses seed `<seed>/<i>`). The
 * board must be `size` × `size` and start in the starting position (`malawiBoardSetup(rules)`).
 * `onGame` hears each game's plan as it begins, so a demo can show the true record beside the
 * referee's.
 */
export function playMalawiGames(table: GridTable, options: LiveMalawiOptions, onGame?: (plan: MalawiGamePlan, index: number) => void): LiveMalawi {
  const size = options.rules?.size ?? DEFAULT_OPTIONS.size;
  if (table.cols !== size || table.rows !== size) throw new RangeError(`Malawi of size ${size} needs a ${size} × ${size} board, not ${table.cols} × ${table.rows}`);
  return playGameAfterGame(table, options, (seed) => planMalawiGame({ ...options, seed }), () => setUpMalawiActions(table.pieces(), size), onGame);
}
