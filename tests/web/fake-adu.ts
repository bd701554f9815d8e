// The fake server's Adu table: six-player games played by the real engine, views as the contract in
// server/http/messages.ts describes them, the moment a reserve king is awaited, a declaration question with its
// preselected answer, and a console endpoint that takes the answer, moves entered by hand and take-backs.
import { adu, aduNotation } from '../../server/rules/index.ts';
import type { AduView, Alert, BoardStatus, ConsoleCommand, Question, ServerMessage } from '../../server/http/messages.ts';
import { handleCommand, prng, type Applied, type CommandMessage, type FakeTable } from './fake-table.ts';

type State = adu.AduState;
type Move = adu.AduMove;

export const ADU_SCENARIOS = ['adu', 'adu-declare', 'adu-over'] as const;
export type AduScenario = (typeof ADU_SCENARIOS)[number];

const PLAYERS = 6;
const SIZE = 13;

export interface AduPly {
  readonly move: Move;
  readonly notation: string;
  readonly squares: readonly string[];
  readonly after: State;
}

function must<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const pointName = (square: number, size = SIZE): string => adu.squareName(square, size);

/** The intersections a move names, in notation order: a placement its point; a move from, to; a reserve king last. */
function squaresOf(move: Move, size: number): string[] {
  switch (move.kind) {
    case 'place-king':
    case 'place-soldier':
      return [pointName(move.to, size)];
    case 'move':
      return [pointName(move.from, size), pointName(move.to, size)];
    case 'capture':
      return [pointName(move.from, size), pointName(move.to, size), ...(move.reserve === null ? [] : [pointName(move.reserve, size)])];
    default:
      return move satisfies never;
  }
}

export function playAdu(state: State, move: Move): AduPly {
  const size = state.options.size;
  return { move, notation: aduNotation.formatMove(move, size), squares: squaresOf(move, size), after: must(adu.play(state, move)) };
}

const captures = (state: State, move: Move): boolean => move.kind === 'capture' && state.squares[move.to] !== null;
const capturesKing = (state: State, move: Move): boolean => move.kind === 'capture' && state.squares[move.to]?.kind !== 'soldier';

/**
 * A seeded game. Each (from, to) counts once, however many points a reserve king might take; captures are
 * taken a third of the time they are there, so games last, soldiers show their ranges and some seats fall.
 */
export function aduGame(seed: number, until: (plies: readonly AduPly[]) => boolean, maxPlies = 600, players = PLAYERS): AduPly[] {
  const random = prng(seed);
  let state = adu.initial({ ...adu.DEFAULT_OPTIONS, players, size: SIZE });
  const plies: AduPly[] = [];
  while (state.outcome === null && plies.length < maxPlies) {
    const moves = adu.legalMoves(state);
    if (!moves.length) break;
    const byPath = new Map<string, Move[]>();
    for (const m of moves) {
      const key = m.kind === 'capture' || m.kind === 'move' ? `${m.from}-${m.to}` : `${m.kind}${m.to}`;
      byPath.set(key, [...(byPath.get(key) ?? []), m]);
    }
    let paths = [...byPath.values()];
    const capturing = paths.filter((ms) => captures(state, ms[0]));
    if (capturing.length && random() < 0.33) paths = capturing;
    // Soldiers that stride show more of the Merkskala.
    else if (state.phase === 'play' && random() < 0.5) {
      const far = paths.filter((ms) => ms[0].kind === 'move' && Math.abs(ms[0].to - ms[0].from) >= 2);
      if (far.length) paths = far;
    }
    const options = paths[Math.floor(random() * paths.length)];
    const ply = playAdu(state, options[Math.floor(random() * options.length)]);
    plies.push(ply);
    state = ply.after;
    if (until(plies)) break;
  }
  return plies;
}

export interface AduMoment {
  readonly plies: readonly AduPly[];
  /** The capture of a king seen on the board, whose reserve king is not placed yet. */
  readonly awaiting: { readonly move: Extract<Move, { kind: 'capture' }>; readonly after: State } | null;
}

/** The view the server sends: the engine's state, or — while a reserve king is awaited — the capture without it. */
export function aduView(plies: readonly AduPly[], awaiting: AduMoment['awaiting'] = null): AduView {
  const before = plies[plies.length - 1]?.after ?? adu.initial({ ...adu.DEFAULT_OPTIONS, players: PLAYERS, size: SIZE });
  const state = awaiting?.after ?? before;
  const size = state.options.size;
  const reserveAt = awaiting?.move.reserve ?? null;
  const pieces: AduView['pieces'][number][] = [];
  state.squares.forEach((piece, square) => {
    if (piece && square !== reserveAt) pieces.push({ square: pointName(square, size), player: piece.player, kind: piece.kind, id: piece.id });
  });
  const seats = Array.from({ length: state.options.players }, (_, i) => {
    const player = i + 1;
    const mine = pieces.filter((p) => p.player === player);
    return {
      player,
      in: state.inGame[i],
      kings: mine.filter((p) => p.kind === 'king').length,
      reserves: mine.filter((p) => p.kind === 'reserve').length,
    };
  });
  const due = state.phase === 'placement' ? adu.placementDue(state) : null;
  const last = plies[plies.length - 1];
  const mover = awaiting ? before.toMove : null;
  // `passed` is being drafted for the contract; spread in as a plain object, so the view type need not know it yet.
  const extras: object = !awaiting && state.passed.length ? { passed: state.passed } : {};
  return {
    ...extras,
    game: 'adu',
    size,
    players: state.options.players,
    pieces,
    phase: state.phase,
    placing: due ? { kind: due.kind, id: due.id } : null,
    toMove: state.outcome ? null : (mover ?? state.toMove),
    seats,
    supply: state.supply + (awaiting && reserveAt !== null ? 1 : 0),
    ranges: adu.merkskala(state),
    awaitingReserve: mover !== null ? { player: mover } : null,
    outcome: state.outcome ? { winner: String(state.outcome.winner), reason: state.outcome.reason, players: state.outcome.players } : null,
    lastMove: awaiting
      ? { notation: `${pointName(awaiting.move.from, size)}x${pointName(awaiting.move.to, size)}`, squares: [pointName(awaiting.move.from, size), pointName(awaiting.move.to, size)] }
      : last
        ? { notation: last.notation, squares: last.squares }
        : null,
  };
}

/** Some soldier's range is narrowed (the Merkskala has something to show) and at least one seat is out. */
function knowing(state: State): boolean {
  const scale = adu.merkskala(state);
  const narrowed = Object.values(scale).flatMap((soldiers) => Object.values(soldiers)).filter((r) => r.length < 6).length;
  return narrowed >= 6 && state.inGame.filter((x) => !x).length >= 1;
}

function findMoment(want: (state: State) => Move | null, maxPlies = 600): { plies: AduPly[]; move: Move } {
  for (let seed = 1; seed < 400; seed++) {
    let found: Move | null = null;
    const plies = aduGame(seed, (p) => {
      const state = p[p.length - 1].after;
      if (state.phase !== 'play' || state.outcome) return false;
      found = want(state);
      return found !== null;
    }, maxPlies);
    if (found) return { plies, move: found };
  }
  throw new Error('no seeded Adu game reaches the wanted moment');
}

interface Setup {
  readonly plies: readonly AduPly[];
  readonly awaiting: AduMoment['awaiting'];
  readonly alerts: readonly Alert[];
  readonly questions: readonly Question[];
  readonly board: BoardStatus;
}

const BOARD_OK: BoardStatus = { source: 'simulated', connected: true, link: 'live', calibrated: true, framesPerSecond: 20, dropped: 0 };

function setup(scenario: AduScenario): Setup {
  switch (scenario) {
    case 'adu': {
      // A king falls; its capturer still has to put a reserve king down. Six seats, one already out.
      const { plies, move } = findMoment((state) => {
        if (!knowing(state) || state.supply < 3) return null;
        return adu.legalMoves(state).find((m) => capturesKing(state, m) && m.kind === 'capture' && m.reserve !== null) ?? null;
      });
      const before = plies[plies.length - 1].after;
      const capture = move as Extract<Move, { kind: 'capture' }>;
      return {
        plies,
        awaiting: { move: capture, after: must(adu.play(before, capture)) },
        alerts: [
          {
            id: 120,
            level: 'info',
            code: 'adu/place-reserve',
            message: `Player ${before.toMove} captured a king: put a reserve king on a free point.`,
            params: { player: before.toMove },
          },
        ],
        questions: [],
        board: BOARD_OK,
      };
    }
    case 'adu-declare': {
      // A soldier with more than one range still open is captured; its owner declares which.
      const { plies, move } = findMoment((state) => {
        if (!knowing(state)) return null;
        return (
          adu.legalMoves(state).find((m) => m.kind === 'capture' && state.squares[m.to]?.kind === 'soldier' && adu.declarableRanges(state, m.to).length >= 3) ?? null
        );
      });
      const state = plies[plies.length - 1].after;
      const capture = move as Extract<Move, { kind: 'capture' }>;
      const victim = state.squares[capture.to] as adu.AduPiece;
      const from = pointName(capture.from);
      const to = pointName(capture.to);
      const options = adu.declarableRanges(state, capture.to).map((r) => `${from}x${to}=${r}`);
      return {
        plies,
        awaiting: null,
        alerts: [],
        questions: [
          {
            id: 44,
            code: 'adu/declare-range',
            message: `Player ${victim.player}: which range did the captured soldier ${victim.id} have?`,
            params: { player: victim.player, soldier: victim.id },
            options,
            preselected: options[0],
          },
        ],
        board: BOARD_OK,
      };
    }
    case 'adu-over': {
      for (let seed = 1; seed < 200; seed++) {
        const plies = aduGame(seed, () => false, 4000, 3);
        if (plies[plies.length - 1].after.outcome?.reason === 'last-king') return { plies, awaiting: null, alerts: [], questions: [], board: BOARD_OK };
      }
      throw new Error('no seeded Adu game ends with a last king');
    }
    default:
      return scenario satisfies never;
  }
}

/** One live Adu table shared by every socket of a fake server. */
export class FakeAduTable implements FakeTable {
  private plies: AduPly[];
  private awaiting: AduMoment['awaiting'];
  private alerts: Alert[];
  private questions: Question[];
  private readonly board: BoardStatus;
  private stateId = 900;

  constructor(scenario: AduScenario) {
    const start = setup(scenario);
    this.plies = [...start.plies];
    this.awaiting = start.awaiting;
    this.alerts = [...start.alerts];
    this.questions = [...start.questions];
    this.board = start.board;
    this.stateId += this.plies.length;
  }

  get state(): State {
    return this.plies[this.plies.length - 1].after;
  }

  view(): AduView {
    return aduView(this.plies, this.awaiting);
  }

  sync(): ServerMessage {
    return { type: 'sync', stateId: this.stateId, game: 'adu', record: this.record(), view: this.view(), alerts: this.alerts, questions: this.questions, board: this.board };
  }

  handle(message: CommandMessage, authed: boolean) {
    return handleCommand(message, authed, this.stateId, (command) => this.apply(command));
  }

  private apply(command: ConsoleCommand): Applied {
    switch (command.kind) {
      case 'choose': {
        const question = this.questions.find((q) => q.id === command.questionId);
        if (!question) return { error: { code: 'referee/no-such-question', message: `question ${command.questionId} is not open` } };
        if (!question.options.includes(command.move)) return { error: { code: 'referee/not-an-option', message: `${command.move} is not one of the moves offered` } };
        return this.playNotation(command.move);
      }
      case 'enter': {
        // While a reserve king is awaited, the referee may name its point by hand: `h8` or `R@h8`.
        const point = /^(?:R@)?([a-s][1-9][0-9]?)$/i.exec(command.move);
        if (this.awaiting && point) {
          const { from, to } = this.awaiting.move;
          // A refused point leaves the reserve king still awaited.
          return this.playNotation(`${pointName(from)}x${pointName(to)}R@${point[1].toLowerCase()}`);
        }
        return this.playNotation(command.move);
      }
      case 'undo': {
        if (this.awaiting) {
          this.awaiting = null;
        } else if (this.plies.length > 1) {
          this.plies.pop();
        } else {
          return { error: { code: 'console/nothing-to-undo', message: 'There is no move to take back.' } };
        }
        this.stateId += 1;
        return { broadcast: [{ type: 'update', stateId: this.stateId, event: 'takeback', undone: [], record: this.record(), view: this.view() }] };
      }
      case 'confirm':
        return { broadcast: [] };
      case 'ask':
        return { error: { code: 'referee/no-hidden-moves', message: 'every Adu move shows on the board' } };
      case 'agree':
        return { error: { code: 'console/no-agreement', message: 'Adu has no ending by agreement.' } };
      case 'roll':
        return { error: { code: 'console/no-dice', message: 'Adu is played without dice.' } };
      default:
        return command satisfies never;
    }
  }

  private playNotation(notation: string): Applied {
    const parsed = aduNotation.parseMove(notation, SIZE);
    if (!parsed.ok) return { error: parsed.error };
    const result = adu.play(this.state, parsed.value);
    if (!result.ok) return { error: result.error };
    this.plies.push(playAdu(this.state, parsed.value));
    // A move played settles the capture that waited for its reserve king.
    this.awaiting = null;
    this.stateId += 1;
    const last = this.plies[this.plies.length - 1];
    const broadcast: ServerMessage[] = [{ type: 'update', stateId: this.stateId, event: 'move', move: last.notation, record: this.record(), view: this.view() }];
    for (const q of this.questions) broadcast.push({ type: 'question-closed', stateId: this.stateId, id: q.id });
    for (const a of this.alerts) broadcast.push({ type: 'alert-cleared', stateId: this.stateId, id: a.id });
    this.questions = [];
    this.alerts = [];
    return { broadcast };
  }

  private record(): string[] {
    return this.plies.map((p) => p.notation);
  }
}
