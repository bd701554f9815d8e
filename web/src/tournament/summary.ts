// What a tournament card says about one board, in words: who plays, the score, whose turn, the last
// move, and what is wrong. Pure, so it is tested without a browser.
import type { GameView, MalawiView } from '../../../server/http/messages.ts';
import type { BoardRecord, RecentEvent } from '../../../server/mqtt/messages.ts';
import { formatAlert, playerName, sideName, type BoardKind, type Lang } from '../i18n/index.ts';
import { tt } from './catalogue.ts';
import { correctionLine } from '../common/present.ts';

/** One side or seat at the board. */
export interface Contender {
  /** `south`, `north`, or the player's number. */
  readonly id: string;
  readonly name: string;
  /** Kalaha's store, Malawi's beads; null for games scored otherwise. */
  readonly score: number | null;
  readonly scoreText: string | null;
  readonly toMove: boolean;
  readonly winner: boolean;
  /** Out of the game (a captured Maki, an Adu seat without kings). */
  readonly out: boolean;
}

/** North first, as on the Kalaha board, where north's store is on the left. */
export function contenders(lang: Lang, view: GameView): Contender[] {
  switch (view.game) {
    case 'kalaha':
    case 'malawi': {
      const beads = view.game === 'malawi' ? beadTotals(view) : null;
      return (['north', 'south'] as const).map((side) => {
        const score = view.game === 'kalaha' ? view.stores[side] : (beads as Record<string, number>)[side];
        return {
          id: side,
          name: sideName(lang, side),
          score,
          scoreText: tt(lang, view.game === 'kalaha' ? 'score.stones' : 'score.beads', { count: score }),
          toMove: !view.outcome && view.toMove === side,
          winner: view.outcome?.winner === side,
          out: false,
        };
      });
    }
    case 'makis':
      return Array.from({ length: view.players }, (_, i) => {
        const player = i + 1;
        const out = view.makis[i] === 'out';
        return {
          id: String(player),
          name: playerName(lang, player),
          score: null,
          scoreText: out ? tt(lang, 'seat.out') : null,
          toMove: !view.outcome && view.toMove === player,
          winner: view.outcome?.winner === String(player) || view.outcome?.winner === 'team',
          out,
        };
      });
    case 'adu':
      return view.seats.map((seat) => ({
        id: String(seat.player),
        name: playerName(lang, seat.player),
        score: null,
        scoreText: seat.in ? null : tt(lang, 'seat.out'),
        toMove: !view.outcome && actingPlayer(view) === seat.player,
        winner: view.outcome?.winner === String(seat.player),
        out: !seat.in,
      }));
    default:
      return view satisfies never;
  }
}

/** Beads on the board per side. */
export function beadTotals(view: MalawiView): { south: number; north: number } {
  const totals = { south: 0, north: 0 };
  for (const piece of view.pieces) totals[piece.side] += piece.strength;
  return totals;
}

/** Who acts next in Adu: the capturer placing a reserve king comes before the turn order. */
function actingPlayer(view: Extract<GameView, { game: 'adu' }>): number | null {
  return view.awaitingReserve?.player ?? view.toMove;
}

/** "Am Zug: Süd", or the result once the game is over; null before anyone can move. */
export function turnLine(lang: Lang, view: GameView): string | null {
  if (view.outcome) return outcomeLine(lang, view.outcome.winner);
  const mover = contenders(lang, view).find((c) => c.toMove);
  return mover ? tt(lang, 'turn.toMove', { name: mover.name }) : null;
}

export function outcomeLine(lang: Lang, winner: string): string {
  switch (winner) {
    case 'draw':
      return tt(lang, 'outcome.draw');
    case 'knights':
      return tt(lang, 'outcome.knights');
    case 'team':
      return tt(lang, 'outcome.team');
    case 'south':
    case 'north':
      return tt(lang, 'outcome.wins', { name: sideName(lang, winner) });
    default:
      return /^\d+$/.test(winner) ? tt(lang, 'outcome.wins', { name: playerName(lang, Number(winner)) }) : tt(lang, 'outcome.over');
  }
}

/** "Letzter Zug: C" — the record's last entry, in the game's own notation. */
export function lastMoveLine(lang: Lang, record: readonly string[]): string | null {
  const last = record.at(-1);
  return last === undefined ? null : tt(lang, 'moves.last', { move: last });
}

/** "Zug 24: f" — how many moves and the last, in one short line (compact cards); "noch kein Zug" before the first. */
export function moveLine(lang: Lang, record: readonly string[]): string {
  const last = record.at(-1);
  return last === undefined ? tt(lang, 'moves.count', { count: 0 }) : tt(lang, 'moves.nth', { count: record.length, move: last });
}

/** Which board an alert's cells belong to, for naming them. */
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

export interface Trouble {
  readonly level: 'info' | 'warn' | 'error';
  readonly text: string;
}

/** What is wrong at the board, most urgent first: the sensors, a mismatch, a question, catching up. */
export function troubles(lang: Lang, board: BoardRecord): Trouble[] {
  const out: Trouble[] = [];
  if (board.sensors && !board.sensors.connected) out.push({ level: 'error', text: tt(lang, 'sensors.lost') });
  const kind = boardKind(board.view);
  const rank = { error: 0, warn: 1, info: 2 } as const;
  for (const alert of [...board.alerts].sort((a, b) => rank[a.level] - rank[b.level])) {
    const words = formatAlert(lang, alert, kind);
    out.push({ level: alert.level, text: words.detail ? `${words.text} (${words.detail})` : words.text });
  }
  if (board.questions > 0) out.push({ level: 'warn', text: tt(lang, 'question.open') });
  if (board.resyncFrom !== 0) out.push({ level: 'info', text: tt(lang, 'resync') });
  return out;
}

/** One line of the board page's "latest" list. */
export function eventLine(lang: Lang, event: RecentEvent): string {
  switch (event.event) {
    case 'move':
      return tt(lang, 'event.move', { move: event.move ?? '' });
    case 'takeback':
      return tt(lang, 'event.takeback', { moves: (event.undone ?? []).join(' ') });
    case 'end':
      return tt(lang, 'event.end');
    case 'new-game':
      return tt(lang, 'event.new-game');
    case 'settled':
      return tt(lang, 'event.settled');
    case 'correction':
      return event.correction ? correctionLine(lang, event.correction) : '';
    default:
      return event.event satisfies never;
  }
}

export function gameTitle(lang: Lang, board: BoardRecord): string {
  const game = board.game ? tt(lang, `game.${board.game}`) : '';
  const number = board.gameId !== null ? tt(lang, 'game.number', { id: board.gameId }) : tt(lang, 'game.none');
  return game ? `${game} · ${number}` : number;
}
