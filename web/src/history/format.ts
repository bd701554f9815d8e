// What the history and statistics pages say about a logged game, a seat, a day or a failed request, in the page's
// language. Pure.
import { LANGS, playerName, sideName, t, type Lang } from '../i18n/catalogue.ts';
import type { ApiProblem, GameName, GameSummary } from './api.ts';

const SIDES = ['south', 'north'] as const;

/** A side, seat or winner key in words: `south` → "Süd", `2` → "Spieler 2", `knights`, `team`, `draw`. */
export function seatLabel(lang: Lang, seat: string): string {
  if (seat === 'south' || seat === 'north') return sideName(lang, seat);
  if (seat === 'knights') return t(lang, 'stats.winner.knights');
  if (seat === 'team') return t(lang, 'stats.winner.team');
  if (seat === 'draw') return t(lang, 'stats.winner.draw');
  if (/^\d+$/.test(seat)) return playerName(lang, seat);
  return seat;
}

/**
 * A seat with its player's name: "Anna (Süd)". A name that only repeats the seat (the session writes "Süd" when
 * nobody gave one) is left out, in either language.
 */
export function playerLabel(lang: Lang, seat: string, players: Readonly<Record<string, string>>): string {
  const label = seatLabel(lang, seat);
  const name = players[seat]?.trim();
  if (!name || LANGS.some((l) => seatLabel(l, seat).toLowerCase() === name.toLowerCase())) return label;
  return t(lang, 'history.seat', { name, seat: label });
}

/** The seats of a logged game in order: the sides, or seats 1… as many as its options or its names say. */
export function seatsOf(game: GameName, options: unknown, players: Readonly<Record<string, string>> = {}): string[] {
  if (game === 'kalaha' || game === 'malawi') return [...SIDES];
  const given = (options as { players?: unknown } | null)?.players;
  let n = typeof given === 'number' && Number.isInteger(given) && given >= 1 && given <= 6 ? given : game === 'makis' ? 1 : 2;
  for (const key of Object.keys(players)) if (/^\d$/.test(key)) n = Math.max(n, Number(key));
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

/** The players of a game, seat by seat: names where given, else the seats. */
export function playersOf(lang: Lang, game: Pick<GameSummary, 'game' | 'options' | 'players'>): string[] {
  return seatsOf(game.game, game.options, game.players).map((seat) => {
    const name = game.players[seat]?.trim();
    return name || seatLabel(lang, seat);
  });
}

/** "Anna (Süd) gewinnt 28 : 20" (Kalaha: the winner's store first), "Die Ritter gewinnen", "abgebrochen", "läuft". */
export function resultLine(lang: Lang, game: Pick<GameSummary, 'game' | 'result' | 'endedAt' | 'players'>): string {
  if (game.endedAt === null) return t(lang, 'history.result.live');
  const result = (typeof game.result === 'object' && game.result !== null ? game.result : {}) as {
    winner?: unknown;
    reason?: unknown;
    stores?: { south?: unknown; north?: unknown };
  };
  const winner = typeof result.winner === 'string' ? result.winner : null;
  let line: string;
  if (winner === null) return t(lang, result.reason === 'abandoned' ? 'history.result.abandoned' : 'history.result.none');
  else if (winner === 'draw') line = t(lang, 'history.result.draw');
  else if (winner === 'knights') line = t(lang, 'history.result.knights');
  else if (winner === 'team') line = t(lang, 'history.result.team');
  else line = t(lang, 'history.result.wins', { who: playerLabel(lang, winner, game.players) });
  const stores = result.stores;
  if (game.game === 'kalaha' && typeof stores?.south === 'number' && typeof stores.north === 'number') {
    // The winner's stones first, as a score is read out: "Nord gewinnt 34 : 14".
    line += winner === 'north' ? ` ${stores.north} : ${stores.south}` : ` ${stores.south} : ${stores.north}`;
  }
  return line;
}

/** "42 Züge · 18 min"; a live game's duration is not known yet. */
export function lengthLine(lang: Lang, game: Pick<GameSummary, 'plies' | 'startedAt' | 'endedAt'>): string {
  const plies = t(lang, 'history.plies', { plies: game.plies });
  if (game.endedAt === null) return plies;
  const minutes = Math.round((game.endedAt - game.startedAt) / 60_000);
  return `${plies} · ${minutes < 1 ? t(lang, 'history.minutes.less') : t(lang, 'history.minutes', { minutes })}`;
}

/** "Sensoren", "von Hand", "simuliert"; "… · importiert" for a game that came in through an import. */
export function sourceLine(lang: Lang, game: Pick<GameSummary, 'source' | 'importedAt'>): string {
  const source =
    game.source === 'sensors' || game.source === 'hand' || game.source === 'simulated' ? t(lang, `history.source.${game.source}`) : game.source;
  return game.importedAt === null ? source : `${source} · ${t(lang, 'history.source.imported')}`;
}

/** A moment in the page's language: "1. Mai 2024, 12:00" / "May 1, 2024, 12:00 PM". */
export function dateTime(lang: Lang, ms: number): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** A local day `2024-05-01` in the page's language; anything else as it is. */
export function dayLabel(lang: Lang, day: string, style: 'medium' | 'short' = 'medium'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Intl.DateTimeFormat(lang, style === 'short' ? { day: 'numeric', month: 'short' } : { dateStyle: 'medium' }).format(date);
}

/** A number the way the language writes it: 12,5 / 12.5. */
export function decimal(lang: Lang, n: number, digits = 1): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(n);
}

/** A failed request in words, and the status and code in small print (null when there is nothing more to say). */
export function problemLines(lang: Lang, problem: ApiProblem): { text: string; detail: string | null } {
  if (problem.kind === 'unreachable') return { text: t(lang, 'history.error.unreachable'), detail: null };
  const detail = t(lang, 'history.error.code', { status: problem.status, code: problem.code });
  // Without a game log the server has no /api/games at all: its plain 404 says so.
  if (problem.status === 404 && problem.code === 'not-found') return { text: t(lang, 'history.error.noLog'), detail };
  if (problem.code === 'api/bad-query' || problem.code === 'api/unknown-parameter') return { text: t(lang, 'history.error.badQuery'), detail };
  return { text: t(lang, 'history.error.failed'), detail };
}

/** Whether a problem means the game asked for is not in the log. */
export function isNoSuchGame(problem: ApiProblem): boolean {
  return problem.kind === 'refused' && (problem.code === 'api/no-such-game' || problem.code === 'api/bad-id');
}
