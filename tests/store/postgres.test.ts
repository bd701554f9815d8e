// The game log on a real PostgreSQL server: the store contract, the database's own guard of its events, durability settings,
// refusals, and writes that fail (a full disk, a read-only or unreachable database, a commit whose answer was lost).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chownSync } from 'node:fs';
import { GameLogRefusedError, GameLogWriteError, SCHEMA_VERSION, openGameLog } from '../../server/store/index.ts';
import type { GameLog } from '../../server/store/index.ts';
import { openPostgresGameLog } from '../../server/store/postgres.ts';
import { POSTGRES_MIGRATIONS } from '../../server/store/postgres-schema.ts';
import { gameLogContract, queryContract } from './contract.ts';
import { kalahaGame } from './helpers.ts';
import { randomGame } from './random-games.ts';
import { importGames, importGamesAsync } from '../../server/export/index.ts';
import { runAs, startPostgres, type PostgresServer } from './postgres-server.ts';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.ts';

const T0 = 1_700_000_000_000;

let server: PostgresServer;
let databases = 0;
beforeAll(async () => {
  server = await startPostgres();
  // Every contract test gets a copy of a migrated database: a fresh log without migrating each time.
  openGameLog(await server.createDatabase('migrated')).close();
});
/** A small file system for a tablespace (see "writes that fail"), unmounted after the server stopped. */
let disk: SmallDisk | undefined;
afterAll(async () => {
  await server?.stop();
  disk?.unmount();
});

async function freshLog(): Promise<GameLog> {
  return openGameLog(await server.createDatabase(`contract_${++databases}`, 'migrated'));
}

describe('store contract on PostgreSQL', () => {
  gameLogContract(freshLog);
  queryContract(freshLog);
});

/** What a database holds, table by table, for showing that a refusal changed nothing. */
async function contentsOf(database: string): Promise<Record<string, unknown[]>> {
  const tables = await server.sql(database, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const contents: Record<string, unknown[]> = {};
  for (const { tablename } of tables.rows as { tablename: string }[]) {
    const columns = await server.sql(database, `SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`, [tablename]);
    const rows = await server.sql(database, `SELECT * FROM "${tablename}" ORDER BY 1`);
    contents[tablename] = [columns.rows.map((c) => c.column_name), ...rows.rows];
  }
  return contents;
}

function refusal(open: () => unknown): GameLogRefusedError {
  try {
    open();
  } catch (error) {
    if (error instanceof GameLogRefusedError) return error;
    throw error;
  }
  throw new Error('the log opened');
}

describe('the database', () => {
  test('an empty database becomes a log at the current version, and re-opening keeps every game', async () => {
    const url = await server.createDatabase('fresh');
    const first = openGameLog(url);
    const id = first.startGame(kalahaGame());
    first.append(id, { kind: 'move', at: T0, payload: { move: 'C', ply: 1 } });
    first.close();
    expect((await server.sql('fresh', 'SELECT version FROM spieltisch_schema')).rows).toEqual([{ version: SCHEMA_VERSION }]);
    const again = openGameLog(url);
    expect(again.events(id).map((e) => e.seq)).toEqual([1]);
    expect(again.append(id, { kind: 'move', at: T0, payload: { move: 'e', ply: 2 } })).toBe(2);
    again.close();
  });

  test('refuses to update, delete or truncate an event, whoever asks', async () => {
    const url = await server.createDatabase('guarded');
    const log = openGameLog(url);
    const id = log.startGame(kalahaGame());
    log.append(id, { kind: 'move', at: T0, payload: { pit: 2 } });
    await expect(server.sql('guarded', `UPDATE events SET payload = '{"pit":5}' WHERE seq = 1`)).rejects.toThrow(/append-only: never updated/);
    await expect(server.sql('guarded', 'DELETE FROM events')).rejects.toThrow(/append-only: never deleted/);
    await expect(server.sql('guarded', 'TRUNCATE events CASCADE')).rejects.toThrow(/append-only: never truncated/);
    expect(log.events(id)).toEqual([{ gameId: id, seq: 1, at: T0, kind: 'move', payload: { pit: 2 } }]);
    log.close();
  });

  test('JSON reads back as the text that was written, key order and all', async () => {
    const log = await freshLog();
    const id = log.startGame(kalahaGame({ options: { z: 1, a: 2, m: { y: [1.5, 'ä'], b: null } } }));
    expect(JSON.stringify(log.game(id)?.options)).toBe('{"z":1,"a":2,"m":{"y":[1.5,"ä"],"b":null}}');
    log.close();
  });

  test('durable before shown: commits wait for the disk, even when the address asks otherwise', async () => {
    const url = await server.createDatabase('durable');
    const log = openGameLog(url);
    expect(log.durability()).toEqual({ journalMode: 'wal', synchronous: 'full' });
    log.close();
    const lax = openGameLog(`${url}?options=${encodeURIComponent('-c synchronous_commit=off')}`);
    expect(lax.durability()).toEqual({ journalMode: 'wal', synchronous: 'full' });
    lax.close();
  });

  test('a schema of its own, named in the address, beside another program’s tables', async () => {
    await server.createDatabase('shared');
    await server.sql('shared', 'CREATE TABLE members (id integer)');
    await server.sql('shared', 'CREATE SCHEMA spieltisch');
    const log = openGameLog(`${server.url('shared')}?options=${encodeURIComponent('-c search_path=spieltisch')}`);
    log.append(log.startGame(kalahaGame()), { kind: 'move', at: T0, payload: 1 });
    log.close();
    const tables = await server.sql('shared', `SELECT schemaname || '.' || tablename AS t FROM pg_tables WHERE schemaname IN ('public', 'spieltisch') ORDER BY 1`);
    expect(tables.rows.map((r) => r.t)).toEqual(['public.members', 'spieltisch.events', 'spieltisch.games', 'spieltisch.spieltisch_schema']);
  });

  test('the address is shown without its password', async () => {
    await server.createDatabase('secret');
    const log = openGameLog(server.url('secret').replace('spieltisch@', 'spieltisch:hunter2@'));
    expect(log.file).toBe(`postgres://spieltisch:***@127.0.0.1:${server.port}/secret`);
    log.close();
  });

  test('an import beside a live table is written by its worker, on a connection of its own, the password and all', async () => {
    await server.createDatabase('imported');
    const inner = openGameLog(server.url('imported').replace('spieltisch@', 'spieltisch:hunter2@'));
    expect(inner.sharedAddress()).toContain(':hunter2@');
    let writes = 0;
    const log = new Proxy(inner, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (key === 'transaction' || key === 'importGame') writes++;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const text = [0, 1, 2].map((i) => `[Game "kalaha"] [Site "t${i}"] ${randomGame('kalaha', {}, 90 + i, 80).moves.join(' ')}`).join('\n\n');
    const report = await importGamesAsync(log, text, { now: 9 });
    expect(writes).toBe(0);
    expect(report.imported.map((g) => g.game)).toEqual([1, 2, 3]);
    expect(inner.countGames()).toBe(3);
    const other = openGameLog(':memory:');
    expect(importGames(other, text, { now: 9 })).toEqual(report);
    other.close();
    inner.close();
  });

  test('a connection the server dropped between writes is replaced; the game goes on', async () => {
    const url = await server.createDatabase('dropped');
    const log = openGameLog(url);
    const id = log.startGame(kalahaGame());
    log.append(id, { kind: 'move', at: T0, payload: 1 });
    await server.sql('postgres', `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'dropped' AND application_name = 'spieltisch'`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(log.append(id, { kind: 'move', at: T0, payload: 2 })).toBe(2);
    log.close();
  });
});

describe('refusals: the database is left as it was', () => {
  test('another program’s database', async () => {
    await server.createDatabase('club');
    await server.sql('club', 'CREATE TABLE members (id integer PRIMARY KEY, name text)');
    await server.sql('club', `INSERT INTO members VALUES (1, 'Anna')`);
    const before = await contentsOf('club');
    const error = refusal(() => openGameLog(server.url('club')));
    expect(error.reason).toBe('foreign-database');
    expect(error.message).toMatch(/is not a Spieltisch game log \(its schema public holds 1 tables, views or sequences, and no spieltisch_schema\); not touching it/);
    expect(await contentsOf('club')).toEqual(before);
  });

  test('a log newer than this Spieltisch', async () => {
    const url = await server.createDatabase('newer');
    const log = openGameLog(url);
    log.append(log.startGame(kalahaGame()), { kind: 'move', at: T0, payload: { pit: 1 } });
    log.close();
    await server.sql('newer', `UPDATE spieltisch_schema SET version = ${SCHEMA_VERSION + 1}`);
    const before = await contentsOf('newer');
    const error = refusal(() => openGameLog(url));
    expect(error.reason).toBe('newer-version');
    expect(error.message).toBe(
      `the game log ${url} has schema version ${SCHEMA_VERSION + 1}, newer than this Spieltisch understands (${SCHEMA_VERSION}); not touching it`,
    );
    expect(await contentsOf('newer')).toEqual(before);
  });

  test('a log whose migration fails stays at its old version, not half-migrated', async () => {
    const url = await server.createDatabase('old');
    openPostgresGameLog(url, { migrations: POSTGRES_MIGRATIONS.slice(0, 1) }).close();
    // Step 2 creates this index; here someone made it already, so step 2 fails half-way.
    await server.sql('old', 'CREATE INDEX games_by_board ON games (board_id)');
    const before = await contentsOf('old');
    const error = refusal(() => openGameLog(url));
    expect(error.reason).toBe('cannot-migrate');
    expect(error.message).toMatch(/has schema version 1 and could not be brought to version 2 \(.*games_by_board.*\); it was left at version 1$/);
    expect(await contentsOf('old')).toEqual(before);
    // Without imported_at, which step 2 added before it failed.
    expect(before.games[0]).not.toContain('imported_at');
  });

  test('a marker that says no one version', async () => {
    const url = await server.createDatabase('marked');
    openGameLog(url).close();
    await server.sql('marked', 'DELETE FROM spieltisch_schema');
    expect(refusal(() => openGameLog(url)).reason).toBe('damaged');
  });

  test('a server that is not there, and an address of no store we know', async () => {
    const error = refusal(() => openPostgresGameLog('postgres://spieltisch:pw@127.0.0.1:1/games', { timeoutMs: 5000 }));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toMatch(/^the game log postgres:\/\/spieltisch:\*\*\*@127\.0\.0\.1:1\/games cannot be reached \(.*ECONNREFUSED/);
    const missing = refusal(() => openGameLog(server.url('no_such_database')));
    expect(missing).toMatchObject({ reason: 'unreachable', message: expect.stringContaining('does not exist') });
    expect(refusal(() => openGameLog('mysql://x@y/z')).reason).toBe('unknown-store');
  });
});

describe('writes that fail: each raises, writes nothing, and the same write tried again lands once', () => {
  beforeAll(() => {
    disk = mountSmallDisk(1024);
    // The tablespace's folder belongs to the user PostgreSQL runs as.
    const user = runAs();
    if (user) chownSync(disk.dir, user.uid, user.gid);
  });
  // Unmounted once the server that holds a tablespace on it has stopped (below the server's own afterAll).

  const move = (ply: number) => ({ kind: 'move' as const, at: T0 + ply, payload: { move: 'C', ply } });
  const seqs = async (database: string) => (await server.sql(database, 'SELECT seq FROM events ORDER BY seq')).rows.map((r) => Number(r.seq));
  const caught = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    throw new Error('it did not raise');
  };
  const dropLogConnection = (database: string) =>
    server.sql('postgres', `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'spieltisch'`, [database]);

  test('a full disk (the events on a tablespace of a small, full file system): disk-full', async () => {
    if (!disk) throw new Error('no small disk');
    const small = disk;
    const url = await server.createDatabase('full_disk');
    await server.sql('postgres', `CREATE TABLESPACE small_disk LOCATION '${small.dir}'`);
    const log = openGameLog(url);
    try {
      const id = log.startGame(kalahaGame());
      await server.sql('full_disk', 'ALTER TABLE events SET TABLESPACE small_disk');
      log.append(id, move(1));
      small.fill();
      // Not root, the small disk is a plain folder PostgreSQL writes to freely: the server is made to answer as on a
      // full one (SQLSTATE 53100, disk_full) by a trigger on the events, dropped again when the disk is freed.
      if (small.kind === 'injected') {
        await server.sql(
          'full_disk',
          `CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
             RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
           CREATE TRIGGER test_disk_full BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_disk_full()`,
        );
      }
      const failure = caught(() => {
        for (let ply = 2; ply < 5000; ply++) log.append(id, move(ply));
      });
      expect(failure).toBeInstanceOf(GameLogWriteError);
      expect(failure).toMatchObject({ code: 'store/unwritable', reason: 'disk-full' });
      const landed = await seqs('full_disk');
      small.free();
      if (small.kind === 'injected') await server.sql('full_disk', 'DROP TRIGGER test_disk_full ON events');
      const next = landed.length + 1;
      expect(log.append(id, move(next))).toBe(next);
      expect(await seqs('full_disk')).toEqual([...landed, next]);
    } finally {
      log.close();
    }
  });

  test('a database that takes no writes (default_transaction_read_only): read-only', async () => {
    const url = await server.createDatabase('read_only');
    const log = openGameLog(url);
    try {
      const id = log.startGame(kalahaGame());
      log.append(id, move(1));
      await server.sql('postgres', 'ALTER DATABASE read_only SET default_transaction_read_only = on');
      await dropLogConnection('read_only');
      expect(caught(() => log.append(id, move(2)))).toMatchObject({ code: 'store/unwritable', reason: 'read-only' });
      await server.sql('postgres', 'ALTER DATABASE read_only RESET default_transaction_read_only');
      await dropLogConnection('read_only');
      expect(log.append(id, move(2))).toBe(2);
      expect(await seqs('read_only')).toEqual([1, 2]);
    } finally {
      log.close();
    }
  });

  test('a database gone (the connection dropped, and no new one let in): gone', async () => {
    const url = await server.createDatabase('gone');
    const log = openGameLog(url);
    try {
      const id = log.startGame(kalahaGame());
      log.append(id, move(1));
      await server.sql('postgres', 'ALTER DATABASE gone ALLOW_CONNECTIONS false');
      await dropLogConnection('gone');
      expect(caught(() => log.append(id, move(2)))).toMatchObject({ code: 'store/unwritable', reason: 'gone' });
      expect(caught(() => log.append(id, move(2)))).toMatchObject({ reason: 'gone' });
      await server.sql('postgres', 'ALTER DATABASE gone ALLOW_CONNECTIONS true');
      expect(log.append(id, move(2))).toBe(2);
      expect(log.endGame(id, { at: T0 + 9, result: { winner: 'south' } })).toBe(3);
      expect(await seqs('gone')).toEqual([1, 2, 3]);
    } finally {
      log.close();
    }
  });

  test('a commit whose answer never came: the write tried again is found in the log, not written twice', async () => {
    const url = await server.createDatabase('unknown_commit');
    const log = openPostgresGameLog(url, { timeoutMs: 2000 });
    try {
      const id = log.startGame(kalahaGame());
      log.append(id, move(1));
      // Each insert takes 4 s while `slow` holds a row; the log gives up waiting after 2 s, and the server commits after.
      await server.sql(
        'unknown_commit',
        `CREATE TABLE slow (on_ boolean);
         CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF EXISTS (SELECT 1 FROM slow) THEN PERFORM pg_sleep(4); END IF; RETURN NEW; END $$;
         CREATE TRIGGER slow_events AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION slow_insert();
         INSERT INTO slow VALUES (true);`,
      );
      const failure = caught(() => log.append(id, move(2)));
      expect(failure).toMatchObject({ code: 'store/unwritable', reason: 'gone' });
      expect((failure as Error).message).toMatch(/whether the last write was committed is not known/);
      // The server goes on and commits it.
      for (let waited = 0; (await seqs('unknown_commit')).length < 2; waited += 100) {
        if (waited > 30_000) throw new Error('the slow insert never committed');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await server.sql('unknown_commit', 'DELETE FROM slow');
      expect(log.append(id, move(2))).toBe(2);
      expect(log.append(id, move(3))).toBe(3);
      expect((await server.sql('unknown_commit', 'SELECT seq, payload::text AS payload FROM events ORDER BY seq')).rows).toEqual([
        { seq: 1, payload: JSON.stringify(move(1).payload) },
        { seq: 2, payload: JSON.stringify(move(2).payload) },
        { seq: 3, payload: JSON.stringify(move(3).payload) },
      ]);
    } finally {
      log.close();
    }
  });
});
