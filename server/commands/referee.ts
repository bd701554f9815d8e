// `spieltisch referee`: referee a recorded sensor trace as fast as the machine allows, using the
// trace's timestamps as the clock; prints one JSON line per event and the record at the end.
import { KalahaReferee, type RefereeEvent } from '../referee/index.ts';
import { kalahaRules } from './options.ts';
import { traceEntries, newTraceStats, parseLine } from '../../firmware-bridge/index.ts';
import { gameName, readInput, type Io, type RefereeArgs } from '../cli.ts';

export async function refereeCommand({ values, positionals }: RefereeArgs, io: Io): Promise<number> {
  const name = gameName(values.game, ['kalaha']);
  const rules = kalahaRules(values.options);
  const text = await readInput(positionals, io, 'trace');
  const referee = new KalahaReferee(rules);
  const summary = refereeTrace(referee, text, (event) => io.out(JSON.stringify(eventLine(event))));
  io.out(JSON.stringify({ kind: 'record', game: name, moves: referee.record() }));
  if (summary.frames === 0) {
    io.err(`spieltisch: the trace has no weight frames (${summary.lines} lines read, ${summary.dropped} dropped)`);
    return 1;
  }
  return 0;
}

export interface TraceSummary {
  readonly lines: number;
  readonly frames: number;
  readonly dropped: number;
}

/** Feed a trace's weight frames to the referee; other lines (HELLO, HB, …) pass by. */
export function refereeTrace(referee: KalahaReferee, text: string, onEvent: (event: RefereeEvent) => void): TraceSummary {
  const stats = newTraceStats();
  let frames = 0;
  let dropped = 0;
  for (const entry of traceEntries(text, stats)) {
    const parsed = parseLine(entry.line);
    if (parsed.kind === 'dropped') dropped++;
    if (parsed.kind !== 'message' || parsed.message.type !== 'weights') continue;
    frames++;
    for (const event of referee.frame(entry.t, parsed.message.cells)) onEvent(event);
  }
  const lines = stats.entries + stats.malformed;
  dropped += stats.malformed;
  return { lines, frames, dropped };
}

/** An event as the command prints it: `{"t":ms,"kind":"move","move":"C"}` and the like. */
export function eventLine(event: RefereeEvent): Record<string, unknown> {
  const { t, kind, ...rest } = event;
  return { t: Math.round(t), kind, ...rest };
}
