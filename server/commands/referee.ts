// `spieltisch referee`: referee a recorded sensor trace as fast as the machine allows, using the
// trace's timestamps as the clock; prints one JSON line per event and the record at the end.
import type { KalahaReferee, RefereeEvent } from '../referee/index.ts';
import { tables, tableGames, traceHello, eventLine, refereeTrace, NO_EVENTS, type TraceSummary } from '../tables/index.ts';
import { gameName, readInput, type Io, type RefereeArgs } from '../cli.ts';
import { optionsJson } from './options.ts';

export async function refereeCommand({ values, positionals }: RefereeArgs, io: Io): Promise<number> {
  const name = gameName(values.game, tableGames());
  const text = await readInput(positionals, io, 'trace');
  const game = tables[name].withRules(optionsJson(values.options), traceHello(text));
  const { summary, record } = game.refereeTrace(text, values.answers, (event) => io.out(JSON.stringify(eventLine(event))));
  io.out(JSON.stringify({ kind: 'record', game: name, moves: record }));
  if (summary.frames === 0) {
    io.err(`spieltisch: the trace has no sensor frames for ${name} (${summary.lines} lines read, ${summary.dropped} dropped)`);
    return 1;
  }
  return 0;
}

export { eventLine, refereeTrace, type TraceSummary };

/** Feeds a Kalaha trace to a Kalaha referee (tests and benches). */
export function refereeKalahaTrace(referee: KalahaReferee, text: string, onEvent: (event: RefereeEvent) => void): TraceSummary {
  return refereeTrace(text, (m) => (m.type === 'weights' ? referee.frame(m.receivedAt, m.cells) : NO_EVENTS), onEvent);
}
