// Every game a table can be set up for: a kit for each of the four games.
import type { GameName } from '../rules/types.ts';
import { kalahaTable } from './kalaha.ts';
import { malawiTable } from './malawi.ts';
import { makisTable } from './makis.ts';
import { aduTable } from './adu.ts';
import type { TableKit } from './types.ts';

export const tables: Readonly<Record<GameName, TableKit>> = {
  kalaha: kalahaTable,
  malawi: malawiTable,
  makis: makisTable,
  adu: aduTable,
};

/** The games that can be played at a table now. */
export const tableGames = (): GameName[] => Object.keys(tables) as GameName[];

export { refereeTrace, traceHello, eventLine, NO_EVENTS, type TraceSummary } from './trace.ts';
export { readAnswers, answerLine, NO_ANSWERS, type Answers, type AnswerLine, type TimedAction } from './answers.ts';
export type { TableKit, TableGame, SimulateSettings, SimulatedTable, SessionSettings, TraceRun, TraceSettings, GeneratedTrace } from './types.ts';
