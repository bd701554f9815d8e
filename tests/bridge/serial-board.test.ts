// Tests of the serial link's parts: backoff, the gapless clock, the port relay, the frame limit, autodetection, and SerialBoard's reconnects and watchdog over MockBinding.
import { afterEach, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import {
  BoardLink,
  DEFAULT_BACKOFF,
  GaplessClock,
  NoBoardError,
  PortRelay,
  STEP_ACROSS_GAP_MS,
  SerialBoard,
  WrongBoardError,
  backoffDelay,
  candidates,
  findBoard,
  formatLine,
  openMockPair,
  type LinkState,
  type SerialBoardOptions,
  type WeightsMessage,
} from '../../firmware-bridge/index.ts';
import { MockCable, machine } from './mock-cable.ts';

const HELLO = 'HELLO proto=1 fw=test/1 board=kalaha id=K1 cells=14';
const W = (seq: number, base = 0): string => `W ${seq} ${Array.from({ length: 14 }, (_, i) => base + i).join(' ')}`;

/** Resolves when `cond` holds, checking every few ms (for events that arrive through real streams). */
async function until(cond: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('backoff', () => {
  test('doubles from 0.5 s and stays at 10 s', () => {
    expect(Array.from({ length: 8 }, (_, i) => backoffDelay(i))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(backoffDelay(1000, DEFAULT_BACKOFF)).toBe(10_000);
  });
});

describe('GaplessClock', () => {
  test('passes ordinary steps through and cuts a silence down to one frame period', () => {
    const clock = new GaplessClock(1500);
    expect([0, 50, 100, 1100].map((t) => clock.at(t))).toEqual([0, 50, 100, 1100]);
    // 1100 → 4100 is a 3 s silence: it counts as one frame period.
    expect(clock.at(4100)).toBe(1100 + STEP_ACROSS_GAP_MS);
    expect(clock.at(4150)).toBe(1150 + STEP_ACROSS_GAP_MS);
    expect(clock.gaps).toBe(1);
  });

  test('cut() makes the next step a gap however short, and the clock never goes back', () => {
    const clock = new GaplessClock(1500);
    clock.at(1000);
    clock.cut();
    expect(clock.at(1800)).toBe(1000 + STEP_ACROSS_GAP_MS);
    expect(clock.at(1700)).toBe(1000 + STEP_ACROSS_GAP_MS);
    expect(clock.at(1750)).toBe(1100);
    // A cut before a short step takes nothing away.
    clock.cut();
    expect(clock.at(1770)).toBe(1120);
  });
});

describe('PortRelay', () => {
  test('reads the attached port, drops writes while none is attached, and cuts a partial line at detach', async () => {
    const lost: unknown[] = [];
    const relay = new PortRelay((port) => lost.push(port));
    const link = new BoardLink(relay);
    const frames: WeightsMessage[] = [];
    link.on('weights', (w) => frames.push(w));

    expect(link.send({ kind: 'hello' })).toBe(true);
    const a = new PassThrough();
    relay.attach(a);
    const full = formatLine(W(1));
    a.write(full + full.slice(0, 20)); // a whole frame, then a frame cut off by the pull
    await until(() => frames.length === 1, 'first frame');
    relay.detach();

    // The next port starts with the tail of some line, then a whole frame: the cut-off start must
    // not join the tail, and the tail alone is dropped.
    const b = new PassThrough();
    relay.attach(b, formatLine(HELLO));
    b.write(full.slice(20) + formatLine(W(2, 100)));
    await until(() => frames.length === 2, 'frame after the new port');
    expect(frames.map((f) => f.seq)).toEqual([1, 2]);
    expect(link.stats().dropped.checksum + link.stats().unknownType).toBeGreaterThanOrEqual(1);
    expect(link.stats().hellos).toBe(1);
    expect(relay.writesLost).toBe(1);

    b.destroy();
    await until(() => lost.length === 1, 'port lost');
    expect(lost[0]).toBe(b);
    expect(relay.attached).toBeNull();
    await link.close();
  });
});

describe('frame limit', () => {
  test('passes bursts, limits a sustained flood, and counts what it held back', async () => {
    let now = 0;
    const { link, board } = await openMockPair(undefined, { now: () => now, frameLimit: { perSecond: 100, burst: 10 } });
    let passed = 0;
    link.on('weights', () => passed++);
    // 1,000 frames in one second of the frames' clock, a millisecond apart.
    for (let i = 0; i < 1000; i++) {
      now = i;
      board.emit(formatLine(W(i)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => passed + link.stats().framesThinned === 1000, 'all frames judged');
    // The burst, then one every 10 ms.
    expect(passed).toBeGreaterThanOrEqual(100);
    expect(passed).toBeLessThanOrEqual(111);
    expect(link.stats().framesThinned).toBe(1000 - passed);
    await link.close();
  });

  test('a lawful board at 50 frames a second with frames arriving in pairs loses none', async () => {
    let now = 0;
    const { link, board } = await openMockPair(undefined, { now: () => now, frameLimit: { perSecond: 100, burst: 10 } });
    let passed = 0;
    link.on('weights', () => passed++);
    for (let i = 0; i < 200; i += 2) {
      now = i * 20;
      board.emit(formatLine(W(i)) + formatLine(W(i + 1)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => passed + link.stats().framesThinned === 200, 'all frames judged');
    expect(link.stats().framesThinned).toBe(0);
    await link.close();
  });
});

describe('autodetection', () => {
  test('candidates: Arduino vendor ids first, then USB serial names; other ports never', () => {
    const listed = [
      { path: '/dev/ttyS0', manufacturer: undefined, vendorId: undefined, likelyBoard: false },
      { path: '/dev/ttyUSB0', manufacturer: 'Prolific', vendorId: '067b', likelyBoard: false },
      { path: '/dev/ttyACM1', manufacturer: 'Arduino', vendorId: '2341', likelyBoard: true },
    ];
    expect(candidates(listed).map((p) => p.path)).toEqual(['/dev/ttyACM1', '/dev/ttyUSB0']);
  });

  test('finds the board of the wanted kind among a silent port and a board of another kind, and closes the others', async () => {
    const silent = new MockCable(HELLO);
    silent.answering = false;
    const grid = new MockCable('HELLO proto=1 fw=test/1 board=grid id=G1 cols=6 rows=6 sense=occupancy', '1a86');
    const kalaha = new MockCable(HELLO, '2a03');
    const found = await findBoard(machine(silent, grid, kalaha), { board: 'kalaha' }, { timeoutMs: 300, retryMs: 50 });
    expect(found.path).toBe(kalaha.path);
    expect(found.hello.id).toBe('K1');
    expect(found.helloLine).toBe(formatLine(HELLO).trimEnd());
    expect(silent.board).toBeNull();
    expect(grid.board).toBeNull();
    expect(kalaha.board).not.toBeNull();
    found.port.destroy();
  });

  test('says what each port answered when none has the board', async () => {
    const grid = new MockCable('HELLO proto=1 fw=test/1 board=grid id=G1 cols=6 rows=6 sense=occupancy');
    const err = await findBoard(machine(grid), { board: 'kalaha' }, { timeoutMs: 300, retryMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoBoardError);
    expect((err as NoBoardError).tried).toHaveLength(1);
    expect((err as Error).message).toMatch(/a grid board \(id G1\) answered; a kalaha board is wanted/);
    const none = await findBoard(machine(), {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect((none as Error).message).toMatch(/no serial ports at all.*--port/);
  });
});

describe('SerialBoard', () => {
  const open: SerialBoard[] = [];
  afterEach(async () => {
    for (const b of open.splice(0)) await b.close();
  });

  const FAST: Partial<SerialBoardOptions> = {
    handshake: { timeoutMs: 300, retryMs: 50 },
    backoff: { initialMs: 20, maxMs: 80 },
    watchdogMs: 150,
  };

  async function start(cable: MockCable, options: Partial<SerialBoardOptions> = {}) {
    const board = await SerialBoard.open({ ports: cable, board: 'kalaha', ...FAST, ...options });
    open.push(board);
    const states: LinkState[] = [];
    board.on('state', (s) => states.push(s));
    const frames: WeightsMessage[] = [];
    board.link.on('weights', (w) => frames.push(w));
    return { board, states, frames };
  }

  test('opens the board by autodetection, refuses a board of another kind by name', async () => {
    const cable = new MockCable(HELLO);
    const { board } = await start(cable);
    expect(board.path).toBe(cable.path);
    expect(board.hello.id).toBe('K1');
    // The HELLO the handshake heard reaches the link too.
    await until(() => board.link.hello !== null, 'HELLO on the link');
    expect(board.link.hello?.id).toBe('K1');
    const err = await SerialBoard.open({ ports: cable, path: cable.path, board: 'grid', ...FAST }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WrongBoardError);
  });

  test('watchdog: silence makes it not-responding, a heartbeat makes it live again', async () => {
    const cable = new MockCable(HELLO);
    const { board, states } = await start(cable);
    cable.send(W(0), 'HB 0 1000');
    await until(() => states.includes('not-responding'), 'not-responding');
    // Garbage is not the board responding.
    cable.board!.emit('\xff\xfe\x00 noise\n');
    cable.send('X unknown line');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(board.state).toBe('not-responding');
    cable.send('HB 1 2000');
    await until(() => board.state === 'live', 'live again');
    expect(states).toEqual(['not-responding', 'live']);
    expect(board.stats().watchdogTrips).toBe(1);
  });

  test('a port that stays silent long after the watchdog is closed and opened again', async () => {
    const cable = new MockCable(HELLO);
    const { board, states, frames } = await start(cable, { watchdogMs: 60, reopenAfterMs: 200 });
    await until(() => board.stats().reconnects === 1, 'opened again');
    expect(states.slice(0, 2)).toEqual(['not-responding', 'reconnecting']);
    expect(cable.opens).toBe(2);
    cable.send(W(0));
    await until(() => frames.length === 1, 'a frame on the new port');
    expect(board.state).toBe('live');
  });

  test('a pulled cable: reconnecting, tries with growing waits, and the same link carries on when the board is back', async () => {
    const cable = new MockCable(HELLO);
    const { board, states, frames } = await start(cable, { path: undefined });
    const retries: number[] = [];
    board.on('retry', (_e, _attempt, delay) => retries.push(delay));
    const reconnected: string[] = [];
    board.on('reconnected', (hello, path) => reconnected.push(`${hello.id}@${path}`));

    cable.send(W(0), W(1, 10));
    await until(() => frames.length === 2, 'two frames');
    await cable.pull();
    await until(() => retries.length >= 3, 'three failed tries');
    expect(board.state).toBe('reconnecting');
    expect(retries.slice(0, 3)).toEqual([40, 80, 80]);
    // A command sent down the pulled cable is lost, not queued for later.
    board.link.send({ kind: 'tare' });
    expect(board.stats().writesLost).toBe(1);

    cable.plug();
    await until(() => reconnected.length === 1, 'reconnected');
    expect(reconnected).toEqual([`K1@${cable.path}`]);
    // Still reconnecting until the board is heard: its HELLO alone is not a frame.
    expect(board.state).toBe('reconnecting');
    cable.send(W(0, 20));
    await until(() => frames.length === 3, 'frame after the reconnect');
    expect(board.state).toBe('live');
    expect(states).toEqual(['reconnecting', 'live']);
    // The board restarted with the plug: its seq starting again is neither a loss nor a step back.
    expect(board.stats()).toMatchObject({ reconnects: 1, hellos: 2, seqBackwards: 0, lost: { weights: 0 } });
    expect(board.link.isClosed).toBe(false);
  });

  test('after a pull only the same board is taken back; another board on the port is refused', async () => {
    const cable = new MockCable(HELLO);
    const { board, frames } = await start(cable, { path: undefined });
    const errors: Error[] = [];
    const refused: string[] = [];
    board.on('retry', (e) => errors.push(e));
    board.on('refused', (why) => refused.push(why));
    await cable.pull();
    expect(board.state).toBe('reconnecting');
    cable.hello = 'HELLO proto=1 fw=test/1 board=kalaha id=OTHER cells=14';
    cable.plug();
    await until(() => errors.some((e) => /OTHER/.test(e.message)), 'refusal');
    expect(errors.find((e) => /OTHER/.test(e.message))?.message).toMatch(/board OTHER answered; board K1 was playing/);
    // Told apart from a pulled cable, and told once however often the retry meets the same board.
    expect(board.state).toBe('wrong-board');
    await until(() => errors.filter((e) => /OTHER/.test(e.message)).length >= 2, 'a second refusal');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/board OTHER answered; board K1 was playing/);
    // The other board's frames never reach the link.
    cable.send(W(5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(frames).toHaveLength(0);

    cable.hello = HELLO;
    await until(() => board.stats().reconnects === 1, 'the right board back');
    expect(board.state).not.toBe('wrong-board');
    cable.send(W(6));
    await until(() => frames.length === 1, 'its frame');
    expect(frames[0].seq).toBe(6);
  });

  test('frames a port sends before its HELLO do not reach the game', async () => {
    const cable = new MockCable(HELLO);
    const { board, frames } = await start(cable);
    await cable.pull();
    cable.answering = false;
    cable.plug();
    await until(() => cable.board !== null, 'the service opened the port again');
    cable.send(W(9, 90));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(frames).toHaveLength(0);
    cable.board!.emit(formatLine(HELLO));
    await until(() => board.stats().reconnects === 1, 'reconnected');
    cable.send(W(0));
    await until(() => frames.length === 1, 'a frame');
    expect(frames.map((f) => f.seq)).toEqual([0]);
  });

  test('late answers to repeated HELLO?s are not taken for a restart; a HELLO with frames from 0 again is', async () => {
    const cable = new MockCable(HELLO);
    cable.replyDelayMs = 120; // the handshake asks every 50 ms: several HELLO?s go out
    const { board, frames } = await start(cable);
    const reboots: string[] = [];
    board.on('rebooted', (h) => reboots.push(h.id));
    cable.send(W(40), W(41));
    await until(() => board.stats().hellos >= 3, 'the late answers');
    cable.send(W(42));
    await until(() => frames.length === 3, 'frames after them');
    expect(reboots).toEqual([]);
    cable.send(HELLO, W(0));
    await until(() => reboots.length === 1, 'the restart');
    expect(board.state).toBe('live');
  });

  test('a HELLO from another board on a live port ends that port', async () => {
    const cable = new MockCable(HELLO);
    const { board, states } = await start(cable);
    const refused: string[] = [];
    board.on('refused', (why) => refused.push(why));
    cable.send('HELLO proto=1 fw=test/1 board=kalaha id=K2 cells=14');
    await until(() => board.state === 'wrong-board', 'port dropped');
    expect(states).toEqual(['wrong-board']);
    expect(refused).toEqual([expect.stringMatching(/board K2 answered; board K1 was playing/)]);
  });

  test('close() stops reconnecting and closes the port', async () => {
    const cable = new MockCable(HELLO);
    const { board } = await start(cable);
    await cable.pull();
    await until(() => board.state === 'reconnecting', 'reconnecting');
    await board.close();
    const opens = cable.opens;
    cable.plug();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cable.opens).toBe(opens);
    expect(board.link.isClosed).toBe(true);
  });
});
