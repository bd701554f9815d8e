// For the browser checks and the bench of /games and /stats: a game log filled with games of all four kinds, the
// real HTTP face (startHttp) serving it with pages built into a folder of their own, and Chromium through
// playwright-core.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startHttp, type LiveGame, type RunningServer } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { positionsOf } from '../../server/export/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { randomGame, type RandomGame } from '../store/random-games.ts';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_FLAGS] });
}

/**
 * Builds the pages into a fresh folder, so that a build another process makes of web/dist meanwhile cannot pull
 * the files from under the browser. Returns the folder; the caller removes it.
 */
export async function buildPages(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'spieltisch-history-web-'));
  const { build } = await import('vite');
  await build({ configFile: resolve('web/vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  return out;
}

/**
 * A game of exactly `plies` moves: the first random game that ends by itself after that many (Kalaha with six
 * stones per pit: seed 105), else the first one cut off there.
 */
export function longGame(game: GameName, options: object, plies: number): RandomGame {
  for (let seed = 1; seed <= 2000; seed++) {
    const g = randomGame(game, options, seed, plies + 1);
    if (g.over && g.moves.length === plies) return g;
  }
  return randomGame(game, options, 1, plies);
}

/** A finished game whose random play ended by itself (short enough to read in a screenshot). */
function finishedGame(game: GameName, options: object, from: number): RandomGame {
  for (let seed = from; seed < from + 200; seed++) {
    const g = randomGame(game, options, seed);
    if (g.over) return g;
  }
  throw new Error(`no finished ${game} game from seed ${from}`);
}

interface LogGame {
  readonly game: RandomGame;
  readonly players: Readonly<Record<string, string>>;
  readonly boardId: string;
  readonly source: 'sensors' | 'hand' | 'simulated';
  readonly at: number;
  /** Minutes from start to end; the game is left live when null. */
  readonly minutes: number | null;
  /** Ends the game as abandoned, whatever its moves. */
  readonly abandoned?: boolean;
}

/** Writes a game the way the session does: a move event per ply, then its end with the result. */
export function logGame(log: GameLog, g: LogGame): number {
  const id = log.startGame({ game: g.game.game, options: g.game.options, players: g.players, boardId: g.boardId, source: g.source, at: g.at });
  const span = (g.minutes ?? 30) * 60_000;
  const step = span / Math.max(1, g.game.moves.length + 1);
  log.transaction(() => {
    g.game.moves.forEach((move, i) => log.append(id, { kind: 'move', at: Math.round(g.at + (i + 1) * step), payload: { move, ply: i + 1 } }));
  });
  if (g.minutes === null) return id;
  const end = g.at + span;
  if (g.abandoned) {
    log.endGame(id, { at: end, result: { reason: 'abandoned' } });
    return id;
  }
  const result: Record<string, unknown> = { winner: g.game.winner, reason: g.game.reason };
  if (g.game.game === 'kalaha') {
    const replay = positionsOf('kalaha', g.game.options, g.game.moves);
    if (!('optionsError' in replay)) result.stores = (replay.steps[replay.steps.length - 1].position as { stores: object }).stores;
  }
  log.endGame(id, { at: end, result });
  return id;
}

export interface SeededIds {
  /** A finished Kalaha game of 300 moves. */
  readonly kalaha300: number;
  readonly malawi: number;
  readonly makis: number;
  readonly adu: number;
  readonly abandoned: number;
  readonly today: number;
  readonly live: number;
}

const HOUR = 3_600_000;

/** Games of the past days on two tables, and today at this table (`vauban`) one finished and one live. */
export function seedLog(log: GameLog, now = Date.now()): SeededIds {
  const day = (d: number, hour: number) => Date.parse(`2024-05-0${d}T00:00:00`) + hour * HOUR;
  return {
    kalaha300: logGame(log, {
      game: longGame('kalaha', { seedsPerPit: 6 }, 300),
      players: { south: 'Anna', north: 'Ben' },
      boardId: 'vauban',
      source: 'sensors',
      at: day(1, 10),
      minutes: 52,
    }),
    malawi: logGame(log, {
      game: finishedGame('malawi', {}, 32),
      players: { south: 'Ben', north: 'Cleo' },
      boardId: 'rieselfeld',
      source: 'hand',
      at: day(1, 14),
      minutes: 35,
    }),
    makis: logGame(log, {
      game: finishedGame('makis', { players: 3 }, 40),
      players: { '1': 'Dora', '2': 'Anna', '3': 'Emil' },
      boardId: 'vauban',
      source: 'simulated',
      at: day(2, 11),
      minutes: 24,
    }),
    adu: logGame(log, {
      game: finishedGame('adu', { players: 3 }, 33),
      players: { '1': 'Dora', '2': 'Anna', '3': 'Emil' },
      boardId: 'vauban',
      source: 'sensors',
      at: day(3, 16),
      minutes: 95,
    }),
    abandoned: logGame(log, {
      game: { ...randomGame('malawi', {}, 7, 12), over: false, winner: null, reason: null },
      players: { south: 'Cleo', north: 'Anna' },
      boardId: 'rieselfeld',
      source: 'hand',
      at: day(3, 18),
      minutes: 6,
      abandoned: true,
    }),
    today: logGame(log, {
      game: finishedGame('kalaha', {}, 50),
      players: { south: 'Süd', north: 'Nord' },
      boardId: 'vauban',
      source: 'sensors',
      at: now - 2 * HOUR,
      minutes: 40,
    }),
    live: logGame(log, {
      game: randomGame('kalaha', {}, 60, 9),
      players: { south: 'Fritz', north: 'Gül' },
      boardId: 'vauban',
      source: 'sensors',
      at: now - 10 * 60_000,
      minutes: null,
    }),
  };
}

const NO_LIVE_GAME: LiveGame = { sync: () => ({ type: 'sync' }) as never, subscribe: () => () => {}, command: () => ({ ok: false }) };

export interface HistoryServer {
  readonly url: string;
  readonly log: GameLog | null;
  close(): Promise<void>;
}

/** The real HTTP face on a free port: with a log (filled or not), or with none at all (`log: null`). */
export async function startHistoryServer(dist: string, log: GameLog | null): Promise<HistoryServer> {
  const http: RunningServer = await startHttp(NO_LIVE_GAME, {
    port: 0,
    host: '127.0.0.1',
    token: 'history-test',
    ...(log ? { log } : {}),
    boardId: 'vauban',
    webRoot: dist,
  });
  return {
    url: `http://127.0.0.1:${http.port}`,
    log,
    close: async () => {
      await http.close();
      log?.close();
    },
  };
}

export function memoryLog(): GameLog {
  return openGameLog(':memory:');
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
