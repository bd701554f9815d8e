// An Adu game through every layer: the simulated occupancy grid's bytes through MockBinding, the
// bridge, the referee, the session with its game log, and two WebSocket clients — a display, and a
// referee console that answers the referee's questions (which piece a capture took, the range a
// captured soldier's owner declares) with the token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startSimulatedGridBoard, type SimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { aduBoardSetup, planAduGame } from '../../server/simulate/index.ts';
import { AduSession, recordOf } from '../../server/session/index.ts';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { DEFAULT_OPTIONS, merkskala, type AduOptions } from '../../server/rules/adu.ts';
import type { AduView, Question } from '../../server/http/messages.ts';

let sim: SimulatedGridBoard | null = null;
let http: RunningServer | null = null;
let log: GameLog | null = null;
let dir: string | null = null;
afterEach(async () => {
  await http?.close();
  await sim?.close();
  log?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sim = http = log = dir = null;
});

function client(port: number): { ws: WebSocket; received: ServerMessage[]; open: Promise<unknown> } {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  const received: ServerMessage[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
  return { ws, received, open: new Promise((resolve) => ws.once('open', resolve)) };
}

describe('a simulated Adu game through serial, referee, session and WebSocket', () => {
  test('three players; the console names a capture made in one sweep and declares captured soldiers\' ranges', async () => {
    const rules: AduOptions = { ...DEFAULT_OPTIONS, players: 3, size: 9 };
    // A seed whose first 45 moves hold a capture in one sweep, declarations and a reserve king.
    const plan = planAduGame({ seed: 7, rules, maxMoves: 45, quickCaptureProbability: 0.5, lowestDeclarationProbability: 0.3 });
    const events = plan.events.filter((e) => e.kind === 'move');
    expect(events.some((e) => e.kind === 'move' && e.handling === 'quick')).toBe(true);
    expect(events.some((e) => e.kind === 'move' && e.declaration !== null && e.declaration.ranges.length > 1)).toBe(true);

    dir = mkdtempSync(join(tmpdir(), 'spieltisch-adu-'));
    log = openGameLog(join(dir, 'games.db'));
    sim = await startSimulatedGridBoard({ seed: 7, sense: 'occupancy', simSpeed: 20, virtualTimestamps: true, ...aduBoardSetup(rules) });
    const session = new AduSession({ rules, boardId: 'test', source: 'simulated', log });
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

    // The person at the console watched the game: what was played at each ply, with its declared range.
    const done = new Map<string, { ply: number; move: string }>();
    for (const e of plan.events) {
      if (e.kind !== 'move') continue;
      const bare = e.move.replace(/=\d+/, '');
      done.set(e.endLabel, { ply: e.ply, move: e.declaration ? `${bare}=${e.declaration.range}` : e.move });
    }
    const played: { ply: number; move: string }[] = [];
    const table = (sim as SimulatedGridBoard).table;
    table.onMark = (label) => {
      const made = done.get(label);
      if (made) played.push(made);
    };
    let ref = 0;
    const stateId = () => (console.received.filter((m) => 'stateId' in m).at(-1) as { stateId: number } | undefined)?.stateId ?? 0;
    const plies = () => (display.received.filter((m) => m.type === 'update').at(-1) as { record: readonly string[] } | undefined)?.record.length ?? 0;
    const answered = new Map<number, string>();
    const refused: unknown[] = [];
    const answer = (q: Question): string | null => {
      const declaring = q.code === 'referee/declare-range';
      const ply = declaring ? Number(q.params.ply) : plies() + 1;
      const made = played.filter((p) => p.ply === ply).at(-1);
      if (!made) return null;
      if (declaring) return q.options.find((o) => o === made.move) ?? (q.preselected as string);
      return q.options.find((o) => o === made.move.replace(/=\d+/, '')) ?? null;
    };
    const watch = setInterval(() => {
      for (const m of console.received) {
        if (m.type === 'command-result' && !m.ok) {
          // The game moved on while the answer travelled: ask again with the new state.
          if (m.error === 'console/stale-state') answered.clear();
          else refused.push(m);
        }
      }
      console.received.splice(0, console.received.length, ...console.received.filter((m) => m.type !== 'command-result'));
      const open = new Map<number, Question>();
      for (const m of console.received) {
        if (m.type === 'question') open.set(m.question.id, m.question);
        if (m.type === 'question-closed') open.delete(m.id);
      }
      for (const q of open.values()) {
        if (answered.has(q.id)) continue;
        const move = answer(q);
        if (move === null) continue;
        answered.set(q.id, move);
        console.ws.send(JSON.stringify({ type: 'command', ref: ++ref, stateId: stateId(), command: { kind: 'choose', questionId: q.id, move } }));
      }
    }, 5);

    await new Promise<void>((resolve) => sim?.table.perform([{ kind: 'wait', ms: 3000 }, ...plan.actions, { kind: 'wait', ms: 4000 }], resolve));
    const until = (sim as SimulatedGridBoard).driver.virtualNow() + 500;
    while (lastFrameAt < until || display.received.filter((m) => m.type === 'update').length < session.currentStateId) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    clearInterval(watch);

    const last = display.received.filter((m) => m.type === 'update').at(-1) as { record: readonly string[]; view: AduView };
    expect(last.record).toEqual(plan.record);
    expect(refused).toEqual([]);
    // The display's Merkskala and seats are the engine's.
    expect(last.view.ranges).toEqual(merkskala(plan.final));
    expect(last.view.supply).toBe(plan.final.supply);
    expect(last.view.seats.map((s) => s.in)).toEqual(plan.final.inGame);
    // Declarations reached the console with the lowest range preselected.
    const declarations = console.received.flatMap((m) => (m.type === 'question' && m.question.code === 'referee/declare-range' ? [m.question] : []));
    expect(declarations.length).toBeGreaterThan(0);
    for (const q of declarations) expect(q.preselected).toBe(q.options[0]);
    // The log holds the game as played: resuming from it gives the same record.
    const gameId = session.currentGameId as number;
    expect(recordOf(log.events(gameId))).toEqual(plan.record);
    display.ws.close();
    console.ws.close();
  }, 90_000);
});
