// The commands that print a lot, their output piped into a reader that leaves early (`| head -1`): they end quietly,
// with their own status, and say nothing on stderr.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';

/** Runs `spieltisch ARGS | READER` in bash with pipefail, so a failure of the command is the pipeline's status. */
function pipeline(args: readonly string[], reader: string): Promise<{ code: number | null; out: string; err: string }> {
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const child = spawn('bash', ['-c', `set -o pipefail; '${process.execPath}' bin/spieltisch.js ${quoted} | ${reader}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  child.stderr.on('data', (chunk) => (err += String(chunk)));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

describe('output piped into a reader that leaves early', () => {
  test('spieltisch referee … | head -1: one line, status 0, no EPIPE', async () => {
    const { code, out, err } = await pipeline(['referee', '--game', 'makis', '--answers', 'tests/fixtures/makis/console-question.answers', 'tests/fixtures/makis/console-question.trace'], 'head -1');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toMatchObject({ kind: expect.any(String) });
  });

  test('spieltisch referee … | head -n 0: a reader gone before the first line', async () => {
    const { code, out, err } = await pipeline(['referee', '--game', 'kalaha', 'tests/fixtures/kalaha/marbles.trace'], 'head -n 0');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('');
  });

  test('spieltisch simulate (megabytes of trace) | head -1', async () => {
    const { code, out, err } = await pipeline(['simulate', '--seed', '3'], 'head -1');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^# spieltisch simulated Kalaha table, seed 3\n$/);
  });
});
