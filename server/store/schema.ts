// The game log's file format: how a file is recognised, and the migration steps that build its schema.
import { accessSync, closeSync, constants, existsSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { GameLogRefusedError } from './errors.ts';

/** One step of the schema. Step n brings a file from version n-1 to n; steps are never edited once shipped. */
export interface Migration {
  readonly version: number;
  readonly why: string;
  up(db: Database): void;
}

/**
 * SQLite's own mark for "which application owns this file" (header offset 68): 'SpTi'.
 * With it, a Spieltisch log is told apart from any other database without guessing from table names.
 */
export const APPLICATION_ID = 0x53705469;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    why: 'games, and their append-only events',
    up(db) {
      // Closed sets (kind, source, game) are checked in code at the boundary, not by CHECK
      // constraints: adding a kind must not need a rebuild of the largest table.
      // STRICT makes SQLite refuse a string where an integer belongs, instead of storing it.
      db.exec(`
        CREATE TABLE games (
          id         INTEGER PRIMARY KEY,
          game       TEXT    NOT NULL,
          options    TEXT    NOT NULL CHECK (json_valid(options)),
          players    TEXT    NOT NULL CHECK (json_valid(players)),
          board_id   TEXT    NOT NULL,
          source     TEXT    NOT NULL,
          started_at INTEGER NOT NULL,
          ended_at   INTEGER,
          result     TEXT    CHECK (result IS NULL OR json_valid(result))
        ) STRICT;
        CREATE INDEX games_by_game ON games (game, id);
        -- Few games are live at once; this keeps resuming after a crash cheap however long the history.
        CREATE INDEX games_live ON games (board_id, id) WHERE ended_at IS NULL;

        CREATE TABLE events (
          game_id INTEGER NOT NULL REFERENCES games (id),
          seq     INTEGER NOT NULL CHECK (seq >= 1),
          at      INTEGER NOT NULL,
          kind    TEXT    NOT NULL,
          payload TEXT    NOT NULL CHECK (json_valid(payload)),
          PRIMARY KEY (game_id, seq)
        ) STRICT, WITHOUT ROWID;
        -- The log is the truth a game is replayed from; guard it against every writer, not only ours.
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
          BEGIN SELECT RAISE(ABORT, 'game log events are append-only: never updated'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
          BEGIN SELECT RAISE(ABORT, 'game log events are append-only: never deleted'); END;
      `);
    },
  },
  {
    version: 2,
    why: 'games brought in by import are marked as such; games are found by day and by board without reading them all',
    up(db) {
      // imported_at: when the game came in through `spieltisch import` or the API; null for a game
      // refereed here. Such a game was not witnessed by this log, and its event times may be coarse.
      db.exec(`
        ALTER TABLE games ADD COLUMN imported_at INTEGER;
        CREATE INDEX games_by_start ON games (started_at);
        CREATE INDEX games_by_board ON games (board_id, started_at);
      `);
    },
  },
];

/** The schema version this Spieltisch writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Throws GameLogRefusedError unless `file` is missing, empty, or a Spieltisch log this code
 * understands, and leaves a refused file as it found it.
 */
export function refuseUnlessOurs(file: string, migrations: readonly Migration[] = MIGRATIONS): void {
  if (!hasSqliteHeader(file)) return;
  // A -wal file may hold committed pages not yet in the main file (a writer crashed). Closing the
  // last read-write connection would checkpoint them into the main file and delete the -wal, so
  // such a file is looked at read-only. Without a -wal a read-write look leaves no trace at all,
  // where a read-only one would leave an empty -wal and -shm behind.
  let db: Database;
  try {
    db = new Sqlite(file, { readonly: existsSync(`${file}-wal`) });
  } catch (error) {
    throw damaged(file, error);
  }
  try {
    schemaVersionOf(db, file, migrations);
  } catch (error) {
    throw error instanceof GameLogRefusedError ? error : damaged(file, error);
  } finally {
    db.close();
  }
}

/** Whether this process may write the file and create its journal beside it. */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A file with SQLite's header that SQLite cannot read: refused like any file that is not ours to repair. */
function damaged(file: string, error: unknown): GameLogRefusedError {
  const why = error instanceof Error ? error.message : String(error);
  // A file SQLite may read but not write is whole; the service needs to write to it, and the fix is a permission.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM')) return readOnly(file);
  // On a read-only file system SQLite cannot even open the file (its journal has nowhere to go).
  if (code === 'SQLITE_CANTOPEN' && !writable(file)) return readOnly(file);
  return new GameLogRefusedError('damaged', file, `the file ${file} looks like SQLite but cannot be read (${why}); not touching it`);
}

/**
 * False for a missing or empty file. Reading the header ourselves refuses a file that is not
 * SQLite before SQLite touches it, however SQLite treats short or odd files.
 */
function hasSqliteHeader(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    let read: number;
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
      throw new GameLogRefusedError('not-a-file', file, `${file} is a folder, not a game log file; name a file with --db, such as ${join(file, 'spieltisch.db')}`);
    }
    if (read === 0) return false;
    if (read < head.length || !head.equals(SQLITE_MAGIC)) {
      throw new GameLogRefusedError('not-a-database', file, `the file ${file} is not an SQLite database, so not a Spieltisch game log; not touching it`);
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The version of a Spieltisch log, 0 for a fresh empty database; throws for anything else. Reads only. */
export function schemaVersionOf(db: Database, file: string, migrations: readonly Migration[]): number {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === APPLICATION_ID && version >= 1) {
    if (version > migrations.length) {
      throw new GameLogRefusedError(
        'newer-version',
        file,
        `the game log ${file} has schema version ${version}, newer than this Spieltisch understands (${migrations.length}); not touching it`,
      );
    }
    return version;
  }
  const objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
  if (applicationId === 0 && version === 0 && objects === 0) return 0;
  throw new GameLogRefusedError(
    'foreign-database',
    file,
    `the file ${file} is an SQLite database but not a Spieltisch game log (application id ${applicationId}, ` +
      `schema version ${version}, ${objects} tables or indexes); not touching it`,
  );
}

/**
 * Applies the missing steps in one write transaction: a step that fails leaves the file at its
 * old version, never half-migrated. The version is read again inside the transaction because
 * another process may have migrated the file since it was first looked at.
 */
export function migrate(db: Database, file: string, migrations: readonly Migration[] = MIGRATIONS): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${i + 1} is numbered ${m.version}; steps must be numbered 1, 2, 3, …`);
  });
  const run = db.transaction(() => {
    const from = schemaVersionOf(db, file, migrations);
    for (const step of migrations.slice(from)) step.up(db);
    if (from < migrations.length) {
      // Pragmas take no bound parameters; both values are integers from this module.
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${migrations.length}`);
    }
    return migrations.length;
  });
  return run.immediate();
}

/** A log SQLite could open for reading only (the file's or its folder's permissions, a read-only file system). */
export function readOnly(file: string): GameLogRefusedError {
  return new GameLogRefusedError('read-only', file, `the game log ${file} is read-only: Spieltisch writes every move to it; give this user write permission to it and its folder, or name another with --db`);
}
