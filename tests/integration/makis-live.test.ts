// A Makis game through every layer: the simulated 9 × 9 board's bytes through MockBinding, the
// bridge, the referee, the session with its game log, and two WebSocket clients — a display, and
// a referee console that answers the referee's questions and rolls the dice for the table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startSimulatedGridBoard, type GridAction, type SimulatedGridBoard } from '../../firmware-bridge/index.ts';
import { makisBoardSetup, planMakisGame, type MakisGamePlan } from '../../server/simulate/index.ts';
import { MakisSession, recordOf } from '../../server/session/index.ts';
import { startHttp, type RunningServer, type ServerMessage } from '../../server/http/index.ts';
import { openGameLog, type GameLog } from '../../server/store/index.ts';
import { positionJson } from '../../server/rules/makis-notation.ts';
import type { Roll } from '../../server/rules/makis.ts';
import type { MakisView, Question } from '../../server/http/messages.ts';

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

/** The plan's record as far as a board can show it: passes at the end are seen by no one. */
function visibleRecord(plan: MakisGamePlan): string[] {
  const record = plan.record.slice();
  while (record.length && /^\d+:-$/.test(record[record.length - 1])) record.pop();
  return record;
}

/** A table running `plan` behind a mock serial port, a session with a game log, and a display and a console on the WebSocket. */
async function table(plan: MakisGamePlan, seed: number, drawRoll?: () => Roll) {
  const rules = plan.options;
  dir = mkdtempSync(join(tmpdir(), 'spieltisch-makis-'));
  log = openGameLog(join(dir, 'games.db'));
  sim = await startSimulatedGridBoard({ seed, sense: 'occupancy', simSpeed: 20, virtualTimestamps: true, ...makisBoardSetup(rules) });
  const session = new MakisSession({ rules, boardId: 'test', source: 'simulated', log, drawRoll });
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
  let ref = 0;
  const stateId = () => (console.received.filter((m) => 'stateId' in m).at(-1) as { stateId: number } | undefined)?.stateId ?? 0;
  const send = (command: object): number => {
    console.ws.send(JSON.stringify({ type: 'command', ref: ++ref, stateId: stateId(), command }));
    return ref;
  };
  const play = async (actions: readonly GridAction[]): Promise<void> => {
    await new Promise<void>((resolve) => sim?.table.perform([{ kind: 'wait', ms: 3000 }, ...actions, { kind: 'wait', ms: 5000 }], resolve));
    const until = (sim as SimulatedGridBoard).driver.virtualNow() + 500;
    while (lastFrameAt < until || display.received.filter((m) => m.type === 'update').length < session.currentStateId) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const last = () => display.received.filter((m) => m.type === 'update').at(-1) as { record: readonly string[]; view: MakisView };
  return { session, display, console, send, play, last };
}

describe('a simulated Makis game through serial, referee, session and WebSocket', () => {
  test('three players to the end; the record takes the last roll, whose readings end the game alike, and the game over, the console cannot change it', async () => {
    // The console-question fixture's game: two knights home from row 8, one with a step left over.
    const plan = planMakisGame({ seed: 119, rules: { players: 3 }, slowResetProbability: 0 });
    expect(plan.events.some((e) => e.kind === 'move' && e.alike.length > 0)).toBe(true);
    const { session, display, console, send, play, last } = await table(plan, 119);
    const answered = new Set<number>();
    const refused: unknown[] = [];
    const watch = setInterval(() => {
      for (const m of console.received) if (m.type === 'command-result' && !m.ok) refused.push(m);
      console.received.splice(0, console.received.length, ...console.received.filter((m) => m.type !== 'command-result'));
      for (const m of console.received) {
        if (m.type !== 'question' || answered.has(m.question.id)) continue;
        const q: Question = m.question;
        // A question about a move the record took already names its ply.
        const played = typeof q.params.ply === 'number' ? q.params.ply - 1 : (last()?.record.length ?? 0);
        const move = q.options.find((o) => plan.record.slice(played).includes(o));
        if (move === undefined) continue;
        answered.add(q.id);
        send({ kind: 'choose', questionId: q.id, move });
      }
    }, 5);
    await play(plan.actions);
    clearInterval(watch);

    const end = last();
    // The roll's two readings leave the same position: the game does not wait for the answer (the
    // record took the first, assumed). That roll ended the game, whose end the log holds: the
    // console's answer comes too late to change it, and is refused saying so.
    const truth = visibleRecord(plan);
    expect(session.record().slice(0, -1)).toEqual(truth.slice(0, -1));
    expect(session.record().length).toBe(truth.length);
    expect(refused.map((r) => (r as { error: string }).error)).toEqual(['console/game-over']);
    expect(answered.size).toBe(1);
    const shown = display.received.flatMap((m) => (m.type === 'update' && m.event === 'move' ? [m.move] : []));
    expect(shown.slice(0, -1)).toEqual(truth.slice(0, -1));
    // The pages and the log learn of the correction through the session (issue 16's contract):
    // until they do, they hold the record as the moves were shown.
    expect([truth, shown]).toContainEqual(end.record);
    // The display's board is the engine's, the game over and nothing owed.
    expect(end.view.outcome).toEqual({ winner: 'knights', reason: 'knight-home' });
    expect({ knights: Object.fromEntries(end.view.knights.map((r, i) => [String(i + 1), r])), makis: Object.fromEntries(end.view.makis.map((m, i) => [String(i + 1), m])) }).toEqual(
      positionJson(plan.final),
    );
    expect(end.view.pending).toEqual([]);
    // Every move reached the display once, in order; the log holds the game as played.
    expect([truth, shown]).toContainEqual(recordOf((log as GameLog).events(session.currentGameId as number)));
    display.ws.close();
    console.ws.close();
  }, 90_000);

  test('the display rolls the dice for the table: the knights are moved for that roll, and the referee takes exactly it', async () => {
    const plan = planMakisGame({ seed: 5, rules: { players: 2 }, slowResetProbability: 0, maxRounds: 6 });
    const rolls = plan.events.flatMap((e) => (e.kind === 'move' && e.dice ? [e.dice] : []));
    expect(rolls).toHaveLength(6);
    const drawn = rolls.slice();
    // Someone presses "roll" on the display a while before the players move the knights (time for the command to arrive).
    const actions: GridAction[] = [];
    const rollLabels = new Set(plan.events.flatMap((e) => (e.kind === 'move' && e.moveKind === 'roll' ? [e.label] : [])));
    let k = 0;
    for (const a of plan.actions) {
      if (a.kind === 'mark' && rollLabels.has(a.label)) actions.push({ kind: 'mark', label: `display-roll-${++k}` }, { kind: 'wait', ms: 8000 });
      actions.push(a);
    }
    const { display, console, send, play, last } = await table(plan, 5, () => drawn.shift() as Roll);
    const pressed: number[] = [];
    (sim as SimulatedGridBoard).table.onMark = (label) => {
      if (label.startsWith('display-roll-')) pressed.push(send({ kind: 'roll' }));
    };
    const results = new Map<number, { ok: boolean; error?: string }>();
    const watch = setInterval(() => {
      for (const m of console.received) if (m.type === 'command-result') results.set(m.ref, m);
      // A press that raced a reset being seen is pressed again.
      for (const [ref, r] of results) {
        if (!r.ok && r.error === 'console/stale-state' && pressed.includes(ref)) {
          results.delete(ref);
          pressed.splice(pressed.indexOf(ref), 1, send({ kind: 'roll' }));
        }
      }
    }, 5);
    await play(actions);
    clearInterval(watch);

    expect(last().record).toEqual(visibleRecord(plan));
    expect(drawn).toEqual([]);
    expect(pressed.map((ref) => results.get(ref)?.ok)).toEqual(rolls.map(() => true));
    // Before each roll the display showed the dice drawn; after it, the roll in the dice's own order.
    const views = display.received.flatMap((m) => (m.type === 'update' ? [m.view as MakisView] : []));
    expect(views.filter((v) => v.expectedRoll !== null).map((v) => v.expectedRoll)).toEqual(expect.arrayContaining(rolls));
    const afterRolls = display.received.flatMap((m) => (m.type === 'update' && m.event === 'move' && m.move?.startsWith('R') ? [(m.view as MakisView).lastRoll] : []));
    expect(afterRolls).toEqual(rolls);
    expect(display.received.filter((m) => m.type === 'alert')).toEqual([]);
    display.ws.close();
    console.ws.close();
  }, 90_000);
});
