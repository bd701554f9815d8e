// The message catalogue: both languages complete and alike, every alert code a real sentence, the fallbacks.
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../server/http/messages.ts';
import { ALERT_CODES, formatAlert, type AlertCode } from '../../web/src/i18n/alerts.ts';
import { CATALOGUES, LANGS, fill, placeholders, t, type MessageKey, type Params } from '../../web/src/i18n/catalogue.ts';
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
    for (const n of [1, 2]) {
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
      for (const value of Object.values(params)) {
        if (typeof value === 'number') expect(text.text).toContain(String(value));
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
