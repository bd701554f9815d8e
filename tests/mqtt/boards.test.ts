// The broadcast service's book of boards, fed by hand: order, duplicates, gaps, restarted tables.
import { describe, expect, test } from 'vitest';
import { BoardBook, sign, topicOf, type EventPayload, type Run, type StatePayload, type StatusPayload } from '../../server/mqtt/index.ts';
import type { GameView, KalahaView } from '../../server/http/messages.ts';

const RUN: Run = { id: 'first', log: { gameId: 1, seq: 0 } };
const LATER: Run = { id: 'again', log: { gameId: 1, seq: 9 } };
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
    const book = new BoardBook({ now: () => 0 });
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
    const book = new BoardBook({ now: () => 0 });
    book.receive(T.state, state(2));
    const corrected = (seq: number, correction: unknown) =>
      JSON.stringify({ v: 1, run: RUN, gameId: 1, seq, at: 5_000 + seq, update: { type: 'update', stateId: seq, event: 'correction', correction, record: record(2), view: view(2) } });
    expect(book.receive(T.events, corrected(3, { ply: 2, old: ['A'], new: ['B'], reason: 'evidence' })).kind).toBe('applied');
    // A malformed correction makes its whole payload a stranger's: refused, the board as it was.
    expect(book.receive(T.events, corrected(4, { ply: 2, old: 'A', new: ['B'], reason: 'evidence' })).kind).toBe('refused');
    expect(book.get(KEY)!.recent.map((e) => [e.event, e.correction])).toEqual([['correction', { ply: 2, old: ['A'], new: ['B'], reason: 'evidence' }]]);
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
  ])('%s is refused, and the board stays as it was', (_name, topic, payload) => {
    const book = new BoardBook();
    book.receive(T.state, state(0));
    expect(book.receive(topic, payload).kind).toBe(topic.startsWith(`spieltisch/${SITE}/${BOARD}/`) && topic.split('/').length === 4 ? 'refused' : 'ignored');
    expect(book.get(KEY)!.seq).toBe(0);
  });
});

// ——— Payloads nobody should trust: issue 15 ———

const VIEWS: { readonly [G in GameView['game']]: Extract<GameView, { game: G }> } = {
  kalaha: view(0),
  malawi: { game: 'malawi', size: 6, pieces: [{ square: 'a1', side: 'south', strength: 2 }], toMove: 'south', outcome: null, lastMove: null },
  makis: {
    game: 'makis',
    players: 2,
    mode: 'competitive',
    knights: [1, 1, 1, 1, 1, 1, 1, 1, 1],
    makis: ['c5r9', null],
    phase: 'place',
    toMove: 2,
    lastRoll: null,
    expectedRoll: null,
    odds: null,
    pending: [],
    outcome: null,
    lastMove: '1:c5r9',
  },
  adu: {
    game: 'adu',
    size: 13,
    players: 3,
    pieces: [{ square: 'g7', player: 1, kind: 'king', id: 'K' }],
    phase: 'placement',
    placing: { kind: 'king', id: 'K' },
    toMove: 2,
    seats: [1, 2, 3].map((player) => ({ player, in: true, kings: player === 1 ? 1 : 0, reserves: 0 })),
    supply: 3,
    ranges: {},
    awaitingReserve: null,
    outcome: null,
    lastMove: null,
  },
};

/** A state of any game on any board; `view` may be anything at all, as a stranger would publish it. */
function stateOf(board: string, view: unknown, seq = 1, run: Run = RUN): [string, string] {
  const game = (view as { game?: unknown }).game;
  const sync = { type: 'sync', stateId: seq, game, record: [], view, alerts: [], questions: [], board: { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 } };
  return [topicOf(SITE, board, 'state'), JSON.stringify({ v: 1, run, gameId: 1, seq, at: 1, sync })];
}

describe('BoardBook: what it takes from a stranger', () => {
  test.each(Object.keys(VIEWS) as GameView['game'][])('every %s view a table sends is taken', (game) => {
    const book = new BoardBook();
    expect(book.receive(...stateOf('b', VIEWS[game])).kind).toBe('synced');
    expect(book.get(`${SITE}/b`)!.view).toEqual(VIEWS[game]);
  });

  const broken: [GameView['game'], string, unknown][] = [
    ['adu', 'the issue’s own payload: seats a number', { game: 'adu', seats: 3 }],
    ['adu', 'seats a number, all else right', { ...VIEWS.adu, seats: 3 }],
    ['adu', 'fewer seats than players', { ...VIEWS.adu, seats: VIEWS.adu.seats.slice(1) }],
    ['kalaha', 'pits a string', { ...VIEWS.kalaha, pits: 'ABCDEF' }],
    ['kalaha', 'seven pits', { ...VIEWS.kalaha, pits: [4, 4, 4, 4, 4, 4, 4] }],
    ['kalaha', 'no stores', { ...VIEWS.kalaha, stores: undefined }],
    ['malawi', 'pieces an object', { ...VIEWS.malawi, pieces: { a1: 2 } }],
    ['malawi', 'a square off any board', { ...VIEWS.malawi, pieces: [{ square: '<img src=x>', side: 'south', strength: 2 }] }],
    ['malawi', 'a board of 10,000 squares', { ...VIEWS.malawi, size: 100 }],
    ['makis', 'knights a number', { ...VIEWS.makis, knights: 9 }],
    ['makis', 'fewer Makis than players', { ...VIEWS.makis, makis: ['c5r9'] }],
    ['makis', 'a roll of four dice', { ...VIEWS.makis, lastRoll: [1, 2, 3, 4] }],
    ['makis', 'a die of ten', { ...VIEWS.makis, lastRoll: [1, 2, 10] }],
  ];
  test.each(broken)('a malformed %s state (%s) is refused; the board and its neighbours stay', (game, _what, bad) => {
    const book = new BoardBook();
    expect(book.receive(...stateOf('good', VIEWS[game])).kind).toBe('synced');
    expect(book.receive(...stateOf('target', VIEWS[game])).kind).toBe('synced');
    const outcome = book.receive(...stateOf('target', bad, 2));
    expect(outcome.kind).toBe('refused');
    if (outcome.kind === 'refused') expect(outcome.reason).toMatch(/^malformed state: sync\.view\./);
    // A board never heard of before is not made up from it either.
    expect(book.receive(...stateOf('fresh', bad)).kind).toBe('refused');
    expect(book.all().map((b) => [b.key, b.seq, b.view])).toEqual([
      [`${SITE}/good`, 1, VIEWS[game]],
      [`${SITE}/target`, 1, VIEWS[game]],
    ]);
  });

  test('fields a table does not send are not passed on to the pages', () => {
    const book = new BoardBook();
    book.receive(...stateOf('b', { ...VIEWS.kalaha, script: '<script>alert(1)</script>' }));
    expect(book.get(`${SITE}/b`)!.view).toEqual(VIEWS.kalaha);
  });

  test('at most maxBoards boards: the next is refused until one is forgotten', () => {
    let now = 0;
    const book = new BoardBook({ now: () => now, maxBoards: 3, staleMs: 1000 });
    for (const n of [1, 2, 3]) expect(book.receive(...stateOf(`b${n}`, VIEWS.kalaha)).kind).toBe('synced');
    const refused = book.receive(...stateOf('b4', VIEWS.kalaha));
    expect(refused).toMatchObject({ kind: 'refused', key: `${SITE}/b4` });
    expect(book.size).toBe(3);
    // The boards it has go on as before.
    now = 600;
    expect(book.receive(...stateOf('b1', VIEWS.kalaha, 2)).kind).toBe('synced');
    expect(book.receive(...stateOf('b2', VIEWS.kalaha, 2)).kind).toBe('synced');
    now = 1001;
    // b3 was last heard at 0: forgotten, and its place is free.
    expect(book.expire()).toEqual([`${SITE}/b3`]);
    expect(book.receive(...stateOf('b4', VIEWS.kalaha)).kind).toBe('synced');
    expect(book.all().map((b) => b.board)).toEqual(['b1', 'b2', 'b4']);
  });

  test('a board is forgotten once unheard for staleMs; its table saying it is there keeps it', () => {
    let now = 0;
    const book = new BoardBook({ now: () => now, staleMs: 10_000 });
    book.receive(T.status, status('online'));
    book.receive(T.state, state(3));
    now = 9_000;
    expect(book.expire()).toEqual([]);
    // The table's heartbeat: the same status again changes nothing on the page, but counts as heard.
    expect(book.receive(T.status, status('online')).kind).toBe('ignored');
    now = 18_000;
    expect(book.expire()).toEqual([]);
    // A straggler of an older run is not the board's table speaking.
    expect(book.receive(T.events, event(9, { id: 'older', log: { gameId: 0, seq: 0 } })).kind).toBe('ignored');
    now = 19_001;
    expect(book.expire()).toEqual([KEY]);
    expect(book.get(KEY)).toBeUndefined();
    expect(book.all()).toEqual([]);
  });
});

describe('BoardBook: runs ordered by the table’s log, not its clock', () => {
  test('a forged run with a far-future start does not replace the real board’s game', () => {
    const book = new BoardBook();
    const real: Run = { id: 'real', log: { gameId: 4, seq: 20 } };
    book.receive(T.status, status('online', real));
    book.receive(T.state, state(5, real));
    // The forgery, as it was published: a run that names only its (far-future) start.
    const old = JSON.stringify({ v: 1, status: 'online', run: { id: 'forged', started: 9e12 }, game: 'kalaha', at: 9e12 });
    expect(book.receive(T.status, old).kind).toBe('refused');
    // The same in today's form, the start riding along: the log position, not the clock, decides.
    const forged = { id: 'forged', started: 9e12, log: { gameId: 4, seq: 3 } } as unknown as Run;
    expect(book.receive(T.status, status('online', forged)).kind).toBe('ignored');
    expect(book.receive(T.state, state(50, forged, 50)).kind).toBe('ignored');
    expect(book.get(KEY)!.run).toEqual(real);
    expect(book.get(KEY)!.record).toEqual(record(5));
    // The real table's next move is applied.
    expect(book.receive(T.events, event(6, real)).kind).toBe('applied');
    expect(book.get(KEY)!.record).toEqual(record(6));
  });

  test('a table restarted with nothing logged since starts at the same place: the run heard last wins, the old run’s late will does not', () => {
    const book = new BoardBook();
    const first: Run = { id: 'first', log: { gameId: 7, seq: 12 } };
    const again: Run = { id: 'again', log: { gameId: 7, seq: 12 } };
    book.receive(T.status, status('online', first));
    book.receive(T.state, state(3, first, 12));
    expect(book.receive(T.status, status('online', again)).kind).toBe('presence');
    expect(book.receive(T.state, state(0, again, 12)).kind).toBe('synced');
    // The broker publishes the killed run's last will only now.
    expect(book.receive(T.status, status('offline', first)).kind).toBe('ignored');
    expect(book.get(KEY)!.presence).toBe('online');
    expect(book.receive(T.events, event(1, again, 13)).kind).toBe('applied');
    expect(book.get(KEY)!.run).toEqual(again);
  });

  test('a table whose log did not survive (0, 0 again) comes back once its old run is over', () => {
    const book = new BoardBook();
    const before: Run = { id: 'before', log: { gameId: 30, seq: 2 } };
    const fresh: Run = { id: 'fresh', log: { gameId: 0, seq: 0 } };
    book.receive(T.state, state(4, before));
    // While the old run is online, a run from further back is a straggler.
    expect(book.receive(T.state, state(1, fresh)).kind).toBe('ignored');
    expect(book.receive(T.status, status('offline', before)).kind).toBe('presence');
    expect(book.receive(T.state, state(1, fresh, 1)).kind).toBe('synced');
    expect(book.get(KEY)).toMatchObject({ run: fresh, presence: 'online', record: record(1) });
  });
});

describe('BoardBook: signed payloads', () => {
  const KEYS = new Map([[SITE, 'the club key, long enough']]);

  test('a site with a key takes only what its key signed, for that very topic', () => {
    const book = new BoardBook({ keys: KEYS });
    const key = KEYS.get(SITE)!;
    expect(book.receive(T.state, sign(key, T.state, state(1))).kind).toBe('synced');
    expect(book.receive(T.events, sign(key, T.events, event(2))).kind).toBe('applied');
    const unsigned = book.receive(T.events, event(3));
    expect(unsigned).toMatchObject({ kind: 'refused', reason: 'unsigned, and the site has a key' });
    expect(book.receive(T.events, sign('another key, as long', T.events, event(3)))).toMatchObject({ kind: 'refused', reason: 'badly signed (another key, or for another topic)' });
    // A signed payload tampered with, or moved to another board's topic, does not verify.
    expect(book.receive(T.events, sign(key, T.events, event(3)).replace('"move":"C"', '"move":"D"')).kind).toBe('refused');
    expect(book.receive(topicOf(SITE, 'brett-2', 'state'), sign(key, T.state, state(1))).kind).toBe('refused');
    expect(book.get(KEY)!.record).toEqual(record(2));
    expect(book.all().map((b) => b.key)).toEqual([KEY]);
    // The signature rides along as the last member and is not part of the record.
    expect(book.receive(T.events, sign(key, T.events, event(3))).kind).toBe('applied');
  });

  test('a site without a key takes unsigned and signed payloads alike', () => {
    const book = new BoardBook({ keys: KEYS });
    const other = topicOf('elsewhere', BOARD, 'state');
    expect(book.receive(other, state(1)).kind).toBe('synced');
    expect(book.receive(other, sign('some table key!!', other, state(2))).kind).toBe('synced');
  });
});
