// No acknowledged event is lost when the process is killed: append returns only after the commit.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';
import { tempDir } from './helpers.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = 'tests/store/append-until-killed.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

interface Killed {
  gameId: number;
  lastAck: number;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the child until it has acknowledged `acks` events, then kills it with SIGKILL at once. */
function appendThenKill(file: string, acks: number): Promise<Killed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/run-ts.js', CHILD, file], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let gameId = 0;
    let lastAck = 0;
    let seen = 0;
    let pending = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [word, value] = line.split(' ');
        if (word === 'game') gameId = Number(value);
        // Acks after the kill was sent still count: each was printed after its append returned.
        if (word === 'ack') (lastAck = Number(value)), (seen += 1);
      }
      if (seen >= acks && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ gameId, lastAck, signal, stderr }));
  });
}

test('every event acknowledged before a SIGKILL is there after re-opening, across repeated crashes', async () => {
  const file = join(dir, 'data', 'games.db');
  let acknowledged = 0;
  let gameId = 0;
  // Kill soon after start, mid-stream, and again later: each child resumes the live game the last one left.
  for (const acks of [1, 150, 400]) {
    const killed = await appendThenKill(file, acks);
    expect(killed.stderr).toBe('');
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.lastAck).toBeGreaterThanOrEqual(acknowledged + acks);
    if (gameId === 0) gameId = killed.gameId;
    expect(killed.gameId).toBe(gameId);
    acknowledged = killed.lastAck;

    const log = openGameLog(file);
    const events = log.events(gameId);
    expect(log.liveGame('durability')?.id).toBe(gameId);
    // Every acknowledged event, gapless, with its contents; at most a few more that were written but not yet acknowledged.
    expect(events.length).toBeGreaterThanOrEqual(acknowledged);
    expect(events.slice(0, acknowledged)).toEqual(
      Array.from({ length: acknowledged }, (_, i) => ({ gameId, seq: i + 1, at: i + 1, kind: 'move', payload: { seq: i + 1, pit: (i + 1) % 12 } })),
    );
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    log.close();
  }
});
