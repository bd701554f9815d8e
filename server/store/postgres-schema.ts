// The game log's schema on PostgreSQL: the SQLite file's tables and steps, how a database is recognised, and migrating it safely.
import { GameLogRefusedError } from './errors.ts';

/** One statement on the log's connection, waited for; rows as PostgreSQL returns them. */
export type Sql = (sql: string, params?: readonly unknown[]) => Record<string, unknown>[];

/** One step of the schema, numbered like SQLite's: step n brings a database from version n-1 to n. Never edited once shipped. */
export interface PostgresMigration {
  readonly version: number;
  readonly why: string;
  /** Statements without parameters, run inside the migration's transaction. */
  readonly sql: string;
}

/**
 * The one table that says "this is a Spieltisch log, at this version". A schema holding other
 * tables but not this one belongs to someone else.
 */
export const MARKER_TABLE = 'spieltisch_schema';

/**
 * Session-level advisory lock held by the migrating transaction: SQLite's application id 'SpTi'
 * (0x53705469) and 1 for "migrating". Two services starting at once migrate one after the other.
 */
const MIGRATION_LOCK = 'pg_advisory_xact_lock(1399874665, 1)';

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    why: 'games, and their append-only events',
    // JSON is `json`, not `jsonb`: it keeps the text as written, so a record reads back byte for byte.
    // Ids come from an identity column and seqs from spieltisch_append, both safe with many writers.
    sql: `
      CREATE TABLE games (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game       text   NOT NULL,
        options    json   NOT NULL,
        players    json   NOT NULL,
        board_id   text   NOT NULL,
        source     text   NOT NULL,
        started_at bigint NOT NULL,
        ended_at   bigint,
        result     json
      );
      CREATE INDEX games_by_game ON games (game, id);
      CREATE INDEX games_live ON games (board_id, id) WHERE ended_at IS NULL;

      CREATE TABLE events (
        game_id bigint  NOT NULL REFERENCES games (id),
        seq     integer NOT NULL CHECK (seq >= 1),
        at      bigint  NOT NULL,
        kind    text    NOT NULL,
        payload json    NOT NULL,
        PRIMARY KEY (game_id, seq)
      );

      -- The log is the truth a game is replayed from; guard it against every writer, not only ours.
      CREATE FUNCTION spieltisch_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'game log events are append-only: never %',
          CASE TG_OP WHEN 'UPDATE' THEN 'updated' WHEN 'DELETE' THEN 'deleted' ELSE 'truncated' END
          USING ERRCODE = 'restrict_violation';
      END $$;
      CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION spieltisch_events_append_only();
      CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION spieltisch_events_append_only();
      CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION spieltisch_events_append_only();

      -- The next seq and its event in one call. The game's row is the lock: a second writer to the
      -- same game waits for it, and its max(seq), a new statement under READ COMMITTED, then sees
      -- the first writer's event. NULL, and nothing written, for a missing or ended game.
      CREATE FUNCTION spieltisch_append(p_game bigint, p_at bigint, p_kind text, p_payload json) RETURNS integer
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        next_seq integer;
      BEGIN
        PERFORM 1 FROM games WHERE id = p_game AND ended_at IS NULL FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        SELECT coalesce(max(seq), 0) + 1 INTO next_seq FROM events WHERE game_id = p_game;
        INSERT INTO events (game_id, seq, at, kind, payload) VALUES (p_game, next_seq, p_at, p_kind, p_payload);
        RETURN next_seq;
      END $$;

      -- The end event and the game's result together, or neither.
      CREATE FUNCTION spieltisch_end(p_game bigint, p_at bigint, p_result json) RETURNS integer
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        end_seq integer;
      BEGIN
        end_seq := spieltisch_append(p_game, p_at, 'end', p_result);
        IF end_seq IS NOT NULL THEN
          UPDATE games SET ended_at = p_at, result = p_result WHERE id = p_game;
        END IF;
        RETURN end_seq;
      END $$;
    `,
  },
  {
    version: 2,
    why: 'games brought in by import are marked as such; games are found by day and by board without reading them all',
    sql: `
      ALTER TABLE games ADD COLUMN imported_at bigint;
      CREATE INDEX games_by_start ON games (started_at);
      CREATE INDEX games_by_board ON games (board_id, started_at);
    `,
  },
];

/**
 * The schema version of the log in the connection's current schema, 0 for a schema with nothing
 * in it; throws GameLogRefusedError for anything else. Reads only.
 */
export function postgresSchemaVersion(sql: Sql, where: string, migrations: readonly PostgresMigration[]): number {
  const [look] = sql(
    `SELECT current_schema() AS schema,
            (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')) AS objects,
            to_regclass(format('%I.%I', current_schema(), '${MARKER_TABLE}')) IS NOT NULL AS ours`,
  );
  const schema = look.schema as string | null;
  if (schema === null) {
    throw new GameLogRefusedError('cannot-migrate', where, `the database ${where} has no schema to write to (its search_path names none that exists); nothing was written`);
  }
  const objects = look.objects as number;
  if (!look.ours) {
    if (objects === 0) return 0;
    throw new GameLogRefusedError(
      'foreign-database',
      where,
      `the database ${where} is not a Spieltisch game log (its schema ${schema} holds ${objects} tables, views or sequences, ` +
        `and no ${MARKER_TABLE}); not touching it. Give Spieltisch a database, or a schema, of its own`,
    );
  }
  let version: number;
  try {
    const rows = sql(`SELECT version FROM ${MARKER_TABLE}`);
    if (rows.length !== 1 || !Number.isSafeInteger(rows[0].version)) throw new Error(`${rows.length} rows`);
    version = rows[0].version as number;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new GameLogRefusedError('damaged', where, `the database ${where} has a ${MARKER_TABLE} table that does not say one version (${why}); not touching it`);
  }
  if (version > migrations.length) {
    throw new GameLogRefusedError(
      'newer-version',
      where,
      `the game log ${where} has schema version ${version}, newer than this Spieltisch understands (${migrations.length}); not touching it`,
    );
  }
  return version;
}

/**
 * Brings the log to the current version in one transaction, under an advisory lock so that two
 * services starting at once do not both migrate. PostgreSQL's DDL is transactional: a step that
 * fails leaves the database at its old version, never half-migrated. Returns the version.
 */
export function migratePostgres(sql: Sql, where: string, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${i + 1} is numbered ${m.version}; steps must be numbered 1, 2, 3, …`);
  });
  // A first look without the lock: a current log, the usual case, costs no lock at all.
  let from = postgresSchemaVersion(sql, where, migrations);
  if (from === migrations.length) return from;
  // READ COMMITTED: the look after the lock is a new snapshot, so it sees what a service that held
  // the lock before us committed.
  sql('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    sql(`SELECT ${MIGRATION_LOCK}`);
    from = postgresSchemaVersion(sql, where, migrations);
    for (const step of migrations.slice(from)) sql(step.sql);
    if (from === 0) {
      sql(`CREATE TABLE ${MARKER_TABLE} (version integer NOT NULL)`);
      sql(`COMMENT ON TABLE ${MARKER_TABLE} IS 'Spieltisch game log: the schema version of the tables beside it'`);
      sql(`INSERT INTO ${MARKER_TABLE} (version) VALUES (${migrations.length})`);
    } else if (from < migrations.length) {
      sql(`UPDATE ${MARKER_TABLE} SET version = ${migrations.length}`);
    }
    sql('COMMIT');
  } catch (error) {
    try {
      sql('ROLLBACK');
    } catch {
      // The connection itself failed; PostgreSQL rolls the transaction back without us.
    }
    if (error instanceof GameLogRefusedError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new GameLogRefusedError(
      'cannot-migrate',
      where,
      `the game log ${where} has schema version ${from} and could not be brought to version ${migrations.length} (${why}); it was left at version ${from}`,
    );
  }
  return migrations.length;
}
