// `spieltisch referee`: referee a recorded sensor trace as fast as the machine allows, using the
// trace's timestamps as the clock; prints one JSON line per event and the record at the end.
import { readFileSync } from 'node:fs';
import { KalahaReferee, MalawiReferee, type RefereeEvent, type MalawiRefereeEvent, type MalawiCommandResult } from '../referee/index.ts';
import { kalahaRules, malawiRules } from './options.ts';
import { traceEntries, newTraceStats, parseLine, type BoardMessage } from '../../firmware-bridge/index.ts';
import { gameName, readInput, UsageError, type Io, type RefereeArgs } from '../cli.ts';

export async function refereeCommand({ values, positionals }: RefereeArgs, io: Io): Promise<number> {
  const name = gameName(values.game, ['kalaha', 'malawi']);
  const text = await readInput(positionals, io, 'trace');
  const print = (event: { t: number; kind: string }) => io.out(JSON.stringify(eventLine(event)));
  let summary: TraceSummary;
  let record: string[];
  if (name === 'kalaha') {
    if (values.answers !== undefined) throw new UsageError('--answers is for games whose referee asks questions (malawi)');
    const referee = new KalahaReferee(kalahaRules(values.options));
    summary = refereeTrace(text, (m) => (m.type === 'weights' ? referee.frame(m.receivedAt, m.cells) : NONE), print);
    record = referee.record();
  } else {
    const { answers, timed } = values.answers === undefined ? { answers: [] as string[], timed: [] as { t: number; move: string; back?: number }[] } : readAnswers(values.answers);
    const hello = [...traceEntries(text)].map((e) => parseLine(e.line)).find((p) => p.kind === 'message' && p.message.type === 'hello');
    const cols = hello?.kind === 'message' && hello.message.type === 'hello' ? (hello.message.cols ?? undefined) : undefined;
    const referee = new MalawiReferee(malawiRules(values.options, cols));
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
        const { move, back } = timed.shift() as { t: number; move: string; back?: number };
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
    summary = refereeTrace(
      text,
      (m) => {
        const acted = act(m.receivedAt);
        if (m.type === 'grid') return [...acted, ...respond(referee.frame(m.receivedAt, { type: 'grid', bits: m.occupancy }))];
        if (m.type === 'counts') return [...acted, ...respond(referee.frame(m.receivedAt, { type: 'counts', counts: m.cells }))];
        return acted;
      },
      print,
    );
    record = referee.record();
  }
  io.out(JSON.stringify({ kind: 'record', game: name, moves: record }));
  if (summary.frames === 0) {
    io.err(`spieltisch: the trace has no sensor frames for ${name} (${summary.lines} lines read, ${summary.dropped} dropped)`);
    return 1;
  }
  return 0;
}

const NONE: readonly never[] = [];

/** What the command prints for Malawi: the referee's events, and the console's answers. */
type CliEvent =
  | MalawiRefereeEvent
  | { readonly kind: 'answer'; readonly t: number; readonly id: number; readonly move: string; readonly ok: boolean; readonly error?: string; readonly message?: string };

function answerLine(t: number, id: number, move: string, answered: MalawiCommandResult): CliEvent {
  return { kind: 'answer', t, id, move, ok: answered.ok, ...(answered.ok ? {} : { error: answered.error.code, message: answered.error.message }) };
}

export interface TraceSummary {
  readonly lines: number;
  readonly frames: number;
  readonly dropped: number;
}

/**
 * Feeds a trace's lines, checked and parsed, to `onMessage` with the trace's time as `receivedAt`;
 * the events it returns go to `onEvent`. Unreadable lines are counted and passed by.
 */
export function refereeTrace<E extends { t: number; kind: string }>(
  text: string,
  onMessage: (message: BoardMessage) => readonly E[],
  onEvent: (event: E) => void,
): TraceSummary {
  const stats = newTraceStats();
  let frames = 0;
  let dropped = 0;
  for (const entry of traceEntries(text, stats)) {
    const parsed = parseLine(entry.line, entry.t);
    if (parsed.kind === 'dropped') dropped++;
    if (parsed.kind !== 'message') continue;
    const type = parsed.message.type;
    if (type === 'weights' || type === 'grid' || type === 'counts') frames++;
    for (const event of onMessage(parsed.message)) onEvent(event);
  }
  return { lines: stats.entries + stats.malformed, frames, dropped: dropped + stats.malformed };
}

/** Feeds a Kalaha trace to a Kalaha referee (tests and benches). */
export function refereeKalahaTrace(referee: KalahaReferee, text: string, onEvent: (event: RefereeEvent) => void): TraceSummary {
  return refereeTrace(text, (m) => (m.type === 'weights' ? referee.frame(m.receivedAt, m.cells) : NONE), onEvent);
}

/**
 * An answers file: one line per console action. `<move>` answers the referee's next question that
 * offers it; `<ms> <move>` announces at that trace time a capture or distribution the board cannot
 * see; `<ms> undo` takes the last move back; `<ms> back <n>` takes moves back until the record
 * has n. Blank lines and `#` comments are skipped.
 */
function readAnswers(file: string): { answers: string[]; timed: { t: number; move: string; back?: number }[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the answers file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const answers: string[] = [];
  const timed: { t: number; move: string; back?: number }[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    if (parts.length === 1) answers.push(parts[0]);
    else if (parts.length === 2 && /^\d+$/.test(parts[0])) timed.push({ t: Number(parts[0]), move: parts[1] });
    else if (parts.length === 3 && /^\d+$/.test(parts[0]) && parts[1] === 'back' && /^\d+$/.test(parts[2])) timed.push({ t: Number(parts[0]), move: 'back', back: Number(parts[2]) });
    else throw new UsageError(`${file} line ${i + 1}: write a move, a time in ms and a move (or "undo"), or a time and "back <plies>", not "${line}"`);
  }
  timed.sort((a, b) => a.t - b.t);
  return { answers, timed };
}

/** An event as the command prints it: `{"t":ms,"kind":"move","move":"C"}` and the like. */
export function eventLine(event: { t: number; kind: string }): Record<string, unknown> {
  const { t, kind, ...rest } = event;
  return { t: Math.round(t), kind, ...rest };
}
