// The game log's REST API as the history and statistics pages read it (README.md, "REST API"): the
// answers' shapes, and one fetch that turns every failure into a problem a page can word.
import type { GameView } from '../../../server/http/messages.ts';

export type GameName = GameView['game'];
export const GAME_NAMES: readonly GameName[] = ['kalaha', 'malawi', 'makis', 'adu'];

export function isGameName(value: unknown): value is GameName {
  return typeof value === 'string' && (GAME_NAMES as readonly string[]).includes(value);
}

/** A game as `/api/games` lists it. `players` is keyed by side (`south`) or seat (`1`). */
export interface GameSummary {
  readonly id: number;
  readonly game: GameName;
  readonly options: unknown;
  readonly players: Readonly<Record<string, string>>;
  readonly boardId: string;
  readonly source: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly importedAt: number | null;
  /** What the referee or the import wrote: `{ winner, reason, … }`, `{ reason: 'abandoned' }`, or null. */
  readonly result: unknown;
  readonly plies: number;
  readonly live: boolean;
}

export interface GameList {
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly games: readonly GameSummary[];
}

/** One step of a replay: the position after `ply` moves in the game's replay output form (RULES.md). */
export interface PositionStep {
  readonly ply: number;
  readonly move: string | null;
  readonly over: boolean;
  readonly winner: string | null;
  readonly toMove: string | null;
  readonly position: unknown;
  /** Kalaha only: the pits whose stones this move captured. */
  readonly captures?: readonly { readonly pit: string; readonly stones: number }[];
}

export interface Positions {
  readonly id: number;
  readonly game: GameName;
  readonly options: unknown;
  readonly moves: readonly string[];
  readonly steps: readonly PositionStep[];
  /** A logged move the engine would not replay; the steps stop before it. */
  readonly error: { readonly ply: number; readonly move: string; readonly code: string; readonly message: string } | null;
}

export type Wins = Readonly<Record<string, number>>;

export interface TodayAtTable {
  readonly day: string;
  readonly board: string;
  readonly games: number;
  readonly finished: number;
  readonly live: number;
  readonly wins: Wins;
}

export interface GameKindStats {
  readonly game: GameName;
  readonly games: number;
  readonly finished: number;
  readonly wins: Wins;
  readonly averagePlies: number | null;
  readonly averageMinutes: number | null;
}

export interface Stats {
  readonly games: number;
  readonly finished: number;
  readonly live: number;
  readonly wins: Wins;
  readonly perDay: readonly { readonly day: string; readonly games: number }[];
  readonly perBoard: readonly { readonly board: string; readonly games: number }[];
  readonly perGame: readonly GameKindStats[];
  /** Today at this table, or at the filter's board; null when the server knows no board. */
  readonly today: TodayAtTable | null;
}

export interface Players {
  readonly players: readonly { readonly name: string; readonly games: number }[];
}

/** Why a request gave no answer to show: the server was not reached, or it refused (`{ error, message }`). */
export type ApiProblem =
  | { readonly kind: 'unreachable' }
  | { readonly kind: 'refused'; readonly status: number; readonly code: string; readonly message: string };

export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: ApiProblem };

/** GET a JSON answer. Never throws: a network failure, a refusal and a body that is not JSON all come back as problems. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') throw error;
    return { ok: false, problem: { kind: 'unreachable' } };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page or a cut-off body: say what the status says.
  }
  if (response.ok && body !== null) return { ok: true, value: body as T };
  const refusal = (body ?? {}) as { error?: unknown; message?: unknown };
  return {
    ok: false,
    problem: {
      kind: 'refused',
      status: response.status,
      code: typeof refusal.error === 'string' ? refusal.error : `http/${response.status}`,
      message: typeof refusal.message === 'string' ? refusal.message : response.statusText,
    },
  };
}

/**
 * The largest `after` the API takes: `/api/games/:id?after=MAX_SEQ` is a game's row with no events,
 * which is all a game's page needs besides its positions (a long game's events are most of its bytes).
 */
export const MAX_SEQ = Number.MAX_SAFE_INTEGER;
