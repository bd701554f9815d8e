// The Adu sensor-trace fixtures in tests/fixtures/adu: what each one covers, and how to write them again.
//   node bin/run-ts.js server/simulate/adu-fixtures.ts [DIR]
import { aduAnswersOf, generateAduTrace, type AduTrace, type AduTraceOptions } from './adu-trace.ts';
import { fixtureTrace, runFixtureWriter, writeFixtureFiles, type Fixture } from './fixture-writer.ts';

export type AduFixture = Fixture<AduTraceOptions>;

/** Quicker players than the default hand, so the traces stay small (a 9 × 9 board writes about 2.5 KB of trace per move, a 13 × 13 one 4 KB). */
const BRISK = { thinkMs: [700, 1500] as const };

// Seeds were chosen (by scanning) for short games that show what each fixture is about.
export const ADU_FIXTURES: readonly AduFixture[] = [
  {
    name: 'two-players',
    about:
      'a whole game of two on 9 x 9: placement, captures (one in a single sweep the console names), soldiers declared above their lowest range, reserve kings, a move that looks like a king capture, a player put out',
    options: { seed: 7, rules: { players: 2, size: 9 }, hand: BRISK },
  },
  {
    name: 'default-board',
    about: 'a whole game of two on the default 13 x 13 board, to the last king',
    options: { seed: 2, rules: { players: 2 }, hand: BRISK, maxMoves: 32 },
  },
  {
    name: 'mistakes-and-take-backs',
    about: 'three players on 9 x 9, the first 40 moves: pieces put too far, past others, off the lines, out of turn, reserve kings moved; take-backs of one and two moves',
    options: { seed: 5, rules: { players: 3, size: 9 }, hand: BRISK, illegalProbability: 0.3, takeBackProbability: 0.2, maxMoves: 40 },
  },
  {
    name: 'six-players',
    about: 'six players on 9 x 9, the first 62 moves: the supply of reserve kings runs out, a player is put out',
    options: { seed: 1, rules: { players: 6, size: 9 }, hand: BRISK, maxMoves: 62 },
  },
  {
    name: 'flaky-sensors',
    about: 'a whole game of two on 9 x 9 on sensors that flicker (0.2 % of points per frame) with a sticking switch under d4',
    options: { seed: 4, rules: { players: 2, size: 9 }, hand: BRISK, sensor: { flickerRate: 0.002, flakyCell: 30, flakyRate: 0.01 } },
  },
];

export function generateAduFixture(fixture: AduFixture): AduTrace {
  return fixtureTrace(fixture, generateAduTrace);
}

/** Writes `<name>.trace`, `<name>.truth.json` and `<name>.answers` for every fixture; returns the files written. */
export function writeAduFixtures(dir: string): string[] {
  return writeFixtureFiles(dir, ADU_FIXTURES, generateAduFixture, aduAnswersOf);
}

runFixtureWriter(import.meta.url, 'tests/fixtures/adu', writeAduFixtures);
