// Every refusal the server can answer a console command with reads as a sentence in both languages: the codes are
// read from the server's source, so a new `console/…` code without its sentence fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandOutcome } from '../../web/src/connection/index.ts';
import { KALAHA_BOARD, LANGS, hasKey } from '../../web/src/i18n/index.ts';
import { outcomeText } from '../../web/src/referee/outcome.ts';

const SERVER = join(import.meta.dirname, '../../server');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const CODES = [...new Set(sources(SERVER).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(console\/[a-z-]+)'/g)].map((m) => m[1])))].sort();

describe('console refusals', () => {
  it('finds the codes in the server (so the next test covers them)', () => {
    expect(CODES).toEqual(expect.arrayContaining(['console/stale-state', 'console/nothing-to-undo', 'console/board-differs']));
  });

  it.each(LANGS)('has a sentence for every console code in %s', (lang) => {
    expect(CODES.filter((code) => !hasKey(lang, `result.${code}`))).toEqual([]);
  });

  it('words a refused confirmation of a board that differs, with how many places', () => {
    const outcome: CommandOutcome = {
      ref: 1,
      stateId: 7,
      ok: false,
      command: { kind: 'confirm' },
      error: 'console/board-differs',
      message: 'The board does not show the game: C +1, d -1.',
      params: { cells: 'C +1, d -1', count: 2 },
    };
    expect(outcomeText('de', outcome, KALAHA_BOARD)).toMatchObject({ translated: true, reason: expect.stringContaining('an 2 Stellen') });
    expect(outcomeText('en', outcome, KALAHA_BOARD).reason).toContain('in 2 places');
  });

  it.each(LANGS)('words a command refused while the game log cannot be written, in %s', (lang) => {
    const outcome: CommandOutcome = {
      ref: 2,
      stateId: 7,
      ok: false,
      command: { kind: 'undo' },
      error: 'store/unwritable',
      message: 'The game log cannot be written (the disk is full); the table waits until it can, and takes no command meanwhile.',
      params: { reason: 'disk-full' },
    };
    expect(outcomeText(lang, outcome, KALAHA_BOARD)).toMatchObject({ translated: true, reason: expect.stringMatching(/Spielprotokoll|game log/) });
  });
});
