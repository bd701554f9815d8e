// `spieltisch serve --port` on a socat pseudo-terminal: every page is told at once when the board stops responding or its cable is pulled, and when it is back.
import { afterEach, describe, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import { KalahaTable } from '../../firmware-bridge/index.ts';
import type { BoardStatus, ServerMessage } from '../../server/http/index.ts';
import { PtyCable, ptyFolder, stopAllSocat } from '../bridge/pty.ts';
import { PtyBoard } from '../bridge/pty-board.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await stopAllSocat();
});

async function waitFor(cond: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('spieltisch serve on a serial port', () => {
  test('the board status on every page follows the link: live, reconnecting, live, not responding, live', async () => {
    const folder = ptyFolder();
    cleanups.push(() => folder.remove());
    const cable = new PtyCable(folder.dir);
    cleanups.push(() => cable.close());
    const board = new PtyBoard(cable, (scheduler, out) => new KalahaTable(scheduler, { seed: 'serve', stoneSet: 'marbles' }, out), 1);
    cleanups.push(() => board.stop());
    await cable.plug();
    board.start();

    const child: ChildProcess = spawn(
      process.execPath,
      ['bin/spieltisch.js', 'serve', '--port', cable.servicePath, '--http', '0', '--listen', '127.0.0.1', '--db', join(folder.dir, 'log.db'), '--token', 't'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => /display at http:\/\/localhost:(\d+)/.test(out) || child.exitCode !== null, 'serve to start');
    expect(child.exitCode, err).toBeNull();
    expect(out).toMatch(new RegExp(`Kalaha on ${cable.servicePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(board SIM-serve\\)`));
    const port = Number(/display at http:\/\/localhost:(\d+)/.exec(out)![1]);

    const page = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    cleanups.push(() => page.close());
    const boards: BoardStatus[] = [];
    page.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'sync' || m.type === 'board') boards.push(m.board as BoardStatus);
    });
    const last = (): BoardStatus | undefined => boards.at(-1);
    await waitFor(() => last()?.connected === true, 'the first status');
    expect(last()).toMatchObject({ source: 'serial', connected: true, link: 'live' });

    // The cable is pulled: every page hears it at once.
    await cable.pull();
    await waitFor(() => last()?.link === 'reconnecting', 'reconnecting');
    expect(last()?.connected).toBe(false);
    // Plugged in again: the Arduino restarts and the game's board is back.
    await cable.plug();
    board.table.reboot(1500);
    await waitFor(() => last()?.link === 'live', 'live again');
    expect(last()?.connected).toBe(true);

    // The board goes silent with its cable in (a hung firmware): after 3 s the pages say so.
    board.table.shutdown();
    await waitFor(() => last()?.link === 'not-responding', 'not responding');
    expect(last()?.connected).toBe(false);
    board.table.boot();
    await waitFor(() => last()?.link === 'live', 'live once more');

    const links = boards.map((b) => b.link).filter((l, i, all) => i === 0 || l !== all[i - 1]);
    expect(links).toEqual(['live', 'reconnecting', 'live', 'not-responding', 'live']);
    expect(err).toMatch(/board: reconnecting/);
    expect(err).toMatch(/board: SIM-serve is back on/);
  }, 40_000);

  test('a different board plugged in is refused: the pages say so, the log keeps it, and the game\'s board is taken back', async () => {
    const folder = ptyFolder();
    cleanups.push(() => folder.remove());
    const cable = new PtyCable(folder.dir);
    cleanups.push(() => cable.close());
    const kalaha = (seed: string) => (scheduler: ConstructorParameters<typeof KalahaTable>[0], out: ConstructorParameters<typeof KalahaTable>[2]) =>
      new KalahaTable(scheduler, { seed, stoneSet: 'marbles' }, out);
    let board = new PtyBoard(cable, kalaha('serve'), 1);
    cleanups.push(() => board.stop());
    await cable.plug();
    board.start();

    const child: ChildProcess = spawn(
      process.execPath,
      ['bin/spieltisch.js', 'serve', '--port', cable.servicePath, '--http', '0', '--listen', '127.0.0.1', '--db', join(folder.dir, 'log.db'), '--token', 't'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => /display at http:\/\/localhost:(\d+)/.test(out) || child.exitCode !== null, 'serve to start');
    expect(child.exitCode, err).toBeNull();
    const port = Number(/display at http:\/\/localhost:(\d+)/.exec(out)![1]);
    const page = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    cleanups.push(() => page.close());
    const boards: BoardStatus[] = [];
    page.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'sync' || m.type === 'board') boards.push(m.board as BoardStatus);
    });
    const last = (): BoardStatus | undefined => boards.at(-1);
    // The opening is on the table: the referee calibrates and the game has its row, where faults are kept.
    await waitFor(() => last()?.calibrated === true, 'calibrated');

    // The cable is pulled and another board is plugged in in its place.
    await cable.pull();
    await waitFor(() => last()?.link === 'reconnecting', 'reconnecting');
    board.stop();
    board = new PtyBoard(cable, kalaha('other'), 1);
    await cable.plug();
    board.start();
    await waitFor(() => last()?.link === 'wrong-board', 'the other board refused');
    expect(last()?.connected).toBe(false);
    await waitFor(() => /board: a different board was refused \(.*board SIM-other answered; board SIM-serve was playing\)/.test(err), 'the refusal in the log');

    const state = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as { gameId?: number };
    expect(state.gameId).toBeGreaterThan(0);
    const logged = (await (await fetch(`http://127.0.0.1:${port}/api/games/${state.gameId}`)).json()) as { events: { kind: string; payload: { code?: string; text?: string } }[] };
    const faults = logged.events.filter((e) => e.kind === 'fault').map((e) => e.payload);
    expect(faults).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'board/refused', text: expect.stringContaining('board SIM-other answered') })]));
    expect(faults.map((f) => f.code)).toContain('board/wrong-board');

    // The game's own board back on the cable: taken back, live again.
    await cable.pull();
    board.stop();
    board = new PtyBoard(cable, kalaha('serve'), 1);
    await cable.plug();
    board.start();
    await waitFor(() => last()?.link === 'live', 'the game\'s board back');
    expect(err.match(/a different board was refused/g)).toHaveLength(1);
  }, 60_000);
});
