// The one place a game log's address picks its store: postgres://… is a shared PostgreSQL database, anything else an SQLite file.
import { GameLogRefusedError } from './errors.ts';
import { openSqliteGameLog } from './game-log.ts';
import { openPostgresGameLog, redactedUrl } from './postgres.ts';
import type { GameLog } from './types.ts';

const POSTGRES = /^postgres(ql)?:\/\//i;
/** Looks like an address (`scheme://`), not a file: refused rather than created as a folder named `mysql:`. */
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Opens the game log at `target`: a PostgreSQL address (`postgres://user@host:5432/db`), an SQLite
 * file (created when missing), or `':memory:'` for tests. Throws GameLogRefusedError, leaving the
 * file or database untouched, if it is not a Spieltisch log this code can use.
 */
export function openGameLog(target: string): GameLog {
  if (isDatabaseUrl(target)) return openPostgresGameLog(target);
  if (ANY_URL.test(target)) {
    throw new GameLogRefusedError('unknown-store', redactedUrl(target), `the game log ${redactedUrl(target)} is neither a file nor a postgres:// address; Spieltisch keeps its log in SQLite or PostgreSQL`);
  }
  return openSqliteGameLog(target);
}

/** Whether `target` names a database server rather than a file: there is no file to look for. */
export function isDatabaseUrl(target: string): boolean {
  return POSTGRES.test(target);
}
