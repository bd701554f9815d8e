// A Malawi game through every layer: the simulated square board's bytes through MockBinding, the
// bridge, the referee, the session, and two WebSocket clients — a display, and a referee console
// that answers the referee's questions with the token.
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startSimulatedGridBoard, type SimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { planMalawiGame, malawiBoardSetup } from '../../server/simulate/index.ts';
import { MalawiSession } from '../../server/session/index.ts';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import { DEFAULT_OPTIONS } from '../../server/rules/malawi.ts';

let sim: SimulatedGridBoard | null = null;
let http: RunningServer | null = null;
afterEach(async () => {
  await http?.close();
  await sim?.close();
  sim = http = null;
});

function client(port: number): { ws: WebSocket; received: ServerMessage[]; open: Promise<unknown> } {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const received: ServerMessage[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
  return { ws, received, open: new Promise((resolve) => ws.once('open', resolve)) };
}

describe('a simulated Malawi game through serial, referee, session and WebSocket', () => {
  test('an occupancy board: the console announces captures and distributions and answers the questions', async () => {
    const seed = 7;
    const plan = planMalawiGame({ seed, rules: DEFAULT_OPTIONS, maxMoves: 40 });
    sim = await startSimulatedGridBoard({ seed, sense: 'occupancy', simSpeed: 20, virtualTimestamps: true, ...malawiBoardSetup(DEFAULT_OPTIONS) });
    const session = new MalawiSession({ rules: DEFAULT_OPTIONS, boardId: 'test', source: 'simulated' });
    let lastFrameAt = 0;
    sim.link.on('grid', (frame) => {
      lastFrameAt = frame.receivedAt;
      session.frame(frame.receivedAt, { type: 'grid', bits: frame.occupancy });
    });
    http = await startHttp(session, { port: 0, host: '127.0.0.1', token: 'sesam' });
    const display = client(http.port);
    const console = client(http.port);
    await Promise.all([display.open, console.open]);
    console.ws.send(JSON.stringify({ type: 'auth', token: 'sesam' }));

    // The console person sees each capture or distribution made (the board cannot) and, once
    // the hand is done, says so: ask which, and choose the move that was really made.
    const hidden = new Map(plan.events.flatMap((e) => (e.kind === 'move' && e.moveKind !== 'move' ? [[e.endLabel, e.move] as const] : [])));
    const announced: string[] = [];
    const due: { t: number; move: string }[] = [];
    let ref = 0;
    const stateId = () => (console.received.filter((m) => 'stateId' in m).at(-1) as { stateId: number } | undefined)?.stateId ?? 0;
    const table = (sim as SimulatedGridBoard).table;
    table.onMark = (label, t) => {
      const move = hidden.get(label);
      if (move) due.push({ t, move });
    };
    const answered = new Set<number>();
    const watch = setInterval(() => {
      // Ask once the service has read the board past the moment the hand was done.
      while (due.length && lastFrameAt >= due[0].t + 300) {
        announced.push((due.shift() as { move: string }).move);
        console.ws.send(JSON.stringify({ type: 'command', ref: ++ref, stateId: stateId(), command: { kind: 'ask' } }));
      }
      for (const m of console.received) {
        if (m.type !== 'question' || answered.has(m.question.id) || announced.length === 0) continue;
        answered.add(m.question.id);
        console.ws.send(JSON.stringify({ type: 'command', ref: ++ref, stateId: stateId(), command: { kind: 'choose', questionId: m.question.id, move: announced.shift() } }));
      }
    }, 2);

    await new Promise<void>((resolve) => sim?.table.perform([{ kind: 'wait', ms: 3000 }, ...plan.actions, { kind: 'wait', ms: 3000 }], resolve));
    const until = (sim as SimulatedGridBoard).driver.virtualNow() + 500;
    while (lastFrameAt < until || display.received.filter((m) => m.type === 'update').length < session.currentStateId) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    clearInterval(watch);

    const last = display.received.filter((m) => m.type === 'update').at(-1) as { record: readonly string[] };
    expect(last.record).toEqual(plan.record);
    // The display saw every move in order; the console's commands were all accepted.
    const moves = display.received.flatMap((m) => (m.type === 'update' && m.event === 'move' ? [m.move] : []));
    expect(moves).toEqual(plan.events.flatMap((e) => (e.kind === 'move' ? [e.move] : [])));
    expect(console.received.filter((m) => m.type === 'command-result' && !m.ok)).toEqual([]);
    expect(announced).toEqual([]);
    expect(due).toEqual([]);
    display.ws.close();
    console.ws.close();
  }, 60_000);
});
