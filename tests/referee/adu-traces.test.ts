// The Adu referee against the simulated occupancy grid: the committed fixture traces and freshly generated games of 2, 3 and 6 players, checked against their ground truth.
//
// The simulator (firmware-bridge/sim, server/simulate) is a second, independent model of hands and
// sensors. The console is played two ways: by the answers the truth predicts (as `spieltisch
// referee --answers` does), which checks that the referee asks exactly what the truth expects; and,
// on flickering sensors where a lost picture may raise a question nobody predicted, by a person who
// watched the game and answers what was really played.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AduReferee, type AduRefereeEvent } from '../../server/referee/index.ts';
import { formatPieces } from '../../server/rules/adu-notation.ts';
import { ADU_FIXTURES, generateAduTrace, type AduTraceOptions, type AduTruth } from '../../server/simulate/index.ts';
import { refereeAduTrace, type AduCliEvent } from '../../server/tables/adu.ts';
import { refereeTrace } from '../../server/tables/index.ts';
import { watcherAnswer } from './adu-console.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'adu');

/** Referees a trace with the console answering from the truth's predicted answers, in the order asked. */
function withAnswers(trace: string, truth: AduTruth): { referee: AduReferee; events: AduCliEvent[]; unused: string[] } {
  const referee = new AduReferee(truth.rules);
  const events: AduCliEvent[] = [];
  const unused = [...truth.answers];
  refereeAduTrace(referee, trace, unused, (e) => events.push(e));
  return { referee, events, unused };
}

/** Referees a trace with a watcher at the console: every question answered with what was really played. */
function withWatcher(trace: string, truth: AduTruth): { referee: AduReferee; events: AduRefereeEvent[]; unanswered: string[] } {
  const referee = new AduReferee(truth.rules);
  const events: AduRefereeEvent[] = [];
  const unanswered: string[] = [];
  const take = (list: readonly AduRefereeEvent[]): void => {
    for (const e of list) {
      events.push(e);
      if (e.kind !== 'question') continue;
      const answer = watcherAnswer(truth, referee, e);
      if (answer === null) {
        unanswered.push(e.message);
        continue;
      }
      const result = referee.answer(e.id, answer, e.t);
      expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
      if (result.ok) take(result.events);
    }
  };
  refereeTrace(trace, (m) => (m.type === 'grid' ? (take(referee.frame(m.receivedAt, { type: 'grid', bits: m.occupancy })), []) : []), () => {});
  return { referee, events, unanswered };
}

const alertCodes = (events: readonly AduCliEvent[]) => events.flatMap((e) => (e.kind === 'alert' ? [e.code] : []));

/** The record, the final position, the end, every alert in order, and every predicted answer used. */
function checkExactly(trace: string, truth: AduTruth): void {
  const { referee, events, unused } = withAnswers(trace, truth);
  expect(referee.record()).toEqual(truth.record);
  expect(formatPieces(referee.state)).toBe(truth.finalPosition);
  expect(alertCodes(events)).toEqual(truth.alerts.map((a) => a.code));
  expect(events.filter((e) => e.kind === 'question').length, 'questions asked').toBe(truth.questions.length);
  expect(unused, 'answers the referee never asked for').toEqual([]);
  expect(events.filter((e) => e.kind === 'answer' && !e.ok)).toEqual([]);
  expect(events.filter((e) => e.kind === 'end').map((e) => (e.kind === 'end' ? e.outcome : null))).toEqual(
    truth.end ? [{ winner: String(truth.end.winner), reason: truth.end.reason, players: truth.end.players }] : [],
  );
}

describe('Adu referee on the fixture traces', () => {
  test.each(ADU_FIXTURES.map((f) => f.name))('%s', (name) => {
    const trace = readFileSync(join(FIXTURES, `${name}.trace`), 'utf8');
    const truth = JSON.parse(readFileSync(join(FIXTURES, `${name}.truth.json`), 'utf8')) as AduTruth;
    checkExactly(trace, truth);
  });

  test('the fixtures are what the generator writes (regenerate with server/simulate/adu-fixtures.ts)', () => {
    for (const fixture of ADU_FIXTURES.slice(0, 2)) {
      const { truth } = generateAduTrace(fixture.options);
      const stored = JSON.parse(readFileSync(join(FIXTURES, `${fixture.name}.truth.json`), 'utf8')) as AduTruth;
      expect(truth.record).toEqual(stored.record);
      expect(truth.frames).toBe(stored.frames);
    }
  });
});

describe('Adu referee on generated games', () => {
  const cases: [string, AduTraceOptions][] = [];
  for (let seed = 600; seed < 606; seed++) cases.push([`2 players, seed ${seed}`, { seed, rules: { players: 2 }, illegalProbability: 0.1, takeBackProbability: 0.08 }]);
  for (let seed = 700; seed < 707; seed++) {
    cases.push([`3 players, seed ${seed}`, { seed, rules: { players: 3 }, illegalProbability: 0.1, takeBackProbability: 0.08, maxMoves: 80 }]);
  }
  for (let seed = 800; seed < 807; seed++) {
    cases.push([`6 players, seed ${seed}`, { seed, rules: { players: 6 }, illegalProbability: 0.1, takeBackProbability: 0.08, maxMoves: 100 }]);
  }
  test.each(cases)('%s: the record, every alert and every question as the truth says', (_name, options) => {
    const { trace, truth } = generateAduTrace(options);
    checkExactly(trace, truth);
  });

  test('the sweep covers what it is meant to: captures asked about, declarations, reserve kings, players put out, mistakes, take-backs', () => {
    const truths = cases.map(([, options]) => generateAduTrace(options).truth);
    const count = (f: (t: AduTruth) => number) => truths.reduce((n, t) => n + f(t), 0);
    expect(count((t) => t.questions.filter((q) => q.reason === 'capture').length)).toBeGreaterThan(0);
    expect(count((t) => t.questions.filter((q) => q.reason === 'ambiguous').length)).toBeGreaterThan(0);
    expect(count((t) => t.record.filter((m) => /=\d/.test(m)).length)).toBeGreaterThan(0);
    expect(count((t) => t.record.filter((m) => m.includes('R@')).length)).toBeGreaterThan(0);
    expect(count((t) => t.moves.filter((m) => m.removed > 0).length)).toBeGreaterThan(0);
    expect(count((t) => t.illegalAttempts.length)).toBeGreaterThan(0);
    expect(count((t) => t.takeBacks.length)).toBeGreaterThan(0);
    expect(truths.filter((t) => t.end !== null).length).toBeGreaterThan(0);
  }, 60_000);
});

describe('Adu referee on flickering sensors, a watcher at the console', () => {
  const cases: [string, AduTraceOptions][] = [2, 3, 6].map((players, i) => [
    `${players} players`,
    { seed: 900 + i, rules: { players }, illegalProbability: 0.1, takeBackProbability: 0.08, maxMoves: 70, sensor: { flickerRate: 0.001, flakyCell: 20, flakyRate: 0.01 } },
  ]);
  test.each(cases)('%s: the record right, every mistake named', (_name, options) => {
    const { trace, truth } = generateAduTrace(options);
    const { referee, events, unanswered } = withWatcher(trace, truth);
    expect(unanswered).toEqual([]);
    expect(referee.record()).toEqual(truth.record);
    // A flaky switch may add an alert of its own; every mistake still gets the engine's reason, in order.
    const named = events.flatMap((e) => (e.kind === 'alert' && e.code.startsWith('adu/') ? [`${e.code} ${e.params.from}-${e.params.to}`] : []));
    let at = 0;
    for (const attempt of truth.illegalAttempts) {
      const wanted = `${attempt.code} ${attempt.from}-${attempt.to}`;
      while (at < named.length && named[at] !== wanted) at++;
      expect(named[at], `the alert for ${wanted}`).toBe(wanted);
      at++;
    }
  });
});
