// The kalaha-table sketch as flashed: compiled with Debian's avr toolchain, run in avr8js at 16 MHz with 14 emulated HX711s, heard through the real bridge and refereed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { KalahaTable, formatLine, type WeightsMessage } from '../../firmware-bridge/index.ts';
import { KalahaReferee } from '../../server/referee/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';
import { planKalahaGame } from '../../server/simulate/index.ts';
import { Scheduler } from '../../firmware-bridge/sim/clock.ts';
import { firmwareFor, speedReport } from './firmware.ts';
import { CELLS, KalahaRig, type KalahaRigOptions } from './kalaha-rig.ts';
import type { RunStats } from './board.ts';

const kalahaTable = firmwareFor('kalaha-table');
const rigs: KalahaRig[] = [];
const speeds: RunStats[] = [];

beforeAll(() => kalahaTable.build());

afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    speeds.push(rig.board.stats());
    await rig.board.close();
  }
});

afterAll(() => {
  console.log(`kalaha-table: ${kalahaTable.summary()}\n${speedReport('kalaha-table', speeds)}`);
});

function rig(options: KalahaRigOptions = {}): KalahaRig {
  const r = new KalahaRig(kalahaTable.get().hex, options);
  rigs.push(r);
  return r;
}

/** Every W frame from now on. */
function frames(r: KalahaRig): WeightsMessage[] {
  const got: WeightsMessage[] = [];
  r.board.link.on('weights', (w) => got.push(w));
  return got;
}

/** Boots a table with an empty EEPROM and nothing on it, so it zeroes itself; returns its EEPROM once written. */
async function taredEeprom(options: KalahaRigOptions = {}): Promise<Uint8Array> {
  const r = rig(options);
  await r.board.run(1000);
  return r.uno.eeprom.memory.slice();
}

const pits = (grams: number): number[] => Array.from({ length: CELLS }, (_, c) => (c < 12 ? grams : 0));

describe('kalaha-table firmware in an emulated Uno', () => {
  test('it compiles for the Uno within its 32 KB of flash and 2 KB of RAM', () => {
    const firmware = kalahaTable.get();
    expect(firmware.flashBytes).toBeGreaterThan(1000);
    expect(firmware.flashBytes).toBeLessThanOrEqual(32256);
    // The stack needs room too: keep a quarter of the RAM free.
    expect(firmware.ramBytes).toBeLessThan(1536);
  });

  test('boot: HELLO, W frames at 20 per second, a heartbeat every second, every line checked', async () => {
    const r = rig();
    const hellos: unknown[] = [];
    r.board.link.on('hello', (h) => hellos.push(h));
    const got = frames(r);
    const beats: number[] = [];
    r.board.link.on('heartbeat', (hb) => beats.push(hb.uptimeMs));
    await r.board.run(3200);

    expect(hellos).toHaveLength(1);
    expect(r.board.link.hello).toMatchObject({ proto: 1, board: 'kalaha', cells: 14, fw: 'spieltisch-kalaha/1.0' });
    expect(r.board.link.hello?.id).toMatch(/^[0-9A-F]{8}$/);
    expect(r.board.sent[0].text).toMatch(/^HELLO /);
    // An empty table that zeroed itself at its first power-on reads zero.
    expect(got.at(-1)?.cells).toEqual(new Array(CELLS).fill(0));
    const inSecond = got.filter((w) => w.receivedAt >= 2000 && w.receivedAt < 3000).length;
    expect(inSecond).toBeGreaterThanOrEqual(19);
    expect(inSecond).toBeLessThanOrEqual(21);
    expect(got.map((w) => w.seq)).toEqual(got.map((_, i) => i));
    expect(beats).toHaveLength(3);
    // Once a second, and the uptime is the emulated clock's (millis() keeps time).
    expect(beats[1] - beats[0]).toBe(1000);
    expect(beats[2] - beats[1]).toBe(1000);
    const hbLines = r.board.sent.filter((l) => l.text.startsWith('HB '));
    // The line leaves a few ms after its uptime was read: a frame may be in the serial buffer before it.
    hbLines.forEach((l, i) => expect(l.t - beats[i]).toBeGreaterThanOrEqual(0));
    hbLines.forEach((l, i) => expect(l.t - beats[i]).toBeLessThan(10));
    const stats = r.board.link.stats();
    expect(stats.dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
    expect(stats.lost).toEqual({ weights: 0, grid: 0, counts: 0, heartbeat: 0 });
  });

  test('the amplifiers are read by the datasheet: 25 pulses (gain 128), SCK never high for 50 us, never clocked while busy', async () => {
    const r = rig();
    await r.board.run(1000);
    for (const amp of r.amplifiers) {
      expect(amp.reads).toBeGreaterThan(70);
      expect(amp.gain).toBe(128);
      expect(amp.pulsesWhileBusy).toBe(0);
      // The one power-down is the reset pulse at boot.
      expect(amp.powerDowns).toBe(1);
      expect(amp.longestPulseUs).toBeLessThan(50);
    }
  });

  test('stones on the cells: each frame reads their weight in tenths of a gram', async () => {
    const r = rig({ eeprom: await taredEeprom() });
    const got = frames(r);
    const grams = [13.6, 20.2, 3.4, 0, 5, 41.7, 9.9, 17, 2.2, 0, 14.5, 1.3, 33.3, 0];
    r.load(grams);
    await r.board.run(600);
    const last = got.at(-1)?.cells ?? [];
    last.forEach((tenths, c) => expect(Math.abs(tenths - grams[c] * 10)).toBeLessThanOrEqual(1));
  });

  test('a frame goes out at once on change, even at one frame per second', async () => {
    const r = rig({ eeprom: await taredEeprom() });
    await r.board.run(200);
    expect((await r.board.request({ kind: 'rate', hz: 1 })).command).toBe('RATE 1');
    const got = frames(r);
    await r.board.run(2500);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got.length).toBeLessThanOrEqual(3);
    const dropAt = r.board.ms;
    r.load(pits(0).map((g, c) => (c === 4 ? 3.5 : g)));
    await r.board.runUntil(() => (got.at(-1)?.cells[4] ?? 0) > 30, 1000);
    // Within a few samples (80 per second), not at the next scheduled frame a second later.
    expect((got.at(-1) as WeightsMessage).receivedAt - dropAt).toBeLessThan(80);
  });

  test('RATE sets the frame rate; out of range or malformed, it is refused', async () => {
    const r = rig();
    await r.board.run(200);
    await r.board.request('RATE 5');
    const got = frames(r);
    await r.board.run(2000);
    expect(got.length).toBeGreaterThanOrEqual(9);
    expect(got.length).toBeLessThanOrEqual(11);
    await r.board.request('RATE 50');
    const fast = frames(r);
    await r.board.run(1000);
    expect(fast.length).toBeGreaterThanOrEqual(48);
    await expect(r.board.request('RATE 0')).rejects.toThrow('ERR range rate must be 1-50');
    await expect(r.board.request('RATE 51')).rejects.toThrow('ERR range rate must be 1-50');
    await expect(r.board.request('RATE fast')).rejects.toThrow('ERR syntax RATE fast');
    await expect(r.board.request('RATE 1000000')).rejects.toThrow('ERR syntax RATE 1000000');
  });

  test('TARE zeroes every cell, TARE <cell> one; the zero survives a power cycle', async () => {
    const r = rig({ eeprom: await taredEeprom() });
    const got = frames(r);
    r.load(pits(12));
    await r.board.run(300);
    expect(got.at(-1)?.cells[0]).toBeCloseTo(120, -1);
    await r.board.request({ kind: 'tare', cell: 3 });
    await r.board.run(200);
    expect(got.at(-1)?.cells.slice(0, 5)).toEqual([120, 120, 120, 0, 120]);
    await r.board.request({ kind: 'tare' });
    await r.board.run(200);
    expect(got.at(-1)?.cells).toEqual(new Array(CELLS).fill(0));
    await expect(r.board.request('TARE 14')).rejects.toThrow('ERR range cell must be 0-13');
    // Writing EEPROM takes a while in the background; then switch off, take the stones away, switch on:
    // the zero is the one with the stones, so the empty pits read their weight less.
    await r.board.run(800);
    expect(Buffer.from(r.uno.eeprom.memory.subarray(0, 4)).toString('latin1')).toBe('SPK1');
    const again = rig({ eeprom: r.uno.eeprom.memory.slice() });
    const after = frames(again);
    await again.board.run(400);
    expect(after[0].cells).toEqual(pits(-120));
    expect(again.board.link.hello?.id).toBe(r.board.link.hello?.id);
  });

  test('CAL <cell> <tenths> scales a cell by a known weight; a cell that feels nothing refuses', async () => {
    // Load cells differ: these give 1800 and 2600 counts per gram, not the 2147 the sketch assumes.
    const countsPerGram = Array.from({ length: CELLS }, (_, c) => (c % 2 === 0 ? 1800 : 2600));
    const r = rig({ eeprom: await taredEeprom({ countsPerGram }), countsPerGram });
    const got = frames(r);
    const load = pits(0);
    load[5] = 100;
    r.load(load);
    await r.board.run(300);
    expect(got.at(-1)?.cells[5]).toBeCloseTo(1211, -1); // 100 g * 2600 / 2147
    await r.board.request('CAL 5 1000');
    await r.board.run(100);
    expect(got.at(-1)?.cells[5]).toBe(1000);
    load[5] = 7.5;
    r.load(load);
    await r.board.run(300);
    expect(got.at(-1)?.cells[5]).toBe(75);
    await expect(r.board.request('CAL 6 1000')).rejects.toThrow('ERR cal cell 6 does not feel the weight');
    await expect(r.board.request('CAL 14 1000')).rejects.toThrow('ERR range cell must be 0-13');
    await expect(r.board.request('CAL 5')).rejects.toThrow('ERR syntax CAL 5');
  });

  test('fourteen TARE <cell> written at once (a setup page zeroing cell by cell) are all answered, in order', async () => {
    const r = rig();
    await r.board.run(200);
    const oks: string[] = [];
    r.board.link.on('ok', (ok) => oks.push(ok.command));
    for (let c = 0; c < CELLS; c++) r.board.link.send({ kind: 'tare', cell: c });
    await r.board.runUntil(() => oks.length === CELLS, 500);
    expect(oks).toEqual(Array.from({ length: CELLS }, (_, c) => `TARE ${c}`));
    expect(r.board.sent.filter((l) => l.text.startsWith('ERR'))).toEqual([]);
  });

  test('lines it cannot take are answered with ERR, and the board goes on', async () => {
    const r = rig();
    await r.board.run(200);
    const since = r.board.ms;
    r.uno.send('TARE*00\n');
    r.uno.send('RATE 5\n');
    r.uno.send(`${'X'.repeat(300)}\n`);
    r.uno.send('TA\u00ffRE*00\n');
    r.uno.send('\r\n');
    await r.board.run(100);
    await expect(r.board.request('FOO bar')).rejects.toThrow('ERR unknown FOO');
    await expect(r.board.request('LED 3 ff0000')).rejects.toThrow('ERR unsupported no LEDs on this table');
    await expect(r.board.request('LEDS off')).rejects.toThrow('ERR unsupported no LEDs on this table');
    await expect(r.board.request('TARE 1 2')).rejects.toThrow('ERR syntax TARE 1 2');
    const errors = r.board.linesSince(since).filter((l) => l.startsWith('ERR'));
    const line = (body: string): string => formatLine(body).trimEnd();
    expect(errors.slice(0, 4)).toEqual([
      line('ERR checksum line dropped'),
      line('ERR checksum line dropped'),
      line('ERR overlong line dropped'),
      line('ERR non-ascii line dropped'),
    ]);
    // HELLO? is answered with HELLO, not OK.
    const hellos = r.board.link.stats().hellos;
    r.board.link.send({ kind: 'hello' });
    await r.board.runUntil(() => r.board.link.stats().hellos > hellos, 100);
    expect(r.board.link.stats().hellos).toBe(hellos + 1);
    expect(r.board.link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });

  test('an amplifier that stops answering is reported and reads 0; the other cells go on at full rate', async () => {
    const r = rig({ eeprom: await taredEeprom() });
    r.load(pits(10));
    await r.board.run(300);
    const errors: string[] = [];
    r.board.link.on('error', (e) => errors.push(`${e.code} ${e.text}`));
    const got = frames(r);
    const readsBefore = r.amplifiers[6].reads;
    r.amplifiers[7].dead = true;
    await r.board.run(1500);
    expect(errors).toEqual(['hx711 cell 7 not ready']);
    const last = got.at(-1)?.cells ?? [];
    expect(last[7]).toBe(0);
    expect(last[6]).toBeCloseTo(100, -1);
    const late = got.filter((w) => w.receivedAt > got[0].receivedAt + 500);
    expect(late.length).toBeGreaterThanOrEqual(19);
    // 80 samples a second, less the one wait of 150 ms before cell 7 was given up.
    expect(r.amplifiers[6].reads - readsBefore).toBeGreaterThan(100);
    // It recovers by itself.
    r.amplifiers[7].dead = false;
    await r.board.run(300);
    expect(got.at(-1)?.cells[7]).toBeCloseTo(100, -1);
  });

  test('end to end: a few Kalaha moves sown by hand on the emulated table reach the real referee as the right moves', async () => {
    const plan = planKalahaGame({ seed: 5, rules: DEFAULT_OPTIONS, maxMoves: 4 });
    // The physical table: stones of real weights moved by a simulated hand; the sketch weighs them.
    const scheduler = new Scheduler();
    // Players who think briefly: the emulated seconds are what this test costs.
    const hand = { thinkMs: [500, 900] as const, pauseProbability: 0 };
    const table = new KalahaTable(scheduler, { seed: 5, stoneSet: 'mixed', hand }, () => {});
    const r = rig({ eeprom: await taredEeprom(), noiseCounts: 200, seed: 9 });
    r.load(table.cellGrams());
    const follow = (): void => {
      scheduler.runUntil(r.uno.ms);
      r.load(table.cellGrams());
      r.uno.after(4 * 16_000, follow);
    };
    r.uno.after(4 * 16_000, follow);
    const referee = new KalahaReferee(DEFAULT_OPTIONS);
    const moves: string[] = [];
    r.board.link.on('weights', (w) => {
      for (const e of referee.frame(w.receivedAt, w.cells)) if (e.kind === 'move') moves.push(e.move);
    });
    let done = false;
    // The referee calibrates on the first 40 frames (two seconds) of the starting position.
    table.perform([{ kind: 'wait', ms: 2500 }, ...plan.actions, { kind: 'wait', ms: 1500 }], () => (done = true));
    expect(await r.board.runUntil(() => done, 60_000)).toBe(true);
    expect(plan.record.length).toBe(4);
    expect(moves).toEqual(plan.record);
    expect(referee.record()).toEqual(plan.record);
    expect(r.board.link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
    // The deepest the stack went in a whole game still left RAM to spare on an Uno.
    expect(r.uno.untouchedRam(kalahaTable.get().ramBytes)).toBeGreaterThan(512);
  }, 60_000);
});
