// A stand-in for the Spieltisch server, for looking at the pages: serves web/dist, plays scripted Kalaha messages
// or a live Malawi table on /ws, and answers the referee console's commands.
//
//   node bin/run-ts.js tests/web/fake-server.ts [--port 5180] [--scenario live] [--interval 400] [--dist web/dist]
//
// Kalaha scenarios: live (sync, then moves, a capture, a stale update, alerts), midgame, mismatch, alerts, over,
// drop (one sync, then the server goes away), down (never accepts a socket). The Kalaha moves come from a small
// sowing routine here, not from the engine: enough for realistic pictures.
// Malawi scenarios (fake-malawi.ts, played by the real engine): malawi, malawi-question (an open question for the
// console), malawi-mismatch, malawi-over. Makis (fake-makis.ts, three players): makis (a roll due, the danger map,
// a knight to put back, one player out), makis-rolled (the table rolled; the board is reconnecting), makis-question,
// makis-over. Adu (fake-adu.ts, six players): adu (a reserve king awaited, the Merkskala, a seat out), adu-declare
// (the declaration question with its preselected answer), adu-over. The console's token is FAKE_REFEREE_TOKEN.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Alert, BoardStatus, ClientMessage, KalahaView, ServerMessage, SideName } from '../../server/http/messages.ts';
import { FAKE_REFEREE_TOKEN, FakeMalawiTable, MALAWI_SCENARIOS, type MalawiScenario } from './fake-malawi.ts';
import { FakeMakisTable, MAKIS_SCENARIOS, type MakisScenario } from './fake-makis.ts';
import { ADU_SCENARIOS, FakeAduTable, type AduScenario } from './fake-adu.ts';
import type { FakeTable } from './fake-table.ts';

export { FAKE_REFEREE_TOKEN };

export const KALAHA_SCENARIOS = ['live', 'midgame', 'mismatch', 'alerts', 'over', 'drop', 'down'] as const;
export const SCENARIOS = [...KALAHA_SCENARIOS, ...MALAWI_SCENARIOS, ...MAKIS_SCENARIOS, ...ADU_SCENARIOS] as const;
export type Scenario = (typeof SCENARIOS)[number];

export function isMalawiScenario(scenario: Scenario): scenario is MalawiScenario {
  return (MALAWI_SCENARIOS as readonly string[]).includes(scenario);
}

export function isMakisScenario(scenario: Scenario): scenario is MakisScenario {
  return (MAKIS_SCENARIOS as readonly string[]).includes(scenario);
}

export function isAduScenario(scenario: Scenario): scenario is AduScenario {
  return (ADU_SCENARIOS as readonly string[]).includes(scenario);
}

/** The live table a scenario plays on (its commands change it), or null for the scripted Kalaha scenarios. */
export function liveTable(scenario: Scenario): FakeTable | null {
  if (isMalawiScenario(scenario)) return new FakeMalawiTable(scenario);
  if (isMakisScenario(scenario)) return new FakeMakisTable(scenario);
  if (isAduScenario(scenario)) return new FakeAduTable(scenario);
  return null;
}

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'];
const owner = (pit: number): SideName => (pit < 6 ? 'south' : 'north');
const other = (side: SideName): SideName => (side === 'south' ? 'north' : 'south');

interface Position {
  pits: number[];
  stores: { south: number; north: number };
  toMove: SideName;
}

export interface Step {
  readonly move: string;
  readonly before: Position;
  /** The pits as the sower leaves them, captured stones still lying there. */
  readonly afterSow: readonly number[];
  /**
   * The view right after the move, as the real server sends it: the game's state (captured stones
   * already counted in the store), with the captured pits listed as pending until they are carried.
   */
  readonly sown: KalahaView;
  /** After the captured stones are in the store. */
  readonly settled: Position;
  readonly captures: readonly number[];
}

const START: Position = { pits: Array(12).fill(4), stores: { south: 0, north: 0 }, toMove: 'south' };

/** Sows one pit (RULES.md §1: skip the origin on laps, capture chains of 2 or 3 backwards). */
export function sow(pos: Position, pit: number): Step {
  const mover = pos.toMove;
  if (owner(pit) !== mover || pos.pits[pit] === 0) throw new Error(`${LETTERS[pit]} is not playable now`);
  const pits = [...pos.pits];
  let stones = pits[pit];
  pits[pit] = 0;
  const sown: number[] = [];
  let at = pit;
  while (stones > 0) {
    at = (at + 1) % 12;
    if (at === pit) continue;
    pits[at] += 1;
    sown.push(at);
    stones -= 1;
  }
  const captures: number[] = [];
  for (let j = at; owner(j) !== mover && (pits[j] === 2 || pits[j] === 3); j = (j + 11) % 12) {
    captures.push(j);
    if (j === 0 || j === 6) break;
  }
  const next = other(mover);
  const settledPits = [...pits];
  let taken = 0;
  for (const p of captures) {
    taken += settledPits[p];
    settledPits[p] = 0;
  }
  const stores = { ...pos.stores, [mover]: pos.stores[mover] + taken };
  const view: KalahaView = {
    game: 'kalaha',
    pits: settledPits,
    stores,
    toMove: next,
    outcome: null,
    lastMove: { pit, sown, captures },
    pending: captures.map((p) => ({ pit: p, stones: pits[p], store: mover, reason: 'capture' as const })),
  };
  return {
    move: LETTERS[pit],
    before: pos,
    afterSow: pits,
    sown: view,
    settled: { pits: settledPits, stores, toMove: next },
    captures,
  };
}

export function playRecord(record: readonly string[]): Step[] {
  const steps: Step[] = [];
  let pos = START;
  for (const move of record) {
    const step = sow(pos, LETTERS.indexOf(move));
    steps.push(step);
    pos = step.settled;
  }
  return steps;
}

/** A deterministic game: a small PRNG picks among the mover's non-empty pits. */
export function randomGame(seed: number, until: (step: Step, ply: number) => boolean): Step[] {
  let s = seed >>> 0;
  const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const steps: Step[] = [];
  let pos = START;
  for (let ply = 0; ply < 400; ply++) {
    const own = pos.pits.map((n, p) => (n > 0 && owner(p) === pos.toMove ? p : -1)).filter((p) => p >= 0);
    if (!own.length) break;
    const step = sow(pos, own[Math.floor(random() * own.length)]);
    steps.push(step);
    pos = step.settled;
    if (until(step, ply)) break;
  }
  return steps;
}

function settledView(step: Step): KalahaView {
  return { ...step.sown, pending: [] };
}

const BOARD_OK: BoardStatus = { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };
const BOARD_SILENT: BoardStatus = { source: 'serial', connected: false, calibrated: true, framesPerSecond: 0, dropped: 3 };

function alert(id: number, level: Alert['level'], code: string, message: string, params: Alert['params'] = {}, cells?: Alert['cells']): Alert {
  return cells ? { id, level, code, message, params, cells } : { id, level, code, message, params };
}

function captureAlert(id: number, step: Step): Alert {
  const mover = owner(step.sown.lastMove!.pit);
  const pits = step.captures.map((p) => LETTERS[p]).join(' ');
  return alert(id, 'info', 'referee/capture-pending', `Carry the captured stones from ${pits} to ${mover}'s store`, {
    pits,
    store: mover,
  });
}

export interface Script {
  /** Sent to every socket as soon as it connects. */
  readonly onConnect: readonly ServerMessage[];
  /** Then one message per interval. */
  readonly later: readonly ServerMessage[];
  /** Close the first socket after the script; refuse later ones (the server went away). */
  readonly dropAfter?: boolean;
}

/**
 * A game in the middle (50 plies): north's last move captured two pits, whose stones still wait
 * to be carried; one pit holds more stones (21) than the board draws as dots.
 */
function midgame(): Step[] {
  return randomGame(48, (step, ply) => ply >= 19 && step.captures.length >= 2);
}

export function script(scenario: Scenario): Script {
  switch (scenario) {
    case 'live': {
      // RULES.md §1's own example: after C e F, north sows d and captures the 2 stones in C.
      const steps = playRecord(['C', 'e', 'F', 'd']);
      const record = steps.map((s) => s.move);
      const [, e, f, d] = steps;
      const mismatch = alert(
        3,
        'warn',
        'referee/mismatch',
        'The board differs from the game in 3 cells',
        { count: 3 },
        [
          { cell: 1, diff: -1 },
          { cell: 2, diff: 2 },
          { cell: 13, diff: -1 },
        ],
      );
      return {
        onConnect: [
          { type: 'sync', stateId: 12, game: 'kalaha', record: record.slice(0, 2), view: settledView(e), alerts: [], board: BOARD_OK },
        ],
        later: [
          { type: 'update', stateId: 13, event: 'move', move: 'F', record: record.slice(0, 3), view: settledView(f) },
          { type: 'update', stateId: 14, event: 'move', move: 'd', record, view: d.sown },
          { type: 'alert', stateId: 14, alert: captureAlert(2, d) },
          { type: 'update', stateId: 15, event: 'settled', record, view: settledView(d) },
          { type: 'alert-cleared', stateId: 15, id: 2 },
          // Already on its way before state 15: the page must not roll back to it.
          { type: 'update', stateId: 14, event: 'move', move: 'd', record, view: d.sown },
          { type: 'alert', stateId: 15, alert: mismatch },
          { type: 'board', board: { ...BOARD_OK, framesPerSecond: 19 } },
        ],
      };
    }
    case 'midgame':
    case 'mismatch':
    case 'alerts': {
      const steps = midgame();
      const last = steps[steps.length - 1];
      const record = steps.map((s) => s.move);
      const alerts: Alert[] = [captureAlert(40, last)];
      if (scenario === 'mismatch') {
        alerts.push(
          alert(41, 'warn', 'referee/mismatch', 'The board differs from the game in 2 cells', { count: 2 }, [
            { cell: 4, diff: 1 },
            { cell: 10, diff: -1 },
          ]),
        );
      }
      if (scenario === 'alerts') {
        alerts.push(
          alert(42, 'error', 'kalaha/forbidden-capture', 'Pit C would capture 12 stones — not allowed', { pit: 'C', stones: 12 }),
          alert(43, 'warn', 'referee/takeback', 'Take-back of F d recognised', { moves: 'F d' }),
          alert(44, 'warn', 'board/not-responding', 'The board is not responding'),
          alert(45, 'info', 'lounge/unknown-code', 'A code this page does not know shows the server sentence'),
        );
      }
      return {
        onConnect: [
          {
            type: 'sync',
            stateId: 200 + steps.length,
            game: 'kalaha',
            record,
            view: last.sown,
            alerts,
            board: scenario === 'alerts' ? BOARD_SILENT : BOARD_OK,
          },
        ],
        later: [],
      };
    }
    case 'over': {
      const steps = randomGame(11, () => false);
      const last = steps[steps.length - 1];
      const pos = last.settled;
      // The player to move has no stones: the other takes the stones in their own pits (RULES.md §1 end 1).
      const taker = other(pos.toMove);
      const left = pos.pits.filter((_, p) => owner(p) === taker).reduce((a, b) => a + b, 0);
      const finalStores = { ...pos.stores, [taker]: pos.stores[taker] + left };
      const winner: SideName | 'draw' =
        finalStores.south === finalStores.north ? 'draw' : finalStores.south > finalStores.north ? 'south' : 'north';
      // As the server sends it: the game's final state, the swept pits listed until they are carried.
      const view: KalahaView = {
        ...settledView(last),
        pits: pos.pits.map((n, p) => (owner(p) === taker ? 0 : n)),
        stores: finalStores,
        toMove: null,
        outcome: { winner, reason: 'no-stones' },
        pending: pos.pits.flatMap((n, p) => (n > 0 ? [{ pit: p, stones: n, store: taker, reason: 'end' as const }] : [])),
      };
      return {
        onConnect: [
          {
            type: 'sync',
            stateId: 900,
            game: 'kalaha',
            record: steps.map((s) => s.move),
            view,
            alerts: [alert(90, 'info', 'referee/sweep-pending', 'Game over: carry the remaining stones to the stores')],
            board: BOARD_OK,
          },
        ],
        later: [],
      };
    }
    case 'drop': {
      const midgameScript = script('midgame');
      return { ...midgameScript, dropAfter: true };
    }
    case 'down':
      return { onConnect: [], later: [] };
    case 'malawi':
    case 'malawi-question':
    case 'malawi-mismatch':
    case 'malawi-over':
    case 'makis':
    case 'makis-rolled':
    case 'makis-question':
    case 'makis-over':
    case 'adu':
    case 'adu-declare':
    case 'adu-over':
      // The table as it starts; the server keeps it live (commands change it), see startFakeServer.
      return { onConnect: [(liveTable(scenario) as FakeTable).sync()], later: [] };
    default: {
      const never: never = scenario;
      throw new Error(`unknown scenario ${String(never)}`);
    }
  }
}

/** A frame from a page: a console message, or null for anything else. */
export function parseClientMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as { type?: unknown; token?: unknown; ref?: unknown; stateId?: unknown; command?: unknown };
  if (m.type === 'auth' && typeof m.token === 'string') return value as ClientMessage;
  if (m.type === 'command' && typeof m.ref === 'number' && typeof m.stateId === 'number' && typeof m.command === 'object' && m.command !== null) {
    return value as ClientMessage;
  }
  return null;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  // The same mapping the real server is expected to use: `/` and `/display` are the display, `/x` is x.html.
  const candidates = path === '/' ? ['index.html'] : [path, `${path}.html`, join(path, 'index.html')];
  for (const candidate of candidates) {
    const file = normalize(join(root, candidate));
    if (!file.startsWith(root + sep)) break;
    try {
      if ((await stat(file)).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(await readFile(file));
        return;
      }
    } catch {
      // Try the next candidate.
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}

export interface FakeServerOptions {
  readonly port?: number;
  readonly scenario?: Scenario;
  /** Milliseconds between scripted messages after the sync. */
  readonly interval?: number;
  readonly dist?: string;
}

export interface FakeServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const scenario = options.scenario ?? 'live';
  const interval = options.interval ?? 400;
  const root = resolve(options.dist ?? 'web/dist');
  const plan = script(scenario);
  const table = liveTable(scenario);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let served = 0;

  const http: Server = createServer((req, res) => void serveStatic(root, req, res));
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/ws' || scenario === 'down' || (plan.dropAfter && served > 0)) {
      socket.destroy();
      return;
    }
    served += 1;
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const onConnect = table ? [table.sync()] : plan.onConnect;
      for (const message of onConnect) ws.send(JSON.stringify(message));
      // The referee token counts per connection and is answered with ref 0, as on the real server.
      let authed = false;
      const reply = (message: ServerMessage) => ws.send(JSON.stringify(message));
      ws.on('message', (data) => {
        const message = parseClientMessage(String(data));
        if (!message) {
          reply({ type: 'command-result', ref: 0, ok: false, error: 'console/bad-message', message: 'That message is not one the server understands.' });
          return;
        }
        if (message.type === 'auth') {
          authed = message.token === FAKE_REFEREE_TOKEN;
          reply(
            authed
              ? { type: 'command-result', ref: 0, ok: true }
              : { type: 'command-result', ref: 0, ok: false, error: 'console/bad-token', message: 'That is not the referee token.' },
          );
          return;
        }
        if (!table) {
          reply(
            authed
              ? { type: 'command-result', ref: message.ref, ok: false, error: 'console/unsupported', message: 'The fake server plays no Kalaha commands.' }
              : { type: 'command-result', ref: message.ref, ok: false, error: 'console/unauthorized', message: 'Console commands need the referee token.' },
          );
          return;
        }
        const { reply: result, broadcast } = table.handle(message, authed);
        reply(result);
        for (const out of broadcast) {
          for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(JSON.stringify(out));
        }
      });
      plan.later.forEach((message, i) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
        }, interval * (i + 1));
        timers.add(timer);
      });
      if (plan.dropAfter) {
        const timer = setTimeout(() => ws.terminate(), interval * (plan.later.length + 1));
        timers.add(timer);
      }
    });
  });

  await new Promise<void>((done) => http.listen(options.port ?? 5180, '127.0.0.1', done));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 5180);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const scenario = (argument('scenario') ?? 'live') as Scenario;
  if (!SCENARIOS.includes(scenario)) {
    console.error(`unknown scenario "${scenario}"; one of: ${SCENARIOS.join(', ')}`);
    process.exit(2);
  }
  const server = await startFakeServer({
    scenario,
    port: Number(argument('port') ?? 5180),
    interval: Number(argument('interval') ?? 400),
    dist: argument('dist'),
  });
  console.log(`fake Spieltisch server (${scenario}) at ${server.url}/display`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
