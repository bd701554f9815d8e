// The Malawi sensor-trace fixtures in tests/fixtures/malawi: what each one covers, and how to write them again.
//   node bin/run-ts.js server/simulate/malawi-fixtures.ts [DIR]
import { answersOf, generateMalawiTrace, type MalawiTrace, type MalawiTraceOptions, type MalawiTruth } from './malawi-trace.ts';
import { fixtureTrace, runFixtureWriter, writeFixtureFiles, type Fixture } from './fixture-writer.ts';
import { formatTruthJson } from './truth-json.ts';

export type MalawiFixture = Fixture<MalawiTraceOptions>;

// Seeds were chosen (by scanning) for short games that show what each fixture is about, so the
// files stay small: at 20 Hz an occupancy board writes about 2 KB of trace per move, a counting
// board about 7 KB.
export const MALAWI_FIXTURES: readonly MalawiFixture[] = [
  {
    name: 'occupancy-game',
    about: 'a whole game on an occupancy board to a baseline win, no mistakes; captures and distributions the console must name',
    options: { seed: 5 },
  },
  {
    name: 'count-board',
    about: 'a counting board (C frames), the first 14 moves; one capture that another piece could have made as well',
    options: { seed: 5, sense: 'count', maxMoves: 14 },
  },
  {
    name: 'illegal-placements',
    about: 'a whole game with pieces put at the wrong distance, diagonally, past another piece, or moved at strength 0; each put back or moved on to a legal square',
    options: { seed: 22, illegalProbability: 0.3 },
  },
  {
    name: 'take-backs',
    about: 'take-backs of one and of two moves, undoing steps, captures (beads back from the box) and a distribution; stops mid-game',
    options: { seed: 10, takeBackProbability: 0.2, maxMoves: 30 },
  },
  {
    name: 'flicker',
    about: 'a whole game on sensors that flicker (0.2 % of squares per frame) with a sticking switch under c3',
    options: { seed: 4, sensor: { flickerRate: 0.002, flakyCell: 14, flakyRate: 0.01 } },
  },
  {
    name: 'size-8',
    about: 'an 8 x 8 board with maximum strength 6, the first 20 moves',
    options: { seed: 8, rules: { size: 8, maxStrength: 6 }, maxMoves: 20 },
  },
];

/** JSON with arrays of plain values kept on one line, so a truth file stays readable. */
export function stringifyMalawiTruth(truth: MalawiTruth): string {
  return formatTruthJson(truth);
}

export function generateMalawiFixture(fixture: MalawiFixture): MalawiTrace {
  return fixtureTrace(fixture, generateMalawiTrace);
}

/** Writes `<name>.trace`, `<name>.truth.json` and `<name>.answers` for every fixture; returns the files written. */
export function writeMalawiFixtures(dir: string): string[] {
  return writeFixtureFiles(dir, MALAWI_FIXTURES, generateMalawiFixture, answersOf);
}

runFixtureWriter(import.meta.url, 'tests/fixtures/malawi', writeMalawiFixtures);
