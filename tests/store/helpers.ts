// Shared fixtures of the store tests: temp folders, byte snapshots, a typical new game.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewGame } from '../../server/store/index.ts';

/** A fresh temp folder per test, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Every file in a folder with its bytes, so a refusal can be shown to have changed nothing, not
 * even created a -wal file. `except` leaves out files a test has a reason not to compare.
 */
export function snapshot(dir: string, except: (name: string) => boolean = () => false): Map<string, Buffer> {
  const names = readdirSync(dir).filter((name) => !except(name)).sort();
  return new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
}

export function kalahaGame(overrides: Partial<NewGame> = {}): NewGame {
  return {
    game: 'kalaha',
    options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 },
    players: { south: 'Anna', north: 'Ben' },
    boardId: 'vauban',
    source: 'sensors',
    at: 1_700_000_000_000,
    ...overrides,
  };
}
