// Simulated tables for the MQTT tests: each a table kit's simulated board and players, its live
// session with a game log, and the publisher, all in this process, exactly as `serve` wires them.
import { tables } from '../../server/tables/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { recordOf, type GameSession } from '../../server/session/index.ts';
import { startPublisher, tableLogPosition, type TablePublisher } from '../../server/mqtt/index.ts';
import type { GameName } from '../../server/rules/types.ts';

export interface TableEvent {
  readonly gameId: number | null;
  readonly seq: number;
  readonly event: string;
}

export interface TestTable {
  readonly site: string;
  readonly name: string;
  readonly session: GameSession;
  /** The current run's publisher (a new one after `restartPublisher`). */
  readonly publisher: TablePublisher;
  readonly log: GameLog;
  /** Every update the session made, as the table itself saw it. */
  readonly events: TableEvent[];
  /** The game log's record of the current game. */
  loggedRecord(): string[];
  /** Stops the simulated players and the board: the game stands still where it is. */
  stopPlaying(): Promise<void>;
  /** The table's service restarts, its log and game kept: the old publisher says goodbye, a new one starts where the log stands, on `now`. */
  restartPublisher(now?: () => number): Promise<void>;
  close(): Promise<void>;
}

export interface TableOptions {
  readonly url: string;
  readonly site: string;
  readonly name: string;
  readonly seed: number;
  readonly simSpeed: number;
  /** The site's key: the table signs what it publishes. */
  readonly key?: string;
  /** The table's wall clock. */
  readonly now?: () => number;
  /** How often the table says it is there (default: the publisher's minute). */
  readonly heartbeatMs?: number;
}

export async function startTable(game: GameName, options: TableOptions): Promise<TestTable> {
  const kit = tables[game];
  if (!kit) throw new Error(`no table kit for ${game}`);
  const rules = kit.withRules({});
  const sim = await rules.simulate({ seed: options.seed, simSpeed: options.simSpeed, sense: 'count' });
  const log = openGameLog(':memory:');
  const session = rules.session({ boardId: options.name, source: 'simulated', log }, sim.link);
  session.setBoard({ connected: true, calibrated: true });
  const events: TableEvent[] = [];
  session.subscribe((message) => {
    if (message.type === 'update') events.push({ gameId: session.currentGameId, seq: message.stateId, event: message.event });
  });
  const publish = (now?: () => number) =>
    startPublisher(session, { url: options.url, site: options.site, board: options.name, key: options.key, now, heartbeatMs: options.heartbeatMs, log: tableLogPosition(log, options.name) });
  let publisher = publish(options.now);
  let playing = true;
  const stopPlaying = async () => {
    if (!playing) return;
    playing = false;
    await sim.close();
  };
  return {
    site: options.site,
    name: options.name,
    session,
    get publisher() {
      return publisher;
    },
    log,
    events,
    loggedRecord: () => (session.currentGameId === null ? [] : recordOf(log.events(session.currentGameId))),
    stopPlaying,
    async restartPublisher(now) {
      await publisher.close(500);
      publisher = publish(now);
    },
    async close() {
      await stopPlaying();
      await publisher.close(500);
      log.close();
    },
  };
}

/**
 * Waits until `done()` holds, looking every 50 ms; fails naming `what` after `tries` looks. The
 * bound only keeps a broken run from hanging: nothing here asserts how long anything took.
 */
export async function until(what: string, done: () => boolean, tries = 1200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}
