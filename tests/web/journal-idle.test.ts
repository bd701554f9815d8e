// The console's event list and the display's idle screen, without a browser: what each message adds, how the game
// log's answer replaces the live entries it covers, a new game's fresh list; when the display rests and wakes.
import { describe, expect, test } from 'vitest';
import type { Alert, ServerMessage } from '../../server/http/messages.ts';
import { EMPTY_TABLE, applyMessage, type TableState } from '../../web/src/connection/state.ts';
import { EMPTY_JOURNAL, addLive, addLogged, entriesBetween, fromLog, journalEntries } from '../../web/src/referee/journal.ts';
import { alertsToSound } from '../../web/src/referee/alarm.ts';
import { IDLE_AFTER_END_MS, IDLE_AFTER_QUIET_MS, IDLE_BEFORE_FIRST_MOVE_MS, isActivity, isIdle, wantsFullscreen } from '../../web/src/display/idle.ts';

const VIEW = {
  game: 'kalaha',
  pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
  stores: { south: 0, north: 0 },
  toMove: 'south',
  outcome: null,
  lastMove: null,
  pending: [],
} as const;
const BOARD = { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 10, dropped: 0 } as const;
const sync = (extra: object = {}): ServerMessage => ({ type: 'sync', stateId: 0, game: 'kalaha', record: [], view: VIEW, alerts: [], board: BOARD, ...extra }) as ServerMessage;
const move = (stateId: number, m: string, record: string[], gameId?: number): ServerMessage =>
  ({ type: 'update', stateId, event: 'move', move: m, record, view: VIEW, ...(gameId ? { gameId } : {}) }) as ServerMessage;
const alert = (id: number, code = 'referee/mismatch', level: Alert['level'] = 'error'): Alert => ({ id, level, code, message: code, params: {} });
const fold = (...messages: ServerMessage[]): TableState => messages.reduce(applyMessage, EMPTY_TABLE);

describe('the event list', () => {
  test('a move, a take-back and a new alert become entries; a sync brings none', () => {
    const synced = fold(sync());
    expect(entriesBetween(EMPTY_TABLE, synced, 1)).toEqual([]);
    const moved = applyMessage(synced, move(1, 'C', ['C'], 7));
    expect(moved.gameId).toBe(7);
    expect(entriesBetween(synced, moved, 2)).toEqual([{ kind: 'move', at: 2, move: 'C', ply: 1 }]);
    const back = applyMessage(moved, { type: 'update', stateId: 2, event: 'takeback', undone: ['C'], record: [], view: VIEW } as ServerMessage);
    expect(back.gameId).toBe(7);
    expect(entriesBetween(moved, back, 3)).toEqual([{ kind: 'takeback', at: 3, undone: ['C'] }]);
    const alerted = applyMessage(back, { type: 'alert', stateId: 2, alert: alert(4) });
    expect(entriesBetween(back, alerted, 4)).toEqual([{ kind: 'alert', at: 4, alert: alert(4) }]);
  });

  test("the log's answer replaces the live entries it covers and keeps those that came later", () => {
    let journal = addLive(EMPTY_JOURNAL, [{ kind: 'move', at: 10, move: 'C', ply: 1 }], 7);
    const covered = journal.liveSeq;
    journal = addLive(journal, [{ kind: 'move', at: 11, move: 'd', ply: 2 }], 7);
    journal = addLogged(journal, 7, [{ seq: 1, at: 5, kind: 'move', payload: { move: 'C', ply: 1 } }], covered);
    expect(journalEntries(journal, 10).map((e) => [e.kind, e.seq, e.at])).toEqual([
      ['move', 0, 11],
      ['move', 1, 5],
    ]);
    // Asked again: only what is new is read, and the live entry goes.
    journal = addLogged(journal, 7, [{ seq: 2, at: 6, kind: 'move', payload: { move: 'd', ply: 2 } }], journal.liveSeq);
    expect(journal.lastSeq).toBe(2);
    expect(journalEntries(journal, 10).map((e) => e.seq)).toEqual([2, 1]);
    // An answer about another game changes nothing.
    expect(addLogged(journal, 8, [{ seq: 3, at: 7, kind: 'move', payload: { move: 'e', ply: 3 } }], 0)).toBe(journal);
  });

  test('a new game starts a fresh list; a game that gets its first id keeps its own', () => {
    let journal = addLive(EMPTY_JOURNAL, [{ kind: 'alert', at: 1, alert: alert(1) }], null);
    journal = addLive(journal, [{ kind: 'move', at: 2, move: 'C', ply: 1 }], 7);
    expect(journal.gameId).toBe(7);
    expect(journalEntries(journal, 10)).toHaveLength(2);
    journal = addLive(journal, [{ kind: 'new-game', at: 3 }], null);
    expect(journal.gameId).toBeNull();
    expect(journalEntries(journal, 10).map((e) => e.kind)).toEqual(['new-game']);
    journal = addLive(addLive(EMPTY_JOURNAL, [{ kind: 'move', at: 2, move: 'C', ply: 1 }], 7), [], 9);
    expect(journalEntries(journal, 10)).toEqual([]);
  });

  test('a run of alerts of one code shows as its newest, counted', () => {
    const journal = addLive(EMPTY_JOURNAL, [
      { kind: 'alert', at: 1, alert: alert(1) },
      { kind: 'alert', at: 2, alert: alert(2) },
      { kind: 'alert', at: 3, alert: alert(3) },
      { kind: 'move', at: 4, move: 'C', ply: 1 },
    ], 7);
    expect(journalEntries(journal, 10).map((e) => [e.kind, e.at, e.repeats])).toEqual([
      ['move', 4, 0],
      ['alert', 3, 2],
    ]);
  });

  test('reads every kind the session logs, and skips what it does not show', () => {
    expect(fromLog({ seq: 3, at: 9, kind: 'alert', payload: { code: 'kalaha/empty-pit', params: { pit: 'C' } } })).toMatchObject({
      kind: 'alert',
      alert: { level: 'error', code: 'kalaha/empty-pit', params: { pit: 'C' } },
    });
    expect(fromLog({ seq: 4, at: 9, kind: 'answer', payload: { command: { kind: 'enter', move: 'C' } } })).toEqual({ kind: 'answer', at: 9, move: 'C', byHand: true });
    expect(fromLog({ seq: 5, at: 9, kind: 'end', payload: { winner: 'south', reason: 'no-stones' } })).toEqual({ kind: 'end', at: 9, winner: 'south', reason: 'no-stones' });
    expect(fromLog({ seq: 6, at: 9, kind: 'note', payload: {} })).toBeNull();
    expect(fromLog({ seq: 7, at: 9, kind: 'move', payload: { move: 'C', ply: 4 } })).toEqual({ kind: 'move', at: 9, move: 'C', ply: 4 });
    // A move made while the service was down and read from the board after the restart says so.
    expect(fromLog({ seq: 8, at: 9, kind: 'move', payload: { move: 'd', ply: 5, reconstructed: true } })).toEqual({
      kind: 'move',
      at: 9,
      move: 'd',
      ply: 5,
      reconstructed: true,
    });
  });

  test('the tone sounds for a new error only', () => {
    expect(alertsToSound([alert(1)], [alert(1), alert(2, 'board/calibrated', 'info'), alert(3)]).map((a) => a.id)).toEqual([3]);
  });
});

describe('the idle screen', () => {
  const fresh = fold(sync());
  const playing = fold(sync({ record: ['C'] }));
  const over = fold(sync({ record: ['C'], view: { ...VIEW, outcome: { winner: 'south', reason: 'no-stones' } } }));

  test('a game with no move rests at once on a screen just opened, and a while after a take-back to the start', () => {
    expect(isIdle(fresh, Number.NEGATIVE_INFINITY, 0)).toBe(true);
    expect(isIdle(fresh, 0, IDLE_BEFORE_FIRST_MOVE_MS - 1)).toBe(false);
    expect(isIdle(fresh, 0, IDLE_BEFORE_FIRST_MOVE_MS)).toBe(true);
  });

  test('a result stands, then rests; a game left standing rests; a question or a warning never does', () => {
    expect(isIdle(over, 0, IDLE_AFTER_END_MS - 1)).toBe(false);
    expect(isIdle(over, 0, IDLE_AFTER_END_MS)).toBe(true);
    expect(isIdle(playing, 0, IDLE_AFTER_QUIET_MS - 1)).toBe(false);
    expect(isIdle(playing, 0, IDLE_AFTER_QUIET_MS)).toBe(true);
    expect(isIdle(applyMessage(fresh, { type: 'alert', stateId: 0, alert: alert(1) }), Number.NEGATIVE_INFINITY, 0)).toBe(false);
    expect(isIdle(applyMessage(fresh, { type: 'alert', stateId: 0, alert: alert(1, 'board/calibrated', 'info') }), Number.NEGATIVE_INFINITY, 0)).toBe(true);
    expect(isIdle(EMPTY_TABLE, Number.NEGATIVE_INFINITY, 0)).toBe(false);
  });

  test('wakes for a move or an alert, not for the first sync nor a board status', () => {
    expect(isActivity(EMPTY_TABLE, fresh)).toBe(false);
    expect(isActivity(fresh, applyMessage(fresh, move(1, 'C', ['C'])))).toBe(true);
    expect(isActivity(fresh, applyMessage(fresh, { type: 'alert', stateId: 0, alert: alert(1) }))).toBe(true);
    expect(isActivity(fresh, applyMessage(fresh, { type: 'board', board: { ...BOARD, framesPerSecond: 9 } }))).toBe(false);
  });

  test('?fullscreen asks for a kiosk screen', () => {
    expect(wantsFullscreen('?fullscreen')).toBe(true);
    expect(wantsFullscreen('?lang=de&fullscreen=1')).toBe(true);
    expect(wantsFullscreen('?fullscreen=0')).toBe(false);
    expect(wantsFullscreen('?lang=de')).toBe(false);
  });
});
