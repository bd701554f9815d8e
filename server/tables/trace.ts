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
 * The end of a trace is the board holding its last picture: the last picture is fed again at the
 * board's frame rate, on the trace's clock, until the referee has said nothing for QUIET_MS (longer
 * than any wait for a still board: a hand under way is given 6 s) or HOLD_MS have passed since the
 * last line, whichever comes first. A decision waiting for stillness (Makis' last roll) is made;
 * a question nobody answers stays open, as it would at a board left standing for a while. The
 * picture held is each cell's median over the last HELD_FRAMES frames, so that a glitch in the very
 * last frame (a flaky sensor, a noisy scale) is not taken for what the board holds.
 */
export const TRACE_END = { QUIET_MS: 10_000, HOLD_MS: 30_000 } as const;

/** Frames whose median per cell is the picture held at the end: an odd number, enough to outvote two glitches. */
const HELD_FRAMES = 5;
/** Frames whose intervals give the board's rate at the end: enough to see past one lost frame. */
const RATE_FRAMES = 16;
/** Without two frames to tell it, the board's rate is taken as 10 Hz; no board sends faster than 1 kHz or slower than 1 Hz. */
const DEFAULT_FRAME_MS = 100;
const FRAME_MS = { min: 1, max: 1000 } as const;

type Frame = Extract<BoardMessage, { type: 'weights' | 'grid' | 'counts' }>;

/**
 * Feeds a trace's lines, checked and parsed, to `onMessage` with the trace's time as `receivedAt`;
 * the events it returns go to `onEvent`. Unreadable lines are counted and passed by. After the
 * last line the board holds its last picture (TRACE_END).
 */
export function refereeTrace<E extends { t: number; kind: string }>(
  text: string,
  onMessage: (message: BoardMessage) => readonly E[],
  onEvent: (event: E) => void,
): TraceSummary {
  const stats = newTraceStats();
  let frames = 0;
  let dropped = 0;
  let last = null as Frame | null;
  const recent: Frame[] = [];
  const intervals: number[] = [];
  let lastT = 0;
  let said = Number.NEGATIVE_INFINITY;
  const feed = (message: BoardMessage) => {
    for (const event of onMessage(message)) {
      said = message.receivedAt;
      onEvent(event);
    }
  };
  for (const entry of traceEntries(text, stats)) {
    const parsed = parseLine(entry.line, entry.t);
    if (parsed.kind === 'dropped') dropped++;
    if (parsed.kind !== 'message') continue;
    const message = parsed.message;
    lastT = Math.max(lastT, message.receivedAt);
    if (message.type === 'weights' || message.type === 'grid' || message.type === 'counts') {
      frames++;
      if (last?.type === message.type && message.receivedAt > last.receivedAt) {
        intervals.push(message.receivedAt - last.receivedAt);
        if (intervals.length > RATE_FRAMES) intervals.shift();
      }
      if (last?.type !== message.type) recent.length = 0;
      recent.push(message);
      if (recent.length > HELD_FRAMES) recent.shift();
      last = message;
    }
    feed(message);
  }
  if (last) holdLastPicture(heldPicture(recent), frameMs(intervals), lastT, () => said, feed);
  return { lines: stats.entries + stats.malformed, frames, dropped: dropped + stats.malformed };
}

/** The last frame again and again after the trace's end (TRACE_END), each stamped one frame later. */
function holdLastPicture(last: Frame, every: number, end: number, lastSaid: () => number, feed: (message: BoardMessage) => void): void {
  const until = end + TRACE_END.HOLD_MS;
  let seq = last.seq;
  for (let t = end + every; t <= until; t += every) {
    if (t - Math.max(end, lastSaid()) >= TRACE_END.QUIET_MS) return;
    // Frames numbered on, as the board numbers them: the same picture, not a lost one.
    seq = (seq + 1) >>> 0;
    feed({ ...last, seq, receivedAt: t });
  }
}

/** Each cell's median over the frames (all of one type, the last one newest): the picture the board holds. */
function heldPicture(frames: readonly Frame[]): Frame {
  const last = frames[frames.length - 1];
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  switch (last.type) {
    case 'weights':
    case 'counts': {
      const all = frames as readonly (typeof last)[];
      return { ...last, cells: last.cells.map((_, i) => median(all.map((f) => f.cells[i]))) };
    }
    case 'grid': {
      const all = frames as readonly (typeof last)[];
      let occupancy = 0n;
      const highest = all.reduce((n, f) => Math.max(n, f.occupancy.toString(2).length), 0);
      for (let bit = 0n; bit < BigInt(highest); bit++) {
        const set = all.filter((f) => (f.occupancy >> bit) & 1n).length;
        if (set * 2 > all.length) occupancy |= 1n << bit;
      }
      return { ...last, occupancy };
    }
  }
}

/** The board's frame interval at the end of the trace: the median of the last intervals, so a lost frame does not count. */
function frameMs(intervals: readonly number[]): number {
  if (intervals.length === 0) return DEFAULT_FRAME_MS;
  const sorted = [...intervals].sort((a, b) => a - b);
  return Math.min(FRAME_MS.max, Math.max(FRAME_MS.min, sorted[Math.floor(sorted.length / 2)]));
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
