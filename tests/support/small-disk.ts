// A small file system of its own (tmpfs) that a test can fill to the last byte and free again.
//
// Never skipped: where it cannot be mounted (not root, no CAP_SYS_ADMIN) the test fails and says so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  /** Writes filler files until the file system has not one block left. */
  fill(): void;
  /** Removes the filler: there is room again. */
  free(): void;
  /** Removes everything but the filler. */
  clear(): void;
  unmount(): void;
}

const FILLER = 'filler-';

/** Mounts a tmpfs of `kib` KiB on a new temp folder. */
export function mountSmallDisk(kib: number): SmallDisk {
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
