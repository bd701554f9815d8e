// Bytes from a board → checked, parsed lines: framing, the 256-byte limit, checksums, drop and seq-gap counters.
import { Transform, type TransformCallback } from 'node:stream';
import {
  MAX_LINE_BYTES,
  SEQ_MESSAGE_TYPES,
  hexDigit,
  parseBody,
  type BoardMessage,
  type DropReason,
  type SeqMessageType,
} from './protocol.ts';

/** Receives what a `LineFramer` finds; an interface rather than callbacks so a chunk costs no closures. */
export interface LineSink {
  /** A line that passed framing and checksum: `text` without terminator, `bodyEnd` where `*CS` starts. */
  acceptLine(text: string, bodyEnd: number): void;
  dropLine(reason: DropReason): void;
  /** An empty line (`\n` or `\r\n` alone): not a message, not an error. */
  blankLine(): void;
}

const NL = 0x0a;
const CR = 0x0d;
const STAR = 0x2a;
/** Room for a full line plus the `\r` that may precede its `\n`. */
const CAPACITY = MAX_LINE_BYTES + 1;

/**
 * Splits bytes into lines and checks each (ASCII, length, checksum) without knowing what the lines
 * mean. Shared by the service's line stream and the simulated board's command reader. Chunks may
 * be split at any byte; a partial line waits in one fixed buffer.
 */
export class LineFramer {
  private readonly buf = Buffer.alloc(CAPACITY);
  private len = 0;
  /** Inside an over-long line: skip bytes until the next `\n`, then count it once. */
  private discarding = false;

  push(chunk: Buffer, sink: LineSink): void {
    let start = 0;
    const n = chunk.length;
    while (start < n) {
      const nl = chunk.indexOf(NL, start);
      const end = nl < 0 ? n : nl;
      if (!this.discarding) {
        if (this.len + (end - start) > CAPACITY) {
          this.discarding = true;
          this.len = 0;
        } else {
          chunk.copy(this.buf, this.len, start, end);
          this.len += end - start;
        }
      }
      if (nl < 0) return;
      this.finish(sink);
      start = nl + 1;
    }
  }

  /** End of input: a last line without its `\n` is still judged (a trace or a port closing after a full line). */
  end(sink: LineSink): void {
    if (this.discarding || this.len > 0) this.finish(sink);
  }

  /** Forgets a partial line (after a reconnect the bytes before it belong to nothing). */
  reset(): void {
    this.len = 0;
    this.discarding = false;
  }

  private finish(sink: LineSink): void {
    const buf = this.buf;
    let len = this.len;
    const overlong = this.discarding;
    this.len = 0;
    this.discarding = false;
    if (overlong) return sink.dropLine('overlong');
    if (len > 0 && buf[len - 1] === CR) len--;
    if (len === 0) return sink.blankLine();
    if (len > MAX_LINE_BYTES) return sink.dropLine('overlong');
    const bodyEnd = len - 3;
    let cs = 0;
    for (let i = 0; i < len; i++) {
      const b = buf[i];
      if (b < 0x20 || b > 0x7e) return sink.dropLine('non-ascii');
      if (i < bodyEnd) cs ^= b;
    }
    if (bodyEnd < 0 || buf[bodyEnd] !== STAR) return sink.dropLine('checksum');
    const hi = hexDigit(buf[bodyEnd + 1]);
    const lo = hexDigit(buf[bodyEnd + 2]);
    if (hi < 0 || lo < 0 || ((hi << 4) | lo) !== cs) return sink.dropLine('checksum');
    // Checked to be ASCII, so latin1 decodes it exactly and cheapest.
    sink.acceptLine(buf.toString('latin1', 0, len), bodyEnd);
  }
}

/** One line the stream passes on: its text as received (for traces) and its message (null for an unknown type). */
export interface CheckedLine {
  readonly text: string;
  readonly message: BoardMessage | null;
}

export interface LineStreamStats {
  /** Lines that passed every check, unknown types included. */
  readonly linesOk: number;
  readonly unknownType: number;
  readonly blank: number;
  readonly dropped: { readonly checksum: number; readonly malformed: number; readonly overlong: number; readonly nonAscii: number };
  /** Frames missing from each `seq` sequence (32-bit wrap understood). */
  readonly lost: Readonly<Record<SeqMessageType, number>>;
  /** A `seq` that went backwards or repeated: the board restarted or a frame came twice. Not counted as lost. */
  readonly seqBackwards: number;
}

export interface LineStreamOptions {
  /** Stamps `receivedAt` on every message (ms). Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Stamps `receivedAt` from the line itself, when the source knows when it sent each line (a
   * simulated board running late on a loaded machine delivers lines in bursts). Wins over `now`.
   */
  readonly stamp?: (text: string) => number;
}

const HALF_SEQ = 2 ** 31;
const SEQ_INDEX: Readonly<Record<SeqMessageType, number>> = { weights: 0, grid: 1, counts: 2, heartbeat: 3 };

/**
 * A Transform from raw bytes to `CheckedLine` objects. Dropped lines are counted and announced
 * with a `dropped` event (rare, so an event is cheap); nothing is logged.
 */
export class LineStream extends Transform implements LineSink {
  private readonly framer = new LineFramer();
  private readonly stampLine: (text: string) => number;
  private ok = 0;
  private unknown = 0;
  private blanks = 0;
  private checksumDrops = 0;
  private malformedDrops = 0;
  private overlongDrops = 0;
  private nonAsciiDrops = 0;
  private backwards = 0;
  private readonly lastSeq = [-1, -1, -1, -1];
  private readonly lostFrames = [0, 0, 0, 0];

  constructor(options: LineStreamOptions = {}) {
    super({ readableObjectMode: true });
    const now = options.now ?? Date.now;
    const stamp = options.stamp;
    this.stampLine = stamp ?? (() => now());
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.framer.push(chunk, this);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.framer.end(this);
    callback();
  }

  /** @internal LineSink */
  acceptLine(text: string, bodyEnd: number): void {
    const parsed = parseBody(text, bodyEnd, this.stampLine(text));
    if (parsed === 'malformed') return this.dropLine('malformed');
    this.ok++;
    if (parsed === 'unknown-type') {
      this.unknown++;
      this.push({ text, message: null } satisfies CheckedLine);
      return;
    }
    switch (parsed.type) {
      case 'weights':
      case 'grid':
      case 'counts':
      case 'heartbeat':
        this.countSeq(SEQ_INDEX[parsed.type], parsed.seq);
        break;
      case 'hello':
        // A HELLO is sent at boot: every counter starts again, and that is not a gap.
        this.lastSeq.fill(-1);
        break;
      default:
        break;
    }
    this.push({ text, message: parsed } satisfies CheckedLine);
  }

  /** @internal LineSink */
  dropLine(reason: DropReason): void {
    switch (reason) {
      case 'checksum':
        this.checksumDrops++;
        break;
      case 'malformed':
        this.malformedDrops++;
        break;
      case 'overlong':
        this.overlongDrops++;
        break;
      case 'non-ascii':
        this.nonAsciiDrops++;
        break;
      default:
        assertNever(reason);
    }
    this.emit('dropped', reason);
  }

  /** @internal LineSink */
  blankLine(): void {
    this.blanks++;
  }

  private countSeq(i: number, seq: number): void {
    const last = this.lastSeq[i];
    this.lastSeq[i] = seq;
    if (last < 0) return;
    // Unsigned 32-bit distance: 0xFFFFFFFF → 0 is a step of one.
    const gap = (seq - last - 1) >>> 0;
    if (gap === 0) return;
    if (gap < HALF_SEQ) this.lostFrames[i] += gap;
    else this.backwards++;
  }

  stats(): LineStreamStats {
    const lost = {} as Record<SeqMessageType, number>;
    for (const type of SEQ_MESSAGE_TYPES) lost[type] = this.lostFrames[SEQ_INDEX[type]];
    return {
      linesOk: this.ok,
      unknownType: this.unknown,
      blank: this.blanks,
      dropped: {
        checksum: this.checksumDrops,
        malformed: this.malformedDrops,
        overlong: this.overlongDrops,
        nonAscii: this.nonAsciiDrops,
      },
      lost,
      seqBackwards: this.backwards,
    };
  }

  /** Total lines dropped for any reason. */
  droppedTotal(): number {
    return this.checksumDrops + this.malformedDrops + this.overlongDrops + this.nonAsciiDrops;
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
