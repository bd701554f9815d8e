// Every alert and question the Makis and Adu referees raise on their fixture traces reads as a
// sentence of the page's own language, not the server's English fallback.
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tables } from '../../server/tables/index.ts';
import { formatAlert, formatQuestion } from '../../web/src/i18n/alerts.ts';
import { LANGS, type BoardKind } from '../../web/src/i18n/catalogue.ts';
import type { Alert, Question } from '../../server/http/messages.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

interface Seen {
  readonly kind: 'alert' | 'question';
  readonly code: string;
  readonly params: Record<string, string | number>;
  readonly message: string;
}

/** The referee's alerts and questions on every fixture of a game, one of each code and parameter set. */
function raisedOn(game: 'makis' | 'adu'): Seen[] {
  const dir = join(FIXTURES, game);
  const seen = new Map<string, Seen>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.trace'))) {
    const name = file.slice(0, -'.trace'.length);
    const truth = JSON.parse(readFileSync(join(dir, `${name}.truth.json`), 'utf8')) as { rules: Record<string, unknown> };
    const kit = tables[game].withRules(truth.rules);
    kit.refereeTrace(readFileSync(join(dir, file), 'utf8'), join(dir, `${name}.answers`), (event) => {
      const e = event as { kind: string; code?: string; params?: Record<string, string | number>; message?: string };
      if ((e.kind !== 'alert' && e.kind !== 'question') || !e.code) return;
      const key = `${e.kind} ${e.code} ${Object.keys(e.params ?? {}).sort().join(',')} ${String(e.params?.reason ?? '')}`;
      if (!seen.has(key)) seen.set(key, { kind: e.kind, code: e.code, params: e.params ?? {}, message: e.message ?? '' });
    });
  }
  return [...seen.values()];
}

describe.each([
  ['makis', { game: 'makis' }],
  ['adu', { game: 'adu', size: 13 }],
] as const)('%s: what the referee says on the fixtures has a sentence in both languages', (game, board) => {
  const raised = raisedOn(game);
  test('the fixtures raise alerts and questions at all', () => {
    expect(raised.filter((s) => s.kind === 'alert').length).toBeGreaterThan(2);
  });
  test.each(raised.flatMap((s) => LANGS.map((lang) => [lang, s.kind, s.code, s] as const)))('%s %s %s', (lang, kind, _code, s) => {
    const text =
      kind === 'alert'
        ? formatAlert(lang, { id: 1, level: 'error', code: s.code, message: s.message, params: s.params } satisfies Alert, board as unknown as BoardKind)
        : formatQuestion(lang, { id: 1, code: s.code, message: s.message, params: s.params, options: [] } satisfies Question, board as unknown as BoardKind);
    expect({ code: s.code, params: s.params, translated: text.translated }).toEqual({ code: s.code, params: s.params, translated: true });
    expect(text.text).not.toMatch(/\{|\}|undefined/);
  });
});
