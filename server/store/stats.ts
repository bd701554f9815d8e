// Statistics of the game log: games per day and per board, wins by side or seat, average length.
//
// Days are the server's local days (a table and its server stand in the same place): a game
// belongs to the day it started on.
import type { GameSummary } from './types.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local day of a time: `2024-05-01`. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The times a local day spans, [from, to) in ms (23 or 25 hours on the days clocks change); null for a day that is not one. */
export function dayRange(day: string): { from: number; to: number } | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const from = new Date(y, mo - 1, d);
  // Date rolls 2024-02-30 over into March; such a day does not exist.
  if (from.getFullYear() !== y || from.getMonth() !== mo - 1 || from.getDate() !== d) return null;
  return { from: from.getTime(), to: new Date(y, mo - 1, d + 1).getTime() };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Who won a game, as its result says: a side, a seat, `draw`, `team`, `knights`; null when there is none. */
export function winnerOf(game: Pick<GameSummary, 'result'>): string | null {
  const winner = (game.result as { winner?: unknown } | null)?.winner;
  return typeof winner === 'string' ? winner : null;
}

export interface GameKindStats {
  readonly game: string;
  readonly games: number;
  /** Games that ended with a winner or a draw (not abandoned, not live). */
  readonly finished: number;
  /** Finished games by their winner: side, seat, `draw`, `team`, `knights`. */
  readonly wins: Readonly<Record<string, number>>;
  /** Moves per finished game; null without one. */
  readonly averagePlies: number | null;
  /** Minutes from start to end per finished game; null without one. */
  readonly averageMinutes: number | null;
}

export interface Tally {
  readonly games: number;
  readonly finished: number;
  readonly live: number;
  readonly wins: Readonly<Record<string, number>>;
}

export interface GameStats extends Tally {
  /** Games by the day they started, oldest day first; days without games are left out. */
  readonly perDay: readonly { readonly day: string; readonly games: number }[];
  /** Games by board, most games first. */
  readonly perBoard: readonly { readonly board: string; readonly games: number }[];
  /** By game, in the order of GAME_NAMES as far as they occur. */
  readonly perGame: readonly GameKindStats[];
}

/** Counts games, finished games, live games and wins. */
export function tally(games: readonly GameSummary[]): Tally {
  const wins: Record<string, number> = {};
  let finished = 0;
  let live = 0;
  for (const g of games) {
    if (g.endedAt === null) live++;
    const winner = g.endedAt === null ? null : winnerOf(g);
    if (winner === null) continue;
    finished++;
    wins[winner] = (wins[winner] ?? 0) + 1;
  }
  return { games: games.length, finished, live, wins };
}

/** The statistics of the given games. */
export function gameStats(games: readonly GameSummary[], order: readonly string[]): GameStats {
  const perDay = new Map<string, number>();
  const perBoard = new Map<string, number>();
  const byGame = new Map<string, GameSummary[]>();
  for (const g of games) {
    const day = localDay(g.startedAt);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    perBoard.set(g.boardId, (perBoard.get(g.boardId) ?? 0) + 1);
    let list = byGame.get(g.game);
    if (!list) byGame.set(g.game, (list = []));
    list.push(g);
  }
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return {
    ...tally(games),
    perDay: [...perDay].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([day, n]) => ({ day, games: n })),
    perBoard: [...perBoard].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([board, n]) => ({ board, games: n })),
    perGame: [...byGame]
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([game, list]) => {
        const { games: n, finished, wins } = tally(list);
        const done = list.filter((g) => g.endedAt !== null && winnerOf(g) !== null);
        return {
          game,
          games: n,
          finished,
          wins,
          averagePlies: average(done.map((g) => g.plies)),
          averageMinutes: average(done.map((g) => ((g.endedAt as number) - g.startedAt) / 60_000)),
        };
      }),
  };
}

function average(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10;
}
