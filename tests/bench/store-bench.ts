// Game log write rate with durability on: one committed, fsynced event per append, as the session writes them.
//
// The bench runner calls eventsPerSecond(ms, file); run this file alone to print one measurement:
//   node bin/run-ts.js tests/bench/store-bench.ts [ms] [file]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';

/** Appends move events to one game in `file` for about `ms` milliseconds; returns events per second. */
export function eventsPerSecond(ms: number, file: string): number {
  const log = openGameLog(file);
  try {
    const gameId = log.startGame({
      game: 'kalaha',
      options: { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 },
      players: { south: 'Anna', north: 'Ben' },
      boardId: 'bench',
      source: 'simulated',
      at: 0,
    });
    let events = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      // Each append is a commit with an fsync, so reading the clock every 16 costs nothing by comparison.
      for (let i = 0; i < 16; i++) {
        events += 1;
        log.append(gameId, { kind: 'move', at: events, payload: { kind: 'sow', pit: events % 6, cells: [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 1, 0] } });
      }
      elapsed = performance.now() - start;
    } while (elapsed < ms);
    return Math.round((events * 1000) / elapsed);
  } finally {
    log.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = Number(process.argv[2] ?? 2000);
  const dir = process.argv[3] ? undefined : mkdtempSync(join(tmpdir(), 'spieltisch-bench-'));
  const file = process.argv[3] ?? join(dir as string, 'bench.db');
  try {
    const rate = eventsPerSecond(ms, file);
    console.log(`game log: ${rate} events/s appended with WAL and synchronous=FULL (${ms} ms)`);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
