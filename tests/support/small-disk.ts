// A small file system of its own (tmpfs) that a test can fill to the last byte and free again.
//
// Never skipped. As root it is a real tmpfs, and a mount that fails fails the test. Where it cannot be mounted (not
// root) it is a plain folder on which SQLite answers as on a small full disk: a write to a log in it raises
// SQLITE_FULL once the folder holds as much as the disk would, or after fill(); a log opened there while it is
// full, with no -wal file left by another connection, fails at its first statement (SQLITE_IOERR, as SQLite does
// when it cannot make its -wal file); and statfs says there is no room. SMALL_DISK=injected picks that folder as
// root too, to run the tests both ways.
import { execFileSync } from 'node:child_process';
import fs, { existsSync, mkdtempSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Sqlite from 'better-sqlite3';

export interface SmallDisk {
  readonly dir: string;
  /** `tmpfs`: a file system of its own; `injected`: a plain folder whose SQLite logs raise SQLITE_FULL as on one. */
  readonly kind: 'tmpfs' | 'injected';
  /** Writes filler files until the file system has not one block left. */
  fill(): void;
  /** Removes the filler: there is room again. */
  free(): void;
  /** Removes everything but the filler. */
  clear(): void;
  unmount(): void;
}

const FILLER = 'filler-';

/** Mounts a tmpfs of `kib` KiB on a new temp folder; not root, the injected folder of the same size. */
export function mountSmallDisk(kib: number): SmallDisk {
  if (process.env.SMALL_DISK === 'injected' || process.getuid?.() !== 0) return injectedSmallDisk(kib);
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    const why = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    throw new Error(
      `these tests fill a small file system of their own and could not mount one (mount -t tmpfs: ${why}); ` +
        'run them as root or with CAP_SYS_ADMIN, as .ci/run does',
    );
  }
  let fillers = 0;
  return {
    dir,
    kind: 'tmpfs',
    fill() {
      // Big pieces first, then single bytes: nothing is left, not even a part of a block.
      for (const size of [64 * 1024, 4096, 512, 1]) {
        for (;;) {
          try {
            writeFileSync(join(dir, `${FILLER}${fillers++}`), Buffer.alloc(size));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            rmSync(join(dir, `${FILLER}${fillers - 1}`), { force: true });
            break;
          }
        }
      }
    },
    free() {
      for (const name of readdirSync(dir)) if (name.startsWith(FILLER)) rmSync(join(dir, name));
    },
    clear() {
      for (const name of readdirSync(dir)) if (!name.startsWith(FILLER)) rmSync(join(dir, name), { recursive: true });
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Still busy (a test failed with a file open on it): detached now, freed once the file is closed.
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmdirSync(dir);
    },
  };
}

/** The injected disks by folder; SQLite and statfs are patched once, for all of them. */
const injected = new Map<string, { capacity: number; full: boolean }>();

function diskOf(file: string): { capacity: number; full: boolean } | undefined {
  return injected.get(dirname(file));
}

/** What the files in the folder take. */
function used(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).size;
  return bytes;
}

function noRoom(file: string): boolean {
  const disk = diskOf(file);
  return disk !== undefined && (disk.full || used(dirname(file)) >= disk.capacity);
}

const WRITES = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

let patched = false;

function patchOnce(): void {
  if (patched) return;
  patched = true;
  type Db = { name: string; memory: boolean };
  const proto = Sqlite.prototype as unknown as Record<string, (this: Db, ...args: unknown[]) => unknown>;
  const prepare = proto.prepare;
  const pragma = proto.pragma;
  const full = () => new Sqlite.SqliteError('database or disk is full', 'SQLITE_FULL');
  // A statement that writes raises SQLITE_FULL when the folder has no room: run, get, all and iterate alike, before
  // anything is written, as a commit that cannot be written leaves nothing.
  proto.prepare = function (this: Db, ...args: unknown[]) {
    const statement = prepare.apply(this, args) as Record<string, (...a: unknown[]) => unknown>;
    if (this.memory || !diskOf(this.name) || !WRITES.test(String(args[0]))) return statement;
    const file = this.name;
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = statement[method];
      statement[method] = function (this: unknown, ...a: unknown[]) {
        if (noRoom(file)) throw full();
        return original.apply(this, a);
      };
    }
    return statement;
  };
  // A connection opened on the full folder, with no -wal file another connection keeps: SQLite cannot make one.
  proto.pragma = function (this: Db, ...args: unknown[]) {
    if (!this.memory && diskOf(this.name)?.full && !existsSync(`${this.name}-wal`)) throw new Sqlite.SqliteError('disk I/O error', 'SQLITE_IOERR');
    return pragma.apply(this, args);
  };
  const statfs = fs.statfsSync;
  fs.statfsSync = ((path: string, ...rest: unknown[]) => {
    const real = (statfs as (...a: unknown[]) => fs.StatsFs)(path, ...rest);
    const disk = injected.get(String(path));
    if (!disk) return real;
    const free = disk.full ? 0 : Math.max(0, disk.capacity - used(String(path)));
    return { ...real, bsize: 4096, blocks: Math.ceil(disk.capacity / 4096), bfree: Math.floor(free / 4096), bavail: Math.floor(free / 4096) };
  }) as typeof fs.statfsSync;
  syncBuiltinESMExports();
}

function injectedSmallDisk(kib: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-disk-'));
  patchOnce();
  const disk = { capacity: kib * 1024, full: false };
  injected.set(dir, disk);
  return {
    dir,
    kind: 'injected',
    fill() {
      disk.full = true;
    },
    free() {
      disk.full = false;
    },
    clear() {
      for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true });
    },
    unmount() {
      injected.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
