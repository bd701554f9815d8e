// Opening files: creating and migrating a log, re-opening it, and refusing files that are not ours to touch.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { GameLogRefusedError, SCHEMA_VERSION, openGameLog } from '../../server/store/index.ts';
import { APPLICATION_ID, MIGRATIONS, migrate } from '../../server/store/schema.ts';
import type { Migration } from '../../server/store/schema.ts';
import { kalahaGame, snapshot, tempDir } from './helpers.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Plain JavaScript so it needs no loader: commits a newer schema, then dies before any checkpoint. */
const NEWER_WRITER_THAT_CRASHES = `
  const db = new (require('better-sqlite3'))(process.argv[1]);
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE tournaments (id INTEGER PRIMARY KEY)');
  db.pragma('user_version = ' + Number(process.argv[2]));
  process.kill(process.pid, 'SIGKILL');
`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

function headerOf(file: string): { applicationId: number; version: number; tables: string[] } {
  const raw = new Sqlite(file, { readonly: true });
  try {
    return {
      applicationId: raw.pragma('application_id', { simple: true }) as number,
      version: raw.pragma('user_version', { simple: true }) as number,
      tables: raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[],
    };
  } finally {
    raw.close();
  }
}

/** A migration step that records that it ran. */
function step(version: number, ran: number[], sql: string): Migration {
  return {
    version,
    why: `test step ${version}`,
    up(db) {
      ran.push(version);
      db.exec(sql);
    },
  };
}

describe('creating and re-opening', () => {
  test('a missing file, in a folder that does not exist yet, becomes a log at the current version', () => {
    const file = join(dir, 'data', 'nested', 'games.db');
    const log = openGameLog(file);
    expect(log.durability()).toEqual({ journalMode: 'wal', synchronous: 'full' });
    log.close();
    expect(headerOf(file)).toEqual({ applicationId: APPLICATION_ID, version: SCHEMA_VERSION, tables: ['events', 'games'] });
  });

  test('an empty file becomes a log', () => {
    const file = join(dir, 'games.db');
    writeFileSync(file, '');
    openGameLog(file).close();
    expect(headerOf(file).version).toBe(SCHEMA_VERSION);
  });

  test('re-opening keeps every game and event, and seq carries on', () => {
    const file = join(dir, 'games.db');
    const first = openGameLog(file);
    const id = first.startGame(kalahaGame());
    first.append(id, { kind: 'move', at: 1, payload: { pit: 0 } });
    first.append(id, { kind: 'move', at: 2, payload: { pit: 7 } });
    const before = { game: first.game(id), events: first.events(id) };
    first.close();

    const again = openGameLog(file);
    expect({ game: again.game(id), events: again.events(id) }).toEqual(before);
    expect(again.liveGame()?.id).toBe(id);
    expect(again.append(id, { kind: 'move', at: 3, payload: { pit: 1 } })).toBe(3);
    again.close();
    expect(headerOf(file).version).toBe(SCHEMA_VERSION);
  });

  test('an in-memory log needs no file and does the same work', () => {
    const log = openGameLog(':memory:');
    const id = log.startGame(kalahaGame());
    expect(log.append(id, { kind: 'note', at: 0, payload: 'hi' })).toBe(1);
    log.close();
  });
});

describe('migrations', () => {
  test('run in order, each once, and only the missing ones', () => {
    const file = join(dir, 'games.db');
    openGameLog(file).close();
    const ran: number[] = [];
    const steps = [
      ...MIGRATIONS,
      step(SCHEMA_VERSION + 1, ran, 'ALTER TABLE games ADD COLUMN venue TEXT'),
      step(SCHEMA_VERSION + 2, ran, 'CREATE INDEX games_by_venue ON games (venue)'),
    ];

    const db = new Sqlite(file);
    expect(migrate(db, file, steps)).toBe(SCHEMA_VERSION + 2);
    expect(ran).toEqual([SCHEMA_VERSION + 1, SCHEMA_VERSION + 2]);
    expect(migrate(db, file, steps)).toBe(SCHEMA_VERSION + 2);
    expect(ran).toEqual([SCHEMA_VERSION + 1, SCHEMA_VERSION + 2]);
    db.close();
    expect(headerOf(file).version).toBe(SCHEMA_VERSION + 2);
  });

  test('a step that fails leaves the file at its old version with nothing of the step in it', () => {
    const file = join(dir, 'games.db');
    const log = openGameLog(file);
    const id = log.startGame(kalahaGame());
    log.append(id, { kind: 'move', at: 1, payload: { pit: 3 } });
    log.close();

    const broken: Migration = {
      version: SCHEMA_VERSION + 1,
      why: 'fails half-way',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('step failed');
      },
    };
    const db = new Sqlite(file);
    expect(() => migrate(db, file, [...MIGRATIONS, broken])).toThrow('step failed');
    db.close();

    expect(headerOf(file)).toEqual({ applicationId: APPLICATION_ID, version: SCHEMA_VERSION, tables: ['events', 'games'] });
    const again = openGameLog(file);
    expect(again.events(id)).toEqual([{ gameId: id, seq: 1, at: 1, kind: 'move', payload: { pit: 3 } }]);
    again.close();
  });

  test('steps must be numbered 1, 2, 3, …', () => {
    const db = new Sqlite(':memory:');
    expect(() => migrate(db, ':memory:', [MIGRATIONS[0], { ...MIGRATIONS[0], version: 3 }])).toThrow(/numbered/);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
  });
});

describe('a log of an older Spieltisch', () => {
  /** A log as Spieltisch wrote it at schema version 1, with a finished and a live game. */
  function versionOneLog(file: string): { ended: number; live: number } {
    const db = new Sqlite(file);
    db.pragma('journal_mode = WAL');
    migrate(db, file, MIGRATIONS.slice(0, 1));
    const insert = db.prepare(
      `INSERT INTO games (game, options, players, board_id, source, started_at, ended_at, result) VALUES (?, '{}', '{"south":"Anna","north":"Ben"}', 'vauban', 'sensors', ?, ?, ?) RETURNING id`,
    );
    const ended = insert.pluck().get('kalaha', 1000, 5000, '{"winner":"south"}') as number;
    const live = insert.pluck().get('malawi', 6000, null, null) as number;
    const event = db.prepare('INSERT INTO events (game_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)');
    event.run(ended, 1, 1001, 'move', '{"move":"C","ply":1}');
    event.run(ended, 2, 5000, 'end', '{"winner":"south"}');
    event.run(live, 1, 6001, 'move', '{"move":"a1-a3","ply":1}');
    db.close();
    return { ended, live };
  }

  test('is migrated to the current version, every game and event kept, and the new column empty', () => {
    const file = join(dir, 'games.db');
    const { ended, live } = versionOneLog(file);
    expect(headerOf(file).version).toBe(1);

    const log = openGameLog(file);
    expect(headerOf(file).version).toBe(SCHEMA_VERSION);
    expect(log.game(ended)).toEqual({
      id: ended,
      game: 'kalaha',
      options: {},
      players: { south: 'Anna', north: 'Ben' },
      boardId: 'vauban',
      source: 'sensors',
      startedAt: 1000,
      endedAt: 5000,
      result: { winner: 'south' },
      importedAt: null,
    });
    expect(log.events(ended).map((e) => [e.seq, e.kind])).toEqual([[1, 'move'], [2, 'end']]);
    // The live game is still the one to resume, and it goes on where it was.
    expect(log.liveGame('vauban')?.id).toBe(live);
    expect(log.append(live, { kind: 'move', at: 6002, payload: { move: 'f6-f4', ply: 2 } })).toBe(2);
    expect(log.listGames({ board: 'vauban' }).map((g) => [g.id, g.plies])).toEqual([[live, 2], [ended, 1]]);
    log.close();
  });

  test('that cannot be migrated is refused with the reason, and left exactly as it was', () => {
    const file = join(dir, 'games.db');
    versionOneLog(file);
    // Someone added an index by hand that the next step also creates.
    const db = new Sqlite(file);
    db.exec('CREATE INDEX games_by_start ON games (started_at DESC)');
    db.close();
    const before = snapshot(dir);
    let thrown: unknown;
    try {
      openGameLog(file).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GameLogRefusedError);
    expect(thrown).toMatchObject({
      reason: 'cannot-migrate',
      message: expect.stringMatching(/has schema version 1 and could not be brought to version \d+ \(.*games_by_start.*\); it was left at version 1$/),
    });
    expect(snapshot(dir)).toEqual(before);
    expect(headerOf(file).version).toBe(1);
  });
});

describe('damaged files', () => {
  test('an SQLite header over garbage is refused and left as it was', () => {
    const file = join(dir, 'games.db');
    const bytes = Buffer.alloc(8192, 0x5a);
    Buffer.from('SQLite format 3\0', 'latin1').copy(bytes);
    writeFileSync(file, bytes);
    const before = snapshot(dir);
    expect(() => openGameLog(file)).toThrow(expect.objectContaining({ reason: 'damaged', message: expect.stringMatching(/looks like SQLite but cannot be read .*; not touching it$/) }));
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('refusing files that are not ours to touch', () => {
  function expectRefusedUntouched(file: string, reason: string, message: RegExp): void {
    const before = snapshot(dir);
    let thrown: unknown;
    try {
      openGameLog(file).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GameLogRefusedError);
    expect(thrown).toMatchObject({ reason, file, message: expect.stringMatching(message) });
    // Same files, same bytes: no -wal or -shm left behind, no header rewritten.
    expect(snapshot(dir)).toEqual(before);
  }

  test('a log of a newer Spieltisch', () => {
    const file = join(dir, 'games.db');
    const log = openGameLog(file);
    log.append(log.startGame(kalahaGame()), { kind: 'move', at: 1, payload: { pit: 3 } });
    log.close();
    // What a later Spieltisch would have done to it.
    const db = new Sqlite(file);
    migrate(db, file, [...MIGRATIONS, step(SCHEMA_VERSION + 1, [], 'CREATE TABLE tournaments (id INTEGER PRIMARY KEY)')]);
    db.close();

    expectRefusedUntouched(
      file,
      'newer-version',
      new RegExp(`^the game log .*games\\.db has schema version ${SCHEMA_VERSION + 1}, newer than this Spieltisch understands \\(${SCHEMA_VERSION}\\); not touching it$`),
    );
  });

  test('a newer log whose writer crashed with pages still in the -wal file', () => {
    const file = join(dir, 'games.db');
    openGameLog(file).close();
    // A later Spieltisch migrates and is killed before any checkpoint: its commit lives only in the -wal.
    const crashed = spawnSync(process.execPath, ['-e', NEWER_WRITER_THAT_CRASHES, file, String(SCHEMA_VERSION + 1)], { cwd: REPO });
    expect(crashed.signal).toBe('SIGKILL');
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);

    // -shm is SQLite's shared-memory index of the -wal, rebuilt by every reader; it holds no data.
    const isShm = (name: string) => name.endsWith('-shm');
    const before = snapshot(dir, isShm);
    expect(() => openGameLog(file)).toThrow(
      expect.objectContaining({ reason: 'newer-version', message: expect.stringContaining(`has schema version ${SCHEMA_VERSION + 1}`) }),
    );
    // Closing a read-write connection would have checkpointed the -wal into the main file and deleted it.
    expect(snapshot(dir, isShm)).toEqual(before);
  });

  test('another program’s database: tables and no version', () => {
    const file = join(dir, 'inventory.db');
    const db = new Sqlite(file);
    db.exec("CREATE TABLE stones (colour TEXT, weight REAL); INSERT INTO stones VALUES ('grey', 4.2), ('white', 3.9);");
    db.close();
    expectRefusedUntouched(file, 'foreign-database', /^the file .*inventory\.db is an SQLite database but not a Spieltisch game log .*; not touching it$/);
  });

  test('another program’s database with a version of its own is foreign, not newer', () => {
    const file = join(dir, 'other.db');
    const db = new Sqlite(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE games (name TEXT)');
    db.pragma('user_version = 7');
    db.close();
    expectRefusedUntouched(file, 'foreign-database', /not a Spieltisch game log/);
  });

  test('an SQLite file with only a version set and nothing else', () => {
    const file = join(dir, 'blank.db');
    const db = new Sqlite(file);
    db.pragma('user_version = 1');
    db.close();
    expectRefusedUntouched(file, 'foreign-database', /not a Spieltisch game log/);
  });

  test('a file that is not SQLite at all', () => {
    const file = join(dir, 'notes.db');
    writeFileSync(file, 'Kalaha night: Anna 40, Ben 8\n');
    expectRefusedUntouched(file, 'not-a-database', /^the file .*notes\.db is not an SQLite database, so not a Spieltisch game log; not touching it$/);
  });

  test('a file shorter than an SQLite header', () => {
    const file = join(dir, 'short.db');
    writeFileSync(file, 'SQLite');
    expectRefusedUntouched(file, 'not-a-database', /not an SQLite database/);
  });
});
