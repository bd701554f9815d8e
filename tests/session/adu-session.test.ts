// Tests of the Adu session: the view every page draws, the game log (a declared range rewrites the record there too), resume, and the console's commands.
import { describe, expect, test } from 'vitest';
import { AduSession, recordOf } from '../../server/session/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { DEFAULT_OPTIONS, observe, type AduOptions } from '../../server/rules/adu.ts';
import { parseSquare } from '../../server/rules/adu-notation.ts';
import type { Question, ServerMessage } from '../../server/http/messages.ts';
import { memoryLog, type MemoryLog } from '../support/memory-log.ts';

const RULES: AduOptions = { ...DEFAULT_OPTIONS, players: 2, size: 9 };

/** Every piece of both players in placement order (K1, S1…S6, K2); black's kings stand a step from white soldiers. */
const LAYOUT = [
  ['a1', 'b1', 'c4', 'd1', 'e4', 'f1', 'g1', 'i1'],
  ['c5', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'e5'],
];
const PLACEMENTS: string[] = [];
for (let round = 0; round < 8; round++) for (const squares of LAYOUT) PLACEMENTS.push(`${round === 0 || round === 7 ? 'K' : 'S'}@${squares[round]}`);

/** A board under the session: the cells, and a clock that runs twenty frames a second. */
class Table {
  t = 0;
  readonly cells: number[];
  constructor(
    readonly session: AduSession,
    cells: readonly number[],
  ) {
    this.cells = [...cells];
  }
  sq(name: string): number {
    const parsed = parseSquare(name, RULES.size);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / 50; k++, this.t += 50) this.session.frame(this.t, { type: 'grid', bits: bitsOf(this.cells) });
    return this;
  }
  set(name: string, value: 0 | 1): this {
    this.cells[this.sq(name)] = value;
    return this.wait(800);
  }
}

/** A session resuming `moves` from its log (which holds them), its board showing the position. */
function started(moves: readonly string[]): { session: AduSession; table: Table; log: MemoryLog; seen: ServerMessage[] } {
  // It refuses writes after the game's end, as the real store does.
  const log = memoryLog({ moves });
  const session = new AduSession({ rules: RULES, boardId: 'test', source: 'serial', log, resume: { gameId: 1, moves } });
  const seen: ServerMessage[] = [];
  session.subscribe((m) => seen.push(m));
  const table = new Table(session, observe(session.referee.state)).wait(1000);
  return { session, table, log, seen };
}

describe('Adu session: the view', () => {
  test('during placement: what is placed next, by whom, and each seat', () => {
    const { session } = started(PLACEMENTS.slice(0, 3));
    const view = session.view();
    expect(view).toMatchObject({ game: 'adu', size: 9, players: 2, phase: 'placement', placing: { kind: 'soldier', id: 'S1' }, toMove: 2, supply: 10, awaitingReserve: null, outcome: null });
    expect(view.pieces).toEqual([
      { square: 'a1', player: 1, kind: 'king', id: 'K1' },
      { square: 'b1', player: 1, kind: 'soldier', id: 'S1' },
      { square: 'c5', player: 2, kind: 'king', id: 'K1' },
    ]);
    expect(view.seats).toEqual([
      { player: 1, in: true, kings: 1, reserves: 0 },
      { player: 2, in: true, kings: 1, reserves: 0 },
    ]);
    expect(view.lastMove).toEqual({ notation: 'S@b1', squares: ['b1'] });
  });

  test('the Merkskala: each soldier on the board and the ranges it may still hold', () => {
    // White's S3 went four steps.
    const { session } = started([...PLACEMENTS, 'd1-d5']);
    const ranges = session.view().ranges;
    expect(ranges['1']).toEqual({ S1: [1, 2, 3, 4, 5, 6], S2: [1, 2, 3, 4, 5, 6], S3: [4, 5, 6], S4: [1, 2, 3, 4, 5, 6], S5: [1, 2, 3, 4, 5, 6], S6: [1, 2, 3, 4, 5, 6] });
    expect(Object.keys(ranges['2'])).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  });

  test('a king captured, its reserve king still to come: the captor is shown on the point, and who owes the reserve king', () => {
    const { session, table } = started(PLACEMENTS);
    table.set('c5', 0).set('c4', 0).set('c5', 1).wait(500);
    const view = session.view();
    expect(view.awaitingReserve).toEqual({ player: 1 });
    expect(view.pieces.find((p) => p.square === 'c5')).toEqual({ square: 'c5', player: 1, kind: 'soldier', id: 'S2' });
    expect(view.pieces.some((p) => p.square === 'c4')).toBe(false);
    table.set('h5', 1);
    const after = session.view();
    expect(after.awaitingReserve).toBeNull();
    expect(after.seats).toEqual([
      { player: 1, in: true, kings: 2, reserves: 1 },
      { player: 2, in: true, kings: 1, reserves: 0 },
    ]);
    expect(after.supply).toBe(9);
  });

  test('the end: the winner and who was still in; the log closes the game', () => {
    const { session, table, log } = started([...PLACEMENTS, 'c4xc5R@h5', 'b9-b8']);
    table.set('e5', 0).set('e4', 0).set('e5', 1);
    for (const square of ['b8', 'c9', 'd9', 'e9', 'f9', 'g9']) table.set(square, 0);
    const view = session.view();
    expect(view.outcome).toEqual({ winner: '1', reason: 'last-king', players: [1] });
    expect(view.toMove).toBeNull();
    expect(view.seats.map((s) => s.in)).toEqual([true, false]);
    expect(log.ended).toHaveLength(1);
  });
});

describe('Adu session: declarations, the log and resume', () => {
  test('the console is asked with the lowest range preselected; a higher range rewrites the logged record', () => {
    const { session, table, log, seen } = started([...PLACEMENTS, 'b1-b6', 'f9-f8']);
    // White's S1 takes black's S1 on b9 (the captured piece off first).
    table.set('b9', 0).set('b6', 0).set('b9', 1);
    const sync = session.sync();
    if (sync.type !== 'sync') throw new Error('sync is a sync');
    const question = (sync.questions as Question[])[0];
    expect(question).toMatchObject({ code: 'referee/declare-range', preselected: 'b6xb9=1', options: ['b6xb9=1', 'b6xb9=2', 'b6xb9=3', 'b6xb9=4', 'b6xb9=5', 'b6xb9=6'] });
    expect(session.view().declaring).toEqual([{ player: 2, soldier: 'S1', square: 'b9' }]);
    // Black plays on before declaring.
    table.set('d9', 0).set('d8', 1);
    const result = session.command(session.currentStateId, { kind: 'choose', questionId: question.id, move: 'b6xb9=3' });
    expect(result.ok).toBe(true);
    expect(session.record().slice(-2)).toEqual(['b6xb9=3', 'd9-d8']);
    expect(session.view().declaring).toBeUndefined();
    // The display saw the capture and the move since taken back and played again.
    const updates = seen.flatMap((m) => (m.type === 'update' ? [`${m.event} ${m.move ?? m.undone?.join(',') ?? ''}`] : []));
    expect(updates.slice(-3)).toEqual(['takeback b6xb9,d9-d8', 'move b6xb9=3', 'move d9-d8']);
    // What a restart reads back from the log.
    expect(recordOf(log.events)).toEqual([...PLACEMENTS, 'b1-b6', 'f9-f8', 'b6xb9=3', 'd9-d8']);
  });

  test('a game resumed from its log goes on where it was, declared range included', () => {
    const moves = [...PLACEMENTS, 'b1-b6', 'f9-f8', 'b6xb9=3', 'd9-d8'];
    const { session } = started(moves);
    expect(session.record()).toEqual(moves);
    expect(session.view().ranges['2'].S5).toEqual([1, 2, 4, 5, 6]);
    expect(session.view().ranges['2'].S1).toBeUndefined();
  });

  test('a log that does not replay refuses to resume', () => {
    expect(() => new AduSession({ rules: RULES, boardId: 'test', source: 'serial', resume: { gameId: 3, moves: ['K@a1', 'a1-a2'] } })).toThrow(/cannot resume game 3: ply 2/);
  });
});

describe('Adu session: console commands', () => {
  test('undo, and the commands Adu has no use for', () => {
    const { session } = started([...PLACEMENTS, 'b1-b6']);
    const stateId = () => session.currentStateId;
    expect(session.command(stateId(), { kind: 'undo' }).ok).toBe(true);
    expect(session.record()).toEqual(PLACEMENTS);
    const refusals = (['ask', 'agree', 'roll'] as const).map((kind) => {
      const r = session.command(stateId(), { kind });
      return r.ok ? 'ok' : r.error;
    });
    expect(refusals).toEqual(['referee/no-capture-seen', 'console/no-agreement', 'console/no-dice']);
    expect(session.command(stateId(), { kind: 'enter', move: 'a1-a3' })).toMatchObject({ ok: false, error: 'adu/king-one-step', params: { from: 'a1', to: 'a3' } });
    const entered = session.command(stateId(), { kind: 'enter', move: 'b1-b6' });
    expect(entered.ok).toBe(true);
    expect(session.record().at(-1)).toBe('b1-b6');
  });
});

