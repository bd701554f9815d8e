// The statistics page's wording: wins in a fixed order of sides and seats, and today at a table in a few words.
import { describe, expect, it } from 'vitest';
import { average, todayLines, winRows } from '../../web/src/stats/present.ts';

describe('winRows', () => {
  it('puts sides first, then seats by number, the team, the knights, and draws last', () => {
    const rows = winRows('de', { draw: 2, knights: 3, '10': 1, '2': 4, north: 5, south: 1, team: 1 });
    expect(rows.map((r) => r.key)).toEqual(['south', 'north', '2', '10', 'team', 'knights', 'draw']);
    expect(rows.map((r) => r.label)).toEqual(['Süd', 'Nord', 'Spieler 2', 'Spieler 10', 'Das Team', 'Die Ritter', 'Unentschieden']);
  });

  it('leaves out winners without a win', () => {
    expect(winRows('en', { south: 0, north: 2 })).toEqual([{ key: 'north', label: 'North', wins: 2 }]);
  });
});

describe('todayLines', () => {
  const today = { day: '2024-05-01', board: 'vauban', games: 3, finished: 2, live: 1, wins: { north: 1, '2': 1 } };

  it('counts the games, the finished and the live ones, and who won', () => {
    expect(todayLines('de', today, true)).toEqual({
      title: 'Heute an diesem Tisch',
      counts: '3 Partien · 2 beendet · 1 läuft',
      wins: [
        { key: 'north', label: 'Nord', wins: 1 },
        { key: '2', label: 'Spieler 2', wins: 1 },
      ],
    });
    expect(todayLines('en', { ...today, live: 2 }, false)).toMatchObject({ title: 'Today at table vauban', counts: '3 games · 2 finished · 2 in progress' });
  });

  it('says when nothing was played yet, without counting nothing twice', () => {
    const none = { ...today, games: 0, finished: 0, live: 0, wins: {} };
    expect(todayLines('de', none, true)).toEqual({ title: 'Heute an diesem Tisch', counts: 'Noch keine Partie', wins: [] });
    expect(todayLines('en', none, true).counts).toBe('No games yet');
    expect(todayLines('de', { ...none, games: 1, live: 1 }, true).counts).toBe('Eine Partie · 0 beendet · 1 läuft');
  });

  it('writes averages the way the language does', () => {
    expect([average('de', 244.5), average('en', 244.5), average('de', 1088)]).toEqual(['244,5', '244.5', '1.088']);
  });
});
