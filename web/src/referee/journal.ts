// The console's event list of the game: moves, take-backs, corrections, alerts and answers with their times. Pure.
//
// Two sources feed it. The game log (`GET /api/games/:id`) has every event with the server's time; it is asked
// again, for the events after the last one it gave, whenever the WebSocket says something happened. Until its answer
// comes, and always on a server without a log, what the WebSocket said is listed at once with the time it arrived.
import type { Alert, RecordCorrection } from '../../../server/http/messages.ts';
import type { TableState } from '../connection/index.ts';

export type JournalEntry =
  /**
   * `reconstructed`: made while the service was down, and read from the board after its restart (logged entries only).
   * `assumed`: taken without the board or the console deciding it; the console may still change it.
   */
  | {
      readonly kind: 'move';
      readonly at: number;
      readonly move: string;
      readonly ply: number;
      readonly reconstructed?: true;
      readonly assumed?: true;
    }
  | { readonly kind: 'takeback'; readonly at: number; readonly undone: readonly string[] }
  | ({ readonly kind: 'correction'; readonly at: number } & RecordCorrection)
  | { readonly kind: 'alert'; readonly at: number; readonly alert: Alert }
  | { readonly kind: 'answer'; readonly at: number; readonly move: string; readonly byHand: boolean }
  | { readonly kind: 'new-game'; readonly at: number }
  | { readonly kind: 'end'; readonly at: number; readonly winner: string | null; readonly reason: string | null };

/** An entry of the list: from the log (`seq` > 0) or, until the log has it, from the WebSocket (`seq` 0, `live` > 0). */
export type Listed = JournalEntry & { readonly seq: number; readonly live: number };

export interface Journal {
  /** The logged game the list shows; null when the server names none (no log, or no move yet). */
  readonly gameId: number | null;
  /** The last log event read; the next request asks for the events after it. */
  readonly lastSeq: number;
  readonly logged: readonly Listed[];
  /** What the WebSocket said that the log has not been asked about yet, oldest first. */
  readonly live: readonly Listed[];
  /** Counts the WebSocket's entries, so an answer of the log drops exactly those it covers. */
  readonly liveSeq: number;
}

export const EMPTY_JOURNAL: Journal = { gameId: null, lastSeq: 0, logged: [], live: [], liveSeq: 0 };

/** An entry as listed, with how many alerts of the same code came right before it and are folded into it. */
export type Shown = Listed & { readonly repeats: number };

/**
 * The list as the console shows it: newest first, at most `limit` entries. A mismatch is raised again each time a
 * hand changes the board; a run of alerts of one code shows as its newest, counted, so moves stay in view.
 */
export function journalEntries(journal: Journal, limit: number): Shown[] {
  const out: Shown[] = [];
  for (const entry of [...journal.logged, ...journal.live].reverse()) {
    const newer = out[out.length - 1];
    if (entry.kind === 'alert' && newer?.kind === 'alert' && newer.alert.code === entry.alert.code) {
      out[out.length - 1] = { ...newer, repeats: newer.repeats + 1 };
      continue;
    }
    if (out.length === limit) break;
    out.push({ ...entry, repeats: 0 });
  }
  return out;
}

/**
 * What changed between two states of the table, as entries (oldest first), timed `at`. A sync brings nothing:
 * it is the state after a (re)connect, whose past only the log knows.
 */
export function entriesBetween(before: TableState, after: TableState, at: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  if (!before.synced || after === before) return out;
  if (after.stateId > before.stateId && after.lastEvent && after.lastEvent !== before.lastEvent) {
    const event = after.lastEvent;
    switch (event.event) {
      case 'move':
        if (event.move !== undefined) out.push({ kind: 'move', at, move: event.move, ply: after.record.length, ...(event.assumed ? { assumed: true as const } : {}) });
        break;
      case 'correction':
        if (event.correction) out.push({ kind: 'correction', at, ...event.correction });
        break;
      case 'takeback':
        out.push({ kind: 'takeback', at, undone: event.undone ?? [] });
        break;
      case 'new-game':
        out.push({ kind: 'new-game', at });
        break;
      case 'end': {
        const outcome = after.view?.outcome ?? null;
        out.push({ kind: 'end', at, winner: outcome ? String(outcome.winner) : null, reason: outcome?.reason ?? null });
        break;
      }
      case 'settled':
        break;
      default:
        event.event satisfies never;
    }
  }
  const known = new Set(before.alerts.map((a) => a.id));
  for (const alert of after.alerts) if (!known.has(alert.id)) out.push({ kind: 'alert', at, alert });
  return out;
}

/**
 * Adds what the WebSocket said, for the game `gameId` names. A new game (or another id, or none after one) starts a
 * new list: the old game's events belong to the old game. A game that gets its first id (its row is written with
 * its first move) keeps its list.
 */
export function addLive(journal: Journal, entries: readonly JournalEntry[], gameId: number | null): Journal {
  const newGame = entries.some((e) => e.kind === 'new-game') || (journal.gameId !== null && gameId !== journal.gameId);
  const base = newGame
    ? { ...EMPTY_JOURNAL, gameId, liveSeq: journal.liveSeq }
    : gameId !== null && gameId !== journal.gameId
      ? { ...journal, gameId }
      : journal;
  if (!entries.length) return base;
  let liveSeq = base.liveSeq;
  const added = entries.map((e): Listed => ({ ...e, seq: 0, live: ++liveSeq }));
  return { ...base, live: [...base.live, ...added], liveSeq };
}

/** One event as `GET /api/games/:id` lists it. */
export interface LogEvent {
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly payload: unknown;
}

/**
 * Folds in the log's answer for `gameId`: its events after `lastSeq`, read once the WebSocket had said everything
 * up to `coveredLive`. Those live entries are dropped, the later ones kept until the next answer.
 */
export function addLogged(journal: Journal, gameId: number, events: readonly LogEvent[], coveredLive: number): Journal {
  if (gameId !== journal.gameId) return journal;
  const fresh = events.filter((e) => e.seq > journal.lastSeq).sort((a, b) => a.seq - b.seq);
  const entries = fresh.flatMap((e): Listed[] => {
    const entry = fromLog(e);
    return entry ? [{ ...entry, seq: e.seq, live: 0 }] : [];
  });
  return {
    ...journal,
    lastSeq: fresh.length ? fresh[fresh.length - 1].seq : journal.lastSeq,
    logged: [...journal.logged, ...entries],
    live: journal.live.filter((e) => e.live > coveredLive),
  };
}

/** A logged event as an entry; null for a kind the list does not show. */
export function fromLog(event: LogEvent): JournalEntry | null {
  const p = (typeof event.payload === 'object' && event.payload !== null ? event.payload : {}) as Record<string, unknown>;
  const at = event.at;
  switch (event.kind) {
    case 'move':
      if (typeof p.move !== 'string') return null;
      return {
        kind: 'move',
        at,
        move: p.move,
        ply: typeof p.ply === 'number' ? p.ply : 0,
        ...(p.reconstructed === true ? { reconstructed: true } : {}),
        ...(p.assumed === true ? { assumed: true } : {}),
      };
    case 'takeback':
      return { kind: 'takeback', at, undone: Array.isArray(p.undone) ? p.undone.map(String) : [] };
    case 'correction': {
      if (typeof p.ply !== 'number' || !isMoves(p.old) || !isMoves(p.new)) return null;
      return { kind: 'correction', at, ply: p.ply, old: p.old, new: p.new, reason: p.reason === 'console' ? 'console' : 'evidence' };
    }
    case 'alert': {
      if (typeof p.code !== 'string') return null;
      const params = isParams(p.params) ? p.params : {};
      const cells = Array.isArray(p.cells) ? (p.cells as Alert['cells']) : undefined;
      const alert: Alert = { id: -event.seq, level: alertLevel(p.code), code: p.code, message: p.code, params, ...(cells ? { cells } : {}) };
      return { kind: 'alert', at, alert };
    }
    case 'answer': {
      const command = (typeof p.command === 'object' && p.command !== null ? p.command : {}) as Record<string, unknown>;
      if (typeof command.move !== 'string') return null;
      return { kind: 'answer', at, move: command.move, byHand: command.kind === 'enter' };
    }
    case 'end':
      return { kind: 'end', at, winner: p.winner === undefined ? null : String(p.winner), reason: typeof p.reason === 'string' ? p.reason : null };
    default:
      return null;
  }
}

/** The level the session gives an alert of this code (game-session.ts): the log keeps the code only. */
export function alertLevel(code: string): Alert['level'] {
  return code.startsWith('board/') ? 'info' : code === 'referee/ambiguous' ? 'warn' : 'error';
}

/** The console's own answers that the server took: a question answered, or a move entered by hand. */
export function answerEntry(command: { readonly kind: string; readonly move?: string }, at: number): JournalEntry | null {
  if ((command.kind !== 'choose' && command.kind !== 'enter') || command.move === undefined) return null;
  return { kind: 'answer', at, move: command.move, byHand: command.kind === 'enter' };
}

function isMoves(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((m) => typeof m === 'string');
}

function isParams(value: unknown): value is Readonly<Record<string, string | number>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number');
}
