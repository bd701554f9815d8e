// The history page's presenters: positions as the boards draw them, the score over a game for all four games, the
// Kalaha capture heat map, and how a logged game is worded. Positions come from the server's own replay.
import { describe, expect, it } from 'vitest';
import { positionsOf } from '../../server/export/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { randomGame } from '../store/random-games.ts';
import type { Positions, PositionStep } from '../../web/src/history/api.ts';
import { aduSquares, boardAt, lastPly, malawiLastMove, readRoll, stepAt } from '../../web/src/history/replay.ts';
import { scoreSeries } from '../../web/src/history/score.ts';
import { captureHeat, heatLevel } from '../../web/src/history/heatmap.ts';
import { lengthLine, playerLabel, playersOf, problemLines, resultLine, seatsOf, sourceLine } from '../../web/src/history/format.ts';

/** What GET /api/games/:id/positions answers for a record. */
function positions(game: GameName, options: object, moves: readonly string[]): Positions {
  const replay = positionsOf(game, options, moves);
  if ('optionsError' in replay) throw new Error(replay.optionsError.message);
  // Through JSON, as the page receives it.
  const steps = JSON.parse(JSON.stringify(replay.steps)) as PositionStep[];
  return { id: 1, game, options, moves, steps, error: null };
}

function random(game: GameName, options: object, seed: number): Positions {
  const g = randomGame(game, options, seed);
  return positions(game, g.options, g.moves);
}

describe('boardAt', () => {
  // RULES.md §1, the seed's example: after C e F, north sows d: e, f, A, B, C; C now holds 2 and is captured.
  const seedExample = positions('kalaha', {}, ['C', 'e', 'F', 'd']);

  it('gives the Kalaha board of every ply, in the board component’s pit order', () => {
    expect(boardAt(seedExample, 0)).toEqual({
      game: 'kalaha',
      pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
      stores: { south: 0, north: 0 },
      toMove: 'south',
      lastMove: null,
    });
    const board = boardAt(seedExample, 4);
    expect(board).toMatchObject({ game: 'kalaha', stores: { south: 0, north: 2 }, toMove: 'south' });
    //                        A  B  C  D  E  F  a  b  c  d  e  f
    expect(board.game === 'kalaha' && board.pits).toEqual([6, 6, 0, 5, 5, 0, 6, 5, 5, 0, 2, 6]);
  });

  it('marks the pit sown from, the pits that gained stones, and the pits captured', () => {
    // d is cell 9; e, f, A, B gained a stone; C gained one and lost both to the capture.
    expect(boardAt(seedExample, 4).game === 'kalaha' && boardAt(seedExample, 4).lastMove).toEqual({ pit: 9, sown: [0, 1, 10, 11], captures: [2] });
    expect(boardAt(seedExample, 1).game === 'kalaha' && boardAt(seedExample, 1).lastMove).toEqual({ pit: 2, sown: [3, 4, 5, 6], captures: [] });
  });

  it('clamps a ply outside the game to its ends', () => {
    expect(stepAt(seedExample, -5).ply).toBe(0);
    expect(stepAt(seedExample, 99).ply).toBe(4);
    expect(lastPly(seedExample)).toBe(4);
  });

  it('gives a Malawi board its size, pieces and last move, and nobody to move once it is over', () => {
    const game = random('malawi', { size: 5 }, 3);
    const start = boardAt(game, 0);
    expect(start).toMatchObject({ game: 'malawi', size: 5, toMove: 'south', lastMove: null });
    expect(start.game === 'malawi' && start.pieces).toHaveLength(10);
    expect(start.game === 'malawi' && start.pieces.every((p) => p.strength === 2)).toBe(true);
    const end = boardAt(game, lastPly(game));
    expect(end).toMatchObject({ toMove: null });
    expect(end.game === 'malawi' && end.lastMove?.notation).toBe(game.moves[game.moves.length - 1]);
  });

  it.each([
    ['c1-c3', { kind: 'move', squares: ['c1', 'c3'] }],
    ['c1xc5', { kind: 'capture', squares: ['c1', 'c5'] }],
    ['d1>a1,b1', { kind: 'distribute', squares: ['d1', 'a1', 'b1'] }],
    ['L12-L10', { kind: 'move', squares: ['l12', 'l10'] }],
  ])('reads the Malawi move %s', (notation, marks) => {
    expect(malawiLastMove(notation)).toEqual({ notation, ...marks });
  });
  it('reads no marks from a move it does not know', () => {
    expect(malawiLastMove('c1c3')).toBeNull();
    expect(malawiLastMove(null)).toBeNull();
  });

  it('gives a Makis board the knights by column, each player’s Maki, and the latest roll', () => {
    const game = random('makis', { players: 3 }, 40);
    expect(boardAt(game, 0)).toEqual({
      game: 'makis',
      knights: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      makis: [null, null, null],
      toMove: 1,
      lastRoll: null,
      lastMove: null,
    });
    const afterPlacement = boardAt(game, 3);
    expect(afterPlacement.game === 'makis' && afterPlacement.makis.every((m) => /^c\dr9$/.test(m ?? ''))).toBe(true);
    // The ply after the first roll is a Maki's move; the board still shows that roll.
    const roll = game.moves[3];
    expect(readRoll(roll)).not.toBeNull();
    expect(boardAt(game, 5)).toMatchObject({ lastRoll: readRoll(roll), lastMove: game.moves[4] });
  });

  it('gives an Adu board its pieces and the points of the last move', () => {
    const game = random('adu', { players: 3, size: 9 }, 33);
    const board = boardAt(game, 24);
    expect(board).toMatchObject({ game: 'adu', size: 9 });
    // Placement: two kings and six soldiers each for three players.
    expect(board.game === 'adu' && board.pieces).toHaveLength(24);
    expect(board.game === 'adu' && board.lastMove).toEqual({ notation: game.moves[23], squares: aduSquares(game.moves[23]) });
  });

  it.each([
    ['K@d4', ['d4']],
    ['d4-d7', ['d4', 'd7']],
    ['d4xd7=2', ['d4', 'd7']],
    ['e5xe9R@h8', ['e5', 'e9', 'h8']],
    ['a12-a19', ['a12', 'a19']],
  ])('reads the points of the Adu move %s', (notation, squares) => {
    expect(aduSquares(notation)).toEqual(squares);
  });
});

describe('scoreSeries', () => {
  it('Kalaha: both stores at every ply', () => {
    const series = scoreSeries(positions('kalaha', {}, ['C', 'e', 'F', 'd']));
    expect(series).toEqual({
      game: 'kalaha',
      lines: [
        { key: 'south', values: [0, 0, 0, 0, 0] },
        { key: 'north', values: [0, 0, 0, 0, 2] },
      ],
      max: null,
    });
  });

  it('Kalaha over a whole game: stores never fall, end where the game ends, and keep every stone with the pits', () => {
    const game = random('kalaha', { seedsPerPit: 6 }, 105);
    const [south, north] = scoreSeries(game).lines;
    expect(south.values).toHaveLength(game.steps.length);
    for (let i = 1; i < game.steps.length; i++) {
      expect(south.values[i]).toBeGreaterThanOrEqual(south.values[i - 1] as number);
      expect(north.values[i]).toBeGreaterThanOrEqual(north.values[i - 1] as number);
      const board = boardAt(game, i);
      const pits = board.game === 'kalaha' ? board.pits.reduce((a, b) => a + b, 0) : NaN;
      expect(pits + (south.values[i] as number) + (north.values[i] as number)).toBe(72);
    }
    const last = game.steps[game.steps.length - 1].position as { stores: { south: number; north: number } };
    expect([south.values.at(-1), north.values.at(-1)]).toEqual([last.stores.south, last.stores.north]);
  });

  it('Malawi: each side’s beads, 2 per piece at the start, and a side at 0 beads has lost', () => {
    const game = random('malawi', {}, 32);
    const series = scoreSeries(game);
    expect(series.lines.map((l) => l.key)).toEqual(['south', 'north']);
    expect(series.lines.map((l) => l.values[0])).toEqual([12, 12]);
    const winner = game.steps[game.steps.length - 1].winner;
    const loser = series.lines.find((l) => l.key !== winner) as { values: readonly number[] };
    const won = series.lines.find((l) => l.key === winner) as { values: readonly number[] };
    // Malawi ends on the baseline (3a) or when a side has no beads left (3b); either way the winner still has beads.
    expect(won.values.at(-1)).toBeGreaterThan(0);
    expect(loser.values.every((v) => v >= 0)).toBe(true);
  });

  it('Makis: the leading knight’s rows and each Maki’s rows towards its goal; nothing before a Maki is placed', () => {
    const game = random('makis', { players: 3 }, 40);
    const series = scoreSeries(game);
    expect(series.max).toBe(8);
    expect(series.lines.map((l) => l.key)).toEqual(['knights', '1', '2', '3']);
    expect(series.lines.map((l) => l.values[0])).toEqual([0, null, null, null]);
    expect(series.lines.map((l) => l.values[3])).toEqual([0, 0, 0, 0]);
    const end = game.steps[game.steps.length - 1];
    const knights = series.lines[0].values.at(-1);
    // The knights won this one: one of them stands on row 9, eight rows from its start.
    expect(end.winner).toBe('knights');
    expect(knights).toBe(8);
    for (const line of series.lines) for (const v of line.values) if (v !== null) expect(v).toBeGreaterThanOrEqual(0);
  });

  it('Makis: a captured Maki’s line ends', () => {
    const game = random('makis', { players: 3 }, 40);
    const end = game.steps[game.steps.length - 1].position as { makis: Record<string, string> };
    const out = Object.entries(end.makis).filter(([, spot]) => spot === 'out');
    const series = scoreSeries(game);
    for (const [player] of out) expect(series.lines.find((l) => l.key === player)?.values.at(-1)).toBeNull();
  });

  it('Adu: each player’s pieces, eight each once placed', () => {
    const game = random('adu', { players: 3, size: 9 }, 33);
    const series = scoreSeries(game);
    expect(series.lines.map((l) => l.key)).toEqual(['1', '2', '3']);
    expect(series.lines.map((l) => l.values[0])).toEqual([0, 0, 0]);
    expect(series.lines.map((l) => l.values[24])).toEqual([8, 8, 8]);
    // The winner is the last with a king: the others end with nothing on the board.
    const winner = game.steps[game.steps.length - 1].winner;
    for (const line of series.lines) {
      if (line.key === winner) expect(line.values.at(-1)).toBeGreaterThan(0);
      else expect(line.values.at(-1)).toBe(0);
    }
  });
});

describe('captureHeat', () => {
  const step = (ply: number, captures: PositionStep['captures'] = []): PositionStep => ({
    ply,
    move: 'A',
    over: false,
    winner: null,
    toMove: 'south',
    position: {},
    captures,
  });
  const steps = [
    step(0),
    step(1, [{ pit: 'c', stones: 2 }]),
    step(2, [
      { pit: 'C', stones: 3 },
      { pit: 'B', stones: 2 },
    ]),
    step(3),
    step(4, [{ pit: 'c', stones: 3 }]),
  ];

  it('adds up the stones and the captures of every pit, in the board’s order', () => {
    const heat = captureHeat(steps);
    expect(heat.stones).toBe(10);
    expect(heat.max).toBe(5);
    expect(heat.pits.map((p) => p.pit).join('')).toBe('ABCDEFabcdef');
    expect(heat.pits.find((p) => p.pit === 'c')).toEqual({ pit: 'c', stones: 5, captures: 2 });
    expect(heat.pits.find((p) => p.pit === 'C')).toEqual({ pit: 'C', stones: 3, captures: 1 });
    expect(heat.pits.find((p) => p.pit === 'A')).toEqual({ pit: 'A', stones: 0, captures: 0 });
  });

  it('counts up to a ply when asked', () => {
    expect(captureHeat(steps, 2).stones).toBe(7);
    expect(captureHeat(steps, 0).stones).toBe(0);
  });

  it('ignores what is not a capture: unknown pits, no stones', () => {
    const heat = captureHeat([step(1, [{ pit: 'Q', stones: 4 }, { pit: 'a', stones: 0 }])]);
    expect(heat).toMatchObject({ stones: 0, max: 0 });
  });

  it('agrees with the seed’s example game: 2 stones from C', () => {
    const heat = captureHeat(positions('kalaha', {}, ['C', 'e', 'F', 'd']).steps);
    expect(heat.pits.filter((p) => p.stones > 0)).toEqual([{ pit: 'C', stones: 2, captures: 1 }]);
  });

  it('scales colours from none to the fullest pit', () => {
    expect([heatLevel(0, 5), heatLevel(5, 5), heatLevel(2, 8), heatLevel(3, 0)]).toEqual([0, 1, 0.25, 0]);
  });
});

describe('wording a logged game', () => {
  const base = { game: 'kalaha' as const, players: { south: 'Anna', north: 'Ben' }, endedAt: 2_000_000, startedAt: 0 };

  it.each([
    [{ winner: 'south', reason: 'no-seeds', stores: { south: 28, north: 20 } }, 'de', 'Anna (Süd) gewinnt 28 : 20'],
    [{ winner: 'north', reason: 'no-seeds', stores: { south: 14, north: 34 } }, 'de', 'Ben (Nord) gewinnt 34 : 14'],
    [{ winner: 'draw', reason: 'no-seeds', stores: { south: 24, north: 24 } }, 'en', 'Draw 24 : 24'],
    [{ reason: 'abandoned' }, 'de', 'abgebrochen'],
    [null, 'en', 'no result'],
  ] as const)('Kalaha result %o in %s', (result, lang, text) => {
    expect(resultLine(lang, { ...base, result })).toBe(text);
  });

  it('says a live game is in progress', () => {
    expect(resultLine('de', { ...base, endedAt: null, result: null })).toBe('läuft');
  });

  it.each([
    ['makis', { winner: 'knights' }, 'Die Ritter gewinnen'],
    ['makis', { winner: 'team' }, 'Das Team gewinnt'],
    ['makis', { winner: '2' }, 'Spieler 2 gewinnt'],
    ['adu', { winner: '3' }, 'Emil (Spieler 3) gewinnt'],
  ] as const)('%s result %o', (game, result, text) => {
    expect(resultLine('de', { game, result, endedAt: 1, players: { '3': 'Emil' } })).toBe(text);
  });

  it('leaves out a name that only repeats the seat, in either language', () => {
    expect(playerLabel('de', 'south', { south: 'Süd' })).toBe('Süd');
    expect(playerLabel('de', 'north', { north: 'North' })).toBe('Nord');
    expect(playerLabel('en', 'south', { south: 'Anna' })).toBe('Anna (South)');
    expect(playerLabel('en', '2', {})).toBe('Player 2');
  });

  it('lists the players seat by seat, as many seats as the options say', () => {
    expect(seatsOf('adu', { players: 4 })).toEqual(['1', '2', '3', '4']);
    expect(seatsOf('makis', {})).toEqual(['1']);
    expect(playersOf('en', { game: 'adu', options: { players: 3 }, players: { '1': 'Dora', '3': 'Emil' } })).toEqual(['Dora', 'Player 2', 'Emil']);
    expect(playersOf('de', { game: 'malawi', options: {}, players: {} })).toEqual(['Süd', 'Nord']);
  });

  it('gives the length in moves and minutes, and the source', () => {
    expect(lengthLine('de', { plies: 300, startedAt: 0, endedAt: 52 * 60_000 })).toBe('300 Züge · 52 min');
    expect(lengthLine('en', { plies: 1, startedAt: 0, endedAt: 20_000 })).toBe('1 move · < 1 min');
    expect(lengthLine('en', { plies: 9, startedAt: 0, endedAt: null })).toBe('9 moves');
    expect(sourceLine('de', { source: 'hand', importedAt: null })).toBe('von Hand');
    expect(sourceLine('en', { source: 'sensors', importedAt: 5 })).toBe('sensors · imported');
  });

  it.each([
    [{ kind: 'unreachable' }, 'de', 'Der Spieltisch ist nicht erreichbar. Bitte später noch einmal versuchen.', null],
    [{ kind: 'refused', status: 404, code: 'not-found', message: 'No such API route.' }, 'en', 'This table keeps no game log.', 'Error 404 · not-found'],
    [{ kind: 'refused', status: 400, code: 'api/bad-query', message: '…' }, 'de', 'Der Spieltisch lehnt diese Filter ab.', 'Fehler 400 · api/bad-query'],
    [{ kind: 'refused', status: 500, code: 'http/500', message: '' }, 'en', 'The data could not be loaded.', 'Error 500 · http/500'],
  ] as const)('words the failed request %o', (problem, lang, text, detail) => {
    expect(problemLines(lang, problem)).toEqual({ text, detail });
  });
});
