// A game log that cannot be written (a full disk): the session holds the events in order, shows no move the log
// does not hold, tells every page why, and writes and shows them, each once, as soon as the log takes them again.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { KalahaSession, recordOf } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS, PITS, type KalahaState } from '../../server/rules/kalaha.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { GameLogWriteError } from '../../server/store/index.ts';
import { Table, playOn, start } from '../referee/table.ts';
import { memoryLog, type MemoryLog } from '../support/memory-log.ts';

const pit = (name: string) => PITS.indexOf(name as (typeof PITS)[number]);
type Sync = Extract<ServerMessage, { type: 'sync' }>;

/** A Kalaha table and a fresh session on it; `retryMs` long unless a test is about the timer. */
function game(retryMs = 3_600_000, failing: 'disk-full' | null = null) {
  const { table, state } = start({ seed: 5 });
  const log = memoryLog();
  log.failWrites(failing);
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'serial', log, retryMs });
  const seen: ServerMessage[] = [];
  session.subscribe((m) => seen.push(m));
  let fed = 0;
  let now = state;
  const feed = () => {
    for (; fed < table.frames.length; fed++) session.frame(table.frames[fed].t, table.frames[fed].tenths);
  };
  const play = (...names: string[]) => {
    for (const name of names) now = playOn(table, now, { kind: 'sow', pit: pit(name) });
    feed();
  };
  feed();
  return { table: table as Table, log, session, seen, play, state: () => now as KalahaState };
}

const updates = (seen: ServerMessage[]) => seen.flatMap((m) => (m.type === 'update' ? [m] : []));
const boards = (seen: ServerMessage[]) => seen.flatMap((m) => (m.type === 'board' ? [m.board] : []));
const moves = (log: MemoryLog) => log.events.filter((e) => e.kind === 'move').map((e) => (e.payload as { move: string }).move);

afterEach(() => {
  vi.useRealTimers();
});

describe('a game log that cannot be written', () => {
  test('a move it cannot take is not shown; every page is told why; it is shown once it is written', () => {
    const { log, session, seen, play } = game();
    play('C');
    expect(updates(seen).map((u) => u.move)).toEqual(['C']);
    const shownBefore = seen.length;

    log.failWrites('disk-full');
    play('e', 'F');
    // The referee saw both moves; the log holds neither, so no page is shown them.
    expect(session.record()).toEqual(['C', 'e', 'F']);
    expect(moves(log)).toEqual(['C']);
    expect(updates(seen.slice(shownBefore))).toEqual([]);
    expect(boards(seen.slice(shownBefore)).at(-1)?.log).toEqual({ unwritable: 'disk-full', held: 2 });
    // A page that connects now sees the game as the others do, and why it stands still.
    const sync = session.sync() as Sync;
    expect(sync.record).toEqual(['C']);
    expect(sync.board.log).toEqual({ unwritable: 'disk-full', held: 2 });
    expect(session.logTrouble).toEqual({ reason: 'disk-full', held: 2 });
    // The console acts on the game the pages show: nothing is done while the log waits.
    expect(session.command(session.currentStateId, { kind: 'undo' })).toMatchObject({ ok: false, error: 'store/unwritable', params: { reason: 'disk-full' } });
    session.tryLogAgain();
    expect(moves(log)).toEqual(['C']);

    log.failWrites(null);
    session.tryLogAgain();
    // Written in order, each once, and only then shown, in order.
    expect(moves(log)).toEqual(['C', 'e', 'F']);
    expect(recordOf(log.events)).toEqual(['C', 'e', 'F']);
    const shown = updates(seen.slice(shownBefore));
    expect(shown.map((u) => u.move)).toEqual(['e', 'F']);
    expect(shown.map((u) => u.record)).toEqual([['C', 'e'], ['C', 'e', 'F']]);
    expect(shown[1].stateId).toBe(shown[0].stateId + 1);
    expect(boards(seen).at(-1)?.log).toBeUndefined();
    expect((session.sync() as Sync).record).toEqual(['C', 'e', 'F']);
    expect(session.logTrouble).toBeNull();
    expect(log.refused).toBeGreaterThan(2);
  });

  test('the next event tries again: what waited is written and shown before it', () => {
    const { log, seen, play } = game();
    play('C');
    log.failWrites('read-only');
    play('e');
    expect(boards(seen).at(-1)?.log).toEqual({ unwritable: 'read-only', held: 1 });
    log.failWrites(null);
    play('F');
    expect(moves(log)).toEqual(['C', 'e', 'F']);
    expect(updates(seen).map((u) => u.move)).toEqual(['C', 'e', 'F']);
    expect(boards(seen).at(-1)?.log).toBeUndefined();
  });

  test('the session tries again by itself: after retryMs, then less and less often', () => {
    vi.useFakeTimers();
    const { log, seen, play } = game(2000);
    play('C');
    log.failWrites('gone');
    play('e');
    const refused = log.refused;
    vi.advanceTimersByTime(2000);
    expect(log.refused).toBe(refused + 1);
    // The next try waits twice as long.
    vi.advanceTimersByTime(3999);
    expect(log.refused).toBe(refused + 1);
    log.failWrites(null);
    expect(updates(seen).map((u) => u.move)).toEqual(['C']);
    vi.advanceTimersByTime(1);
    expect(moves(log)).toEqual(['C', 'e']);
    expect(updates(seen).map((u) => u.move)).toEqual(['C', 'e']);
  });

  test("a game's first write, its row, waits too, and the moves after it", () => {
    // Failing before the table is calibrated, when the game gets its row.
    const { log, seen, play, session } = game(undefined, 'disk-full');
    play('C');
    expect(log.games).toEqual([]);
    expect(updates(seen)).toEqual([]);
    expect(session.currentGameId).toBeNull();
    log.failWrites(null);
    session.tryLogAgain();
    expect(log.games).toHaveLength(1);
    expect(moves(log)).toEqual(['C']);
    expect(updates(seen).map((u) => [u.move, u.gameId])).toEqual([['C', 1]]);
  });

  test('the setup page cannot end the game while events wait; once they are written it ends it, once', () => {
    const { log, play, session } = game();
    play('C');
    log.failWrites('disk-full');
    play('e');
    expect(() => session.closeGame({ winner: 'south', reason: 'declared' })).toThrow(GameLogWriteError);
    expect(session.gameOpen).toBe(true);
    log.failWrites(null);
    expect(session.closeGame({ winner: 'south', reason: 'declared' })).toBe(1);
    expect(moves(log)).toEqual(['C', 'e']);
    expect(log.ended).toHaveLength(1);
    // The fake refuses what the real store refuses: nothing more is written to an ended game.
    expect(() => log.append(1, { kind: 'move', at: 1, payload: {} })).toThrow(/has ended/);
  });
});
