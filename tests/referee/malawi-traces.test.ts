// The Malawi referee against the simulated square board: the committed fixture traces and freshly generated games, checked against their ground truth.
//
// The simulator (firmware-bridge/sim, server/simulate) is a second, independent model of hands
// and sensors; a referee that only agreed with its own test board would prove little. The console
// is played as a person at the table would: on an occupancy board they announce each capture and
// distribution (askWhich, then answer) once it is made; they answer the referee's own questions
// from the truth; after a take-back they undo on the console what the board could not show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { MalawiReferee, type GridPicture, type MalawiRefereeEvent } from '../../server/referee/index.ts';
import { formatPosition } from '../../server/rules/malawi-notation.ts';
import { MALAWI_FIXTURES, generateMalawiTrace, type MalawiTraceOptions, type MalawiTruth } from '../../server/simulate/index.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'malawi');

interface Refereed {
  readonly referee: MalawiReferee;
  readonly events: MalawiRefereeEvent[];
  readonly console: string[];
}

function referee(trace: string, truth: MalawiTruth): Refereed {
  const referee = new MalawiReferee(truth.rules);
  const events: MalawiRefereeEvent[] = [];
  const log: string[] = [];
  // Announced hidden moves (occupancy) are told a little after the hand is done.
  const announce = truth.sense === 'occupancy' ? truth.questions.map((q) => ({ t: q.t + 800, move: q.move })) : [];
  const answers = truth.sense === 'count' ? truth.questions.map((q) => q.move) : [];
  const takeBacks = truth.takeBacks.map((tb) => ({ tb, before: null as string[] | null, done: false }));
  let lastReading = '';
  let stillSince = 0;

  const take = (list: readonly MalawiRefereeEvent[]): void => {
    for (const e of list) {
      events.push(e);
      if (e.kind !== 'question') continue;
      // The referee asked by itself: on a counting board, a capture two pieces could have made.
      const move = answers.shift();
      log.push(`asked ${e.options.join(' ')}, answered ${move}`);
      expect(move, `an unexpected question: ${e.message}`).toBeDefined();
      const result = referee.answer(e.id, move as string);
      expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
      if (result.ok) take(result.events);
    }
  };

  for (const entry of traceEntries(trace)) {
    const t = entry.t;
    while (announce.length && announce[0].t <= t) {
      const { move } = announce.shift() as { t: number; move: string };
      const asked = referee.askWhich(t);
      expect(asked.ok, asked.ok ? '' : asked.error.message).toBe(true);
      const question = referee.openQuestions()[0];
      const answered = referee.answer(question.id, move, t);
      log.push(`announced ${move}`);
      expect(answered.ok, answered.ok ? '' : answered.error.message).toBe(true);
      if (answered.ok) events.push(...answered.events);
    }
    for (const c of takeBacks) {
      if (c.done) continue;
      if (c.before === null) {
        if (t < c.tb.t) continue;
        c.before = referee.record();
      }
      // Once the hands are off the board, the record must show the moves taken back.
      if (t < c.tb.t + 500 || t - stillSince < 1200) continue;
      c.done = true;
      const expected = c.before.slice(0, c.before.length - c.tb.moves.length);
      while (referee.record().length > expected.length || referee.record().join() !== expected.slice(0, referee.record().length).join()) {
        const undone = referee.undo(t);
        if (undone.length === 0) break;
        log.push(`undo at ${t}`);
        events.push(...undone);
      }
      expect(referee.record()).toEqual(expected);
    }
    const parsed = parseLine(entry.line);
    if (parsed.kind !== 'message') continue;
    const m = parsed.message;
    let picture: GridPicture;
    let reading: string;
    if (m.type === 'grid') {
      picture = { type: 'grid', bits: m.occupancy };
      reading = m.occupancy.toString(16);
    } else if (m.type === 'counts') {
      picture = { type: 'counts', counts: m.cells };
      reading = m.cells.join();
    } else continue;
    if (reading !== lastReading) {
      lastReading = reading;
      stillSince = t;
    }
    take(referee.frame(t, picture));
  }
  expect(answers, 'questions the referee never asked').toEqual([]);
  return { referee, events, console: log };
}

function check(trace: string, truth: MalawiTruth): void {
  const { referee: r, events } = referee(trace, truth);
  expect(r.record()).toEqual(truth.record);
  expect(formatPosition(r.state)).toBe(truth.finalPosition);
  const alerts = events.filter((e) => e.kind === 'alert');
  // Every misplaced piece, and nothing else, got the engine's reason.
  expect(alerts.map((a) => (a.kind === 'alert' ? `${a.code} ${a.params.from}-${a.params.to}` : ''))).toEqual(
    truth.illegalAttempts.map((a) => `${a.code} ${a.from}-${a.to}`),
  );
  expect(events.filter((e) => e.kind === 'end').map((e) => (e.kind === 'end' ? e.outcome : null))).toEqual(
    truth.end ? [{ reason: truth.end.reason, winner: truth.end.winner }] : [],
  );
}

describe('Malawi referee on the fixture traces', () => {
  test.each(MALAWI_FIXTURES.map((f) => f.name))('%s', (name) => {
    const trace = readFileSync(join(FIXTURES, `${name}.trace`), 'utf8');
    const truth = JSON.parse(readFileSync(join(FIXTURES, `${name}.truth.json`), 'utf8')) as MalawiTruth;
    check(trace, truth);
  });
});

describe('Malawi referee on generated games', () => {
  const cases: [string, MalawiTraceOptions][] = [];
  for (let seed = 100; seed < 106; seed++) cases.push([`occupancy, seed ${seed}`, { seed, maxMoves: 40 }]);
  for (let seed = 200; seed < 206; seed++) cases.push([`counting board, seed ${seed}`, { seed, sense: 'count', maxMoves: 30 }]);
  for (let seed = 300; seed < 304; seed++) cases.push([`illegal placements and take-backs, seed ${seed}`, { seed, illegalProbability: 0.25, takeBackProbability: 0.15, maxMoves: 40 }]);
  for (let seed = 400; seed < 404; seed++) {
    cases.push([`flickering sensors and a sticking switch, seed ${seed}`, { seed, sensor: { flickerRate: 0.002, flakyCell: 20, flakyRate: 0.01 }, maxMoves: 40 }]);
  }
  for (let seed = 500; seed < 503; seed++) cases.push([`counting board with mistakes, seed ${seed}`, { seed, sense: 'count', illegalProbability: 0.2, takeBackProbability: 0.15, maxMoves: 30 }]);
  test.each(cases)('%s', (_, options) => {
    const { trace, truth } = generateMalawiTrace(options);
    check(trace, truth);
  });
});
