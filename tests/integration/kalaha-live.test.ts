// A whole game through every layer: the simulated table's bytes through serialport's MockBinding,
// the bridge, the referee, the session and its game log, and a WebSocket client at /ws.
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startSimulatedKalahaBoard, type SimulatedBoard } from '../../firmware-bridge/index.ts';
import { planKalahaGame } from '../../server/simulate/index.ts';
import { KalahaSession, recordOf } from '../../server/session/index.ts';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/kalaha.ts';

let sim: SimulatedBoard | null = null;
let http: RunningServer | null = null;
let log: GameLog | null = null;
afterEach(async () => {
  await http?.close();
  await sim?.close();
  log?.close();
  sim = http = log = null;
});

async function playThrough(seed: number, illegalProbability: number, takeBackProbability: number) {
  const plan = planKalahaGame({ seed, rules: DEFAULT_OPTIONS, illegalProbability, takeBackProbability, partialIllegalProbability: 0 });
  sim = await startSimulatedKalahaBoard({ seed, stoneSet: 'mixed', simSpeed: 100, virtualTimestamps: true });
  log = openGameLog(':memory:');
  const session = new KalahaSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'simulated', log, now: () => 1_700_000_000_000 });
  let lastFrameAt = 0;
  sim.link.on('weights', (frame) => {
    lastFrameAt = frame.receivedAt;
    session.frame(frame.receivedAt, frame.cells);
  });
  http = await startHttp(session, { port: 0, host: '127.0.0.1', token: 'test-token' });

  const client = new WebSocket(`ws://127.0.0.1:${http.port}/ws`);
  const received: ServerMessage[] = [];
  client.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
  await new Promise((resolve) => client.once('open', resolve));

  const table = sim.table;
  await new Promise<void>((resolve) => table.perform([{ kind: 'wait', ms: 3000 }, ...plan.actions, { kind: 'wait', ms: 3000 }], resolve));
  // The table has done its part; wait until the service has read the board up to now and every
  // update has reached the client (on a loaded machine the pipeline may lag the table's clock).
  const until = sim.driver.virtualNow() + 500;
  while (lastFrameAt < until || received.filter((m) => m.type === 'update').length < session.currentStateId) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  client.close();
  return { plan, received, log, session };
}

describe('a simulated game through serial, referee, session and WebSocket', () => {
  test.each([
    ['a clean game', 11, 0, 0],
    ['illegal attempts put back and take-backs', 12, 0.2, 0.1],
  ])('%s: the client sees every move in order, nothing missed, nothing invented', async (_name, seed, illegal, takeBacks) => {
    const { plan, received, log, session } = await playThrough(seed, illegal, takeBacks);

    expect(received[0].type).toBe('sync');
    // stateIds only grow.
    const ids = received.filter((m) => m.type === 'update').map((m) => (m as { stateId: number }).stateId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);

    // Every move the players made, in order, and no other.
    const made = plan.events.filter((e) => e.kind === 'move').map((e) => (e as { move: string }).move);
    const seen = received.flatMap((m) => (m.type === 'update' && m.event === 'move' ? [m.move as string] : []));
    expect(seen).toEqual(made);

    // The record after take-backs is the true one, on the page and in the game log.
    const last = received.filter((m) => m.type === 'update').at(-1) as { record: readonly string[] };
    expect(last.record).toEqual(plan.record);
    const gameId = session.currentGameId as number;
    expect(recordOf(log.events(gameId))).toEqual(plan.record);
    expect(log.game(gameId)?.endedAt).not.toBeNull();

    // One alert for each illegal attempt, naming the pit.
    const attempts = plan.events.filter((e) => e.kind === 'illegal') as { pit: string; code: string }[];
    const alerts = received.flatMap((m) => (m.type === 'alert' ? [m.alert] : []));
    expect(alerts.map((a) => [a.code, a.params.pit])).toEqual(attempts.map((a) => [a.code, a.pit]));
    if (takeBacks > 0) expect(received.some((m) => m.type === 'update' && m.event === 'takeback')).toBe(true);
  }, 60_000);
});
