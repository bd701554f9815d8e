// A correction of the record and an assumed move on the pages, without a browser: the sentence the display and the
// console show in both languages, how long the display keeps it, what the table state remembers of it, and the
// console's event list (from the WebSocket and from the game log).
import { describe, expect, test } from 'vitest';
import type { ServerMessage } from '../../server/http/messages.ts';
import { EMPTY_TABLE, applyMessage, type TableState } from '../../web/src/connection/state.ts';
import { correctionLine } from '../../web/src/common/present.ts';
import { CORRECTION_SHOWN_MS, correctionShown, isIdle } from '../../web/src/display/idle.ts';
import { entriesBetween, fromLog } from '../../web/src/referee/journal.ts';
import { eventLine } from '../../web/src/tournament/summary.ts';

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
const sync = (): ServerMessage => ({ type: 'sync', stateId: 0, game: 'kalaha', record: [], view: VIEW, alerts: [], board: BOARD });
const update = (stateId: number, event: 'move' | 'correction' | 'new-game', record: string[], extra: object = {}): ServerMessage =>
  ({ type: 'update', stateId, event, record, view: VIEW, ...extra }) as ServerMessage;
const fold = (...messages: ServerMessage[]): TableState => messages.reduce(applyMessage, EMPTY_TABLE);
const CORRECTION = { ply: 2, old: ['c'], new: ['e'], reason: 'evidence' } as const;

describe('the sentence', () => {
  test('one move, in both languages', () => {
    expect(correctionLine('de', { ply: 38, old: ['c'], new: ['e'] })).toBe('Korrektur: Zug 38 war e, nicht c');
    expect(correctionLine('en', { ply: 38, old: ['c'], new: ['e'] })).toBe('Correction: move 38 was e, not c');
  });

  test('several plies are listed, whichever side is longer', () => {
    expect(correctionLine('de', { ply: 38, old: ['c', 'D'], new: ['e', 'F'] })).toBe('Korrektur: Züge 38–39 waren e und F, nicht c und D');
    expect(correctionLine('en', { ply: 38, old: ['c'], new: ['e', 'F', 'a'] })).toBe('Correction: moves 38–40 were e, F, and a, not c');
  });

  test('moves that were never played, and moves that were missed', () => {
    expect(correctionLine('en', { ply: 12, old: ['d4-d5'], new: [] })).toBe('Correction: move 12 (d4-d5) was not played');
    expect(correctionLine('de', { ply: 12, old: ['d4-d5', 'e7-e6'], new: [] })).toBe('Korrektur: Züge 12–13 (d4-d5 und e7-e6) wurden nicht gespielt');
    expect(correctionLine('de', { ply: 5, old: [], new: ['B'] })).toBe('Korrektur: Zug 5 war B, übersehen');
    expect(correctionLine('en', { ply: 5, old: [], new: ['B', 'c'] })).toBe('Correction: moves 5–6 were B and c, missed');
  });

  test('the tournament page words it the same', () => {
    expect(eventLine('en', { seq: 3, gameId: 1, event: 'correction', correction: CORRECTION, at: 0 })).toBe('Correction: move 2 was e, not c');
  });
});

describe('the table state', () => {
  test('keeps the last correction through later moves, with the corrected record; a new game or a sync forgets it', () => {
    const moved = fold(sync(), update(1, 'move', ['C']), update(2, 'move', ['C', 'c']));
    expect(moved.lastCorrection).toBeNull();
    const corrected = applyMessage(moved, update(3, 'correction', ['C', 'e'], { correction: CORRECTION }));
    expect(corrected.record).toEqual(['C', 'e']);
    expect(corrected.lastEvent).toEqual({ event: 'correction', correction: CORRECTION });
    expect(corrected.lastCorrection).toEqual(CORRECTION);
    const later = applyMessage(corrected, update(4, 'move', ['C', 'e', 'D']));
    expect(later.lastCorrection).toBe(corrected.lastCorrection);
    expect(applyMessage(later, update(5, 'new-game', [])).lastCorrection).toBeNull();
    expect(applyMessage(later, sync()).lastCorrection).toBeNull();
  });

  test('the display shows a correction for a while after it saw it', () => {
    expect(correctionShown(1000, 1000)).toBe(true);
    expect(correctionShown(1000, 1000 + CORRECTION_SHOWN_MS - 1)).toBe(true);
    expect(correctionShown(1000, 1000 + CORRECTION_SHOWN_MS)).toBe(false);
    expect(correctionShown(Number.NEGATIVE_INFINITY, 0)).toBe(false);
  });

  test('a question play goes on without keeps nobody from the idle screen; one that waits does', () => {
    const asked = (blocking?: false): TableState => ({
      ...fold(sync(), update(1, 'move', ['C'])),
      questions: [{ id: 1, code: 'referee/ambiguous', message: '', params: {}, options: ['a', 'b'], ...(blocking === false ? { blocking } : {}) }],
    });
    const longAgo = -10 * 3_600_000;
    expect(isIdle(asked(false), longAgo, 0)).toBe(true);
    expect(isIdle(asked(), longAgo, 0)).toBe(false);
  });
});

describe("the console's event list", () => {
  test('a correction and an assumed move from the WebSocket', () => {
    const synced = fold(sync());
    const moved = applyMessage(synced, update(1, 'move', ['c'], { move: 'c', assumed: true }));
    expect(entriesBetween(synced, moved, 5)).toEqual([{ kind: 'move', at: 5, move: 'c', ply: 1, assumed: true }]);
    const corrected = applyMessage(moved, update(2, 'correction', ['e'], { correction: { ...CORRECTION, ply: 1 } }));
    expect(entriesBetween(moved, corrected, 6)).toEqual([{ kind: 'correction', at: 6, ply: 1, old: ['c'], new: ['e'], reason: 'evidence' }]);
  });

  test('a correction and an assumed move from the game log', () => {
    expect(fromLog({ seq: 4, at: 9, kind: 'correction', payload: { ply: 38, old: ['c'], new: ['e'], reason: 'console' } })).toEqual({
      kind: 'correction',
      at: 9,
      ply: 38,
      old: ['c'],
      new: ['e'],
      reason: 'console',
    });
    expect(fromLog({ seq: 4, at: 9, kind: 'correction', payload: { ply: 38, old: 'c' } })).toBeNull();
    expect(fromLog({ seq: 3, at: 8, kind: 'move', payload: { move: 'c', ply: 38, assumed: true } })).toEqual({ kind: 'move', at: 8, move: 'c', ply: 38, assumed: true });
  });
});
