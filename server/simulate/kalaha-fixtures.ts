// The Kalaha sensor-trace fixtures in tests/fixtures/kalaha: what each one covers, and how to write them again.
//   node bin/run-ts.js server/simulate/kalaha-fixtures.ts [DIR]
import { generateKalahaTrace, type KalahaTrace, type KalahaTraceOptions, type KalahaTruth } from './kalaha-trace.ts';
import { fixtureTrace, runFixtureWriter, writeFixtureFiles, type Fixture } from './fixture-writer.ts';
import { formatTruthJson } from './truth-json.ts';

export type KalahaFixture = Fixture<KalahaTraceOptions>;

// Seeds were chosen (by scanning) for short games that show what each fixture is about, so the
// files stay small: a full game at 20 Hz is about 7 KB of trace per move.
export const KALAHA_FIXTURES: readonly KalahaFixture[] = [
  {
    name: 'clean-acorns',
    about: 'a whole game to its end (cannot-feed), acorns, ordinary noise, a two-pit capture, no mistakes',
    options: { seed: 145 },
  },
  {
    name: 'illegal-attempts',
    about: "a whole game with attempts to sow the opponent's pits and one refusal to feed, each put back, some half-sown",
    options: { seed: 9315, illegalProbability: 0.3 },
  },
  {
    name: 'take-backs',
    about: 'take-backs of one and of two moves, one undoing a capture (stones return from the store); stops mid-game',
    options: { seed: 302, takeBackProbability: 0.2, maxMoves: 26 },
  },
  {
    name: 'noisy-glitches',
    about: 'a whole game with 0.3 g noise, 0.5 g/min drift, one-frame glitches and a hand that presses hard and often',
    options: {
      seed: 416,
      sensor: { noiseGrams: 0.3, driftGramsPerMinute: 0.5, glitchRate: 0.003 },
      hand: { pressProbability: 0.6, pressGrams: [3, 10] },
    },
  },
  {
    name: 'variant-36',
    about: 'the 36-stone variant (seedsPerPit 3), a whole game',
    options: { seed: 515, rules: { seedsPerPit: 3 } },
  },
  {
    name: 'marbles',
    about: 'glass marbles, 4–6 g each; the first 20 moves',
    options: { seed: 600, stoneSet: 'marbles', maxMoves: 20 },
  },
  {
    name: 'mixed',
    about: 'a mixed set (beans to chestnuts, 1–10 g); the first 20 moves',
    options: { seed: 700, stoneSet: 'mixed', maxMoves: 20 },
  },
];

/** JSON with arrays of plain values kept on one line, so a truth file stays readable. */
export function stringifyTruth(truth: KalahaTruth): string {
  return formatTruthJson(truth);
}

export function generateFixture(fixture: KalahaFixture): KalahaTrace {
  return fixtureTrace(fixture, generateKalahaTrace);
}

/** Writes `<name>.trace` and `<name>.truth.json` for every fixture (the table sees every move: no console answers); returns the files written. */
export function writeKalahaFixtures(dir: string): string[] {
  return writeFixtureFiles(dir, KALAHA_FIXTURES, generateFixture);
}

runFixtureWriter(import.meta.url, 'tests/fixtures/kalaha', writeKalahaFixtures);
