// Checking a game read from a file before anything is written: every move through the engine,
// the declared result against the moves, the events (JSON) against the record they make.
import { EVENT_KINDS } from '../store/index.ts';
import { correctionOf } from '../session/index.ts';
import type { GameSource, ImportedGame, NewEvent, Players } from '../store/index.ts';
import type { GameName } from '../rules/index.ts';
import { ImportError } from './errors.ts';
import { RecordPlayer, playAll } from './play.ts';
import { winnersOf } from './seats.ts';
import { reasonIn, winnerIn } from './portable.ts';

/** A game as a file states it, not yet checked. */
export interface DeclaredGame {
  /** Which game of the file, from 1. */
  readonly index: number;
  /** The line it starts on, where the format has lines. */
  readonly line?: number;
  readonly game: GameName;
  /** The `[Options]` header or `options` field as parsed JSON; undefined when not given. */
  readonly options: unknown;
  /** A record's headers, which may set options too (`[Players "3"]`). */
  readonly headers?: ReadonlyMap<string, string>;
  readonly players: Players;
  readonly boardId: string;
  readonly source: GameSource;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  /** JSON's whole result object (null: none); undefined when the file does not give one. */
  readonly result?: unknown;
  /** The winner a text or CSV record declares; null for `*` or none. */
  readonly winner?: string | null;
  readonly reason?: string | null;
  readonly moves: readonly string[] | null;
  /** JSON's event list, as read. */
  readonly events?: readonly unknown[] | null;
}

export interface CheckedGame {
  readonly index: number;
  readonly moves: readonly string[];
  readonly game: ImportedGame;
}

const MAX_NAME = 200;

/** Checks one declared game; throws an ImportError naming the game (and ply) on the first problem. */
export function checkGame(declared: DeclaredGame, importedAt: number): CheckedGame {
  const at = { game: declared.index, ...(declared.line !== undefined ? { line: declared.line } : {}) };
  const label = `Game ${declared.index}${declared.line !== undefined ? ` (line ${declared.line})` : ''}`;
  const fail = (code: ConstructorParameters<typeof ImportError>[0], why: string, more: object = {}): never => {
    throw new ImportError(code, `${label}: ${why}`, { ...at, ...more });
  };

  const started = RecordPlayer.start(declared.game, declared.options ?? {}, declared.headers);
  if (!started.ok) return fail('import/bad-options', `the ${declared.game} options are refused: ${started.error.message}`, { rule: started.error.code });
  const player = started.player;

  for (const [seat, name] of Object.entries(declared.players)) {
    if (typeof name !== 'string' || name.length > MAX_NAME || /[\r\n]/.test(name)) {
      fail('import/bad-field', `the name at seat ${seat} must be one line of at most ${MAX_NAME} characters`);
    }
  }

  const startedAt = declared.startedAt ?? importedAt;
  let events: NewEvent[];
  let endAt: number | null = declared.endedAt;
  let endResult: { given: boolean; value: unknown } = { given: false, value: null };

  if (declared.events) {
    events = [];
    for (const [i, raw] of declared.events.entries()) {
      const where = `event ${i + 1}`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('import/bad-event', `${where} is not an object`);
      const e = raw as { seq?: unknown; at?: unknown; kind?: unknown; payload?: unknown };
      if (e.seq !== undefined && e.seq !== i + 1) fail('import/bad-event', `events must be numbered 1, 2, 3, … in order; ${where} says seq ${JSON.stringify(e.seq)}`);
      if (typeof e.at !== 'number' || !Number.isSafeInteger(e.at) || e.at < 0) fail('import/bad-time', `${where}: at must be milliseconds since the epoch`);
      const kind = e.kind;
      if (typeof kind !== 'string' || !(EVENT_KINDS as readonly string[]).includes(kind)) {
        fail('import/bad-event', `${where}: kind must be one of ${EVENT_KINDS.join(', ')}, not ${JSON.stringify(kind)}`);
      }
      const payload = e.payload === undefined ? null : e.payload;
      if (kind === 'end') {
        if (i !== declared.events.length - 1) fail('import/bad-event', `${where} ends the game, but more events follow it`);
        if (endAt !== null && endAt !== e.at) fail('import/inconsistent', `endedAt and the end event's time differ`);
        endAt = e.at as number;
        endResult = { given: true, value: payload };
        continue;
      }
      if (kind === 'move') {
        const p = payload as { move?: unknown; ply?: unknown } | null;
        if (typeof p?.move !== 'string' || !Number.isSafeInteger(p.ply) || (p.ply as number) < 1) {
          fail('import/bad-event', `${where}: a move event's payload must be {"move": "<token>", "ply": <n ≥ 1>}`);
        }
        const ply = (p as { ply: number }).ply;
        const move = (p as { move: string }).move;
        if (ply - 1 > player.plies) fail('import/bad-event', `${where}: a move at ply ${ply} cannot follow a record of ${player.plies} moves`, { ply, move });
        player.truncate(ply - 1);
        const error = player.play(move);
        if (error) fail('import/bad-move', `ply ${ply} ("${move}") is not legal: ${error.message}`, { ply, move, rule: error.code });
      } else if (kind === 'takeback') {
        const ply = (payload as { ply?: unknown } | null)?.ply;
        if (!Number.isSafeInteger(ply) || (ply as number) < 0 || (ply as number) > player.plies) {
          fail('import/bad-event', `${where}: a take-back's payload must say how many moves remain ("ply", 0 to ${player.plies})`);
        }
        player.truncate(ply as number);
      } else if (kind === 'correction') {
        const correction =
          correctionOf(payload) ??
          fail('import/bad-event', `${where}: a correction's payload must be {"ply": <n ≥ 1>, "old": [<moves>], "new": [<moves>], "reason": "evidence" | "console"}`);
        if (correction.ply - 1 > player.plies) {
          fail('import/bad-event', `${where}: a correction from ply ${correction.ply} cannot follow a record of ${player.plies} moves`, { ply: correction.ply });
        }
        // As recordOf reads it: the record cut before the ply, then the new moves played.
        player.truncate(correction.ply - 1);
        for (const [i, move] of correction.new.entries()) {
          const ply = correction.ply + i;
          const error = player.play(move);
          if (error) fail('import/bad-move', `ply ${ply} ("${move}") is not legal: ${error.message}`, { ply, move, rule: error.code });
        }
      }
      events.push({ kind: kind as NewEvent['kind'], at: e.at as number, payload });
    }
    if (declared.moves && !sameList(declared.moves, player.moves)) {
      fail('import/inconsistent', `its moves (${declared.moves.length}) are not the record its events make (${player.plies})`);
    }
  } else {
    const bad = playAll(player, declared.moves ?? []);
    if (bad) fail('import/bad-move', `ply ${bad.ply} ("${bad.move}") is not legal: ${bad.error.message}`, { ply: bad.ply, move: bad.move, rule: bad.error.code });
    events = player.moves.map((move, i) => ({ kind: 'move', at: startedAt, payload: { move, ply: i + 1 } }));
  }

  // The result: what the moves decide, else what the file declares.
  const summary = player.summary();
  const given = endResult.given ? endResult.value : declared.result;
  if (endResult.given && declared.result !== undefined && !deepEqual(declared.result, endResult.value)) {
    fail('import/inconsistent', 'its result and its end event say different things');
  }
  const declaredWinner = given !== undefined ? winnerIn(given) : (declared.winner ?? null);
  const declaredReason = given !== undefined ? reasonIn(given) : (declared.reason ?? null);
  let result: unknown;
  if (summary.over) {
    if (declaredWinner !== null && declaredWinner !== summary.winner) {
      fail('import/wrong-result', `the result says ${declaredWinner}, but the moves end the game with ${summary.winner === 'draw' ? 'a draw' : `${summary.winner} winning`}`);
    }
    result =
      given !== undefined && given !== null && declaredWinner !== null
        ? given
        : { winner: summary.winner, reason: player.reason(), ...(declared.game === 'kalaha' ? { stores: (summary.position as { stores: unknown }).stores } : {}) };
  } else {
    const winners = winnersOf(declared.game, player.options);
    if (declaredWinner !== null && !winners.includes(declaredWinner)) {
      fail('import/wrong-result', `the result ${JSON.stringify(declaredWinner)} is none of ${winners.join(', ')}`);
    }
    // A game may end off the record: by agreement, or abandoned.
    result = given !== undefined ? given : declaredWinner !== null ? { winner: declaredWinner, ...(declaredReason ? { reason: declaredReason } : {}) } : declaredReason ? { reason: declaredReason } : null;
  }

  const lastEventAt = events.length ? events[events.length - 1].at : startedAt;
  const endedAt = endAt ?? Math.max(startedAt, lastEventAt);
  if (endedAt < startedAt) fail('import/bad-time', 'it ends before it starts');

  return {
    index: declared.index,
    moves: [...player.moves],
    game: {
      game: declared.game,
      options: player.options,
      players: declared.players,
      boardId: declared.boardId,
      source: declared.source,
      startedAt,
      events,
      end: { at: endedAt, result },
      importedAt,
    },
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Equality of JSON values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
