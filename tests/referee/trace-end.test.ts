// The end of a trace is the board holding its last picture: a trace cut shortly after its last move still yields
// that move, in every game (the clock runs on, on the trace's own time, until the referee has decided).
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tables } from '../../server/tables/index.ts';
import type { GameName } from '../../server/rules/types.ts';

/** The trace's lines up to `until` ms (its header and every line stamped no later). */
function cut(trace: string, until: number): string {
  return trace
    .split('\n')
    .filter((line) => {
      const t = /^(\d+) /.exec(line);
      return t === null || Number(t[1]) <= until;
    })
    .join('\n');
}

function referee(game: GameName, trace: string, rules: Record<string, unknown> = {}, answers?: string) {
  const events: { t: number; kind: string }[] = [];
  const run = tables[game].withRules(rules).refereeTrace(trace, answers, (e) => events.push(e));
  return { ...run, events };
}

type Truth = { rules?: Record<string, unknown>; moves: { move: string; end: number }[] };

/** The whole trace refereed, and the same trace cut `after` ms after its last move ended: the same record. */
function expectCutToHold(game: GameName, trace: string, truth: Truth, after: number, answers?: string) {
  const last = truth.moves[truth.moves.length - 1];
  const whole = referee(game, trace, truth.rules, answers);
  // The whole trace is refereed right to its last move, so the cut one has something to match.
  expect(whole.record.at(-1)).toBe(last.move);
  expect(whole.record).toHaveLength(truth.moves.length);
  const short = referee(game, cut(trace, last.end + after), truth.rules, answers);
  expect(short.record).toEqual(whole.record);
  // The frames held after the end are the referee's, not the trace's.
  expect(short.summary.frames).toBeLessThan(whole.summary.frames);
}

describe.each([
  ['kalaha', 'count', [1, 2]],
  ['malawi', 'count', [1, 3, 7]],
  ['makis', 'occupancy', [1, 2, 3, 6]],
] as const)('%s, generated', (game, sense, seeds) => {
  test.each(seeds)('seed %i: a trace cut 0.5 s after its last move still yields that move', (seed) => {
    const { trace, truth } = tables[game].withRules({}).generateTrace({ seed, illegal: 0, takebacks: 0, sense });
    expectCutToHold(game, trace, JSON.parse(truth) as Truth, 500);
  });

  test('a trace cut 0.1 s after its last move, before any board is still enough, still yields it', () => {
    const { trace, truth } = tables[game].withRules({}).generateTrace({ seed: seeds[0], illegal: 0, takebacks: 0, sense });
    expectCutToHold(game, trace, JSON.parse(truth) as Truth, 100);
  });
});

describe('adu, the fixtures with their console answers', () => {
  const dir = fileURLToPath(new URL('../fixtures/adu', import.meta.url));
  test.each(['two-players', 'six-players'])('%s: a trace cut 0.5 s after its last move still yields that move', (name) => {
    const truth = JSON.parse(readFileSync(join(dir, `${name}.truth.json`), 'utf8')) as Truth;
    expectCutToHold('adu', readFileSync(join(dir, `${name}.trace`), 'utf8'), truth, 500, join(dir, `${name}.answers`));
  });
});
