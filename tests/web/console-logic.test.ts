// The console's pure parts: where the token comes from, building a move by taps, narrowing long question lists, wording answers.
import { describe, expect, it } from 'vitest';
import type { CommandOutcome } from '../../web/src/connection/commands.ts';
import { appendToEntry, chosenOption, joinersFor, narrowOptions, normaliseEntry, squaresIn } from '../../web/src/referee/entry.ts';
import { commandLabel, outcomeText } from '../../web/src/referee/outcome.ts';
import { chooseToken, withoutToken } from '../../web/src/referee/token.ts';

describe('token', () => {
  it('takes ?token= first, then the tab’s stored one; blank counts as none', () => {
    expect(chooseToken('?token=abc', 'old')).toEqual({ token: 'abc', fromUrl: true });
    expect(chooseToken('?lang=en', 'old')).toEqual({ token: 'old', fromUrl: false });
    expect(chooseToken('?token=%20', '  ')).toEqual({ token: null, fromUrl: false });
    expect(chooseToken('', null)).toEqual({ token: null, fromUrl: false });
  });

  it('takes the token out of the address and leaves the rest', () => {
    expect(withoutToken('http://table.local/referee?token=abc&lang=en')).toBe('http://table.local/referee?lang=en');
    expect(withoutToken('http://table.local/referee?token=abc')).toBe('http://table.local/referee');
  });
});

describe('hand entry', () => {
  it('builds a move from taps and joiner keys', () => {
    let text = '';
    for (const token of ['c1', 'x', 'c5']) text = appendToEntry(text, token);
    expect(text).toBe('c1xc5');
    text = '';
    for (const token of ['d1', '>', 'a1', ',', 'b1']) text = appendToEntry(text, token);
    expect(text).toBe('d1>a1,b1');
  });

  it('replaces a square tapped after a square, and a joiner after a joiner; a joiner needs a square first', () => {
    expect(appendToEntry('c1', 'c2')).toBe('c2');
    expect(appendToEntry('d1>a1', 'b1')).toBe('d1>b1');
    expect(appendToEntry('c1-', 'x')).toBe('c1x');
    expect(appendToEntry('', '>')).toBe('');
  });

  it('reads the squares named, and sends the move without spaces', () => {
    expect(squaresIn('D1 > a1, B1')).toEqual(['d1', 'a1', 'b1']);
    expect(normaliseEntry(' c1 - c3 ')).toBe('c1-c3');
  });
});

describe('hand entry for Makis and Adu', () => {
  it('reads Makis squares as c<column>r<row>, not as two Malawi squares', () => {
    expect(squaresIn('1:c4r8', 'makis')).toEqual(['c4r8']);
    expect(appendToEntry('1:', 'c4r8', 'makis')).toBe('1:c4r8');
    expect(appendToEntry('1:c4r8', 'c5r8', 'makis')).toBe('1:c5r8');
  });

  it('reads Adu points up to s19 and joins them with -, x and R@', () => {
    expect(squaresIn('m13xs19R@a1', 'adu')).toEqual(['m13', 's19', 'a1']);
    let text = '';
    for (const token of ['e5', 'x', 'e9', 'R@', 'h8']) text = appendToEntry(text, token, 'adu');
    expect(text).toBe('e5xe9R@h8');
    expect(appendToEntry('e5xe9R@', 'x', 'adu')).toBe('e5xe9x');
    expect(appendToEntry('e5x', 'R@', 'adu')).toBe('e5R@');
  });

  it('offers joiner keys only where the notation has them', () => {
    expect(joinersFor('malawi')).toEqual(['-', 'x', '>', ',']);
    expect(joinersFor('adu')).toEqual(['-', 'x', 'R@']);
    expect(joinersFor('makis')).toEqual([]);
    expect(joinersFor('kalaha')).toEqual([]);
  });
});

describe('a question with a preselected answer', () => {
  const options = ['f1xg1=2', 'f1xg1=3', 'f1xg1=5'];

  it('shows the preselected answer chosen until the referee taps another', () => {
    expect(chosenOption(options, 'f1xg1=2', undefined)).toBe('f1xg1=2');
    expect(chosenOption(options, 'f1xg1=2', 'f1xg1=5')).toBe('f1xg1=5');
  });

  it('ignores a preselection or a pick that is no longer offered, and questions without one', () => {
    expect(chosenOption(options, 'f1xg1=4', undefined)).toBeNull();
    expect(chosenOption(options, 'f1xg1=2', 'f1xg1=6')).toBe('f1xg1=2');
    expect(chosenOption(options, undefined, undefined)).toBeNull();
  });
});

describe('narrowOptions', () => {
  const options = ['a1>b1', 'a1>f1', 'a1>b1,f1', 'b1xb4', 'b1>a1', 'b1>a1,f1', 'd3xd4', 'd3>a1'];

  it('shows captures first, then distributions with fewer recipients, at most the limit', () => {
    expect(narrowOptions(options, [], 4)).toEqual({ shown: ['b1xb4', 'd3xd4', 'a1>b1', 'a1>f1'], matching: 8 });
  });

  it('keeps the answers that name every square tapped', () => {
    expect(narrowOptions(options, ['a1', 'f1'], 8)).toEqual({ shown: ['a1>f1', 'a1>b1,f1', 'b1>a1,f1'], matching: 3 });
    expect(narrowOptions(options, ['e5'], 8)).toEqual({ shown: [], matching: 0 });
  });
});

describe('outcomeText', () => {
  const KALAHA = { game: 'kalaha' } as const;
  const MALAWI = { game: 'malawi', size: 6 } as const;
  const refused = (error: string | undefined, extra: Partial<CommandOutcome> = {}): CommandOutcome => ({
    ref: 3,
    stateId: 9,
    command: { kind: 'enter', move: 'a1-a2' },
    ok: false,
    ...(error ? { error } : {}),
    ...extra,
  });

  it('says what was taken', () => {
    const ok: CommandOutcome = { ref: 1, stateId: 9, command: { kind: 'choose', questionId: 2, move: 'c1xc5' }, ok: true };
    expect(outcomeText('de', ok, MALAWI)).toEqual({ ok: true, headline: 'Übernommen: c1xc5', reason: '', translated: true });
    expect(outcomeText('en', { ...ok, command: { kind: 'undo' } }, MALAWI).headline).toBe('Last move taken back');
  });

  it('words the console’s and the referee’s own refusals', () => {
    expect(outcomeText('de', refused('console/stale-state', { message: 'The game has moved on' }), MALAWI)).toEqual({
      ok: false,
      headline: 'Abgelehnt: Zug a1-a2',
      reason: 'Das Spiel hat sich inzwischen geändert — bitte das Brett prüfen und noch einmal senden.',
      translated: true,
    });
    expect(outcomeText('en', refused('referee/not-an-option', { message: 'x' }), MALAWI).reason).toBe('That move was not one of the options.');
    expect(outcomeText('de', refused('console/no-answer'), KALAHA).reason).toContain('Keine Antwort');
  });

  it("words a rule's refusal when its params come, else shows the server's sentence, else the code", () => {
    const params = { from: 'a1', to: 'a2', strength: 4, distance: 1 };
    expect(outcomeText('de', refused('malawi/wrong-distance', { params, message: 'english' }), MALAWI)).toMatchObject({
      reason: 'Die Figur auf a1 hat Stärke 4 und muss genau 4 Felder weit ziehen, nicht 1',
      translated: true,
    });
    expect(outcomeText('de', refused('malawi/wrong-distance', { message: 'the piece on a1 has strength 4' }), MALAWI)).toMatchObject({
      reason: 'the piece on a1 has strength 4',
      translated: false,
    });
    // A rule sentence that needs no params is the page's own even without them.
    expect(outcomeText('de', refused('malawi/game-over', { message: 'over' }), MALAWI).reason).toBe(
      'Das Spiel ist schon zu Ende — kein Zug mehr möglich',
    );
    expect(outcomeText('en', refused('lounge/new-code'), MALAWI).reason).toBe('Error code lounge/new-code');
  });

  it('says the dice were rolled, and words a refused roll', () => {
    const roll: CommandOutcome = { ref: 4, stateId: 9, command: { kind: 'roll' }, ok: true };
    expect(outcomeText('de', roll, { game: 'makis' }).headline).toBe('Gewürfelt — die Würfel stehen auf der Anzeige');
    const refusedRoll: CommandOutcome = { ...roll, ok: false, error: 'makis/maki-move-expected', params: { player: 2 }, message: 'english' };
    expect(outcomeText('de', refusedRoll, { game: 'makis' })).toMatchObject({
      headline: 'Abgelehnt: Würfeln',
      reason: 'Erst ziehen die Makis — Spieler 2 zieht oder passt als Nächstes',
      translated: true,
    });
  });

  it('names each command in a few words', () => {
    expect(commandLabel('de', { kind: 'undo' })).toBe('Rücknahme');
    expect(commandLabel('en', { kind: 'enter', move: 'C' })).toBe('Move C');
    expect(commandLabel('en', { kind: 'ask' })).toBe('Report of a capture or distribution');
  });
});
