// The broadcast service's book of boards, fed by hand: order, duplicates, gaps, restarted tables.
import { describe, expect, test } from 'vitest';
import { BoardBook, topicOf, type EventPayload, type Run, type StatePayload, type StatusPayload } from '../../server/mqtt/index.ts';
import type { KalahaView } from '../../server/http/messages.ts';

const RUN: Run = { id: 'first', started: 1_000 };
const LATER: Run = { id: 'again', started: 2_000 };
const SITE = 'club';
const BOARD = 'brett-1';
const KEY = `${SITE}/${BOARD}`;

/** The record after n moves, and a view that tells them apart. */
const record = (n: number) => Array.from({ length: n }, (_, i) => 'ABCDEF'[i % 6]);
const view = (n: number): KalahaView => ({
  game: 'kalaha',
  pits: Array(12).fill(4),
  stores: { south: n, north: 0 },
  toMove: n % 2 ? 'north' : 'south',
  outcome: null,
  lastMove: null,
  pending: [],
});

function state(seq: number, run = RUN, moves = seq, alerts: StatePayload['sync']['alerts'] = []): string {
  const payload: StatePayload = {
    v: 1,
    run,
    gameId: 1,
    seq,
    at: 5_000 + seq,
    sync: {
      type: 'sync',
      stateId: seq,
      game: 'kalaha',
      record: record(moves),
      view: view(moves),
      alerts,
      questions: [],
      board: { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 },
    },
  };
  return JSON.stringify(payload);
}

function event(seq: number, run = RUN, moves = seq): string {
  const payload: EventPayload = {
    v: 1,
    run,
    gameId: 1,
    seq,
    at: 5_000 + seq,
    update: { type: 'update', stateId: seq, event: 'move', move: record(moves).at(-1), record: record(moves), view: view(moves) },
  };
  return JSON.stringify(payload);
}

const status = (s: StatusPayload['status'], run = RUN): string => JSON.stringify({ v: 1, status: s, run, ...(s === 'online' ? { game: 'kalaha', at: 1 } : {}) } satisfies StatusPayload);

const T = {
  status: topicOf(SITE, BOARD, 'status'),
  state: topicOf(SITE, BOARD, 'state'),
  events: topicOf(SITE, BOARD, 'events'),
};

describe('BoardBook', () => {
  test('a state, then events in order: each applied once, the picture follows', () => {
    const book = new BoardBook(() => 0);
    expect(book.receive(T.status, status('online')).kind).toBe('presence');
    expect(book.receive(T.state, state(2)).kind).toBe('synced');
    expect(book.receive(T.events, event(3)).kind).toBe('applied');
    expect(book.receive(T.events, event(4)).kind).toBe('applied');
    const board = book.get(KEY)!;
    expect(board.record).toEqual(record(4));
    expect(board.seq).toBe(4);
    expect(board.presence).toBe('online');
    expect(board.recent.map((e) => e.seq)).toEqual([3, 4]);
    expect(board.counts).toEqual({ applied: 2, duplicates: 0, gaps: 0, syncs: 1 });
  });

  test("a correction reaches the board's latest events when it is well formed, and only then", () => {
    const book = new BoardBook(() => 0);
    book.receive(T.state, state(2));
    const corrected = (seq: number, correction: unknown) =>
      JSON.stringify({ v: 1, run: RUN, gameId: 1, seq, at: 5_000 + seq, update: { type: 'update', stateId: seq, event: 'correction', correction, record: record(2), view: view(2) } });
    expect(book.receive(T.events, corrected(3, { ply: 2, old: ['A'], new: ['B'], reason: 'evidence' })).kind).toBe('applied');
    expect(book.receive(T.events, corrected(4, { ply: 2, old: 'A', new: ['B'], reason: 'evidence' })).kind).toBe('applied');
    expect(book.get(KEY)!.recent.map((e) => [e.event, e.correction])).toEqual([
      ['correction', { ply: 2, old: ['A'], new: ['B'], reason: 'evidence' }],
      ['correction', undefined],
    ]);
  });

  test('an event delivered twice is dropped the second time', () => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    book.receive(T.events, event(1));
    book.receive(T.events, event(2));
    expect(book.receive(T.events, event(2)).kind).toBe('duplicate');
    expect(book.receive(T.events, event(1)).kind).toBe('duplicate');
    const board = book.get(KEY)!;
    expect(board.record).toEqual(record(2));
    expect(board.recent.map((e) => e.seq)).toEqual([1, 2]);
    expect(board.counts.duplicates).toBe(2);
  });

  test('the state that follows its own event changes nothing', () => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    book.receive(T.events, event(1));
    expect(book.receive(T.state, state(1)).kind).toBe('ignored');
  });

  test('a gap: the board waits for a state at least as new as the first event it missed', () => {
    const book = new BoardBook();
    book.receive(T.state, state(1));
    expect(book.receive(T.events, event(4)).kind).toBe('gap');
    expect(book.get(KEY)!.resyncFrom).toBe(4);
    // Later events cannot be added to a picture with a hole either.
    expect(book.receive(T.events, event(5)).kind).toBe('gap');
    expect(book.get(KEY)!.record).toEqual(record(1));
    // A state older than the missing event moves the picture on but does not close the gap.
    expect(book.receive(T.state, state(3)).kind).toBe('synced');
    expect(book.get(KEY)!.resyncFrom).toBe(4);
    expect(book.receive(T.state, state(5)).kind).toBe('synced');
    expect(book.get(KEY)!.resyncFrom).toBe(0);
    expect(book.receive(T.events, event(6)).kind).toBe('applied');
    expect(book.get(KEY)!.record).toEqual(record(6));
    expect(book.get(KEY)!.counts.gaps).toBe(1);
  });

  test('a run’s first event needs no state before it; a later one does', () => {
    const fresh = new BoardBook();
    expect(fresh.receive(T.events, event(1)).kind).toBe('applied');
    expect(fresh.get(KEY)!.record).toEqual(record(1));
    const late = new BoardBook();
    expect(late.receive(T.events, event(3)).kind).toBe('gap');
    expect(late.receive(T.state, state(3)).kind).toBe('synced');
    expect(late.receive(T.events, event(4)).kind).toBe('applied');
  });

  test('a retained state older than the picture does not take it back', () => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    for (let seq = 1; seq <= 5; seq++) book.receive(T.events, event(seq));
    expect(book.receive(T.state, state(3)).kind).toBe('ignored');
    expect(book.get(KEY)!.record).toEqual(record(5));
  });

  test('alerts and sensor status come with the state, under the same seq', () => {
    const book = new BoardBook();
    book.receive(T.state, state(2));
    const alert = { id: 1, level: 'error' as const, code: 'referee/mismatch', message: 'The board differs.', params: {} };
    expect(book.receive(T.state, state(2, RUN, 2, [alert])).kind).toBe('synced');
    expect(book.get(KEY)!.alerts).toEqual([alert]);
    expect(book.receive(T.state, state(2, RUN, 2, [])).kind).toBe('synced');
    expect(book.get(KEY)!.alerts).toEqual([]);
  });

  test('a restarted table counts from 0 again: its new run wins, the old run’s stragglers are ignored', () => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    for (let seq = 1; seq <= 9; seq++) book.receive(T.events, event(seq));
    // The restarted service: online, its state at 0 with the game resumed (9 moves), then its first event.
    expect(book.receive(T.status, status('online', LATER)).kind).toBe('presence');
    expect(book.receive(T.state, state(0, LATER, 9)).kind).toBe('synced');
    expect(book.receive(T.events, event(1, LATER, 10)).kind).toBe('applied');
    expect(book.get(KEY)!.record).toEqual(record(10));
    // The old connection's last will, published late by the broker, and a late event of the old run.
    expect(book.receive(T.status, status('offline', RUN)).kind).toBe('ignored');
    expect(book.receive(T.events, event(10, RUN)).kind).toBe('ignored');
    expect(book.get(KEY)!.presence).toBe('online');
    expect(book.get(KEY)!.record).toEqual(record(10));
  });

  test('the last will marks the board offline and keeps its last picture', () => {
    const book = new BoardBook();
    book.receive(T.status, status('online'));
    book.receive(T.state, state(3));
    expect(book.receive(T.status, status('offline')).kind).toBe('presence');
    expect(book.get(KEY)!.presence).toBe('offline');
    expect(book.get(KEY)!.record).toEqual(record(3));
    expect(book.receive(T.status, status('offline')).kind).toBe('ignored');
  });

  test.each([
    ['not JSON', T.state, '{"v":1,'],
    ['another version', T.state, state(1).replace('"v":1', '"v":2')],
    ['seq and stateId disagree', T.events, event(1).replace('"seq":1', '"seq":7')],
    ['a record that is not moves', T.state, state(1).replace('"record":["A"]', '"record":[1]')],
    ['an unknown game', T.events, event(1).replace('"game":"kalaha"', '"game":"chess"')],
    ['a topic outside the layout', 'spieltisch/club/brett-1/state/extra', state(1)],
    ['a wildcard in a board name', 'spieltisch/club/+/state', state(1)],
  ])('%s is ignored, and the board stays as it was', (_name, topic, payload) => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    expect(book.receive(topic, payload).kind).toBe('ignored');
    expect(book.get(KEY)!.seq).toBe(0);
  });
});
