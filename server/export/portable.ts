// A game as it travels between logs: what every export format writes and every import reads.
import { recordOf } from '../session/index.ts';
import type { GameLog, GameRecord, GameSource, Players } from '../store/index.ts';
import type { GameName } from '../rules/index.ts';

export interface PortableEvent {
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly kind: string;
  readonly payload: unknown;
}

export interface PortableGame {
  /** Its id in the log it was exported from (an import gives it a new one). */
  readonly id: number | null;
  readonly game: GameName;
  readonly options: object;
  readonly players: Players;
  readonly boardId: string;
  readonly source: GameSource;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly result: unknown;
  /** The record after take-backs. */
  readonly moves: readonly string[];
  /** Every event of the game, as logged; only JSON carries them. */
  readonly events: readonly PortableEvent[] | null;
}

/** A logged game with its record and its events. */
export function portableFromLog(log: Pick<GameLog, 'events'>, game: GameRecord): PortableGame {
  const events = log.events(game.id);
  return {
    id: game.id,
    game: game.game,
    options: game.options as object,
    players: game.players,
    boardId: game.boardId,
    source: game.source,
    startedAt: game.startedAt,
    endedAt: game.endedAt,
    result: game.result,
    moves: recordOf(events),
    events: events.map((e) => ({ seq: e.seq, at: e.at, kind: e.kind, payload: e.payload })),
  };
}

/** The winner a result names (`south`, `2`, `draw`, …), null when it names none. */
export function winnerIn(result: unknown): string | null {
  const winner = (result as { winner?: unknown } | null)?.winner;
  return typeof winner === 'string' ? winner : null;
}

/** The reason a result gives (`no-seeds`, `agreed`, `abandoned`, …), null when it gives none. */
export function reasonIn(result: unknown): string | null {
  const reason = (result as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : null;
}

/** `2024-05-01T12:03:12.345Z`: exact, and the same wherever it is read. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO time with its zone (`Z` or `+02:00`) → ms; null for anything else, so no guess is ever made about a zone. */
export function parseIsoTime(text: string): number | null {
  if (!ISO.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : null;
}
