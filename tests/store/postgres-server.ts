// A real PostgreSQL server for the tests, from Debian's package: a fresh cluster in a temp folder, on a free port, removed after.
//
// Never skipped: without PostgreSQL installed the tests fail, saying what to install.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  readonly port: number;
  /** The address of a database on it, e.g. `url('games')`. */
  url(database: string): string;
  /** A new, empty database; its address. */
  createDatabase(name: string, template?: string): Promise<string>;
  /** Statements on a database as its owner, outside the store. */
  sql(database: string, text: string, params?: unknown[]): Promise<pg.QueryResult>;
  stop(): Promise<void>;
}

const USER = 'spieltisch';

/** The folder of PostgreSQL's programs: on the PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
function binDir(): string {
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    if (onPath) return join(onPath, '..');
  } catch {
    // Not on the PATH; Debian keeps it under /usr/lib/postgresql.
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions.length) {
    throw new Error('PostgreSQL is not installed: these tests need its server (Debian: apt-get install -y --no-install-recommends postgresql)');
  }
  return join(root, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root; as root, the cluster belongs to the `postgres` user (or `nobody`). */
export function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
      return { uid, gid };
    } catch {
      // No such user; try the next.
    }
  }
  throw new Error('running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every server started and not yet stopped, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-pg-'));
  const data = join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  let child: ChildProcess | undefined;
  try {
    execFileSync(join(bin, 'initdb'), ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-instructions'], { ...asUser, stdio: 'pipe', cwd: dir });
    const port = await freePort();
    let log = '';
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'synchronous_commit=on', '-c', 'fsync=on', '-c', 'max_connections=60'],
      { ...asUser, stdio: ['ignore', 'pipe', 'pipe'], cwd: dir },
    );
    child = started;
    running.add(started);
    started.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const url = (database: string) => `postgres://${USER}@127.0.0.1:${port}/${database}`;
    await waitUntilReady(url('postgres'), started, () => log);

    const sql = async (database: string, text: string, params?: unknown[]) => {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return await client.query(text, params);
      } finally {
        await client.end();
      }
    };
    return {
      port,
      url,
      sql,
      async createDatabase(name, template = 'template0') {
        await sql('postgres', `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`);
        return url(name);
      },
      async stop() {
        await stopServer(started);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL did not start (exit ${child.exitCode}):\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s (${(error as Error).message}):\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if it takes too long. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  running.delete(child);
}
