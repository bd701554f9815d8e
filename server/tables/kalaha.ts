// Kalaha on the weighing table.
import { parseOptions } from '../rules/kalaha.ts';
import { KalahaReferee } from '../referee/index.ts';
import { KalahaSession } from '../session/index.ts';
import { startSimulatedKalahaBoard } from '../../firmware-bridge/index.ts';
import { generateKalahaTrace, playKalahaGames, stringifyTruth } from '../simulate/index.ts';
import { UsageError } from '../cli.ts';
import { NO_EVENTS, refereeTrace } from './trace.ts';
import type { TableKit } from './types.ts';

export const kalahaTable: TableKit = {
  game: 'kalaha',
  title: 'Kalaha',
  board: 'kalaha',
  withRules(input) {
    const parsed = parseOptions(input);
    if (!parsed.ok) throw new UsageError(`--options: ${parsed.error.message}`);
    const rules = parsed.value;
    return {
      options: rules,
      async simulate({ seed, simSpeed }) {
        const sim = await startSimulatedKalahaBoard({ seed, stoneSet: 'mixed', seedsPerPit: rules.seedsPerPit, simSpeed, virtualTimestamps: true });
        const players = playKalahaGames(sim.table, { seed, rules, illegalProbability: 0.08, takeBackProbability: 0.03 });
        return {
          link: sim.link,
          boardId: 'simulated',
          description: 'a simulated table',
          close: async () => {
            players.stop();
            await sim.close();
          },
        };
      },
      session(settings, link) {
        const session = new KalahaSession({ ...settings, rules });
        link.on('weights', (frame) => session.frame(frame.receivedAt, frame.cells));
        return session;
      },
      refereeTrace(text, answersFile, print) {
        if (answersFile !== undefined) throw new UsageError('--answers is for games whose referee asks questions (malawi, makis, adu)');
        const referee = new KalahaReferee(rules);
        const summary = refereeTrace(text, (m) => (m.type === 'weights' ? referee.frame(m.receivedAt, m.cells) : NO_EVENTS), print);
        return { summary, record: referee.record() };
      },
      generateTrace({ seed, illegal, takebacks, people }) {
        const { trace, truth } = generateKalahaTrace({ seed, rules, illegalProbability: illegal, takeBackProbability: takebacks, people });
        return { trace, truth: stringifyTruth(truth) };
      },
    };
  },
};
