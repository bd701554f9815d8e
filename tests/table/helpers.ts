// Fixtures of the live table's tests: a board on a mock serial line whose frames the test hands to the link itself
// (synchronously, on the board's clock), a game log in memory, and a clock the test moves.
import {
  BoardLink,
  formatLine,
  openMockPair,
  parseLine,
  type HelloMessage,
  type MockPair,
} from '../../firmware-bridge/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { LiveTable, realBoard, type FirstGame, type LiveTableOptions } from '../../server/table/index.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { Table } from '../referee/table.ts';

export const KALAHA_HELLO = 'HELLO proto=1 fw=test/1 board=kalaha id=K1 cells=14';
export const gridHello = (cols: number, rows: number, sense: 'occupancy' | 'count' = 'occupancy'): string =>
  `HELLO proto=1 fw=test/1 board=grid id=G${cols}x${rows} cols=${cols} rows=${rows} sense=${sense}`;

export function hello(line: string): HelloMessage {
  const parsed = parseLine(formatLine(line));
  if (parsed.kind !== 'message' || parsed.message.type !== 'hello') throw new Error(`not a HELLO: ${line}`);
  return parsed.message;
}

/** A clock the test sets. */
export class FakeClock {
  constructor(public t = 1_700_000_000_000) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface Rig {
  readonly table: LiveTable;
  readonly link: BoardLink;
  readonly pair: MockPair;
  readonly log: GameLog;
  readonly clock: FakeClock;
  /** Every message the table sent its subscribers, in order. */
  readonly heard: ServerMessage[];
  /** Weight frames into the link, as the board would send them (seq counts on by itself). */
  weights(frames: readonly { readonly t: number; readonly tenths: readonly number[] }[]): void;
  grid(bits: bigint, t: number, seq?: number): void;
  close(): Promise<void>;
}

let seq = 0;

/** A live table on a board that said `helloLine`, its first game `first`. */
export async function rig(helloLine: string, first: FirstGame, options: Partial<LiveTableOptions> = {}): Promise<Rig> {
  const pair = await openMockPair();
  const greeting = hello(helloLine);
  const log = openGameLog(':memory:');
  const clock = new FakeClock();
  const table = await LiveTable.open({ board: realBoard(pair.link, greeting, 'a mock board'), log, now: clock.now, statusEveryMs: 0, ...options }, first);
  const heard: ServerMessage[] = [];
  table.subscribe((message) => heard.push(message));
  return {
    table,
    link: pair.link,
    pair,
    log,
    clock,
    heard,
    weights(frames) {
      for (const f of frames) pair.link.emit('weights', { type: 'weights', seq: seq++, cells: [...f.tenths], receivedAt: f.t });
    },
    grid(bits, t, n = seq++) {
      pair.link.emit('grid', { type: 'grid', seq: n, occupancy: bits, receivedAt: t });
    },
    async close() {
      await table.close();
      await pair.link.close();
      log.close();
    },
  };
}

/** A Kalaha table of marbles (every stone 5 g, noise 0.1 g) holding the opening position still for `ms`. */
export function openingTable(seed = 1, ms = 1500, t0 = 0): Table {
  const table = new Table({ seed, stone: () => 5, noise: 0.1 });
  table.t = t0;
  table.wait(ms);
  return table;
}

/** The board answers every command with OK (or with `answer(body)` when given). */
export function answerCommands(pair: MockPair, answer: (body: string) => string | null = (body) => `OK ${body}`): void {
  pair.board.onWrite((bytes) => {
    for (const line of bytes.toString('latin1').split('\n')) {
      const body = line.replace(/\*[0-9A-F]{2}\r?$/, '');
      if (!body || body === line) continue;
      const reply = answer(body);
      if (reply !== null) pair.board.emit(formatLine(reply) );
    }
  });
}

export function syncs(heard: readonly ServerMessage[]): Extract<ServerMessage, { type: 'sync' }>[] {
  return heard.filter((m): m is Extract<ServerMessage, { type: 'sync' }> => m.type === 'sync');
}

export function stateIds(heard: readonly ServerMessage[]): number[] {
  return heard.flatMap((m) => ('stateId' in m ? [m.stateId] : []));
}
