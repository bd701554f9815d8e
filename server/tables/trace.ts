// Refereeing a recorded sensor trace: its lines checked and parsed, fed to a referee on the
// trace's own clock.
import { traceEntries, newTraceStats, parseLine, type BoardMessage } from '../../firmware-bridge/index.ts';

export interface TraceSummary {
  readonly lines: number;
  readonly frames: number;
  readonly dropped: number;
}

export const NO_EVENTS: readonly never[] = [];

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

/** The HELLO line of a trace, if it has one (a square board's size comes from it). */
export function traceHello(text: string) {
  for (const entry of traceEntries(text)) {
    const parsed = parseLine(entry.line);
    if (parsed.kind === 'message' && parsed.message.type === 'hello') return parsed.message;
  }
  return undefined;
}

/** An event as the command prints it: `{"t":ms,"kind":"move","move":"C"}` and the like. */
export function eventLine(event: { t: number; kind: string }): Record<string, unknown> {
  const { t, kind, ...rest } = event;
  return { t: Math.round(t), kind, ...rest };
}
