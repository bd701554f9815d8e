// What the pages say about an Adu table: whose turn (and a reserve king awaited), each seat, the Merkskala, the moves.
import { describe, expect, it } from 'vitest';
import type { AduView } from '../../server/http/messages.ts';
import { EMPTY_TABLE } from '../../web/src/connection/state.ts';
import { boardKind, describeMove, lastMoveLine, outcomeLines, recordLines, turnLine } from '../../web/src/common/present.ts';
import {
  aduActor,
  aduDeclaring,
  aduPassed,
  aduSeats,
  declaringLines,
  merkskalaRows,
  passedLine,
  readAduMove,
} from '../../web/src/common/present-adu.ts';

const VIEW: AduView = {
  game: 'adu',
  size: 13,
  players: 3,
  pieces: [
    { square: 'd4', player: 1, kind: 'king', id: 'K1' },
    { square: 'd7', player: 1, kind: 'soldier', id: 'S3' },
    { square: 'e5', player: 2, kind: 'king', id: 'K2' },
    { square: 'h8', player: 2, kind: 'reserve', id: 'R1' },
    { square: 'a1', player: 2, kind: 'soldier', id: 'S1' },
  ],
  phase: 'play',
  placing: null,
  toMove: 2,
  seats: [
    { player: 1, in: true, kings: 1, reserves: 0 },
    { player: 2, in: true, kings: 1, reserves: 1 },
    { player: 3, in: false, kings: 0, reserves: 0 },
  ],
  supply: 9,
  ranges: { '1': { S3: [3, 4, 5, 6] }, '2': { S1: [1] } },
  awaitingReserve: null,
  outcome: null,
  lastMove: { notation: 'd4-d7', squares: ['d4', 'd7'] },
};

describe('the turn', () => {
  it('names the player to move, or what they place', () => {
    expect(turnLine('de', VIEW)).toBe('Spieler 2 ist am Zug');
    const placing: AduView = { ...VIEW, phase: 'placement', placing: { kind: 'soldier', id: 'S4' }, toMove: 3 };
    expect(turnLine('de', placing)).toBe('Spieler 3 setzt Soldat S4');
    expect(turnLine('en', { ...placing, placing: { kind: 'king', id: 'K2' } })).toBe('Player 3 places a king (K2)');
  });

  it('names the capturer while a reserve king is awaited, and marks them as acting', () => {
    const awaiting: AduView = { ...VIEW, awaitingReserve: { player: 1 } };
    expect(turnLine('de', awaiting)).toBe('Spieler 1 setzt einen Reservekönig');
    expect(aduActor(awaiting)).toBe(1);
    expect(aduActor(VIEW)).toBe(2);
    expect(aduActor({ ...VIEW, outcome: { winner: '2', reason: 'last-king', players: [2] } })).toBeNull();
  });
});

describe('the Merkskala', () => {
  it('marks each range 1–6 possible or not, soldiers in order, and says when one is known', () => {
    const rows = merkskalaRows({ S3: [3, 4, 5, 6], S10: [1], S1: [2, 3] });
    expect(rows.map((r) => r.soldier)).toEqual(['S1', 'S3', 'S10']);
    expect(rows[1].cells.map((c) => (c.possible ? c.range : '-')).join('')).toBe('--3456');
    expect(rows.map((r) => r.known)).toEqual([false, false, true]);
    expect(merkskalaRows(undefined)).toEqual([]);
  });

  it('gives each seat its kings, reserve kings, Merkskala and marks', () => {
    const seats = aduSeats('de', VIEW);
    expect(seats.map((s) => [s.name, s.status, s.acting])).toEqual([
      ['Spieler 1', '1 König', false],
      ['Spieler 2', '1 König · 1 Reservekönig', true],
      ['Spieler 3', 'ausgeschieden', false],
    ]);
    expect(seats[0].merkskala[0].soldier).toBe('S3');
    expect(aduSeats('en', { ...VIEW, seats: [{ player: 1, in: true, kings: 2, reserves: 3 }] })[0].status).toBe('2 kings · 3 reserve kings');
  });

  it('marks the winner, and everyone who shares a draw', () => {
    const won = aduSeats('en', { ...VIEW, outcome: { winner: '2', reason: 'last-king', players: [2] } });
    expect(won.map((s) => s.winner)).toEqual([false, true, false]);
    const drawn = aduSeats('en', { ...VIEW, outcome: { winner: 'draw', reason: 'repetition', players: [1, 2] } });
    expect(drawn.map((s) => s.drawn)).toEqual([true, true, false]);
  });
});

describe('moves', () => {
  it('reads every form of the notation, and a bare range', () => {
    expect(readAduMove('K@d4')).toEqual({ kind: 'place', piece: 'king', to: 'd4' });
    expect(readAduMove('d4-d7')).toEqual({ kind: 'move', from: 'd4', to: 'd7' });
    expect(readAduMove('d4xd7=2')).toEqual({ kind: 'capture', from: 'd4', to: 'd7', declare: 2, reserve: null });
    expect(readAduMove('e5xe9R@h8')).toEqual({ kind: 'capture', from: 'e5', to: 'e9', declare: null, reserve: 'h8' });
    expect(readAduMove('s19xs18')).toMatchObject({ from: 's19', to: 's18' });
    expect(readAduMove('3')).toEqual({ kind: 'declare', range: 3 });
    expect(readAduMove('t1-t2')).toBeNull();
  });

  it('words a declaration as its range, whether offered as a move or a bare number', () => {
    expect(describeMove('de', 'adu', 'f1xg1=2')).toBe('Reichweite 2');
    expect(describeMove('en', 'adu', '4')).toBe('range 4');
    expect(describeMove('en', 'adu', 'd4xd7')).toBe('d4 captures d7');
    expect(describeMove('de', 'adu', 'e5xe9R@h8')).toBe('e5 schlägt e9, Reservekönig auf h8');
    expect(describeMove('de', 'adu', 'S@e5')).toBe('Soldat auf e5');
  });

  it('says who moved which piece, from the piece now on the target', () => {
    const table = { ...EMPTY_TABLE, view: VIEW };
    expect(lastMoveLine('de', table)).toBe('Spieler 1 zieht Soldat S3 von d4 nach d7');
    const capture: AduView = { ...VIEW, lastMove: { notation: 'e4xe5R@h8', squares: ['e4', 'e5', 'h8'] } };
    expect(lastMoveLine('en', { ...table, view: capture })).toBe('Player 2 captures on e5 with king from e4 — reserve king on h8');
    const declared: AduView = { ...VIEW, lastMove: { notation: 'c7xd7=3', squares: ['c7', 'd7'] } };
    expect(lastMoveLine('de', { ...table, view: declared })).toBe('Spieler 1 schlägt mit Soldat S3 von c7 auf d7 — Reichweite 3 erklärt');
    // The piece that moved is gone (the game ended with it, say): the notation is all there is.
    expect(lastMoveLine('de', { ...table, view: { ...VIEW, lastMove: { notation: 'a2-a3', squares: ['a2', 'a3'] } } })).toBe('a2-a3');
  });

  it('numbers the record by ply', () => {
    const { lines } = recordLines('adu', ['K@d4', 'K@e5', 'd4-d5'], 2);
    expect(lines.map((l) => `${l.label} ${l.moves[0].text}`)).toEqual(['2. K@e5', '3. d4-d5']);
  });
});

describe('the end', () => {
  it("names the winner and their kings, or who shares a draw", () => {
    const won: AduView = { ...VIEW, toMove: null, phase: 'over', outcome: { winner: '2', reason: 'last-king', players: [2] } };
    expect(outcomeLines('de', won)).toEqual({
      headline: 'Spieler 2 gewinnt',
      score: '1 König · 1 Reservekönig',
      reason: 'Nur noch ein Spieler hat einen König.',
    });
    const drawn: AduView = { ...won, outcome: { winner: 'draw', reason: 'no-moves', players: [1, 2] } };
    expect(outcomeLines('en', drawn)).toEqual({
      headline: 'Draw between Player 1 and Player 2',
      score: 'Still in at the end: Player 1 and Player 2',
      reason: 'No player still in can move.',
    });
  });

  it('draws an Adu board of its size', () => {
    expect(boardKind(VIEW)).toEqual({ game: 'adu', size: 13 });
  });
});

describe('fields the Adu referee may add', () => {
  // `passed` and `declaring` are being drafted for the contract: a view may or may not carry them.
  const withExtras = (extras: Record<string, unknown>): AduView => ({ ...VIEW, ...extras }) as AduView;

  it('says who passed for want of a move, and nothing when nobody did or the field is absent or odd', () => {
    expect(passedLine('de', withExtras({ passed: [3] }))).toBe('Spieler 3 kann nicht ziehen und passt');
    expect(passedLine('en', withExtras({ passed: [1, 3] }))).toBe('Player 1 and Player 3 have no move and pass');
    expect(passedLine('de', VIEW)).toBeNull();
    expect(passedLine('de', withExtras({ passed: [] }))).toBeNull();
    expect(aduPassed(withExtras({ passed: 'everyone' }))).toEqual([]);
    expect(aduPassed(withExtras({ passed: [2, 'x', 1.5] }))).toEqual([2]);
  });

  it('lists a player’s captured soldiers whose range is still to be declared', () => {
    const view = withExtras({ declaring: [{ player: 2, soldier: 'S5', square: 'f1' }, { player: 1 }] });
    expect(aduDeclaring(view)).toEqual([{ player: 2, soldier: 'S5', square: 'f1' }]);
    expect(declaringLines('de', view, 2)).toEqual(['S5 geschlagen auf f1 — Reichweite noch nicht erklärt']);
    expect(declaringLines('en', view, 1)).toEqual([]);
    expect(aduDeclaring(VIEW)).toEqual([]);
  });
});
