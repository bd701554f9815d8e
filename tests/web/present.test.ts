// What the pages say: record rows, board status, link notices, the result, the last move — Kalaha and Malawi.
import { describe, expect, it } from 'vitest';
import type { BoardStatus, KalahaView, MalawiView } from '../../server/http/messages.ts';
import { EMPTY_TABLE } from '../../web/src/connection/state.ts';
import {
  beadTotals,
  boardKind,
  boardStatusLine,
  describeMove,
  lastMoveLine,
  linkNotice,
  malawiMover,
  outcomeLines,
  recordRows,
} from '../../web/src/common/present.ts';

const BOARD: BoardStatus = { source: 'serial', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };
const VIEW: KalahaView = {
  game: 'kalaha',
  pits: [6, 6, 2, 5, 5, 0, 6, 5, 5, 0, 2, 6],
  stores: { south: 0, north: 0 },
  toMove: 'south',
  outcome: null,
  lastMove: { pit: 9, sown: [10, 11, 0, 1, 2], captures: [2] },
  pending: [{ pit: 2, stones: 2, store: 'north', reason: 'capture' }],
};

describe('recordRows', () => {
  it('pairs south and north under one move number', () => {
    expect(recordRows(['C', 'e', 'F'], 8)).toEqual({
      rows: [
        { number: 1, south: 'C', north: 'e' },
        { number: 2, south: 'F', north: null },
      ],
      hidden: 0,
    });
  });
  it('keeps the newest rows and counts the hidden ones', () => {
    const record = 'A a B b C c D d E e F'.split(' ');
    const { rows, hidden } = recordRows(record, 2);
    expect(hidden).toBe(4);
    expect(rows.map((r) => r.number)).toEqual([5, 6]);
    expect(rows[1]).toEqual({ number: 6, south: 'F', north: null });
  });
  it('has no rows for an empty record', () => {
    expect(recordRows([], 8)).toEqual({ rows: [], hidden: 0 });
  });
});

describe('boardStatusLine', () => {
  it.each([
    [{ ...BOARD }, 'Brett verbunden', 'ok'],
    [{ ...BOARD, calibrated: false }, 'Brett verbunden · nicht kalibriert', 'warn'],
    [{ ...BOARD, connected: false }, 'Brett antwortet nicht', 'warn'],
    [{ ...BOARD, source: 'simulated' as const, calibrated: false }, 'Brett simuliert', 'neutral'],
    [{ ...BOARD, source: 'none' as const, connected: false }, 'Kein Brett', 'neutral'],
  ])('%o → %s', (board, text, tone) => {
    expect(boardStatusLine('de', board)).toEqual({ text, tone });
  });
  it('says nothing before the server told us', () => {
    expect(boardStatusLine('de', null)).toBeNull();
  });
  it('tells a board that stopped answering from one whose cable is gone', () => {
    const silent = { ...BOARD, connected: false, link: 'not-responding' as const };
    const gone = { ...BOARD, connected: false, link: 'reconnecting' as const };
    expect(boardStatusLine('de', silent)).toEqual({ text: 'Brett antwortet nicht', tone: 'warn' });
    expect(boardStatusLine('de', gone)).toEqual({ text: 'Brett getrennt — verbinde neu …', tone: 'warn' });
    expect(boardStatusLine('en', silent)?.text).toBe('Board not responding');
    expect(boardStatusLine('en', gone)?.text).toBe('Board disconnected — reconnecting …');
    expect(boardStatusLine('en', silent)?.text).not.toBe(boardStatusLine('en', gone)?.text);
    // A different board plugged in is not a cable to check: it was refused, and the game's board is wanted back.
    const other = { ...BOARD, connected: false, link: 'wrong-board' as const };
    expect(boardStatusLine('de', other)).toEqual({ text: 'Ein anderes Brett wurde angeschlossen und abgewiesen — bitte das Brett dieses Spiels anschließen', tone: 'warn' });
    expect(boardStatusLine('en', other)?.text).toBe('A different board was plugged in and refused — please plug in this game’s board');
    // A live link is a connected board whatever it says.
    expect(boardStatusLine('de', { ...BOARD, link: 'live' })).toEqual({ text: 'Brett verbunden', tone: 'ok' });
  });
});

describe('linkNotice', () => {
  it('is silent when open and synced', () => {
    expect(linkNotice('de', { phase: 'open' }, 0, true)).toBeNull();
  });
  it('says connecting before the first sync, even when open', () => {
    expect(linkNotice('en', { phase: 'open' }, 0, false)).toBe('Connecting to the table …');
  });
  it('says the connection was lost only after it had been there', () => {
    const waiting = { phase: 'waiting', attempt: 1, retryAt: 4_000 } as const;
    expect(linkNotice('de', waiting, 1_200, true)).toBe('Verbindung verloren — neuer Versuch in 3 s');
    expect(linkNotice('de', waiting, 1_200, false)).toBe('Spieltisch nicht erreichbar — neuer Versuch in 3 s');
    expect(linkNotice('en', { phase: 'connecting', attempt: 2 }, 0, true)).toBe('Connection lost — reconnecting …');
  });
});

describe('outcomeLines', () => {
  it('names the winner, the final stores and the reason', () => {
    const over: KalahaView = {
      ...VIEW,
      pits: Array(12).fill(0),
      stores: { south: 32, north: 16 },
      toMove: null,
      outcome: { winner: 'south', reason: 'no-stones' },
      lastMove: null,
      pending: [6, 7, 9].map((pit) => ({ pit, stones: 1, store: 'north' as const, reason: 'end' as const })),
    };
    expect(outcomeLines('de', over)).toEqual({
      headline: 'Süd gewinnt',
      score: 'Nord 16 · Süd 32',
      reason: 'Der Spieler am Zug hat keine Steine mehr.',
    });
  });
  it('shows a draw, and an unknown reason as the server wrote it', () => {
    const draw: KalahaView = { ...VIEW, pending: [], outcome: { winner: 'draw', reason: 'meteor' } };
    expect(outcomeLines('en', draw)).toMatchObject({ headline: 'Draw', reason: 'meteor' });
  });
  it('is null while the game goes on', () => {
    expect(outcomeLines('de', VIEW)).toBeNull();
  });
});

describe('lastMoveLine', () => {
  it('names the sower, the pit and the captures', () => {
    const table = { ...EMPTY_TABLE, view: VIEW };
    expect(lastMoveLine('de', table)).toBe('Nord sät aus d — schlägt C');
    expect(lastMoveLine('en', table)).toBe('North sows d — captures C');
  });
  it('says what was taken back', () => {
    const table = { ...EMPTY_TABLE, view: VIEW, lastEvent: { event: 'takeback' as const, undone: ['F', 'd'] } };
    expect(lastMoveLine('de', table)).toBe('Zurückgenommen: F d');
  });
  it('is null before any move', () => {
    expect(lastMoveLine('de', { ...EMPTY_TABLE, view: { ...VIEW, lastMove: null } })).toBeNull();
  });
});

const MALAWI: MalawiView = {
  game: 'malawi',
  size: 6,
  pieces: [
    { square: 'a1', side: 'south', strength: 3 },
    { square: 'c1', side: 'south', strength: 0 },
    { square: 'c5', side: 'north', strength: 0 },
    { square: 'd6', side: 'north', strength: 4 },
    { square: 'c3', side: 'south', strength: 2 },
  ],
  toMove: 'north',
  outcome: null,
  lastMove: { notation: 'c3xc5', kind: 'capture', squares: ['c3', 'c5'] },
};
const withMove = (lastMove: MalawiView['lastMove'], extra: Partial<MalawiView> = {}): MalawiView => ({ ...MALAWI, lastMove, ...extra });

describe('Malawi', () => {
  it('counts each side’s beads', () => {
    expect(beadTotals(MALAWI)).toEqual({ south: 5, north: 4 });
  });

  it('names the mover from the piece that moved, whatever the record says', () => {
    expect(malawiMover(MALAWI, 0)).toBe('south');
    expect(malawiMover(withMove({ notation: 'd6-d4', kind: 'move', squares: ['d6', 'd4'] }, { pieces: [{ square: 'd4', side: 'north', strength: 2 }] }), 0)).toBe('north');
    // No piece where it should be (a view cut short): south moves first, so odd plies are south's.
    expect(malawiMover(withMove({ notation: 'b2-b4', kind: 'move', squares: ['b2', 'b4'] }), 3)).toBe('south');
    expect(malawiMover(withMove(null), 3)).toBeNull();
  });

  it.each([
    ['de', { notation: 'c3xc5', kind: 'capture', squares: ['c3', 'c5'] }, 'Süd schlägt von c3 aus c5'],
    ['en', { notation: 'c3xc5', kind: 'capture', squares: ['c3', 'c5'] }, 'South captures c5 from c3'],
    ['de', { notation: 'a1-c1', kind: 'move', squares: ['a1', 'c1'] }, 'Süd zieht a1–c1'],
    ['de', { notation: 'a1>c1,c3', kind: 'distribute', squares: ['a1', 'c1', 'c3'] }, 'Süd verteilt die Perlen von a1 auf c1 und c3'],
    ['en', { notation: 'a1>c1,c3', kind: 'distribute', squares: ['a1', 'c1', 'c3'] }, 'South gives the beads of a1 to c1 and c3'],
  ] as const)('%s: says the last move %o as “%s”', (lang, lastMove, line) => {
    expect(lastMoveLine(lang, { ...EMPTY_TABLE, view: withMove(lastMove), record: ['a1-c1'] })).toBe(line);
  });

  it('names the winner, the beads left and the reason', () => {
    const over = withMove(MALAWI.lastMove, { toMove: null, outcome: { winner: 'south', reason: 'baseline' } });
    expect(outcomeLines('de', over)).toEqual({
      headline: 'Süd gewinnt',
      score: 'Perlen: Nord 4 · Süd 5',
      reason: 'Eine Figur hat die gegnerische Grundlinie erreicht, wo sie nicht geschlagen werden kann.',
    });
  });

  it('tells the board kind for naming cells', () => {
    expect(boardKind(MALAWI)).toEqual({ game: 'malawi', size: 6 });
    expect(boardKind(VIEW)).toEqual({ game: 'kalaha' });
    expect(boardKind(null)).toEqual({ game: 'kalaha' });
  });
});

describe('describeMove', () => {
  it.each([
    ['de', 'malawi', 'c1xc5', 'c1 schlägt c5'],
    ['en', 'malawi', 'C1-C3', 'c1 moves to c3'],
    ['de', 'malawi', 'd1>a1,b1,e1', 'd1 verteilt auf a1, b1 und e1'],
    ['en', 'malawi', 'd1>a1', 'd1 gives beads to a1'],
    ['de', 'kalaha', 'C', 'Mulde C säen'],
    ['en', 'kalaha', 'd', 'sow pit d'],
    ['de', 'malawi', 'hello', 'hello'],
  ] as const)('%s %s: %s → %s', (lang, game, notation, words) => {
    expect(describeMove(lang, game, notation)).toBe(words);
  });
});
