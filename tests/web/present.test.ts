// What the display says: record rows, board status, link notices, the result, the last move.
import { describe, expect, it } from 'vitest';
import type { BoardStatus, KalahaView } from '../../server/http/messages.ts';
import { EMPTY_TABLE } from '../../web/src/connection/state.ts';
import {
  boardStatusLine,
  lastMoveLine,
  linkNotice,
  outcomeLines,
  recordRows,
} from '../../web/src/display/present.ts';

const BOARD: BoardStatus = { source: 'serial', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };
const VIEW: KalahaView = {
  game: 'kalaha',
  pits: [6, 6, 2, 5, 5, 0, 6, 5, 5, 0, 2, 6],
  stores: { south: 0, north: 0 },
  toMove: 'south',
  outcome: null,
  lastMove: { pit: 9, sown: [10, 11, 0, 1, 2], captures: [2] },
  pending: [{ pit: 2, store: 'north', reason: 'capture' }],
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
      pending: [6, 7, 9].map((pit) => ({ pit, store: 'north' as const, reason: 'end' as const })),
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
