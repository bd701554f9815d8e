// Finding games (filters, paging, record length), importing whole games, and one transaction for many writes.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { GameLogInputError, openGameLog } from '../../server/store/index.ts';
import type { GameLog, ImportedGame } from '../../server/store/index.ts';
import { kalahaGame } from './helpers.ts';

let log: GameLog;
beforeEach(() => {
  log = openGameLog(':memory:');
});
afterEach(() => log.close());

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

function move(id: number, move: string, ply: number, at = T0): void {
  log.append(id, { kind: 'move', at, payload: { move, ply } });
}

describe('filters', () => {
  function seed() {
    return {
      a: log.startGame(kalahaGame({ boardId: 'vauban', players: { south: 'Anna', north: 'Ben' }, at: T0 })),
      b: log.startGame(kalahaGame({ game: 'malawi', boardId: 'vauban', players: { south: 'Ben', north: 'Cleo' }, at: T0 + HOUR })),
      c: log.startGame(kalahaGame({ boardId: 'rieselfeld', players: { south: 'anna', north: 'Dora' }, at: T0 + 30 * HOUR })),
      d: log.startGame(kalahaGame({ game: 'adu', boardId: 'vauban', players: { '1': 'Anna', '2': 'Emil', '3': 'Ben' }, at: T0 + 2 * HOUR })),
    };
  }

  test('by game, board, player and time, each alone and together', () => {
    const { a, b, c, d } = seed();
    const ids = (filter: object) => log.listGames(filter).map((g) => g.id);
    expect(ids({ game: 'kalaha' })).toEqual([c, a]);
    expect(ids({ board: 'vauban' })).toEqual([d, b, a]);
    // A name at any seat, the whole name, ASCII case ignored.
    expect(ids({ player: 'anna' })).toEqual([c, d, a]);
    expect(ids({ player: 'Ann' })).toEqual([]);
    expect(ids({ player: 'Cleo' })).toEqual([b]);
    expect(ids({ from: T0 + HOUR, to: T0 + 2 * HOUR })).toEqual([b]);
    expect(ids({ from: T0 + HOUR })).toEqual([c, d, b]);
    expect(ids({ board: 'vauban', player: 'Ben', to: T0 + 2 * HOUR })).toEqual([b, a]);
    expect(ids({ game: 'kalaha', board: 'vauban', player: 'Dora' })).toEqual([]);
  });

  test('count and every game agree with the pages', () => {
    seed();
    for (const filter of [{}, { board: 'vauban' }, { player: 'Ben' }, { game: 'malawi' as const }]) {
      const all = log.allGames(filter);
      expect(log.countGames(filter)).toBe(all.length);
      const pages = [0, 2, 4].flatMap((offset) => log.listGames({ ...filter, limit: 2, offset }));
      // Pages are newest first, every game once; allGames is oldest first.
      expect(pages.map((g) => g.id)).toEqual(all.map((g) => g.id).reverse());
    }
  });

  test('players: each name once with its games, ASCII case ignored, filtered like the games', () => {
    seed();
    log.startGame(kalahaGame({ players: { south: 'Ben', north: 'Ben' }, at: T0 + 40 * HOUR }));
    expect(log.players()).toEqual([
      { name: 'Ben', games: 4 },
      { name: 'Anna', games: 3 },
      { name: 'Cleo', games: 1 },
      { name: 'Dora', games: 1 },
      { name: 'Emil', games: 1 },
    ]);
    expect(log.players({ board: 'rieselfeld' })).toEqual([
      { name: 'anna', games: 1 },
      { name: 'Dora', games: 1 },
    ]);
    expect(log.players({ game: 'makis' })).toEqual([]);
  });

  test('newest first means by start, so an old game imported later sorts by when it was played', () => {
    const played = log.startGame(kalahaGame({ at: T0 + 10 * HOUR }));
    const older = log.importGame(imported({ startedAt: T0 }));
    expect(log.listGames().map((g) => g.id)).toEqual([played, older]);
    expect(log.allGames().map((g) => g.id)).toEqual([older, played]);
  });

  test.each([
    [{ board: '' }],
    [{ player: 'x'.repeat(201) }],
    [{ from: -1 }],
    [{ to: 1.5 }],
    [{ game: 'chess' }],
  ])('refuses %o in every query', (filter) => {
    for (const call of [() => log.listGames(filter as object), () => log.countGames(filter as object), () => log.allGames(filter as object)]) {
      expect(call).toThrow(GameLogInputError);
    }
  });
});

describe('plies', () => {
  test('is the length of the record after take-backs, whatever else was logged', () => {
    const id = log.startGame(kalahaGame());
    const plies = () => log.listGames()[0].plies;
    expect(plies()).toBe(0);
    move(id, 'C', 1);
    move(id, 'e', 2);
    log.append(id, { kind: 'alert', at: T0, payload: { code: 'referee/mismatch' } });
    expect(plies()).toBe(2);
    log.append(id, { kind: 'takeback', at: T0, payload: { undone: ['e'], ply: 1 } });
    expect(plies()).toBe(1);
    move(id, 'd', 2);
    log.append(id, { kind: 'answer', at: T0, payload: { command: { kind: 'confirm' } } });
    log.endGame(id, { at: T0, result: { winner: 'south' } });
    expect(plies()).toBe(2);
    expect(log.allGames()[0].plies).toBe(2);
  });
});

function imported(overrides: Partial<ImportedGame> = {}): ImportedGame {
  return {
    game: 'kalaha',
    options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 },
    players: { south: 'Anna', north: 'Ben' },
    boardId: 'vauban',
    source: 'hand',
    startedAt: T0,
    events: [
      { kind: 'move', at: T0 + 1, payload: { move: 'C', ply: 1 } },
      { kind: 'move', at: T0 + 2, payload: { move: 'e', ply: 2 } },
    ],
    end: { at: T0 + 3, result: { winner: 'north', reason: 'agreed' } },
    importedAt: T0 + 99,
    ...overrides,
  };
}

describe('importGame', () => {
  test('writes the game, its events numbered from 1, and its end, ended and marked as imported', () => {
    const id = log.importGame(imported());
    expect(log.game(id)).toMatchObject({ startedAt: T0, endedAt: T0 + 3, result: { winner: 'north', reason: 'agreed' }, importedAt: T0 + 99, source: 'hand' });
    expect(log.events(id)).toEqual([
      { gameId: id, seq: 1, at: T0 + 1, kind: 'move', payload: { move: 'C', ply: 1 } },
      { gameId: id, seq: 2, at: T0 + 2, kind: 'move', payload: { move: 'e', ply: 2 } },
      { gameId: id, seq: 3, at: T0 + 3, kind: 'end', payload: { winner: 'north', reason: 'agreed' } },
    ]);
    // Never a live game: nothing for serve to resume.
    expect(log.liveGame('vauban')).toBeUndefined();
  });

  test.each([
    ['an end event among the events', { events: [{ kind: 'end', at: T0, payload: null }] }],
    ['an event that is not JSON', { events: [{ kind: 'note', at: T0, payload: { n: Number.NaN } }] }],
    ['a bad event time', { events: [{ kind: 'move', at: -5, payload: {} }] }],
    ['a bad game', { game: 'chess' }],
    ['a bad source', { source: 'telepathy' }],
    ['a bad import time', { importedAt: 1.5 }],
  ])('refuses %s and writes nothing', (_why, overrides) => {
    log.startGame(kalahaGame());
    expect(() => log.importGame(imported(overrides as Partial<ImportedGame>))).toThrow(GameLogInputError);
    expect(log.countGames()).toBe(1);
  });
});

describe('transaction', () => {
  test('commits every write together', () => {
    const ids = log.transaction(() => [log.importGame(imported()), log.startGame(kalahaGame())]);
    expect(log.allGames().map((g) => g.id)).toEqual(ids);
  });

  test('a throw inside writes nothing at all, imported games and events included', () => {
    const before = log.startGame(kalahaGame());
    move(before, 'C', 1);
    expect(() =>
      log.transaction(() => {
        log.importGame(imported());
        move(before, 'e', 2);
        log.importGame(imported({ boardId: 'other' }));
        throw new Error('the third game of the file is bad');
      }),
    ).toThrow('the third game');
    expect(log.countGames()).toBe(1);
    expect(log.events(before).map((e) => e.seq)).toEqual([1]);
    // And the log goes on as before.
    move(before, 'e', 2);
    expect(log.events(before).map((e) => e.seq)).toEqual([1, 2]);
  });
});
