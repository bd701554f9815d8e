// Tests of simulated Makis games: the truth replays legally, the board's script matches the engine before every move, mistakes and questions are what they say, traces are sound and deterministic, fixtures regenerate.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GridTable, Scheduler, parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { makisGame } from '../../server/rules/makis-game.ts';
import { canRoll, initial, play, type MakisOptions, type MakisState } from '../../server/rules/makis.ts';
import { parseMove, positionJson } from '../../server/rules/makis-notation.ts';
import { replay } from '../../server/rules/replay.ts';
import {
  MAKIS_FIXTURES,
  generateMakisFixture,
  generateMakisTrace,
  makisAnswersOf,
  makisOccupancy,
  planMakisGame,
  stringifyMakisTruth,
  type MakisPlayerOptions,
  type MakisTruth,
} from '../../server/simulate/index.ts';

const FIXTURE_DIR = new URL('../fixtures/makis/', import.meta.url);

function playToken(state: MakisState, token: string): MakisState {
  const move = parseMove(token);
  if (!move.ok) throw new Error(`${token}: ${move.error.code}`);
  const r = play(state, move.value);
  if (!r.ok) throw new Error(`${token}: ${r.error.code}`);
  return r.value;
}

function startOf(rules: MakisOptions): MakisState {
  const s = initial(rules);
  if (!s.ok) throw new Error(s.error.message);
  return s.value;
}

/** The truth's record through `spieltisch replay`'s code, and its end and final readings against the engine. */
function checkTruthAgainstEngine(truth: MakisTruth): void {
  const result = replay(makisGame, truth.recordText);
  expect(result.exitCode).toBe(0);
  expect(result.line).toMatchObject({ ok: true, plies: truth.record.length, over: truth.end !== null });
  if (truth.end !== null) expect(result.line).toMatchObject({ winner: truth.end.winner });
  const state = truth.record.reduce(playToken, startOf(truth.rules));
  expect(state.outcome === null ? null : { reason: state.outcome.reason, winner: String(state.outcome.winner) }).toEqual(
    truth.end === null ? null : { reason: truth.end.reason, winner: truth.end.winner },
  );
  expect(truth.final).toEqual(makisOccupancy(state));
  expect(truth.finalPosition).toEqual(positionJson(state));
  expect(truth.moves.map((m) => m.move)).toEqual(truth.record);
  // The record ends with a move the board shows: passes are seen only through what follows them.
  if (truth.record.length) expect(truth.moves.at(-1)?.kind).not.toBe('pass');
  // Passes have no hand of their own (they are timed with the move that shows them).
  const timed = truth.moves.filter((m) => m.kind !== 'pass');
  expect(timed.every((m) => m.start !== null)).toBe(true);
  for (let i = 1; i < timed.length; i++) expect(timed[i].start as number).toBeGreaterThan(timed[i - 1].end as number);
}

describe('planned games', () => {
  test.each([
    ['solitaire', { seed: 'a', rules: { players: 1 } }],
    ['three players with mistakes and take-backs', { seed: 'b', rules: { players: 3 }, illegalProbability: 0.3, takeBackProbability: 0.2 }],
    ['five players, cooperative', { seed: 'c', rules: { players: 5, mode: 'cooperative' } }],
    ['knights set up higher', { seed: 'd', rules: { players: 2, knights: [3, 1, 4, 1, 5, 2, 6, 2, 7] } }],
  ] as [string, MakisPlayerOptions][])('%s: the truth replays, ends as the engine says, and the board ends where the engine does', (_name, options) => {
    const { truth } = generateMakisTrace(options);
    checkTruthAgainstEngine(truth);
  });

  test('before every move the board shows the position the engine has: every reset made', () => {
    const plan = planMakisGame({ seed: 'board', rules: { players: 3 }, illegalProbability: 0.2, takeBackProbability: 0.1, slowResetProbability: 0.3 });
    const scheduler = new Scheduler();
    const table = new GridTable(scheduler, { seed: 1, cols: 9, rows: 9, pieces: plan.layout, sparePieces: plan.spare }, () => {});
    const seen = new Map<string, number[]>();
    table.onMark = (label) => seen.set(label, table.occupancy());
    table.boot();
    table.perform(plan.actions);
    expect(scheduler.runWhile(() => table.busy, 24 * 3600_000, 10_000)).toBe(true);
    expect(table.faults).toBe(0);
    let checked = 0;
    const states: MakisState[] = [startOf(plan.options)];
    let onward = false;
    for (const e of plan.events) {
      if (e.kind === 'illegal') onward = e.correction === 'onward';
      if (e.kind === 'take-back') states.length -= e.moves.length;
      if (e.kind !== 'move' && e.kind !== 'pass') continue;
      states.length = e.ply;
      if (e.kind === 'move' && !onward) {
        expect(seen.get(e.label), `before ${e.move}`).toEqual(makisOccupancy(states[e.ply - 1]));
        checked++;
      }
      onward = false;
      states.push(playToken(states[e.ply - 1], e.move));
    }
    expect(checked).toBeGreaterThan(20);
    expect(table.occupancy()).toEqual(makisOccupancy(plan.final));
    expect(table.totalPieces()).toBe(9 + 3);
  });

  test('mistakes are what the truth says: Makis two squares off, misread rolls the dice cannot make', () => {
    const { truth } = generateMakisTrace({ seed: 'mistakes', rules: { players: 3 }, illegalProbability: 0.4, maxRounds: 12 });
    expect(truth.illegalAttempts.length).toBeGreaterThan(3);
    expect(truth.misrolls.length).toBeGreaterThan(0);
    for (const a of truth.illegalAttempts) {
      expect(a.code).toBe('makis/not-adjacent');
      const [fc, fr, tc, tr] = [...a.from.matchAll(/\d+/g), ...a.to.matchAll(/\d+/g)].map((m) => Number(m[0]));
      expect(Math.max(Math.abs(fc - tc), Math.abs(fr - tr))).toBe(2);
    }
    for (const m of truth.misrolls) {
      expect(m.code).toBe('makis/impossible-roll');
      expect(canRoll(m.shown.split('-').map(Number))).toBe(false);
      expect(truth.record).toContain(m.move);
    }
    expect(truth.alerts.map((a) => a.t)).toEqual([...truth.alerts.map((a) => a.t)].sort((x, y) => x - y));
  });

  test('slow resets: the referee is to name the first reset owed', () => {
    const { truth } = generateMakisTrace({ seed: 'slow', rules: { players: 4 }, slowResetProbability: 1, maxRounds: 10 });
    expect(truth.slowResets.length).toBeGreaterThan(2);
    for (const s of truth.slowResets) expect(['makis/reset-knight', 'makis/reset-maki', 'makis/remove-maki']).toContain(s.code);
  });

  test('a question names the true move among the look-alikes, and the answers file lists it', () => {
    const fixture = MAKIS_FIXTURES.find((f) => f.name === 'console-question');
    const { truth } = generateMakisTrace(fixture?.options as MakisPlayerOptions);
    expect(truth.questions).toHaveLength(1);
    const [q] = truth.questions;
    expect(q.options).toContain(q.move);
    expect(q.options.length).toBeGreaterThan(1);
    expect(makisAnswersOf(truth)).toBe(`${q.move}\n`);
  });

  test('options the engine refuses are refused', () => {
    expect(() => planMakisGame({ seed: 1, rules: { players: 6 } })).toThrow(/players/);
  });
});

describe('traces', () => {
  test('every line is a valid protocol line: HELLO of a 9 × 9 occupancy board, then G frames', () => {
    const { trace, truth } = generateMakisTrace({ seed: 'lines', rules: { players: 2 }, maxRounds: 4 });
    const entries = [...traceEntries(trace)];
    const parsed = entries.map((e) => parseLine(e.line, e.t));
    expect(parsed.every((p) => p.kind === 'message')).toBe(true);
    const hello = parsed[0].kind === 'message' ? parsed[0].message : null;
    expect(hello).toMatchObject({ type: 'hello', board: 'grid', cols: 9, rows: 9, sense: 'occupancy' });
    expect(parsed.filter((p) => p.kind === 'message' && p.message.type === 'grid')).toHaveLength(truth.frames);
  });

  test('the same seed gives the same trace; another seed another game', () => {
    const a = generateMakisTrace({ seed: 5, rules: { players: 2 }, maxRounds: 5 });
    const b = generateMakisTrace({ seed: 5, rules: { players: 2 }, maxRounds: 5 });
    const c = generateMakisTrace({ seed: 6, rules: { players: 2 }, maxRounds: 5 });
    expect(b.trace).toBe(a.trace);
    expect(c.truth.record).not.toEqual(a.truth.record);
  });
});

describe('fixtures', () => {
  test.each(MAKIS_FIXTURES.map((f) => f.name))('%s regenerates byte for byte', (name) => {
    const fixture = MAKIS_FIXTURES.find((f) => f.name === name)!;
    const { trace, truth } = generateMakisFixture(fixture);
    expect(readFileSync(new URL(`${name}.trace`, FIXTURE_DIR), 'utf8')).toBe(trace);
    expect(readFileSync(new URL(`${name}.truth.json`, FIXTURE_DIR), 'utf8')).toBe(stringifyMakisTruth(truth));
    expect(readFileSync(new URL(`${name}.answers`, FIXTURE_DIR), 'utf8')).toBe(makisAnswersOf(truth));
  });
});
