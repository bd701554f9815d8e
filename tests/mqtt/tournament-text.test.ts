// What the tournament cards say, in German and English, and how the page follows the broadcast
// service's messages: pure functions, no browser.
import { describe, expect, test } from 'vitest';
import type { AduView, KalahaView, MakisView, MalawiView } from '../../server/http/messages.ts';
import type { BoardRecord, BroadcastMessage } from '../../server/mqtt/index.ts';
import { contenders, eventLine, lastMoveLine, moveLine, troubles, turnLine } from '../../web/src/tournament/summary.ts';
import { applyMessage } from '../../web/src/tournament/connection.ts';
import { boardOfPath } from '../../web/src/tournament/route.ts';
import { TOURNAMENT_CATALOGUES } from '../../web/src/tournament/catalogue.ts';
import { placeholders } from '../../web/src/i18n/index.ts';

const kalaha = (over: Partial<KalahaView> = {}): KalahaView => ({
  game: 'kalaha',
  pits: [4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4],
  stores: { south: 1, north: 0 },
  toMove: 'north',
  outcome: null,
  lastMove: null,
  pending: [],
  ...over,
});

function boardOf(view: BoardRecord['view'], over: Partial<BoardRecord> = {}): BoardRecord {
  return {
    key: 'club/brett-1',
    site: 'club',
    board: 'brett-1',
    presence: 'online',
    run: { id: 'r', log: { gameId: 3, seq: 6 } },
    game: view?.game ?? null,
    gameId: 3,
    seq: 7,
    record: ['C'],
    view,
    alerts: [],
    questions: 0,
    sensors: { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 },
    recent: [],
    resyncFrom: 0,
    counts: { applied: 7, duplicates: 0, gaps: 0, syncs: 1 },
    changedAt: 0,
    ...over,
  };
}

describe('tournament card texts', () => {
  test('Kalaha: both sides with their stores, north first; whose turn in either language', () => {
    const sides = contenders('de', kalaha());
    expect(sides.map((s) => [s.name, s.score, s.toMove])).toEqual([
      ['Nord', 0, true],
      ['Süd', 1, false],
    ]);
    expect(turnLine('de', kalaha())).toBe('Am Zug: Nord');
    expect(turnLine('en', kalaha())).toBe('To move: North');
  });

  test('a finished game names its winner instead of a turn', () => {
    const over = kalaha({ toMove: null, stores: { south: 30, north: 18 }, outcome: { winner: 'south', reason: 'empty-side' } });
    expect(turnLine('de', over)).toBe('Süd gewinnt');
    expect(turnLine('en', kalaha({ outcome: { winner: 'draw', reason: 'empty-side' } }))).toBe('Draw');
    expect(contenders('en', over).map((s) => [s.id, s.winner, s.toMove])).toEqual([
      ['north', false, false],
      ['south', true, false],
    ]);
  });

  test('Malawi counts the beads on the board per side', () => {
    const view: MalawiView = {
      game: 'malawi',
      size: 6,
      pieces: [
        { square: 'a1', side: 'south', strength: 3 },
        { square: 'b1', side: 'south', strength: 2 },
        { square: 'a6', side: 'north', strength: 4 },
      ],
      toMove: 'south',
      outcome: null,
      lastMove: null,
    };
    expect(contenders('de', view).map((s) => [s.id, s.score, s.scoreText])).toEqual([
      ['north', 4, '4 Perlen'],
      ['south', 5, '5 Perlen'],
    ]);
  });

  test('Makis: seats by number, a captured Maki is out, the knights can win', () => {
    const view = {
      game: 'makis',
      players: 3,
      mode: 'competitive',
      knights: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      makis: ['c1r5', 'out', 'c9r5'],
      phase: 'over',
      toMove: null,
      lastRoll: [1, 2, 3],
      expectedRoll: null,
      odds: null,
      pending: [],
      outcome: { winner: 'knights', reason: 'knight-home' },
      lastMove: 'R1.2.3',
    } satisfies MakisView;
    expect(contenders('de', view).map((s) => [s.name, s.out])).toEqual([
      ['Spieler 1', false],
      ['Spieler 2', true],
      ['Spieler 3', false],
    ]);
    expect(turnLine('de', view)).toBe('Die Ritter gewinnen');
    expect(turnLine('en', { ...view, outcome: { winner: '3', reason: 'maki-home' } })).toBe('Player 3 wins');
  });

  test('Adu: the capturer placing a reserve king acts before the turn order', () => {
    const view = {
      game: 'adu',
      size: 19,
      players: 3,
      pieces: [],
      phase: 'play',
      placing: null,
      toMove: 2,
      seats: [
        { player: 1, in: true, kings: 1, reserves: 0 },
        { player: 2, in: true, kings: 1, reserves: 0 },
        { player: 3, in: false, kings: 0, reserves: 0 },
      ],
      supply: 2,
      ranges: {},
      awaitingReserve: { player: 1 },
      outcome: null,
      lastMove: null,
    } satisfies AduView;
    expect(turnLine('de', view)).toBe('Am Zug: Spieler 1');
    expect(contenders('de', view).map((s) => [s.id, s.toMove, s.out])).toEqual([
      ['1', true, false],
      ['2', false, false],
      ['3', false, true],
    ]);
  });

  test('the last move is the record’s last entry; none before the first', () => {
    expect(lastMoveLine('de', ['C', 'd'])).toBe('Letzter Zug: d');
    expect(lastMoveLine('en', [])).toBeNull();
    expect(moveLine('de', ['C', 'd'])).toBe('Zug 2: d');
    expect(moveLine('en', [])).toBe('no moves yet');
    expect(eventLine('de', { seq: 4, gameId: 1, event: 'takeback', undone: ['C', 'd'], at: 0 })).toBe('Zurückgenommen: C d');
    expect(eventLine('en', { seq: 5, gameId: 1, event: 'move', move: 'e', at: 0 })).toBe('Move e');
  });

  test('troubles, most urgent first: the sensors, the referee’s alerts, a question, catching up', () => {
    const board = boardOf(kalaha(), {
      sensors: { source: 'serial', connected: false, calibrated: true, framesPerSecond: 0, dropped: 0 },
      alerts: [
        { id: 2, level: 'info', code: 'board/settling', message: 'Waiting for the board to settle.', params: {} },
        { id: 1, level: 'error', code: 'no-such-code', message: 'Something the catalogue does not know.', params: {} },
      ],
      questions: 1,
      resyncFrom: 9,
    });
    const list = troubles('en', board);
    expect(list.map((x) => x.level)).toEqual(['error', 'error', 'info', 'warn', 'info']);
    expect(list[0].text).toBe('Board not connected');
    // An alert the catalogue has no sentence for shows the server's own.
    expect(list[1].text).toBe('Something the catalogue does not know.');
    expect(list.at(-1)?.text).toBe('Catching up …');
    expect(troubles('de', boardOf(kalaha()))).toEqual([]);
  });

  test('German and English have the same keys and the same placeholders', () => {
    const { de, en } = TOURNAMENT_CATALOGUES;
    expect(Object.keys(en).sort()).toEqual(Object.keys(de).sort());
    for (const key of Object.keys(de) as (keyof typeof de)[]) expect(placeholders(en[key]), key).toEqual(placeholders(de[key]));
  });
});

describe('the tournament page follows the broadcast service', () => {
  test('a list of boards replaces what the page had; one board’s message updates only it', () => {
    const boards = new Map<string, BoardRecord>();
    boards.set('old/gone', boardOf(null, { key: 'old/gone' }));
    const broker = { connected: true, url: 'mqtt://127.0.0.1:1883', since: 5 };
    expect(applyMessage(boards, { type: 'boards', broker, boards: [boardOf(kalaha()), boardOf(kalaha(), { key: 'club/brett-2', board: 'brett-2' })] })).toEqual(broker);
    expect([...boards.keys()]).toEqual(['club/brett-1', 'club/brett-2']);
    expect(applyMessage(boards, { type: 'board', board: boardOf(kalaha(), { seq: 8, record: ['C', 'd'] }) })).toBeNull();
    expect(boards.get('club/brett-1')?.record).toEqual(['C', 'd']);
    expect(boards.get('club/brett-2')?.seq).toBe(7);
    expect(applyMessage(boards, { type: 'broker', broker: { ...broker, connected: false } })?.connected).toBe(false);
  });

  test('a board forgotten by the service leaves the page; what the page cannot draw never enters it', () => {
    const boards = new Map<string, BoardRecord>();
    const broker = { connected: true, url: 'mqtt://127.0.0.1:1883', since: 5 };
    const junk = [null, 3, 'x', { key: 'club/x' }, { ...boardOf(kalaha(), { key: 'club/bad' }), record: 'C' }, { ...boardOf(kalaha(), { key: 'club/bad2' }), view: 7 }];
    applyMessage(boards, { type: 'boards', broker, boards: [boardOf(kalaha()), ...junk] as BoardRecord[] });
    expect([...boards.keys()]).toEqual(['club/brett-1']);
    for (const board of junk) expect(applyMessage(boards, { type: 'board', board: board as BoardRecord })).toBeNull();
    expect(applyMessage(boards, { type: 'boards', broker, boards: 'none' } as unknown as BroadcastMessage)).toBeNull();
    expect(applyMessage(boards, null as unknown as BroadcastMessage)).toBeNull();
    expect([...boards.keys()]).toEqual(['club/brett-1']);
    applyMessage(boards, { type: 'gone', key: 'club/brett-1' });
    expect(boards.size).toBe(0);
  });

  test.each([
    ['/tournament', null],
    ['/tournament/', null],
    ['/tournament/vauban/brett-1', 'vauban/brett-1'],
    ['/tournament/vauban/brett-1/', 'vauban/brett-1'],
    ['/tournament/vauban/brett+1', null],
    ['/tournament/a/b/c', null],
  ])('%s shows %s', (path, board) => {
    expect(boardOfPath(path)).toBe(board);
  });
});
