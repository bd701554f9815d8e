// Faults on a real serial line: a simulated Kalaha table behind a socat pseudo-terminal, the service's SerialBoard, the Kalaha session and its game log.
// Each test plays part of a game with a fault in the middle of it and checks that the referee's
// record, on the session and in the log, is what the simulated players really did.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  KalahaTable,
  Random,
  SerialBoard,
  formatLine,
  type LinkState,
  type SerialBoardOptions,
  type TableAction,
} from '../../firmware-bridge/index.ts';
import { planKalahaGame, type KalahaGamePlan } from '../../server/simulate/index.ts';
import { recordOf, type GameSession } from '../../server/session/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { tables } from '../../server/tables/index.ts';
import { PtyCable, ptyFolder, stopAllSocat } from '../bridge/pty.ts';
import { PtyBoard } from '../bridge/pty-board.ts';

beforeAll(() => {
  // These tests need socat (Debian package socat); say so plainly rather than fail obscurely.
  execFileSync('socat', ['-V'], { stdio: 'ignore' });
});

interface Rig {
  readonly cable: PtyCable;
  readonly board: PtyBoard<KalahaTable>;
  readonly serial: SerialBoard;
  readonly session: GameSession;
  readonly log: GameLog;
  readonly states: LinkState[];
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await stopAllSocat();
});

const SIM_SPEED = 10;

async function rig(seed: number, simSpeed = SIM_SPEED, options: Partial<SerialBoardOptions> = {}): Promise<Rig> {
  const folder = ptyFolder();
  cleanups.push(() => folder.remove());
  const cable = new PtyCable(folder.dir);
  cleanups.push(() => cable.close());
  const board = new PtyBoard(cable, (scheduler, out) => new KalahaTable(scheduler, { seed, stoneSet: 'mixed' }, out), simSpeed);
  cleanups.push(() => board.stop());
  await cable.plug();
  board.start();

  const serial = await SerialBoard.open({
    path: cable.servicePath,
    board: 'kalaha',
    handshake: { timeoutMs: 3000, retryMs: 200 },
    ...options,
    link: { stamp: board.stamp, ...options.link },
  });
  cleanups.push(() => serial.close());
  const states: LinkState[] = [];
  serial.on('state', (s) => states.push(s));

  const log = openGameLog(':memory:');
  cleanups.push(() => log.close());
  // The session exactly as `spieltisch serve` builds it from the Kalaha table kit.
  const session = tables.kalaha!.withRules({}).session({ boardId: serial.hello.id, source: 'serial', log }, serial.link);
  return { cable, board, serial, session, log, states };
}

/** The plan's script cut into turns: each starts where a player starts to think. */
function turns(plan: KalahaGamePlan): TableAction[][] {
  const out: TableAction[][] = [[]];
  for (const action of plan.actions) {
    if (action.kind === 'think' && out.at(-1)!.length > 0) out.push([]);
    out.at(-1)!.push(action);
  }
  return out;
}

/** A move whose sowing takes long enough that a fault `ms` after its start falls in the middle of it. */
function moveToHit(plan: KalahaGamePlan, from: number): { label: string; ply: number; sown: number } {
  const moves = plan.events.flatMap((e) => (e.kind === 'move' ? [e] : []));
  const move = moves.slice(from).find((m) => m.sown.length >= 4);
  if (!move) throw new Error('no long sowing in this plan; pick another seed');
  return { label: move.label, ply: move.ply, sown: move.sown.length };
}

/**
 * Plays the plan at the table. Before each turn the players look at the display: while it says
 * the board is not live, they wait (nobody starts a move the service cannot see). A turn
 * already under way is finished whatever happens, as hands do.
 */
async function play(r: Rig, plan: KalahaGamePlan, afterLastTurn?: () => void): Promise<void> {
  await r.board.perform([{ kind: 'wait', ms: 3000 }]);
  for (const turn of turns(plan)) {
    await waitFor(() => r.cable.plugged && r.serial.state === 'live', 'the display to show the board live');
    await r.board.perform(turn);
  }
  afterLastTurn?.();
  await r.board.perform([{ kind: 'wait', ms: 3000 }]);
  // The service has read the board up to now.
  await r.board.heardUntil(r.board.scheduler.now - 100);
}

async function waitFor(cond: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The referee's record, on the session and in the game log, is the players' record. */
function expectRecordIntact(r: Rig, plan: KalahaGamePlan): void {
  expect(plan.record.length).toBeGreaterThanOrEqual(5);
  expect(r.session.record()).toEqual(plan.record);
  const gameId = r.session.currentGameId;
  expect(gameId).not.toBeNull();
  expect(recordOf(r.log.events(gameId as number))).toEqual(plan.record);
}

const PLAN = (seed: number, maxMoves = 7) => planKalahaGame({ seed, maxMoves, onMaxMoves: 'stop' });

describe('a Kalaha game over a real serial line survives', () => {
  test('the cable pulled mid-sowing and plugged in again', async () => {
    const seed = 61;
    const plan = PLAN(seed);
    const r = await rig(seed);
    const target = moveToHit(plan, 2);
    let stonesInHandAtPull = -1;
    let pulled: Promise<void> | null = null;
    r.board.table.onMark = (label) => {
      if (label !== target.label) return;
      // 900 ms into the move: the pit is lifted (≤ 700 ms) and at least four stones are still to sow (≥ 300 ms each).
      r.board.scheduler.after(900, () => {
        stonesInHandAtPull = r.board.table.inHand().length;
        pulled = r.cable.pull();
      });
    };
    const game = play(r, plan);
    await waitFor(() => pulled !== null, 'the pull');
    await pulled;
    await waitFor(() => r.serial.state === 'reconnecting', 'the service to notice');
    // The cable stays out long enough for the first tries to fail, and the sowing to end meanwhile.
    await waitFor(() => !r.board.table.busy, 'the hand to finish its sowing');
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Plugging in resets an Arduino: it boots again and says HELLO.
    await r.cable.plug();
    r.board.table.reboot(1500);
    await game;

    expect(stonesInHandAtPull).toBeGreaterThan(0);
    expectRecordIntact(r, plan);
    const stats = r.serial.stats();
    expect(stats.reconnects).toBe(1);
    expect(r.states).toEqual(['reconnecting', 'live']);
    expect(stats.gapsCut).toBeGreaterThanOrEqual(1);
    // The lines after the plug were counted from the new HELLO: no loss, no step back.
    expect(stats.seqBackwards).toBe(0);
  });

  test('a board that reboots in the middle of a game (a new HELLO, frames from seq 0)', async () => {
    const seed = 62;
    const plan = PLAN(seed);
    const r = await rig(seed);
    const target = moveToHit(plan, 2);
    let rebootedAtT = -1;
    let stonesInHand = -1;
    r.board.table.onMark = (label) => {
      if (label !== target.label) return;
      r.board.scheduler.after(900, () => {
        stonesInHand = r.board.table.inHand().length;
        rebootedAtT = r.board.scheduler.now;
        r.board.table.reboot(2000);
      });
    };
    const reboots: string[] = [];
    r.serial.on('rebooted', (hello) => reboots.push(hello.id));
    const seqs: number[] = [];
    r.serial.link.on('weights', (w) => seqs.push(w.seq));
    await play(r, plan);

    expect(stonesInHand).toBeGreaterThan(0);
    expect(rebootedAtT).toBeGreaterThan(0);
    expect(reboots).toEqual([r.serial.hello.id]);
    // The frames really started again from 0 after the board's HELLO.
    const restart = seqs.findIndex((s, i) => i > 0 && s < seqs[i - 1]);
    expect(restart).toBeGreaterThan(0);
    expect(seqs[restart]).toBeLessThan(3);
    expectRecordIntact(r, plan);
    const stats = r.serial.stats();
    // The HELLO of the handshake and the reboot's (and any late answer to a repeated HELLO?).
    expect(stats.hellos).toBeGreaterThanOrEqual(2);
    expect(stats).toMatchObject({ seqBackwards: 0, reconnects: 0 });
    expect(stats.lost.weights).toBe(0);
  });

  test('corrupt and truncated lines, noise at a wrong baud rate, and over-long lines', async () => {
    const seed = 63;
    const plan = PLAN(seed);
    const r = await rig(seed);
    const rng = new Random('line-faults');
    const injected = { flipped: 0, truncated: 0, noise: 0, overlong: 0 };
    let faulty = true;
    r.board.fault = (line) => {
      if (!faulty) return line + '\r\n';
      const roll = rng.next();
      if (roll < 0.06 && line.length > 4) {
        // One byte changed to another printable one: the checksum no longer matches.
        injected.flipped++;
        const i = rng.int(0, line.length - 4);
        const c = line.charCodeAt(i);
        let d = rng.int(0x20, 0x7e);
        if (d === c || d === 0x2a) d = c === 0x41 ? 0x42 : 0x41;
        return line.slice(0, i) + String.fromCharCode(d) + line.slice(i + 1) + '\r\n';
      }
      if (roll < 0.1) {
        // The line's tail never arrives: what is left runs into the next line.
        injected.truncated++;
        return line.slice(0, rng.int(1, line.length - 1));
      }
      if (roll < 0.12) {
        // Bytes at a wrong baud rate: control and high bytes, no newline among them.
        injected.noise++;
        const noise = Buffer.from(Array.from({ length: rng.int(8, 60) }, () => (rng.chance(0.5) ? rng.int(0x80, 0xff) : rng.int(0, 9))));
        return '\n' + noise.toString('latin1') + '\n' + line + '\r\n';
      }
      if (roll < 0.13) {
        injected.overlong++;
        return '\n' + 'W 1 2 3 '.repeat(40) + '\n' + line + '\r\n';
      }
      return line + '\r\n';
    };
    // Every frame passed to the game must be one the board sent, unchanged.
    const accepted: string[] = [];
    r.serial.link.on('line', (text) => {
      if (text.startsWith('W ')) accepted.push(text);
    });
    // The faults stop with the last turn, so that every one is counted when the board has been read to the end.
    await play(r, plan, () => (faulty = false));

    expect(injected.flipped).toBeGreaterThan(10);
    expect(injected.truncated).toBeGreaterThan(5);
    expect(injected.noise).toBeGreaterThan(2);
    expect(injected.overlong).toBeGreaterThan(0);
    expectRecordIntact(r, plan);
    const { dropped } = r.serial.stats();
    expect(dropped.overlong).toBe(injected.overlong);
    expect(dropped.nonAscii).toBe(injected.noise);
    expect(dropped.checksum + dropped.malformed).toBeGreaterThanOrEqual(injected.flipped);
    expect(accepted.length).toBeGreaterThan(100);
    expect(accepted.filter((text) => !r.board.sentLines.has(text))).toEqual([]);
  });

  test('a flood of 10,000 lines a second', async () => {
    const seed = 64;
    const simSpeed = 5;
    const plan = PLAN(seed, 6);
    const r = await rig(seed, simSpeed);
    const target = moveToHit(plan, 1);
    // Lines per second of the board's clock that make 10,000 per second on the wire.
    const perVirtualSecond = 10_000 / simSpeed;
    const floodMs = 12_000;
    let floodStart = -1;
    const junkRng = new Random('flood-junk');
    let junk = 0;
    r.board.table.onMark = (label) => {
      if (label !== target.label) return;
      floodStart = r.board.scheduler.now;
      // Half the flood: the board's own frames, far above any scan rate ...
      r.board.table.flood(perVirtualSecond / 2, floodMs);
      // ... and half lines of other kinds: unknown types, bad checksums, blank lines, heartbeats.
      const each = (): void => {
        if (r.board.scheduler.now >= floodStart + floodMs) return;
        for (let k = 0; k < perVirtualSecond / 2 / 1000; k++) {
          junk++;
          const roll = junkRng.next();
          if (roll < 0.4) r.board.inject(formatLine(`X ${junk} flood`).trimEnd());
          else if (roll < 0.7) r.board.inject(`W ${junk} 1 2 3*00\n`, true);
          else if (roll < 0.8) r.board.inject('\r\n', true);
          else r.board.inject(formatLine(`HB 9 ${junk}`).trimEnd());
        }
        r.board.scheduler.after(1, each);
      };
      each();
    };
    await play(r, plan);

    expect(floodStart).toBeGreaterThan(0);
    expectRecordIntact(r, plan);
    const stats = r.serial.stats();
    // The flood reached the service and was counted: frames held back, bad lines dropped.
    const floodLines = (perVirtualSecond * floodMs) / 1000;
    expect(stats.linesOk + stats.dropped.checksum + stats.blank).toBeGreaterThan(floodLines * 0.9);
    expect(stats.framesThinned).toBeGreaterThan(floodLines / 4);
    expect(stats.dropped.checksum).toBeGreaterThan(floodLines / 10);
    expect(stats.unknownType).toBeGreaterThan(floodLines / 10);
  }, 60_000);
});
