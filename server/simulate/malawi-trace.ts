// Generated Malawi sensor traces with their ground truth: a planned game performed on the simulated square board in virtual time.
import { DEFAULT_GRID_HAND, DEFAULT_GRID_SENSOR, GridTable, type GridHandModel, type GridSensorModel, type SenseKind } from '../../firmware-bridge/index.ts';
import { formatRecord } from '../rules/record.ts';
import { observe, observeCounts, type EndReason, type MalawiOptions, type MoveKind, type Side } from '../rules/malawi.ts';
import { formatPosition, squareName } from '../rules/malawi-notation.ts';
import { assertNever } from '../rules/types.ts';
import { planMalawiGame, type Correction, type Handling, type MalawiPlayerOptions } from './malawi-player.ts';
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

export interface MalawiTraceOptions extends MalawiPlayerOptions, TraceOptions<GridSensorModel, GridHandModel> {
  /** What the board's squares sense: occupancy (`G` frames, default) or counts (`C` frames). */
  readonly sense?: SenseKind;
}

/** A move the board's sensors cannot tell from another legal move: the referee console must be asked which it was. */
export interface MalawiQuestion {
  /** When the move was complete: the console is asked from then on. */
  readonly t: number;
  readonly ply: number;
  /** The answer, in notation. */
  readonly move: string;
  readonly kind: MoveKind;
  readonly side: Side;
  /** Other legal moves that looked the same to this board. */
  readonly alternatives: number;
  /** Whether the players later took this move back. */
  readonly takenBack: boolean;
  /** Nobody at the console answers it (the people's `unanswered`): the answers file leaves it out. */
  readonly unanswered?: true;
}

/** What really happened in a generated trace, for tests of everything downstream of the sensors. */
export interface MalawiTruth {
  readonly game: 'malawi';
  readonly seed: number | string;
  readonly rules: MalawiOptions;
  readonly sense: SenseKind;
  readonly cols: number;
  readonly rows: number;
  readonly sensor: GridSensorModel;
  readonly hand: GridHandModel;
  readonly rateHz: number;
  readonly calibrationMs: number;
  /** The record after take-backs, in notation. */
  readonly record: readonly string[];
  /** The record as `spieltisch replay` reads it. */
  readonly recordText: string;
  /** The moves of the record: when the hand started, and when the piece was down (or the last bead moved). */
  readonly moves: readonly {
    readonly ply: number;
    readonly move: string;
    readonly kind: MoveKind;
    readonly side: Side;
    readonly start: number;
    readonly end: number;
    /** When the last piece was set down or the last bead moved (`end` is when the hand was done). */
    readonly settledAt: number;
    /** How the piece travelled (`slide`: the squares passed sensed it); null for captures and distributions. */
    readonly handling: Handling | null;
  }[];
  /** Pieces put on a square no legal move reaches, and how the player corrected them. */
  readonly illegalAttempts: readonly {
    readonly t: number;
    readonly from: string;
    readonly to: string;
    readonly side: Side;
    readonly code: string;
    readonly correction: Correction;
    readonly handling: Handling;
  }[];
  readonly takeBacks: readonly TakeBackTruth[];
  /**
   * The moves this board cannot see, in the order played (taken-back ones included, since the
   * console was asked when they were made). On an occupancy board: every capture and
   * distribution. On a counting board: captures that another piece could have made as well.
   */
  readonly questions: readonly MalawiQuestion[];
  /** How the game ended; null when the recording stopped mid-game (`maxMoves`). */
  readonly end: { readonly t: number; readonly reason: EndReason; readonly winner: Side | 'draw' } | null;
  /** What the squares sense when the recording ends (occupancy 0/1, or counts), cell order. */
  readonly final: readonly number[];
  /** The engine's final position in Malawi position notation. */
  readonly finalPosition: string;
  readonly durationMs: number;
  readonly frames: number;
  /** The people model the trace was generated with, when the options named one. */
  readonly peopleModel?: PeopleModel;
  /** What the people did beyond their moves, in the order planned (only with a people model). */
  readonly people?: readonly PeopleTruth[];
}

export type MalawiTrace = GeneratedTrace<MalawiTruth>;

/**
 * Plans a game, performs it on a simulated square board in virtual time (as fast as the CPU
 * goes) and returns the lines the board sent, with the ground truth. Deterministic for a seed.
 */
export function generateMalawiTrace(options: MalawiTraceOptions): MalawiTrace {
  const plan = planMalawiGame(options);
  const rules = plan.options;
  const sense = options.sense ?? 'occupancy';
  const rateHz = options.rateHz ?? 20;
  const calibrationMs = options.calibrationMs ?? 3000;
  const tailMs = options.tailMs ?? 3000;
  const recording = new TraceRecording(isGridFrame);
  const table = new GridTable(
    recording.scheduler,
    { seed: options.seed, cols: rules.size, rows: rules.size, sense, pieces: plan.layout, sensor: options.sensor, hand: options.hand, rateHz },
    recording.out,
  );
  const at = recording.perform(table, plan.actions, { calibrationMs, tailMs });
  const final = sense === 'count' ? observeCounts(plan.final) : observe(plan.final);
  checkBoardEnd(table.sensed(), final);

  const moves: MalawiTruth['moves'][number][] = [];
  const illegalAttempts: MalawiTruth['illegalAttempts'][number][] = [];
  const takeBacks: TakeBackTruth[] = [];
  const questions = new ConsoleQuestions<{ -readonly [K in keyof MalawiQuestion]: MalawiQuestion[K] }>();
  const unanswered = nobodyAnswers(options);
  let end: MalawiTruth['end'] = null;
  for (const [index, e] of plan.events.entries()) {
    switch (e.kind) {
      case 'move': {
        moves.length = e.ply - 1; // a move at this ply replaces any taken back
        moves.push({
          ply: e.ply,
          move: e.move,
          kind: e.moveKind,
          side: e.side,
          start: at(e.label),
          end: at(e.endLabel),
          settledAt: settledAt(table, e.endLabel),
          handling: e.handling,
        });
        questions.played(e.ply);
        if (e.moveKind !== 'move' && (sense === 'occupancy' || e.sameCounts > 0)) {
          questions.ask(e.ply, {
            t: at(e.endLabel),
            ply: e.ply,
            move: e.move,
            kind: e.moveKind,
            side: e.side,
            alternatives: sense === 'occupancy' ? e.sameOccupancy : e.sameCounts,
            takenBack: false,
            ...(unanswered() ? { unanswered: true as const } : {}),
          });
        }
        break;
      }
      case 'illegal':
        illegalAttempts.push({ t: at(e.label), from: e.from, to: e.to, side: e.side, code: e.code, correction: e.correction, handling: e.handling });
        break;
      case 'take-back':
        takeBacks.push(takeBackTruth(e, plan.events.slice(index + 1), at, moves.length));
        questions.takeBack(moves.length, e.moves.length);
        moves.length -= e.moves.length;
        break;
      case 'end':
        end = { t: at(e.label), reason: e.reason, winner: e.winner };
        break;
      default:
        assertNever(e);
    }
  }
  checkTruthAgainstPlan(plan, end, moves);

  const sensor = { ...DEFAULT_GRID_SENSOR, ...options.sensor };
  const hand = { ...DEFAULT_GRID_HAND, ...options.hand };
  const truth: MalawiTruth = {
    game: 'malawi',
    seed: options.seed,
    rules,
    sense,
    cols: rules.size,
    rows: rules.size,
    sensor,
    hand,
    rateHz,
    calibrationMs,
    record: plan.record,
    recordText: formatMalawiRecord(plan.record, rules),
    moves,
    illegalAttempts,
    takeBacks,
    questions: questions.asked,
    end,
    final,
    finalPosition: formatPosition(plan.final),
    durationMs: recording.scheduler.now,
    frames: recording.frames,
    ...peopleTruth(options, plan.people, at, (cell) => squareName(cell, rules.size)),
  };
  const comments = [
    `spieltisch simulated Malawi board, seed ${JSON.stringify(options.seed)}`,
    gridBoardComment(rules.size, rules.size, sense, sensor, rateHz, 'square'),
    `record ${plan.record.join(' ')}`,
  ];
  return { trace: recording.text(comments), truth };
}

/** The record in the game record format (RULES.md): headers, then numbered moves. */
export function formatMalawiRecord(record: readonly string[], rules: MalawiOptions): string {
  // JSON goes into a header value as written (the record format reads up to `"]`).
  return formatRecord({ Game: 'malawi', Options: JSON.stringify(rules) }, record);
}

/**
 * The answers file for a referee console: one move in notation per line, in the order the
 * console is asked (`truth.questions`). Empty when the board saw everything.
 */
export function answersOf(truth: Pick<MalawiTruth, 'questions' | 'sense' | 'takeBacks'>): string {
  // Questions nobody at the console answers are left out.
  const questions = truth.questions.filter((q) => q.unanswered !== true);
  const back = truth.takeBacks.map((tb) => ({ t: tb.until === null ? tb.t + 3000 : tb.until - 300, text: `back ${tb.ply}` }));
  // A counting board sees every move; the console only answers the referee's own questions (a
  // capture two pieces could have made), and checks the record after take-backs.
  if (truth.sense === 'count') return [...questions.map((q) => `${q.move}\n`), ...back.map((l) => `${Math.round(l.t)} ${l.text}\n`)].join('');
  // A board that senses occupancy cannot see a capture or distribution: the console announces
  // each a moment after the hand is done (`<ms> <move>`), and once a take-back is done it makes
  // sure the record is back to the right length (`<ms> back <plies>`): taking back a hidden
  // move, or a visible one that the board shows as a legal move, needs the console.
  const lines = [
    ...questions.map((q) => ({ t: q.t + 800, text: q.move })),
    ...back,
  ];
  return lines
    .sort((a, b) => a.t - b.t)
    .map((l) => `${Math.round(l.t)} ${l.text}\n`)
    .join('');
}
