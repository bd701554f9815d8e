// Import refuses what does not check — the first bad move by game and ply — and then writes nothing at all.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GameLogWriteError, openGameLog } from '../../server/store/index.ts';
import type { GameLog } from '../../server/store/index.ts';
import { ImportError, detectFormat, exportGames, importGames, importGamesAsync, positionsOf } from '../../server/export/index.ts';
import { randomGame } from './random-games.ts';

let log: GameLog;
beforeEach(() => {
  log = openGameLog(':memory:');
});
afterEach(() => log.close());

/** The ImportError an import throws, after checking that the log is exactly as before. */
function refused(text: string, options: Parameters<typeof importGames>[2] = {}): ImportError {
  const games = log.countGames();
  let thrown: unknown;
  try {
    importGames(log, text, options);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ImportError);
  expect(log.countGames()).toBe(games);
  return thrown as ImportError;
}

const KALAHA = '[Game "kalaha"]';

describe('the first bad move, by game and ply', () => {
  test('in the text notation: game, ply, token, the engine’s code and sentence, the game’s first line', () => {
    const text = `${KALAHA}\n1. C e 2. F d\n\n${KALAHA}\n[South "Anna"]\n1. A a 2. A b\n`;
    const e = refused(text);
    expect(e.code).toBe('import/bad-move');
    expect(e.details).toEqual({ game: 2, line: 4, ply: 3, move: 'A', rule: 'kalaha/empty-pit' });
    expect(e.message).toMatch(/^Game 2 \(line 4\): ply 3 \("A"\) is not legal: .+/);
  });

  test('an unreadable token is a bad move too', () => {
    expect(refused(`${KALAHA} 1. C x`).details).toMatchObject({ ply: 2, move: 'x', rule: 'kalaha/unreadable-move' });
  });

  test('a move after the end of the game', () => {
    const g = randomGame('kalaha', {}, 11);
    expect(g.over).toBe(true);
    const e = refused(`${KALAHA} ${g.moves.join(' ')} A`);
    expect(e.details).toMatchObject({ ply: g.moves.length + 1, move: 'A', rule: 'kalaha/game-over' });
  });

  test('in JSON moves and in JSON events (the ply the event names)', () => {
    expect(refused(JSON.stringify({ game: 'malawi', moves: ['a1-a3', 'a3-a5'] })).details).toMatchObject({ game: 1, ply: 2, move: 'a3-a5' });
    const events = [
      { seq: 1, at: 1, kind: 'move', payload: { move: 'C', ply: 1 } },
      { seq: 2, at: 2, kind: 'move', payload: { move: 'e', ply: 2 } },
      { seq: 3, at: 3, kind: 'takeback', payload: { ply: 1 } },
      { seq: 4, at: 4, kind: 'move', payload: { move: 'C', ply: 2 } },
    ];
    expect(refused(JSON.stringify({ game: 'kalaha', events })).details).toMatchObject({ ply: 2, move: 'C', rule: 'kalaha/not-your-pit' });
  });

  test('in CSV, with the row’s line', () => {
    const csv = 'game,moves\r\nkalaha,C e\r\nmakis,1@c5r9 R1.1.1\r\n';
    expect(refused(csv).details).toMatchObject({ game: 2, line: 3, ply: 2, move: 'R1.1.1' });
  });
});

describe('all or nothing', () => {
  test('good games before a bad one are not written, and the log takes the good ones alone afterwards', () => {
    const good = randomGame('adu', { players: 3 }, 3);
    const before = log.startGame({ game: 'kalaha', options: {}, players: {}, boardId: 'vauban', source: 'sensors', at: 1 });
    const text = `[Game "adu"] [Players "3"] ${good.moves.join(' ')}\n\n${KALAHA} C e\n\n${KALAHA} C C\n`;
    refused(text);
    expect(log.allGames().map((g) => g.id)).toEqual([before]);
    const report = importGames(log, text.slice(0, text.lastIndexOf(KALAHA)));
    expect(report.imported.map((g) => g.game)).toEqual([1, 2]);
  });
});

describe('importing beside a live table', () => {
  test('the async import gives the event loop back between games, and writes what the plain one writes', async () => {
    const games = Array.from({ length: 5 }, (_, i) => randomGame('adu', { players: 3 }, 40 + i));
    const text = games.map((g, i) => `[Game "adu"] [Players "3"] [Site "b${i}"] ${g.moves.join(' ')}`).join('\n\n');
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const report = await importGamesAsync(log, text, { now: 9 });
    clearInterval(timer);
    // Timers ran while it checked: the server would have read sensor frames and served pages.
    expect(turns).toBeGreaterThan(0);
    const other = openGameLog(':memory:');
    expect(importGames(other, text, { now: 9 })).toEqual(report);
    expect(exportGames(other, {}, 'json')).toEqual(exportGames(log, {}, 'json'));
    other.close();
  });

  test('and refuses a bad file the same way, writing nothing', async () => {
    await expect(importGamesAsync(log, `${KALAHA} C e\n\n${KALAHA} C C`)).rejects.toMatchObject({ code: 'import/bad-move', details: { game: 2, ply: 2 } });
    expect(log.countGames()).toBe(0);
  });
});

describe('an import into a log file is written by its worker', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spieltisch-import-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The main thread's connection, counting what is written through it. */
  function counted(file: string): { log: GameLog; writes: () => number } {
    const inner = openGameLog(file);
    let writes = 0;
    const log = new Proxy(inner, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (key === 'transaction' || key === 'importGame' || key === 'append' || key === 'startGame') {
          return (...args: unknown[]) => {
            writes++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    return { log, writes: () => writes };
  }

  test('on a connection of its own, while the live table writes on the main one: every game and every move lands, in order', async () => {
    const file = join(dir, 'games.db');
    const { log: main, writes } = counted(file);
    const games = Array.from({ length: 30 }, (_, i) => randomGame('kalaha', {}, 70 + i, 120));
    const text = games.map((g, i) => `${KALAHA} [Site "t${i}"] [Start "2024-05-01T10:00:00Z"] ${g.moves.join(' ')}`).join('\n\n');
    // The live table's game, started before the import and written to while it runs (not counted: not the import's).
    const live = openGameLog(file);
    const id = live.startGame({ game: 'kalaha', options: {}, players: {}, boardId: 'vauban', source: 'simulated', at: 1 });
    let ply = 0;
    const timer = setInterval(() => live.append(id, { kind: 'note', at: 2, payload: { ply: ++ply } }), 1);
    const report = await importGamesAsync(main, text, { now: 9 });
    clearInterval(timer);
    live.append(id, { kind: 'note', at: 2, payload: { ply: ++ply } });
    // Nothing of the import went through the main thread's connection.
    expect(writes()).toBe(0);
    expect(report.imported.map((g) => g.game)).toEqual(games.map((_, i) => i + 1));
    const other = openGameLog(':memory:');
    expect(importGames(other, text, { now: 9 }).imported.map((g) => g.game)).toEqual(report.imported.map((g) => g.game));
    expect(exportGames(other, {}, 'json').count).toBe(30);
    expect(exportGames(main, { board: 't7' }, 'pgn').text).toBe(exportGames(other, { board: 't7' }, 'pgn').text);
    other.close();
    // The live game's notes: every one, in the order written, seqs without gaps.
    expect(main.events(id).map((e) => [e.seq, (e.payload as { ply: number }).ply])).toEqual(Array.from({ length: ply }, (_, i) => [i + 1, i + 1]));
    // A second time, every game is found in the log and skipped.
    expect((await importGamesAsync(main, text, { now: 9 })).skipped).toHaveLength(30);
    live.close();
    main.close();
  });

  test('a log the worker cannot write raises on the main thread as the log would, with nothing written', async () => {
    const file = join(dir, 'games.db');
    const inner = openGameLog(file);
    const notALog = join(dir, 'notes.txt');
    writeFileSync(notALog, 'shopping list\n');
    // A log whose other connections would land on someone else's file: the worker's open is refused.
    const log = new Proxy(inner, { get: (target, key) => (key === 'sharedAddress' ? () => notALog : Reflect.get(target, key, target)) });
    const importing = importGamesAsync(log, `${KALAHA} C e`, { now: 9 });
    await expect(importing).rejects.toBeInstanceOf(GameLogWriteError);
    await expect(importing).rejects.toMatchObject({ reason: 'failed', file: notALog });
    expect(inner.countGames()).toBe(0);
    inner.close();
  });
});

describe('broken files', () => {
  test.each([
    ['an unclosed comment, at its line in the file', `${KALAHA} C e\n\n${KALAHA}\n1. C {north thinks\n e`, 'import/unreadable', /^Game 2 \(line 3\): line 4, column 6: /],
    ['a header that is not one', '[Game kalaha]\nC e', 'import/unreadable', /a header must look like/],
    ['no game named', '1. C e 2. F d', 'import/no-game', /add a header such as \[Game "kalaha"\]/],
    ['a game there is none of', '[Game "chess"] e4', 'import/bad-game', /none of kalaha, malawi, makis, adu/],
    ['options that are not JSON', `${KALAHA} [Options "{seeds:3}"] C`, 'import/bad-options', /not JSON/],
    ['options the engine refuses', `${KALAHA} [Options "{"seedsPerPit":0}"] C`, 'import/bad-options', /options are refused: Option seedsPerPit/],
    ['a seat the game does not have', '[Game "makis"] [Players "2"] [Player3 "Cleo"] 1@c5r9', 'import/bad-field', /\[Player3\] names a seat/],
    ['an unknown source', `${KALAHA} [Source "dream"] C`, 'import/bad-field', /sensors, hand, simulated/],
    ['a start without a zone', `${KALAHA} [Start "2024-05-01T12:00:00"] C`, 'import/bad-time', /with its zone/],
    ['a day that is none', `${KALAHA} [Date "2024.02.30"] C`, 'import/bad-time', /not a day of the calendar/],
    ['only comments', '{nothing here}\n', 'import/empty', /no game/],
    ['nothing', '', 'import/empty', /no game/],
    ['JSON that is not', '{"game": "kalaha", "moves": ["C"', 'import/unreadable', /not JSON/],
    ['JSON of a newer Spieltisch', '{"format":"spieltisch-games","version":2,"games":[]}', 'import/unknown-format', /version 2/],
    ['JSON of something else', '{"format":"chess-game"}', 'import/unknown-format', /chess-game/],
    ['an empty list', '[]', 'import/empty', /no game/],
    ['JSON moves that are not tokens', '{"game":"kalaha","moves":[1,2]}', 'import/bad-field', /list of move tokens/],
    ['JSON events out of order', '{"game":"kalaha","events":[{"seq":2,"at":1,"kind":"move","payload":{"move":"C","ply":1}}]}', 'import/bad-event', /numbered 1, 2, 3/],
    ['JSON events of an unknown kind', '{"game":"kalaha","events":[{"at":1,"kind":"sneeze"}]}', 'import/bad-event', /kind must be one of/],
    ['JSON events after the end', '{"game":"kalaha","events":[{"at":1,"kind":"end"},{"at":2,"kind":"note"}]}', 'import/bad-event', /more events follow/],
    ['JSON moves that are not the events’ record', '{"game":"kalaha","moves":["C","e"],"events":[{"at":1,"kind":"move","payload":{"move":"C","ply":1}}]}', 'import/inconsistent', /not the record its events make/],
    ['a CSV quote never closed', 'game,moves\n"kalaha,C e\n', 'import/unreadable', /never closed/],
    ['a CSV row with too few fields', 'game,board,moves\nkalaha,C e\n', 'import/unreadable', /2 fields, the header 3/],
    ['a CSV without rows', 'game,moves\n', 'import/empty', /no game rows/],
  ])('%s', (_why, text, code, message) => {
    const e = refused(text);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });
});

describe('results', () => {
  test('a declared result the moves contradict is refused', () => {
    const g = randomGame('kalaha', {}, 12);
    const other = g.winner === 'south' ? 'north' : 'south';
    const e = refused(`${KALAHA} [Result "${other}"] ${g.moves.join(' ')}`);
    expect(e.code).toBe('import/wrong-result');
  });

  test('the moves decide the result when they end the game; a declared one that agrees is fine', () => {
    const g = randomGame('makis', { players: 2 }, 13);
    importGames(log, `[Game "makis"] [Players "2"] [Result "${g.winner}"] ${g.moves.join(' ')}`);
    importGames(log, `[Game "makis"] [Players "2"] [Site "other"] ${g.moves.join(' ')}`);
    expect(log.allGames().map((x) => x.result)).toEqual([
      { winner: g.winner, reason: g.reason },
      { winner: g.winner, reason: g.reason },
    ]);
  });

  test('a game ended off the record (by agreement) keeps its declared result; a winner there cannot be is refused', () => {
    importGames(log, `${KALAHA} [Result "north"] [Termination "agreed"] C e F d`);
    expect(log.allGames()[0].result).toEqual({ winner: 'north', reason: 'agreed' });
    expect(refused(`${KALAHA} [Result "1-0"] C e`).code).toBe('import/wrong-result');
  });

  test('an unfinished record without a result is ended without one', () => {
    importGames(log, `${KALAHA} [Result "*"] C e`);
    importGames(log, `${KALAHA} [Termination "abandoned"] [Site "x"] C e`);
    expect(log.allGames().map((g) => [g.result, g.endedAt !== null])).toEqual([
      [null, true],
      [{ reason: 'abandoned' }, true],
    ]);
  });
});

describe('formats', () => {
  test.each([
    ['[Game "kalaha"] C', 'pgn'],
    ['\uFEFF  {"game":"kalaha"}', 'json'],
    ['[{"game":"kalaha"}]', 'json'],
    ['[ ]', 'json'],
    ['id,game,moves\n', 'csv'],
    ['game,"moves"\n', 'csv'],
    ['1. C e', 'pgn'],
    ['{a comment first} [Game "kalaha"] C', 'pgn'],
    ['{}', 'json'],
  ])('%j is %s', (text, format) => {
    expect(detectFormat(text)).toBe(format);
  });

  test('a format given wins over the guess, and a default game fills records without one', () => {
    const e = refused('[Game "kalaha"] C', { format: 'json' });
    expect(e.code).toBe('import/unreadable');
    importGames(log, '1. a1-a3 f6-f4', { game: 'malawi' });
    expect(log.allGames()[0]).toMatchObject({ game: 'malawi', plies: 2 });
  });

  test('CSV cells a spreadsheet would run as formulas are written harmless and read back as they were', () => {
    log.importGame({
      game: 'kalaha',
      options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 },
      players: { south: 'Anna' },
      boardId: '=HYPERLINK("x")',
      source: 'hand',
      startedAt: 5,
      events: [],
      end: { at: 5, result: null },
      importedAt: 5,
    });
    const { text } = exportGames(log, {}, 'csv');
    expect(text).toContain(`,"'=HYPERLINK(""x"")",`);
    const other = openGameLog(':memory:');
    importGames(other, text);
    expect(other.allGames()[0].boardId).toBe('=HYPERLINK("x")');
    other.close();
  });
});

describe('positions', () => {
  test('one step per ply from the start, each the engine’s replay output, and Kalaha’s captures', () => {
    // RULES.md §1's example: after C e F, north sows d and captures the 2 stones in C.
    const replayed = positionsOf('kalaha', {}, ['C', 'e', 'F', 'd']);
    if ('optionsError' in replayed) throw new Error('options refused');
    expect(replayed.error).toBeNull();
    expect(replayed.steps.map((s) => [s.ply, s.move, s.toMove])).toEqual([
      [0, null, 'south'],
      [1, 'C', 'north'],
      [2, 'e', 'south'],
      [3, 'F', 'north'],
      [4, 'd', 'south'],
    ]);
    expect(replayed.steps[0].position).toMatchObject({ stores: { south: 0, north: 0 } });
    expect(replayed.steps[4]).toMatchObject({ captures: [{ pit: 'C', stones: 2 }], position: { stores: { south: 0, north: 2 } } });
    expect(replayed.steps.slice(1, 4).map((s) => s.captures)).toEqual([[], [], []]);
  });

  test('a move that does not replay stops the steps and says where', () => {
    const replayed = positionsOf('malawi', {}, ['a1-a3', 'a3-a5', 'f6-f4']);
    if ('optionsError' in replayed) throw new Error('options refused');
    expect(replayed.steps).toHaveLength(2);
    expect(replayed.error).toMatchObject({ ply: 2, move: 'a3-a5' });
  });
});
