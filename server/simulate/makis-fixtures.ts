// The Makis sensor-trace fixtures in tests/fixtures/makis: what each one covers, and how to write them again.
//   node bin/run-ts.js server/simulate/makis-fixtures.ts [DIR]
import { generateMakisTrace, makisAnswersOf, type MakisTrace, type MakisTraceOptions, type MakisTruth } from './makis-trace.ts';
import { fixtureTrace, runFixtureWriter, writeFixtureFiles, type Fixture } from './fixture-writer.ts';
import { formatTruthJson } from './truth-json.ts';

export type MakisFixture = Fixture<MakisTraceOptions>;

// Seeds were chosen (by scanning) for short games that show what each fixture is about, so the
// files stay small: at 20 Hz a 9 × 9 occupancy board writes about 0.8 KB of trace a second.
export const MAKIS_FIXTURES: readonly MakisFixture[] = [
  {
    name: 'solitaire',
    about: 'one player against the knights, a whole game won by the Maki reaching row 1; resets made at once',
    options: { seed: 20, rules: { players: 1 }, slowResetProbability: 0 },
  },
  {
    name: 'knights-win',
    about: 'one player, a whole game the knights win: a knight reaches row 9 (the referee waits a moment, a third knight might still move)',
    options: { seed: 1, rules: { players: 1 }, slowResetProbability: 0 },
  },
  {
    name: 'three-players',
    about: 'three players, the first ten rolls: passes seen only when a later Maki or the next roll moves, Makis and knights sent back (once in another order), a Maki captured',
    options: { seed: 22, rules: { players: 3 }, slowResetProbability: 0, maxRounds: 10 },
  },
  {
    name: 'mistakes',
    about: 'three players, the first ten rolls: Makis moved two squares and put back or moved on, knights moved for misread rolls the dice cannot make',
    options: { seed: 7, rules: { players: 3 }, illegalProbability: 0.3, slowResetProbability: 0, maxRounds: 10 },
  },
  {
    name: 'slow-resets',
    about: 'four players, the first ten rolls: resets made only after a long pause (the referee names them), resets in another order, take-backs',
    options: { seed: 5, rules: { players: 4 }, slowResetProbability: 0.5, takeBackProbability: 0.15, maxRounds: 10 },
  },
  {
    name: 'console-question',
    about: 'three players to the end: two knights home from row 8, one of them with a step left over; the console says which was the double',
    options: { seed: 119, rules: { players: 3 }, slowResetProbability: 0 },
  },
  {
    name: 'flicker',
    about: 'two players, cooperative, the first twelve rolls, on sensors that flicker (0.2 % of squares per frame) with a sticking switch under 5/5',
    options: { seed: 2, rules: { players: 2, mode: 'cooperative' }, sensor: { flickerRate: 0.002, flakyCell: 40, flakyRate: 0.01 }, maxRounds: 12 },
  },
];

/** JSON with arrays of plain values kept on one line, so a truth file stays readable. */
export function stringifyMakisTruth(truth: MakisTruth): string {
  return formatTruthJson(truth);
}

export function generateMakisFixture(fixture: MakisFixture): MakisTrace {
  return fixtureTrace(fixture, generateMakisTrace);
}

/** Writes `<name>.trace`, `<name>.truth.json` and `<name>.answers` for every fixture; returns the files written. */
export function writeMakisFixtures(dir: string): string[] {
  return writeFixtureFiles(dir, MAKIS_FIXTURES, generateMakisFixture, makisAnswersOf);
}

runFixtureWriter(import.meta.url, 'tests/fixtures/makis', writeMakisFixtures);
