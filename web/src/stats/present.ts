// What the statistics page and <today-at-table> say about counts of games and wins. Pure.
import { t, type Lang } from '../i18n/catalogue.ts';
import { seatLabel, type TodayAtTable, type Wins } from '../history/index.ts';

export interface WinRow {
  /** `south`, `north`, a seat `1`…, `team`, `knights` or `draw`. */
  readonly key: string;
  readonly label: string;
  readonly wins: number;
}

/** Sides first, then seats by number, then the team, the knights, and draws last. */
function rank(key: string): number {
  if (key === 'south') return 0;
  if (key === 'north') return 1;
  if (/^\d+$/.test(key)) return 10 + Number(key);
  if (key === 'team') return 100;
  if (key === 'knights') return 101;
  if (key === 'draw') return 200;
  return 150;
}

/** Wins by winner in a fixed order (not by count: the same seat stays in the same place from one table to the next). */
export function winRows(lang: Lang, wins: Wins): WinRow[] {
  return Object.entries(wins)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, n]) => ({ key, label: seatLabel(lang, key), wins: n }));
}

export interface TodayLines {
  readonly title: string;
  /** "3 Partien · 2 beendet · 1 läuft". */
  readonly counts: string;
  readonly wins: readonly WinRow[];
}

/** Today at a table in a few words; `thisTable` titles it "at this table" rather than by the table's name. */
export function todayLines(lang: Lang, today: TodayAtTable, thisTable: boolean): TodayLines {
  const title = thisTable ? t(lang, 'today.title') : t(lang, 'today.titleBoard', { board: today.board });
  const parts = [t(lang, 'today.games', { games: today.games })];
  if (today.games > 0) {
    parts.push(t(lang, 'today.finished', { finished: today.finished }));
    if (today.live > 0) parts.push(t(lang, 'today.live', { live: today.live }));
  }
  return { title, counts: parts.join(' · '), wins: winRows(lang, today.wins) };
}

/** A mean in the language's digits, one decimal at most: 42,5. */
export function average(lang: Lang, n: number): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(n);
}
