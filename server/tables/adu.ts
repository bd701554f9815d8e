// Adu on an occupancy grid of intersections (a counting board is read as occupancy).
import { parseOptions } from '../rules/adu.ts';
import { AduReferee, type AduRefereeEvent, type AduRefereeOptions } from '../referee/index.ts';
import { AduSession } from '../session/index.ts';
import { startSimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { aduBoardSetup, formatTruthJson, generateAduTrace, playAduGames } from '../simulate/index.ts';
import { UsageError } from '../cli.ts';
import { refereeTrace } from './trace.ts';
import { answerLine, readAnswers, type AnswerLine } from './answers.ts';
import type { TableKit } from './types.ts';

/** The largest Adu board a grid firmware can sense: 13 × 13 intersections. */
const MAX_GRID = 13;

/**
 * The live simulated table's referee: its players cannot answer the console, so a declaration a
 * move depends on takes the default (the lowest range) at once, which is also what they declare.
 */
export const SIMULATED_TABLE_REFEREE: AduRefereeOptions = { declareTimeoutMs: 0 };

export const aduTable: TableKit = {
  game: 'adu',
  title: 'Adu',
  board: 'grid',
  withRules(input, hello) {
    // A board's size comes from its HELLO line when `--options` leaves it out.
    const size = hello?.cols ?? undefined;
    if (hello && hello.cols !== null && hello.rows !== null && hello.cols !== hello.rows) {
      throw new UsageError(`Adu is played on a square grid; the board has ${hello.cols} × ${hello.rows} points`);
    }
    const parsed = parseOptions(size !== undefined && input.size === undefined ? { ...input, size } : input);
    if (!parsed.ok) throw new UsageError(`--options: ${parsed.error.message}`);
    const rules = parsed.value;
    if (rules.size > MAX_GRID) throw new UsageError(`--options: a grid board senses at most ${MAX_GRID} × ${MAX_GRID} points, not ${rules.size} × ${rules.size}`);
    return {
      options: rules,
      async simulate({ seed, simSpeed }) {
        // Adu's pieces carry no beads: the simulated board senses occupancy, whatever --sense says.
        const sim = await startSimulatedGridBoard({ seed, sense: 'occupancy', simSpeed, virtualTimestamps: true, ...aduBoardSetup(rules) });
        const players = playAduGames(sim.table, { seed, rules, illegalProbability: 0.05, takeBackProbability: 0.03 });
        return {
          link: sim.link,
          boardId: 'simulated-grid',
          description: `a simulated ${rules.size} × ${rules.size} board sensing occupancy, ${rules.players} players`,
          close: async () => {
            players.stop();
            await sim.close();
          },
        };
      },
      session(settings, link) {
        const session = new AduSession({ ...settings, rules, referee: settings.source === 'simulated' ? SIMULATED_TABLE_REFEREE : {} });
        link.on('grid', (frame) => session.frame(frame.receivedAt, { type: 'grid', bits: frame.occupancy }));
        link.on('counts', (frame) => session.frame(frame.receivedAt, { type: 'counts', counts: frame.cells }));
        return session;
      },
      refereeTrace(text, answersFile, print) {
        const referee = new AduReferee(rules);
        const { answers } = readAnswers(answersFile);
        const summary = refereeAduTrace(referee, text, answers, print);
        return { summary, record: referee.record() };
      },
      generateTrace({ seed, illegal, takebacks, people }) {
        const { trace, truth } = generateAduTrace({ seed, rules, illegalProbability: illegal, takeBackProbability: takebacks, people });
        return { trace, truth: formatTruthJson(truth) };
      },
    };
  },
};

/** What the command prints for Adu: the referee's events, and the console's answers. */
export type AduCliEvent = AduRefereeEvent | AnswerLine;

/**
 * Referees an Adu trace with the console played by a list of answers: each question the referee
 * asks is answered at once with the first answer still unused that is one of its options (which
 * move it was, or a captured soldier's declared range). Questions no answer fits stay open, as
 * they would at a table where nobody answers.
 */
export function refereeAduTrace(referee: AduReferee, text: string, answers: string[], print: (event: AduCliEvent) => void) {
  const respond = (events: readonly AduRefereeEvent[]): AduCliEvent[] => {
    const out: AduCliEvent[] = [];
    for (const event of events) {
      out.push(event);
      if (event.kind !== 'question') continue;
      const i = answers.findIndex((a) => event.options.includes(a));
      if (i < 0) continue;
      const [move] = answers.splice(i, 1);
      const answered = referee.answer(event.id, move, event.t);
      out.push(answerLine(event.t, event.id, move, answered));
      if (answered.ok) out.push(...respond(answered.events));
    }
    return out;
  };
  return refereeTrace(
    text,
    (m) => {
      if (m.type === 'grid') return respond(referee.frame(m.receivedAt, { type: 'grid', bits: m.occupancy }));
      if (m.type === 'counts') return respond(referee.frame(m.receivedAt, { type: 'counts', counts: m.cells }));
      return [];
    },
    print,
  );
}
