// Game log benches: the write rate with durability on (one committed, fsynced event per append, as
// the session writes them), and how long a history page waits for its data (`/api/games/:id` and
// `/api/games/:id/positions` over HTTP) for a game of 300 moves.
//
// The bench runner calls eventsPerSecond(ms, file); run this file alone to print every measurement:
//   node bin/run-ts.js tests/bench/store-bench.ts [ms] [file]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openGameLog } from '../../server/store/index.ts';
import { startHttp, type LiveGame } from '../../server/http/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { randomGame, type RandomGame } from '../store/random-games.ts';

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

export interface HistoryPageTime {
  readonly game: GameName;
  readonly plies: number;
  readonly events: number;
  /** Milliseconds for both requests, one after the other, as the page makes them. */
  readonly medianMs: number;
  readonly p95Ms: number;
  /** Bytes of the two JSON bodies. */
  readonly bytes: number;
}

/**
 * A game of `plies` moves from the engine's random play (the first seed that gives one), or the
 * longest of 500 seeds for a game whose random games end sooner (Makis: the knights are quick).
 */
function longGame(game: GameName, options: object, plies: number): RandomGame {
  let longest: RandomGame | null = null;
  for (let seed = 1; seed <= 500; seed++) {
    const g = randomGame(game, options, seed, plies);
    if (g.moves.length >= plies) return g;
    if (!longest || g.moves.length > longest.moves.length) longest = g;
  }
  return longest as RandomGame;
}

/**
 * Logs a game of `plies` moves the way the session does (a move event per ply, an alert every
 * tenth move, a console answer every twentieth) in a log file with durability on, serves it with
 * startHttp on port 0, and times the history page's two requests `runs` times.
 */
export async function historyPageTimes(file: string, game: GameName, options: object, plies = 300, runs = 40): Promise<HistoryPageTime> {
  const g = longGame(game, options, plies);
  const log = openGameLog(file);
  const live: LiveGame = { sync: () => ({ type: 'sync' }) as never, subscribe: () => () => {}, command: () => ({ ok: false }) };
  const http = await startHttp(live, { port: 0, host: '127.0.0.1', token: 'bench', log, webRoot: '/nonexistent' });
  try {
    const at = Date.parse('2024-05-01T10:00:00Z');
    const id = log.startGame({ game, options: g.options, players: { south: 'Anna', north: 'Ben' }, boardId: 'bench', source: 'sensors', at });
    log.transaction(() => {
      g.moves.forEach((move, i) => {
        if (i % 10 === 9) log.append(id, { kind: 'alert', at: at + i * 4000, payload: { code: 'referee/mismatch', params: { cells: 'c4' } } });
        if (i % 20 === 19) log.append(id, { kind: 'answer', at: at + i * 4000 + 1, payload: { command: { kind: 'confirm' } } });
        log.append(id, { kind: 'move', at: at + i * 4000 + 2, payload: { move, ply: i + 1 } });
      });
    });
    const base = `http://127.0.0.1:${http.port}/api/games/${id}`;
    const page = async (): Promise<number> => {
      const [game, positions] = [await fetch(base), await fetch(`${base}/positions`)];
      if (!game.ok || !positions.ok) throw new Error(`history request failed: ${game.status} ${positions.status}`);
      return (await game.text()).length + (await positions.text()).length;
    };
    let bytes = await page(); // warm up: JIT, statement cache
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const start = performance.now();
      bytes = await page();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return {
      game,
      plies: g.moves.length,
      events: log.events(id).length,
      medianMs: round(times[Math.floor(times.length / 2)]),
      p95Ms: round(times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]),
      bytes,
    };
  } finally {
    await http.close();
    log.close();
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The four games, each with options that let random play reach 300 moves. */
export const HISTORY_GAMES: readonly [GameName, object][] = [
  ['kalaha', { seedsPerPit: 6 }],
  ['malawi', {}],
  ['makis', { players: 5 }],
  ['adu', { players: 2 }],
];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = Number(process.argv[2] ?? 2000);
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-bench-'));
  const file = process.argv[3] ?? join(dir, 'bench.db');
  try {
    const rate = eventsPerSecond(ms, file);
    console.log(`game log: ${rate} events/s appended with WAL and synchronous=FULL (${ms} ms)`);
    for (const [game, options] of HISTORY_GAMES) {
      const t = await historyPageTimes(join(dir, `history-${game}.db`), game, options);
      console.log(
        `history page data, ${t.game} of ${t.plies} moves (${t.events} events, ${Math.round(t.bytes / 1024)} KiB JSON): median ${t.medianMs} ms, p95 ${t.p95Ms} ms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
