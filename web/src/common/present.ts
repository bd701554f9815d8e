// What the pages say about the table state: pure choices of sentences and rows, kept apart from the markup.
import type { BoardStatus, GameView, KalahaView, MalawiView } from '../../../server/http/messages.ts';
import { secondsUntilRetry, type LinkStatus, type TableState } from '../connection/index.ts';
import { hasKey, list, pitLetter, sideName, t, type BoardKind, type Lang, type MessageKey, type SideName } from '../i18n/index.ts';

export interface RecordRow {
  /** Move number as players count: south's move and north's reply share one. */
  readonly number: number;
  readonly south: string | null;
  readonly north: string | null;
}

/** The record as numbered rows, the newest `keep` of them; south moves first (RULES.md §1 and §2). */
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

export function outcomeLines(lang: Lang, view: GameView): OutcomeLines | null {
  const outcome = view.outcome;
  if (!outcome) return null;
  const headline =
    outcome.winner === 'draw' ? t(lang, 'outcome.draw') : t(lang, 'outcome.wins', { side: sideName(lang, outcome.winner) });
  const reasonKey = `reason.${outcome.reason}`;
  return {
    headline,
    score: finalScore(lang, view),
    // A reason this page does not know yet is still worth showing as the server wrote it.
    reason: hasKey(lang, reasonKey) ? t(lang, reasonKey) : outcome.reason,
  };
}

function finalScore(lang: Lang, view: GameView): string {
  switch (view.game) {
    case 'kalaha':
      // The view is the game's state: swept stones already count in the stores, even while
      // `pending` says they still lie in the pits.
      return t(lang, 'outcome.score', { north: view.stores.north, south: view.stores.south });
    case 'malawi': {
      const beads = beadTotals(view);
      return t(lang, 'outcome.beads', beads);
    }
    default:
      return assertNever(view);
  }
}

/** Each side's beads on the board: Malawi's score in all but name (a side at 0 has lost). */
export function beadTotals(view: MalawiView): { south: number; north: number } {
  const totals = { south: 0, north: 0 };
  for (const piece of view.pieces) totals[piece.side] += piece.strength;
  return totals;
}

/** Which board the view is drawn on, for naming its cells. */
export function boardKind(view: GameView | null): BoardKind {
  return view?.game === 'malawi' ? { game: 'malawi', size: view.size } : { game: 'kalaha' };
}

/** "Nord sät aus d — schlägt C", "Süd schlägt von c1 aus c5", or what the last update did when it was not a move. */
export function lastMoveLine(lang: Lang, table: TableState): string | null {
  const event = table.lastEvent;
  if (event?.event === 'takeback') return t(lang, 'event.takeback', { moves: (event.undone ?? []).join(' ') });
  if (event?.event === 'new-game') return t(lang, 'event.new-game');
  const view = table.view;
  if (!view) return null;
  switch (view.game) {
    case 'kalaha':
      return kalahaLastMove(lang, view);
    case 'malawi':
      return malawiLastMove(lang, view, table.record.length);
    default:
      return assertNever(view);
  }
}

function kalahaLastMove(lang: Lang, view: KalahaView): string | null {
  const last = view.lastMove;
  if (!last) return null;
  const side = sideName(lang, last.pit < 6 ? 'south' : 'north');
  const sow = t(lang, 'lastMove.sow', { side, pit: pitLetter(last.pit) });
  if (!last.captures.length) return sow;
  return `${sow} — ${t(lang, 'lastMove.captures', { pits: list(lang, last.captures.map(pitLetter)) })}`;
}

function malawiLastMove(lang: Lang, view: MalawiView, plies: number): string | null {
  const last = view.lastMove;
  if (!last) return null;
  const [from = '?', ...rest] = last.squares;
  const to = rest[0] ?? '?';
  const mover = malawiMover(view, plies);
  const side = mover ? sideName(lang, mover) : '';
  switch (last.kind) {
    case 'move':
      return t(lang, 'lastMove.malawi.move', { side, from, to }).trim();
    case 'capture':
      return t(lang, 'lastMove.malawi.capture', { side, from, to }).trim();
    case 'distribute':
      return t(lang, 'lastMove.malawi.distribute', { side, from, squares: list(lang, rest) }).trim();
    default:
      return last.kind satisfies never;
  }
}

/**
 * Who made the last move: the owner of the piece that moved (it stands on the move's target, or
 * still on its own square after a capture or distribution); failing that, the record's parity, as
 * south moves first.
 */
export function malawiMover(view: MalawiView, plies: number): SideName | null {
  const last = view.lastMove;
  if (!last) return null;
  const square = last.kind === 'move' ? last.squares[1] : last.squares[0];
  const piece = view.pieces.find((p) => p.square === square);
  if (piece) return piece.side;
  if (plies > 0) return plies % 2 === 1 ? 'south' : 'north';
  return null;
}

/**
 * A move of the record in plain words, for the console's answer buttons: "c1 schlägt c5",
 * "Mulde C säen". Notation only, no rules; anything unreadable is shown as it is.
 */
export function describeMove(lang: Lang, game: GameView['game'], notation: string): string {
  const text = notation.trim();
  if (game === 'kalaha') {
    return /^[A-Fa-f]$/.test(text) ? t(lang, 'move.kalaha.sow', { pit: text }) : text;
  }
  const step = /^([a-l]\d{1,2})([-x])([a-l]\d{1,2})$/i.exec(text);
  if (step) {
    const key = step[2].toLowerCase() === 'x' ? 'move.malawi.capture' : 'move.malawi.move';
    return t(lang, key, { from: step[1].toLowerCase(), to: step[3].toLowerCase() });
  }
  const distribution = /^([a-l]\d{1,2})>([a-l]\d{1,2}(?:,[a-l]\d{1,2})*)$/i.exec(text);
  if (distribution) {
    const squares = distribution[2].toLowerCase().split(',');
    return t(lang, 'move.malawi.distribute', { from: distribution[1].toLowerCase(), squares: list(lang, squares) });
  }
  return text;
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
