// The fake server's Malawi table: games played by the real engine, views as the server sends them, and a console
// endpoint that checks the referee token and the state and answers every command with a command-result.
import { malawi, malawiNotation } from '../../server/rules/index.ts';
import type {
  Alert,
  BoardStatus,
  ClientMessage,
  ConsoleCommand,
  MalawiView,
  Question,
  ServerMessage,
} from '../../server/http/messages.ts';

type State = malawi.MalawiState;
type Move = malawi.MalawiMove;

/** The token the fake server accepts; screenshots pass it as `?token=`. */
export const FAKE_REFEREE_TOKEN = 'fake-referee-token';

const SIZE = 6;
const name = (cell: number): string => malawiNotation.squareName(cell, SIZE);
const cellOf = (square: string): number => {
  const parsed = malawiNotation.parseSquare(square, SIZE);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

export interface Ply {
  readonly move: string;
  readonly kind: Move['kind'];
  readonly squares: readonly string[];
  readonly after: State;
}

function squaresOf(move: Move): string[] {
  switch (move.kind) {
    case 'move':
    case 'capture':
      return [name(move.from), name(move.to)];
    case 'distribute':
      return [name(move.from), ...move.recipients.map(name)];
    default:
      throw new Error('unknown move');
  }
}

export function playMove(state: State, move: Move): Ply | { error: { code: string; message: string } } {
  const result = malawi.play(state, move);
  if (!result.ok) return { error: { code: result.error.code, message: result.error.message } };
  return { move: malawiNotation.formatMove(move, SIZE), kind: move.kind, squares: squaresOf(move), after: result.value };
}

function mustPlay(state: State, move: Move): Ply {
  const ply = playMove(state, move);
  if ('error' in ply) throw new Error(ply.error.message);
  return ply;
}

/**
 * A deterministic game by the engine: a small PRNG picks captures, distributions or plain moves,
 * avoiding moves that hand the opponent a win at once (so the pictures show a game in progress).
 */
export function malawiGame(seed: number, plies: number, careful = true): Ply[] {
  let s = seed >>> 0;
  const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const opponentWinsAtOnce = (state: State): boolean =>
    malawi.legalMoves(state).some((reply) => {
      const next = malawi.play(state, reply);
      return next.ok && next.value.outcome !== null && next.value.outcome.winner !== 'draw';
    });
  let state = malawi.initial();
  const game: Ply[] = [];
  for (let i = 0; i < plies && state.outcome === null; i++) {
    const moves = malawi.legalMoves(state);
    const r = random();
    const kind = r < 0.35 ? 'capture' : r < 0.55 ? 'distribute' : 'move';
    let pool = moves.filter((m) => m.kind === kind);
    if (!pool.length) pool = moves.filter((m) => m.kind === 'move');
    if (!pool.length) pool = moves;
    if (careful) {
      const safe = pool.filter((m) => {
        const next = malawi.play(state, m);
        return next.ok && (next.value.outcome !== null || !opponentWinsAtOnce(next.value));
      });
      if (safe.length) pool = safe;
    }
    const ply = mustPlay(state, pool[Math.floor(random() * pool.length)]);
    game.push(ply);
    state = ply.after;
  }
  return game;
}

export function malawiView(state: State, last: Ply | null): MalawiView {
  const pieces: MalawiView['pieces'][number][] = [];
  state.squares.forEach((piece, cell) => {
    if (piece) pieces.push({ square: name(cell), side: piece.side, strength: piece.strength });
  });
  return {
    game: 'malawi',
    size: SIZE,
    pieces,
    toMove: state.outcome ? null : state.toMove,
    outcome: state.outcome ? { winner: state.outcome.winner, reason: state.outcome.reason } : null,
    lastMove: last ? { notation: last.move, kind: last.kind, squares: last.squares } : null,
  };
}

export const MALAWI_SCENARIOS = ['malawi', 'malawi-question', 'malawi-mismatch', 'malawi-over'] as const;
export type MalawiScenario = (typeof MALAWI_SCENARIOS)[number];

interface TableSetup {
  readonly plies: readonly Ply[];
  readonly alerts: readonly Alert[];
  readonly questions: readonly Question[];
}

/**
 * The captures and distributions the player to move could have made: on an occupancy board they
 * all look alike, so these are what the referee is asked to choose from — all of them, in the
 * engine's order, as the real referee asks (often dozens of distributions).
 */
export function sameLookingMoves(state: State): string[] {
  return malawi
    .legalMoves(state)
    .filter((m) => m.kind !== 'move')
    .map((m) => malawiNotation.formatMove(m, SIZE));
}

function setup(scenario: MalawiScenario): TableSetup {
  switch (scenario) {
    case 'malawi':
      // Ends with north giving the beads of a6 to four pieces.
      return { plies: malawiGame(24, 16), alerts: [], questions: [] };
    case 'malawi-question': {
      // South, to move, took a hand off the board and no square changed: a capture or a distribution
      // (here two of each are legal), which occupancy sensors cannot tell apart.
      const plies = malawiGame(3, 14);
      const state = plies[plies.length - 1].after;
      const options = sameLookingMoves(state);
      return {
        plies,
        alerts: [],
        questions: [
          {
            id: 7,
            code: 'referee/which-move',
            message: `Which capture or distribution did ${state.toMove} make?`,
            params: { reason: 'hidden', side: state.toMove, count: options.length },
            options,
          },
        ],
      };
    }
    case 'malawi-mismatch': {
      // After south's capture, a north piece was pushed one rank off its square: missing there, one too many beside it.
      const plies = malawiGame(35, 13);
      const state = plies[plies.length - 1].after;
      const missing = state.squares.findIndex((p) => p?.side === 'north' && p.strength > 0);
      const extra = state.squares.findIndex((p, cell) => p === null && Math.abs(cell - missing) === SIZE);
      if (missing < 0 || extra < 0) throw new Error('the mismatch scenario needs a north piece with an empty square beside it');
      return {
        plies,
        alerts: [
          {
            id: 62,
            level: 'warn',
            code: 'referee/mismatch',
            message: `Put the piece back on ${name(missing)} (first of 2 squares to fix).`,
            params: { square: name(missing), remaining: 2, action: 'put-back' },
            cells: [
              { cell: missing, diff: -1 },
              { cell: extra, diff: 1 },
            ],
          },
        ],
        questions: [],
      };
    }
    case 'malawi-over':
      return { plies: malawiGame(2, 200, false), alerts: [], questions: [] };
    default: {
      const never: never = scenario;
      throw new Error(`unknown scenario ${String(never)}`);
    }
  }
}

const BOARD_OK: BoardStatus = { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };

type CommandResult = Extract<ServerMessage, { type: 'command-result' }>;

/** One live Malawi table shared by every socket of a fake server: what a sync shows, and commands that change it. */
export class FakeMalawiTable {
  private plies: Ply[];
  private alerts: Alert[];
  private questions: Question[];
  private stateId = 500;

  constructor(scenario: MalawiScenario) {
    const start = setup(scenario);
    this.plies = [...start.plies];
    this.alerts = [...start.alerts];
    this.questions = [...start.questions];
    this.stateId += this.plies.length;
  }

  get state(): State {
    return this.plies[this.plies.length - 1]?.after ?? malawi.initial();
  }

  view(): MalawiView {
    return malawiView(this.state, this.plies[this.plies.length - 1] ?? null);
  }

  sync(): ServerMessage {
    return {
      type: 'sync',
      stateId: this.stateId,
      game: 'malawi',
      record: this.plies.map((p) => p.move),
      view: this.view(),
      alerts: this.alerts,
      questions: this.questions,
      board: BOARD_OK,
    };
  }

  /**
   * A console command from a socket that has (`authed`) or has not presented the token; it gets a
   * command-result for its sender and, when it changed the table, messages for everyone.
   */
  handle(
    message: Extract<ClientMessage, { type: 'command' }>,
    authed: boolean,
  ): { readonly reply: CommandResult; readonly broadcast: readonly ServerMessage[] } {
    const refuse = (error: string, text: string) => ({
      reply: { type: 'command-result', ref: message.ref, ok: false, error, message: text } as CommandResult,
      broadcast: [],
    });
    // The real server's codes and sentences (server/http/server.ts, server/session/game-session.ts).
    if (!authed) return refuse('console/unauthorized', 'Console commands need the referee token.');
    if (message.stateId !== this.stateId) {
      return refuse(
        'console/stale-state',
        `The game has moved on (state ${this.stateId}, the console saw ${message.stateId}); look again and repeat.`,
      );
    }
    const outcome = this.apply(message.command);
    if ('error' in outcome) return refuse(outcome.error.code, outcome.error.message);
    return { reply: { type: 'command-result', ref: message.ref, ok: true }, broadcast: outcome.broadcast };
  }

  private apply(command: ConsoleCommand): { error: { code: string; message: string } } | { broadcast: ServerMessage[] } {
    switch (command.kind) {
      case 'choose': {
        const question = this.questions.find((q) => q.id === command.questionId);
        if (!question) return { error: { code: 'referee/no-such-question', message: `question ${command.questionId} is not open` } };
        if (!question.options.includes(command.move)) {
          const offered = question.options.join(', ');
          return { error: { code: 'referee/not-an-option', message: `${command.move} is not one of the moves offered: the moves offered are ${offered}` } };
        }
        return this.playNotation(command.move);
      }
      case 'enter':
        return this.playNotation(command.move);
      case 'undo': {
        const undone = this.plies.pop();
        if (!undone) return { error: { code: 'console/nothing-to-undo', message: 'There is no move to take back.' } };
        this.stateId += 1;
        return {
          broadcast: [
            { type: 'update', stateId: this.stateId, event: 'takeback', undone: [undone.move], record: this.record(), view: this.view() },
          ],
        };
      }
      case 'confirm':
        // As the real sessions do: nothing waits for a confirmation yet, so it changes nothing.
        return { broadcast: [] };
      case 'ask':
        return this.ask();
      case 'agree':
        // As the real Malawi session does: Malawi has no ending by agreement.
        return { error: { code: 'console/no-agreement', message: 'Malawi has no ending by agreement (RULES.md §2).' } };
      case 'roll':
        return { error: { code: 'console/no-dice', message: 'Malawi is played without dice.' } };
      default: {
        const never: never = command;
        throw new Error(`unknown command ${JSON.stringify(never)}`);
      }
    }
  }

  /** "A capture or distribution happened": ask which, as the referee does (one question at a time). */
  private ask(): { error: { code: string; message: string } } | { broadcast: ServerMessage[] } {
    const state = this.state;
    if (state.outcome) return { error: { code: 'referee/game-over', message: 'the game is over; there is no capture or distribution to enter' } };
    const options = sameLookingMoves(state);
    if (!options.length) {
      return { error: { code: 'referee/no-hidden-moves', message: `${state.toMove} has no legal capture or distribution` } };
    }
    if (this.questions.length) return { broadcast: [] };
    const question: Question = {
      id: 70 + this.plies.length,
      code: 'referee/which-move',
      message: `Which capture or distribution did ${state.toMove} make?`,
      params: { reason: 'hidden', side: state.toMove, count: options.length },
      options,
    };
    this.questions = [question];
    return { broadcast: [{ type: 'question', stateId: this.stateId, question }] };
  }

  private playNotation(notation: string): { error: { code: string; message: string } } | { broadcast: ServerMessage[] } {
    const parsed = malawiNotation.parseMove(notation, SIZE);
    if (!parsed.ok) return { error: { code: parsed.error.code, message: parsed.error.message } };
    const ply = playMove(this.state, parsed.value);
    if ('error' in ply) return ply;
    this.plies.push(ply);
    this.stateId += 1;
    const broadcast: ServerMessage[] = [
      { type: 'update', stateId: this.stateId, event: 'move', move: ply.move, record: this.record(), view: this.view() },
    ];
    // The move answers every open question, and settles any alert about the board before it.
    for (const q of this.questions) broadcast.push({ type: 'question-closed', stateId: this.stateId, id: q.id });
    for (const a of this.alerts) broadcast.push({ type: 'alert-cleared', stateId: this.stateId, id: a.id });
    this.questions = [];
    this.alerts = [];
    return { broadcast };
  }

  private record(): string[] {
    return this.plies.map((p) => p.move);
  }
}

export { cellOf as malawiCell };
