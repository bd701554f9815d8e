// `spieltisch export` and `spieltisch import` as a user runs them, and `spieltisch serve` refusing a log it must not touch.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { main, type Io } from '../../server/cli.ts';
import { SCHEMA_VERSION, openGameLog } from '../../server/store/index.ts';
import { MIGRATIONS, migrate } from '../../server/store/schema.ts';
import { randomGame } from './random-games.ts';
import { snapshot, tempDir } from './helpers.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => stdin };
  const code = await main(argv, io);
  return { code, out, err };
}

const KALAHA = randomGame('kalaha', {}, 21);
const RECORDS = `[Game "kalaha"]\n[Site "vauban"]\n[Start "2024-05-01T10:00:00Z"]\n[South "Anna"]\n[North "Ben"]\n${KALAHA.moves.join(' ')}\n\n[Game "malawi"]\n[Site "rieselfeld"]\n[Start "2024-05-02T10:00:00Z"]\n[South "Ben"]\n1. a1-a3 f6-f4\n`;

describe('spieltisch import', () => {
  test('adds every game of a file and says which ids they got; again, it skips them', async () => {
    const db = join(dir, 'games.db');
    writeFileSync(join(dir, 'games.pgn'), RECORDS);
    expect(await run(['import', '--db', db, join(dir, 'games.pgn')])).toEqual({ code: 0, out: [`imported 2 games (ids 1, 2) into ${db}`], err: [] });
    const again = await run(['import', '--db', db, join(dir, 'games.pgn')]);
    expect(again.out).toEqual([
      `imported 0 games into ${db}`,
      'skipped game 1 of the file: it is in the log already (id 1)',
      'skipped game 2 of the file: it is in the log already (id 2)',
    ]);
  });

  test('a bad move: exit 1, the game and ply named, nothing written', async () => {
    const db = join(dir, 'games.db');
    const { code, out, err } = await run(['import', '--db', db, '-'], `${RECORDS}\n[Game "kalaha"]\n1. C e 2. e\n`);
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringMatching(/^spieltisch: nothing imported: Game 3 \(line 14\): ply 3 \("e"\) is not legal: /)]);
    const log = openGameLog(db);
    expect(log.countGames()).toBe(0);
    log.close();
  });

  test('usage errors: no file, a format there is none of, a missing file', async () => {
    expect((await run(['import', '--db', join(dir, 'g.db')])).code).toBe(2);
    expect(await run(['import', '--format', 'xml', '-'])).toMatchObject({ code: 2, err: ['spieltisch: --format must be one of pgn, json, csv (got "xml")', 'Try "spieltisch help".'] });
    expect((await run(['import', '--db', join(dir, 'g.db'), join(dir, 'nope.pgn')])).err[0]).toBe(`spieltisch: no such file: ${join(dir, 'nope.pgn')}`);
  });
});

describe('spieltisch export', () => {
  async function seeded(): Promise<string> {
    const db = join(dir, 'games.db');
    expect((await run(['import', '--db', db, '-'], RECORDS)).code).toBe(0);
    return db;
  }

  test('every game as records, to standard output, oldest first', async () => {
    const db = await seeded();
    const { code, out } = await run(['export', '--db', db]);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text.indexOf('[Game "kalaha"]')).toBeLessThan(text.indexOf('[Game "malawi"]'));
    expect(text).toContain('[Site "rieselfeld"]');
  });

  test('filters, one game by id, CSV and JSON, into a file', async () => {
    const db = await seeded();
    const csv = async (...filters: string[]) => (await run(['export', '--db', db, '--format', 'csv', ...filters])).out.join('\r\n').split('\r\n');
    expect(await csv('--player', 'ben', '--board', 'rieselfeld')).toEqual([expect.stringMatching(/^id,game,/), expect.stringMatching(/^2,malawi,/)]);
    expect(await csv('--day', '2024-05-01')).toEqual([expect.stringMatching(/^id,game,/), expect.stringMatching(/^1,kalaha,/)]);
    const out = join(dir, 'one.json');
    expect((await run(['export', '--db', db, '--id', '1', '--format', 'json', '--out', out])).out).toEqual([`exported 1 game to ${out}`]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ format: 'spieltisch-game', id: 1, game: 'kalaha', moves: KALAHA.moves });
  });

  test('what it cannot do', async () => {
    const db = await seeded();
    expect(await run(['export', '--db', db, '--id', '9'])).toMatchObject({ code: 1, err: [`spieltisch: there is no game 9 in ${db}`] });
    expect((await run(['export', '--db', db, '--id', '1', '--game', 'kalaha'])).code).toBe(2);
    expect((await run(['export', '--db', db, '--day', '2024-02-30'])).code).toBe(2);
    expect(await run(['export', '--db', db, '--game', 'adu'])).toMatchObject({ code: 0, out: [], err: ['spieltisch: no games match'] });
    // No log there: said so, and none is created.
    const missing = join(dir, 'missing.db');
    expect(await run(['export', '--db', missing])).toMatchObject({ code: 1, err: [`spieltisch: there is no game log at ${missing}`] });
    expect(existsSync(missing)).toBe(false);
  });
});

describe('a log that must not be touched', () => {
  function newerLog(file: string): void {
    openGameLog(file).close();
    const db = new Sqlite(file);
    migrate(db, file, [...MIGRATIONS, { version: SCHEMA_VERSION + 1, why: 'a later Spieltisch', up: (d) => d.exec('CREATE TABLE tournaments (id INTEGER)') }]);
    db.close();
  }

  test.each([
    ['serve', ['serve', '--simulate', '--http', '0']],
    ['import', ['import', '-']],
    ['export', ['export']],
  ])('%s refuses a newer log with a clear message, exit 1, and leaves it as it was', async (_name, argv) => {
    const file = join(dir, 'games.db');
    newerLog(file);
    const before = snapshot(dir);
    const { code, err } = await run([...argv, '--db', file], RECORDS);
    expect(code).toBe(1);
    expect(err).toEqual([`spieltisch: the game log ${file} has schema version ${SCHEMA_VERSION + 1}, newer than this Spieltisch understands (${SCHEMA_VERSION}); not touching it`]);
    expect(snapshot(dir)).toEqual(before);
  });

  test('serve refuses a log it cannot migrate, and another program’s database, leaving both as they were', async () => {
    const old = join(dir, 'old.db');
    const db = new Sqlite(old);
    db.pragma('journal_mode = WAL');
    migrate(db, old, MIGRATIONS.slice(0, 1));
    db.exec('CREATE INDEX games_by_board ON games (board_id)');
    db.close();
    const foreign = join(dir, 'foreign.db');
    const other = new Sqlite(foreign);
    other.exec('CREATE TABLE stones (weight REAL)');
    other.close();
    const before = snapshot(dir);
    const migrating = await run(['serve', '--simulate', '--http', '0', '--db', old]);
    expect(migrating.code).toBe(1);
    expect(migrating.err).toEqual([expect.stringMatching(/^spieltisch: the game log .*old\.db has schema version 1 and could not be brought to version \d+ \(.*\); it was left at version 1$/)]);
    const refusing = await run(['serve', '--simulate', '--http', '0', '--db', foreign]);
    expect(refusing).toMatchObject({ code: 1, err: [expect.stringContaining('is an SQLite database but not a Spieltisch game log')] });
    expect(snapshot(dir)).toEqual(before);
  });
});
