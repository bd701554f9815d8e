// Tests of the byte → line stream: awkward chunk boundaries, over-long lines, garbage bytes, seq gaps and wrap.
import { describe, expect, test } from 'vitest';
import { LineStream, Random, formatLine, type CheckedLine, type LineStreamStats } from '../../firmware-bridge/index.ts';

/** Feeds chunks through a fresh stream and collects what comes out. */
async function run(chunks: readonly (Buffer | string)[]): Promise<{ out: CheckedLine[]; stats: LineStreamStats }> {
  const stream = new LineStream({ now: () => 0 });
  const out: CheckedLine[] = [];
  stream.on('data', (c: CheckedLine) => out.push(c));
  const ended = new Promise<void>((resolve) => stream.on('end', resolve));
  for (const c of chunks) stream.write(typeof c === 'string' ? Buffer.from(c, 'latin1') : c);
  stream.end();
  await ended;
  return { out, stats: stream.stats() };
}

const W = (seq: number, base = 0): string =>
  formatLine(`W ${seq} ${Array.from({ length: 14 }, (_, i) => base + i * 10).join(' ')}`);

/** A session's worth of lines of every kind, with \r\n on some. */
function session(): string {
  const lines = [
    formatLine('HELLO proto=1 fw=sim/1 board=kalaha id=1 cells=14'),
    W(0),
    W(1, 5).replace('\n', '\r\n'),
    formatLine('HB 0 1000'),
    formatLine('BTN ok'),
    formatLine('TEMP 21'),
    W(2, -3),
    formatLine('ERR hx711 cell 7 not ready'),
    formatLine('OK RATE 20').replace('\n', '\r\n'),
    W(3, 1234),
  ];
  return lines.join('');
}

function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  return out;
}

describe('framing at any byte boundary', () => {
  test('one chunk, byte by byte and random splits give the same lines', async () => {
    const bytes = Buffer.from(session(), 'latin1');
    const whole = await run([bytes]);
    expect(whole.out.map((c) => c.message?.type ?? null)).toEqual([
      'hello', 'weights', 'weights', 'heartbeat', 'button', null, 'weights', 'error', 'ok', 'weights',
    ]);
    expect(whole.stats.linesOk).toBe(10);
    expect(whole.stats.unknownType).toBe(1);

    const byteByByte = await run(Array.from(bytes, (b) => Buffer.from([b])));
    expect(byteByByte.out).toEqual(whole.out);
    expect(byteByByte.stats).toEqual(whole.stats);

    const rng = new Random('splits');
    for (let trial = 0; trial < 200; trial++) {
      const cuts = Array.from({ length: rng.int(1, 12) }, () => rng.int(0, bytes.length)).sort((a, b) => a - b);
      const r = await run(split(bytes, cuts));
      expect(r.out).toEqual(whole.out);
      expect(r.stats).toEqual(whole.stats);
    }
  });

  test('every single split point, with \\r and \\n landing in different chunks', async () => {
    const bytes = Buffer.from(W(7).replace('\n', '\r\n') + W(8), 'latin1');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const r = await run(split(bytes, [cut]));
      expect(r.out.map((c) => c.message && 'seq' in c.message ? c.message.seq : -1)).toEqual([7, 8]);
      expect(r.stats.dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
    }
  });

  test('the text of a line is passed on as received, for traces', async () => {
    const r = await run([formatLine('HB 3 3000').replace('\n', '\r\n')]);
    expect(r.out[0].text).toBe(formatLine('HB 3 3000').slice(0, -1));
  });

  test('a last line without \\n is still judged at the end', async () => {
    const r = await run([W(1) + formatLine('HB 1 1000').slice(0, -1)]);
    expect(r.out.map((c) => c.message?.type)).toEqual(['weights', 'heartbeat']);
  });

  test('blank lines are neither messages nor errors', async () => {
    const r = await run(['\n\r\n' + W(1) + '\n']);
    expect(r.out).toHaveLength(1);
    expect(r.stats.blank).toBe(3);
    expect(r.stats.dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });
});

describe('the 256-byte limit', () => {
  /** A C line of exactly `n` bytes (checksum included, terminator not). */
  function countsLine(n: number): string {
    let body = 'C 1';
    while (body.length + 3 < n - 1) body += ' 0';
    if (body.length + 3 === n - 1) body += '0';
    // Written out here, because formatLine rightly refuses to make an over-long line.
    let cs = 0;
    for (const ch of body) cs ^= ch.charCodeAt(0);
    const l = `${body}*${cs.toString(16).toUpperCase().padStart(2, '0')}`;
    expect(l.length).toBe(n);
    return l;
  }

  test('256 bytes pass, 257 do not', async () => {
    const r = await run([countsLine(256) + '\r\n', countsLine(257) + '\n', W(0)]);
    expect(r.out.map((c) => c.message?.type)).toEqual(['counts', 'weights']);
    expect(r.stats.dropped.overlong).toBe(1);
  });

  test('an over-long line is dropped once and the stream resynchronises at the next \\n', async () => {
    const junk = 'x'.repeat(1000);
    const bytes = Buffer.from(W(0) + junk + '*00\n' + W(1) + 'y'.repeat(300) + '\r\n' + W(2), 'latin1');
    const whole = await run([bytes]);
    expect(whole.out.map((c) => (c.message && 'seq' in c.message ? c.message.seq : -1))).toEqual([0, 1, 2]);
    expect(whole.stats.dropped.overlong).toBe(2);
    const bytewise = await run(Array.from(bytes, (b) => Buffer.from([b])));
    expect(bytewise.out).toEqual(whole.out);
    expect(bytewise.stats).toEqual(whole.stats);
  });

  test('an over-long tail at the end of input is counted', async () => {
    const r = await run([W(0) + 'z'.repeat(400)]);
    expect(r.stats.dropped.overlong).toBe(1);
    expect(r.out).toHaveLength(1);
  });
});

describe('garbage', () => {
  test('bytes outside printable ASCII, bad checksums and malformed fields are counted per reason', async () => {
    const good = W(1);
    const badChecksum = good.replace(/\*[0-9A-F]{2}/, (m) => (m === '*00' ? '*01' : '*00'));
    const chunks = [
      Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]), // boot noise of an Arduino at the wrong baud rate
      Buffer.from('W 1 2\tX*00\n', 'latin1'),
      badChecksum,
      formatLine('W 2 1 2 3'),
      formatLine('BTN reset'),
      'no checksum at all\n',
      good,
    ];
    const r = await run(chunks);
    expect(r.out).toHaveLength(1);
    expect(r.stats.dropped).toEqual({ checksum: 2, malformed: 2, overlong: 0, nonAscii: 2 });
    expect(r.stats.linesOk).toBe(1);
  });

  test('a dropped event names the reason', async () => {
    const stream = new LineStream();
    const reasons: string[] = [];
    stream.on('dropped', (r: string) => reasons.push(r));
    stream.resume();
    stream.write(Buffer.from('junk\n' + formatLine('HB x 1') + '\u00ff\n'));
    stream.end();
    await new Promise((resolve) => stream.on('end', resolve));
    expect(reasons).toEqual(['checksum', 'malformed', 'non-ascii']);
  });
});

describe('frames lost from seq gaps', () => {
  const HB = (seq: number): string => formatLine(`HB ${seq} ${seq * 1000}`);

  test('a gap counts the missing frames, per frame type', async () => {
    const r = await run([W(0), W(1), W(2), W(5), HB(0), HB(1), W(6), HB(4), W(7)]);
    expect(r.stats.lost).toEqual({ weights: 2, grid: 0, counts: 0, heartbeat: 2 });
    expect(r.stats.seqBackwards).toBe(0);
  });

  test('the 32-bit wrap is not a gap; a gap across the wrap is', async () => {
    const r = await run([W(4294967294), W(4294967295), W(0), W(1)]);
    expect(r.stats.lost.weights).toBe(0);
    const g = await run([W(4294967294), W(1)]);
    expect(g.stats.lost.weights).toBe(2);
  });

  test('a seq going backwards is a restart, not billions of lost frames; a HELLO starts counting afresh', async () => {
    const r = await run([W(100), W(101), W(3), W(4)]);
    expect(r.stats.lost.weights).toBe(0);
    expect(r.stats.seqBackwards).toBe(1);
    const h = await run([W(100), formatLine('HELLO proto=1 fw=a/1 board=kalaha id=1 cells=14'), W(0), W(1)]);
    expect(h.stats.lost.weights).toBe(0);
    expect(h.stats.seqBackwards).toBe(0);
  });

  test('a frame dropped for its checksum shows up as a lost frame', async () => {
    const broken = W(1).replace(/\*[0-9A-F]{2}/, (m) => (m === '*00' ? '*01' : '*00'));
    const r = await run([W(0), broken, W(2)]);
    expect(r.stats.dropped.checksum).toBe(1);
    expect(r.stats.lost.weights).toBe(1);
  });
});
