// A referee's correction of the record and its assumed moves, through every game's session: the correction is
// logged before any page sees it, the update carries the corrected record, an assumed move is logged and broadcast
// as such, and a game resumed from the log after a correction goes on from the corrected record.
import { describe, expect, test } from 'vitest';
import {
  AduSession,
  KalahaSession,
  MakisSession,
  MalawiSession,
  recordOf,
  resumeOf,
  type GameSession,
  type SessionEvent,
  type SessionLog,
} from '../../server/session/index.ts';
import { DEFAULT_OPTIONS as KALAHA } from '../../server/rules/kalaha.ts';
import { DEFAULT_OPTIONS as MALAWI } from '../../server/rules/malawi.ts';
import { DEFAULT_OPTIONS as MAKIS } from '../../server/rules/makis.ts';
import { DEFAULT_OPTIONS as ADU } from '../../server/rules/adu.ts';
import type { ServerMessage } from '../../server/http/messages.ts';

/** A game log in memory that notes, for each event written, what the pages had been told by then. */
function watchedLog(seen: readonly ServerMessage[]) {
  const events: { kind: string; payload: unknown; pagesHad: number }[] = [];
  const log: SessionLog = {
    startGame: () => 1,
    append: (_id, event) => {
      events.push({ kind: event.kind, payload: event.payload, pagesHad: seen.length });
      return events.length;
    },
    endGame: () => events.length + 1,
  };
  return { log, events };
}

/**
 * A session whose referee says `events` at the next frame and then holds `record` (the referee rewrites its own
 * record before it reports the correction): the session only passes events on, so a stand-in referee is enough.
 */
function withReferee(session: GameSession & { referee: { frame: unknown; record: unknown } }, events: readonly SessionEvent[], record: () => string[]) {
  session.referee.frame = () => events;
  session.referee.record = record;
}

const CORRECTION: SessionEvent = { kind: 'correction', t: 300, ply: 2, old: ['c', 'B'], new: ['e', 'B'], reason: 'evidence' };

describe.each([
  ['kalaha', (log: SessionLog) => new KalahaSession({ rules: KALAHA, boardId: 'test', source: 'serial', log }), (s: GameSession) => (s as KalahaSession).frame(0, new Array(14).fill(0))],
  ['malawi', (log: SessionLog) => new MalawiSession({ rules: MALAWI, boardId: 'test', source: 'serial', log }), (s: GameSession) => (s as MalawiSession).frame(0, { type: 'grid', bits: new Uint8Array(36) } as never)],
  ['makis', (log: SessionLog) => new MakisSession({ rules: MAKIS, boardId: 'test', source: 'serial', log }), (s: GameSession) => (s as MakisSession).frame(0, { type: 'grid', bits: new Uint8Array(81) } as never)],
  ['adu', (log: SessionLog) => new AduSession({ rules: ADU, boardId: 'test', source: 'serial', log }), (s: GameSession) => (s as AduSession).frame(0, { type: 'grid', bits: new Uint8Array(169) } as never)],
])('the %s session', (_game, open, frame) => {
  test('logs a correction before any page sees it, and broadcasts the corrected record with it', () => {
    const seen: ServerMessage[] = [];
    const { log, events } = watchedLog(seen);
    const session = open(log) as GameSession & { referee: { frame: unknown; record: unknown } };
    session.subscribe((m) => seen.push(m));
    let record = ['A', 'c', 'B'];
    withReferee(
      session,
      [
        { kind: 'move', t: 100, move: 'A', ply: 1 },
        { kind: 'move', t: 200, move: 'c', ply: 2, assumed: true },
        { kind: 'move', t: 250, move: 'B', ply: 3 },
      ],
      () => record,
    );
    frame(session);
    record = ['A', 'e', 'B'];
    withReferee(session, [CORRECTION], () => record);
    frame(session);

    expect(events.map((e) => e.kind)).toEqual(['move', 'move', 'move', 'correction']);
    expect(events[1].payload).toEqual({ move: 'c', ply: 2, assumed: true });
    expect(events[3].payload).toEqual({ ply: 2, old: ['c', 'B'], new: ['e', 'B'], reason: 'evidence' });
    const updates = seen.flatMap((m) => (m.type === 'update' ? [m] : []));
    expect(updates.find((u) => u.move === 'c')).toMatchObject({ event: 'move', assumed: true });
    const corrected = updates.find((u) => u.event === 'correction');
    expect(corrected).toMatchObject({ correction: { ply: 2, old: ['c', 'B'], new: ['e', 'B'], reason: 'evidence' }, record: ['A', 'e', 'B'] });
    // Written before the first page heard of it.
    expect(events[3].pagesHad).toBe(seen.indexOf(corrected as ServerMessage));
    expect(recordOf(events)).toEqual(['A', 'e', 'B']);
  });
});

describe('resumed after a correction', () => {
  test('the Kalaha game goes on from the corrected record', () => {
    const seen: ServerMessage[] = [];
    const { log, events } = watchedLog(seen);
    const session = new KalahaSession({ rules: KALAHA, boardId: 'test', source: 'serial', log });
    let record = ['A', 'c', 'B'];
    withReferee(
      session as never,
      ['A', 'c', 'B'].map((move, i): SessionEvent => ({ kind: 'move', t: i * 100, move, ply: i + 1 })),
      () => record,
    );
    session.frame(0, new Array(14).fill(0));
    record = ['A', 'e', 'B'];
    withReferee(session as never, [CORRECTION], () => record);
    session.frame(300, new Array(14).fill(0));

    const resumed = new KalahaSession({ rules: KALAHA, boardId: 'test', source: 'serial', log, resume: { gameId: 1, ...resumeOf(events) } });
    expect(resumed.record()).toEqual(['A', 'e', 'B']);
    expect(resumed.view().toMove).toBe('north');
  });
});

describe('recordOf and resumeOf read a correction', () => {
  const move = (move: string, ply: number) => ({ kind: 'move', payload: { move, ply } });
  const correction = (ply: number, old: string[], now: string[], reason = 'evidence') => ({ kind: 'correction', payload: { ply, old, new: now, reason } });

  test('the record is cut before its ply and goes on with its new moves, shorter or longer', () => {
    const moves = [move('A', 1), move('c', 2), move('B', 3)];
    expect(recordOf([...moves, correction(2, ['c', 'B'], ['e'])])).toEqual(['A', 'e']);
    expect(recordOf([...moves, correction(3, ['B'], ['C', 'd'])])).toEqual(['A', 'c', 'C', 'd']);
    expect(recordOf([...moves, correction(2, ['c', 'B'], [])])).toEqual(['A']);
    // Moves after it follow it as after any other move.
    expect(recordOf([...moves, correction(2, ['c', 'B'], ['e']), move('F', 3)])).toEqual(['A', 'e', 'F']);
  });

  test('a payload that is no correction changes nothing', () => {
    const moves = [move('A', 1), move('c', 2)];
    for (const payload of [null, { ply: 0, old: [], new: ['x'], reason: 'evidence' }, { ply: 2, old: 'c', new: ['e'], reason: 'evidence' }, { ply: 2, old: ['c'], new: ['e'], reason: 'guess' }]) {
      expect(recordOf([...moves, { kind: 'correction', payload }])).toEqual(['A', 'c']);
    }
  });

  test("a console answer that brought a correction is about the corrected moves; one given before is not", () => {
    const events = [
      move('A', 1),
      { kind: 'answer', payload: { command: { kind: 'enter', move: 'x' } } },
      move('c', 2),
      move('B', 3),
      { kind: 'answer', payload: { command: { kind: 'choose', questionId: 4, move: 'e' } } },
      correction(2, ['c', 'B'], ['e', 'B'], 'console'),
    ];
    const { moves, answers } = resumeOf(events);
    expect(moves).toEqual(['A', 'e', 'B']);
    expect(answers).toEqual([
      { move: 'x', plies: [1] },
      { move: 'e', plies: [1, 2, 3] },
    ]);
  });
});
