// Tests of sensor traces: reading (sync, async, files), counting malformed timestamps, writing, recording and replaying.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  TraceRecorder,
  formatLine,
  formatTrace,
  newTraceStats,
  readTrace,
  readTraceFile,
  replayTraceToLink,
  traceEntries,
  type TraceEntry,
  type WeightsMessage,
} from '../../firmware-bridge/index.ts';

const W = (seq: number): string => formatLine(`W ${seq} ${Array.from({ length: 14 }, (_, i) => seq + i).join(' ')}`).slice(0, -1);

const TEXT = [
  '# a recorded session',
  '',
  `0 ${formatLine('HELLO proto=1 fw=x/1 board=kalaha id=1 cells=14').slice(0, -1)}`,
  `50 ${W(1)}`,
  '   ',
  '   # indented comment',
  `abc ${W(2)}`,
  `-5 ${W(3)}`,
  `1e3 ${W(4)}`,
  '150',
  `100.5 ${W(5)}\r`,
  `1250 ${W(25)}`,
].join('\n');

describe('reading traces', () => {
  test('skips blank and comment lines, counts malformed timestamps, keeps the line exactly', () => {
    const stats = newTraceStats();
    const entries = [...traceEntries(TEXT, stats)];
    expect(entries.map((e) => e.t)).toEqual([0, 50, 100.5, 1250]);
    expect(entries[3].line).toBe(W(25));
    expect(entries[2].line).toBe(W(5));
    expect(stats).toEqual({ entries: 4, skipped: 4, malformed: 4 });
  });

  test('async from a byte stream in odd chunks gives the same entries', async () => {
    const bytes = Buffer.from(TEXT);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const stats = newTraceStats();
    const got: TraceEntry[] = [];
    for await (const e of readTrace(Readable.from(chunks), stats)) got.push(e);
    expect(got).toEqual([...traceEntries(TEXT)]);
    expect(stats.malformed).toBe(4);
  });

  test('from a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-'));
    const file = join(dir, 't.trace');
    writeFileSync(file, TEXT);
    const got: TraceEntry[] = [];
    for await (const e of readTraceFile(file)) got.push(e);
    expect(got).toHaveLength(4);
  });
});

describe('writing traces', () => {
  test('formatTrace round-trips, with comments first and no doubled newlines', () => {
    const entries = [
      { t: 0, line: W(0) },
      { t: 50, line: W(1) + '\n' },
    ];
    const text = formatTrace(entries, ['seed 7']);
    expect(text).toBe(`# seed 7\n0 ${W(0)}\n50 ${W(1)}\n`);
    expect([...traceEntries(text)]).toEqual([
      { t: 0, line: W(0) },
      { t: 50, line: W(1) },
    ]);
  });

  test('a recorder times lines from the first one', () => {
    const out: string[] = [];
    const rec = new TraceRecorder({ write: (s: string) => out.push(s) }, { comments: ['live'] });
    rec.record(10_000, W(0));
    rec.record(10_049.6, W(1));
    expect(out).toEqual(['# live\n', `0 ${W(0)}\n`, `50 ${W(1)}\n`]);
  });
});

describe('replaying a trace', () => {
  test('every line reaches a BoardLink through a mock port, in order', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({ t: i * 50, line: W(i) }));
    const replay = await replayTraceToLink(entries, { simSpeed: 50 });
    const seqs: number[] = [];
    const all = new Promise<void>((resolve) =>
      replay.link.on('weights', (w: WeightsMessage) => {
        seqs.push(w.seq);
        if (seqs.length === 40) resolve();
      }),
    );
    await replay.done;
    await all;
    await replay.close();
    expect(seqs).toEqual(entries.map((_, i) => i));
    expect(replay.link.stats().lost.weights).toBe(0);
  });
});
