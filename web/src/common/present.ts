// What the pages say about the table state: pure choices of sentences and rows, kept apart from the markup.
import type { BoardStatus, GameView, KalahaView, MalawiView, RecordCorrection } from '../../../server/http/messages.ts';
import { secondsUntilRetry, type LinkStatus, type TableState } from '../connection/index.ts';
import {
  hasKey,
  list,
  pitLetter,
  playerName,
  sideName,
  t,
  type BoardKind,
  type Lang,
  type MessageKey,
  type SideName,
} from '../i18n/index.ts';
import { aduLastMove, aduTurn, describeAduMove } from './present-adu.ts';
import { describeMakisMove, makisLastMove, makisTurn, readMakisToken } from './present-makis.ts';

export interface RecordRow {
  /** Move number as players count: south's move and north's reply share one. */
  readonly number: number;
  readonly south: string | null;
  readonly north: string | null;
}

/** The record as numbered rows, the newest `keep` of them; south moves first (RULES.md §1 and §2). Kalaha and Malawi. */
export function recordRows(record: readonly string[], keep: number): { rows: RecordRow[]; hidden: number } {
  const rows: RecordRow[] = [];
  for (let i = 0; i < record.length; i += 2) {
    rows.push({ number: i / 2 + 1, south: record[i] ?? null, north: record[i + 1] ?? null });
  }
  const hidden = Math.max(0, rows.length - keep);
  return { rows: rows.slice(hidden), hidden };
}

/** One row of a record as a page shows it: a label ("12.") and its moves, each with its place in the record. */
export interface RecordLine {
  readonly label: string;
  readonly moves: readonly { readonly text: string; readonly index: number }[];
}

/**
 * The record in the rows each game counts in, the newest `keep` of them: Kalaha and Malawi by move
 * number (south and north), Makis by round (a row begins at each roll; the placements come first,
 * unnumbered), Adu by ply (players may pass without a token, so rounds do not line up).
 */
export function recordLines(game: GameView['game'], record: readonly string[], keep: number): { lines: RecordLine[]; hidden: number } {
  const lines: RecordLine[] = [];
  switch (game) {
    case 'kalaha':
    case 'malawi':
      for (let i = 0; i < record.length; i += 2) {
        lines.push({ label: `${i / 2 + 1}.`, moves: record.slice(i, i + 2).map((text, k) => ({ text, index: i + k })) });
      }
      break;
    case 'makis': {
      let round = 0;
      record.forEach((text, index) => {
        const roll = readMakisToken(text)?.kind === 'roll';
        if (roll) round += 1;
        if (roll || lines.length === 0) lines.push({ label: roll ? `${round}.` : '', moves: [] });
        (lines[lines.length - 1].moves as { text: string; index: number }[]).push({ text, index });
      });
      break;
    }
    case 'adu':
      record.forEach((text, index) => lines.push({ label: `${index + 1}.`, moves: [{ text, index }] }));
      break;
    default:
      return game satisfies never;
  }
  const hidden = Math.max(0, lines.length - keep);
  return { lines: lines.slice(hidden), hidden };
}

export type Tone = 'ok' | 'neutral' | 'warn';

/** The board's state in one short phrase, and how loudly to show it. */
export function boardStatusLine(lang: Lang, board: BoardStatus | null): { text: string; tone: Tone } | null {
  if (!board) return null;
  if (board.source === 'none') return { text: t(lang, 'status.board.none'), tone: 'neutral' };
  // A cable that is gone and a board that stopped talking ask for different hands: say which it is.
  if (!board.connected) {
    const key: MessageKey = board.link === 'wrong-board' ? 'status.board.wrongBoard' : board.link === 'reconnecting' ? 'status.board.reconnecting' : 'status.board.notResponding';
    return { text: t(lang, key), tone: 'warn' };
  }
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
  const reasonKey = `reason.${outcome.reason}`;
  const headline = winnerLine(lang, view);
  return {
    headline,
    score: finalScore(lang, view),
    // A reason this page does not know yet is still worth showing as the server wrote it.
    reason: hasKey(lang, reasonKey) ? t(lang, reasonKey) : outcome.reason,
  };
}

/** "Süd gewinnt", "Spieler 2 gewinnt", "Die Ritter gewinnen", "Unentschieden zwischen Spieler 1 und 4". */
function winnerLine(lang: Lang, view: GameView): string {
  switch (view.game) {
    case 'kalaha':
    case 'malawi': {
      const winner = view.outcome?.winner;
      return winner === 'draw' || winner === undefined ? t(lang, 'outcome.draw') : t(lang, 'outcome.wins', { side: sideName(lang, winner) });
    }
    case 'makis': {
      const winner = view.outcome?.winner ?? '';
      if (winner === 'knights') return t(lang, 'outcome.knights');
      if (winner === 'team') return t(lang, 'outcome.team');
      return t(lang, 'outcome.wins', { side: playerName(lang, winner) });
    }
    case 'adu': {
      const outcome = view.outcome;
      if (!outcome || outcome.winner === 'draw') {
        const players = outcome?.players ?? [];
        return players.length ? t(lang, 'outcome.drawAmong', { players: list(lang, players.map((p) => playerName(lang, p))) }) : t(lang, 'outcome.draw');
      }
      return t(lang, 'outcome.wins', { side: playerName(lang, outcome.winner) });
    }
    default:
      return view satisfies never;
  }
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
    case 'makis': {
      const left = view.makis.flatMap((spot, i) => (spot !== 'out' && spot !== null ? [playerName(lang, i + 1)] : []));
      return left.length ? t(lang, 'outcome.inGame', { players: list(lang, left) }) : t(lang, 'outcome.noneLeft');
    }
    case 'adu': {
      // A winner's kings are what won; a draw names who shared it in its headline already.
      const winner = view.seats.find((s) => String(s.player) === view.outcome?.winner);
      if (winner) {
        const kings = t(lang, 'adu.seat.kings', { kings: winner.kings });
        return winner.reserves ? `${kings} · ${t(lang, 'adu.seat.reserves', { reserves: winner.reserves })}` : kings;
      }
      const left = view.seats.filter((s) => s.in).map((s) => playerName(lang, s.player));
      return t(lang, 'outcome.inGame', { players: list(lang, left) });
    }
    default:
      return assertNever(view);
  }
}

/** Whose turn it is, in words, for every game; null when nobody is to move. */
export function turnLine(lang: Lang, view: GameView): string | null {
  switch (view.game) {
    case 'kalaha':
    case 'malawi':
      return view.outcome || !view.toMove ? null : t(lang, 'turn.toMove', { side: sideName(lang, view.toMove) });
    case 'makis':
      return makisTurn(lang, view);
    case 'adu':
      return aduTurn(lang, view);
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
  switch (view?.game) {
    case undefined:
    case 'kalaha':
      return { game: 'kalaha' };
    case 'malawi':
    case 'adu':
      return { game: view.game, size: view.size };
    case 'makis':
      return { game: 'makis' };
    default:
      return view satisfies never;
  }
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
    case 'makis':
      return makisLastMove(lang, view.lastMove);
    case 'adu':
      return aduLastMove(lang, view);
    default:
      return assertNever(view);
  }
}

/**
 * "Korrektur: Zug 38 war e, nicht c", "Correction: moves 38–39 were e and f, not c": what a correction of the
 * record changed, every ply it touched named.
 */
export function correctionLine(lang: Lang, correction: Pick<RecordCorrection, 'ply' | 'old' | 'new'>): string {
  const { ply, old, new: now } = correction;
  const count = Math.max(old.length, now.length, 1);
  const shape = now.length === 0 ? 'gone' : old.length === 0 ? 'missed' : 'other';
  return t(lang, 'correction', { shape, count, ply, last: ply + count - 1, old: list(lang, old), new: list(lang, now) });
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
  if (game === 'makis') return describeMakisMove(lang, text);
  if (game === 'adu') return describeAduMove(lang, text);
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
