// An Adu game resumed after the service restarted, with a captured soldier's range still to declare:
// the console is asked again (same question, same choices, the lowest preselected); a range declared
// before the restart stands, whether it was the lowest (only the console's answer in the log says so)
// or another (the record carries it).
import { describe, expect, test } from 'vitest';
import { AduSession, recordOf, resumeOf } from '../../server/session/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { DEFAULT_OPTIONS, observe, type AduOptions } from '../../server/rules/adu.ts';
import { parseSquare } from '../../server/rules/adu-notation.ts';
import { openGameLog } from '../../server/store/index.ts';
import { tables } from '../../server/tables/index.ts';
import type { Question, ServerMessage } from '../../server/http/messages.ts';
import { gridHello, hello, rig } from '../table/helpers.ts';
// It outlives the sessions, as the database does, and refuses writes after the game's end as the real store does.
import { memoryLog, type MemoryLog } from '../support/resume-log.ts';

const RULES: AduOptions = { ...DEFAULT_OPTIONS, players: 2, size: 9 };

/** Every piece of both players in placement order (K1, S1…S6, K2). */
const LAYOUT = [
  ['a1', 'b1', 'c4', 'd1', 'e4', 'f1', 'g1', 'i1'],
  ['c5', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'e5'],
];
const PLACEMENTS: string[] = [];
for (let round = 0; round < 8; round++) for (const squares of LAYOUT) PLACEMENTS.push(`${round === 0 || round === 7 ? 'K' : 'S'}@${squares[round]}`);
/** White's S1 walks up to b6, black's S5 steps to f8: white's S1 can take black's S1 on b9 next. */
const OPENING = [...PLACEMENTS, 'b1-b6', 'f9-f8'];

/** A board under a session: the intersections, and a clock that runs twenty frames a second. */
class Board {
  t = 0;
  readonly cells: number[];
  constructor(
    readonly session: AduSession,
    cells: readonly number[],
  ) {
    this.cells = [...cells];
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / 50; k++, this.t += 50) this.session.frame(this.t, { type: 'grid', bits: bitsOf(this.cells) });
    return this;
  }
  set(name: string, value: 0 | 1): this {
    const square = parseSquare(name, RULES.size);
    if (!square.ok) throw new Error(square.error.message);
    this.cells[square.value] = value;
    return this.wait(800);
  }
  /** A capture as people make it: the captured piece off first, then the captor onto its point. */
  capture(from: string, to: string): this {
    return this.set(to, 0).set(from, 0).set(to, 1);
  }
}

/** The service (re)started on the log: a session resuming the game the log holds, its board showing the position. */
function serve(log: MemoryLog): { session: AduSession; board: Board } {
  const session = new AduSession({ rules: RULES, boardId: 'test', source: 'serial', log, resume: { gameId: 1, ...resumeOf(log.events) } });
  const board = new Board(session, observe(session.referee.state)).wait(1000);
  return { session, board };
}

function questions(session: AduSession): Question[] {
  const sync = session.sync() as Extract<ServerMessage, { type: 'sync' }>;
  return [...(sync.questions ?? [])];
}

/** A question as the console shows it: everything but its id, which each run of the service counts afresh. */
const shown = (q: Question) => ({ code: q.code, message: q.message, params: q.params, options: q.options, preselected: q.preselected });

const choose = (session: AduSession, question: Question, move: string) => session.command(session.currentStateId, { kind: 'choose', questionId: question.id, move });

describe('Adu resumed after a restart: declarations of captured soldiers', () => {
  test('a declaration still open is asked again: the same question, the same choices, the lowest preselected', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    // Black plays on without declaring; then the service dies.
    before.board.set('d9', 0).set('d8', 1);
    const [asked] = questions(before.session);
    expect(asked).toMatchObject({ code: 'referee/declare-range', preselected: 'b6xb9=1', options: ['b6xb9=1', 'b6xb9=2', 'b6xb9=3', 'b6xb9=4', 'b6xb9=5', 'b6xb9=6'] });

    const after = serve(log);
    expect(after.session.record()).toEqual([...OPENING, 'b6xb9', 'd9-d8']);
    expect(questions(after.session).map(shown)).toEqual([shown(asked)]);
    expect(after.session.view().declaring).toEqual([{ player: 2, soldier: 'S1', square: 'b9' }]);

    // Answered now, it rewrites the record as it would have before the restart.
    const [again] = questions(after.session);
    expect(choose(after.session, again, 'b6xb9=3').ok).toBe(true);
    expect(questions(after.session)).toEqual([]);
    expect(recordOf(log.events)).toEqual([...OPENING, 'b6xb9=3', 'd9-d8']);
    // And a second restart asks nothing more.
    expect(questions(serve(log).session)).toEqual([]);
  });

  test('a declaration answered with the lowest range stays answered', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    const [asked] = questions(before.session);
    expect(choose(before.session, asked, 'b6xb9=1').ok).toBe(true);
    before.board.set('d9', 0).set('d8', 1);

    const after = serve(log);
    expect(after.session.record()).toEqual([...OPENING, 'b6xb9', 'd9-d8']);
    expect(questions(after.session)).toEqual([]);
    expect(after.session.view().declaring).toBeUndefined();
  });

  test('a declaration answered with a higher range: the record carries it, nothing is asked', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    const [asked] = questions(before.session);
    expect(choose(before.session, asked, 'b6xb9=4').ok).toBe(true);

    const after = serve(log);
    expect(after.session.record()).toEqual([...OPENING, 'b6xb9=4']);
    expect(questions(after.session)).toEqual([]);
  });

  test('a capture entered by hand with its range named is not asked about, the lowest included', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    expect(before.session.command(before.session.currentStateId, { kind: 'enter', move: 'b6xb9=1' }).ok).toBe(true);
    expect(questions(before.session)).toEqual([]);

    const after = serve(log);
    expect(after.session.record()).toEqual([...OPENING, 'b6xb9']);
    expect(questions(after.session)).toEqual([]);
  });

  test('two soldiers captured, the first declared: the second is asked, as it was before the restart', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    before.board.set('d9', 0).set('d8', 1);
    // White's S1 takes black's S2 too; black is still asked about S1 only.
    before.board.capture('b9', 'c9');
    const [first] = questions(before.session);
    expect(first.params).toMatchObject({ soldier: 'S1' });
    expect(choose(before.session, first, 'b6xb9=1').ok).toBe(true);
    const [second] = questions(before.session);
    expect(second.params).toMatchObject({ soldier: 'S2', square: 'c9' });

    const after = serve(log);
    expect(questions(after.session).map(shown)).toEqual([shown(second)]);
  });

  test('two soldiers captured, neither declared: the oldest is asked first, then the next', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    before.board.set('d9', 0).set('d8', 1);
    before.board.capture('b9', 'c9');
    const [first] = questions(before.session);

    const after = serve(log);
    expect(questions(after.session).map(shown)).toEqual([shown(first)]);
    expect(after.session.view().declaring).toEqual([
      { player: 2, soldier: 'S1', square: 'b9' },
      { player: 2, soldier: 'S2', square: 'c9' },
    ]);
    expect(choose(after.session, questions(after.session)[0], 'b6xb9=2').ok).toBe(true);
    expect(questions(after.session).map((q) => q.params)).toEqual([expect.objectContaining({ soldier: 'S2', square: 'c9' })]);
  });

  test('a capture taken back before the restart leaves nothing to ask', () => {
    const log = memoryLog(OPENING);
    const before = serve(log);
    before.board.capture('b6', 'b9');
    expect(questions(before.session)).toHaveLength(1);
    expect(before.session.command(before.session.currentStateId, { kind: 'undo' }).ok).toBe(true);

    const after = serve(log);
    expect(after.session.record()).toEqual(OPENING);
    expect(questions(after.session)).toEqual([]);
  });

  test('through the live table and the game log in SQLite, as `serve` resumes', async () => {
    const log = openGameLog(':memory:');
    const greeting = gridHello(9, 9);
    const options = tables.adu.withRules({ players: 2 }, hello(greeting)).options;
    const gameId = log.startGame({ game: 'adu', options, players: { 1: 'Anna', 2: 'Ben' }, boardId: 'G9x9', source: 'sensors', at: 0 });
    OPENING.forEach((move, i) => log.append(gameId, { kind: 'move', at: i, payload: { move, ply: i + 1 } }));
    // The service before the restart: it sees the capture and asks Ben.
    const before = new AduSession({ rules: RULES, boardId: 'G9x9', source: 'serial', log, resume: { gameId, moves: OPENING } });
    new Board(before, observe(before.referee.state)).wait(1000).capture('b6', 'b9');
    const [asked] = questions(before);

    const r = await rig(greeting, { game: 'adu', options: { players: 2 }, resume: true }, { log });
    try {
      expect(r.table.resumed).toMatchObject({ gameId });
      const sync = r.table.sync() as Extract<ServerMessage, { type: 'sync' }>;
      expect(sync.record).toEqual([...OPENING, 'b6xb9']);
      expect((sync.questions ?? []).map(shown)).toEqual([shown(asked)]);
    } finally {
      await r.close();
      log.close();
    }
  });
});

describe('the console answers a resumed game reads from its log', () => {
  const move = (move: string, ply: number) => ({ kind: 'move', payload: { move, ply } });
  const answer = (kind: 'choose' | 'enter', move: string) => ({ kind: 'answer', payload: { command: { kind, move } } });

  test('an answer is about the moves standing when it was given, and the move logged right after it', () => {
    const { moves, answers } = resumeOf([move('a', 1), answer('enter', 'b=1'), move('b', 2), move('c', 3), answer('choose', 'b=2'), { kind: 'alert', payload: {} }, move('d', 4)]);
    expect(moves).toEqual(['a', 'b', 'c', 'd']);
    expect(answers).toEqual([
      { move: 'b=1', plies: [1, 2] },
      { move: 'b=2', plies: [1, 2, 3] },
    ]);
  });

  test('a move taken back and played again is not what an answer before was about', () => {
    const { moves, answers } = resumeOf([move('a', 1), move('b', 2), answer('choose', 'b=1'), { kind: 'takeback', payload: { undone: ['b'], ply: 1 } }, move('b', 2)]);
    expect(moves).toEqual(['a', 'b']);
    expect(answers).toEqual([{ move: 'b=1', plies: [1] }]);
  });
});

