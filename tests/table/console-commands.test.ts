// Every console command against a game that is over, not started, changing and resumed after a restart, for every
// game, over the real WebSocket and with the game log in SQLite on disk: each is a refusal with a sentence in both
// languages or a success, and the service goes on serving.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { openMockPair, type MockPair } from '../../firmware-bridge/index.ts';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import type { ConsoleCommand } from '../../server/http/messages.ts';
import { consoleCommandSchema } from '../../server/http/schemas.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { LiveTable, realBoard, type TableBoard } from '../../server/table/index.ts';
import type { GameName } from '../../server/rules/index.ts';
import { initial as malawiInitial, legalMoves, play } from '../../server/rules/malawi.ts';
import { formatMove } from '../../server/rules/malawi-notation.ts';
import { LANGS, hasKey } from '../../web/src/i18n/index.ts';
import { KALAHA_HELLO, gridHello, hello } from './helpers.ts';

const TOKEN = 'sesam';
/** Every kind of console command the server reads, from its schema: a new one is driven here too. */
const KINDS = consoleCommandSchema.options.map((o) => o.shape.kind.value);

interface GameCase {
  readonly game: GameName;
  readonly hello: string;
  readonly options: Record<string, unknown>;
  /** A whole game, to its end, in the game's notation. */
  readonly record: readonly string[];
}

function fixture(game: GameName, name: string): { rules: Record<string, unknown>; record: string[] } {
  return JSON.parse(readFileSync(join(import.meta.dirname, `../fixtures/${game}/${name}.truth.json`), 'utf8'));
}

/** A Malawi game played to its end: always the first capture there is, else the first move. */
function malawiGame(): string[] {
  let state = malawiInitial();
  const record: string[] = [];
  while (!state.outcome && record.length < 2000) {
    const moves = legalMoves(state);
    const move = moves.find((m) => m.kind === 'capture') ?? moves[0];
    const next = play(state, move);
    if (!next.ok) throw new Error(next.error.message);
    record.push(formatMove(move, state.options.size));
    state = next.value;
  }
  if (!state.outcome) throw new Error('the Malawi game did not end');
  return record;
}

const kalaha = fixture('kalaha', 'clean-acorns');
const makis = fixture('makis', 'knights-win');
const adu = fixture('adu', 'two-players');
const CASES: readonly GameCase[] = [
  { game: 'kalaha', hello: KALAHA_HELLO, options: kalaha.rules, record: kalaha.record },
  { game: 'malawi', hello: gridHello(6, 6, 'count'), options: {}, record: malawiGame() },
  { game: 'makis', hello: gridHello(9, 9), options: makis.rules, record: makis.record },
  { game: 'adu', hello: gridHello(13, 13), options: adu.rules, record: adu.record },
];

/** The command of `kind` as a console would send it; `move` for those that carry one. */
function commandOf(kind: ConsoleCommand['kind'], move: string): ConsoleCommand {
  switch (kind) {
    case 'choose':
      return { kind, questionId: 1, move };
    case 'enter':
      return { kind, move };
    default:
      return { kind } as ConsoleCommand;
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spieltisch-commands-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A board whose attaching the test holds back: the table is then in the middle of changing its game. */
class HeldBoard {
  private release: (() => void) | null = null;
  /** The table is waiting at the gate. */
  waiting = false;
  hold(): void {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    this.release = open;
    this.gate = gate;
  }
  open(): void {
    this.release?.();
    this.release = null;
    this.waiting = false;
    this.gate = Promise.resolve();
  }
  gate: Promise<void> = Promise.resolve();
  wrap(board: TableBoard): TableBoard {
    // A simulated board is attached afresh for each game: the table awaits it while it changes.
    return {
      ...board,
      source: 'simulated',
      attach: async (game) => {
        this.waiting = this.release !== null;
        await this.gate;
        return board.attach(game);
      },
    };
  }
}

interface Service {
  readonly table: LiveTable;
  readonly http: RunningServer;
  readonly log: GameLog;
  readonly pair: MockPair;
  readonly held: HeldBoard;
  readonly console: Console;
  close(): Promise<void>;
}

/** One `serve` on the log file `file`: a real board's link (a mock serial pair), the table, the HTTP face. */
async function serve(c: GameCase, file: string, resume = false): Promise<Service> {
  const pair = await openMockPair();
  const log = openGameLog(file);
  const held = new HeldBoard();
  const board = held.wrap(realBoard(pair.link, hello(c.hello), 'a mock board'));
  const table = await LiveTable.open({ board, log, statusEveryMs: 0 }, { game: c.game, options: c.options, resume });
  const http = await startHttp(table, { port: 0, host: '127.0.0.1', token: TOKEN, log, boardId: table.id, setup: table, onError: () => {} });
  const console = await Console.open(http.port);
  return {
    table,
    http,
    log,
    pair,
    held,
    console,
    async close() {
      console.close();
      await http.close();
      await table.close();
      await pair.link.close();
      log.close();
    },
  };
}

/** A referee console on the WebSocket, signed in. */
class Console {
  private ref = 0;
  private readonly waiting = new Map<number, (m: Extract<ServerMessage, { type: 'command-result' }>) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'command-result') this.waiting.get(m.ref)?.(m);
    });
  }

  static async open(port: number): Promise<Console> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const c = new Console(ws);
    const auth = new Promise<Extract<ServerMessage, { type: 'command-result' }>>((resolve) => c.waiting.set(0, resolve));
    ws.send(JSON.stringify({ type: 'auth', token: TOKEN }));
    expect(await auth).toMatchObject({ ok: true });
    return c;
  }

  send(stateId: number, command: ConsoleCommand): Promise<Extract<ServerMessage, { type: 'command-result' }>> {
    const ref = ++this.ref;
    const answer = new Promise<Extract<ServerMessage, { type: 'command-result' }>>((resolve) => this.waiting.set(ref, resolve));
    this.ws.send(JSON.stringify({ type: 'command', ref, stateId, command }));
    return answer;
  }

  close(): void {
    this.ws.close();
  }
}

/** A refusal is a stable code with an English sentence; a console code has its sentence in every language. */
function expectClean(result: Extract<ServerMessage, { type: 'command-result' }>, what: string): void {
  if (result.ok) return;
  expect(result.error, what).toMatch(/^[a-z]+\/[a-z-]+$/);
  // The last guard answering means a command threw: that is the bug, not a refusal.
  expect(result.error, what).not.toBe('console/failed');
  expect(result.message, what).toMatch(/\w/);
  if (result.error?.startsWith('console/')) for (const lang of LANGS) expect(hasKey(lang, `result.${result.error}`), `${what}: ${lang}`).toBe(true);
}

/** The service answers HTTP and its pages' WebSocket after whatever came before. */
async function expectServing(s: Service): Promise<void> {
  const health = await fetch(`http://127.0.0.1:${s.http.port}/healthz`);
  expect(health.status).toBe(200);
  const state = (await (await fetch(`http://127.0.0.1:${s.http.port}/api/state`)).json()) as ServerMessage;
  expect(state).toMatchObject({ type: 'sync', game: s.table.game });
  const fresh = await Console.open(s.http.port);
  fresh.close();
}

/** Plays `moves` as the console enters them (straight to the table: a console sending a whole game at once is cut off as a flood). */
async function enterAll(s: Service, moves: readonly string[]): Promise<void> {
  for (const move of moves) expect(s.table.command(s.table.currentStateId, { kind: 'enter', move }), `entering ${move}`).toMatchObject({ ok: true });
}

/** Brings the game to its end by its whole record, entered at the console. */
async function playToEnd(s: Service, c: GameCase): Promise<void> {
  await enterAll(s, c.record);
  expect(s.table.currentSession.view().outcome).not.toBeNull();
}

/** Every command on the game now, based on the state the console sees; returns the results by kind. */
async function everyCommand(s: Service, move: string): Promise<Map<string, Extract<ServerMessage, { type: 'command-result' }>>> {
  const results = new Map<string, Extract<ServerMessage, { type: 'command-result' }>>();
  for (const kind of KINDS) {
    const result = await s.console.send(s.table.currentStateId, commandOf(kind, move));
    expectClean(result, `${s.table.game} ${kind}`);
    results.set(kind, result);
    await expectServing(s);
  }
  return results;
}

function firstMove(c: GameCase): string {
  return c.record[0];
}

describe.each(CASES)('every console command on $game', (c) => {
  test('a game that is over: each is refused as over (confirm changes nothing), and its log ends with its end', async () => {
    const s = await serve(c, join(dir, `${c.game}-over.db`));
    try {
      await playToEnd(s, c);
      const record = s.table.currentSession.record();
      const gameId = s.table.currentGameId as number;
      const results = await everyCommand(s, firstMove(c));
      for (const [kind, result] of results) {
        if (kind === 'confirm') continue;
        expect(result, kind).toMatchObject({ ok: false, error: 'console/game-over' });
      }
      expect(s.table.currentSession.record()).toEqual(record);
      expect(s.log.game(gameId)?.endedAt).not.toBeNull();
      expect(s.log.events(gameId).at(-1)?.kind).toBe('end');
    } finally {
      await s.close();
    }
  });

  test('a game not started: each is a refusal or a success', async () => {
    const s = await serve(c, join(dir, `${c.game}-fresh.db`));
    try {
      const results = await everyCommand(s, firstMove(c));
      expect(results.get('undo')).toMatchObject({ ok: false });
    } finally {
      await s.close();
    }
  });

  test('a game being changed on the setup page: each is refused as changing, and the new game takes commands after', async () => {
    const s = await serve(c, join(dir, `${c.game}-changing.db`));
    try {
      await enterAll(s, [firstMove(c)]);
      s.held.hold();
      const started = fetch(`http://127.0.0.1:${s.http.port}/api/setup/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        // The same game afresh with the board's default options; the seats come from the names, as the setup page sends them.
        body: JSON.stringify({ game: c.game, options: {}, players: Object.values(s.table.setupState().current.players), abandon: true }),
      });
      const refused = started.then(async (r) => (r.ok ? null : await r.text()));
      await expect.poll(() => s.held.waiting, { timeout: 5000 }).toBe(true);
      expect(await Promise.race([refused, Promise.resolve('still waiting')])).toBe('still waiting');
      const before = s.table.currentStateId;
      for (const kind of KINDS) {
        const result = await s.console.send(before, commandOf(kind, firstMove(c)));
        expectClean(result, kind);
        expect(result, kind).toMatchObject({ ok: false, error: 'console/changing' });
        await expectServing(s);
      }
      s.held.open();
      expect((await started).status).toBe(200);
      expect(await s.console.send(before, { kind: 'undo' })).toMatchObject({ ok: false, error: 'console/stale-state' });
      await enterAll(s, [firstMove(c)]);
    } finally {
      s.held.open();
      await s.close();
    }
  });

  test('a game resumed after a restart, in play and already over: each is a refusal or a success', async () => {
    const file = join(dir, `${c.game}-resumed.db`);
    // The first run plays two moves and stops without ending the game, as a crash would leave it.
    const first = await serve(c, file);
    const twoMoves = c.record.slice(0, 2);
    await enterAll(first, twoMoves);
    const gameId = first.table.currentGameId as number;
    await first.close();

    const again = await serve(c, file, true);
    try {
      expect(again.table.resumed).toMatchObject({ gameId, moves: twoMoves });
      await everyCommand(again, c.record[2]);
      await expectServing(again);
    } finally {
      await again.close();
    }

    // A log that holds a whole game without its end: the service stopped between the last move and the end.
    const overFile = join(dir, `${c.game}-resumed-over.db`);
    const seed = await serve(c, overFile);
    const options = seed.table.setupState().current.options;
    const boardId = seed.table.id;
    await seed.close();
    const log = openGameLog(overFile);
    const id = log.startGame({ game: c.game, options: { ...options }, players: { '1': 'Anna', '2': 'Ben', south: 'Anna', north: 'Ben' }, boardId, source: 'sensors', at: 1 });
    c.record.forEach((move, i) => log.append(id, { kind: 'move', at: 2 + i, payload: { move, ply: i + 1 } }));
    log.close();
    const over = await serve(c, overFile, true);
    try {
      expect(over.table.resumed?.gameId).toBe(id);
      expect(over.table.currentSession.view().outcome).not.toBeNull();
      const results = await everyCommand(over, firstMove(c));
      for (const [kind, result] of results) if (kind !== 'confirm') expect(result, kind).toMatchObject({ ok: false, error: 'console/game-over' });
    } finally {
      await over.close();
    }
  });
});
