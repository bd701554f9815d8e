// What the address of /games and /stats says: the filters, the page of the list, the game and ply shown. Pure, so
// that a shared link and the page it opens can be tested to agree.
import { isGameName, type GameName } from './api.ts';

/** The filters the API takes (README.md, "REST API"); days are `YYYY-MM-DD`, the server's local days. */
export interface LogFilter {
  readonly game?: GameName;
  readonly day?: string;
  readonly from?: string;
  readonly to?: string;
  readonly board?: string;
  readonly player?: string;
}

export const FILTER_KEYS = ['game', 'day', 'from', 'to', 'board', 'player'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The list's filters are those of issue 7; /stats chooses a range of days instead of one day. */
export const LIST_FILTERS: readonly FilterKey[] = ['game', 'day', 'board', 'player'];
export const STATS_FILTERS: readonly FilterKey[] = ['game', 'from', 'to', 'board'];

/** Games per page of the list. */
export const PAGE_SIZE = 25;
/** The API's longest board or player name. */
const MAX_TEXT = 200;

export interface ListQuery {
  readonly filter: LogFilter;
  /** From 1. */
  readonly page: number;
}

export type GamesQuery =
  | { readonly view: 'list'; readonly list: ListQuery }
  /** `id` as written in the address, so that "no such game" can repeat it; the list's query is kept for the way back. */
  | { readonly view: 'game'; readonly id: string; readonly ply: number | null; readonly list: ListQuery };

/** A real calendar day written `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getFullYear() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]);
}

/** A game id the API could have: a whole number from 1, at most 16 digits. */
export function isGameId(value: string): boolean {
  return /^[1-9]\d{0,15}$/.test(value);
}

function text(value: string | null): string | undefined {
  return value !== null && value !== '' && value.length <= MAX_TEXT ? value : undefined;
}

/**
 * The filters among `keys` that an address gives, each checked as the API would; a value the API would refuse is
 * dropped rather than shown as an error: a mangled link still opens a page.
 */
export function readFilter(params: URLSearchParams, keys: readonly FilterKey[]): LogFilter {
  const out: { -readonly [K in FilterKey]?: string } = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value === null) continue;
    switch (key) {
      case 'game':
        if (isGameName(value)) out.game = value;
        break;
      case 'day':
      case 'from':
      case 'to':
        if (isDay(value)) out[key] = value;
        break;
      case 'board':
      case 'player':
        out[key] = text(value);
        break;
      default:
        key satisfies never;
    }
  }
  // The API takes a day or a range, never both, and no range that ends before it starts.
  if (out.day !== undefined) {
    delete out.from;
    delete out.to;
  }
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) delete out.to;
  for (const key of FILTER_KEYS) if (out[key] === undefined) delete out[key];
  return out as LogFilter;
}

function page(value: string | null): number {
  return value !== null && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

export function readGamesQuery(search: string): GamesQuery {
  const params = new URLSearchParams(search);
  const list: ListQuery = { filter: readFilter(params, LIST_FILTERS), page: page(params.get('page')) };
  const id = params.get('id');
  if (id === null) return { view: 'list', list };
  const plyText = params.get('ply');
  const ply = plyText !== null && /^\d{1,6}$/.test(plyText) ? Number(plyText) : null;
  return { view: 'game', id, ply, list };
}

function filterParams(filter: LogFilter, keys: readonly FilterKey[] = FILTER_KEYS): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = filter[key];
    if (value !== undefined) params.set(key, value);
  }
  return params;
}

/** `?game=kalaha&page=2`, in a fixed order, without defaults; '' when there is nothing to say. */
export function gamesSearch(query: GamesQuery, lang?: string): string {
  const params = filterParams(query.list.filter, LIST_FILTERS);
  if (query.list.page > 1) params.set('page', String(query.list.page));
  if (query.view === 'game') {
    params.set('id', query.id);
    if (query.ply !== null) params.set('ply', String(query.ply));
  }
  if (lang) params.set('lang', lang);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The API request for one page of the list. */
export function listApiPath(list: ListQuery, pageSize = PAGE_SIZE): string {
  const params = filterParams(list.filter, LIST_FILTERS);
  params.set('limit', String(pageSize));
  params.set('offset', String((list.page - 1) * pageSize));
  return `/api/games?${params}`;
}

/** The names to offer in the player filter: those of the games the other filters leave. */
export function playersApiPath(filter: LogFilter): string {
  const params = filterParams({ ...filter, player: undefined });
  const s = params.toString();
  return s ? `/api/players?${s}` : '/api/players';
}

export function statsApiPath(filter: LogFilter): string {
  const s = filterParams(filter).toString();
  return s ? `/api/stats?${s}` : '/api/stats';
}

/** Every matching game as one download. */
export function exportAllPath(filter: LogFilter, format: ExportFormat): string {
  const params = filterParams(filter);
  params.set('format', format);
  return `/api/games/export?${params}`;
}

export const EXPORT_FORMATS = ['pgn', 'json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportGamePath(id: number, format: ExportFormat): string {
  return `/api/games/${id}/export?format=${format}`;
}

export function readStatsFilter(search: string): LogFilter {
  return readFilter(new URLSearchParams(search), STATS_FILTERS);
}

export function statsSearch(filter: LogFilter, lang?: string): string {
  const params = filterParams(filter, STATS_FILTERS);
  if (lang) params.set('lang', lang);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Whether any filter is set. */
export function filtered(filter: LogFilter): boolean {
  return FILTER_KEYS.some((key) => filter[key] !== undefined);
}

/** The filter with one value changed ('' clears it); any change goes back to the list's first page. */
export function withFilter(filter: LogFilter, key: FilterKey, value: string): LogFilter {
  const next: Record<string, string | undefined> = { ...filter, [key]: value === '' ? undefined : value };
  // Applied through readFilter, so a hand-typed value obeys the same checks as an address.
  const params = new URLSearchParams();
  for (const k of FILTER_KEYS) if (next[k] !== undefined) params.set(k, next[k] as string);
  return readFilter(params, FILTER_KEYS);
}
