// The message catalogue: both languages complete and alike, every alert code a real sentence, the fallbacks, Malawi's wording.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Alert, Question } from '../../server/http/messages.ts';
import { malawi as malawiRules, malawiNotation } from '../../server/rules/index.ts';
import { ALERT_CODES, QUESTION_CODES, conditionsHold, formatAlert, formatQuestion, type AlertCode } from '../../web/src/i18n/alerts.ts';
import {
  CATALOGUES,
  LANGS,
  fill,
  hasKey,
  placeholders,
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

describe('plural forms', () => {
  it('has a form for zero when a placeholder gives three, and # stands for the number', () => {
    const template = '{n|none|one more|# more}';
    expect(fill('en', template, { n: 0 })).toBe('none');
    expect(fill('en', template, { n: 1 })).toBe('one more');
    expect(fill('en', template, { n: 4 })).toBe('4 more');
    expect(fill('de', '{n|Stein|# Steine}', { n: 3 })).toBe('3 Steine');
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
