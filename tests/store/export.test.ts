// Export → import round trips for all four games, in all three formats: the same games come back.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';
import type { GameLog, Players } from '../../server/store/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { FORMATS, RecordPlayer, exportGame, exportGames, formatGameText, importGames, playAll, portableFromLog, readGamesText, seatsOf } from '../../server/export/index.ts';
import { randomGame, type RandomGame } from './random-games.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));
const T0 = Date.parse('2024-05-01T12:03:12.345Z');

let log: GameLog;
beforeEach(() => {
  log = openGameLog(':memory:');
});
afterEach(() => log.close());

/** Every game and option set the round trips cover. */
const CASES: readonly [GameName, object][] = [
  ['kalaha', {}],
  ['kalaha', { seedsPerPit: 3, skipOrigin: false }],
  ['malawi', {}],
  ['malawi', { size: 8, maxStrength: 7, baselineWin: 'survives-reply' }],
  ['makis', { players: 1 }],
  ['makis', { players: 3 }],
  ['makis', { players: 5, mode: 'cooperative' }],
  ['adu', { players: 2 }],
  ['adu', { players: 3, diagonal: true }],
  ['adu', { players: 6 }],
];

function namesFor(game: GameName, options: object): Players {
  const names = ['Anna', 'Ben', 'Cleo "die Kluge"', 'Dora', 'Emil', 'Jürgen Ölmüller'];
  return Object.fromEntries(seatsOf(game, options).map((seat, i) => [seat, names[i]]));
}

/** Logs a game as the session does: a move event per ply, and the end with its result when it is over. */
function logGame(g: RandomGame, at: number, boardId = 'vauban'): number {
  const id = log.startGame({ game: g.game, options: g.options, players: namesFor(g.game, g.options), boardId, source: 'simulated', at });
  g.moves.forEach((move, i) => log.append(id, { kind: 'move', at: at + 1000 * (i + 1), payload: { move, ply: i + 1 } }));
  if (g.over) log.endGame(id, { at: at + 1000 * (g.moves.length + 1), result: { winner: g.winner, reason: g.reason } });
  return id;
}

/** What must survive any format: everything but the id and the event times of a text or CSV import. */
function essence(l: GameLog) {
  return l.allGames().map((g) => {
    const p = portableFromLog(l, g);
    return { game: p.game, options: p.options, players: p.players, boardId: p.boardId, source: p.source, startedAt: p.startedAt, moves: p.moves, winner: (p.result as { winner?: string } | null)?.winner ?? null };
  });
}

describe.each(FORMATS)('%s', (format) => {
  test('every game of all four, finished and unfinished, comes back the same, and a second export is identical', () => {
    let seed = 1;
    for (const [game, options] of CASES) {
      logGame(randomGame(game, options, seed++), T0 + seed * 3_600_000);
      // A game stopped half-way (as a live game is exported).
      const whole = randomGame(game, options, seed++);
      logGame({ ...whole, moves: whole.moves.slice(0, Math.floor(whole.moves.length / 2)), over: false }, T0 + seed * 3_600_000);
    }
    const { text, count } = exportGames(log, {}, format);
    expect(count).toBe(CASES.length * 2);

    const other = openGameLog(':memory:');
    const report = importGames(other, text, { now: T0 });
    expect(report).toMatchObject({ format, skipped: [] });
    expect(report.imported).toHaveLength(count);
    const original = essence(log);
    expect(essence(other)).toEqual(original);
    // Imported games are ended (never resumed as live), and the finished ones keep their result.
    expect(other.allGames().every((g) => g.endedAt !== null && g.importedAt === T0)).toBe(true);
    // The second log exports what the first did (JSON also carries the event times; a text or CSV
    // import knows only the start and end).
    const again = exportGames(other, {}, format).text;
    if (format === 'json') {
      expect(jsonAsFirst(again, text)).toEqual(JSON.parse(text));
    } else {
      expect(stripUnfinishedEnd(again, format)).toEqual(stripUnfinishedEnd(text, format));
    }
    other.close();
  });

  test('importing the same file twice adds nothing the second time', () => {
    logGame(randomGame('kalaha', {}, 7), T0);
    logGame(randomGame('adu', { players: 4 }, 8), T0 + 1);
    const { text } = exportGames(log, {}, format);
    const other = openGameLog(':memory:');
    const first = importGames(other, text);
    const second = importGames(other, text);
    expect(second.imported).toEqual([]);
    expect(second.skipped).toEqual(first.imported);
    expect(other.countGames()).toBe(2);
    other.close();
  });
});

/** The re-exported JSON without ids, and with the end an import gave each unfinished game taken off again. */
function jsonAsFirst(again: string, first: string): unknown {
  type Doc = { games: { id: number | null; endedAt: number | null; events: { kind: string }[] }[] };
  const [a, f] = [JSON.parse(again) as Doc, JSON.parse(first) as Doc];
  a.games.forEach((g, i) => {
    g.id = f.games[i].id;
    if (f.games[i].endedAt === null) {
      expect(g.events.at(-1)?.kind).toBe('end');
      g.events.pop();
      g.endedAt = null;
    }
  });
  return a;
}

/** An unfinished game is ended by its import: its re-export has an end time, and for JSON an end event, the first did not. */
function stripUnfinishedEnd(text: string, format: string): string {
  if (format === 'pgn') return text.replace(/\[End "[^"]*"\]\n/g, '');
  // CSV: the end column (5th) and the id column (1st).
  return text
    .split('\r\n')
    .map((row) => row.replace(/^\d*,((?:[^,]*,){3})[^,]*,/, ',$1,'))
    .join('\r\n');
}

describe('JSON keeps every event', () => {
  test('take-backs, alerts, answers and faults come back with their times and seqs', () => {
    const id = log.startGame({ game: 'kalaha', options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 }, players: { south: 'Anna', north: 'Ben' }, boardId: 'vauban', source: 'sensors', at: T0 });
    const events = [
      { kind: 'move', at: T0 + 1, payload: { move: 'C', ply: 1 } },
      { kind: 'alert', at: T0 + 2, payload: { code: 'referee/mismatch', params: { pits: 'd' } } },
      { kind: 'move', at: T0 + 3, payload: { move: 'e', ply: 2 } },
      { kind: 'takeback', at: T0 + 4, payload: { undone: ['e'], ply: 1 } },
      { kind: 'answer', at: T0 + 5, payload: { command: { kind: 'enter', move: 'd' } } },
      { kind: 'move', at: T0 + 6, payload: { move: 'd', ply: 2 } },
      { kind: 'fault', at: T0 + 7, payload: { code: 'cell', text: 'pit 7 silent' } },
      { kind: 'note', at: T0 + 8, payload: 'Ben had to leave' },
    ] as const;
    for (const e of events) log.append(id, e);
    log.endGame(id, { at: T0 + 9, result: { winner: 'north', reason: 'agreed', stores: { south: 0, north: 0 } } });

    const text = exportGame(log, log.game(id)!, 'json');
    const other = openGameLog(':memory:');
    const [{ id: copy }] = importGames(other, text).imported;
    expect(other.events(copy).map(({ gameId: _, ...e }) => e)).toEqual(log.events(id).map(({ gameId: _, ...e }) => e));
    expect(other.game(copy)).toMatchObject({ endedAt: T0 + 9, result: { winner: 'north', reason: 'agreed', stores: { south: 0, north: 0 } } });
    other.close();
  });
});

describe('a game with corrections', () => {
  /** C e d logged, an assumed e corrected to a: the record is C a d. */
  function corrected(): number {
    const id = log.startGame({ game: 'kalaha', options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 }, players: { south: 'Anna', north: 'Ben' }, boardId: 'vauban', source: 'sensors', at: T0 });
    const events = [
      { kind: 'move', at: T0 + 1, payload: { move: 'C', ply: 1 } },
      { kind: 'move', at: T0 + 2, payload: { move: 'e', ply: 2, assumed: true } },
      { kind: 'move', at: T0 + 3, payload: { move: 'D', ply: 3 } },
      { kind: 'correction', at: T0 + 4, payload: { ply: 2, old: ['e', 'D'], new: ['a', 'D'], reason: 'evidence' } },
    ] as const;
    for (const e of events) log.append(id, e);
    return id;
  }

  test('JSON carries the corrections and an import reads them back; the record is the corrected one', () => {
    const id = corrected();
    expect(portableFromLog(log, log.game(id)!).moves).toEqual(['C', 'a', 'D']);
    const text = exportGame(log, log.game(id)!, 'json');
    expect(JSON.parse(text).events.map((e: { kind: string }) => e.kind)).toContain('correction');
    const other = openGameLog(':memory:');
    const [{ id: copy }] = importGames(other, text).imported;
    // The import ends the game (an imported game is never live), after the events as logged.
    expect(other.events(copy).slice(0, 4).map(({ gameId: _, ...e }) => e)).toEqual(log.events(id).map(({ gameId: _, ...e }) => e));
    expect(portableFromLog(other, other.game(copy)!).moves).toEqual(['C', 'a', 'D']);
    expect(other.listGames()[0].plies).toBe(3);
    other.close();
  });

  test('the text notation keeps only the final moves', () => {
    const id = corrected();
    const text = exportGame(log, log.game(id)!, 'pgn');
    expect(text).toMatch(/1\. C a 2\. D/);
    expect(text).not.toMatch(/\be\b/);
    const other = openGameLog(':memory:');
    const [{ id: copy }] = importGames(other, text).imported;
    expect(portableFromLog(other, other.game(copy)!).moves).toEqual(['C', 'a', 'D']);
    other.close();
  });

  test('an import refuses a correction that is malformed, starts past the record, or brings an illegal move', () => {
    const base = [
      { seq: 1, at: 1, kind: 'move', payload: { move: 'C', ply: 1 } },
      { seq: 2, at: 2, kind: 'move', payload: { move: 'e', ply: 2 } },
    ];
    const refuse = (payload: unknown) => {
      const text = JSON.stringify({ game: 'kalaha', events: [...base, { seq: 3, at: 3, kind: 'correction', payload }] });
      let thrown: unknown;
      try {
        importGames(log, text);
      } catch (e) {
        thrown = e;
      }
      expect(log.countGames()).toBe(0);
      return thrown as { code: string; details: object };
    };
    expect(refuse({ ply: 2, old: 'e', new: ['a'], reason: 'evidence' }).code).toBe('import/bad-event');
    expect(refuse({ ply: 2, old: ['e'], new: ['a'], reason: 'hunch' }).code).toBe('import/bad-event');
    expect(refuse({ ply: 4, old: [], new: ['a'], reason: 'evidence' }).code).toBe('import/bad-event');
    expect(refuse({ ply: 2, old: ['e'], new: ['C'], reason: 'console' })).toMatchObject({ code: 'import/bad-move', details: { ply: 2, move: 'C' } });
  });
});

describe('the fixtures’ records', () => {
  const files = ['kalaha', 'malawi'].flatMap((dir) =>
    readdirSync(join(FIXTURES, dir))
      .filter((f) => f.endsWith('.truth.json'))
      .map((f) => join(dir, f)),
  );

  test.each(files)('%s goes out and comes back in every format', (file) => {
    const truth = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { game: GameName; rules: object; record: string[] };
    const id = log.startGame({ game: truth.game, options: truth.rules, players: { south: 'Süd', north: 'Nord' }, boardId: 'fixture', source: 'simulated', at: T0 });
    truth.record.forEach((move, i) => log.append(id, { kind: 'move', at: T0 + i, payload: { move, ply: i + 1 } }));
    // Some fixtures play to the end: the session would have ended the game with the engine's result.
    const started = RecordPlayer.start(truth.game, truth.rules);
    if (!started.ok) throw new Error(started.error.message);
    expect(playAll(started.player, truth.record)).toBeNull();
    const end = started.player.summary();
    if (end.over) log.endGame(id, { at: T0 + truth.record.length, result: { winner: end.winner, reason: started.player.reason() } });
    for (const format of FORMATS) {
      const other = openGameLog(':memory:');
      importGames(other, exportGame(log, log.game(id)!, format));
      expect(essence(other)).toEqual(essence(log));
      other.close();
    }
  });
});

describe('the text notation’s headers', () => {
  test('Kalaha: sides, result, termination, source, exact times, options', () => {
    const g = randomGame('kalaha', {}, 3);
    const id = logGame(g, T0);
    const text = exportGame(log, log.game(id)!, 'pgn');
    const [header] = text.split('\n1. ');
    expect(header.split('\n')).toEqual([
      '[Game "kalaha"]',
      expect.stringMatching(/^\[Date "\d{4}\.\d{2}\.\d{2}"\]$/),
      expect.stringMatching(/^\[Time "\d{2}:\d{2}:\d{2}"\]$/),
      '[Site "vauban"]',
      '[South "Anna"]',
      '[North "Ben"]',
      `[Result "${g.winner}"]`,
      `[Termination "${g.reason}"]`,
      '[Source "simulated"]',
      '[Start "2024-05-01T12:03:12.345Z"]',
      `[End "${new Date(T0 + 1000 * (g.moves.length + 1)).toISOString()}"]`,
      '[Options "{"seedsPerPit":4,"skipOrigin":true,"forbiddenCaptureAtLeast":12}"]',
    ]);
  });

  test('Makis and Adu: the number of seats and a name per seat; quotes in names survive', () => {
    const g = randomGame('adu', { players: 3 }, 4);
    const id = logGame({ ...g, moves: g.moves.slice(0, 10), over: false }, T0);
    const text = exportGame(log, log.game(id)!, 'pgn');
    expect(text).toContain('[Players "3"]\n[Player1 "Anna"]\n[Player2 "Ben"]\n[Player3 "Cleo "die Kluge""]\n[Result "*"]\n');
    const [read] = readGamesText(text);
    expect(read.players).toEqual({ '1': 'Anna', '2': 'Ben', '3': 'Cleo "die Kluge"' });
  });

  test('a record people write by hand needs only the game and the moves', () => {
    const report = importGames(log, '[Game "kalaha"] 1. C e 2. F d {north captures} 3. A', { now: T0 });
    const [game] = log.allGames();
    expect(report.imported).toEqual([{ game: 1, id: game.id }]);
    expect(game).toMatchObject({ game: 'kalaha', boardId: 'unknown', source: 'hand', startedAt: T0, endedAt: T0, result: null, plies: 5, players: {} });
  });

  test('[Date] and [Time] are local time when there is no [Start]', () => {
    importGames(log, '[Game "malawi"]\n[Date "2024.05.01"]\n[Time "18:30:00"]\n1. a1-a3');
    expect(log.allGames()[0].startedAt).toBe(new Date(2024, 4, 1, 18, 30, 0).getTime());
  });

  test('formatting a game twice gives the same text', () => {
    const id = logGame(randomGame('makis', { players: 2 }, 5), T0);
    const p = portableFromLog(log, log.game(id)!);
    expect(formatGameText(p)).toBe(formatGameText(p));
  });
});
