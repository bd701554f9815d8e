// The live table: a change of game keeps its subscribers and goes on counting state ids, the log rows carry the
// players and options given, ending and abandoning write what they should, and what a board hosts.
import { afterEach, describe, expect, test } from 'vitest';
import { initial } from '../../server/rules/kalaha.ts';
import { LiveTable, SetupError, simulatedBoard } from '../../server/table/index.ts';
import { openGameLog } from '../../server/store/index.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { playOn } from '../referee/table.ts';
import { KALAHA_HELLO, answerCommands, gridHello, openingTable, rig, stateIds, syncs, type Rig } from './helpers.ts';

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});
async function open(...args: Parameters<typeof rig>): Promise<Rig> {
  const r = await rig(...args);
  rigs.push(r);
  return r;
}

/** Plays Kalaha's opening and one move (pit C) on the rig's link; returns the frames' last time. */
function playOpeningAndC(r: Rig, t0 = 0): number {
  const physical = openingTable(1, 1500, t0);
  playOn(physical, initial(), { kind: 'sow', pit: 2 });
  r.weights(physical.frames);
  return physical.t;
}

async function refused(promise: Promise<unknown>): Promise<SetupError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SetupError);
  return error as SetupError;
}

describe('a change of game', () => {
  test('keeps every subscriber, tells them with a sync, and goes on counting state ids', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    let end = playOpeningAndC(r);
    expect(r.table.currentSession.record()).toEqual(['C']);
    const before = stateIds(r.heard);
    expect(before.length).toBeGreaterThan(0);
    const firstGame = r.table.currentGameId as number;

    // A second subscriber, as the MQTT publisher is, subscribed before the change.
    const second: string[] = [];
    r.table.subscribe((m) => second.push(m.type));

    await r.table.start('kalaha', { seedsPerPit: 4, skipOrigin: false }, ['Anna', 'Ben'], true);
    const sync = syncs(r.heard).at(-1);
    expect(sync).toMatchObject({ game: 'kalaha', record: [] });
    expect(sync!.stateId).toBeGreaterThan(Math.max(...before));
    expect(second).toEqual(['sync']);
    expect(r.table.sync()).toMatchObject({ stateId: sync!.stateId, record: [] });

    // The new game is refereed and its moves reach the same subscribers, with state ids past the sync's.
    end = playOpeningAndC(r, end + 1000);
    expect(r.table.currentSession.record()).toEqual(['C']);
    const after = stateIds(r.heard.slice(r.heard.indexOf(sync!) + 1));
    expect(after.length).toBeGreaterThan(0);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(sync!.stateId);
    expect(second).toContain('update');

    // The first game was abandoned, and its session hears no more frames: its log stays as it was.
    const first = r.log.game(firstGame);
    expect(first?.result).toEqual({ reason: 'abandoned' });
    const firstEvents = r.log.events(firstGame).length;
    playOpeningAndC(r, end + 1000);
    expect(r.log.events(firstGame)).toHaveLength(firstEvents);
  });

  test('the log rows carry the players and the options given', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    await r.table.start('kalaha', { seedsPerPit: 4, forbiddenCaptureAtLeast: 10 }, ['  Anna  Lena ', ''], false);
    playOpeningAndC(r);
    const row = r.log.game(r.table.currentGameId as number);
    expect(row?.players).toEqual({ south: 'Anna Lena', north: 'Nord' });
    expect(row?.options).toEqual({ seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 10 });
    expect(row?.boardId).toBe('K1');
  });

  test('a game of numbered seats: the names by seat, the number of players from the seats', async () => {
    const r = await open(gridHello(9, 9), { game: 'malawi' });
    expect(r.table.game).toBe('malawi');
    await r.table.start('makis', { mode: 'cooperative' }, ['Anna', 'Ben', 'Cleo'], false);
    expect(r.table.game).toBe('makis');
    expect(syncs(r.heard).at(-1)).toMatchObject({ game: 'makis', view: { players: 3, mode: 'cooperative' } });
    // A move entered on the console opens the game's row.
    const entered = r.table.command(r.table.currentStateId, { kind: 'enter', move: '1@c5r9' });
    expect(entered).toMatchObject({ ok: true });
    const row = r.log.game(r.table.currentGameId as number);
    expect(row?.players).toEqual({ 1: 'Anna', 2: 'Ben', 3: 'Cleo' });
    expect(row?.options).toMatchObject({ players: 3, mode: 'cooperative' });
    expect(row?.game).toBe('makis');
  });

  test('a console command based on the game before the change is refused as stale', async () => {
    const r = await open(gridHello(6, 6), { game: 'malawi' });
    const old = r.table.currentStateId;
    await r.table.start('malawi', {}, ['A', 'B'], false);
    expect(r.table.command(old, { kind: 'enter', move: 'a1-a3' })).toMatchObject({ ok: false, error: 'console/stale-state' });
    expect(r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' })).toMatchObject({ ok: true });
  });
});

describe('start, end and abandon', () => {
  test('a game with moves is in the way of a new one until it is abandoned', async () => {
    const r = await open(gridHello(6, 6), { game: 'malawi' });
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' });
    const error = await refused(r.table.start('malawi', {}, ['A', 'B'], false));
    expect(error).toMatchObject({ status: 409, code: 'setup/game-running' });
    const started = await r.table.start('malawi', {}, ['A', 'B'], true);
    expect(started.abandoned).toBe(1);
    expect(r.log.game(1)?.result).toEqual({ reason: 'abandoned' });
  });

  test('end writes the winner given, abandon writes abandoned; both set the same game up afresh', async () => {
    const r = await open(gridHello(9, 9), { game: 'adu', options: { players: 3 } });
    expect(await refused(r.table.end({ winner: '2' }))).toMatchObject({ status: 409, code: 'setup/no-game' });
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'K@e5' });
    const id = r.table.currentGameId as number;
    expect(await refused(r.table.end({ winner: '4' }))).toMatchObject({ status: 400, code: 'setup/bad-winner' });
    expect(await refused(r.table.end({ winner: '2', reason: 'Agreed!' }))).toMatchObject({ status: 400, code: 'setup/bad-reason' });
    expect(await r.table.end({ winner: '2', reason: 'agreed' })).toEqual({ gameId: id });
    expect(r.log.game(id)).toMatchObject({ result: { winner: '2', reason: 'agreed' } });
    expect(r.log.game(id)?.endedAt).not.toBeNull();
    expect(r.table.currentGameId).toBeNull();
    expect(r.table.currentSession.record()).toEqual([]);
    expect(syncs(r.heard).at(-1)).toMatchObject({ game: 'adu', record: [], view: { players: 3 } });

    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'K@e5' });
    const next = r.table.currentGameId as number;
    expect(next).not.toBe(id);
    expect(r.log.game(next)?.players).toEqual({ 1: 'Spieler 1', 2: 'Spieler 2', 3: 'Spieler 3' });
    expect(await r.table.abandon()).toEqual({ gameId: next });
    expect(r.log.game(next)?.result).toEqual({ reason: 'abandoned' });
    // Nothing open: abandoning again only sets the table up afresh.
    expect(await r.table.abandon()).toEqual({ gameId: null });
  });

  test('a Kalaha game ended by the table keeps its stores in the result', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    playOpeningAndC(r);
    const id = r.table.currentGameId as number;
    await r.table.end({ winner: 'draw' });
    expect(r.log.game(id)?.result).toEqual({ winner: 'draw', reason: 'declared', stores: { south: 0, north: 0 } });
  });
});

describe('what a board hosts', () => {
  test('a Kalaha table hosts Kalaha only', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    expect(r.table.hosted().map((h) => h.game)).toEqual(['kalaha']);
    expect(await refused(r.table.start('malawi', {}, ['A', 'B']))).toMatchObject({ status: 400, code: 'setup/not-hosted' });
  });

  test('a square board hosts the games of exactly its size, the size fixed by the board', async () => {
    const nine = await open(gridHello(9, 9), { game: 'makis' });
    const hosted = nine.table.hosted();
    expect(hosted.map((h) => h.game)).toEqual(['malawi', 'makis', 'adu']);
    expect(hosted.find((h) => h.game === 'malawi')?.options[0]).toEqual({ key: 'size', kind: 'int', min: 9, max: 9, default: 9, fixed: true });
    expect(await refused(nine.table.start('adu', { size: 13 }, ['A', 'B']))).toMatchObject({ status: 400, code: 'setup/bad-options' });
    await nine.table.start('adu', {}, ['A', 'B']);
    expect(nine.table.currentSession.view()).toMatchObject({ game: 'adu', size: 9 });

    const six = await open(gridHello(6, 6), { game: 'malawi' });
    expect(six.table.hosted().map((h) => h.game)).toEqual(['malawi']);
    const thirteen = await open(gridHello(13, 13), { game: 'adu' });
    expect(thirteen.table.hosted().map((h) => h.game)).toEqual(['adu']);
  });

  test('options and players are checked before anything changes', async () => {
    const r = await open(gridHello(9, 9), { game: 'makis' });
    const before = r.heard.length;
    const cases: [unknown, unknown, unknown, string][] = [
      ['chess', {}, ['A'], 'setup/not-hosted'],
      ['makis', { colour: 'red' }, ['A'], 'setup/unknown-option'],
      ['makis', { mode: 'solo' }, ['A'], 'setup/bad-options'],
      ['makis', [], ['A'], 'setup/bad-options'],
      ['makis', {}, ['A', 'B', 'C', 'D', 'E', 'F'], 'setup/bad-players'],
      ['makis', {}, [], 'setup/bad-players'],
      ['makis', {}, 'Anna', 'setup/bad-players'],
      ['makis', {}, ['Anna', 7], 'setup/bad-players'],
      ['makis', {}, ['Anna', 'anna'], 'setup/bad-players'],
      ['makis', {}, ['x'.repeat(41)], 'setup/bad-players'],
      ['malawi', { maxStrength: 8 }, ['A', 'B'], 'setup/bad-options'],
      ['malawi', {}, ['A'], 'setup/bad-players'],
    ];
    for (const [game, options, players, code] of cases) {
      const error = await refused(r.table.start(game, options, players));
      expect(error.code, JSON.stringify([game, options, players])).toBe(code);
      expect(error.status).toBe(400);
    }
    expect(r.heard).toHaveLength(before);
    expect(r.table.game).toBe('makis');
  });
});

describe('the scales', () => {
  test('tare sends TARE and starts the referee afresh; the open game with no move keeps its row', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    answerCommands(r.pair);
    r.weights(openingTable().frames);
    const id = r.table.currentGameId;
    expect(id).not.toBeNull(); // calibrated: the game's row is open
    const tared = await r.table.tare();
    expect(tared.at).toBe(r.clock.t);
    expect(r.pair.board.written().toString('latin1')).toContain('TARE*');
    expect(r.table.currentGameId).toBe(id);
    expect(r.table.setupState().calibration).toMatchObject({ taredAt: r.clock.t, measured: null, referee: null });
    expect(syncs(r.heard).at(-1)?.board.calibrated).toBe(false);
  });

  test('a board that refuses or does not answer, a game being played, a board without scales', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' }, { commandTimeoutMs: 200 });
    answerCommands(r.pair, () => 'ERR hx711 cell 7 not ready');
    expect(await refused(r.table.tare())).toMatchObject({ status: 502, code: 'setup/board-refused' });
    const silent = await open(KALAHA_HELLO, { game: 'kalaha' }, { commandTimeoutMs: 50 });
    expect(await refused(silent.table.tare())).toMatchObject({ status: 504, code: 'setup/no-answer' });
    playOpeningAndC(silent);
    expect(await refused(silent.table.tare())).toMatchObject({ status: 409, code: 'setup/game-running' });
    const grid = await open(gridHello(6, 6), { game: 'malawi' });
    expect(await refused(grid.table.tare())).toMatchObject({ status: 409, code: 'setup/no-scales' });
    expect(await refused(grid.table.measureStones())).toMatchObject({ status: 409, code: 'setup/no-scales' });
  });

  test('the stones are measured from the last still frames, and the referee says the same', async () => {
    const r = await open(KALAHA_HELLO, { game: 'kalaha' });
    r.weights(openingTable(3).frames);
    const measured = await r.table.measureStones();
    expect(measured.stone).toBeCloseTo(5, 1);
    expect(measured.stones).toBe(48);
    expect(measured.suspects).toEqual([]);
    const state = r.table.setupState().calibration;
    expect(state?.measured?.stone).toBe(measured.stone);
    expect(state?.referee?.stone).toBeCloseTo(measured.stone, 1);
  });
});

describe('raw frames', () => {
  test('go out at most once per interval on the table clock, only while someone listens, with the seq gaps counted', async () => {
    const r = await open(gridHello(6, 6), { game: 'malawi' });
    const raw: { seq: number; cells: readonly number[]; lost: number }[] = [];
    // No listener: frames come and nothing is made.
    for (let i = 0; i < 5; i++) r.grid(0b11n, i * 50, i);
    const stop = r.table.subscribeRaw((m) => raw.push(m));
    // Twenty frames, 30 ms apart on the table's clock: with a 100 ms interval, frames at 0, 120, 240, … ms go out.
    for (let i = 0; i < 20; i++) {
      r.grid(1n << BigInt(i % 36), i * 30, 10 + i + (i >= 10 ? 3 : 0));
      r.clock.advance(30);
    }
    expect(raw.map((m) => m.seq)).toEqual([10, 14, 18, 25, 29]);
    expect(raw[0].cells).toHaveLength(36);
    expect(raw[0].cells[0]).toBe(1);
    expect(raw[0].cells.slice(1).every((c) => c === 0)).toBe(true);
    // Three frames were skipped by the board's counter after the tenth (seq 19 → 23), and 5 more before (4 → 10).
    expect(raw.at(-1)?.lost).toBe(3 + 5);
    stop();
    r.clock.advance(1000);
    r.grid(1n, 5000);
    expect(raw).toHaveLength(5);
  });
});

describe('a simulated board', () => {
  test('is started afresh with the new game’s kit and players, at the new game’s size', async () => {
    const log = openGameLog(':memory:');
    const table = await LiveTable.open(
      { board: simulatedBoard('grid', { seed: 7, simSpeed: 20, sense: 'occupancy' }), log, statusEveryMs: 0 },
      { game: 'malawi' },
    );
    try {
      const malawiLink = table.link;
      expect(malawiLink.hello).toMatchObject({ cols: 6, rows: 6 });
      expect(table.hosted().map((h) => h.game)).toEqual(['malawi', 'makis', 'adu']);
      const heard: ServerMessage[] = [];
      table.subscribe((m) => heard.push(m));
      await table.start('makis', {}, ['Anna', 'Ben'], true);
      expect(table.link).not.toBe(malawiLink);
      expect(malawiLink.isClosed).toBe(true);
      expect(table.link.hello).toMatchObject({ cols: 9, rows: 9 });
      // The simulated players of the new game play on the new board; their moves reach the same subscriber.
      await until(() => heard.some((m) => m.type === 'update' && m.event === 'move'));
      const row = log.game(table.currentGameId as number);
      expect(row).toMatchObject({ game: 'makis', players: { 1: 'Anna', 2: 'Ben' }, source: 'simulated', boardId: 'simulated-grid' });
    } finally {
      await table.close();
      log.close();
    }
  }, 60_000);
});

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}
