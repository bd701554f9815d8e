// The square board's LEDs show the squares a mismatch names, and go dark when it is put right;
// board faults go into the game's log, a spewing board's at most once per code in a while.
import { afterEach, describe, expect, test } from 'vitest';
import { initial, observe } from '../../server/rules/malawi.ts';
import { BoardLeds, MISSING, TOO_MANY, BEADS_DIFFER } from '../../server/table/board-leds.ts';
import type { BoardCommand } from '../../firmware-bridge/index.ts';
import type { Alert, ServerMessage } from '../../server/http/messages.ts';
import { answerCommands, gridHello, rig, type Rig } from './helpers.ts';

const alert = (cells: Alert['cells']): ServerMessage => ({
  type: 'alert',
  stateId: 3,
  alert: { id: 1, level: 'error', code: 'referee/mismatch', message: 'x', params: {}, ...(cells ? { cells } : {}) },
});

describe('BoardLeds', () => {
  const sent: BoardCommand[] = [];
  const leds = new BoardLeds((c) => (sent.push(c), true));
  afterEach(() => {
    sent.length = 0;
  });

  test('lights each named square by what is wrong there, and darkens the board when the alert clears', () => {
    leds.follow(alert([{ cell: 3, diff: 1 }, { cell: 8, diff: -1 }, { cell: 9, diff: 0, beads: 2 }, { cell: 10, diff: 0 }]));
    expect(sent).toEqual([
      { kind: 'led', cell: 3, color: TOO_MANY },
      { kind: 'led', cell: 8, color: MISSING },
      { kind: 'led', cell: 9, color: BEADS_DIFFER },
    ]);
    sent.length = 0;
    leds.follow({ type: 'alert-cleared', stateId: 4, id: 1 });
    expect(sent).toEqual([{ kind: 'leds-off' }]);
    sent.length = 0;
    leds.follow({ type: 'alert-cleared', stateId: 5, id: 1 });
    expect(sent).toEqual([]); // already dark: nothing to send
  });

  test('a new alert darkens the old squares first; an alert without squares lights none', () => {
    leds.follow(alert([{ cell: 1, diff: 1 }]));
    leds.follow(alert(undefined));
    expect(sent).toEqual([{ kind: 'led', cell: 1, color: TOO_MANY }, { kind: 'leds-off' }]);
  });

  test('a board that says it has no LEDs is not asked again', () => {
    const quiet = new BoardLeds((c) => (sent.push(c), true));
    quiet.fault({ type: 'error', code: 'unsupported', text: 'no LEDs on this board', receivedAt: 0 });
    quiet.follow(alert([{ cell: 1, diff: 1 }]));
    expect(sent).toEqual([]);
    expect(quiet.active).toBe(false);
  });
});

describe('a live table on a square board', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  const bitsOf = (cells: readonly number[]): bigint => cells.reduce((bits, on, i) => (on ? bits | (1n << BigInt(i)) : bits), 0n);

  test('a piece lifted and not put back lights its square on the board; putting it back darkens it', async () => {
    r = await rig(gridHello(6, 6), { game: 'malawi' });
    const commands: string[] = [];
    answerCommands(r.pair, (body) => (commands.push(body), `OK ${body}`));
    const start = observe(initial());
    let t = 0;
    const hold = (bits: bigint, ms: number): void => {
      for (const end = t + ms; t < end; t += 50) r!.grid(bits, t);
    };
    hold(bitsOf(start), 4000);
    // A south piece from b1 (cell 1) goes off the board and stays off: no legal move explains it.
    const lifted = [...start];
    lifted[1] = 0;
    hold(bitsOf(lifted), 8000);
    await until(() => commands.some((c) => c.startsWith('LED 1 ')));
    expect(r.heard.some((m) => m.type === 'alert' && m.alert.cells?.some((c) => c.cell === 1))).toBe(true);
    expect(commands).toContain(`LED 1 ${MISSING}`);
    hold(bitsOf(start), 4000);
    await until(() => commands.includes('LEDS off'));
    expect(r.heard.some((m) => m.type === 'alert-cleared')).toBe(true);
  });

  test('board faults go into the game log, one per code in five seconds with the repeats counted', async () => {
    r = await rig(gridHello(6, 6), { game: 'malawi' });
    const start = observe(initial());
    for (let t = 0; t < 4000; t += 50) r.grid(bitsOf(start), t);
    r.table.command(r.table.currentStateId, { kind: 'enter', move: 'a1-a3' }); // opens the game's row
    const gameId = r.table.currentGameId as number;
    const fault = (text: string): void => {
      r!.link.emit('error', { type: 'error', code: 'overlong', text, receivedAt: 0 });
    };
    fault('line 1');
    fault('line 2');
    fault('line 3');
    r.clock.advance(6000);
    fault('line 4');
    const faults = r.log.events(gameId).filter((e) => e.kind === 'fault');
    expect(faults.map((e) => e.payload)).toEqual([
      { code: 'board/overlong', text: 'line 1' },
      { code: 'board/overlong', text: 'line 4', more: 2 },
    ]);
  });
});

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
