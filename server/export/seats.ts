// Who sits at each game, how the record headers name them, and who can win.
//
// Kalaha and Malawi are played by two sides, `south` and `north`, named in `[South]` and `[North]`.
// Makis (1–5) and Adu (2–6) are played by numbered seats `1`, `2`, …, named in `[Player1]`,
// `[Player2]`, …; their number is the `players` option (RULES.md §3, §4).
import type { GameName } from '../rules/index.ts';

const SIDES = ['south', 'north'] as const;

/** The seats of a game with these options, in seat order: `south`, `north` or `1`, `2`, …. */
export function seatsOf(game: GameName, options: unknown): string[] {
  if (game === 'kalaha' || game === 'malawi') return [...SIDES];
  const players = (options as { players?: unknown } | null)?.players;
  const n = typeof players === 'number' && Number.isInteger(players) && players >= 1 && players <= 6 ? players : game === 'makis' ? 1 : 2;
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

/** The record header that names the player at a seat: `South`, `Player3`. */
export function seatHeader(seat: string): string {
  return /^\d+$/.test(seat) ? `Player${seat}` : seat[0].toUpperCase() + seat.slice(1);
}

/** Every result a game with these options can have: its seats, and `draw`, `team` or `knights`. */
export function winnersOf(game: GameName, options: unknown): string[] {
  const seats = seatsOf(game, options);
  switch (game) {
    case 'kalaha':
    case 'malawi':
    case 'adu':
      return [...seats, 'draw'];
    case 'makis':
      return [...seats, 'team', 'knights'];
  }
}
