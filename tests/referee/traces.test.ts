// The referee against sensor traces from the simulated table (firmware-bridge/sim), a physical
// model written apart from the referee: the fixture files, and freshly generated games.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { KalahaReferee, type RefereeEvent } from '../../server/referee/index.ts';
import { refereeKalahaTrace } from '../../server/commands/referee.ts';
import { generateKalahaTrace, KALAHA_FIXTURES, type KalahaTruth } from '../../server/simulate/index.ts';
import { STONE_SETS } from '../../firmware-bridge/index.ts';

function referee(trace: string, truth: KalahaTruth): { record: string[]; events: RefereeEvent[] } {
  const r = new KalahaReferee(truth.rules);
  const events: RefereeEvent[] = [];
  refereeKalahaTrace(r, trace, (e) => events.push(e));
  return { record: r.record(), events };
}

/** What the referee must say: the true record, an alert naming the pit for each whole illegal attempt, no other alerts. */
function expectRight({ record, events }: ReturnType<typeof referee>, truth: KalahaTruth): void {
  expect(record).toEqual(truth.record);
  const alerts = events.flatMap((e) => (e.kind === 'alert' ? [`${e.code} ${e.params.pit ?? ''}`] : []));
  // A half-sown attempt never rests on the board (stones stay in the hand until put back).
  const attempts = truth.illegalAttempts.filter((a) => !a.partial).map((a) => `${a.code} ${a.pit}`);
  expect(alerts).toEqual(attempts);
  if (truth.end) expect(events.filter((e) => e.kind === 'end')).toHaveLength(1);
}

describe('fixture traces', () => {
  test.each(KALAHA_FIXTURES.map((f) => f.name))('%s', (name) => {
    const trace = readFileSync(`tests/fixtures/kalaha/${name}.trace`, 'utf8');
    const truth = JSON.parse(readFileSync(`tests/fixtures/kalaha/${name}.truth.json`, 'utf8')) as KalahaTruth;
    expectRight(referee(trace, truth), truth);
  });
});

describe('generated games', () => {
  const cases = STONE_SETS.flatMap((stoneSet, i) => [
    { stoneSet, seed: 100 + i, noise: 0.1, glitchRate: 0.002, illegal: 0.15, takeBacks: 0.08 },
    { stoneSet, seed: 200 + i, noise: 0.2, glitchRate: 0.005, illegal: 0.1, takeBacks: 0.05 },
  ]);
  test.each(cases)('$stoneSet, noise $noise g, seed $seed', ({ stoneSet, seed, noise, glitchRate, illegal, takeBacks }) => {
    const { trace, truth } = generateKalahaTrace({
      seed,
      stoneSet,
      illegalProbability: illegal,
      takeBackProbability: takeBacks,
      sensor: { noiseGrams: noise, glitchRate, driftGramsPerMinute: 0.1 },
    });
    expectRight(referee(trace, truth), truth);
  });
});
