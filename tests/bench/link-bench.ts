// The serial link's numbers: lines per second the bridge frames, checks and parses; the same through a real pty; and the time from plug-in to the first accepted frame.
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { BoardLink, KalahaTable, LineStream, SerialBoard, formatLine, type CheckedLine } from '../../firmware-bridge/index.ts';
import { PtyCable, ptyFolder, stopAllSocat } from '../bridge/pty.ts';
import { PtyBoard } from '../bridge/pty-board.ts';

/** Whether socat is installed (the pty numbers need it). */
export function hasSocat(): boolean {
  try {
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Lines as boards send them: mostly W frames, some G and C frames, heartbeats; `\r\n` as an Arduino ends them. */
function boardLines(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 20;
    if (k === 19) lines.push(formatLine(`HB ${i} ${i * 50}`));
    else if (k === 7) lines.push(formatLine(`G ${i} 1F00A3C0FF01`));
    else if (k === 13) lines.push(formatLine(`C ${i} 0 2 0 1 4 0 0 3 0 0 1 0 2 0 0 0`));
    else lines.push(formatLine(`W ${i} ${Array.from({ length: 14 }, (_, c) => 400 + ((i * 7 + c * 13) % 97) - (c === 12 ? 400 : 0)).join(' ')}`));
  }
  return Buffer.from(lines.map((l) => l.replace('\n', '\r\n')).join(''), 'latin1');
}

/** Splits bytes into chunks of the size a serial read delivers, cutting lines at arbitrary bytes. */
function chunks(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export interface ParseResult {
  readonly lines: number;
  readonly linesPerSecond: number;
  readonly bytesPerSecond: number;
}

/** Bytes → checked, parsed lines through the LineStream (framing, ASCII, checksum, fields, seq). */
export async function lineStreamThroughput(n = 400_000): Promise<ParseResult> {
  const input = chunks(boardLines(n), 4096);
  const total = input.reduce((s, c) => s + c.length, 0);
  const run = async (): Promise<{ lines: number; ms: number }> => {
    const stream = new LineStream({ now: () => 0 });
    let lines = 0;
    stream.on('data', (_l: CheckedLine) => lines++);
    const start = performance.now();
    for (const c of input) stream.write(c);
    stream.end();
    await new Promise((resolve) => stream.once('end', resolve));
    return { lines, ms: performance.now() - start };
  };
  await run(); // warm-up
  const { lines, ms } = await run();
  if (lines !== n) throw new Error(`parsed ${lines} of ${n} lines`);
  return { lines, linesPerSecond: (lines * 1000) / ms, bytesPerSecond: (total * 1000) / ms };
}

/** The same through a BoardLink on a stream: checked lines all the way to typed events. */
export async function boardLinkThroughput(n = 400_000): Promise<ParseResult> {
  const input = chunks(boardLines(n), 4096);
  const total = input.reduce((s, c) => s + c.length, 0);
  const run = async (): Promise<{ events: number; ms: number }> => {
    const pipe = new PassThrough();
    const link = new BoardLink(pipe, { now: () => 0 });
    let events = 0;
    const count = (): void => void events++;
    for (const kind of ['weights', 'grid', 'counts', 'heartbeat'] as const) link.on(kind, count);
    const start = performance.now();
    for (const c of input) pipe.write(c);
    while (events < n) await new Promise((resolve) => setImmediate(resolve));
    const ms = performance.now() - start;
    await link.close();
    return { events, ms };
  };
  await run();
  const { events, ms } = await run();
  return { lines: events, linesPerSecond: (events * 1000) / ms, bytesPerSecond: (total * 1000) / ms };
}

/** Lines a writer pushes through a socat pty into a SerialBoard's link, as fast as the pty carries them. */
export async function ptyThroughput(n = 200_000): Promise<ParseResult> {
  const folder = ptyFolder();
  const cable = new PtyCable(folder.dir);
  try {
    await cable.plug();
    const hello = formatLine('HELLO proto=1 fw=bench/1 board=kalaha id=B1 cells=14');
    cable.onBytes = (bytes) => {
      if (bytes.toString('latin1').includes('HELLO?')) cable.write(hello);
    };
    const board = await SerialBoard.open({ path: cable.servicePath, link: { frameLimit: undefined } });
    let lines = 0;
    board.link.on('line', () => lines++);
    const bytes = boardLines(n);
    const start = performance.now();
    for (const c of chunks(bytes, 65536)) cable.write(c);
    while (lines < n + 1) await new Promise((resolve) => setTimeout(resolve, 1));
    const ms = performance.now() - start;
    await board.close();
    return { lines: n, linesPerSecond: (n * 1000) / ms, bytesPerSecond: (bytes.length * 1000) / ms };
  } finally {
    await cable.close();
    await stopAllSocat();
    folder.remove();
  }
}

export interface PlugResult {
  readonly samples: number;
  /** Plug-in (socat starts) → the first W frame on the service's link, ms. */
  readonly firstFrame: { readonly median: number; readonly max: number };
  /** Re-plug after a pull → the first W frame again, with the default backoff, ms. */
  readonly againAfterPull: { readonly median: number; readonly max: number };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A simulated Kalaha table (20 frames a second) behind a pty. The board answers at once: a real
 * Arduino adds its reset on open, about 1.5 to 2 s of bootloader, to every number here.
 */
export async function plugInToFirstFrame(samples = 5, pulledMs = 2000): Promise<PlugResult> {
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < samples; i++) {
    const folder = ptyFolder();
    const cable = new PtyCable(folder.dir);
    const board = new PtyBoard(cable, (scheduler, out) => new KalahaTable(scheduler, { seed: i, stoneSet: 'marbles' }, out), 1);
    try {
      const start = performance.now();
      await cable.plug();
      board.start();
      const serial = await SerialBoard.open({ path: cable.servicePath, board: 'kalaha' });
      await new Promise((resolve) => serial.link.once('weights', resolve));
      first.push(performance.now() - start);

      await cable.pull();
      await new Promise((resolve) => setTimeout(resolve, pulledMs));
      const plugged = performance.now();
      await cable.plug();
      await new Promise((resolve) => serial.link.once('weights', resolve));
      again.push(performance.now() - plugged);
      await serial.close();
    } finally {
      board.stop();
      await cable.close();
      folder.remove();
    }
  }
  await stopAllSocat();
  return {
    samples,
    firstFrame: { median: median(first), max: Math.max(...first) },
    againAfterPull: { median: median(again), max: Math.max(...again) },
  };
}
