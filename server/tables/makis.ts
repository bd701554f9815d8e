// Makis on a 9 × 9 board that senses occupancy: nine knights, and one Maki per player beside the board until placed.
import { SIZE, parseOptions } from '../rules/makis.ts';
import { MakisReferee, type MakisRefereeEvent } from '../referee/index.ts';
import { MakisSession } from '../session/index.ts';
import { startSimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { generateMakisTrace, makisBoardSetup, playMakisGames, stringifyMakisTruth } from '../simulate/index.ts';
import { UsageError } from '../cli.ts';
import { refereeTrace } from './trace.ts';
import { answerLine, readAnswers, type AnswerLine } from './answers.ts';
import type { TableKit } from './types.ts';

export const makisTable: TableKit = {
  game: 'makis',
  title: 'Makis',
  board: 'grid',
  withRules(input, hello) {
    if (hello && ((hello.cols !== null && hello.cols !== SIZE) || (hello.rows !== null && hello.rows !== SIZE))) {
      throw new UsageError(`Makis is played on a 9 × 9 board; this board has ${hello.cols} × ${hello.rows} squares`);
    }
    const parsed = parseOptions(input);
    if (!parsed.ok) throw new UsageError(`--options: ${parsed.error.message}`);
    const rules = parsed.value;
    return {
      options: rules,
      // Makis pieces carry no beads: the simulated board senses occupancy, whatever --sense says.
      async simulate({ seed, simSpeed }) {
        const sim = await startSimulatedGridBoard({ seed, sense: 'occupancy', simSpeed, virtualTimestamps: true, ...makisBoardSetup(rules) });
        const players = playMakisGames(sim.table, { seed, rules, illegalProbability: 0.08, takeBackProbability: 0.03 });
        const who = rules.players === 1 ? 'one player' : `${rules.players} players`;
        return {
          link: sim.link,
          boardId: 'simulated-makis',
          description: `a simulated 9 × 9 board sensing occupancy, ${who} (${rules.mode})`,
          close: async () => {
            players.stop();
            await sim.close();
          },
        };
      },
      session(settings, link) {
        const session = new MakisSession({ ...settings, rules });
        link.on('grid', (frame) => session.frame(frame.receivedAt, { type: 'grid', bits: frame.occupancy }));
        link.on('counts', (frame) => session.frame(frame.receivedAt, { type: 'counts', counts: frame.cells }));
        return session;
      },
      refereeTrace(text, answersFile, print) {
        const referee = new MakisReferee(rules);
        const summary = refereeMakisTrace(referee, text, answersFile, print);
        return { summary, record: referee.record() };
      },
      generateTrace({ seed, illegal, takebacks, people }) {
        const { trace, truth } = generateMakisTrace({ seed, rules, illegalProbability: illegal, takeBackProbability: takebacks, people });
        return { trace, truth: stringifyMakisTruth(truth) };
      },
    };
  },
};

/** What the command prints for Makis: the referee's events, and the console's answers. */
type CliEvent = MakisRefereeEvent | AnswerLine;

/**
 * Referees a Makis trace with an answers file as the referee console: a plain move answers the
 * referee's next question that offers it; `<ms> <move>` enters a move by hand at that trace time,
 * `<ms> undo` takes the last move back, `<ms> back <plies>` takes moves back until the record has that many.
 */
export function refereeMakisTrace(referee: MakisReferee, text: string, answersFile: string | undefined, print: (event: CliEvent) => void) {
  const { answers, timed } = readAnswers(answersFile);
  const respond = (events: readonly MakisRefereeEvent[]): CliEvent[] => {
    const out: CliEvent[] = [];
    for (const event of events) {
      out.push(event);
      if (event.kind !== 'question' || answers.length === 0 || !event.options.includes(answers[0])) continue;
      const move = answers.shift() as string;
      const answered = referee.answer(event.id, move, event.t);
      out.push(answerLine(event.t, event.id, move, answered));
      if (answered.ok) out.push(...respond(answered.events));
    }
    return out;
  };
  const act = (t: number): CliEvent[] => {
    const out: CliEvent[] = [];
    while (timed.length && timed[0].t <= t) {
      const { move, back } = timed.shift()!;
      if (move === 'undo') {
        out.push(...respond(referee.undo(t)));
        continue;
      }
      if (back !== undefined) {
        while (referee.record().length > back) {
          const undone = referee.undo(t);
          if (undone.length === 0) break;
          out.push(...respond(undone));
        }
        continue;
      }
      const entered = referee.enter(move, t);
      if (entered.ok) out.push(...respond(entered.events));
      else out.push({ kind: 'answer', t, id: 0, move, ok: false, error: entered.error.code, message: entered.error.message });
    }
    return out;
  };
  return refereeTrace(
    text,
    (m) => {
      const acted = act(m.receivedAt);
      if (m.type === 'grid') return [...acted, ...respond(referee.frame(m.receivedAt, { type: 'grid', bits: m.occupancy }))];
      if (m.type === 'counts') return [...acted, ...respond(referee.frame(m.receivedAt, { type: 'counts', counts: m.cells }))];
      return acted;
    },
    print,
  );
}
