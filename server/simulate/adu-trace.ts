// Generated Adu sensor traces with their ground truth: a planned game performed on the simulated occupancy grid in virtual time.
import { DEFAULT_GRID_HAND, DEFAULT_GRID_SENSOR, GridTable, type GridHandModel, type GridSensorModel } from '../../firmware-bridge/index.ts';
import { formatRecord } from '../rules/record.ts';
import { observe, squareName, type AduOptions, type EndReason, type MoveKind, type PieceKind, type Player } from '../rules/adu.ts';
import { formatPieces } from '../rules/adu-notation.ts';
import { assertNever } from '../rules/types.ts';
import { aduBoardSetup, planAduGame, type AduCorrection, type AduHandling, type AduPlayerOptions } from './adu-player.ts';
import {
  ConsoleQuestions,
  TraceRecording,
  checkBoardEnd,
  checkTruthAgainstPlan,
  gridBoardComment,
  isGridFrame,
  nobodyAnswers,
  peopleTruth,
  settledAt,
  takeBackTruth,
  type GeneratedTrace,
  type PeopleTruth,
  type TakeBackTruth,
  type TraceOptions,
} from './trace-common.ts';
import type { PeopleModel } from './people.ts';

/** A game of Adu starts, and its trace calibrates, on an empty board. */
export interface AduTraceOptions extends AduPlayerOptions, TraceOptions<GridSensorModel, GridHandModel> {}

/** A question the referee console is asked about a move, and its answer. */
export interface AduConsoleQuestion {
  /** When the move was complete. */
  readonly t: number;
  readonly ply: number;
  /**
   * `ambiguous`: other legal moves leave the same picture; `capture`: a capture made in one sweep,
   * which the board cannot tell from a piece in the hand; `declare`: a captured soldier's range.
   */
  readonly reason: 'ambiguous' | 'capture' | 'declare';
  /** The answer, in notation (a declaration always with its `=range`). */
  readonly answer: string;
  /** Whether the players later took this move back. */
  readonly takenBack: boolean;
  /** Nobody at the console answers it (the people's `unanswered`): `answers` leaves it out. */
  readonly unanswered?: true;
}

/** What really happened in a generated Adu trace, for tests of everything downstream of the sensors. */
export interface AduTruth {
  readonly game: 'adu';
  readonly seed: number | string;
  readonly rules: AduOptions;
  readonly sense: 'occupancy';
  readonly cols: number;
  readonly rows: number;
  readonly sensor: GridSensorModel;
  readonly hand: GridHandModel;
  readonly rateHz: number;
  readonly calibrationMs: number;
  /** The record after take-backs, in notation (a declaration written only when it is not the lowest). */
  readonly record: readonly string[];
  /** The record as `spieltisch replay` reads it. */
  readonly recordText: string;
  /** The moves of the record: when the hand started and finished, and how. */
  readonly moves: readonly {
    readonly ply: number;
    readonly move: string;
    readonly kind: MoveKind;
    readonly player: Player;
    readonly start: number;
    readonly end: number;
    /** When the last piece was set down or lifted off (`end` is when the hand was done). */
    readonly settledAt: number;
    readonly handling: AduHandling;
    readonly captured: { readonly player: Player; readonly kind: PieceKind; readonly id: string } | null;
    /** A captured soldier's range as its owner declared it, and the ranges that were possible. */
    readonly declared: { readonly range: number; readonly ranges: readonly number[] } | null;
    readonly reserve: string | null;
    readonly removed: number;
  }[];
  /**
   * Every move made, in order, taken-back ones included: what a person at the console would know
   * when asked about the move at `ply` (`move` carries a declared range whenever one was declared).
   */
  readonly played: readonly { readonly ply: number; readonly end: number; readonly move: string }[];
  /** Pieces put where no legal move goes, and how they were corrected. */
  readonly illegalAttempts: readonly {
    readonly t: number;
    readonly from: string;
    readonly to: string;
    readonly player: Player;
    readonly code: string;
    readonly correction: AduCorrection;
    readonly handling: AduHandling;
  }[];
  readonly takeBacks: readonly TakeBackTruth[];
  /** What the console is asked, in order (taken-back moves included: it was asked when they were made). */
  readonly questions: readonly AduConsoleQuestion[];
  /**
   * The alerts a referee raises, in order: the engine's reason for each illegal attempt, and the
   * guidance after a king capture seen under way (`board/remove-pieces` while the pieces of a
   * player put out come off, one per piece still there; `board/place-reserve` until the reserve
   * king stands).
   */
  readonly alerts: readonly { readonly t: number; readonly code: string }[];
  /** The answers file for `spieltisch referee --answers`: one answer per line, in the order asked (questions nobody answers left out). */
  readonly answers: readonly string[];
  readonly end: { readonly t: number; readonly reason: EndReason; readonly winner: Player | 'draw'; readonly players: readonly Player[] } | null;
  /** What the intersections sense when the recording ends (0/1), cell order. */
  readonly final: readonly number[];
  /** The engine's final position as pieces (`1K1@d4 2S3@e5 …`). */
  readonly finalPosition: string;
  readonly durationMs: number;
  readonly frames: number;
  /** The people model the trace was generated with, when the options named one. */
  readonly peopleModel?: PeopleModel;
  /** What the people did beyond their moves, in the order planned (only with a people model). */
  readonly people?: readonly PeopleTruth[];
}

export type AduTrace = GeneratedTrace<AduTruth>;

/**
 * Plans a game, performs it on a simulated occupancy grid in virtual time (as fast as the CPU
 * goes) and returns the lines the board sent, with the ground truth. Deterministic for a seed.
 */
export function generateAduTrace(options: AduTraceOptions): AduTrace {
  const plan = planAduGame(options);
  const rules = plan.options;
  const rateHz = options.rateHz ?? 20;
  const calibrationMs = options.calibrationMs ?? 3000;
  const tailMs = options.tailMs ?? 3000;
  const recording = new TraceRecording(isGridFrame);
  const table = new GridTable(
    recording.scheduler,
    { seed: options.seed, sense: 'occupancy', ...aduBoardSetup(rules), sensor: options.sensor, hand: options.hand, rateHz },
    recording.out,
  );
  const at = recording.perform(table, plan.actions, { calibrationMs, tailMs });
  const final = observe(plan.final);
  checkBoardEnd(table.occupancy(), final);

  const moves: AduTruth['moves'][number][] = [];
  const illegalAttempts: AduTruth['illegalAttempts'][number][] = [];
  const takeBacks: TakeBackTruth[] = [];
  const questions = new ConsoleQuestions<{ -readonly [K in keyof AduConsoleQuestion]: AduConsoleQuestion[K] }>();
  const alerts: { t: number; code: string }[] = [];
  const played: { ply: number; end: number; move: string }[] = [];
  const unanswered = nobodyAnswers(options);
  let end: AduTruth['end'] = null;
  for (const [index, e] of plan.events.entries()) {
    switch (e.kind) {
      case 'move': {
        const start = at(e.label);
        const done = at(e.endLabel);
        moves.length = e.ply - 1; // a move at this ply replaces any taken back
        moves.push({
          ply: e.ply,
          move: e.move,
          kind: e.moveKind,
          player: e.player,
          start,
          end: done,
          settledAt: settledAt(table, e.endLabel),
          handling: e.handling,
          captured: e.captured,
          declared: e.declaration,
          reserve: e.reserve,
          removed: e.removed,
        });
        questions.played(e.ply);
        const ask = (reason: AduConsoleQuestion['reason'], answer: string): void =>
          questions.ask(e.ply, { t: done, ply: e.ply, reason, answer, takenBack: false, ...(unanswered() ? { unanswered: true as const } : {}) });
        const bare = e.move.replace(/=\d+/, '');
        played.push({ ply: e.ply, end: done, move: e.declaration === null ? e.move : `${bare}=${e.declaration.range}` });
        // A capture in one sweep leaves the captor's point empty and nothing else: a piece in the hand, to the board.
        if (e.handling === 'quick' && e.reserve === null) ask('capture', bare);
        else if (e.moveKind !== 'place-king' && e.moveKind !== 'place-soldier' && e.handling !== 'clear-first' && e.lookAlikes > 0) ask('ambiguous', bare);
        if (e.declaration !== null && e.declaration.ranges.length > 1) ask('declare', `${bare}=${e.declaration.range}`);
        // The captured king was seen taken off first: the referee guides the players through the rest of the move.
        if (e.handling === 'clear-first' && e.captured !== null && e.captured.kind !== 'soldier') {
          for (let left = e.removed; left > 0; left--) alerts.push({ t: done, code: 'board/remove-pieces' });
          if (e.reserve !== null) alerts.push({ t: done, code: 'board/place-reserve' });
        }
        break;
      }
      case 'illegal':
        illegalAttempts.push({ t: at(e.label), from: e.from, to: e.to, player: e.player, code: e.code, correction: e.correction, handling: e.handling });
        alerts.push({ t: at(e.label), code: e.code });
        break;
      case 'take-back':
        takeBacks.push(takeBackTruth(e, plan.events.slice(index + 1), at, moves.length));
        questions.takeBack(moves.length, e.moves.length);
        moves.length -= e.moves.length;
        break;
      case 'end':
        end = { t: at(e.label), reason: e.reason, winner: e.winner, players: e.players };
        break;
      default:
        assertNever(e);
    }
  }
  checkTruthAgainstPlan(plan, end, moves);

  const sensor = { ...DEFAULT_GRID_SENSOR, ...options.sensor };
  const hand = { ...DEFAULT_GRID_HAND, ...options.hand };
  const truth: AduTruth = {
    game: 'adu',
    seed: options.seed,
    rules,
    sense: 'occupancy',
    cols: rules.size,
    rows: rules.size,
    sensor,
    hand,
    rateHz,
    calibrationMs,
    record: plan.record,
    recordText: formatAduRecord(plan.record, rules),
    moves,
    played,
    illegalAttempts,
    takeBacks,
    questions: questions.asked,
    alerts,
    answers: questions.asked.filter((q) => q.unanswered !== true).map((q) => q.answer),
    end,
    final,
    finalPosition: formatPieces(plan.final),
    durationMs: recording.scheduler.now,
    frames: recording.frames,
    ...peopleTruth(options, plan.people, at, (cell) => squareName(cell, rules.size)),
  };
  const comments = [
    `spieltisch simulated Adu board, seed ${JSON.stringify(options.seed)}, ${rules.players} players`,
    gridBoardComment(rules.size, rules.size, 'occupancy', sensor, rateHz, 'point'),
    `record ${plan.record.join(' ')}`,
  ];
  return { trace: recording.text(comments), truth };
}

/** The record in the game record format (RULES.md): headers, then numbered moves. */
export function formatAduRecord(record: readonly string[], rules: AduOptions): string {
  return formatRecord({ Game: 'adu', Options: JSON.stringify(rules) }, record);
}

/** The answers file for a referee console (`spieltisch referee --answers`): one answer per line, in the order the console is asked. */
export function aduAnswersOf(truth: Pick<AduTruth, 'answers'>): string {
  return truth.answers.map((a) => `${a}\n`).join('');
}
