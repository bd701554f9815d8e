// Sensor traces: `<ms since start> <protocol line>` per line; reading them (sync or async) and writing them.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface TraceEntry {
  /** Milliseconds since the start of the trace. */
  readonly t: number;
  /** The protocol line exactly as received, checksum included, terminator not. */
  readonly line: string;
}

export interface TraceReadStats {
  entries: number;
  /** Blank and `#` comment lines, skipped by design. */
  skipped: number;
  /** Lines whose timestamp (or the line after it) is missing or not a number: counted, not fatal. */
  malformed: number;
}

export function newTraceStats(): TraceReadStats {
  return { entries: 0, skipped: 0, malformed: 0 };
}

const TIMESTAMP = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** One line of a trace file → an entry, or null (skipped or malformed, as counted in `stats`). */
export function parseTraceLine(text: string, stats: TraceReadStats): TraceEntry | null {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === 0x0d) end--;
  let i = 0;
  while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (i === end || text.charCodeAt(i) === 0x23 /* # */) {
    stats.skipped++;
    return null;
  }
  const sp = text.indexOf(' ', i);
  if (sp < 0 || sp + 1 >= end) {
    stats.malformed++;
    return null;
  }
  const stamp = text.slice(i, sp);
  if (!TIMESTAMP.test(stamp)) {
    stats.malformed++;
    return null;
  }
  stats.entries++;
  return { t: Number(stamp), line: text.slice(sp + 1, end) };
}

/** Entries of a trace held in memory. */
export function* traceEntries(text: string, stats: TraceReadStats = newTraceStats()): Generator<TraceEntry> {
  let start = 0;
  while (start < text.length) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    const entry = parseTraceLine(text.slice(start, nl), stats);
    if (entry) yield entry;
    start = nl + 1;
  }
}

function isReadable(x: unknown): x is Readable {
  return typeof x === 'object' && x !== null && typeof (x as Readable).pipe === 'function' && typeof (x as Readable).read === 'function';
}

/** Entries of a trace arriving as a byte stream (a file, stdin) or as lines. */
export async function* readTrace(
  input: Readable | AsyncIterable<string> | Iterable<string>,
  stats: TraceReadStats = newTraceStats(),
): AsyncGenerator<TraceEntry> {
  const lines: AsyncIterable<string> | Iterable<string> = isReadable(input) ? createInterface({ input, crlfDelay: Infinity }) : input;
  for await (const text of lines) {
    const entry = parseTraceLine(text, stats);
    if (entry) yield entry;
  }
}

export function readTraceFile(path: string, stats: TraceReadStats = newTraceStats()): AsyncGenerator<TraceEntry> {
  return readTrace(createReadStream(path), stats);
}

/** One trace line; `line` may still carry the `\n` that `formatLine` adds. */
export function formatTraceLine(t: number, line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 0x0a || line.charCodeAt(end - 1) === 0x0d)) end--;
  return `${t} ${end === line.length ? line : line.slice(0, end)}\n`;
}

/** A whole trace as text, with `#` comment lines first (what made it, seed, options). */
export function formatTrace(entries: Iterable<TraceEntry>, comments: readonly string[] = []): string {
  const parts: string[] = [];
  for (const c of comments) parts.push(`# ${c}\n`);
  for (const e of entries) parts.push(formatTraceLine(e.t, e.line));
  return parts.join('');
}

/** Anything a trace can be written to: a file stream, stdout, an array collector. */
export interface TraceSink {
  write(text: string): unknown;
}

/**
 * Writes lines as they arrive, timed from the first one (or from `start`). Attach it to a
 * BoardLink with `link.on('line', (text, at) => recorder.record(at, text))`.
 */
export class TraceRecorder {
  private start: number | null;

  constructor(
    private readonly out: TraceSink,
    options: { readonly start?: number; readonly comments?: readonly string[] } = {},
  ) {
    this.start = options.start ?? null;
    for (const c of options.comments ?? []) out.write(`# ${c}\n`);
  }

  record(at: number, line: string): void {
    if (this.start === null) this.start = at;
    this.out.write(formatTraceLine(Math.max(0, Math.round(at - this.start)), line));
  }
}
