// The store contract: what every game log does, whichever database holds it. Run against SQLite
// (game-log.test.ts, queries.test.ts) and PostgreSQL (postgres.test.ts).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { GameLogInputError } from '../../server/store/index.ts';
import type { GameLog, ImportedGame, NewEvent } from '../../server/store/index.ts';
import { kalahaGame } from './helpers.ts';

export type OpenLog = () => GameLog | Promise<GameLog>;

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

/** A fresh, empty log per test. */
function useLog(open: OpenLog): () => GameLog {
  let log: GameLog | undefined;
  beforeEach(async () => {
    log = await open();
  });
  afterEach(() => {
    log?.close();
    log = undefined;
  });
  return () => {
    if (!log) throw new Error('no log open');
    return log;
  };
}

/** Round trips, seq, ending, validation, append-only through the API, live games, listing. */
export function gameLogContract(open: OpenLog): void {
  const log = useLog(open);

  describe('round trip', () => {
    test('a game reads back exactly as started', () => {
      const id = log().startGame(kalahaGame({ players: { south: 'Jürgen Ölmüller', north: '李雷' }, source: 'hand', at: T0 }));
      expect(log().game(id)).toEqual({
        id,
        game: 'kalaha',
        options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 },
        players: { south: 'Jürgen Ölmüller', north: '李雷' },
        boardId: 'vauban',
        source: 'hand',
        startedAt: T0,
        endedAt: null,
        result: null,
        importedAt: null,
      });
    });

    test('events read back exactly as appended, in order', () => {
      const id = log().startGame(kalahaGame());
      const written: NewEvent[] = [
        { kind: 'move', at: T0 + 1, payload: { kind: 'sow', pit: 2 } },
        { kind: 'alert', at: T0 + 2, payload: { code: 'kalaha/forbidden-capture', cells: [0, 11], weight: -0.25 } },
        { kind: 'answer', at: T0 + 3, payload: { chose: 1, by: 'referee' } },
        { kind: 'takeback', at: T0 + 4, payload: null },
        { kind: 'fault', at: T0 + 5, payload: 'sensor 7 silent' },
        { kind: 'note', at: T0 + 6, payload: [true, false, { nested: { deeper: ['ä', '😀', ''] } }] },
      ];
      for (const e of written) log().append(id, e);
      expect(log().events(id)).toEqual(written.map((e, i) => ({ gameId: id, seq: i + 1, ...e })));
    });

    test('an optional property left undefined is omitted, as TypeScript expects', () => {
      const id = log().startGame(kalahaGame());
      log().append(id, { kind: 'move', at: T0, payload: { pit: 1, capture: undefined } });
      expect(log().events(id)[0].payload).toStrictEqual({ pit: 1 });
    });

    test('events after a given seq', () => {
      const id = log().startGame(kalahaGame());
      for (let pit = 0; pit < 5; pit++) log().append(id, { kind: 'move', at: T0 + pit, payload: { pit } });
      expect(log().events(id, 3).map((e) => e.seq)).toEqual([4, 5]);
      expect(log().events(id, 5)).toEqual([]);
      expect(log().events(id, 0)).toHaveLength(5);
    });

    test('a correction reads back as appended, and a move may be marked assumed', () => {
      const id = log().startGame(kalahaGame());
      const written: NewEvent[] = [
        { kind: 'move', at: T0 + 1, payload: { move: 'c', ply: 1, assumed: true } },
        { kind: 'correction', at: T0 + 2, payload: { ply: 1, old: ['c'], new: ['e'], reason: 'evidence' } },
      ];
      for (const e of written) log().append(id, e);
      expect(log().events(id)).toEqual(written.map((e, i) => ({ gameId: id, seq: i + 1, ...e })));
    });

    test('an unknown game has no record and no events', () => {
      expect(log().game(42)).toBeUndefined();
      expect(log().events(42)).toEqual([]);
    });
  });

  describe('seq', () => {
    test('counts 1, 2, 3, … per game, independently when games interleave', () => {
      const a = log().startGame(kalahaGame({ boardId: 'table-1' }));
      const b = log().startGame(kalahaGame({ boardId: 'table-2' }));
      const seqs: Record<number, number[]> = { [a]: [], [b]: [] };
      for (let i = 0; i < 10; i++) {
        const gameId = i % 3 === 0 ? b : a;
        seqs[gameId].push(log().append(gameId, { kind: 'move', at: T0 + i, payload: { i } }));
      }
      expect(seqs[a]).toEqual([1, 2, 3, 4, 5, 6]);
      expect(seqs[b]).toEqual([1, 2, 3, 4]);
      expect(log().events(a).map((e) => e.seq)).toEqual(seqs[a]);
      expect(log().events(b).map((e) => e.seq)).toEqual(seqs[b]);
    });

    test('times are the caller’s: an earlier time after a later one is kept as given (clocks jump)', () => {
      const id = log().startGame(kalahaGame());
      log().append(id, { kind: 'move', at: T0 + 500, payload: 1 });
      log().append(id, { kind: 'move', at: T0 + 100, payload: 2 });
      expect(log().events(id).map((e) => [e.seq, e.at])).toEqual([
        [1, T0 + 500],
        [2, T0 + 100],
      ]);
    });
  });

  describe('ending a game', () => {
    test('writes the end event and the result together', () => {
      const id = log().startGame(kalahaGame());
      log().append(id, { kind: 'move', at: T0 + 1, payload: { pit: 0 } });
      const result = { reason: 'no-stones', winner: 'south', stores: [40, 8] };
      expect(log().endGame(id, { at: T0 + 9, result })).toBe(2);
      expect(log().game(id)).toMatchObject({ endedAt: T0 + 9, result });
      expect(log().events(id).at(-1)).toEqual({ gameId: id, seq: 2, at: T0 + 9, kind: 'end', payload: result });
    });

    test('an abandoned game may end with a null result', () => {
      const id = log().startGame(kalahaGame());
      log().endGame(id, { at: T0 + 9, result: null });
      expect(log().game(id)).toMatchObject({ endedAt: T0 + 9, result: null });
      expect(log().events(id)).toEqual([{ gameId: id, seq: 1, at: T0 + 9, kind: 'end', payload: null }]);
    });

    test('an ended game takes no more events and cannot end again', () => {
      const id = log().startGame(kalahaGame());
      log().endGame(id, { at: T0 + 9, result: { winner: 'north' } });
      const before = log().events(id);
      expect(() => log().append(id, { kind: 'note', at: T0 + 10, payload: 'late' })).toThrow(expect.objectContaining({ code: 'store/game-ended' }));
      expect(() => log().endGame(id, { at: T0 + 11, result: { winner: 'south' } })).toThrow(expect.objectContaining({ code: 'store/game-ended' }));
      expect(log().events(id)).toEqual(before);
      expect(log().game(id)).toMatchObject({ endedAt: T0 + 9, result: { winner: 'north' } });
    });

    test('append refuses the end kind, pointing at endGame', () => {
      const id = log().startGame(kalahaGame());
      expect(() => log().append(id, { kind: 'end' as 'note', at: T0, payload: null })).toThrow(/endGame/);
      expect(log().events(id)).toEqual([]);
      expect(log().game(id)?.endedAt).toBeNull();
    });

    test('ending a game that does not exist writes nothing', () => {
      expect(() => log().endGame(7, { at: T0, result: null })).toThrow(expect.objectContaining({ code: 'store/no-such-game' }));
      expect(log().listGames()).toEqual([]);
    });

    test('a result that is not JSON ends nothing', () => {
      const id = log().startGame(kalahaGame());
      expect(() => log().endGame(id, { at: T0, result: { stores: [1n, 2n] } })).toThrow(GameLogInputError);
      expect(log().game(id)?.endedAt).toBeNull();
      expect(log().events(id)).toEqual([]);
    });
  });

  describe('append validates at the boundary and writes nothing on refusal', () => {
    const cyclic: Record<string, unknown> = { pit: 1 };
    cyclic.self = cyclic;
    const sparse = [1, , 3];

    test.each([
      ['an unknown kind', { kind: 'sow', at: T0, payload: {} }, 'store/bad-kind', /unknown event kind "sow"/],
      ['a time that is NaN', { kind: 'move', at: Number.NaN, payload: {} }, 'store/bad-time', /at must be milliseconds/],
      ['a negative time', { kind: 'move', at: -1, payload: {} }, 'store/bad-time', /not -1/],
      ['a fractional time', { kind: 'move', at: T0 + 0.5, payload: {} }, 'store/bad-time', /at must be/],
      ['a time as a string', { kind: 'move', at: String(T0), payload: {} }, 'store/bad-time', /at must be/],
      ['a payload that contains itself', { kind: 'move', at: T0, payload: cyclic }, 'store/not-json', /payload.self contains itself/],
      ['a BigInt', { kind: 'move', at: T0, payload: { weight: 5n } }, 'store/not-json', /payload.weight is a bigint/],
      ['a function', { kind: 'move', at: T0, payload: { f: () => 1 } }, 'store/not-json', /payload.f is a function/],
      ['an undefined payload', { kind: 'move', at: T0, payload: undefined }, 'store/not-json', /payload is undefined/],
      ['NaN inside', { kind: 'move', at: T0, payload: { cells: [1, Number.NaN] } }, 'store/not-json', /payload.cells\[1\] is NaN/],
      ['Infinity', { kind: 'move', at: T0, payload: Number.POSITIVE_INFINITY }, 'store/not-json', /payload is Infinity/],
      ['a Date', { kind: 'note', at: T0, payload: { when: new Date(0) } }, 'store/not-json', /payload.when is a Date/],
      ['a Map', { kind: 'note', at: T0, payload: new Map([[1, 2]]) }, 'store/not-json', /payload is a Map/],
      ['a hole in an array', { kind: 'note', at: T0, payload: sparse }, 'store/not-json', /payload\[1\] is undefined/],
      ['a symbol', { kind: 'note', at: T0, payload: Symbol('x') }, 'store/not-json', /payload is a symbol/],
    ])('%s', (_name, event, code, message) => {
      const id = log().startGame(kalahaGame());
      log().append(id, { kind: 'move', at: T0, payload: { pit: 0 } });
      let thrown: unknown;
      try {
        log().append(id, event as NewEvent);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GameLogInputError);
      expect(thrown).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(log().events(id).map((e) => e.seq)).toEqual([1]);
      // Nothing was half-written: the next event still gets the next seq.
      expect(log().append(id, { kind: 'move', at: T0, payload: { pit: 1 } })).toBe(2);
    });

    test.each([0, -3, 1.5, Number.NaN])('a game id of %s', (gameId) => {
      expect(() => log().append(gameId, { kind: 'move', at: T0, payload: {} })).toThrow(expect.objectContaining({ code: 'store/bad-id' }));
    });

    test('a game that does not exist', () => {
      expect(() => log().append(3, { kind: 'move', at: T0, payload: {} })).toThrow(expect.objectContaining({ code: 'store/no-such-game' }));
      expect(log().events(3)).toEqual([]);
    });
  });

  describe('startGame validates at the boundary and writes nothing on refusal', () => {
    test.each([
      ['an unknown game', { game: 'chess' }, 'store/bad-game'],
      ['an unknown source', { source: 'camera' }, 'store/bad-source'],
      ['an empty board id', { boardId: '' }, 'store/bad-id'],
      ['options that are an array', { options: [4, true] }, 'store/not-json'],
      ['options with a Date', { options: { since: new Date(0) } }, 'store/not-json'],
      ['a player name that is not a string', { players: { south: 'Anna', north: 7 } }, 'store/not-json'],
      ['players as a list', { players: ['Anna', 'Ben'] }, 'store/not-json'],
      ['a time in seconds as a float', { at: 1_700_000_000.5 }, 'store/bad-time'],
    ])('%s', (_name, override, code) => {
      expect(() => log().startGame(kalahaGame(override as object))).toThrow(expect.objectContaining({ code }));
      expect(log().listGames()).toEqual([]);
      expect(log().liveGame()).toBeUndefined();
    });
  });

  describe('append-only', () => {
    test('no call of the API changes an event once written', () => {
      const first = log().startGame(kalahaGame({ boardId: 'table-1' }));
      for (let pit = 0; pit < 4; pit++) log().append(first, { kind: 'move', at: T0 + pit, payload: { pit } });
      const written = structuredClone(log().events(first));

      // Everything else the API can do, including reading and mutating what reads return.
      (log().events(first)[1].payload as { pit: number }).pit = 99;
      const second = log().startGame(kalahaGame({ boardId: 'table-2', game: 'adu', options: {} }));
      log().append(second, { kind: 'move', at: T0, payload: { to: 'c3' } });
      log().endGame(second, { at: T0 + 1, result: { winner: 'white' } });
      log().append(first, { kind: 'takeback', at: T0 + 10, payload: { undo: 4 } });
      log().listGames();
      log().liveGame('table-1');
      expect(() => log().append(first, { kind: 'move', at: T0, payload: { bad: Number.NaN } })).toThrow();
      log().endGame(first, { at: T0 + 20, result: { winner: 'south' } });

      expect(log().events(first).slice(0, written.length)).toEqual(written);
      expect(log().events(first).map((e) => e.kind)).toEqual(['move', 'move', 'move', 'move', 'takeback', 'end']);
    });
  });

  describe('liveGame', () => {
    test('is the latest game not yet ended, on the board asked for', () => {
      expect(log().liveGame()).toBeUndefined();
      const a = log().startGame(kalahaGame({ boardId: 'table-1', at: T0 }));
      const b = log().startGame(kalahaGame({ boardId: 'table-2', at: T0 + 1 }));
      const c = log().startGame(kalahaGame({ boardId: 'table-1', at: T0 + 2 }));
      expect(log().liveGame()?.id).toBe(c);
      expect(log().liveGame('table-1')?.id).toBe(c);
      expect(log().liveGame('table-2')?.id).toBe(b);
      expect(log().liveGame('table-3')).toBeUndefined();

      log().endGame(c, { at: T0 + 3, result: null });
      expect(log().liveGame()?.id).toBe(b);
      expect(log().liveGame('table-1')?.id).toBe(a);
      log().endGame(a, { at: T0 + 4, result: null });
      log().endGame(b, { at: T0 + 5, result: null });
      expect(log().liveGame()).toBeUndefined();
      expect(log().liveGame('table-1')).toBeUndefined();
    });

    test('latest means last started in the log, not the largest caller time', () => {
      const early = log().startGame(kalahaGame({ at: T0 + 1000 }));
      const late = log().startGame(kalahaGame({ at: T0 }));
      expect(log().liveGame()?.id).toBe(late);
      expect(late).toBeGreaterThan(early);
    });
  });

  describe('listGames', () => {
    function seed(): number[] {
      const games = ['kalaha', 'malawi', 'kalaha', 'makis', 'adu', 'kalaha', 'malawi'] as const;
      return games.map((game, i) => log().startGame(kalahaGame({ game, at: T0 + i, boardId: `table-${i % 2}` })));
    }

    test('lists newest first, ended and live alike', () => {
      const ids = seed();
      log().endGame(ids[1], { at: T0 + 100, result: { winner: 'north' } });
      const listed = log().listGames();
      expect(listed.map((g) => g.id)).toEqual([...ids].reverse());
      expect(listed.find((g) => g.id === ids[1])).toMatchObject({ game: 'malawi', endedAt: T0 + 100, result: { winner: 'north' } });
    });

    test('filters by game', () => {
      const ids = seed();
      expect(log().listGames({ game: 'kalaha' }).map((g) => g.id)).toEqual([ids[5], ids[2], ids[0]]);
      expect(log().listGames({ game: 'adu' }).map((g) => g.game)).toEqual(['adu']);
    });

    test('pages with limit and offset, every game exactly once', () => {
      const ids = seed();
      const pages = [0, 3, 6].map((offset) => log().listGames({ limit: 3, offset }).map((g) => g.id));
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual([...ids].reverse());
      expect(log().listGames({ game: 'kalaha', limit: 2, offset: 1 }).map((g) => g.id)).toEqual([ids[2], ids[0]]);
      expect(log().listGames({ offset: 50 })).toEqual([]);
    });

    test('defaults to 50 games', () => {
      for (let i = 0; i < 55; i++) log().startGame(kalahaGame({ at: T0 + i }));
      expect(log().listGames()).toHaveLength(50);
    });

    test.each([
      [{ limit: 0 }],
      [{ limit: 1001 }],
      [{ limit: 2.5 }],
      [{ offset: -1 }],
      [{ game: 'chess' }],
    ])('refuses %o', (query) => {
      expect(() => log().listGames(query as object)).toThrow(GameLogInputError);
    });
  });
}

/** Filters, paging, record length, importing whole games, and one transaction for many writes. */
export function queryContract(open: OpenLog): void {
  const log = useLog(open);

  function move(id: number, move: string, ply: number, at = T0): void {
    log().append(id, { kind: 'move', at, payload: { move, ply } });
  }

  describe('filters', () => {
    function seed() {
      return {
        a: log().startGame(kalahaGame({ boardId: 'vauban', players: { south: 'Anna', north: 'Ben' }, at: T0 })),
        b: log().startGame(kalahaGame({ game: 'malawi', boardId: 'vauban', players: { south: 'Ben', north: 'Cleo' }, at: T0 + HOUR })),
        c: log().startGame(kalahaGame({ boardId: 'rieselfeld', players: { south: 'anna', north: 'Dora' }, at: T0 + 30 * HOUR })),
        d: log().startGame(kalahaGame({ game: 'adu', boardId: 'vauban', players: { '1': 'Anna', '2': 'Emil', '3': 'Ben' }, at: T0 + 2 * HOUR })),
      };
    }

    test('by game, board, player and time, each alone and together', () => {
      const { a, b, c, d } = seed();
      const ids = (filter: object) => log().listGames(filter).map((g) => g.id);
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
        const all = log().allGames(filter);
        expect(log().countGames(filter)).toBe(all.length);
        const pages = [0, 2, 4].flatMap((offset) => log().listGames({ ...filter, limit: 2, offset }));
        // Pages are newest first, every game once; allGames is oldest first.
        expect(pages.map((g) => g.id)).toEqual(all.map((g) => g.id).reverse());
      }
    });

    test('players: each name once with its games, ASCII case ignored, filtered like the games', () => {
      seed();
      log().startGame(kalahaGame({ players: { south: 'Ben', north: 'Ben' }, at: T0 + 40 * HOUR }));
      expect(log().players()).toEqual([
        { name: 'Ben', games: 4 },
        { name: 'Anna', games: 3 },
        { name: 'Cleo', games: 1 },
        { name: 'Dora', games: 1 },
        { name: 'Emil', games: 1 },
      ]);
      expect(log().players({ board: 'rieselfeld' })).toEqual([
        { name: 'anna', games: 1 },
        { name: 'Dora', games: 1 },
      ]);
      expect(log().players({ game: 'makis' })).toEqual([]);
    });

    test('newest first means by start, so an old game imported later sorts by when it was played', () => {
      const played = log().startGame(kalahaGame({ at: T0 + 10 * HOUR }));
      const older = log().importGame(imported({ startedAt: T0 }));
      expect(log().listGames().map((g) => g.id)).toEqual([played, older]);
      expect(log().allGames().map((g) => g.id)).toEqual([older, played]);
    });

    test.each([
      [{ board: '' }],
      [{ player: 'x'.repeat(201) }],
      [{ from: -1 }],
      [{ to: 1.5 }],
      [{ game: 'chess' }],
    ])('refuses %o in every query', (filter) => {
      for (const call of [() => log().listGames(filter as object), () => log().countGames(filter as object), () => log().allGames(filter as object)]) {
        expect(call).toThrow(GameLogInputError);
      }
    });
  });

  describe('plies', () => {
    test('is the length of the record after take-backs, whatever else was logged', () => {
      const id = log().startGame(kalahaGame());
      const plies = () => log().listGames()[0].plies;
      expect(plies()).toBe(0);
      move(id, 'C', 1);
      move(id, 'e', 2);
      log().append(id, { kind: 'alert', at: T0, payload: { code: 'referee/mismatch' } });
      expect(plies()).toBe(2);
      log().append(id, { kind: 'takeback', at: T0, payload: { undone: ['e'], ply: 1 } });
      expect(plies()).toBe(1);
      move(id, 'd', 2);
      log().append(id, { kind: 'answer', at: T0, payload: { command: { kind: 'confirm' } } });
      log().endGame(id, { at: T0, result: { winner: 'south' } });
      expect(plies()).toBe(2);
      expect(log().allGames()[0].plies).toBe(2);
    });

    test('after a correction, is the moves before its ply and its new ones', () => {
      const id = log().startGame(kalahaGame());
      const plies = () => log().listGames()[0].plies;
      move(id, 'C', 1);
      move(id, 'e', 2);
      move(id, 'D', 3);
      log().append(id, { kind: 'correction', at: T0, payload: { ply: 2, old: ['e', 'D'], new: ['f'], reason: 'evidence' } });
      expect(plies()).toBe(2);
      log().append(id, { kind: 'correction', at: T0, payload: { ply: 2, old: ['f'], new: ['a', 'B', 'c'], reason: 'console' } });
      expect(plies()).toBe(4);
      expect(log().allGames()[0].plies).toBe(4);
    });
  });

  describe('importGame', () => {
    test('writes the game, its events numbered from 1, and its end, ended and marked as imported', () => {
      const id = log().importGame(imported());
      expect(log().game(id)).toMatchObject({ startedAt: T0, endedAt: T0 + 3, result: { winner: 'north', reason: 'agreed' }, importedAt: T0 + 99, source: 'hand' });
      expect(log().events(id)).toEqual([
        { gameId: id, seq: 1, at: T0 + 1, kind: 'move', payload: { move: 'C', ply: 1 } },
        { gameId: id, seq: 2, at: T0 + 2, kind: 'move', payload: { move: 'e', ply: 2 } },
        { gameId: id, seq: 3, at: T0 + 3, kind: 'end', payload: { winner: 'north', reason: 'agreed' } },
      ]);
      // Never a live game: nothing for serve to resume.
      expect(log().liveGame('vauban')).toBeUndefined();
    });

    test.each([
      ['an end event among the events', { events: [{ kind: 'end', at: T0, payload: null }] }],
      ['an event that is not JSON', { events: [{ kind: 'note', at: T0, payload: { n: Number.NaN } }] }],
      ['a bad event time', { events: [{ kind: 'move', at: -5, payload: {} }] }],
      ['a bad game', { game: 'chess' }],
      ['a bad source', { source: 'telepathy' }],
      ['a bad import time', { importedAt: 1.5 }],
    ])('refuses %s and writes nothing', (_why, overrides) => {
      log().startGame(kalahaGame());
      expect(() => log().importGame(imported(overrides as Partial<ImportedGame>))).toThrow(GameLogInputError);
      expect(log().countGames()).toBe(1);
    });
  });

  describe('transaction', () => {
    test('commits every write together', () => {
      const ids = log().transaction(() => [log().importGame(imported()), log().startGame(kalahaGame())]);
      expect(log().allGames().map((g) => g.id)).toEqual(ids);
    });

    test('a throw inside writes nothing at all, imported games and events included', () => {
      const before = log().startGame(kalahaGame());
      move(before, 'C', 1);
      expect(() =>
        log().transaction(() => {
          log().importGame(imported());
          move(before, 'e', 2);
          log().importGame(imported({ boardId: 'other' }));
          throw new Error('the third game of the file is bad');
        }),
      ).toThrow('the third game');
      expect(log().countGames()).toBe(1);
      expect(log().events(before).map((e) => e.seq)).toEqual([1]);
      // And the log goes on as before.
      move(before, 'e', 2);
      expect(log().events(before).map((e) => e.seq)).toEqual([1, 2]);
    });
  });
}

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
