// The square-board sketch as flashed: compiled with Debian's avr toolchain, run in avr8js at 16 MHz with an emulated 74HC165 chain and WS2812 strip, heard through the real bridge and refereed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { GridTable, formatLine, type GridMessage } from '../../firmware-bridge/index.ts';
import { Scheduler } from '../../firmware-bridge/sim/clock.ts';
import { MalawiReferee } from '../../server/referee/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/malawi.ts';
import { malawiBoardSetup, planMalawiGame } from '../../server/simulate/index.ts';
import type { RunStats } from './board.ts';
import { firmwareFor, speedReport } from './firmware.ts';
import { SquareRig } from './square-rig.ts';

const small = firmwareFor('square-board');
const large = firmwareFor('square-board-13x13');
const rigs: SquareRig[] = [];
const speeds: RunStats[] = [];

beforeAll(async () => {
  await small.build();
  await large.build();
});

afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    speeds.push(rig.board.stats());
    await rig.board.close();
  }
});

afterAll(() => {
  console.log(`square-board: ${small.summary()}\nsquare-board: ${large.summary()}\n${speedReport('square-board', speeds)}`);
});

function rig(size: 6 | 13 = 6): SquareRig {
  const r = new SquareRig((size === 6 ? small : large).get().hex, { cols: size, rows: size });
  rigs.push(r);
  return r;
}

function frames(r: SquareRig): GridMessage[] {
  const got: GridMessage[] = [];
  r.board.link.on('grid', (g) => got.push(g));
  return got;
}

const NO_DROPS = { checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 };

describe('square-board firmware in an emulated Uno', () => {
  test('both sizes compile for the Uno within its 32 KB of flash and 2 KB of RAM', () => {
    for (const fw of [small.get(), large.get()]) {
      expect(fw.flashBytes).toBeLessThanOrEqual(32256);
      expect(fw.ramBytes).toBeLessThan(1536);
    }
    // 169 LEDs need 507 bytes of colour, and the 13 × 13 board has them.
    expect(large.get().ramBytes - small.get().ramBytes).toBeGreaterThanOrEqual((169 - 36) * 3);
  });

  test('boot: HELLO, G frames at 20 per second with one hex digit per four squares, a heartbeat every second', async () => {
    const r = rig();
    r.setOccupied([0, 5, 30, 35]);
    const got = frames(r);
    const beats: number[] = [];
    r.board.link.on('heartbeat', (hb) => beats.push(hb.uptimeMs));
    await r.board.run(2100);
    expect(r.board.sent[0].text).toMatch(/^HELLO /);
    expect(r.board.link.hello).toMatchObject({ proto: 1, board: 'grid', cols: 6, rows: 6, sense: 'occupancy', fw: 'spieltisch-squares/1.0' });
    expect(r.board.link.hello?.id).toMatch(/^[0-9A-F]{8}$/);
    // Switches as they are at power-on, in the first frame already.
    expect(got[0].occupancy).toBe(r.expected([0, 5, 30, 35]));
    expect(r.board.sent.find((l) => l.text.startsWith('G '))?.text).toMatch(/^G 0 [0-9A-F]{9}\*[0-9A-F]{2}$/);
    const inSecond = got.filter((g) => g.receivedAt >= 1000 && g.receivedAt < 2000).length;
    expect(inSecond).toBeGreaterThanOrEqual(19);
    expect(inSecond).toBeLessThanOrEqual(21);
    expect(got.map((g) => g.seq)).toEqual(got.map((_, i) => i));
    expect(beats).toHaveLength(2);
    expect(beats[1] - beats[0]).toBe(1000);
    expect(r.board.link.stats().dropped).toEqual(NO_DROPS);
  });

  test('a piece put down is in the next frame, sent at once even at one frame per second; lifted, it is gone', async () => {
    const r = rig();
    await r.board.run(100);
    await r.board.request({ kind: 'rate', hz: 1 });
    const got = frames(r);
    await r.board.run(1200);
    const putAt = r.board.ms;
    r.place(14);
    await r.board.runUntil(() => got.at(-1)?.occupancy === r.expected([14]), 200);
    // Debounced over four reads 4 ms apart: there within about 20 ms, not at the next scheduled frame.
    expect((got.at(-1) as GridMessage).receivedAt - putAt).toBeLessThan(25);
    r.lift(14);
    r.place(21);
    await r.board.run(50);
    expect(got.at(-1)?.occupancy).toBe(r.expected([21]));
  });

  test('debouncing: a bouncing switch makes one change, a flicker shorter than four reads makes none', async () => {
    const r = rig();
    const got = frames(r);
    await r.board.run(100);
    // Contacts bouncing for 3 ms as the piece lands.
    r.bounce(8, true, 6, 0.5);
    await r.board.run(100);
    expect(new Set(got.map((g) => g.occupancy))).toEqual(new Set([0n, r.expected([8])]));
    expect(got.filter((g, i) => i > 0 && g.occupancy !== got[i - 1].occupancy)).toHaveLength(1);
    // A magnet passing by closes the switch for 6 ms: not a piece.
    const before = got.length;
    r.place(9);
    r.uno.after(6 * 16_000, () => r.lift(9));
    await r.board.run(100);
    expect(got.slice(before).every((g) => g.occupancy === r.expected([8]))).toBe(true);
  });

  test('LED lights the square asked for: the strip gets the right pixel, in datasheet timing', async () => {
    const r = rig();
    await r.board.run(100);
    // Dark at boot: the LEDs keep their colours through an Arduino reset.
    expect(r.strip.shown().every(([red, g, b]) => red + g + b === 0)).toBe(true);
    expect(r.strip.frames.length).toBe(1);
    expect((await r.board.request({ kind: 'led', cell: 7, color: 'ff8000' })).command).toBe('LED 7 ff8000');
    await r.board.run(20);
    const lit = r.strip.shown();
    // Square 7 is b2; rank 2 runs back along the strip, so it is pixel 10.
    expect(r.pixelOf(7)).toBe(10);
    expect(lit[10]).toEqual([255, 128, 0]);
    expect(lit.filter(([red, g, b]) => red + g + b > 0)).toHaveLength(1);
    await r.board.request('LED 35 0000FF');
    await r.board.run(20);
    expect(r.strip.shown()[r.pixelOf(35)]).toEqual([0, 0, 255]);
    await r.board.request({ kind: 'led', cell: 7, color: 'off' });
    await r.board.run(20);
    expect(r.strip.shown()[10]).toEqual([0, 0, 0]);
    await r.board.request({ kind: 'leds-off' });
    await r.board.run(20);
    expect(r.strip.shown().every(([red, g, b]) => red + g + b === 0)).toBe(true);
    await expect(r.board.request('LED 36 ff0000')).rejects.toThrow('ERR range cell must be 0-35');
    await expect(r.board.request('LED 3 red')).rejects.toThrow('ERR syntax LED 3 red');
    await expect(r.board.request('LEDS on')).rejects.toThrow('ERR syntax LEDS on');
    expect(r.strip.badHighs).toBe(0);
    expect(r.strip.longGaps).toBe(0);
    expect(r.strip.narrowest.zero).toBeGreaterThanOrEqual(0.25);
    expect(r.strip.widest.zero).toBeLessThanOrEqual(0.55);
    expect(r.strip.narrowest.one).toBeGreaterThanOrEqual(0.65);
    expect(r.strip.widest.one).toBeLessThanOrEqual(0.95);
  });

  test('other commands: RATE, TARE refused, HELLO?, bad lines answered with ERR', async () => {
    const r = rig();
    await r.board.run(100);
    await r.board.request('RATE 10');
    const got = frames(r);
    await r.board.run(1000);
    expect(got.length).toBeGreaterThanOrEqual(9);
    expect(got.length).toBeLessThanOrEqual(11);
    await expect(r.board.request('RATE 0')).rejects.toThrow('ERR range rate must be 1-50');
    await expect(r.board.request('TARE')).rejects.toThrow('ERR unsupported no load cells on this board');
    await expect(r.board.request('PING')).rejects.toThrow('ERR unknown PING');
    const since = r.board.ms;
    r.uno.send('LEDS off*00\n');
    r.uno.send(`G ${'0'.repeat(400)}\n`);
    await r.board.run(50);
    expect(r.board.linesSince(since).filter((l) => l.startsWith('ERR'))).toEqual([
      formatLine('ERR checksum line dropped').trimEnd(),
      formatLine('ERR overlong line dropped').trimEnd(),
    ]);
    const hellos = r.board.link.stats().hellos;
    r.board.link.send({ kind: 'hello' });
    await r.board.runUntil(() => r.board.link.stats().hellos > hellos, 100);
    expect(r.board.link.stats().hellos).toBe(hellos + 1);
    expect(r.board.link.stats().dropped).toEqual(NO_DROPS);
  });

  test('buttons: a press, bouncing, is one BTN line; letting go is none', async () => {
    const r = rig();
    await r.board.run(100);
    const buttons: string[] = [];
    r.board.link.on('button', (b) => buttons.push(b.name));
    r.press('undo', 80);
    await r.board.run(200);
    r.press('ok', 40);
    await r.board.run(200);
    expect(buttons).toEqual(['undo', 'ok']);
  });

  test('a broken chain is reported; the board recovers when it is back', async () => {
    const r = rig();
    await r.board.run(100);
    const errors: string[] = [];
    r.board.link.on('error', (e) => errors.push(`${e.code} ${e.text}`));
    r.chain.connected = false;
    await r.board.run(100);
    expect(errors).toEqual(['chain shift registers do not answer']);
    r.chain.connected = true;
    r.place(3);
    const got = frames(r);
    await r.board.run(100);
    expect(got.at(-1)?.occupancy).toBe(r.expected([3]));
    expect(errors).toHaveLength(1);
  });

  test('13 × 13: 169 squares in 43 hex digits, the last LED lit, a burst of LED commands all answered', async () => {
    const r = rig(13);
    r.setOccupied([0, 84, 168]);
    const got = frames(r);
    await r.board.run(200);
    expect(r.board.link.hello).toMatchObject({ cols: 13, rows: 13, sense: 'occupancy' });
    expect(got.at(-1)?.occupancy).toBe(r.expected([0, 84, 168]));
    expect(r.board.sent.find((l) => l.text.startsWith('G '))?.text).toMatch(/^G \d+ 1[0-9A-F]{42}\*/);
    // Twenty LED commands written at once, as a service lighting a mismatch would.
    const oks: string[] = [];
    r.board.link.on('ok', (ok) => oks.push(ok.command));
    const cells = Array.from({ length: 20 }, (_, i) => 168 - i * 7);
    for (const cell of cells) r.board.link.send({ kind: 'led', cell, color: '20ff40' });
    await r.board.runUntil(() => oks.length === cells.length, 500);
    await r.board.run(30);
    expect(oks).toEqual(cells.map((c) => `LED ${c} 20ff40`));
    const shown = r.strip.shown();
    for (const cell of cells) expect(shown[r.pixelOf(cell)]).toEqual([0x20, 0xff, 0x40]);
    expect(shown.filter(([red, g, b]) => red + g + b > 0)).toHaveLength(cells.length);
    expect(r.strip.badHighs).toBe(0);
    expect(r.strip.longGaps).toBe(0);
    expect(r.board.link.stats().dropped).toEqual(NO_DROPS);
    // Squares still read while and after the strip was fed.
    r.place(100);
    await r.board.run(50);
    expect(got.at(-1)?.occupancy).toBe(r.expected([0, 84, 100, 168]));
    // 169 LEDs' colours, and the stack at its deepest, still left RAM to spare on an Uno.
    expect(r.uno.untouchedRam(large.get().ramBytes)).toBeGreaterThan(512);
  });

  test('the emulator: skipping ahead while the sketch sleeps changes nothing it says, only how fast it runs', async () => {
    const session = async (skipSleep: boolean): Promise<{ texts: string[]; times: number[] }> => {
      const r = rig();
      r.uno.skipSleep = skipSleep;
      await r.board.run(200);
      r.place(7);
      r.board.link.send({ kind: 'rate', hz: 7 });
      r.board.link.send({ kind: 'led', cell: 2, color: '102030' });
      await r.board.run(1100);
      return { texts: r.board.sent.map((l) => l.text), times: r.board.sent.map((l) => l.t) };
    };
    const skipping = await session(true);
    const spinning = await session(false);
    expect(skipping.texts).toEqual(spinning.texts);
    // When a line leaves may move by a scan period (4 ms): a woken sketch and a spinning one notice a change at different reads.
    skipping.times.forEach((t, i) => expect(Math.abs(t - spinning.times[i])).toBeLessThan(5));
  });

  test('end to end: a few Malawi moves on the emulated board reach the real referee as the right moves', async () => {
    // Plain moves only: an occupancy board sees those by itself (captures need the console).
    const rules = DEFAULT_OPTIONS;
    const plan = planMalawiGame({ seed: 3, rules, maxMoves: 4, captureEagerness: 0, distributeProbability: 0 });
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 3, sense: 'occupancy', ...malawiBoardSetup(rules) }, () => {});
    const r = rig();
    const follow = (): void => {
      scheduler.runUntil(r.uno.ms);
      const sensed = table.readAll();
      for (let c = 0; c < sensed.length; c++) r.chain.set(c, sensed[c] === 0);
      r.uno.after(16_000, follow);
    };
    follow();
    const referee = new MalawiReferee(rules);
    const moves: string[] = [];
    const other: string[] = [];
    r.board.link.on('grid', (g) => {
      for (const e of referee.frame(g.receivedAt, { type: 'grid', bits: g.occupancy })) {
        if (e.kind === 'move') moves.push(e.move);
        else if (e.kind !== 'calibrated' && e.kind !== 'cleared') other.push(e.kind);
      }
    });
    let done = false;
    table.perform([{ kind: 'wait', ms: 2000 }, ...plan.actions, { kind: 'wait', ms: 2000 }], () => (done = true));
    expect(await r.board.runUntil(() => done, 60_000)).toBe(true);
    expect(plan.record.length).toBe(4);
    expect(moves).toEqual(plan.record);
    expect(referee.record()).toEqual(plan.record);
    expect(other).toEqual([]);
  }, 60_000);
});
