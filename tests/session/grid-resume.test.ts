// Malawi, Makis and Adu games resumed after the service restarted, whatever the square board shows
// when it comes back: the position it logged (nothing to do), that position and one move the players
// made meanwhile (taken as if watched, and logged as reconstructed), a hand still at work (wait, then
// decide), or pieces moved about (the usual mismatch, and the console can still enter the move by
// hand); and a game whose last move was logged but not its end (the service died between the two).
import { describe, expect, test } from 'vitest';
import { AduSession, MakisSession, MalawiSession, recordOf, type GameSession } from '../../server/session/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import * as malawi from '../../server/rules/malawi.ts';
import { formatMove as malawiMove, parseSquare as malawiSquare } from '../../server/rules/malawi-notation.ts';
import * as makis from '../../server/rules/makis.ts';
import { formatMove as makisMove, parseMove as parseMakis } from '../../server/rules/makis-notation.ts';
import * as adu from '../../server/rules/adu.ts';
import { formatMove as aduMove, parseMove as parseAdu, parseSquare as aduSquare } from '../../server/rules/adu-notation.ts';
import type { Alert, ServerMessage } from '../../server/http/messages.ts';
import { mulberry32 as rng } from '../support/prng.ts';
import { memoryLog, type MemoryLog } from '../support/resume-log.ts';


/** The board under the restarted service: its cells, read twenty times a second from the restart on. */
class Board {
  t = 0;
  readonly cells: number[];
  constructor(
    private readonly read: (t: number, cells: readonly number[]) => void,
    cells: readonly number[],
  ) {
    this.cells = [...cells];
  }
  wait(ms: number): this {
    for (let k = 0; k < ms / 50; k++, this.t += 50) this.read(this.t, this.cells);
    return this;
  }
  set(cell: number, value: number): this {
    this.cells[cell] = value;
    return this;
  }
}

function watch<S extends GameSession>(session: S, log: MemoryLog) {
  const seen: ServerMessage[] = [];
  session.subscribe((m) => seen.push(m));
  return { session, log, seen };
}

const logged = (log: MemoryLog, after: number) => log.events.slice(after).map((e) => ({ kind: e.kind, ...(e.payload as object) }));
const alerts = (seen: readonly ServerMessage[]): Alert[] => seen.flatMap((m) => (m.type === 'alert' ? [m.alert] : []));
const calibrated = (session: GameSession) => (session.sync() as Extract<ServerMessage, { type: 'sync' }>).board.calibrated;
const showing = (session: GameSession) => (session.sync() as Extract<ServerMessage, { type: 'sync' }>).alerts;
const reconstructed = (move: string, ply: number) => ({ kind: 'move', move, ply, reconstructed: true });

function must<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

// -----------------------------------------------------------------------------------------------
// Malawi on a counting board (the default) and on an occupancy board

const MALAWI = malawi.DEFAULT_OPTIONS;
const msq = (name: string) => must(malawiSquare(name, MALAWI.size));

function malawiAfter(moves: readonly string[]): malawi.MalawiState {
  let state = malawi.initial(MALAWI);
  for (const text of moves) {
    const move = malawi.legalMoves(state).find((m) => malawiMove(m, MALAWI.size) === text);
    if (!move) throw new Error(`${text} is not legal here`);
    state = must(malawi.play(state, move));
  }
  return state;
}

/** A few plain moves of each side, the same every run. */
function malawiOpening(plies: number, seed = 7): string[] {
  const choose = rng(seed);
  const moves: string[] = [];
  let state = malawi.initial(MALAWI);
  for (let k = 0; k < plies; k++) {
    const plain = malawi.legalMoves(state).filter((m) => m.kind === 'move');
    const move = plain[Math.floor(choose() * plain.length)];
    moves.push(malawiMove(move, MALAWI.size));
    state = must(malawi.play(state, move));
  }
  return moves;
}

/** A whole random game, every kind of move, to its end. */
function malawiGame(seed: number): string[] {
  const choose = rng(seed);
  const moves: string[] = [];
  let state = malawi.initial(MALAWI);
  while (state.outcome === null) {
    const legal = malawi.legalMoves(state);
    const move = legal[Math.floor(choose() * legal.length)];
    moves.push(malawiMove(move, MALAWI.size));
    state = must(malawi.play(state, move));
  }
  return moves;
}

/** The service back up on a Malawi game logged as `moves`; its board shows `state` (default: the logged position). */
function malawiResumed(moves: readonly string[], state = malawiAfter(moves), sense: 'count' | 'occupancy' = 'count') {
  const log = memoryLog(moves);
  const session = new MalawiSession({ rules: MALAWI, boardId: 'test', source: 'serial', log, resume: { gameId: 1, moves } });
  const cells = sense === 'count' ? malawi.observeCounts(state) : malawi.observe(state);
  const board = new Board((t, c) => session.frame(t, sense === 'count' ? { type: 'counts', counts: [...c] } : { type: 'grid', bits: bitsOf(c) }), cells);
  return { ...watch(session, log), board };
}

describe('Malawi resumed after a restart', () => {
  const moves = malawiOpening(4);
  const next = malawiOpening(5)[4];

  test('(a) the board shows the logged position: nothing happens; the next move is watched as usual', () => {
    const { session, log, seen, board } = malawiResumed(moves);
    board.wait(3000);
    expect(calibrated(session)).toBe(true);
    expect(session.record()).toEqual(moves);
    expect(logged(log, 4)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
    const after = malawi.observeCounts(malawiAfter([...moves, next]));
    board.cells.splice(0, after.length, ...after);
    board.wait(2000);
    expect(logged(log, 4)).toEqual([{ kind: 'move', move: next, ply: 5 }]);
  });

  test.each(['count', 'occupancy'] as const)('(b) a move made while the service was down (%s board) is taken, and logged as reconstructed', (sense) => {
    const { session, log, seen, board } = malawiResumed(moves, malawiAfter([...moves, next]), sense);
    board.wait(3000);
    expect(session.record()).toEqual([...moves, next]);
    expect(logged(log, 4)).toEqual([reconstructed(next, 5)]);
    expect(recordOf(log.events)).toEqual([...moves, next]);
    expect(alerts(seen)).toEqual([]);
    expect(calibrated(session)).toBe(true);
  });

  test("(b) the game's last move, a capture or distribution a counting board sees: taken, and the end logged", () => {
    const game = malawiGame(3);
    const last = game.pop() as string;
    const over = malawiAfter([...game, last]);
    const { session, log, board } = malawiResumed(game, over);
    board.wait(3000);
    expect(logged(log, game.length)).toEqual([reconstructed(last, game.length + 1)]);
    expect(log.ended).toEqual([expect.objectContaining({ result: over.outcome })]);
    expect(session.gameOpen).toBe(false);
  });

  test('(c) the service comes back while a piece is in the hand: no alert, no move; once it is put down, the move is taken', () => {
    const state = malawiAfter(moves);
    const move = must(malawi.play(state, malawi.legalMoves(state).find((m) => malawiMove(m, MALAWI.size) === next) as malawi.MalawiMove));
    const [from, to] = next.split('-').map(msq);
    const { session, log, seen, board } = malawiResumed(moves);
    board.set(from, 0).wait(4000);
    expect(session.record()).toEqual(moves);
    expect(alerts(seen)).toEqual([]);
    board.set(to, malawi.observeCounts(move)[to]).wait(2000);
    expect(logged(log, 4)).toEqual([reconstructed(next, 5)]);
    expect(alerts(seen)).toEqual([]);
  });

  test('(d) pieces moved about: the usual mismatch names the squares; the console enters the move, the board is put right', () => {
    const after = malawiAfter([...moves, next]);
    const { session, log, seen, board } = malawiResumed(moves, after);
    // The move was made, and a piece of south's baseline knocked off besides.
    const stray = msq('f1');
    expect(board.cells[stray]).toBeGreaterThan(0);
    const beads = board.cells[stray];
    board.set(stray, 0).wait(3000);
    expect(alerts(seen)).toEqual([expect.objectContaining({ code: 'referee/mismatch', level: 'error' })]);
    // Measured against the logged position: the move's squares, and the piece knocked off.
    expect(alerts(seen)[0].cells).toContainEqual({ cell: stray, diff: -1 });
    expect(session.record()).toEqual(moves);
    const entered = session.command(session.currentStateId, { kind: 'enter', move: next });
    expect(entered.ok).toBe(true);
    expect(logged(log, 4)).toEqual([expect.objectContaining({ kind: 'alert', code: 'referee/mismatch' }), { kind: 'answer', command: { kind: 'enter', move: next } }, { kind: 'move', move: next, ply: 5 }]);
    board.set(stray, beads).wait(2000);
    expect(showing(session)).toEqual([]);
    expect(session.record()).toEqual([...moves, next]);
    expect(calibrated(session)).toBe(true);
  });

  test('a board showing the opening is waited on, not read as every move taken back', () => {
    const { session, log, seen, board } = malawiResumed(moves, malawi.initial(MALAWI));
    board.wait(3000);
    expect(alerts(seen).map((a) => a.code)).toEqual(['board/calibrating']);
    expect(session.record()).toEqual(moves);
    expect(logged(log, 4)).toEqual([expect.objectContaining({ kind: 'alert', code: 'board/calibrating' })]);
  });

  test('a game whose last move the log holds but not its end is ended on resume', () => {
    const game = malawiGame(3);
    const { session, log } = malawiResumed(game);
    expect(log.ended).toEqual([{ at: expect.any(Number), result: malawiAfter(game).outcome }]);
    expect(session.gameOpen).toBe(false);
  });
});

// -----------------------------------------------------------------------------------------------
// Makis on its 9 × 9 occupancy board

const MAKIS: makis.MakisOptions = { players: 3, mode: 'competitive', knights: [1, 1, 1, 1, 1, 1, 1, 1, 1] };
const PLACED = ['1@c3r9', '2@c1r9', '3@c2r9'];

function makisAfter(moves: readonly string[]): makis.MakisState {
  return moves.reduce((state, token) => must(makis.play(state, must(parseMakis(token)))), must(makis.initial(MAKIS)));
}

function makisCells(state: makis.MakisState): number[] {
  const cells = new Array<number>(makis.SIZE * makis.SIZE).fill(0);
  state.knights.forEach((row, i) => (cells[makis.square(i + 1, row)] = 1));
  for (const spot of state.makis) if (typeof spot === 'number') cells[spot] = 1;
  return cells;
}

function makisGame(seed: number): string[] {
  const choose = rng(seed);
  const moves: string[] = [];
  let state = must(makis.initial(MAKIS));
  while (state.outcome === null) {
    const legal = makis.legalMoves(state);
    const move = legal[Math.floor(choose() * legal.length)];
    moves.push(makisMove(move));
    state = must(makis.play(state, move));
  }
  return moves;
}

function makisResumed(moves: readonly string[], cells = makisCells(makisAfter(moves))) {
  const log = memoryLog(moves);
  const session = new MakisSession({ rules: MAKIS, boardId: 'test', source: 'serial', log, resume: { gameId: 1, moves } });
  const board = new Board((t, c) => session.frame(t, { type: 'grid', bits: bitsOf(c) }), cells);
  return { ...watch(session, log), board };
}

describe('Makis resumed after a restart', () => {
  test('(a) the board shows the logged position: nothing happens; the next step is watched as usual', () => {
    const moves = [...PLACED, 'R3.7.9'];
    const { session, log, seen, board } = makisResumed(moves);
    board.wait(3000);
    expect(calibrated(session)).toBe(true);
    expect(logged(log, 4)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
    board.set(makis.square(3, 9), 0).set(makis.square(2, 8), 1).wait(2000);
    expect(logged(log, 4)).toEqual([{ kind: 'move', move: '1:c2r8', ply: 5 }]);
  });

  test('(a) the last logged step sent a Maki back and the service died before it was moved: owed, not a mismatch', () => {
    // Player 3 steps beside player 1's Maki on c2r8, which goes back to c2r9.
    const moves = [...PLACED, 'R3.7.9', '1:c2r8', '2:-', '3:c1r8'];
    const cells = makisCells(makisAfter(moves));
    cells[makis.square(2, 9)] = 0;
    cells[makis.square(2, 8)] = 1;
    const { session, log, seen, board } = makisResumed(moves, cells);
    board.wait(3000);
    expect(calibrated(session)).toBe(true);
    expect(session.view().pending).toEqual([{ piece: 'maki', player: 1, column: 2, from: 'c2r8', to: 'c2r9' }]);
    expect(alerts(seen)).toEqual([]);
    board.set(makis.square(2, 8), 0).set(makis.square(2, 9), 1).wait(2000);
    expect(session.view().pending).toEqual([]);
    expect(logged(log, moves.length)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
  });

  test('(b) a roll made while the service was down: read from the knights, and logged as reconstructed', () => {
    const moves = [...PLACED];
    const { session, log, seen, board } = makisResumed(moves, makisCells(makisAfter([...moves, 'R3.7.9'])));
    board.wait(3000);
    expect(logged(log, 3)).toEqual([reconstructed('R3.7.9', 4)]);
    expect([...(session.view().lastRoll ?? [])].sort((a, b) => a - b)).toEqual([3, 7, 9]);
    expect(session.record()).toEqual([...moves, 'R3.7.9']);
    expect(alerts(seen)).toEqual([]);
    expect(calibrated(session)).toBe(true);
  });

  test('(b) a Maki step made while the service was down: taken, logged as reconstructed', () => {
    const moves = [...PLACED, 'R3.7.9'];
    const { session, log, seen, board } = makisResumed(moves, makisCells(makisAfter([...moves, '1:c2r8'])));
    board.wait(3000);
    expect(logged(log, 4)).toEqual([reconstructed('1:c2r8', 5)]);
    expect(session.record()).toEqual([...moves, '1:c2r8']);
    expect(alerts(seen)).toEqual([]);
  });

  test("(b) the game's last move made while the service was down: taken, and the end logged", () => {
    const game = makisGame(2);
    const last = game.pop() as string;
    const over = makisAfter([...game, last]);
    const { session, log, board } = makisResumed(game, makisCells(over));
    board.wait(6000);
    expect(logged(log, game.length)).toEqual([expect.objectContaining({ kind: 'move', ply: game.length + 1, reconstructed: true })]);
    expect(log.ended).toEqual([expect.objectContaining({ result: { winner: String(over.outcome?.winner), reason: over.outcome?.reason } })]);
    expect(session.gameOpen).toBe(false);
  });

  test('(c) the service comes back while a knight is in the hand: no alert, no move; once the roll is on the board, it is read', () => {
    const moves = [...PLACED];
    const rolled = makisCells(makisAfter([...moves, 'R3.7.9']));
    const { session, log, seen, board } = makisResumed(moves);
    // Column 3's knight is in the hand; the other two have moved already.
    board.set(makis.square(3, 1), 0).set(makis.square(7, 1), 0).set(makis.square(7, 2), 1).set(makis.square(9, 1), 0).set(makis.square(9, 2), 1);
    board.wait(4000);
    expect(session.record()).toEqual(moves);
    expect(alerts(seen)).toEqual([]);
    board.cells.splice(0, rolled.length, ...rolled);
    board.wait(2000);
    expect(logged(log, 3)).toEqual([reconstructed('R3.7.9', 4)]);
    expect(alerts(seen)).toEqual([]);
  });

  test('(d) pieces moved about: the usual mismatch; the console enters the step, the board is put right', () => {
    const moves = [...PLACED, 'R3.7.9'];
    const cells = makisCells(makisAfter([...moves, '1:c2r8']));
    // The step was made, and column 5's knight pushed up a row besides.
    cells[makis.square(5, 1)] = 0;
    cells[makis.square(5, 2)] = 1;
    const { session, log, seen, board } = makisResumed(moves, cells);
    // As many pieces moved as lifted looks like hands at work: the referee gives them longer.
    board.wait(8000);
    expect(alerts(seen)).toEqual([expect.objectContaining({ code: 'referee/mismatch', level: 'error' })]);
    expect(alerts(seen)[0].cells?.length).toBeGreaterThan(0);
    expect(session.record()).toEqual(moves);
    expect(session.command(session.currentStateId, { kind: 'enter', move: '1:c2r8' }).ok).toBe(true);
    expect(logged(log, 5).slice(-1)).toEqual([{ kind: 'move', move: '1:c2r8', ply: 5 }]);
    board.set(makis.square(5, 2), 0).set(makis.square(5, 1), 1).wait(2000);
    expect(showing(session)).toEqual([]);
    expect(session.record()).toEqual([...moves, '1:c2r8']);
  });

  test('a board showing the opening is waited on, not read as every move taken back', () => {
    const moves = [...PLACED, 'R3.7.9'];
    const { session, seen, board } = makisResumed(moves, makisCells(makisAfter([])));
    board.wait(3000);
    expect(alerts(seen).map((a) => a.code)).toEqual(['board/calibrating']);
    expect(session.record()).toEqual(moves);
  });

  test('a game whose last move the log holds but not its end is ended on resume', () => {
    const game = makisGame(2);
    const over = makisAfter(game);
    const { session, log } = makisResumed(game);
    expect(log.ended).toEqual([{ at: expect.any(Number), result: { winner: String(over.outcome?.winner), reason: over.outcome?.reason } }]);
    expect(session.gameOpen).toBe(false);
  });
});

// -----------------------------------------------------------------------------------------------
// Adu on a 9 × 9 occupancy grid

const ADU: adu.AduOptions = { ...adu.DEFAULT_OPTIONS, players: 2, size: 9 };
const LAYOUT = [
  ['a1', 'b1', 'c4', 'd1', 'e4', 'f1', 'g1', 'i1'],
  ['c5', 'b9', 'c9', 'd9', 'e9', 'f9', 'g9', 'e5'],
];
const PLACEMENTS: string[] = [];
for (let round = 0; round < 8; round++) for (const squares of LAYOUT) PLACEMENTS.push(`${round === 0 || round === 7 ? 'K' : 'S'}@${squares[round]}`);
const asq = (name: string) => must(aduSquare(name, ADU.size));

function aduAfter(moves: readonly string[]): adu.AduState {
  return moves.reduce((state, token) => must(adu.play(state, must(parseAdu(token, ADU.size)))), adu.initial(ADU));
}

function aduResumed(moves: readonly string[], cells = adu.observe(aduAfter(moves))) {
  const log = memoryLog(moves);
  const session = new AduSession({ rules: ADU, boardId: 'test', source: 'serial', log, resume: { gameId: 1, moves } });
  const board = new Board((t, c) => session.frame(t, { type: 'grid', bits: bitsOf(c) }), cells);
  return { ...watch(session, log), board };
}

describe('Adu resumed after a restart', () => {
  const moves = [...PLACEMENTS, 'b1-b6', 'f9-f8'];
  const next = 'd1-d2';

  test('(a) the board shows the logged position: nothing happens; the next move is watched as usual', () => {
    const { session, log, seen, board } = aduResumed(moves);
    board.wait(3000);
    expect(calibrated(session)).toBe(true);
    expect(logged(log, moves.length)).toEqual([]);
    expect(alerts(seen)).toEqual([]);
    board.set(asq('d1'), 0).wait(600).set(asq('d2'), 1).wait(2000);
    expect(logged(log, moves.length)).toEqual([{ kind: 'move', move: next, ply: moves.length + 1 }]);
  });

  test('(b) a move made while the service was down is taken, and logged as reconstructed', () => {
    const { session, log, seen, board } = aduResumed(moves, adu.observe(aduAfter([...moves, next])));
    board.wait(3000);
    expect(logged(log, moves.length)).toEqual([reconstructed(next, moves.length + 1)]);
    expect(session.record()).toEqual([...moves, next]);
    expect(alerts(seen)).toEqual([]);
    expect(calibrated(session)).toBe(true);
  });

  test('(b) a placement made while the service was down', () => {
    const placed = PLACEMENTS.slice(0, 5);
    const { log, board } = aduResumed(placed, adu.observe(aduAfter(PLACEMENTS.slice(0, 6))));
    board.wait(3000);
    expect(logged(log, 5)).toEqual([reconstructed(PLACEMENTS[5], 6)]);
  });

  test('(c) the service comes back while a piece is in the hand: no alert, no move; once it is put down, the move is taken', () => {
    const { session, log, seen, board } = aduResumed(moves);
    board.set(asq('d1'), 0).wait(4000);
    expect(session.record()).toEqual(moves);
    expect(alerts(seen)).toEqual([]);
    board.set(asq('d2'), 1).wait(2000);
    expect(logged(log, moves.length)).toEqual([reconstructed(next, moves.length + 1)]);
    expect(alerts(seen)).toEqual([]);
  });

  test('(d) pieces moved about: the usual mismatch; the console enters the move, the board is put right', () => {
    const cells = adu.observe(aduAfter([...moves, next]));
    // The move was made, and a piece put on h5 besides.
    cells[asq('h5')] = 1;
    const { session, log, seen, board } = aduResumed(moves, cells);
    board.wait(3000);
    expect(alerts(seen)).toEqual([expect.objectContaining({ code: 'referee/mismatch', level: 'error', params: expect.objectContaining({ action: 'take-off' }) })]);
    expect(session.record()).toEqual(moves);
    expect(session.command(session.currentStateId, { kind: 'enter', move: next }).ok).toBe(true);
    expect(logged(log, moves.length).slice(-1)).toEqual([{ kind: 'move', move: next, ply: moves.length + 1 }]);
    board.set(asq('h5'), 0).wait(2000);
    expect(showing(session)).toEqual([]);
    expect(session.record()).toEqual([...moves, next]);
  });

  test('an empty board is waited on, not read as every placement taken back', () => {
    const { session, seen, board } = aduResumed(moves, adu.observe(adu.initial(ADU)));
    board.wait(3000);
    expect(alerts(seen).map((a) => a.code)).toEqual(['board/calibrating']);
    expect(session.record()).toEqual(moves);
  });

  test('a game whose last move the log holds but not its end is ended on resume', () => {
    // White takes black's king on c5 (a reserve king to h5), black steps, white takes black's last king.
    const before = [...PLACEMENTS, 'c4xc5R@h5', 'b9-b8'];
    const state = aduAfter(before);
    const last = adu.legalMoves(state).find((m) => m.kind === 'capture' && m.from === asq('e4') && m.to === asq('e5')) as adu.AduMove;
    const game = [...before, aduMove(last, ADU.size)];
    const over = must(adu.play(state, last)).outcome as adu.AduOutcome;
    const { session, log } = aduResumed(game);
    expect(log.ended).toEqual([{ at: expect.any(Number), result: { winner: String(over.winner), reason: over.reason, players: [...over.players] } }]);
    expect(session.gameOpen).toBe(false);
  });
});
