// Sensor line → the last of 1,000 display WebSockets, and the server's memory while it holds them.
//
// Three processes, so that neither side's work or memory is counted in the other's: this one steers; a server child
// runs the table as `serve` does (MockBinding → BoardLink → KalahaSession → startHttp) and plays a generated Kalaha
// game into the serial binding; a clients child holds every display socket. As in latency.ts, the lines that make the
// referee speak are written one at a time and awaited at every display; the rest go as fast as the service takes them.
// Both children read process.hrtime, the machine's monotonic clock, which all processes share: the server notes the
// time just before it writes the line, the clients child the time the last socket got the message.
//
//   node bin/run-ts.js tests/bench/fanout-bench.ts [clients]
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { openMockPair, parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { KalahaSession } from '../../server/session/index.ts';
import { startHttp } from '../../server/http/index.ts';
import { KalahaReferee } from '../../server/referee/index.ts';
import { generateKalahaTrace } from '../../server/simulate/index.ts';

export interface ServerMemory {
  /** Resident set, heap in use, and memory outside the heap (socket buffers among it), in bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
}

export interface FanoutResult {
  readonly clients: number;
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Sensor line → the session's message (bridge, settle, referee), p50 and p99. */
  readonly decidedP50: number;
  readonly decidedP99: number;
  /** The session's message → handed to every socket (the fan-out loop), p50 and p99. */
  readonly fanoutP50: number;
  readonly fanoutP99: number;
  /** Size of the average update sent, in bytes. */
  readonly updateBytes: number;
  /** The server before any page connected, with every page connected and synced, and its peak resident set. */
  readonly memory: { readonly idle: ServerMemory; readonly withClients: ServerMemory; readonly maxRss: number };
}

type ToServer = { cmd: 'memory' } | { cmd: 'play' } | { cmd: 'next' };
type FromServer =
  | { type: 'listening'; port: number }
  | { type: 'memory'; memory: ServerMemory }
  | { type: 'sent'; index: number; t0: string; decided: string; queued: string; bytes: number }
  | { type: 'played'; maxRss: number };
type FromClients = { type: 'ready' } | { type: 'arrived'; index: number; last: string } | { type: 'lost'; code: number };

const HERE = fileURLToPath(import.meta.url);
const RUN_TS = resolve(HERE, '../../../bin/run-ts.js');

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Messages from a child, each taken once by the first wait that wants it. */
class Inbox<T extends { type: string }> {
  private readonly queue: T[] = [];
  private readonly waiting: { want: (m: T) => boolean; resolve: (m: T) => void }[] = [];
  constructor(child: ChildProcess, name: string) {
    child.on('message', (m: T) => {
      const i = this.waiting.findIndex((w) => w.want(m));
      if (i >= 0) this.waiting.splice(i, 1)[0].resolve(m);
      else this.queue.push(m);
    });
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) for (const w of this.waiting.splice(0)) w.resolve({ type: 'exit', code, name } as unknown as T);
    });
  }
  /** The first message of one of `types` (and passing `want`). */
  take<K extends T['type']>(types: K | readonly K[], want: (m: Extract<T, { type: K }>) => boolean = () => true): Promise<Extract<T, { type: K }>> {
    const kinds: readonly string[] = typeof types === 'string' ? [types] : types;
    const fits = (m: T): m is Extract<T, { type: K }> => kinds.includes(m.type) && want(m as Extract<T, { type: K }>);
    const i = this.queue.findIndex(fits);
    if (i >= 0) return Promise.resolve(this.queue.splice(i, 1)[0] as Extract<T, { type: K }>);
    return new Promise((resolve, reject) =>
      this.waiting.push({
        want: (m) => fits(m) || m.type === 'exit',
        resolve: (m) => (m.type === 'exit' ? reject(new Error(`a bench child stopped: ${JSON.stringify(m)}`)) : resolve(m as Extract<T, { type: K }>)),
      }),
    );
  }
}

export async function fanoutBench(clients = 1000, seed = 42): Promise<FanoutResult> {
  const server = fork(RUN_TS, [HERE, 'fanout-server', String(seed)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let pages: ChildProcess | null = null;
  try {
    const fromServer = new Inbox<FromServer>(server, 'server');
    const { port } = await fromServer.take('listening');
    const tell = (m: ToServer) => server.send(m);
    tell({ cmd: 'memory' });
    const idle = (await fromServer.take('memory')).memory;

    pages = fork(RUN_TS, [HERE, 'fanout-clients', String(port), String(clients)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const fromPages = new Inbox<FromClients>(pages, 'clients');
    await fromPages.take('ready');
    tell({ cmd: 'memory' });
    const withClients = (await fromServer.take('memory')).memory;

    tell({ cmd: 'play' });
    const samples: number[] = [];
    const decided: number[] = [];
    const fanout: number[] = [];
    let bytes = 0;
    for (;;) {
      const next = await fromServer.take(['sent', 'played']);
      if (next.type === 'played') {
        samples.sort((a, b) => a - b);
        decided.sort((a, b) => a - b);
        fanout.sort((a, b) => a - b);
        return {
          clients,
          samples: samples.length,
          p50: percentile(samples, 50),
          p99: percentile(samples, 99),
          max: samples[samples.length - 1],
          decidedP50: percentile(decided, 50),
          decidedP99: percentile(decided, 99),
          fanoutP50: percentile(fanout, 50),
          fanoutP99: percentile(fanout, 99),
          updateBytes: Math.round(bytes / samples.length),
          memory: { idle, withClients, maxRss: next.maxRss },
        };
      }
      const arrived = await fromPages.take('arrived', (m) => m.index === next.index);
      samples.push(Number(BigInt(arrived.last) - BigInt(next.t0)) / 1e6);
      decided.push(Number(BigInt(next.decided) - BigInt(next.t0)) / 1e6);
      fanout.push(Number(BigInt(next.queued) - BigInt(next.decided)) / 1e6);
      bytes += next.bytes;
      tell({ cmd: 'next' });
    }
  } finally {
    pages?.kill();
    server.kill();
  }
}

// ——— The server child: one table, as `serve` runs it ———

async function serverChild(seed: number): Promise<void> {
  const send = (m: FromServer) => process.send?.(m);
  const memory = (): ServerMemory => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
  };

  const { trace, truth } = generateKalahaTrace({ seed, stoneSet: 'mixed', illegalProbability: 0.1, takeBackProbability: 0.05 });
  const lines = [...traceEntries(trace)];
  const dry = new KalahaReferee(truth.rules);
  const speaks = new Set<number>();
  const timeOfSeq = new Map<number, number>();
  lines.forEach((entry, i) => {
    const parsed = parseLine(entry.line);
    if (parsed.kind !== 'message' || parsed.message.type !== 'weights') return;
    timeOfSeq.set(parsed.message.seq, entry.t);
    if (dry.frame(entry.t, parsed.message.cells).length) speaks.add(i);
  });

  const { link, board } = await openMockPair();
  const session = new KalahaSession({ rules: truth.rules, boardId: 'bench', source: 'simulated' });
  link.on('weights', (frame) => session.frame(timeOfSeq.get(frame.seq) ?? 0, frame.cells));
  // Listeners run in the order they subscribed: this one before startHttp's, the one below after it.
  let decided = 0n;
  session.subscribe(() => {
    decided = process.hrtime.bigint();
  });
  const http = await startHttp(session, { port: 0, host: '127.0.0.1', token: 'bench-token' });
  // After startHttp's own listener: by the time this one runs, the message is queued on every socket.
  let broadcasts = 0;
  let heard: ((index: number, bytes: number, queued: bigint) => void) | null = null;
  session.subscribe((_message, text) => {
    const queued = process.hrtime.bigint();
    const index = broadcasts++;
    heard?.(index, Buffer.byteLength(text), queued);
    heard = null;
  });

  let go: (() => void) | null = null;
  process.on('message', async (m: ToServer) => {
    if (m.cmd === 'memory') send({ type: 'memory', memory: memory() });
    if (m.cmd === 'next') go?.();
    if (m.cmd !== 'play') return;
    for (let i = 0; i < lines.length; i++) {
      if (!speaks.has(i)) {
        board.emit(lines[i].line + '\n');
        if (i % 64 === 0) await new Promise((r) => setImmediate(r));
        continue;
      }
      await new Promise((r) => setTimeout(r, 2));
      const broadcast = new Promise<{ index: number; bytes: number; queued: bigint }>((r) => (heard = (index, bytes, queued) => r({ index, bytes, queued })));
      const t0 = process.hrtime.bigint();
      board.emit(lines[i].line + '\n');
      const { index, bytes, queued } = await broadcast;
      const next = new Promise<void>((r) => (go = r));
      send({ type: 'sent', index, t0: String(t0), decided: String(decided), queued: String(queued), bytes });
      await next;
    }
    send({ type: 'played', maxRss: process.resourceUsage().maxRSS * 1024 });
    await http.close();
    await link.close();
  });
  send({ type: 'listening', port: http.port });
}

// ——— The clients child: every display socket ———

async function clientsChild(port: number, clients: number): Promise<void> {
  const send = (m: FromClients) => process.send?.(m);
  /** Per broadcast (numbered from 0 after the sync), how many sockets have it. */
  const got: number[] = [];
  let synced = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { perMessageDeflate: false });
      let seen = -1;
      ws.on('message', () => {
        if (seen < 0) {
          seen = 0;
          synced++;
          resolve();
          return;
        }
        const index = seen++;
        got[index] = (got[index] ?? 0) + 1;
        if (got[index] === clients) send({ type: 'arrived', index, last: String(process.hrtime.bigint()) });
      });
      ws.on('close', (code) => send({ type: 'lost', code }));
      ws.on('error', reject);
    });
  // A hundred handshakes at a time: the listen backlog is not what this measures.
  for (let i = 0; i < clients; i += 100) await Promise.all(Array.from({ length: Math.min(100, clients - i) }, open));
  if (synced === clients) send({ type: 'ready' });
}

if (process.argv[1] === HERE) {
  const [role, a, b] = process.argv.slice(2);
  // A child whose steering process is gone has nothing more to do.
  if (role?.startsWith('fanout-')) process.on('disconnect', () => process.exit(0));
  if (role === 'fanout-server') await serverChild(Number(a));
  else if (role === 'fanout-clients') await clientsChild(Number(a), Number(b));
  else {
    const clients = Number(role ?? 1000);
    const r = await fanoutBench(clients);
    const mib = (x: number) => `${(x / 1048576).toFixed(1)} MiB`;
    console.log(`Sensor line → last of ${r.clients} displays: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms (${r.samples} updates of ${r.updateBytes} B)`);
    console.log(`  of which line → session's message: p50 ${r.decidedP50.toFixed(2)} ms, p99 ${r.decidedP99.toFixed(2)} ms; message → handed to every socket: p50 ${r.fanoutP50.toFixed(2)} ms, p99 ${r.fanoutP99.toFixed(2)} ms`);
    console.log(`Server idle: RSS ${mib(r.memory.idle.rss)}, heap ${mib(r.memory.idle.heapUsed)}, external ${mib(r.memory.idle.external)}`);
    console.log(`Server with ${r.clients} displays: RSS ${mib(r.memory.withClients.rss)}, heap ${mib(r.memory.withClients.heapUsed)}, external ${mib(r.memory.withClients.external)}; peak RSS while playing ${mib(r.memory.maxRss)}`);
    console.log(`Per display: ${((r.memory.withClients.rss - r.memory.idle.rss) / r.clients / 1024).toFixed(1)} KiB RSS, ${((r.memory.withClients.heapUsed - r.memory.idle.heapUsed) / r.clients / 1024).toFixed(1)} KiB heap`);
  }
}
