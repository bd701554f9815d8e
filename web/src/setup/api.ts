// The setup API (/api/setup) as the setup page reads it: the answers' shapes, and one request that turns every
// failure into a code the page can word.
import type { BoardStatus, GameView } from '../../../server/http/messages.ts';

export type GameName = GameView['game'];

export type OptionField =
  | { readonly key: string; readonly kind: 'int'; readonly min: number; readonly max: number; readonly default: number; readonly fixed?: boolean }
  | { readonly key: string; readonly kind: 'choice'; readonly values: readonly (string | number)[]; readonly default: string | number }
  | { readonly key: string; readonly kind: 'bool'; readonly default: boolean };

export interface HostedGame {
  readonly game: GameName;
  readonly title: string;
  readonly seats: { readonly min: number; readonly max: number; readonly kind: 'sides' | 'numbered' };
  readonly options: readonly OptionField[];
}

export type Suspicion = 'reads-nothing' | 'negative' | 'off' | 'store-not-empty';

export interface StoneMeasurement {
  readonly seedsPerPit: number;
  readonly stones: number;
  readonly total: number;
  readonly stone: number;
  readonly spread: number;
  readonly noise: number;
  readonly frames: number;
  readonly cells: readonly { readonly cell: number; readonly grams: number; readonly stones: number }[];
  readonly suspects: readonly { readonly cell: number; readonly reason: Suspicion }[];
  readonly at: number;
}

export interface SetupState {
  readonly board: {
    readonly kind: 'kalaha' | 'grid';
    readonly source: 'simulated' | 'serial';
    readonly id: string;
    readonly cols: number | null;
    readonly rows: number | null;
    readonly sense: 'weights' | 'occupancy' | 'counts';
    readonly status: BoardStatus;
  };
  readonly games: readonly HostedGame[];
  readonly current: {
    readonly game: GameName;
    readonly options: Readonly<Record<string, unknown>>;
    readonly players: Readonly<Record<string, string>>;
    readonly gameId: number | null;
    readonly plies: number;
    readonly running: boolean;
    readonly over: boolean;
    readonly stateId: number;
  };
  readonly calibration: {
    readonly taredAt: number | null;
    readonly measured: StoneMeasurement | null;
    readonly referee: { readonly stone: number; readonly spread: number } | null;
  } | null;
}

/** What became of a request: the answer, or a refusal with the server's code and sentence (`setup/network` when there was no answer). */
export type Answer<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string; readonly cells?: readonly number[] };

export const NETWORK = 'setup/network';

function isSetupState(value: unknown): value is SetupState {
  const v = value as Partial<SetupState> | null;
  return typeof v === 'object' && v !== null && typeof v.board === 'object' && Array.isArray(v.games) && typeof v.current === 'object';
}

/** The games this board hosts, the game now and the scales. */
export function fetchSetup(fetcher: typeof fetch = fetch): Promise<Answer<SetupState>> {
  return request(fetcher, '/api/setup', { method: 'GET' }, (body) => (isSetupState(body) ? body : null));
}

export type SetupAction = 'start' | 'end' | 'abandon' | 'tare' | 'stones';

/** A change to the table, with the referee token; answers with what the server says and the state after. */
export function postSetup(
  action: SetupAction,
  body: object,
  token: string,
  fetcher: typeof fetch = fetch,
): Promise<Answer<{ readonly state: SetupState; readonly [key: string]: unknown }>> {
  return request(
    fetcher,
    `/api/setup/${action}`,
    { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) },
    (answer) => (typeof answer === 'object' && answer !== null && isSetupState((answer as { state?: unknown }).state) ? (answer as { state: SetupState }) : null),
  );
}

async function request<T>(fetcher: typeof fetch, url: string, init: RequestInit, read: (body: unknown) => T | null): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetcher(url, { ...init, cache: 'no-store' });
  } catch {
    return { ok: false, status: 0, code: NETWORK, message: 'The table does not answer.' };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const refusal = (body ?? {}) as { error?: unknown; message?: unknown; cells?: unknown };
    return {
      ok: false,
      status: response.status,
      code: typeof refusal.error === 'string' ? refusal.error : `http/${response.status}`,
      message: typeof refusal.message === 'string' ? refusal.message : `HTTP ${response.status}`,
      ...(Array.isArray(refusal.cells) ? { cells: refusal.cells.filter((c): c is number => typeof c === 'number') } : {}),
    };
  }
  const value = read(body);
  return value === null ? { ok: false, status: response.status, code: 'setup/bad-answer', message: 'The answer is not one this page understands.' } : { ok: true, value };
}
