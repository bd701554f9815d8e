// The SQLite game log on a real, small, full file system: every write lands or raises, a write tried again once
// there is room lands once, and a log that cannot be written is refused at start in one sentence. Not root, the
// disk is a folder on which SQLite answers SQLITE_FULL as on a full one (small-disk.ts).
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { GameLogRefusedError, GameLogWriteError, openGameLog } from '../../server/store/index.ts';
import type { GameLog, NewEvent } from '../../server/store/index.ts';
import { main, type Io } from '../../server/cli.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { gridHello, rig } from '../table/helpers.ts';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.ts';
import { kalahaGame } from './helpers.ts';

const T0 = 1_700_000_000_000;
/** Far more than the disk holds: an append that never raises would run past it. */
const MANY = 5000;

let disk: SmallDisk;
let log: GameLog | undefined;
beforeAll(() => {
  disk = mountSmallDisk(384);
});
afterEach(() => {
  log?.close();
  log = undefined;
  disk.free();
  disk.clear();
});
afterAll(() => {
  disk?.unmount();
});

const move = (ply: number): NewEvent => ({ kind: 'move', at: T0 + ply, payload: { move: 'A', ply, note: 'x'.repeat(400) } });

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('it did not raise');
}

describe('a log on a full disk', () => {
  test('every append lands or raises: the log holds exactly the events whose seq was returned', () => {
    log = openGameLog(join(disk.dir, 'games.db'));
    const id = log.startGame(kalahaGame());
    const returned: number[] = [];
    let failure: unknown;
    for (let ply = 1; ply <= MANY && failure === undefined; ply++) {
      try {
        returned.push(log.append(id, move(ply)));
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(GameLogWriteError);
    expect(failure).toMatchObject({ code: 'store/unwritable', reason: 'disk-full' });
    expect((failure as Error).message).toMatch(/cannot be written: the disk is full/);
    expect(returned.length).toBeGreaterThan(0);
    expect(log.events(id).map((e) => e.seq)).toEqual(returned);
    // A second connection, as the service after a restart, reads the same.
    const again = openGameLog(join(disk.dir, 'games.db'));
    expect(again.events(id).map((e) => e.seq)).toEqual(returned);
    again.close();
  });

  test('a game started on a full disk raises instead of returning an id that is not in the log', () => {
    log = openGameLog(join(disk.dir, 'games.db'));
    log.startGame(kalahaGame());
    disk.fill();
    const failure = caught(() => log?.startGame(kalahaGame({ at: T0 + 1 })));
    expect(failure).toMatchObject({ code: 'store/unwritable', reason: 'disk-full' });
    expect(log.countGames()).toBe(1);
  });

  test('ending a game on a full disk raises, and the game stays open', () => {
    log = openGameLog(join(disk.dir, 'games.db'));
    const id = log.startGame(kalahaGame());
    log.append(id, move(1));
    disk.fill();
    expect(caught(() => log?.endGame(id, { at: T0 + 9, result: { winner: 'south' } }))).toMatchObject({ reason: 'disk-full' });
    expect(log.game(id)?.endedAt).toBeNull();
    disk.free();
    expect(log.endGame(id, { at: T0 + 9, result: { winner: 'south' } })).toBe(2);
    expect(log.game(id)?.endedAt).toBe(T0 + 9);
  });

  test('the same event tried again once there is room lands once, right after the last', () => {
    log = openGameLog(join(disk.dir, 'games.db'));
    const id = log.startGame(kalahaGame());
    log.append(id, move(1));
    disk.fill();
    const held = [move(2), move(3)];
    expect(caught(() => log?.append(id, held[0]))).toMatchObject({ reason: 'disk-full' });
    expect(caught(() => log?.append(id, held[0]))).toMatchObject({ reason: 'disk-full' });
    disk.free();
    expect(log.append(id, held[0])).toBe(2);
    expect(log.append(id, held[1])).toBe(3);
    expect(log.events(id).map((e) => (e.payload as { ply: number }).ply)).toEqual([1, 2, 3]);
  });

  test('opening a log on a full disk is refused in one sentence, and the log is as it was', () => {
    const file = join(disk.dir, 'games.db');
    const first = openGameLog(file);
    const id = first.startGame(kalahaGame());
    first.append(id, move(1));
    first.close();
    disk.fill();
    const refusal = caught(() => openGameLog(file));
    expect(refusal).toBeInstanceOf(GameLogRefusedError);
    expect(refusal).toMatchObject({ reason: 'unwritable' });
    expect((refusal as Error).message).toBe(`the game log ${file} cannot be written: the disk it is on is full; free some space and start again`);
    disk.free();
    log = openGameLog(file);
    expect(log.events(id)).toHaveLength(1);
  });
});

async function serve(file: string): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const io: Io = { out: () => {}, err: (l) => err.push(l), stdin: async () => '' };
  const code = await main(['serve', '--simulate', '--http', '0', '--listen', '127.0.0.1', '--db', file], io);
  return { code, err };
}

describe('serve restarted on a full disk', () => {
  test('says so in one sentence and exits 1', async () => {
    const file = join(disk.dir, 'games.db');
    openGameLog(file).close();
    disk.fill();
    expect(await serve(file)).toEqual({
      code: 1,
      err: [`spieltisch: the game log ${file} cannot be written: the disk it is on is full; free some space and start again`],
    });
  });

  test('a log that opens but takes no write (its -wal still there): one sentence, exit 1, the open game untouched', async () => {
    const file = join(disk.dir, 'games.db');
    // Another connection keeps the -wal and -shm files, as a service that was killed leaves them.
    log = openGameLog(file);
    const id = log.startGame(kalahaGame({ game: 'kalaha', boardId: 'simulated' }));
    log.append(id, move(1));
    disk.fill();
    const { code, err } = await serve(file);
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^spieltisch: the game log .* cannot be written: the disk is full \(SQLITE_FULL: [^\n]*\)$/)]);
    expect(log.game(id)?.endedAt).toBeNull();
  });
});

describe('a live table whose log is on a full disk', () => {
  test('the move is not shown, every page hears why; once there is room it is written once and shown', async () => {
    const file = join(disk.dir, 'games.db');
    log = openGameLog(file);
    const r = await rig(gridHello(9, 9), { game: 'malawi' }, { log });
    try {
      const seen: ServerMessage[] = [];
      r.table.subscribe((m) => seen.push(m));
      expect(r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' })).toMatchObject({ ok: true });
      const id = r.table.currentGameId as number;
      disk.fill();
      expect(r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a9-a7' })).toMatchObject({ ok: true });
      const sync = () => r.table.sync() as Extract<ServerMessage, { type: 'sync' }>;
      expect(sync().record).toEqual(['a1-a3']);
      expect(sync().board.log).toEqual({ unwritable: 'disk-full', held: 2 });
      expect(seen.filter((m) => m.type === 'update').map((m) => (m as { move?: string }).move)).toEqual(['a1-a3']);
      expect(r.table.command(r.table.currentStateId, { kind: 'undo' })).toMatchObject({ ok: false, error: 'store/unwritable' });

      disk.free();
      r.table.currentSession.tryLogAgain();
      expect(sync().record).toEqual(['a1-a3', 'a9-a7']);
      expect(sync().board.log).toBeUndefined();
      expect(seen.filter((m) => m.type === 'update').map((m) => (m as { move?: string }).move)).toEqual(['a1-a3', 'a9-a7']);
      // What the service would read after a restart: each event once, in order.
      const again = openGameLog(file);
      expect(again.events(id).map((e) => [e.seq, e.kind])).toEqual([
        [1, 'answer'],
        [2, 'move'],
        [3, 'answer'],
        [4, 'move'],
      ]);
      again.close();
    } finally {
      await r.close();
    }
  });
});
