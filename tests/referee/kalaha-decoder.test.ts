// The Kalaha referee's decoder: runs of moves made without a still board between them, read from
// the order in which pits were lifted, and moves of the record corrected when the board shows them wrong.
import { describe, expect, test } from 'vitest';
import { KalahaReferee, type RefereeEvent } from '../../server/referee/index.ts';
import { DEFAULT_OPTIONS, PITS, legalMoves, observe, play, type KalahaState } from '../../server/rules/kalaha.ts';
import { sowingPly, sownPits } from '../../server/referee/kalaha-plies.ts';
import { tables } from '../../server/tables/index.ts';
import { harshPeople } from '../../server/simulate/index.ts';
import { Table, playOn, playQuick, rng, start } from './table.ts';

function run(table: Table, referee = new KalahaReferee(DEFAULT_OPTIONS)): { referee: KalahaReferee; events: RefereeEvent[] } {
  const events: RefereeEvent[] = [];
  for (const f of table.frames) events.push(...referee.frame(f.t, f.tenths));
  return { referee, events };
}

const pit = (name: string) => PITS.indexOf(name as (typeof PITS)[number]);

/** A random game in runs of `run` quick moves, a still board of `pauseMs` after each run. */
function quickGame(seed: number, runLength: number, pauseMs: number, plies = 40): { table: Table; record: string[] } {
  const choose = rng(seed * 31 + 7);
  let { table, state } = start({ seed });
  const record: string[] = [];
  for (let k = 0; k < plies && !state.outcome; k++) {
    const moves = legalMoves(state);
    const move = moves[Math.floor(choose() * moves.length)];
    const last = (k + 1) % runLength === 0;
    state = playQuick(table, state, move, last ? pauseMs : 0);
    record.push(PITS[move.pit]);
  }
  table.wait(1500);
  return { table, record };
}

describe('Kalaha decoder', () => {
  test.each([2, 3, 5])('runs of %i moves without a still board between them are read move for move', (runLength) => {
    for (const seed of [1, 2, 3, 4]) {
      const { table, record } = quickGame(100 * runLength + seed, runLength, 1500);
      const { referee, events } = run(table);
      expect(referee.record(), `seed ${seed}`).toEqual(record);
      expect(events.filter((e) => e.kind === 'alert' || e.kind === 'correction' || e.kind === 'takeback'), `seed ${seed}`).toEqual([]);
    }
  });

  test('a board still for only 400 ms between moves is still enough', () => {
    // The last stone's drop holds still 200 ms of its own, and the hand waits 200 ms more.
    for (const seed of [11, 12, 13]) {
      const { table, record } = quickGame(seed, 1, 200);
      const { referee } = run(table);
      expect(referee.record(), `seed ${seed}`).toEqual(record);
    }
  });

  test('a move that sows into a pit whose capture is still being carried is read, and the capture seen done', () => {
    // Capture rules differ (a chain of pits, all the pits sown): find, by random play, a capture
    // whose next move sows into a captured pit before anybody carries the stones to the store.
    let tried = 0;
    for (let seed = 1; tried < 3 && seed < 200; seed++) {
      const choose = rng(seed);
      let state = start({ seed }).state;
      const prefix: KalahaState[] = [state];
      const plan: number[] = [];
      let found: { capture: number; next: number } | null = null;
      for (let k = 0; k < 60 && !state.outcome && !found; k++) {
        const moves = legalMoves(state);
        for (const move of moves) {
          const sown = sowingPly(state, move.pit);
          if (!sown.ok || sown.ply.captures.length === 0 || sown.ply.state.outcome) continue;
          const captured = new Set(sown.ply.captures);
          const next = legalMoves(sown.ply.state).find((m) => !sowingPly(sown.ply.state, m.pit).ok || sownPits(sown.ply.state, m.pit).some((p) => captured.has(p)));
          if (next && sowingPly(sown.ply.state, next.pit).ok) found = { capture: move.pit, next: next.pit };
          if (found) break;
        }
        if (found) break;
        const move = moves[Math.floor(choose() * moves.length)];
        plan.push(move.pit);
        state = legalAfter(state, PITS[move.pit]);
        prefix.push(state);
      }
      if (!found) continue;
      tried++;
      let { table, state: s } = start({ seed });
      for (const p of plan) s = playOn(table, s, { kind: 'sow', pit: p });
      // The capture is sown and left lying; the next player sows into a captured pit; then the capture is carried.
      const afterCapture = legalAfter(s, PITS[found.capture]);
      table.sow(found.capture, s.options.skipOrigin).wait(1500);
      const afterNext = legalAfter(afterCapture, PITS[found.next]);
      table.sow(found.next, afterCapture.options.skipOrigin).wait(1500);
      table.settleTo(observe(afterNext)).wait(1500);
      const { referee, events } = run(table);
      expect(referee.record(), `seed ${seed}`).toEqual([...plan, found.capture, found.next].map((p) => PITS[p]));
      expect(events.filter((e) => e.kind === 'alert'), `seed ${seed}`).toEqual([]);
      expect(referee.pendingTransfers(), `seed ${seed}`).toEqual([]);
    }
    expect(tried).toBe(3);
  });

  test('a move is shown when the next pit is lifted a frame after its last stone, before the next move is sown', () => {
    for (const seed of [31, 32, 33]) {
      let { table, state } = start({ seed });
      const choose = rng(seed);
      const shownBy: { move: string; before: number }[] = [];
      for (let k = 0; k < 12 && !state.outcome; k++) {
        const moves = legalMoves(state).filter((m) => quiet(state, m.pit));
        if (!moves.length) break;
        const move = moves[Math.floor(choose() * moves.length)];
        const sown = sownPits(state, move.pit);
        // Lift, drop every stone but the last as usual; the last set down without a press, and the
        // next pit lifted one frame (50 ms) later: no still board a glimpse could see.
        table.lift(move.pit);
        for (const cell of sown.slice(0, -1)) table.drop(cell);
        table.cells[sown[sown.length - 1]].push(table.hand.shift() as number);
        table.wait(50);
        state = legalAfter(state, PITS[move.pit]);
        shownBy.push({ move: PITS[move.pit], before: table.t + 250 });
      }
      table.wait(1500);
      const { referee, events } = run(table);
      expect(referee.record(), `seed ${seed}`).toEqual(shownBy.map((s) => s.move));
      // Each move is shown before the hand that lifted the next pit sets a stone down.
      for (const [k, { move, before }] of shownBy.slice(0, -1).entries()) {
        const shown = events.find((e) => e.kind === 'move' && e.ply === k + 1);
        expect(shown, `seed ${seed} ply ${k + 1}`).toMatchObject({ move });
        expect((shown as { t: number }).t, `seed ${seed} ply ${k + 1}`).toBeLessThan(before);
      }
    }
  });

  test('two moves without a frame between them are shown from a glimpse, before the board settles', () => {
    for (const seed of [41, 42, 43]) {
      let { table, state } = start({ seed });
      const choose = rng(seed);
      const pick = () => {
        const moves = legalMoves(state).filter((m) => quiet(state, m.pit));
        return moves.length ? moves[Math.floor(choose() * moves.length)] : null;
      };
      const played: string[] = [];
      const runs: { plies: number; before: number }[] = [];
      for (let k = 0; k < 4; k++) {
        const first = pick();
        if (!first) break;
        const sown = sownPits(state, first.pit);
        table.lift(first.pit);
        for (const cell of sown.slice(0, -1)) table.drop(cell);
        // The last stone set down and the next pit lifted within one frame.
        table.cells[sown[sown.length - 1]].push(table.hand.shift() as number);
        state = legalAfter(state, PITS[first.pit]);
        played.push(PITS[first.pit]);
        const second = pick();
        if (!second) break;
        table.sow(second.pit, state.options.skipOrigin);
        state = legalAfter(state, PITS[second.pit]);
        played.push(PITS[second.pit]);
        // The board holds still 200 ms after the last drop, and the next run begins: never 400 ms.
        runs.push({ plies: played.length, before: table.t + 250 });
      }
      table.wait(1500);
      const { referee, events } = run(table);
      expect(referee.record(), `seed ${seed}`).toEqual(played);
      expect(events.filter((e) => e.kind === 'alert' || e.kind === 'correction'), `seed ${seed}`).toEqual([]);
      for (const { plies, before } of runs.slice(0, -1)) {
        const shown = events.find((e) => e.kind === 'move' && e.ply === plies);
        expect((shown as { t: number } | undefined)?.t, `seed ${seed} ply ${plies}`).toBeLessThan(before);
      }
    }
  });

  test('a stone dropped into the next pit and put right with another stone of that pit reads as the move (the people model)', () => {
    // Seed 16 of the second model's level 2 drops d's one stone into f, and a stone of f's own goes
    // to e: f went up and down, e only up, and neither weighs what it held plus what it was sown.
    const kit = tables.kalaha.withRules({});
    const generated = kit.generateTrace({ seed: 16, illegal: 0.1, takebacks: 0.05, sense: 'count', people: harshPeople(2) });
    const truth = JSON.parse(generated.truth) as { record: string[]; moves: { move: string; handling?: { wrongPit?: unknown } }[] };
    expect(truth.moves[59]).toMatchObject({ move: 'd', handling: { wrongPit: { pit: pit('e'), into: pit('f') } } });
    const { record } = kit.refereeTrace(generated.trace, undefined, () => {});
    expect(record).toEqual(truth.record);
  });

  test('a stone put right with another of the pit and the next move begun before the board settles read as both moves (the people model)', () => {
    // Seed 23 of level 2: A drops a stone meant for B into C, a stone of C goes to B, and e is
    // lifted 116 ms after: the histories weigh B and C together, as the settled board would.
    const kit = tables.kalaha.withRules({});
    const generated = kit.generateTrace({ seed: 23, illegal: 0.1, takebacks: 0.05, sense: 'count', people: harshPeople(2) });
    const truth = JSON.parse(generated.truth) as { record: string[]; moves: { move: string; handling?: unknown }[] };
    expect(truth.moves[52]).toMatchObject({ move: 'A', handling: { wrongPit: { pit: pit('B'), into: pit('C') } } });
    expect(truth.moves[53]).toMatchObject({ move: 'e', handling: { start: 'quick' } });
    const { record } = kit.refereeTrace(generated.trace, undefined, () => {});
    expect(record).toEqual(truth.record);
  });

  test('a move entered wrongly at the console is corrected once the board shows what was played', () => {
    let { table, state } = start({ seed: 21 });
    state = playOn(table, state, { kind: 'sow', pit: pit('C') });
    const referee = new KalahaReferee(DEFAULT_OPTIONS);
    const events: RefereeEvent[] = [];
    let fed = 0;
    const feed = () => {
      for (const f of table.frames.slice(fed)) events.push(...referee.frame(f.t, f.tenths));
      fed = table.frames.length;
    };
    feed();
    expect(referee.record()).toEqual(['C']);
    // North lifts e; while the stones are in the hand, the console enters d by mistake.
    const sown = sownPits(state, pit('e'));
    table.lift(pit('e'));
    feed();
    expect(referee.enter(table.t, 'd').ok).toBe(true);
    for (const cell of sown) table.drop(cell);
    table.wait(1500);
    state = playOn(table, legalAfter(state, 'e'), { kind: 'sow', pit: pit('A') });
    feed();
    expect(referee.record()).toEqual(['C', 'e', 'A']);
    expect(events.filter((e) => e.kind === 'correction')).toEqual([expect.objectContaining({ kind: 'correction', ply: 2, old: ['d'], new: ['e'], reason: 'evidence' })]);
    expect(state.toMove).toBe('north');
  });
});

/** A move that captures nothing and does not end the game: nothing is carried after it. */
function quiet(state: KalahaState, pitIndex: number): boolean {
  const sown = sowingPly(state, pitIndex);
  return sown.ok && sown.ply.captures.length === 0 && !sown.ply.state.outcome;
}

function legalAfter(state: KalahaState, name: string): KalahaState {
  const move = legalMoves(state).find((m) => m.pit === pit(name));
  if (!move) throw new Error(`${name} is not legal`);
  const next = play(state, move);
  if (!next.ok) throw new Error(next.error.message);
  return next.value;
}
