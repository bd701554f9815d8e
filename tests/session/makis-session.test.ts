// Tests of the live Makis session: the view the pages draw (MakisView), the odds of the next roll, resets owed, the console's commands (the display's roll above all), resume, and the game log.
import { describe, expect, test } from 'vitest';
import { MakisSession, drawFairRoll, type SessionLog } from '../../server/session/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { FACES, ORDERED_ROLLS, SIZE, initial, play, square, type MakisOptions, type MakisState, type Roll } from '../../server/rules/makis.ts';
import { parseMove } from '../../server/rules/makis-notation.ts';
import { rollOdds } from '../../server/rules/makis-odds.ts';
import type { MakisView, ServerMessage } from '../../server/http/messages.ts';
import { memoryLog } from '../support/memory-log.ts';

const RULES: MakisOptions = { players: 3, mode: 'competitive', knights: [1, 1, 1, 1, 1, 1, 1, 1, 1] };
const PLACED = ['1@c5r9', '2@c2r9', '3@c8r9'];

function stateAfter(rules: MakisOptions, record: readonly string[]): MakisState {
  const start = initial(rules);
  if (!start.ok) throw new Error(start.error.message);
  return record.reduce((state, token) => {
    const move = parseMove(token);
    if (!move.ok) throw new Error(token);
    const next = play(state, move.value);
    if (!next.ok) throw new Error(`${token}: ${next.error.message}`);
    return next.value;
  }, start.value);
}

function cellsOf(state: MakisState): number[] {
  const cells = new Array<number>(SIZE * SIZE).fill(0);
  state.knights.forEach((row, i) => (cells[square(i + 1, row)] = 1));
  for (const spot of state.makis) if (typeof spot === 'number') cells[spot] = 1;
  return cells;
}

/** A session watching a board in the position after `record`, calibrated; `show` puts a picture on the board for a second. */
function live(record: readonly string[], options: { drawRoll?: () => Roll; log?: SessionLog; rules?: MakisOptions } = {}) {
  const rules = options.rules ?? RULES;
  const session = new MakisSession({ rules, boardId: 'test', source: 'simulated', drawRoll: options.drawRoll, log: options.log, resume: record.length ? { gameId: 1, moves: record } : undefined });
  const messages: ServerMessage[] = [];
  session.subscribe((m) => messages.push(m));
  let t = 0;
  const show = (cells: readonly number[], ms = 1000): void => {
    for (const end = t + ms; t < end; t += 50) session.frame(t, { type: 'grid', bits: bitsOf(cells) });
  };
  show(cellsOf(stateAfter(rules, record)));
  return { session, messages, show, view: () => session.view() as MakisView };
}

describe('the view', () => {
  test('before the first placement: every Maki still to place, player 1 places, no roll, no odds', () => {
    const { view } = live([]);
    expect(view()).toEqual({
      game: 'makis',
      players: 3,
      mode: 'competitive',
      knights: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      makis: [null, null, null],
      phase: 'place',
      toMove: 1,
      lastRoll: null,
      expectedRoll: null,
      odds: null,
      pending: [],
      outcome: null,
      lastMove: null,
    });
  });

  test('when a roll is due the view carries the exact odds of the next roll, per square and per Maki', () => {
    const record = [...PLACED, 'R2.5.7', '1:c5r8', '2:-', '3:c8r8'];
    const { view } = live(record);
    const v = view();
    expect(v.phase).toBe('roll');
    expect(v.makis).toEqual(['c5r8', 'c2r9', 'c8r8']);
    expect(v.lastMove).toBe('3:c8r8');
    // The board cannot tell which die showed which number: the first way III, IV and V can show them.
    expect(v.lastRoll).toEqual([2, 5, 7]);
    const odds = rollOdds(stateAfter(RULES, record));
    if (!odds.ok) throw new Error(odds.error.message);
    expect(v.odds?.knightsHome).toBe(odds.value.knightsHome.numerator);
    expect(v.odds?.makis).toEqual(odds.value.makis.map((m) => ({ player: m.player, square: `c${(m.square % 9) + 1}r${Math.floor(m.square / 9) + 1}`, capture: m.capture.numerator, reset: m.reset.numerator })));
    // The Maki on c5r8 stands right above the knight of column 5 (row 2): a roll with a 5 reaches it.
    expect(v.odds?.danger.c5r8).toEqual({ capture: odds.value.danger[square(5, 8)]?.capture, reset: odds.value.danger[square(5, 8)]?.reset });
    expect(v.odds?.danger.c5r2).toBeUndefined();
    // Every square but row 1 (a Maki there has won) and the three knights above it (columns 2, 5 and 7).
    expect(Object.keys(v.odds?.danger ?? {})).toHaveLength(81 - 9 - 3);
  });

  test('no odds while the Makis move', () => {
    const { view } = live([...PLACED, 'R2.5.7']);
    expect(view().phase).toBe('maki');
    expect(view().odds).toBeNull();
  });

  test('resets owed after a step are listed until the board shows them, each change an update', () => {
    const rules: MakisOptions = { ...RULES, players: 1, knights: [1, 1, 1, 8, 1, 1, 1, 1, 1] };
    const { session, messages, show, view } = live(['1@c5r9', 'R1.2.3'], { rules });
    const stepped = cellsOf(stateAfter(rules, ['1@c5r9', 'R1.2.3']));
    stepped[square(5, 9)] = 0;
    stepped[square(5, 8)] = 1;
    show(stepped);
    expect(view().lastMove).toBe('1:c5r8');
    expect(view().pending).toEqual([{ piece: 'knight', column: 4, from: 'c4r8', to: 'c4r1' }]);
    expect(view().knights[3]).toBe(1);
    const before = session.currentStateId;
    show(cellsOf(stateAfter(rules, ['1@c5r9', 'R1.2.3', '1:c5r8'])));
    expect(view().pending).toEqual([]);
    expect(session.currentStateId).toBe(before + 1);
    const last = messages.filter((m) => m.type === 'update').at(-1);
    expect(last).toMatchObject({ type: 'update', event: 'settled' });
  });

  test('a captured Maki owed off the board is listed with "out"', () => {
    const rules: MakisOptions = { ...RULES, players: 2, knights: [1, 5, 1, 1, 1, 1, 1, 1, 1] };
    const record = ['1@c2r9', '2@c6r9', 'R1.3.4', '1:c2r8', '2:-', 'R1.3.4', '2:-', '1:c2r7', 'R1.3.4', '1:c2r6', '2:-'];
    const { show, view } = live(record, { rules });
    const cells = cellsOf(stateAfter(rules, record));
    // R1.2.2: knight 1 one row, knight 2 two rows over the Maki on c2r6, which is still there.
    cells[square(1, 4)] = 0;
    cells[square(1, 5)] = 1;
    cells[square(2, 5)] = 0;
    cells[square(2, 7)] = 1;
    show(cells, 4000);
    expect(view().lastMove).toBe('R1.2.2');
    expect(view().makis[0]).toBe('out');
    expect(view().pending).toEqual([{ piece: 'maki', column: 2, player: 1, from: 'c2r6', to: 'out' }]);
  });

  test('the end: the winner as a string, no one to move', () => {
    const rules: MakisOptions = { ...RULES, players: 1, knights: [8, 1, 1, 1, 1, 1, 1, 1, 1] };
    const { show, view } = live(['1@c5r9'], { rules });
    show(cellsOf(stateAfter(rules, ['1@c5r9', 'R1.4.5'])));
    expect(view().outcome).toEqual({ winner: 'knights', reason: 'knight-home' });
    expect(view().toMove).toBeNull();
    expect(view().phase).toBe('over');
  });
});

describe('the display rolls for the table', () => {
  test('the roll command draws a roll, the view shows it, and the referee expects exactly it', () => {
    const { session, show, view, messages } = live(PLACED, { drawRoll: () => [5, 3, 2] });
    const result = session.command(session.currentStateId, { kind: 'roll' });
    expect(result).toMatchObject({ ok: true });
    expect(view().expectedRoll).toEqual([5, 3, 2]);
    expect(messages.filter((m) => m.type === 'update').at(-1)).toMatchObject({ event: 'settled', view: { expectedRoll: [5, 3, 2] } });
    // The knights for another roll: an alert; the right roll is played in the dice's order.
    show(cellsOf(stateAfter(RULES, [...PLACED, 'R2.3.6'])));
    expect(messages.filter((m) => m.type === 'alert').at(-1)).toMatchObject({ alert: { code: 'makis/wrong-roll', params: { expected: '2-3-5', roll: '2-3-6' } } });
    show(cellsOf(stateAfter(RULES, [...PLACED, 'R2.3.5'])));
    expect(session.record().at(-1)).toBe('R2.3.5');
    expect(view().lastRoll).toEqual([5, 3, 2]);
    expect(view().expectedRoll).toBeNull();
  });

  test('no roll while the Makis are placed, none twice, none after the end', () => {
    const placing = live([], { drawRoll: () => [5, 3, 2] }).session;
    expect(placing.command(placing.currentStateId, { kind: 'roll' })).toMatchObject({ ok: false, error: 'referee/not-roll-time' });
    const { session } = live(PLACED, { drawRoll: () => [5, 3, 2] });
    expect(session.command(session.currentStateId, { kind: 'roll' })).toMatchObject({ ok: true });
    expect(session.command(session.currentStateId, { kind: 'roll' })).toMatchObject({ ok: false, error: 'referee/roll-pending', params: { roll: '5-3-2' } });
  });

  test('a fair roll: a face of die III, of IV and of V, in that order; every face comes up', () => {
    const seen = [new Set<number>(), new Set<number>(), new Set<number>()];
    for (let k = 0; k < 2000; k++) {
      const roll = drawFairRoll();
      expect(ORDERED_ROLLS.some((r) => r[0] === roll[0] && r[1] === roll[1] && r[2] === roll[2])).toBe(true);
      roll.forEach((n, i) => seen[i].add(n));
    }
    expect(seen.map((s) => [...s].sort((a, b) => a - b))).toEqual([FACES.III, FACES.IV, FACES.V]);
  });
});

describe('the console', () => {
  test('commands the Makis referee has no use for are refused with a reason', () => {
    const { session } = live(PLACED);
    expect(session.command(session.currentStateId, { kind: 'ask' })).toMatchObject({ ok: false, error: 'console/no-question' });
    expect(session.command(session.currentStateId, { kind: 'agree' })).toMatchObject({ ok: false, error: 'console/no-agreement' });
    const fresh = live([]).session;
    expect(fresh.command(fresh.currentStateId, { kind: 'undo' })).toMatchObject({ ok: false, error: 'console/nothing-to-undo' });
  });

  test('a move entered by hand, and its take-back', () => {
    const { session } = live(PLACED);
    expect(session.command(session.currentStateId, { kind: 'enter', move: 'R2.5.7' })).toMatchObject({ ok: true });
    expect(session.record()).toEqual([...PLACED, 'R2.5.7']);
    expect(session.command(session.currentStateId, { kind: 'enter', move: 'R1.5.9' })).toMatchObject({ ok: false, error: 'makis/maki-move-expected' });
    expect(session.command(session.currentStateId, { kind: 'undo' })).toMatchObject({ ok: true });
    expect(session.record()).toEqual(PLACED);
  });

  test('a command based on an older state is refused', () => {
    const { session } = live(PLACED);
    expect(session.command(session.currentStateId + 1, { kind: 'roll' })).toMatchObject({ ok: false, error: 'console/stale-state' });
  });
});

describe('resume and the game log', () => {
  test('a game resumed from its record goes on where it was', () => {
    const { session, show } = live([...PLACED, 'R2.5.7']);
    expect(session.record()).toEqual([...PLACED, 'R2.5.7']);
    const next = cellsOf(stateAfter(RULES, [...PLACED, 'R2.5.7', '1:c5r8']));
    show(next);
    expect(session.record().at(-1)).toBe('1:c5r8');
    expect(() => new MakisSession({ rules: RULES, boardId: 'b', source: 'serial', resume: { gameId: 2, moves: ['1@c5r9', '1@c4r9'] } })).toThrow(/ply 2/);
  });

  test('moves and the end go to the log, the winner as the log keeps it', () => {
    // It refuses writes after the game's end, as the real store does.
    const log = memoryLog();
    const rules: MakisOptions = { ...RULES, players: 1, knights: [8, 1, 1, 1, 1, 1, 1, 1, 1] };
    const session = new MakisSession({ rules, boardId: 'test', source: 'simulated', log });
    let t = 0;
    const show = (record: readonly string[]) => {
      const bits = bitsOf(cellsOf(stateAfter(rules, record)));
      for (const end = t + 3000; t < end; t += 50) session.frame(t, { type: 'grid', bits });
    };
    show([]);
    show(['1@c5r9']);
    show(['1@c5r9', 'R1.4.5']);
    expect(log.games.map((g) => `${g.game} ${JSON.stringify(g.options)}`)).toEqual([`makis ${JSON.stringify(rules)}`]);
    expect(log.events).toEqual([
      { kind: 'move', payload: { move: '1@c5r9', ply: 1 } },
      { kind: 'move', payload: { move: 'R1.4.5', ply: 2 } },
    ]);
    expect(log.ended.map((e) => e.result)).toEqual([{ winner: 'knights', reason: 'knight-home' }]);
  });
});
