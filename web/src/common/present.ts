// What the display says about the table state: pure choices of sentences and rows, kept apart from the markup.
import type { BoardStatus, KalahaView } from '../../../server/http/messages.ts';
import { secondsUntilRetry, type LinkStatus, type TableState } from '../connection/index.ts';
import { hasKey, list, pitLetter, sideName, t, type Lang, type MessageKey } from '../i18n/index.ts';

export interface RecordRow {
  /** Move number as players count: south's move and north's reply share one. */
  readonly number: number;
  readonly south: string | null;
  readonly north: string | null;
}

/** The record as numbered rows, the newest `keep` of them; south moves first (RULES.md §1). */
export function recordRows(record: readonly string[], keep: number): { rows: RecordRow[]; hidden: number } {
  const rows: RecordRow[] = [];
  for (let i = 0; i < record.length; i += 2) {
    rows.push({ number: i / 2 + 1, south: record[i] ?? null, north: record[i + 1] ?? null });
  }
  const hidden = Math.max(0, rows.length - keep);
  return { rows: rows.slice(hidden), hidden };
}

export type Tone = 'ok' | 'neutral' | 'warn';

/** The board's state in one short phrase, and how loudly to show it. */
export function boardStatusLine(lang: Lang, board: BoardStatus | null): { text: string; tone: Tone } | null {
  if (!board) return null;
  if (board.source === 'none') return { text: t(lang, 'status.board.none'), tone: 'neutral' };
  if (!board.connected) return { text: t(lang, 'status.board.notResponding'), tone: 'warn' };
  const key: MessageKey =
    board.source === 'simulated'
      ? 'status.board.simulated'
      : board.source === 'trace'
        ? 'status.board.trace'
        : 'status.board.serial';
  const text = t(lang, key);
  // A simulated board needs no calibration; a real one that is not calibrated weighs wrong.
  if (board.source === 'serial' && !board.calibrated) {
    return { text: `${text} · ${t(lang, 'status.board.uncalibrated')}`, tone: 'warn' };
  }
  return { text, tone: board.source === 'serial' ? 'ok' : 'neutral' };
}

/**
 * What to say about the link to the server, or null when all is well. Before the first sync the
 * table was never reached, so "connection lost" would be untrue.
 */
export function linkNotice(lang: Lang, link: LinkStatus, now: number, synced: boolean): string | null {
  switch (link.phase) {
    case 'open':
      return synced ? null : t(lang, 'status.link.connecting');
    case 'connecting':
      return !synced || link.attempt === 0 ? t(lang, 'status.link.connecting') : t(lang, 'status.link.retrying');
    case 'waiting': {
      const seconds = secondsUntilRetry(link, now) ?? 0;
      if (seconds === 0) return synced ? t(lang, 'status.link.retrying') : t(lang, 'status.link.connecting');
      return t(lang, synced ? 'status.link.retryIn' : 'status.link.unreachable', { seconds });
    }
    default:
      return assertNever(link);
  }
}

export interface OutcomeLines {
  readonly headline: string;
  readonly score: string;
  readonly reason: string;
}

export function outcomeLines(lang: Lang, view: KalahaView): OutcomeLines | null {
  const outcome = view.outcome;
  if (!outcome) return null;
  const headline =
    outcome.winner === 'draw' ? t(lang, 'outcome.draw') : t(lang, 'outcome.wins', { side: sideName(lang, outcome.winner) });
  const reasonKey = `reason.${outcome.reason}`;
  // The view is the game's state: swept stones already count in the stores, even while `pending`
  // says they still lie in the pits.
  return {
    headline,
    score: t(lang, 'outcome.score', { north: view.stores.north, south: view.stores.south }),
    // A reason this page does not know yet is still worth showing as the server wrote it.
    reason: hasKey(lang, reasonKey) ? t(lang, reasonKey) : outcome.reason,
  };
}

/** "Nord sät aus d — schlägt C", or what the last update did when it was not a move. */
export function lastMoveLine(lang: Lang, table: TableState): string | null {
  const event = table.lastEvent;
  if (event?.event === 'takeback') return t(lang, 'event.takeback', { moves: (event.undone ?? []).join(' ') });
  if (event?.event === 'new-game') return t(lang, 'event.new-game');
  const last = table.view?.lastMove;
  if (!last) return null;
  const side = sideName(lang, last.pit < 6 ? 'south' : 'north');
  const sow = t(lang, 'lastMove.sow', { side, pit: pitLetter(last.pit) });
  if (!last.captures.length) return sow;
  return `${sow} — ${t(lang, 'lastMove.captures', { pits: list(lang, last.captures.map(pitLetter)) })}`;
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
