// The command line's errors as a user meets them, through the real `spieltisch` binary: one sentence on standard
// error and an exit status, never a stack trace.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../bin/spieltisch.js');
/** Root may write any file: the read-only case mounts a read-only file system then. */
const AS_ROOT = process.getuid?.() === 0;

function mountTmpfs(folder: string): void {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', folder], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`the read-only test mounts a small tmpfs as root, and mount failed: ${(e as Error).message}`);
  }
}

function remountReadOnly(folder: string): void {
  execFileSync('mount', ['-o', 'remount,ro', folder], { stdio: 'pipe' });
}

function run(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

/** One line, from spieltisch, with no stack frame in it. */
function expectOneSentence(err: string): void {
  const lines = err.trim().split('\n');
  expect(lines, err).toHaveLength(1);
  expect(lines[0]).toMatch(/^spieltisch: /);
  expect(err).not.toMatch(/^\s+at /m);
  expect(err).not.toMatch(/node:|RangeError|EISDIR|\.ts:\d+/);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spieltisch-cli-errors-'));
  // Readable by the user the read-only case runs as.
  chmodSync(dir, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('spieltisch import and export: errors in one sentence', () => {
  test('a JSON file nested 5,000 deep: refused as too deep, exit 1', async () => {
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"game":"kalaha","moves":["C"],"result":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
    const { code, err } = await run(['import', '--db', join(dir, 'deep.db'), file]);
    expect(code).toBe(1);
    expectOneSentence(err);
    expect(err).toContain('nests its JSON deeper than 64 levels');
  });

  test.each([['import'], ['export']])('%s with --db naming a folder: says it is a folder, exit 1', async (command) => {
    const folder = join(dir, `a-folder-${command}`);
    mkdirSync(folder);
    const record = join(dir, 'one.txt');
    writeFileSync(record, '[Game "kalaha"] C\n');
    const { code, err } = await run(command === 'import' ? ['import', '--db', folder, record] : ['export', '--db', folder]);
    expect(code).toBe(1);
    expectOneSentence(err);
    expect(err).toContain(`${folder} is a folder, not a game log file`);
  });

  test('serve with --db naming a folder: says it is a folder, exit 1', async () => {
    const folder = join(dir, 'a-folder-serve');
    mkdirSync(folder);
    const { code, err } = await run(['serve', '--simulate', '--http', '0', '--db', folder]);
    expect(code).toBe(1);
    expectOneSentence(err);
    expect(err).toContain('is a folder');
  });

  test('a --db inside something that is not a folder: the system\'s sentence with the path, exit 1', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'not a folder');
    const record = join(dir, 'one-more.txt');
    writeFileSync(record, '[Game "kalaha"] C\n');
    const { code, err } = await run(['import', '--db', join(file, 'log.db'), record]);
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^spieltisch: E[A-Z]+: .*plain-file/);
    expect(err).not.toMatch(/^\s+at /m);
  });

  test('a game log this user may only read: says read-only, exit 1', async () => {
    const record = join(dir, 'game.txt');
    writeFileSync(record, '[Game "kalaha"] C\n');
    // Root may write any file: its log lies on a file system mounted read-only instead (a user
    // switch would need the checkout to be readable by that user, which a fresh clone may not be).
    const folder = join(dir, 'read-only');
    mkdirSync(folder);
    if (AS_ROOT) mountTmpfs(folder);
    try {
      const db = join(folder, 'read-only.db');
      const made = await run(['import', '--db', db, record]);
      expect(made.code, made.err).toBe(0);
      if (AS_ROOT) remountReadOnly(folder);
      else chmodSync(db, 0o444);
      const { code, err } = await run(['import', '--db', db, record]);
      expect(code).toBe(1);
      expectOneSentence(err);
      expect(err).toContain('is read-only');
      expect(err).not.toContain('cannot be read');
    } finally {
      if (AS_ROOT) execFileSync('umount', [folder]);
    }
  });
});
