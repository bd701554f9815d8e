// Game log bench on PostgreSQL: events written per second with durability on (synchronous_commit=on,
// fsync on: one committed, flushed event per append, as the session writes them), and the time one
// append holds the service's thread. A throwaway server from Debian's package, on this machine.
//
// The bench runner calls postgresEventsPerSecond(ms); run this file alone to print it:
//   node bin/run-ts.js tests/bench/postgres-bench.ts [ms]
import { pathToFileURL } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';
import { startPostgres } from '../store/postgres-server.ts';

export interface PostgresBench {
  readonly eventsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly events: number;
  readonly synchronousCommit: string;
}

/** Appends move events to one game for about `ms` milliseconds on a fresh local server. */
export async function postgresEventsPerSecond(ms: number): Promise<PostgresBench> {
  const server = await startPostgres();
  try {
    const url = await server.createDatabase('bench');
    const synchronousCommit = (await server.sql('bench', 'SHOW synchronous_commit')).rows[0].synchronous_commit as string;
    const log = openGameLog(url);
    try {
      if (log.durability().synchronous !== 'full') throw new Error('the bench server does not flush commits; the number would mean nothing');
      const gameId = log.startGame({ game: 'kalaha', options: {}, players: { south: 'Anna', north: 'Ben' }, boardId: 'bench', source: 'simulated', at: 0 });
      const times: number[] = [];
      const start = performance.now();
      let elapsed = 0;
      do {
        const before = performance.now();
        log.append(gameId, { kind: 'move', at: times.length, payload: { kind: 'sow', pit: times.length % 6, cells: [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 1, 0] } });
        const after = performance.now();
        times.push(after - before);
        elapsed = after - start;
      } while (elapsed < ms);
      times.sort((a, b) => a - b);
      return {
        eventsPerSecond: Math.round((times.length * 1000) / elapsed),
        p50Ms: times[Math.floor(times.length * 0.5)],
        p99Ms: times[Math.floor(times.length * 0.99)],
        events: times.length,
        synchronousCommit,
      };
    } finally {
      log.close();
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = Number(process.argv[2] ?? 3000);
  const r = await postgresEventsPerSecond(ms);
  console.log(
    `PostgreSQL game log, durable appends (synchronous_commit=${r.synchronousCommit}): ${r.eventsPerSecond} events/s; ` +
      `one append holds the thread p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms (${r.events} events)`,
  );
}
