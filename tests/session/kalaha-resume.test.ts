// A Kalaha game resumed after the service restarted, whatever the table shows when it comes back:
// the position it logged (nothing to do), that position and one move the players finished meanwhile
// (taken as if watched, and logged as reconstructed), a hand still sowing (wait, then decide), or
// stones moved about (the usual mismatch, and the console can still enter the move by hand).
import { describe, expect, test } from 'vitest';
import { KalahaSession, recordOf } from '../../server/session/index.ts';
import { DEFAULT_OPTIONS, PITS, STORE, legalMoves, observe, play, type KalahaState } from '../../server/rules/kalaha.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { Table, playOn, rng, start } from '../referee/table.ts';
import { memoryLog } from '../support/resume-log.ts';

const pit = (name: string) => PITS.indexOf(name as (typeof PITS)[number]);
const MARBLES = (r: () => number) => 4.6 + 0.8 * r();


/** The game so far on a physical table, its moves played and logged before the service went down. */
function played(names: readonly string[], options: ConstructorParameters<typeof Table>[0] = {}): { table: Table; state: KalahaState } {
  let { table, state } = start({ seed: 5, ...options });
  for (const name of names) state = playOn(table, state, { kind: 'sow', pit: pit(name) });
  return { table, state };
}

/**
 * The service back up: a session resuming the logged moves, fed the table's frames from `from` on
 * (what the table did while the service was down is not seen, only where it left the stones).
 */
function resumed(table: Table, moves: readonly string[], from = table.frames.length) {
  const log = memoryLog(moves);
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'serial', log, resume: { gameId: 1, moves } });
  const seen: ServerMessage[] = [];
  session.subscribe((m) => seen.push(m));
  let fed = from;
  const feed = () => {
    for (; fed < table.frames.length; fed++) session.frame(table.frames[fed].t, table.frames[fed].tenths);
  };
  return { session, log, seen, feed };
}

const logged = (log: { events: { kind: string; payload: unknown }[] }, after: number) => log.events.slice(after).map((e) => ({ kind: e.kind, ...(e.payload as object) }));
const alerts = (seen: ServerMessage[]) => seen.flatMap((m) => (m.type === 'alert' ? [m.alert] : []));
const calibrated = (session: KalahaSession) => (session.sync() as Extract<ServerMessage, { type: 'sync' }>).board.calibrated;

describe('Kalaha resumed after a restart: (a) the table stands in the logged position', () => {
  test('nothing happens: no move, no alert; the weights are learnt and the game goes on as watched', () => {
    const moves = ['C', 'e', 'F'];
    const { table, state } = played(moves);
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(calibrated(session)).toBe(true);
    expect(session.record()).toEqual(moves);
    expect(logged(log, 3)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
    // The next move is seen as any move: not reconstructed.
    playOn(table, state, { kind: 'sow', pit: pit('d') });
    feed();
    expect(session.record()).toEqual([...moves, 'd']);
    expect(logged(log, 3)).toEqual([{ kind: 'move', move: 'd', ply: 4 }]);
  });

  test('the last logged capture not yet carried: the position with it on its way; carrying it is no alert', () => {
    const moves = ['C', 'e', 'F', 'd'];
    const { table } = played(moves.slice(0, 3));
    // North sows d, capturing C's two stones; the service logs it and dies before they are carried.
    table.sow(pit('d')).wait(1500);
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(calibrated(session)).toBe(true);
    expect(session.view().pending).toEqual([{ pit: pit('C'), stones: 2, store: 'north', reason: 'capture' }]);
    table.lift(pit('C')).drop(STORE.north).drop(STORE.north).wait(2000);
    feed();
    expect(session.view().pending).toEqual([]);
    expect(session.view().stores).toEqual({ south: 0, north: 2 });
    expect(logged(log, 4)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
  });
});

describe('Kalaha resumed after a restart: (b) the players finished a move while the service was down', () => {
  test('the move is taken as if watched, and logged as reconstructed', () => {
    const moves = ['C', 'e'];
    const { table, state } = played(moves);
    playOn(table, state, { kind: 'sow', pit: pit('F') });
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(session.record()).toEqual(['C', 'e', 'F']);
    expect(logged(log, 2)).toEqual([{ kind: 'move', move: 'F', ply: 3, reconstructed: true }]);
    expect(recordOf(log.events)).toEqual(['C', 'e', 'F']);
    expect(seen.filter((m) => m.type === 'update').map((m) => (m.type === 'update' ? `${m.event} ${m.move ?? ''}` : ''))).toEqual(['move F']);
    expect(alerts(seen)).toEqual([]);
    expect(calibrated(session)).toBe(true);
  });

  test('a move and its capture, carried already', () => {
    const moves = ['C', 'e', 'F'];
    const { table, state } = played(moves);
    playOn(table, state, { kind: 'sow', pit: pit('d') });
    const { session, log, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(logged(log, 3)).toEqual([{ kind: 'move', move: 'd', ply: 4, reconstructed: true }]);
    expect(session.view()).toMatchObject({ stores: { south: 0, north: 2 }, pending: [], lastMove: { pit: pit('d'), captures: [pit('C')] } });
  });

  test('a move whose capture is not carried yet: the move is taken, the capture awaited', () => {
    const moves = ['C', 'e', 'F'];
    const { table } = played(moves);
    table.sow(pit('d')).wait(1500);
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(logged(log, 3)).toEqual([{ kind: 'move', move: 'd', ply: 4, reconstructed: true }]);
    expect(session.view().pending).toEqual([{ pit: pit('C'), stones: 2, store: 'north', reason: 'capture' }]);
    table.lift(pit('C')).drop(STORE.north).drop(STORE.north).wait(2000);
    feed();
    expect(session.view().pending).toEqual([]);
    expect(logged(log, 4)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
  });

  test("the game's last move: taken, and the result logged", () => {
    // A random game to its end; the service goes down before its last move.
    let { table, state } = start({ seed: 31 });
    const choose = rng(31);
    const moves: string[] = [];
    let last = state;
    for (;;) {
      const legal = legalMoves(state);
      const move = legal[Math.floor(choose() * legal.length)];
      const next = play(state, move);
      if (!next.ok) throw new Error(next.error.message);
      if (next.value.outcome) {
        last = state;
        moves.push(PITS[move.pit]);
        break;
      }
      state = playOn(table, state, move);
      moves.push(PITS[move.pit]);
    }
    const final = moves.pop() as string;
    const { session, log, feed } = resumed(table, moves);
    const over = playOn(table, last, { kind: 'sow', pit: pit(final) });
    table.wait(3000);
    feed();
    expect(logged(log, moves.length)).toEqual([{ kind: 'move', move: final, ply: moves.length + 1, reconstructed: true }]);
    const [south, north] = over.stores;
    expect(log.ended).toEqual([expect.objectContaining({ result: { ...over.outcome, stores: { south, north } } })]);
    expect(session.view().outcome).toEqual({ winner: over.outcome?.winner, reason: over.outcome?.reason });
  });

  test('a game whose last move the log holds but not its end (the service died between the two) is ended on resume', () => {
    let { table, state } = start({ seed: 31 });
    const choose = rng(31);
    const moves: string[] = [];
    while (!state.outcome) {
      const legal = legalMoves(state);
      const move = legal[Math.floor(choose() * legal.length)];
      state = playOn(table, state, move);
      moves.push(PITS[move.pit]);
    }
    const { session, log } = resumed(table, moves);
    expect(log.ended).toHaveLength(1);
    expect(session.gameOpen).toBe(false);
  });
});

describe('Kalaha resumed before its first move', () => {
  test('the first move, made while the service was down, is read as any other', () => {
    const { table, state } = played([]);
    playOn(table, state, { kind: 'sow', pit: pit('C') });
    const { log, seen, feed } = resumed(table, []);
    table.wait(3000);
    feed();
    expect(logged(log, 0)).toEqual([{ kind: 'move', move: 'C', ply: 1, reconstructed: true }]);
    expect(alerts(seen)).toEqual([]);
  });

  test('the scales tared, the table empty and then filled: it waits for the opening, no mismatch', () => {
    const table = new Table({ seed: 12 });
    const stones = table.cells.map((c) => c.splice(0));
    const { session, seen, feed } = resumed(table, [], 0);
    table.wait(3000);
    feed();
    expect(alerts(seen).map((a) => a.code)).toEqual(['board/calibrating']);
    for (let p = 0; p < 12; p++) {
      table.hand.push(...stones[p]);
      for (let k = 0; k < 4; k++) table.drop(p);
      // Half filled, the people chat a while.
      if (p === 5) table.wait(3000);
    }
    table.wait(3000);
    feed();
    expect(alerts(seen).map((a) => a.code)).toEqual(['board/calibrating']);
    expect(session.sync()).toMatchObject({ alerts: [] });
    expect(calibrated(session)).toBe(true);
  });
});

describe('Kalaha resumed after a restart: (c) the service comes back while a hand is sowing', () => {
  test('no alert while the hand moves; once the board holds still the move is taken, once', () => {
    const moves = ['C', 'e'];
    const { table, state } = played(moves);
    const sowingFrom = table.frames.length;
    playOn(table, state, { kind: 'sow', pit: pit('F') });
    // The service is up again after the hand lifted F's stones and dropped the first.
    const { session, log, seen, feed } = resumed(table, moves, sowingFrom + 8);
    table.wait(3000);
    feed();
    expect(logged(log, 2)).toEqual([{ kind: 'move', move: 'F', ply: 3, reconstructed: true }]);
    expect(alerts(seen)).toEqual([]);
    expect(session.record()).toEqual(['C', 'e', 'F']);
  });

  test('a hand that stops halfway: still nothing taken; when it goes on, the finished move is', () => {
    const moves = ['C', 'e'];
    const { table } = played(moves, { stone: MARBLES });
    const sowingFrom = table.frames.length;
    // F holds 5 stones (C and e fed it): lift them, drop two, hold the rest a moment.
    expect(table.cells[pit('F')]).toHaveLength(5);
    table.lift(pit('F')).drop(pit('a')).drop(pit('b')).wait(900);
    const { session, log, seen, feed } = resumed(table, moves, sowingFrom + 3);
    feed();
    expect(session.record()).toEqual(moves);
    for (const p of ['c', 'd', 'e']) table.drop(pit(p));
    table.wait(3000);
    feed();
    expect(logged(log, 2)).toEqual([{ kind: 'move', move: 'F', ply: 3, reconstructed: true }]);
    expect(alerts(seen)).toEqual([]);
  });
});

describe('Kalaha resumed after a restart: (d) the stones were moved about', () => {
  test('the usual mismatch alert names the pits to fix; put right, the game goes on', () => {
    const moves = ['C', 'e', 'F'];
    const { table, state } = played(moves, { stone: MARBLES });
    // A stone of A went to B, and one of D into the empty south store.
    table.lift(pit('A'), 1).drop(pit('B')).lift(pit('D'), 1).drop(STORE.south).wait(500);
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(alerts(seen)).toEqual([
      expect.objectContaining({
        code: 'referee/mismatch',
        level: 'error',
        cells: [
          { cell: pit('A'), diff: -1 },
          { cell: pit('B'), diff: 1 },
          { cell: pit('D'), diff: -1 },
          { cell: STORE.south, diff: 1 },
        ],
      }),
    ]);
    expect(logged(log, 3)).toEqual([expect.objectContaining({ kind: 'alert', code: 'referee/mismatch' })]);
    expect(session.record()).toEqual(moves);
    expect(calibrated(session)).toBe(false);
    // The players put the stones back: the alert goes, and the next move is watched as usual.
    table.lift(pit('B'), 1).drop(pit('A')).lift(STORE.south, 1).drop(pit('D')).wait(3000);
    feed();
    expect(session.sync()).toMatchObject({ alerts: [] });
    expect(calibrated(session)).toBe(true);
    playOn(table, state, { kind: 'sow', pit: pit('d') });
    feed();
    expect(logged(log, 4)).toEqual([{ kind: 'move', move: 'd', ply: 4 }]);
  });

  test('a move made with a stone astray: a mismatch; the console enters the move by hand, the stone put back', () => {
    const moves = ['C', 'e'];
    const { table, state } = played(moves, { stone: MARBLES });
    playOn(table, state, { kind: 'sow', pit: pit('F') });
    table.lift(pit('a'), 1).drop(STORE.north).wait(500);
    const { session, log, seen, feed } = resumed(table, moves);
    table.wait(3000);
    feed();
    expect(alerts(seen).map((a) => a.code)).toEqual(['referee/mismatch']);
    expect(session.record()).toEqual(moves);
    const entered = session.command(session.currentStateId, { kind: 'enter', move: 'F' });
    expect(entered.ok).toBe(true);
    expect(logged(log, 3)).toEqual([
      { kind: 'answer', command: { kind: 'enter', move: 'F' } },
      { kind: 'move', move: 'F', ply: 3 },
    ]);
    table.lift(STORE.north, 1).drop(pit('a')).wait(3000);
    feed();
    expect(session.sync()).toMatchObject({ alerts: [] });
    expect(calibrated(session)).toBe(true);
    expect(session.record()).toEqual(['C', 'e', 'F']);
  });

  test('a board the weights call wrong that the people know is right: the console confirms it', () => {
    const moves = ['C', 'e', 'F'];
    const { table } = played(moves, { stone: MARBLES });
    // Someone swapped A's marbles for as many chestnuts: the counts are right, the weights are not.
    table.cells[pit('A')] = table.cells[pit('A')].map(() => 12);
    table.wait(3000);
    const { session, seen, feed } = resumed(table, moves, table.frames.length - 60);
    feed();
    expect(alerts(seen)).toEqual([expect.objectContaining({ code: 'referee/mismatch', cells: [{ cell: pit('A'), diff: expect.any(Number) }] })]);
    const confirmed = session.command(session.currentStateId, { kind: 'confirm' });
    expect(confirmed.ok).toBe(true);
    expect(calibrated(session)).toBe(true);
    expect(session.sync()).toMatchObject({ alerts: [] });
    expect(session.record()).toEqual(moves);
  });

  test('confirming a board with stones where the game has none is refused', () => {
    const moves = ['C', 'e', 'F'];
    const { table } = played(moves, { stone: MARBLES });
    table.lift(pit('D'), 1).drop(STORE.south).wait(3000);
    const { session, feed } = resumed(table, moves, table.frames.length - 60);
    feed();
    const confirmed = session.command(session.currentStateId, { kind: 'confirm' });
    expect(confirmed).toMatchObject({ ok: false, error: 'console/board-differs' });
    expect(calibrated(session)).toBe(false);
  });
});

describe('Kalaha resumed after a restart: many random games, several kinds of stones', () => {
  /** One stone of four kinds people bring, as the simulated table draws them (acorns, marbles, beans, chestnuts). */
  const fourKinds = (r: () => number) => {
    const [mean, sd] = [[3.4, 0.7], [5, 0.35], [1.45, 0.25], [8.4, 0.8]][Math.floor(r() * 4)];
    return Math.max(1, mean + sd * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()));
  };
  test.each([
    ['mixed 1–10 g', 41, (r: () => number) => 1 + 9 * r()],
    ['marbles', 42, MARBLES],
    ['beans', 43, (r: () => number) => 1.1 + 0.7 * r()],
    ['four kinds', 44, fourKinds],
  ])('%s: the position stands, a move was finished, or a hand was sowing: each read right', (_name, seed, stone) => {
    const choose = rng(seed);
    for (let game = 0; game < 25; game++) {
      for (const scenario of ['stands', 'finished', 'sowing'] as const) {
        let { table, state } = start({ seed: seed * 100 + game, stone, noise: 0.15 });
        const moves: string[] = [];
        const plies = Math.floor(choose() * 30);
        for (let k = 0; k < plies && !state.outcome; k++) {
          const legal = legalMoves(state);
          const move = legal[Math.floor(choose() * legal.length)];
          state = playOn(table, state, move);
          moves.push(PITS[move.pit]);
        }
        if (state.outcome) continue;
        let from = table.frames.length;
        let expected: string[] = [];
        if (scenario !== 'stands') {
          const legal = legalMoves(state);
          const move = legal[Math.floor(choose() * legal.length)];
          playOn(table, state, move);
          expected = [PITS[move.pit]];
          if (scenario === 'sowing') from += 3 + Math.floor(choose() * 6);
        }
        table.wait(3000);
        const { session, log, seen, feed } = resumed(table, moves, from);
        feed();
        const context = `game ${game}, ${scenario}, after ${moves.join('')}`;
        expect(logged(log, moves.length), context).toEqual(expected.map((move) => ({ kind: 'move', move, ply: moves.length + 1, reconstructed: true })));
        expect(alerts(seen), context).toEqual([]);
        expect(calibrated(session), context).toBe(true);
      }
    }
  });
});

