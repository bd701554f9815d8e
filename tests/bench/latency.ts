// Sensor line → WebSocket message latency: a generated game's lines are written into the serial
// binding (MockBinding) as fast as the service takes them, except each line that makes the
// referee speak, which is written alone, timed, and awaited at every connected display.
import WebSocket from 'ws';
import { openMockPair } from '../../firmware-bridge/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { startHttp } from '../../server/http/index.ts';
import { KalahaReferee } from '../../server/referee/index.ts';
import { generateKalahaTrace } from '../../server/simulate/index.ts';
import { traceEntries, parseLine } from '../../firmware-bridge/index.ts';

export interface LatencyResult {
  readonly clients: number;
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

export async function lineToDisplayLatency(clients: number, seed = 42): Promise<LatencyResult> {
  const { trace, truth } = generateKalahaTrace({ seed, stoneSet: 'mixed', illegalProbability: 0.1, takeBackProbability: 0.05 });
  const lines = [...traceEntries(trace)];
  // Which lines make the referee say something (a dry run of the same referee).
  const dry = new KalahaReferee(truth.rules);
  const speaks = new Set<number>();
  lines.forEach((entry, i) => {
    const parsed = parseLine(entry.line);
    if (parsed.kind === 'message' && parsed.message.type === 'weights' && dry.frame(entry.t, parsed.message.cells).length) speaks.add(i);
  });

  // Lines reach the service asynchronously, so each frame carries its time by its sequence number.
  const timeOfSeq = new Map<number, number>();
  for (const entry of lines) {
    const parsed = parseLine(entry.line);
    if (parsed.kind === 'message' && parsed.message.type === 'weights') timeOfSeq.set(parsed.message.seq, entry.t);
  }
  const { link, board } = await openMockPair();
  const session = new KalahaSession({ rules: truth.rules, boardId: 'bench', source: 'simulated' });
  link.on('weights', (frame) => session.frame(timeOfSeq.get(frame.seq) ?? 0, frame.cells));
  const http = await startHttp(session, { port: 0, host: '127.0.0.1', token: 'test-token' });
  const sockets = await Promise.all(
    Array.from({ length: clients }, () => {
      const ws = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
      return new Promise<WebSocket>((resolve) => ws.once('message', () => resolve(ws)));
    }),
  );

  const samples: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!speaks.has(i)) {
      board.emit(lines[i].line + '\n');
      if (i % 64 === 0) await settle();
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
    const arrived = Promise.all(sockets.map((ws) => new Promise((resolve) => ws.once('message', resolve))));
    const start = performance.now();
    board.emit(lines[i].line + '\n');
    await arrived;
    samples.push(performance.now() - start);
  }
  for (const ws of sockets) ws.close();
  await http.close();
  await link.close();
  samples.sort((a, b) => a - b);
  return { clients, samples: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples[samples.length - 1] };
}
