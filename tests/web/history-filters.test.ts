// The addresses of /games and /stats: what a shared link opens is what the page that made it showed, values the
// API would refuse are dropped, and the API requests follow from the address.
import { describe, expect, it } from 'vitest';
import {
  exportAllPath,
  exportGamePath,
  filtered,
  gamesSearch,
  isDay,
  isGameId,
  listApiPath,
  playersApiPath,
  readGamesQuery,
  readStatsFilter,
  statsApiPath,
  statsSearch,
  withFilter,
  type GamesQuery,
  type LogFilter,
} from '../../web/src/history/filters.ts';

describe('/games addresses', () => {
  it.each<[string, GamesQuery]>([
    ['the bare list', { view: 'list', list: { filter: {}, page: 1 } }],
    ['every filter and a page', { view: 'list', list: { filter: { game: 'malawi', day: '2024-05-01', board: 'vauban', player: 'Anna' }, page: 3 } }],
    ['a name with spaces, umlauts and an ampersand', { view: 'list', list: { filter: { player: 'Jörg & Gül Öztürk' }, page: 1 } }],
    ['a game at a ply', { view: 'game', id: '12', ply: 40, list: { filter: {}, page: 1 } }],
    ['a game at its end, keeping the list’s filters', { view: 'game', id: '7', ply: null, list: { filter: { game: 'adu', player: 'Dora' }, page: 2 } }],
    ['a game at its start', { view: 'game', id: '3', ply: 0, list: { filter: {}, page: 1 } }],
  ])('%s survives the round trip', (_name, query) => {
    const search = gamesSearch(query);
    expect(readGamesQuery(search)).toEqual(query);
    // And through a real URL, as a shared link is.
    expect(readGamesQuery(new URL(`http://table/games${search}`).search)).toEqual(query);
  });

  it('writes the parameters in one order and leaves defaults out', () => {
    expect(gamesSearch({ view: 'list', list: { filter: { player: 'Anna', game: 'kalaha' }, page: 1 } })).toBe('?game=kalaha&player=Anna');
    expect(gamesSearch({ view: 'list', list: { filter: {}, page: 1 } })).toBe('');
    expect(gamesSearch({ view: 'game', id: '5', ply: 9, list: { filter: {}, page: 2 } }, 'en')).toBe('?page=2&id=5&ply=9&lang=en');
  });

  it('ignores the language and unknown parameters when reading', () => {
    expect(readGamesQuery('?lang=en&utm=x&game=adu')).toEqual({ view: 'list', list: { filter: { game: 'adu' }, page: 1 } });
  });

  it.each([
    ['?game=chess', {}],
    ['?day=2024-02-30', {}],
    ['?day=yesterday', {}],
    ['?board=', {}],
    [`?player=${'x'.repeat(201)}`, {}],
    ['?day=2024-05-01&from=2024-04-01', { day: '2024-05-01' }],
  ])('drops what the API would refuse: %s', (search, filter) => {
    expect(readGamesQuery(search)).toEqual({ view: 'list', list: { filter, page: 1 } });
  });

  it.each(['?page=0', '?page=-2', '?page=two', '?page=1.5'])('reads %s as the first page', (search) => {
    expect(readGamesQuery(search).list.page).toBe(1);
  });

  it('keeps an id it cannot use, so the page can say there is no such game', () => {
    expect(readGamesQuery('?id=abc&ply=x')).toEqual({ view: 'game', id: 'abc', ply: null, list: { filter: {}, page: 1 } });
    expect([isGameId('abc'), isGameId('0'), isGameId('12'), isGameId('1'.repeat(17))]).toEqual([false, false, true, false]);
  });

  it('asks the API for one page of the list', () => {
    expect(listApiPath({ filter: { game: 'kalaha', player: 'Anna' }, page: 3 }, 25)).toBe('/api/games?game=kalaha&player=Anna&limit=25&offset=50');
    expect(listApiPath({ filter: {}, page: 1 })).toBe('/api/games?limit=25&offset=0');
  });

  it('offers the player names of the games the other filters leave', () => {
    expect(playersApiPath({ game: 'adu', player: 'Dora', day: '2024-05-03' })).toBe('/api/players?game=adu&day=2024-05-03');
    expect(playersApiPath({ player: 'Dora' })).toBe('/api/players');
  });

  it('downloads one game or every matching game', () => {
    expect(exportGamePath(12, 'json')).toBe('/api/games/12/export?format=json');
    expect(exportAllPath({ game: 'malawi', board: 'rieselfeld' }, 'pgn')).toBe('/api/games/export?game=malawi&board=rieselfeld&format=pgn');
  });
});

describe('/stats addresses', () => {
  it.each<LogFilter>([{}, { game: 'makis' }, { from: '2024-05-01', to: '2024-05-31', board: 'vauban' }, { to: '2024-12-31' }])(
    '%o survives the round trip',
    (filter) => {
      expect(readStatsFilter(statsSearch(filter))).toEqual(filter);
    },
  );

  it('takes a range of days, not one day, and drops a range that ends before it starts', () => {
    expect(readStatsFilter('?day=2024-05-01&player=Anna')).toEqual({});
    expect(readStatsFilter('?from=2024-05-09&to=2024-05-01')).toEqual({ from: '2024-05-09' });
  });

  it('asks the API with the same filter', () => {
    expect(statsApiPath({ game: 'kalaha', from: '2024-05-01' })).toBe('/api/stats?game=kalaha&from=2024-05-01');
    expect(statsApiPath({})).toBe('/api/stats');
  });
});

describe('changing a filter', () => {
  it('sets, replaces and clears one value', () => {
    const f = withFilter({}, 'game', 'adu');
    expect(f).toEqual({ game: 'adu' });
    expect(withFilter(f, 'player', 'Dora')).toEqual({ game: 'adu', player: 'Dora' });
    expect(withFilter(f, 'game', '')).toEqual({});
    expect(filtered({})).toBe(false);
    expect(filtered(f)).toBe(true);
  });

  it('checks a typed value as an address would', () => {
    expect(withFilter({}, 'day', '2024-13-01')).toEqual({});
    expect(withFilter({ from: '2024-05-01' }, 'day', '2024-05-02')).toEqual({ day: '2024-05-02' });
    expect([isDay('2024-02-29'), isDay('2023-02-29')]).toEqual([true, false]);
  });
});
