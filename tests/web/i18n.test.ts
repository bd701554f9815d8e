// The message catalogue: both languages complete and alike, every alert code a real sentence, the fallbacks, Malawi's wording.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Alert, Question } from '../../server/http/messages.ts';
import { adu, aduNotation, makis, makisNotation, malawi as malawiRules, malawiNotation } from '../../server/rules/index.ts';
import {
  ALERT_CODES,
  CODE_ALIASES,
  QUESTION_CODES,
  catalogueCode,
  conditionsHold,
  formatAlert,
  formatQuestion,
  rollText,
  wordCode,
  type AlertCode,
} from '../../web/src/i18n/alerts.ts';
import {
  CATALOGUES,
  LANGS,
  cellLabel,
  fill,
  hasKey,
  makisCell,
  makisSquareLabel,
  makisSquareName,
  percent,
  placeholders,
  squareIndex,
  squareName,
  t,
  type BoardKind,
  type MessageKey,
  type Params,
} from '../../web/src/i18n/catalogue.ts';
import { chooseLang } from '../../web/src/i18n/lang.ts';

const keys = (lang: (typeof LANGS)[number]) => Object.keys(CATALOGUES[lang]).sort();

/** Params as the rules engine and referee send them today (capture/sweep/takeback/not-responding: as proposed). */
const SAMPLE_PARAMS: Record<AlertCode, Params> = {
  'kalaha/forbidden-capture': { pit: 'C', stones: 12 },
  'kalaha/unfair-capture': { pit: 'd', stones: 9 },
  'kalaha/capture-not-allowed': { pit: 'D' },
  'kalaha/must-feed': { pit: 'a' },
  'kalaha/not-your-pit': { pit: 'b', side: 'south' },
  'kalaha/illegal-move': { pit: 'c' },
  'kalaha/empty-pit': { pit: 'E' },
  'kalaha/game-over': {},
  'referee/mismatch': { count: 2 },
  'referee/capture-pending': { pits: 'b c', store: 'south' },
  'referee/sweep-pending': {},
  'referee/takeback': { moves: 'F d' },
  'referee/ambiguous': { options: 'C / D' },
  'board/not-responding': {},
  'board/calibrating': { seeds: 4 },
  'kalaha/unreadable-move': { move: 'Q' },
  'malawi/game-over': { reason: 'baseline', winner: 'south' },
  'malawi/no-piece': { from: 'c3' },
  'malawi/not-your-piece': { from: 'a6', side: 'north' },
  'malawi/strength-zero': { from: 'b1' },
  'malawi/not-straight': { from: 'a1', to: 'b2', strength: 2 },
  'malawi/wrong-distance': { from: 'a1', to: 'a5', strength: 2, distance: 4 },
  'malawi/path-blocked': { from: 'a1', to: 'a3', strength: 2, blocker: 'a2' },
  'malawi/square-occupied': { from: 'a1', to: 'a3', strength: 2 },
  'malawi/nothing-to-capture': { from: 'a1', to: 'a3', strength: 2 },
  'malawi/capture-own': { from: 'a1', to: 'a3', strength: 2 },
  'malawi/capture-zero': { from: 'a1', to: 'a3', strength: 2 },
  'malawi/no-recipients': { from: 'd1' },
  'malawi/too-many-recipients': { from: 'd1', strength: 2, recipients: 3 },
  'malawi/recipient-self': { from: 'd1', recipient: 'd1' },
  'malawi/recipient-twice': { from: 'd1', recipient: 'a1' },
  'malawi/recipient-not-own': { from: 'd1', recipient: 'a6' },
  'malawi/recipient-full': { from: 'd1', recipient: 'e1' },
  'malawi/off-board': { square: 'g7' },
  'malawi/bad-square': { square: 'z9' },
  'malawi/bad-notation': { move: 'c1c3' },
  'malawi/bad-position': {},
  'malawi/bad-setup': {},
  'malawi/bad-strength': { square: 'c3', strength: '9' },
  'malawi/setup-overlap': { square: 'c3' },
  'malawi/bad-piece-count': { side: 'south', pieces: 7 },
  'malawi/bad-options': {},
  'malawi/unknown-option': { option: 'colour' },
  'malawi/bad-size': { size: '3' },
  'malawi/bad-max-strength': { maxStrength: '9' },
  'malawi/bad-baseline-win': { baselineWin: 'never' },
  'referee/which-move': {},
  // Makis: the referee's proposed codes, then the engine's with the params it sends (server/rules/makis*.ts).
  'makis/impossible-roll': { roll: '1-1-1' },
  'makis/expected-roll': { roll: '2-5-5' },
  'makis/wrong-roll': { expected: '2-5-5', roll: '2-5-6' },
  'makis/reset-knight': { column: 4 },
  'makis/reset-maki': { player: 2, square: 'c5r9' },
  'makis/remove-maki': { player: 2 },
  'makis/illegal': {},
  'makis/game-over': { reason: 'maki-home', winner: '2' },
  'makis/placement-expected': { player: 1 },
  'makis/roll-expected': { player: 2 },
  'makis/maki-move-expected': { player: 3 },
  'makis/no-such-player': { player: '7' },
  'makis/player-out': { player: 2 },
  'makis/not-your-turn': { player: 2, toMove: 1 },
  'makis/off-board': { square: 'c0r9' },
  'makis/square-taken': { square: 'c4r8', player: 2 },
  'makis/not-row-9': { square: 'c4r8' },
  'makis/not-adjacent': { from: 'c4r8', to: 'c6r8' },
  'makis/not-roll-time': { phase: 'maki' },
  'makis/bad-square': { square: 'x9' },
  'makis/bad-notation': { move: 'Q' },
  'makis/bad-setup': {},
  'makis/setup-overlap': { square: 'c4r8' },
  // Adu: the referee's proposed codes, then the engine's (server/rules/adu*.ts).
  'adu/place-reserve': { player: 2 },
  'board/remove-pieces': { player: 3, count: 4, squares: 'a1, b2, c3, d4' },
  'referee/declare-first': { player: 2, soldier: 'S3', square: 'e5', move: 'f1-f4' },
  'adu/illegal': {},
  'adu/ambiguous': {},
  'adu/game-over': { reason: 'last-king', winner: '2' },
  'adu/still-placing': { player: 3, id: 'S2' },
  'adu/placement-over': {},
  'adu/wrong-placement': { player: 3, id: 'K2' },
  'adu/off-board': { square: 'n14' },
  'adu/square-taken': { square: 'd4' },
  'adu/no-piece': { from: 'd4' },
  'adu/not-your-piece': { from: 'd4', player: 2 },
  'adu/reserve-immobile': { from: 'd4', to: 'd5', piece: 'R1' },
  'adu/same-square': { from: 'd4', to: 'd4', piece: 'S1' },
  'adu/not-straight': { from: 'd4', to: 'e5', piece: 'S1' },
  'adu/king-one-step': { from: 'd4', to: 'd6', piece: 'K1', steps: 2 },
  'adu/jump': { from: 'd4', to: 'd7', piece: 'S3', blocker: 'd5' },
  'adu/own-piece': { from: 'd4', to: 'd5', piece: 'S1' },
  'adu/square-occupied': { from: 'd4', to: 'd5', piece: 'S1' },
  'adu/nothing-to-capture': { from: 'd4', to: 'd5', piece: 'S1' },
  'adu/range-exceeded': { from: 'd4', to: 'd9', piece: 'S3', steps: 5, most: 4 },
  'adu/reserve-not-earned': { from: 'd4', to: 'd5', piece: 'S1', captured: 'S2', player: 2 },
  'adu/declare-inconsistent': { from: 'd4', to: 'd5', piece: 'S1', captured: 'S2', player: 2, declare: 1, consistent: '3,4' },
  'adu/declare-not-soldier': { from: 'd4', to: 'd5', piece: 'S1', captured: 'K1', player: 2 },
  'adu/supply-empty': { from: 'd4', to: 'd5', piece: 'S1', captured: 'K1', player: 2 },
  'adu/reserve-square-taken': { from: 'd4', to: 'd5', piece: 'S1', captured: 'K1', player: 2, reserve: 'h8' },
  'adu/reserve-missing': { from: 'd4', to: 'd5', piece: 'S1', captured: 'K1', player: 2 },
  'adu/bad-square': { square: 'z99' },
  'adu/bad-notation': { move: 'd4d7' },
  'adu/bad-pieces': { token: '9X@z1' },
  'adu/bad-setup': {},
};

function alertOf(code: string, params: Params = {}, cells?: Alert['cells']): Alert {
  const base = { id: 1, level: 'warn' as const, code, message: `server says ${code}`, params };
  return cells ? { ...base, cells } : base;
}

describe('catalogue', () => {
  it('has the same keys in German and English', () => {
    expect(keys('en')).toEqual(keys('de'));
  });

  it.each(LANGS)('has no empty sentence in %s', (lang) => {
    const empty = Object.entries(CATALOGUES[lang]).filter(([, text]) => text.trim() === '');
    expect(empty).toEqual([]);
  });

  it('names the same placeholders in both languages', () => {
    const differing = (Object.keys(CATALOGUES.de) as MessageKey[]).filter(
      (key) => placeholders(CATALOGUES.de[key]).sort().join() !== placeholders(CATALOGUES.en[key]).sort().join(),
    );
    expect(differing).toEqual([]);
  });

  it.each(LANGS)('fills every sentence in %s without leftover braces, singular and plural', (lang) => {
    for (const n of [0, 1, 2]) {
      for (const [key, template] of Object.entries(CATALOGUES[lang])) {
        const params = Object.fromEntries(placeholders(template).map((name) => [name, n]));
        const text = fill(lang, template, params);
        expect(text, key).not.toBeNull();
        expect(text, key).not.toMatch(/[{}|]/);
      }
    }
  });

  it('picks singular and plural by the number', () => {
    expect(t('de', 'record.plies', { count: 1 })).toBe('1 Zug');
    expect(t('de', 'record.plies', { count: 7 })).toBe('7 Züge');
    expect(t('en', 'record.plies', { count: 1 })).toBe('1 move');
    expect(t('en', 'record.plies', { count: 0 })).toBe('0 moves');
  });
});

describe('alerts', () => {
  it('has a sample for every known code (so the next test covers them all)', () => {
    expect(Object.keys(SAMPLE_PARAMS).sort()).toEqual([...ALERT_CODES].sort());
  });

  it.each(LANGS.flatMap((lang) => ALERT_CODES.map((code) => [lang, code] as const)))(
    '%s renders %s from the catalogue with its params',
    (lang, code) => {
      const params = SAMPLE_PARAMS[code];
      const text = formatAlert(lang, alertOf(code, params));
      expect(text.translated).toBe(true);
      expect(text.text).not.toMatch(/[{}]/);
      expect(text.text).not.toBe(`server says ${code}`);
      // Every number the sentence names shows (the engine may send more than the sentence needs).
      const named = placeholders(CATALOGUES[lang][`alert.${code}`]);
      for (const [name, value] of Object.entries(params)) {
        if (typeof value === 'number' && named.includes(name)) expect(text.text).toContain(String(value));
      }
    },
  );

  it('says the forbidden capture the way the table says it', () => {
    const text = formatAlert('de', alertOf('kalaha/forbidden-capture', { pit: 'C', stones: 12 }));
    expect(text.text).toBe('Mulde C würde 12 Steine schlagen — nicht erlaubt');
    expect(formatAlert('en', alertOf('kalaha/forbidden-capture', { pit: 'C', stones: 12 })).text).toBe(
      'Pit C would capture 12 stones — not allowed',
    );
  });

  it('names sides and lists pits in the page language', () => {
    const alert = alertOf('referee/capture-pending', { pits: 'b,c', store: 'north' });
    expect(formatAlert('de', alert).text).toBe('Geschlagene Steine aus b und c in den Gewinn-Napf Nord legen');
    expect(formatAlert('en', alert).text).toBe("Put the captured stones from b and c into North's store");
  });

  it('lists the differing cells with real plus and minus signs, stores by name', () => {
    const alert = alertOf('referee/mismatch', { count: 3 }, [
      { cell: 2, diff: 2 },
      { cell: 9, diff: -1 },
      { cell: 13, diff: -1 },
    ]);
    expect(formatAlert('de', alert).detail).toBe('Abweichung: C\u00a0+2, d\u00a0\u22121, Gewinn-Napf Nord\u00a0\u22121');
    expect(formatAlert('en', alert).detail).toBe("Differs: C\u00a0+2, d\u00a0\u22121, North's store\u00a0\u22121");
    expect(formatAlert('de', alert).text).toContain('an 3 Stellen');
  });

  it("falls back to the server's sentence for an unknown code", () => {
    const text = formatAlert('de', alertOf('malawi/something-new', { x: 1 }));
    expect(text).toEqual({ text: 'server says malawi/something-new', detail: null, translated: false });
  });

  it("falls back to the server's sentence when a param the sentence needs is missing", () => {
    const text = formatAlert('de', alertOf('kalaha/forbidden-capture', { pit: 'C' }));
    expect(text.translated).toBe(false);
    expect(text.text).toBe('server says kalaha/forbidden-capture');
  });
});

describe('language choice', () => {
  it('takes ?lang= first, then the stored choice, then German', () => {
    expect(chooseLang('?lang=en', 'de')).toBe('en');
    expect(chooseLang('?lang=fr', 'en')).toBe('en');
    expect(chooseLang('', null)).toBe('de');
    expect(chooseLang('?x=1', 'klingon')).toBe('de');
  });
});

describe('alerts as the engine words them', () => {
  it('names the player to move for a pit of the opponent', () => {
    const alert = alertOf('kalaha/not-your-pit', { pit: 'b', side: 'south' });
    expect(formatAlert('de', alert).text).toBe('Süd ist am Zug — Mulde b gehört dem Gegner');
    expect(formatAlert('en', alert).text).toBe("It is South's turn — pit b belongs to the opponent");
  });
});

describe('message format (ICU, through intl-messageformat)', () => {
  it('has a form for an exact zero before the plural rules, and # stands for the number', () => {
    const template = '{n, plural, =0 {none} one {one more} other {# more}}';
    expect(fill('en', template, { n: 0 })).toBe('none');
    expect(fill('en', template, { n: 1 })).toBe('one more');
    expect(fill('en', template, { n: 4 })).toBe('4 more');
    expect(fill('de', '{n, plural, one {Stein} other {# Steine}}', { n: 3 })).toBe('3 Steine');
  });

  it('writes # the way the language writes numbers', () => {
    expect(fill('de', '{n, plural, one {# Zug} other {# Züge}}', { n: 1200 })).toBe('1.200 Züge');
    expect(fill('en', '{n, plural, one {# move} other {# moves}}', { n: 1200 })).toBe('1,200 moves');
  });

  it('names the parameters a message needs, inside plural forms too', () => {
    expect(placeholders('{a} und {n, plural, one {{b}} other {# {c}}} und {a}')).toEqual(['a', 'n', 'b', 'c']);
  });

  it('gives null, not a sentence with a hole, when a parameter is missing', () => {
    expect(fill('de', 'Mulde {pit}: {count, plural, one {# Stein} other {# Steine}}', { pit: 'A' })).toBeNull();
    expect(fill('de', 'Mulde {pit}', {})).toBeNull();
  });

  it('keeps angle brackets and apostrophes as text', () => {
    expect(fill('en', "<{n}% · {side}'s store", { n: 1, side: 'North' })).toBe("<1% · North's store");
  });

  it('refuses a message that is not valid ICU, so a broken catalogue line cannot ship', () => {
    expect(() => fill('en', '{count, plural, one {stone}', { count: 1 })).toThrow();
  });
});

describe('Malawi in both languages', () => {
  const MALAWI: BoardKind = { game: 'malawi', size: 6 };

  it('knows every code the Malawi engine and its notation produce', async () => {
    const sources = await Promise.all(
      ['malawi.ts', 'malawi-notation.ts', 'malawi-game.ts'].map((file) => readFile(new URL(`../../server/rules/${file}`, import.meta.url), 'utf8')),
    );
    const codes = new Set(sources.flatMap((text) => [...text.matchAll(/'(malawi\/[a-z-]+)'/g)].map((m) => m[1])));
    expect(codes.size).toBeGreaterThan(20);
    const known = new Set<string>(ALERT_CODES);
    expect([...codes].filter((code) => !known.has(code))).toEqual([]);
  });

  it.each(LANGS)('words every refusal the engine really gives in %s, with the params it really sends', (lang) => {
    // One position per rule, written in the engine's own notation (ranks from north down, then who moves).
    const cases: [position: string, move: string][] = [
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'c3-c5'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'a6-a4'],
      ['n2n2n2n2n2n2/....../....../....../....../s0s2s2s2s2s2 south', 'a1-a3'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'a1-b2'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'a1-a4'],
      ['n2n2n2n2n2n2/....../....../....../s2...../s2.s2s2s2s2 south', 'a1-a3'],
      ['n2n2n2n2n2n2/....../....../s2...../....../s2s2s2s2s2. south', 'a1-a3'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'a1xa3'],
      ['n2n2n2n2n2n2/....../....../s2...../....../s2s2s2s2s2. south', 'a1xa3'],
      ['n2n2n2n2n2./....../....../n0...../....../s2s2s2s2s2. south', 'a1xa3'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'd1>a1,b1,c1'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'd1>d1'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'd1>a1,a1'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'd1>a6'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s5s2s2s2s2 south', 'd1>b1'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'a1-a9'],
      ['n2n2n2n2n2n2/....../....../....../....../s2s2s2s2s2s2 south', 'c1c3'],
    ];
    const seen = new Set<string>();
    for (const [position, move] of cases) {
      const state = malawiNotation.parsePosition(position);
      if (!state.ok) throw new Error(state.error.message);
      const parsed = malawiNotation.parseMove(move, 6);
      const error = parsed.ok ? malawiRules.whyIllegal(state.value, parsed.value) : parsed.error;
      if (!error) throw new Error(`${move} is legal in ${position}`);
      seen.add(error.code);
      const alert = alertOf(error.code, error.params ?? {});
      const text = formatAlert(lang, alert, MALAWI);
      expect(text.translated, `${error.code} ${JSON.stringify(error.params)}`).toBe(true);
      expect(text.text).not.toMatch(/[{}]/);
    }
    expect(seen.size).toBeGreaterThanOrEqual(16);
  });

  it('says which square to fix first, by what the referee asks for', () => {
    const cells = [
      { cell: 14, diff: -1 },
      { cell: 20, diff: 1 },
    ];
    const putBack = alertOf('referee/mismatch', { square: 'c3', remaining: 2, action: 'put-back' }, cells);
    expect(formatAlert('de', putBack, MALAWI).text).toBe('Bitte die Figur auf c3 zurückstellen — das erste von 2 Feldern, die abweichen');
    expect(formatAlert('en', putBack, MALAWI).text).toBe('Put the piece back on c3 — the first of 2 squares that differ');
    expect(formatAlert('en', putBack, MALAWI).detail).toBe('Differs: c3\u00a0\u22121, c4\u00a0+1');
    const takeOff = alertOf('referee/mismatch', { square: 'c4', remaining: 1, action: 'take-off' });
    expect(formatAlert('de', takeOff, MALAWI).text).toBe('Bitte die Figur von c4 nehmen');
    const beads = alertOf('referee/mismatch', { square: 'b2', remaining: 1, action: 'add-beads', beads: 1 });
    expect(formatAlert('de', beads, MALAWI).text).toBe('Bitte 1 Perle zurück auf die Figur auf b2 legen');
    expect(formatAlert('en', { ...beads, params: { ...beads.params, beads: 2 } }, MALAWI).text).toBe('Put 2 beads back on the piece on b2');
    // An action this page does not know yet still gets a sentence from the square and the count.
    const unknown = alertOf('referee/mismatch', { square: 'b2', remaining: 3, action: 'polish' });
    expect(formatAlert('en', unknown, MALAWI).text).toBe('The board differs from the game — please fix b2 first (one of 3 squares)');
    // A Kalaha-style count on a Malawi board speaks of pieces, not stones.
    expect(formatAlert('de', alertOf('referee/mismatch', { count: 2 }), MALAWI).text).toContain('Figuren');
    // And Kalaha is worded as before.
    expect(formatAlert('de', alertOf('referee/mismatch', { count: 2 })).text).toContain('Steine');
  });

  it('names beads that differ on a counting board', () => {
    const alert = alertOf('referee/mismatch', { square: 'b2', remaining: 1, action: 'add-beads', beads: 2 }, [
      { cell: 7, diff: 0, beads: -2 } as { cell: number; diff: number },
    ]);
    expect(formatAlert('de', alert, MALAWI).detail).toBe('Abweichung: b2\u00a0\u22122 Perlen');
  });

  it('words the calibration for pieces, with how many squares still differ', () => {
    const alert = alertOf('board/calibrating', { pieces: 12, count: 3 });
    expect(formatAlert('en', alert, MALAWI).text).toBe('The board is calibrating — please set the pieces up as in the game (3 squares still differ)');
    expect(formatAlert('de', { ...alert, params: { pieces: 12, count: 0 } }, MALAWI).text).toBe(
      'Das Brett wird kalibriert — bitte die Figuren so aufstellen wie im Spiel',
    );
  });

  it('asks the question the way the referee means it', () => {
    const q = (params: Params): Question => ({ id: 1, code: 'referee/which-move', message: 'server asks', params, options: ['c1xc5'] });
    expect(formatQuestion('de', q({ reason: 'hidden', side: 'south', count: 4 }), MALAWI).text).toBe(
      'Welches Schlagen oder Verteilen hat Süd gemacht?',
    );
    expect(formatQuestion('en', q({ reason: 'unsure', options: 'c1-c3', squares: 'c3', count: 1 }), MALAWI).text).toBe(
      'The sensor on c3 cannot be trusted — was c1-c3 played?',
    );
    expect(formatQuestion('en', q({ reason: 'hidden-before', side: 'north', then: 'a1-a3', count: 2 }), MALAWI).text).toBe(
      'The board already shows a1-a3 — which move did North make before it?',
    );
    expect(formatQuestion('de', q({ reason: 'ambiguous', options: 'a, b', count: 2 }), MALAWI).translated).toBe(true);
    expect(formatQuestion('en', q({ reason: 'new-reason' }), MALAWI).text).toBe(
      'Which move was played? The sensors cannot see captures and distributions.',
    );
    expect(formatQuestion('de', { ...q({}), code: 'referee/other' }, MALAWI)).toEqual({ text: 'server asks', translated: false });
  });

  it('has a question sentence for every question code', () => {
    for (const lang of LANGS) for (const code of QUESTION_CODES) expect(hasKey(lang, `question.${code}`), `${lang} ${code}`).toBe(true);
  });

  it('only applies a variant whose conditions hold', () => {
    expect(conditionsHold('alert.x#malawi.action=take-off', { action: 'take-off' })).toBe(true);
    expect(conditionsHold('alert.x#malawi.action=take-off', { action: 'put-back' })).toBe(false);
    expect(conditionsHold('alert.x#malawi.action=take-off', {})).toBe(false);
    expect(conditionsHold('alert.x#malawi+count', {})).toBe(true);
  });
});

/** Every `game/code` string literal in the given rules files. */
async function engineCodes(game: string, files: readonly string[]): Promise<Set<string>> {
  const sources = await Promise.all(files.map((file) => readFile(new URL(`../../server/rules/${file}`, import.meta.url), 'utf8')));
  const pattern = new RegExp(`'(${game}/[a-z0-9-]+)'`, 'g');
  return new Set(sources.flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1])));
}

describe('Makis in both languages', () => {
  const MAKIS: BoardKind = { game: 'makis' };

  it('knows every code the Makis engine, its odds and its notation produce', async () => {
    const codes = await engineCodes('makis', ['makis.ts', 'makis-notation.ts', 'makis-odds.ts', 'makis-game.ts']);
    expect(codes.size).toBeGreaterThan(12);
    const known = new Set<string>(ALERT_CODES);
    expect([...codes].filter((code) => !known.has(code))).toEqual([]);
  });

  it.each(LANGS)('words every refusal the engine really gives in %s, with the params it really sends', (lang) => {
    const placed = makis.fromSetup(
      { knights: [1, 1, 1, 1, 1, 1, 1, 1, 1], makis: ['out', makis.square(4, 8), makis.square(6, 9)], phase: 'maki', roller: 2, toMove: 2 },
      { players: 3, mode: 'competitive', knights: makis.DEFAULT_KNIGHTS },
    );
    if (!placed.ok) throw new Error(placed.error.message);
    const state = placed.value;
    const tokens = ['R1.1.1', '1:c4r7', '3:c6r8', '2:c6r6', '2:c6r9', '2:c4r9x', '9:c4r7', '2@c4r9'];
    const seen = new Set<string>();
    for (const token of tokens) {
      const parsed = makisNotation.parseMove(token);
      const error = parsed.ok ? makis.whyIllegal(state, parsed.value) : parsed.error;
      if (!error) throw new Error(`${token} is legal`);
      seen.add(error.code);
      const text = formatAlert(lang, alertOf(error.code, error.params ?? {}), MAKIS);
      expect(text.translated, `${error.code} ${JSON.stringify(error.params)}`).toBe(true);
      expect(text.text).not.toMatch(/[{}]/);
      // Squares on the board read "5/9"; only a sentence about notation quotes it.
      if (!error.code.startsWith('makis/bad-')) expect(text.text, error.code).not.toMatch(/c\dr\d/);
    }
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it('shows squares as column/row and rolls as three numbers', () => {
    expect(formatAlert('de', alertOf('makis/reset-maki', { player: 2, square: 'c5r9' }), MAKIS).text).toBe(
      'Bitte den Maki von Spieler 2 zurück auf 5/9 stellen',
    );
    expect(formatAlert('en', alertOf('makis/reset-knight', { column: 4 }), MAKIS).text).toBe('Put the knight in column 4 back to row 1');
    expect(formatAlert('en', alertOf('makis/impossible-roll', { roll: '1-1-1' }), MAKIS).text).toBe(
      "A roll of 1 · 1 · 1 cannot be made with Miwin's dice — please check the knights",
    );
    expect(formatAlert('de', alertOf('makis/not-adjacent', { from: 'c4r8', to: 'c6r8' }), MAKIS).text).toContain('6/8 ist kein Nachbarfeld von 4/8');
  });

  it('names the move when the referee sends it, and does without it', () => {
    expect(formatAlert('en', alertOf('makis/illegal', { move: '1:c4r6' }), MAKIS).text).toBe('The move 1:c4r6 is not allowed by the rules — please put it back');
    expect(formatAlert('en', alertOf('makis/illegal', {}), MAKIS).text).toBe('That move is not allowed by the rules — please put it back');
  });

  it('names a Makis sensor cell as the screens do', () => {
    expect(cellLabel('de', 0, MAKIS)).toBe('1/1');
    expect(cellLabel('de', 80, MAKIS)).toBe('9/9');
    expect(cellLabel('en', 3 * 9 + 4, MAKIS)).toBe('5/4');
  });
});

describe('Adu in both languages', () => {
  const ADU: BoardKind = { game: 'adu', size: 13 };

  it('knows every code the Adu engine, its ranges and its notation produce', async () => {
    const codes = await engineCodes('adu', ['adu.ts', 'adu-notation.ts', 'adu-ranges.ts', 'adu-game.ts']);
    expect(codes.size).toBeGreaterThan(20);
    const known = new Set<string>(ALERT_CODES);
    expect([...codes].filter((code) => !known.has(code))).toEqual([]);
  });

  it.each(LANGS)('words every refusal the engine really gives in %s', (lang) => {
    // Two players, each with a king on a1/m13 and soldiers; player 1 to move.
    const setup = adu.fromSetup(
      {
        pieces: [
          { square: 0, player: 1, kind: 'king', id: 'K1' },
          { square: 2, player: 1, kind: 'soldier', id: 'S1' },
          { square: 13 * 2 + 2, player: 1, kind: 'soldier', id: 'S2' },
          { square: 4, player: 1, kind: 'reserve', id: 'R1' },
          { square: 13 * 12 + 12, player: 2, kind: 'king', id: 'K1' },
          { square: 13 * 5 + 2, player: 2, kind: 'soldier', id: 'S1' },
          { square: 13 * 3 + 2, player: 2, kind: 'king', id: 'K2' },
        ],
        toMove: 1,
      },
      { players: 2, size: 13, diagonal: false },
    );
    if (!setup.ok) throw new Error(setup.error.message);
    const state = setup.value;
    const tokens = ['a1-a3', 'b5-b6', 'm13-m12', 'e1-e2', 'c1-d2', 'c1-c4', 'c3xc6=1', 'c1xc3', 'c3xc4', 'c3-c4', 'c1-c3', 'K@d4', 'z9-a1'];
    const seen = new Set<string>();
    for (const token of tokens) {
      const parsed = aduNotation.parseMove(token, 13);
      const error = parsed.ok ? adu.whyIllegal(state, parsed.value) : parsed.error;
      if (!error) continue;
      seen.add(error.code);
      const text = formatAlert(lang, alertOf(error.code, error.params ?? {}), ADU);
      expect(text.translated, `${token}: ${error.code} ${JSON.stringify(error.params)}`).toBe(true);
      expect(text.text).not.toMatch(/[{}]/);
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });

  it('asks the owner of a captured soldier for its range, and lists the consistent ones', () => {
    const q: Question = {
      id: 4,
      code: 'adu/declare-range',
      message: 'Player 3: which range did the captured soldier S5 have?',
      params: { player: 3, soldier: 'S5' },
      options: ['f1xg1=2', 'f1xg1=3'],
      preselected: 'f1xg1=2',
    };
    expect(formatQuestion('de', q, ADU).text).toBe('Spieler 3: Welche Reichweite hatte der geschlagene Soldat S5?');
    const inconsistent = alertOf('adu/declare-inconsistent', { captured: 'S2', declare: 1, consistent: '3,4,6' });
    expect(formatAlert('de', inconsistent, ADU).text).toBe('S2 kann nicht Reichweite 1 gehabt haben — möglich sind 3, 4 und 6');
  });

  it('names intersections up to s19', () => {
    expect(squareName(18, 19)).toBe('s1');
    expect(squareIndex('s19', 19)).toBe(19 * 19 - 1);
    expect(squareIndex('m13', 12)).toBeNull();
    expect(cellLabel('en', 13 * 12, ADU)).toBe('a13');
  });
});

describe('codes the pages word', () => {
  it('has a question sentence for the proposed Makis and Adu questions', () => {
    for (const code of ['adu/declare-range', 'adu/ambiguous', 'makis/which-roll']) expect(QUESTION_CODES).toContain(code);
  });

  it('renames a server code through CODE_ALIASES, one line per code', () => {
    // The Adu referee's names for the declaration question and the reserve king's alert.
    expect(CODE_ALIASES).toEqual({ 'referee/declare-range': 'adu/declare-range', 'board/place-reserve': 'adu/place-reserve' });
    expect(catalogueCode('makis/reset-knight')).toBe('makis/reset-knight');
    expect(wordCode('en', 'question', 'referee/declare-range', { player: 2, soldier: 'S4', ranges: '1,3' }, { game: 'adu', size: 13 })).toBe(
      'Player 2: which range did the captured soldier S4 have?',
    );
    // What adding a line does: a code by another name is worded like the catalogue's.
    const aliases = CODE_ALIASES as Record<string, string>;
    aliases['makis/knight-back'] = 'makis/reset-knight';
    try {
      expect(wordCode('de', 'alert', 'makis/knight-back', { column: 4 }, { game: 'makis' })).toBe(
        'Bitte den Ritter der Spalte 4 zurück auf Reihe 1 stellen',
      );
    } finally {
      delete aliases['makis/knight-back'];
    }
  });

  it("falls back to the server's sentence for a Makis or Adu code it does not know", () => {
    expect(formatAlert('de', alertOf('makis/brand-new', { column: 2 }), { game: 'makis' })).toMatchObject({
      text: 'server says makis/brand-new',
      translated: false,
    });
    expect(formatQuestion('de', { id: 1, code: 'adu/brand-new', message: 'server asks', params: {}, options: ['1'] }, { game: 'adu', size: 13 })).toEqual({
      text: 'server asks',
      translated: false,
    });
  });
});

describe('Makis names and numbers', () => {
  it('reads and writes squares as the record and the screens do', () => {
    expect(makisCell('c5r9')).toBe(8 * 9 + 4);
    expect(makisSquareName(8 * 9 + 4)).toBe('c5r9');
    expect(makisSquareLabel('c5r9')).toBe('5/9');
    expect(makisSquareLabel('d4')).toBe('d4');
    expect(makisCell('c0r9')).toBeNull();
  });

  it('writes a roll as three numbers, whatever the server joins them with', () => {
    expect(rollText('2-5-5')).toBe('2 · 5 · 5');
    expect(rollText('R2.5.5')).toBe('2 · 5 · 5');
    expect(rollText([1, 9, 3])).toBe('1 · 9 · 3');
    expect(rollText('many')).toBe('many');
  });

  it('writes chances as percentages the way each language does, never 0 for a chance that is not zero', () => {
    expect(percent('en', 54, 216)).toBe('25%');
    expect(percent('de', 54, 216)).toBe('25\u00a0%');
    expect(percent('en', 0, 216)).toBe('0%');
    expect(percent('en', 1, 216)).toBe('<1%');
    expect(percent('en', 215.5, 216)).toBe('>99%');
  });
});
