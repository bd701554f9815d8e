// Malawi on a square board that senses occupancy or counts beads.
import { parseOptions } from '../rules/malawi.ts';
import { MalawiReferee, type MalawiRefereeEvent } from '../referee/index.ts';
import { MalawiSession } from '../session/index.ts';
import { startSimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { generateMalawiTrace, playMalawiGames, malawiBoardSetup, stringifyMalawiTruth } from '../simulate/index.ts';
import { UsageError } from '../cli.ts';
import { refereeTrace } from './trace.ts';
import { answerLine, readAnswers, type AnswerLine } from './answers.ts';
import type { TableKit } from './types.ts';

export const malawiTable: TableKit = {
  game: 'malawi',
  title: 'Malawi',
  board: 'grid',
  withRules(input, hello) {
    // A board's size comes from its HELLO line when `--options` leaves it out.
    const size = hello?.cols ?? undefined;
    const parsed = parseOptions(size !== undefined && input.size === undefined ? { ...input, size } : input);
    if (!parsed.ok) throw new UsageError(`--options: ${parsed.error.message}`);
    const rules = parsed.value;
    return {
      options: rules,
      async simulate({ seed, simSpeed, sense }) {
        const sim = await startSimulatedGridBoard({ seed, sense, simSpeed, virtualTimestamps: true, ...malawiBoardSetup(rules) });
        // Simulated players make no console announcements: on an occupancy board their captures and
        // distributions show up as questions for the referee console.
        const players = playMalawiGames(sim.table, { seed, rules, illegalProbability: 0.08, takeBackProbability: 0.03 });
        return {
          link: sim.link,
          boardId: 'simulated-grid',
          description: `a simulated board sensing ${sense}`,
          close: async () => {
            players.stop();
            await sim.close();
          },
        };
      },
      session(settings, link) {
        const session = new MalawiSession({ ...settings, rules });
        link.on('grid', (frame) => session.frame(frame.receivedAt, { type: 'grid', bits: frame.occupancy }));
        link.on('counts', (frame) => session.frame(frame.receivedAt, { type: 'counts', counts: frame.cells }));
        return session;
      },
      refereeTrace(text, answersFile, print) {
        const referee = new MalawiReferee(rules);
        const summary = refereeMalawiTrace(referee, text, answersFile, print);
        return { summary, record: referee.record() };
      },
      generateTrace({ seed, illegal, takebacks, sense, people }) {
        const { trace, truth } = generateMalawiTrace({ seed, rules, sense, illegalProbability: illegal, takeBackProbability: takebacks, people });
        return { trace, truth: stringifyMalawiTruth(truth) };
      },
    };
  },
};

/** What the command prints for Malawi: the referee's events, and the console's answers. */
type CliEvent = MalawiRefereeEvent | AnswerLine;

function refereeMalawiTrace(referee: MalawiReferee, text: string, answersFile: string | undefined, print: (event: CliEvent) => void) {
  const { answers, timed } = readAnswers(answersFile);
  // The answers file plays the referee console: a question is answered at once with the next
  // answer when it is one of the options; and on a board that senses occupancy only, an opponent's
  // piece moving out of turn means a capture or distribution went unseen, which the console then
  // enters (ask which, answer) as a person at the table would.
  const respond = (events: readonly MalawiRefereeEvent[]): CliEvent[] => {
    const out: CliEvent[] = [];
    for (const event of events) {
      out.push(event);
      if (answers.length === 0) continue;
      if (event.kind === 'alert' && event.code === 'malawi/not-your-piece' && referee.sensing === 'occupancy') {
        const asked = referee.askWhich(event.t);
        if (asked.ok) out.push(...respond(asked.events));
        continue;
      }
      if (event.kind !== 'question' || !event.options.includes(answers[0])) continue;
      const move = answers.shift() as string;
      const answered = referee.answer(event.id, move, event.t);
      out.push(answerLine(event.t, event.id, move, answered));
      if (answered.ok) out.push(...respond(answered.events));
    }
    return out;
  };
  // Timed lines are the console acting by itself: announcing a capture or distribution the
  // board cannot see (ask which, then answer), or undoing a move.
  const act = (t: number): CliEvent[] => {
    const out: CliEvent[] = [];
    while (timed.length && timed[0].t <= t) {
      const { move, back } = timed.shift()!;
      if (move === 'undo') {
        out.push(...respond(referee.undo(t)));
        continue;
      }
      if (back !== undefined) {
        // The players took moves back: undo on the console what the board could not show.
        for (let plies = referee.record().length; plies > back; ) {
          out.push(...respond(referee.undo(t)));
          const now = referee.record().length;
          if (now >= plies) break; // nothing more to undo
          plies = now;
        }
        continue;
      }
      const asked = referee.askWhich(t);
      const question = referee.openQuestions()[0];
      if (!asked.ok || !question) continue;
      out.push(...asked.events);
      const answered = referee.answer(question.id, move, t);
      out.push(answerLine(t, question.id, move, answered));
      if (answered.ok) out.push(...respond(answered.events));
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
