// A picture seen for a moment before the cable was pulled must not settle when frames come back: the gapless clock against the square board's settle stage.
import { afterEach, describe, expect, test } from 'vitest';
import { SerialBoard, type GridMessage } from '../../firmware-bridge/index.ts';
import { GridSettler, type SettledGrid } from '../../server/referee/index.ts';
import { MockCable } from './mock-cable.ts';

const HELLO = 'HELLO proto=1 fw=test/1 board=grid id=G1 cols=6 rows=6 sense=occupancy';
const CELLS = 36;
/** Pieces on a1 and c1; a hand lifts the one on a1 and puts it on b2. */
const BEFORE = (1n << 0n) | (1n << 2n);
const LIFTED = 1n << 2n;
const AFTER = (1n << 7n) | (1n << 2n);

async function until(cond: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > 10_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const boards: SerialBoard[] = [];
afterEach(async () => {
  for (const b of boards.splice(0)) await b.close();
});

describe('settled pictures across a pulled cable', () => {
  test('a piece in the air when the cable went is not taken for a position when it comes back', async () => {
    // The board's clock: frames every 50 ms; the test moves it on, and the silence is 3 s of it.
    let now = 0;
    const cable = new MockCable(HELLO);
    const board = await SerialBoard.open({
      ports: cable,
      path: cable.path,
      handshake: { timeoutMs: 500, retryMs: 50 },
      backoff: { initialMs: 10, maxMs: 40 },
      link: { now: () => now },
    });
    boards.push(board);
    const frames: GridMessage[] = [];
    board.link.on('grid', (g) => frames.push(g));

    let seq = 0;
    /** Sends `n` frames of `bits`, 50 ms apart, and waits until the link has them. */
    const show = async (bits: bigint, n: number): Promise<void> => {
      const want = frames.length + n;
      for (let i = 0; i < n; i++) {
        now += 50;
        cable.send(`G ${seq++} ${bits.toString(16)}`);
        await until(() => frames.length >= want - (n - 1 - i), 'a frame');
      }
    };

    await show(BEFORE, 20); // a second of the starting position
    await show(LIFTED, 3); // 150 ms of a piece in the air, then the cable is pulled
    await cable.pull();
    await until(() => board.state === 'reconnecting', 'reconnecting');
    now += 3000; // during the silence the piece is put down on b2
    cable.plug();
    await until(() => board.stats().reconnects === 1, 'reconnected');
    seq = 0;
    await show(AFTER, 20);

    const settle = (clock: (f: GridMessage, i: number) => number): SettledGrid[] => {
      const settler = new GridSettler(CELLS);
      const out: SettledGrid[] = [];
      frames.forEach((f, i) => {
        const picture = settler.pushBits(clock(f, i), f.occupancy);
        if (picture) out.push(picture);
      });
      return out;
    };
    const bits = (p: SettledGrid): bigint => p.cells.reduce((acc, v, i) => (v ? acc | (1n << BigInt(i)) : acc), 0n);

    // The premise: on the board's raw clock the silence looks like 3 s of the piece held in the
    // air, and the first frame after it settles that picture, a position nobody left the board in.
    const rawTimes = [...Array.from({ length: 23 }, (_, i) => 50 * (i + 1)), ...Array.from({ length: 20 }, (_, i) => 1150 + 3000 + 50 * (i + 1))];
    expect(frames).toHaveLength(43);
    expect(settle((_f, i) => rawTimes[i]).map(bits)).toEqual([BEFORE, LIFTED, AFTER]);

    // The link's clock cut the silence out: only real positions settle.
    expect(settle((f) => f.receivedAt).map(bits)).toEqual([BEFORE, AFTER]);
    expect(board.stats().gapsCut).toBe(1);
  });
});
