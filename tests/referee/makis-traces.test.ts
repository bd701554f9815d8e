// The Makis referee against the simulated 9 × 9 board: the committed fixture traces and a sweep of freshly generated games, checked against their ground truth.
//
// The simulator (firmware-bridge/sim, server/simulate) is a second, independent model of hands
// and sensors. The console is played as a person at the table would: it answers the referee's
// questions with the move really made, and does nothing else — every Makis move and reset shows
// on an occupancy board.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { MakisReferee, type MakisRefereeEvent } from '../../server/referee/index.ts';
import { positionJson } from '../../server/rules/makis-notation.ts';
import { MAKIS_FIXTURES, generateMakisTrace, type MakisTraceOptions, type MakisTruth } from '../../server/simulate/index.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'makis');

function referee(trace: string, truth: MakisTruth): { referee: MakisReferee; events: MakisRefereeEvent[] } {
  const referee = new MakisReferee(truth.rules);
  const events: MakisRefereeEvent[] = [];
  const questions = truth.questions.slice();
  const take = (list: readonly MakisRefereeEvent[]): void => {
    for (const e of list) {
      events.push(e);
      if (e.kind !== 'question') continue;
      const q = questions.shift();
      expect(q, `an unexpected question: ${e.message}`).toBeDefined();
      expect([...e.options].sort()).toEqual(q?.options);
      const result = referee.answer(e.id, q?.move as string, e.t);
      expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
      if (result.ok) take(result.events);
    }
  };
  for (const entry of traceEntries(trace)) {
    const parsed = parseLine(entry.line);
    if (parsed.kind !== 'message' || parsed.message.type !== 'grid') continue;
    take(referee.frame(entry.t, { type: 'grid', bits: parsed.message.occupancy }));
  }
  expect(questions, 'questions the referee never asked').toEqual([]);
  return { referee, events };
}

function check(trace: string, truth: MakisTruth): void {
  const { referee: r, events } = referee(trace, truth);
  expect(r.record()).toEqual(truth.record);
  expect(positionJson(r.state)).toEqual(truth.finalPosition);
  expect(r.pending()).toEqual([]);
  // Every Maki moved two squares, every misread roll and every reset left too long got its alert, in order; nothing else did.
  const alerts = events.flatMap((e) => (e.kind === 'alert' ? [e] : []));
  expect(alerts.map((a) => a.code)).toEqual(truth.alerts.map((a) => a.code));
  const illegal = alerts.filter((a) => a.code === 'makis/not-adjacent');
  expect(illegal.map((a) => `${a.params.from}-${a.params.to}`)).toEqual(truth.illegalAttempts.map((a) => `${a.from}-${a.to}`));
  const misrolls = alerts.filter((a) => a.code === 'makis/impossible-roll');
  expect(misrolls.map((a) => a.params.roll)).toEqual(truth.misrolls.map((m) => m.shown));
  const resets = alerts.filter((a) => a.code.startsWith('makis/re'));
  expect(resets.map((a) => a.params)).toEqual(truth.slowResets.map((s) => s.params));
  expect(events.filter((e) => e.kind === 'end').map((e) => (e.kind === 'end' ? e.outcome : null))).toEqual(
    truth.end ? [{ reason: truth.end.reason, winner: truth.end.winner }] : [],
  );
  expect(events.filter((e) => e.kind === 'takeback').length).toBe(truth.takeBacks.length);
}

describe('Makis referee on the fixture traces', () => {
  test.each(MAKIS_FIXTURES.map((f) => f.name))('%s', (name) => {
    const trace = readFileSync(join(FIXTURES, `${name}.trace`), 'utf8');
    const truth = JSON.parse(readFileSync(join(FIXTURES, `${name}.truth.json`), 'utf8')) as MakisTruth;
    check(trace, truth);
  });
});

describe('Makis referee on generated games', () => {
  const cases: [string, MakisTraceOptions][] = [];
  for (let seed = 100; seed < 106; seed++) cases.push([`${1 + (seed % 5)} players, seed ${seed}`, { seed, rules: { players: 1 + (seed % 5) }, maxRounds: 14 }]);
  for (let seed = 200; seed < 206; seed++) {
    cases.push([`mistakes, slow resets and take-backs, seed ${seed}`, { seed, rules: { players: 3 }, illegalProbability: 0.2, takeBackProbability: 0.1, slowResetProbability: 0.3, maxRounds: 12 }]);
  }
  for (let seed = 300; seed < 304; seed++) {
    cases.push([`flickering sensors and a sticking switch, seed ${seed}`, { seed, rules: { players: 2 }, sensor: { flickerRate: 0.002, flakyCell: 30, flakyRate: 0.01 }, maxRounds: 12 }]);
  }
  for (let seed = 400; seed < 404; seed++) cases.push([`five players, cooperative, to the end, seed ${seed}`, { seed, rules: { players: 5, mode: 'cooperative' }, illegalProbability: 0.1 }]);
  test.each(cases)('%s', (_, options) => {
    const { trace, truth } = generateMakisTrace(options);
    check(trace, truth);
  });
});
