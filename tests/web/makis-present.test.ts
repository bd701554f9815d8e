// What the pages say about a Makis table: whose turn, each Maki and its odds, the dice, what to put back, the record.
import { describe, expect, it } from 'vitest';
import type { MakisView } from '../../server/http/messages.ts';
import { EMPTY_TABLE } from '../../web/src/connection/state.ts';
import {
  boardKind,
  describeMove,
  lastMoveLine,
  outcomeLines,
  recordLines,
  turnLine,
} from '../../web/src/common/present.ts';
import {
  dangerNumber,
  dangerShare,
  expectedRollLine,
  knightSteps,
  lastMakiCell,
  makisSeats,
  pendingLines,
  readMakisToken,
} from '../../web/src/common/present-makis.ts';

const VIEW: MakisView = {
  game: 'makis',
  players: 3,
  mode: 'competitive',
  knights: [4, 3, 2, 5, 3, 4, 4, 4, 3],
  makis: ['c4r7', 'c2r4', 'out'],
  phase: 'roll',
  toMove: 2,
  lastRoll: [2, 5, 4],
  expectedRoll: null,
  odds: {
    danger: { c4r7: { capture: 6, reset: 0 }, c2r4: { capture: 66, reset: 5 } },
    makis: [
      { player: 1, square: 'c4r7', capture: 6, reset: 0 },
      { player: 2, square: 'c2r4', capture: 66, reset: 5 },
    ],
    knightsHome: 0,
  },
  pending: [{ piece: 'knight', column: 1, from: 'c1r4', to: 'c1r1' }],
  outcome: null,
  lastMove: '2:c2r4',
};

describe('the turn', () => {
  it.each([
    ['place', 'de', 'Spieler 2 setzt den Maki auf Reihe 9'],
    ['roll', 'de', 'Spieler 2 würfelt'],
    ['maki', 'en', 'Player 2 moves their Maki — or passes'],
  ] as const)('%s in %s: %s', (phase, lang, text) => {
    expect(turnLine(lang, { ...VIEW, phase })).toBe(text);
  });

  it('is nobody’s once the game is over', () => {
    expect(turnLine('de', { ...VIEW, phase: 'over', toMove: null, outcome: { winner: 'knights', reason: 'knight-home' } })).toBeNull();
  });
});

describe('the dice', () => {
  it('moves a knight once per number rolled, twice for a double', () => {
    expect(knightSteps([2, 5, 5])).toEqual([
      { column: 2, count: 1 },
      { column: 5, count: 2 },
    ]);
    expect(knightSteps([9, 1, 3])).toEqual([
      { column: 1, count: 1 },
      { column: 3, count: 1 },
      { column: 9, count: 1 },
    ]);
  });

  it('tells the players what the table’s roll asks of the knights', () => {
    expect(expectedRollLine('de', [1, 1, 2])).toBe('Jetzt die Ritter ziehen: Spalte 1: 2 Felder vor, Spalte 2: ein Feld vor');
    expect(expectedRollLine('en', [2, 5, 4])).toBe(
      'Now move the knights: column 2: one square forward, column 4: one square forward, column 5: one square forward',
    );
  });
});

describe('the danger map', () => {
  it('adds capture and sending back (one roll does one or the other) as a share of 216', () => {
    expect(dangerShare({ capture: 66, reset: 5 })).toBeCloseTo(71 / 216);
    expect(dangerShare(undefined)).toBe(0);
    expect(dangerShare({ capture: 300, reset: 0 })).toBe(1);
  });

  it('writes whole percent, nothing for no danger, never 0 for some', () => {
    expect(dangerNumber(71 / 216)).toBe('33');
    expect(dangerNumber(0)).toBe('');
    expect(dangerNumber(1 / 216)).toBe('<1');
  });
});

describe('the seats', () => {
  it('says where each Maki is, what the next roll may do to it, who acts and who is out', () => {
    const seats = makisSeats('de', VIEW);
    expect(seats.map((s) => [s.name, s.state, s.where, s.toMove])).toEqual([
      ['Spieler 1', 'on-board', 'auf 4/7', false],
      ['Spieler 2', 'on-board', 'auf 2/4', true],
      ['Spieler 3', 'out', 'geschlagen — ausgeschieden', false],
    ]);
    expect(seats[1].odds).toBe('nächster Wurf: geschlagen 31\u00a0% · zurück 2\u00a0%');
    expect(seats[2].odds).toBeNull();
  });

  it('has no odds when no roll is due, and marks the winner or the whole team', () => {
    const over: MakisView = { ...VIEW, phase: 'over', toMove: null, odds: null, outcome: { winner: '2', reason: 'maki-home' } };
    expect(makisSeats('en', over).map((s) => [s.odds, s.winner, s.toMove])).toEqual([
      [null, false, false],
      [null, true, false],
      [null, false, false],
    ]);
    const team: MakisView = { ...over, mode: 'cooperative', outcome: { winner: 'team', reason: 'maki-home' } };
    expect(makisSeats('en', team).map((s) => s.winner)).toEqual([true, true, false]);
  });

  it('says which pieces to put back, from where to where', () => {
    expect(pendingLines('de', VIEW.pending)).toEqual(['Ritter der Spalte 1 von 1/4 zurück auf 1/1']);
    expect(pendingLines('en', [{ piece: 'maki', column: 4, player: 3, from: 'c4r5', to: 'c4r9' }])).toEqual([
      'Maki of Player 3 from 4/5 back to 4/9',
    ]);
  });
});

describe('record tokens', () => {
  it('reads rolls, steps, passes and placements, and nothing else', () => {
    expect(readMakisToken('R2.5.5')).toEqual({ kind: 'roll', roll: [2, 5, 5] });
    expect(readMakisToken('1:c4r8')).toEqual({ kind: 'step', player: 1, square: 'c4r8' });
    expect(readMakisToken('2:-')).toEqual({ kind: 'step', player: 2, square: null });
    expect(readMakisToken('3@c5r9')).toEqual({ kind: 'place', player: 3, square: 'c5r9' });
    expect(readMakisToken('R2.5')).toBeNull();
    expect(readMakisToken('1:c0r8')).toBeNull();
  });

  it('words the last move and the console’s answers', () => {
    const table = { ...EMPTY_TABLE, view: VIEW };
    expect(lastMoveLine('de', table)).toBe('Spieler 2 zieht den Maki nach 2/4');
    expect(lastMoveLine('en', { ...table, view: { ...VIEW, lastMove: 'R2.5.4' } })).toBe('Roll 2 · 5 · 4');
    expect(lastMoveLine('en', { ...table, view: { ...VIEW, lastMove: '3:-' } })).toBe('Player 3 passes');
    expect(lastMoveLine('de', { ...table, view: { ...VIEW, lastMove: '1@c5r9' } })).toBe('Spieler 1 setzt den Maki auf 5/9');
    expect(describeMove('de', 'makis', 'R2.5.6')).toBe('Wurf 2 · 5 · 6');
    expect(describeMove('en', 'makis', '1:c4r8')).toBe('Player 1 to 4/8');
    expect(describeMove('en', 'makis', 'nonsense')).toBe('nonsense');
  });

  it('finds the square a Maki moved to, for framing it', () => {
    expect(lastMakiCell('2:c2r4')).toBe(3 * 9 + 1);
    expect(lastMakiCell('2:-')).toBeNull();
    expect(lastMakiCell('R1.2.3')).toBeNull();
    expect(lastMakiCell(null)).toBeNull();
  });

  it('groups the record by rounds: placements first, a new row at each roll', () => {
    const record = ['1@c5r9', '2@c2r9', 'R1.2.3', '1:c5r8', '2:-', 'R4.4.9', '2:c2r8'];
    const { lines, hidden } = recordLines('makis', record, 10);
    expect(hidden).toBe(0);
    expect(lines.map((l) => [l.label, l.moves.map((m) => m.text).join(' ')])).toEqual([
      ['', '1@c5r9 2@c2r9'],
      ['1.', 'R1.2.3 1:c5r8 2:-'],
      ['2.', 'R4.4.9 2:c2r8'],
    ]);
    expect(lines[2].moves[1].index).toBe(6);
    expect(recordLines('makis', record, 1)).toMatchObject({ hidden: 2, lines: [{ label: '2.' }] });
  });
});

describe('the end', () => {
  it('names the winner: a player, the team or the knights', () => {
    const over = { ...VIEW, phase: 'over' as const, toMove: null, odds: null };
    expect(outcomeLines('de', { ...over, outcome: { winner: '2', reason: 'maki-home' } })).toEqual({
      headline: 'Spieler 2 gewinnt',
      score: 'Am Ende noch im Spiel: Spieler 1 und Spieler 2',
      reason: 'Ein Maki hat Reihe 1 erreicht.',
    });
    expect(outcomeLines('en', { ...over, outcome: { winner: 'knights', reason: 'knight-home' } })?.headline).toBe('The knights win');
    expect(outcomeLines('de', { ...over, outcome: { winner: 'team', reason: 'maki-home' } })?.headline).toBe('Das Team gewinnt');
    expect(outcomeLines('en', { ...over, makis: ['out', 'out', 'out'], outcome: { winner: 'knights', reason: 'all-captured' } })).toEqual({
      headline: 'The knights win',
      score: 'No Maki left in the game',
      reason: 'Every Maki was captured.',
    });
  });

  it('draws a Makis board with square names like the screens', () => {
    expect(boardKind(VIEW)).toEqual({ game: 'makis' });
  });
});
