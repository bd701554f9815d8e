// The game log's API on an in-memory SQLite database (the store contract), and the file's own guard of its events.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { openGameLog } from '../../server/store/index.ts';
import { gameLogContract } from './contract.ts';
import { kalahaGame, tempDir } from './helpers.ts';

const T0 = 1_700_000_000_000;

gameLogContract(() => openGameLog(':memory:'));

describe('append-only', () => {
  test('the file itself refuses to update or delete an event, whoever asks', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'log.db');
      const fileLog = openGameLog(file);
      const id = fileLog.startGame(kalahaGame());
      fileLog.append(id, { kind: 'move', at: T0, payload: { pit: 2 } });
      const raw = new Sqlite(file);
      expect(() => raw.prepare('UPDATE events SET payload = ? WHERE seq = 1').run('{"pit":5}')).toThrow(/append-only: never updated/);
      expect(() => raw.prepare('DELETE FROM events').run()).toThrow(/append-only: never deleted/);
      raw.close();
      expect(fileLog.events(id)).toEqual([{ gameId: id, seq: 1, at: T0, kind: 'move', payload: { pit: 2 } }]);
      fileLog.close();
    } finally {
      cleanup();
    }
  });
});
