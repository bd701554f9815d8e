// The fake server's Makis table: games played by the real engine with seeded dice, views as the contract in
// server/http/messages.ts describes them (odds from the engine's exact counts), and a console endpoint that rolls
// for the table, takes moves entered by hand and takes them back.
import { makis, makisNotation, makisOdds } from '../../server/rules/index.ts';
import type { Alert, BoardStatus, ConsoleCommand, MakisView, Question, ServerMessage } from '../../server/http/messages.ts';
import { handleCommand, prng, type Applied, type CommandMessage, type FakeTable } from './fake-table.ts';

type State = makis.MakisState;
type Move = makis.MakisMove;
type Pending = MakisView['pending'][number];

export const MAKIS_SCENARIOS = ['makis', 'makis-rolled', 'makis-question', 'makis-over'] as const;
export type MakisScenario = (typeof MAKIS_SCENARIOS)[number];

const PLAYERS = 3;
const name = makis.squareName;

export interface MakisPly {
  readonly token: string;
  readonly before: State;
  readonly after: State;
  /** Pieces the players must put back after this ply. */
  readonly pending: readonly Pending[];
}

function must<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** What a move asks the players to put back (RULES.md §3): Makis sent to row 9 by a roll, knights and Makis by a step. */
export function pendingAfter(state: State, move: Move): Pending[] {
  switch (move.kind) {
    case 'place':
      return [];
    case 'roll': {
      const effects = makis.rollEffects(state.knights, state.makis, move.dice);
      return effects.sentBack.map((s) => ({ piece: 'maki', column: makis.columnOf(s.from), player: s.player, from: name(s.from), to: name(s.to) }));
    }
    case 'maki': {
      if (move.to === null) return [];
      const effects = makis.stepEffects(state.knights, state.makis, move.player, move.to);
      // A knight already on row 1 beside the Maki is "sent back" where it stands: nothing to do.
      return [
        ...effects.knightsSentBack.filter((column) => state.knights[column - 1] !== 1).map(
          (column): Pending => ({ piece: 'knight', column, from: name(makis.square(column, state.knights[column - 1])), to: name(makis.square(column, 1)) }),
        ),
        ...effects.makisSentBack.map((s): Pending => ({ piece: 'maki', column: makis.columnOf(s.from), player: s.player, from: name(s.from), to: name(s.to) })),
      ];
    }
    default:
      return move satisfies never;
  }
}

export function playMakis(state: State, move: Move): MakisPly {
  return { token: makisNotation.formatMove(move), before: state, after: must(makis.play(state, move)), pending: pendingAfter(state, move) };
}

/**
 * A seeded game: fair dice (one of the 216 ordered rolls), Makis that mostly head for row 1 and like to
 * send knights home, sometimes wander or pass. Stops when `until` holds after a ply, or at the end.
 */
export function makisGame(seed: number, until: (plies: readonly MakisPly[]) => boolean, maxPlies = 400, players = PLAYERS): MakisPly[] {
  const random = prng(seed);
  let state = must(makis.initial({ ...makis.DEFAULT_OPTIONS, players }));
  const plies: MakisPly[] = [];
  while (state.outcome === null && plies.length < maxPlies) {
    let move: Move;
    if (state.phase === 'roll') {
      move = { kind: 'roll', dice: makis.ORDERED_ROLLS[Math.floor(random() * makis.ORDERED_ROLLS.length)] };
    } else {
      const moves = makis.legalMoves(state);
      const steps = moves.filter((m): m is Extract<Move, { kind: 'maki' }> => m.kind === 'maki' && m.to !== null);
      const score = (m: Extract<Move, { kind: 'maki' }>) =>
        -makis.rowOf(m.to as number) + 2 * makis.stepEffects(state.knights, state.makis, m.player, m.to as number).knightsSentBack.length;
      const r = random();
      if (steps.length && r < 0.6) {
        const best = Math.max(...steps.map(score));
        const top = steps.filter((m) => score(m) === best);
        move = top[Math.floor(random() * top.length)];
      } else {
        move = moves[Math.floor(random() * moves.length)];
      }
    }
    const ply = playMakis(state, move);
    plies.push(ply);
    state = ply.after;
    if (until(plies)) break;
  }
  return plies;
}

/** The roll's numbers in an order that puts one on each of III, IV and V, as the view lists them. */
export function asDice(roll: readonly number[]): [number, number, number] {
  const [a, b, c] = roll;
  const orders: [number, number, number][] = [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ];
  return orders.find(([x, y, z]) => makis.FACES.III.includes(x) && makis.FACES.IV.includes(y) && makis.FACES.V.includes(z)) ?? [a, b, c];
}

export function makisView(
  plies: readonly MakisPly[],
  expectedRoll: readonly [number, number, number] | null = null,
  putBack = false,
): MakisView {
  const last = plies[plies.length - 1];
  const state = last?.after ?? must(makis.initial({ ...makis.DEFAULT_OPTIONS, players: PLAYERS }));
  const lastRoll = [...plies].reverse().find((p) => p.token.startsWith('R'));
  const rollMove = lastRoll ? must(makisNotation.parseMove(lastRoll.token)) : null;
  const odds = makisOdds.rollOdds(state);
  return {
    game: 'makis',
    players: state.options.players,
    mode: state.options.mode,
    knights: state.knights,
    makis: state.makis.map((spot) => (spot === null ? null : spot === 'out' ? 'out' : name(spot))),
    phase: state.phase,
    toMove: state.outcome ? null : state.toMove,
    lastRoll: rollMove?.kind === 'roll' ? asDice(rollMove.dice) : null,
    expectedRoll,
    odds: odds.ok
      ? {
          danger: Object.fromEntries(
            odds.value.danger.flatMap((d, sq) => (d === null ? [] : [[name(sq), { capture: d.capture, reset: d.reset }]])),
          ),
          makis: odds.value.makis.map((m) => ({ player: m.player, square: name(m.square), capture: m.capture.numerator, reset: m.reset.numerator })),
          knightsHome: odds.value.knightsHome.numerator,
        }
      : null,
    pending: putBack ? [] : (last?.pending ?? []),
    outcome: state.outcome ? { winner: String(state.outcome.winner), reason: state.outcome.reason } : null,
    lastMove: last?.token ?? null,
  };
}

interface Setup {
  readonly plies: readonly MakisPly[];
  readonly expectedRoll: readonly [number, number, number] | null;
  readonly alerts: readonly Alert[];
  readonly questions: readonly Question[];
  readonly board: BoardStatus;
}

const BOARD_OK: BoardStatus = { source: 'simulated', connected: true, link: 'live', calibrated: true, framesPerSecond: 20, dropped: 0 };

/** The first seeded game that reaches `want`; the scenarios are pictures of particular moments. */
function findGame(want: (plies: readonly MakisPly[]) => boolean, maxPlies = 400): MakisPly[] {
  for (let seed = 1; seed < 2000; seed++) {
    const plies = makisGame(seed, want, maxPlies);
    if (want(plies)) return plies;
  }
  throw new Error('no seeded Makis game reaches the wanted moment');
}

/** A roll is due, a Maki has just sent a knight home (it still has to be put back), one player is out, two play on. */
function pendingKnightMoment(plies: readonly MakisPly[]): boolean {
  const last = plies[plies.length - 1];
  const state = last.after;
  return (
    state.phase === 'roll' &&
    state.outcome === null &&
    last.pending.some((p) => p.piece === 'knight') &&
    state.makis.filter((s) => s === 'out').length === 1 &&
    state.makis.every((s) => s !== null) &&
    state.rounds >= 4
  );
}

function setup(scenario: MakisScenario): Setup {
  switch (scenario) {
    case 'makis': {
      const plies = findGame(pendingKnightMoment);
      const last = plies[plies.length - 1];
      const alerts = last.pending.map((p, i): Alert =>
        p.piece === 'knight'
          ? {
              id: 80 + i,
              level: 'info',
              code: 'makis/reset-knight',
              message: `Put the knight in column ${p.column} back to row 1.`,
              params: { column: p.column, from: p.from, to: p.to },
            }
          : {
              id: 80 + i,
              level: 'info',
              code: 'makis/reset-maki',
              message: `Put player ${p.player}'s Maki back on ${p.to}.`,
              params: { player: p.player ?? 0, square: p.to },
            },
      );
      return { plies, expectedRoll: null, alerts, questions: [], board: BOARD_OK };
    }
    case 'makis-rolled': {
      // The table rolled for player to move; the knights have not moved yet. A double, so one knight steps twice.
      const plies = findGame((p) => {
        const state = p[p.length - 1].after;
        return state.phase === 'roll' && state.outcome === null && state.rounds >= 3 && p[p.length - 1].pending.length === 0 && state.makis.every((s) => typeof s === 'number');
      });
      const state = plies[plies.length - 1].after;
      const roll = makis.POSSIBLE_ROLLS.find((r) => r[0] === r[1] && r.every((n) => state.knights[n - 1] <= 6)) ?? makis.POSSIBLE_ROLLS[0];
      const expected = asDice(roll);
      return {
        plies,
        expectedRoll: expected,
        alerts: [
          {
            id: 90,
            level: 'info',
            code: 'makis/expected-roll',
            message: `Rolled for the table: ${expected.join('-')}. Move the knights accordingly.`,
            params: { roll: expected.join('-') },
          },
        ],
        questions: [],
        // A board whose cable went: the status line says it is reconnecting.
        board: { ...BOARD_OK, connected: false, link: 'reconnecting', framesPerSecond: 0 },
      };
    }
    case 'makis-question': {
      // The sensors saw knights move in a way two rolls explain; the referee console is asked which.
      const plies = findGame((p) => {
        const state = p[p.length - 1].after;
        return state.phase === 'roll' && state.outcome === null && state.rounds >= 2 && state.makis.every((s) => typeof s === 'number');
      });
      return {
        plies,
        expectedRoll: null,
        alerts: [],
        questions: [
          {
            id: 31,
            code: 'makis/which-roll',
            message: 'The board fits more than one roll: which one was rolled?',
            params: { count: 2 },
            options: ['R2.5.5', 'R2.5.6'],
          },
        ],
        board: { ...BOARD_OK, connected: false, link: 'not-responding', framesPerSecond: 0 },
      };
    }
    case 'makis-over': {
      const plies = findGame((p) => p[p.length - 1].after.outcome?.reason === 'maki-home', 600);
      return { plies, expectedRoll: null, alerts: [], questions: [], board: BOARD_OK };
    }
    default:
      return scenario satisfies never;
  }
}

/** One live Makis table shared by every socket of a fake server. */
export class FakeMakisTable implements FakeTable {
  private plies: MakisPly[];
  private expectedRoll: readonly [number, number, number] | null;
  private alerts: Alert[];
  private questions: Question[];
  private readonly board: BoardStatus;
  private stateId = 700;
  private rolls = 0;
  /** The pieces the last ply sent back stand where they belong again. */
  private putBack = false;

  constructor(scenario: MakisScenario) {
    const start = setup(scenario);
    this.plies = [...start.plies];
    this.expectedRoll = start.expectedRoll;
    this.alerts = [...start.alerts];
    this.questions = [...start.questions];
    this.board = start.board;
    this.stateId += this.plies.length;
  }

  get state(): State {
    return this.plies[this.plies.length - 1].after;
  }

  view(): MakisView {
    return makisView(this.plies, this.expectedRoll, this.putBack);
  }

  sync(): ServerMessage {
    return {
      type: 'sync',
      stateId: this.stateId,
      game: 'makis',
      record: this.record(),
      view: this.view(),
      alerts: this.alerts,
      questions: this.questions,
      board: this.board,
    };
  }

  handle(message: CommandMessage, authed: boolean) {
    return handleCommand(message, authed, this.stateId, (command) => this.apply(command));
  }

  private apply(command: ConsoleCommand): Applied {
    switch (command.kind) {
      case 'roll': {
        if (this.state.outcome) return { error: { code: 'makis/game-over', message: 'the game is over; there is nothing to roll' } };
        if (this.state.phase !== 'roll') {
          return { error: { code: 'makis/maki-move-expected', message: `the Makis move before the next roll: player ${this.state.toMove} moves or passes next`, params: { player: this.state.toMove } } };
        }
        if (this.expectedRoll) return { error: { code: 'referee/roll-pending', message: 'the dice were already rolled; move the knights first' } };
        // Seeded, not fair: the fake shows pictures; the real server draws from the OS. The pieces to put back
        // are taken as put back (the real referee waits for them before the dice).
        const roll = makis.ORDERED_ROLLS[(this.rolls++ * 97 + 31) % makis.ORDERED_ROLLS.length];
        this.expectedRoll = [roll[0], roll[1], roll[2]];
        this.putBack = true;
        this.stateId += 1;
        const broadcast: ServerMessage[] = [{ type: 'update', stateId: this.stateId, event: 'settled', record: this.record(), view: this.view() }];
        for (const a of this.alerts) broadcast.push({ type: 'alert-cleared', stateId: this.stateId, id: a.id });
        this.alerts = [];
        return { broadcast };
      }
      case 'enter':
      case 'choose': {
        if (command.kind === 'choose') {
          const question = this.questions.find((q) => q.id === command.questionId);
          if (!question) return { error: { code: 'referee/no-such-question', message: `question ${command.questionId} is not open` } };
          if (!question.options.includes(command.move)) return { error: { code: 'referee/not-an-option', message: `${command.move} is not one of the moves offered` } };
        }
        const parsed = makisNotation.parseMove(command.move);
        if (!parsed.ok) return { error: parsed.error };
        const why = makis.whyIllegal(this.state, parsed.value);
        if (why) return { error: why };
        if (parsed.value.kind === 'roll' && this.expectedRoll && [...parsed.value.dice].sort().join() !== [...this.expectedRoll].sort().join()) {
          return {
            error: {
              code: 'makis/wrong-roll',
              message: `the table rolled ${this.expectedRoll.join('-')}, not ${parsed.value.dice.join('-')}`,
              params: { expected: this.expectedRoll.join('-'), roll: parsed.value.dice.join('-') },
            },
          };
        }
        if (parsed.value.kind === 'roll') this.expectedRoll = null;
        const ply = playMakis(this.state, parsed.value);
        this.plies.push(ply);
        this.putBack = false;
        this.stateId += 1;
        const broadcast: ServerMessage[] = [{ type: 'update', stateId: this.stateId, event: 'move', move: ply.token, record: this.record(), view: this.view() }];
        for (const q of this.questions) broadcast.push({ type: 'question-closed', stateId: this.stateId, id: q.id });
        for (const a of this.alerts) broadcast.push({ type: 'alert-cleared', stateId: this.stateId, id: a.id });
        this.questions = [];
        this.alerts = [];
        return { broadcast };
      }
      case 'undo': {
        if (this.plies.length <= 1) return { error: { code: 'console/nothing-to-undo', message: 'There is no move to take back.' } };
        const undone = this.plies.pop() as MakisPly;
        this.expectedRoll = null;
        this.putBack = false;
        this.stateId += 1;
        return { broadcast: [{ type: 'update', stateId: this.stateId, event: 'takeback', undone: [undone.token], record: this.record(), view: this.view() }] };
      }
      case 'confirm':
        return { broadcast: [] };
      case 'ask':
        return { error: { code: 'referee/no-hidden-moves', message: 'every Makis move shows on the board' } };
      case 'agree':
        return { error: { code: 'console/no-agreement', message: 'Makis has no ending by agreement.' } };
      default:
        return command satisfies never;
    }
  }

  private record(): string[] {
    return this.plies.map((p) => p.token);
  }
}
