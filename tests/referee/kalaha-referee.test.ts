import { describe, expect, test } from 'vitest';
import { KalahaReferee, type RefereeEvent } from '../../server/referee/index.ts';
import { DEFAULT_OPTIONS, PITS, legalMoves, type KalahaState } from '../../server/rules/kalaha.ts';
import { Table, playOn, start, rng } from './table.ts';

function run(table: Table, referee = new KalahaReferee(DEFAULT_OPTIONS)): { referee: KalahaReferee; events: RefereeEvent[] } {
  const events: RefereeEvent[] = [];
  for (const f of table.frames) events.push(...referee.frame(f.t, f.tenths));
  return { referee, events };
}

const kinds = (events: RefereeEvent[]) => events.map((e) => (e.kind === 'move' ? `move ${e.move}` : e.kind === 'alert' ? `alert ${e.code}` : e.kind));
const pit = (name: string) => PITS.indexOf(name as (typeof PITS)[number]);

describe('Kalaha referee', () => {
  test('calibrates the stone weight from the opening position', () => {
    const { table } = start({ seed: 3 });
    const { referee, events } = run(table);
    expect(kinds(events)).toEqual(['calibrated']);
    const total = table.cells.flat().reduce((s, w) => s + w, 0);
    expect(referee.weightModel?.stone).toBeCloseTo(total / 48, 1);
  });

  test("the seed's example: C e F d, north captures 2 from C", () => {
    let { table, state } = start({ seed: 5 });
    for (const name of ['C', 'e', 'F', 'd']) state = playOn(table, state, { kind: 'sow', pit: pit(name) });
    const { referee, events } = run(table);
    expect(referee.record()).toEqual(['C', 'e', 'F', 'd']);
    expect(events.filter((e) => e.kind === 'alert')).toEqual([]);
    expect(referee.state.stores).toEqual([0, 2]);
    expect(referee.lastMove()).toMatchObject({ pit: pit('d'), captures: [pit('C')] });
  });

  test('a capture not yet carried is pending, and settles when it reaches the store', () => {
    let { table, state } = start({ seed: 6 });
    for (const name of ['C', 'e', 'F']) state = playOn(table, state, { kind: 'sow', pit: pit(name) });
    table.sow(pit('d')).wait(2000);
    const before = run(table);
    const last = before.events.at(-1);
    expect(last).toMatchObject({ kind: 'move', move: 'd', pending: [{ from: pit('C'), to: 13, stones: 2 }] });
    table.lift(pit('C')).drop(13).drop(13).wait(1500);
    const after = run(table);
    expect(kinds(after.events).slice(-2)).toEqual(['move d', 'settled']);
  });

  test('one-frame glitches and noise make no move', () => {
    const { table } = start({ seed: 7, noise: 0.2, glitchRate: 0.3 });
    table.wait(20_000);
    const { events } = run(table);
    expect(kinds(events)).toEqual(['calibrated']);
  });

  test("sowing the opponent's pit is an alert; putting it back clears it; then the real move counts", () => {
    const { table } = start({ seed: 8 });
    const origin = table.cells[pit('b')].slice();
    table.sow(pit('b')).wait(1500);
    // Put back: one stone from each pit sown (not necessarily the same stone), all into b.
    for (const p of ['c', 'd', 'e', 'f']) table.lift(pit(p), 1);
    for (let k = 0; k < 4; k++) table.drop(pit('b'));
    table.wait(1500);
    // Other stones came back than left: the weights of b and the pits sown no longer match the opening.
    expect(table.cells[pit('b')]).toHaveLength(origin.length);
    expect([...table.cells[pit('b')]].sort()).not.toEqual([...origin].sort());
    table.sow(pit('A')).wait(1500);
    const { referee, events } = run(table);
    expect(kinds(events)).toEqual(['calibrated', 'alert kalaha/not-your-pit', 'cleared', 'move A']);
    expect(referee.record()).toEqual(['A']);
  });

  test('a take-back returns the board to the earlier position and shortens the record', () => {
    let { table, state } = start({ seed: 9 });
    state = playOn(table, state, { kind: 'sow', pit: pit('C') });
    state = playOn(table, state, { kind: 'sow', pit: pit('e') });
    // North takes e back: one stone from each of f, A, B, C into e.
    for (const p of ['f', 'A', 'B', 'C']) table.lift(pit(p), 1);
    for (let k = 0; k < 4; k++) table.drop(pit('e'));
    table.wait(1500);
    const { referee, events } = run(table);
    expect(events.at(-1)).toMatchObject({ kind: 'takeback', undone: ['e'], ply: 1 });
    expect(referee.record()).toEqual(['C']);
  });

  test('a stone moved by hand from A to B is a mismatch naming both pits', () => {
    const { table } = start({ seed: 10 });
    table.lift(pit('A'), 1).drop(pit('B')).wait(3000);
    const { referee, events } = run(table);
    const alert = events.find((e) => e.kind === 'alert');
    expect(alert).toMatchObject({ code: 'referee/mismatch', cells: [{ cell: pit('A'), diff: -1 }, { cell: pit('B'), diff: 1 }] });
    expect(referee.record()).toEqual([]);
  });

  test('two moves made without a pause in between are both recognised', () => {
    const { table } = start({ seed: 11 });
    table.sow(pit('C')).sow(pit('e')).wait(1500);
    const { referee, events } = run(table);
    expect(kinds(events)).toEqual(['calibrated', 'move C', 'move e']);
    expect(referee.record()).toEqual(['C', 'e']);
  });

  test('a board being filled is not an alert; the referee calibrates once the opening stands', () => {
    const table = new Table({ seed: 12 });
    const stones = table.cells.map((c) => c.splice(0));
    table.wait(1000);
    for (let p = 0; p < 12; p++) {
      table.hand.push(...stones[p]);
      for (let k = 0; k < 4; k++) table.drop(p);
    }
    table.wait(1500);
    const { events } = run(table);
    expect(kinds(events)).toEqual(['calibrated']);
  });

  test('an empty table left standing says it waits for the opening position', () => {
    const table = new Table({ seed: 13 });
    for (const c of table.cells) c.splice(0);
    table.wait(5000);
    expect(kinds(run(table).events)).toEqual(['alert board/calibrating']);
  });

  test('slow load-cell drift does not stop the game', () => {
    let { table, state } = start({ seed: 14, drift: 0.03 });
    state = playOn(table, state, { kind: 'sow', pit: pit('C') });
    table.wait(600_000);
    state = playOn(table, state, { kind: 'sow', pit: pit('e') });
    const { referee, events } = run(table);
    expect(referee.record()).toEqual(['C', 'e']);
    expect(events.filter((e) => e.kind === 'alert')).toEqual([]);
  });

  test.each([
    ['mixed 1–10 g', 21, (r: () => number) => 1 + 9 * r()],
    ['marbles', 22, (r: () => number) => 5 + 0.4 * r()],
    ['beans', 23, (r: () => number) => 1 + 0.8 * r()],
  ])('whole random games are refereed move for move (%s)', (_name, seed, stone) => {
    for (let game = 0; game < 3; game++) {
      let { table, state } = start({ seed: seed * 10 + game, stone, noise: 0.15, glitchRate: 0.02 });
      const choose = rng(seed + game);
      const played: string[] = [];
      let s: KalahaState = state;
      while (!s.outcome && played.length < 120) {
        const moves = legalMoves(s);
        const move = moves[Math.floor(choose() * moves.length)];
        s = playOn(table, s, move);
        played.push(PITS[move.pit]);
      }
      const { referee, events } = run(table);
      expect(referee.record()).toEqual(played);
      expect(events.filter((e) => e.kind === 'alert')).toEqual([]);
      if (s.outcome) expect(events.some((e) => e.kind === 'end')).toBe(true);
    }
  });
});
