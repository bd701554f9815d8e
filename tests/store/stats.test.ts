// Statistics and days: games per day and per board, wins, average length; local days across clock changes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dayRange, gameStats, localDay, tally } from '../../server/store/index.ts';
import type { GameSummary } from '../../server/store/index.ts';
import { GAME_NAMES } from '../../server/rules/index.ts';

// The tables stand in Freiburg: days are Europe/Berlin days, with their clock changes.
let tz: string | undefined;
beforeAll(() => {
  tz = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});

describe('days', () => {
  test.each([
    ['2024-05-01', 24],
    ['2024-03-31', 23],
    ['2024-10-27', 25],
    ['2024-02-29', 24],
  ])('%s spans local midnight to local midnight (%i hours)', (day, hours) => {
    const range = dayRange(day) as { from: number; to: number };
    expect((range.to - range.from) / 3_600_000).toBe(hours);
    expect(localDay(range.from)).toBe(day);
    expect(localDay(range.to - 1)).toBe(day);
    expect(localDay(range.to)).not.toBe(day);
  });

  test('a game just after midnight in Freiburg belongs to that day, though it is still yesterday in UTC', () => {
    const ms = Date.parse('2024-05-01T22:30:00Z'); // 00:30 in Freiburg (CEST)
    expect(localDay(ms)).toBe('2024-05-02');
  });

  test.each(['2023-02-29', '2024-13-01', '2024-04-31', '2024-5-1', '24-05-01', 'today', ''])('"%s" is not a day', (text) => {
    expect(dayRange(text)).toBeNull();
  });
});

const T = Date.parse('2024-05-01T10:00:00+02:00');
const MIN = 60_000;

function game(overrides: Partial<GameSummary>): GameSummary {
  return {
    id: 1,
    game: 'kalaha',
    options: {},
    players: {},
    boardId: 'vauban',
    source: 'sensors',
    startedAt: T,
    endedAt: T + 30 * MIN,
    result: { winner: 'south', reason: 'no-seeds' },
    importedAt: null,
    plies: 40,
    ...overrides,
  };
}

describe('gameStats', () => {
  const games = [
    game({ id: 1 }),
    game({ id: 2, result: { winner: 'north' }, plies: 60, endedAt: T + 50 * MIN }),
    game({ id: 3, boardId: 'rieselfeld', startedAt: T + 24 * 60 * MIN, endedAt: T + 24 * 60 * MIN + 20 * MIN, result: { winner: 'draw' }, plies: 50 }),
    // Abandoned and live games count as games, not as finished ones, and not in the averages.
    game({ id: 4, result: { reason: 'abandoned' }, plies: 3 }),
    game({ id: 5, endedAt: null, result: null, plies: 7 }),
    game({ id: 6, game: 'makis', startedAt: T + 60 * MIN, endedAt: T + 75 * MIN, result: { winner: 'knights', reason: 'knight-home' }, plies: 30 }),
    game({ id: 7, game: 'makis', startedAt: T + 80 * MIN, endedAt: T + 100 * MIN, result: { winner: '2', reason: 'maki-home' }, plies: 20 }),
  ];

  test('counts games per day, per board, by game, wins by side or seat, and averages over finished games', () => {
    expect(gameStats(games, GAME_NAMES)).toEqual({
      games: 7,
      finished: 5,
      live: 1,
      wins: { south: 1, north: 1, draw: 1, knights: 1, '2': 1 },
      perDay: [
        { day: '2024-05-01', games: 6 },
        { day: '2024-05-02', games: 1 },
      ],
      perBoard: [
        { board: 'vauban', games: 6 },
        { board: 'rieselfeld', games: 1 },
      ],
      perGame: [
        { game: 'kalaha', games: 5, finished: 3, wins: { south: 1, north: 1, draw: 1 }, averagePlies: 50, averageMinutes: 33.3 },
        { game: 'makis', games: 2, finished: 2, wins: { knights: 1, '2': 1 }, averagePlies: 25, averageMinutes: 17.5 },
      ],
    });
  });

  test('no games: zeros and empty lists, no averages', () => {
    expect(gameStats([], GAME_NAMES)).toEqual({ games: 0, finished: 0, live: 0, wins: {}, perDay: [], perBoard: [], perGame: [] });
  });

  test('a live game with a winner in its (not yet ended) row is not counted as won', () => {
    expect(tally([game({ endedAt: null })])).toEqual({ games: 1, finished: 0, live: 1, wins: {} });
  });
});
