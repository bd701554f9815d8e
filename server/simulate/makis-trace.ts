// Generated Makis sensor traces with their ground truth: a planned game performed on the simulated 9 × 9 board in virtual time.
import { DEFAULT_GRID_HAND, DEFAULT_GRID_SENSOR, GridTable, type GridHandModel, type GridSensorModel } from '../../firmware-bridge/index.ts';
import { formatRecord } from '../rules/record.ts';
import { SIZE, squareName, type EndReason, type MakisOptions, type Roll } from '../rules/makis.ts';
import { positionJson, type MakisPosition } from '../rules/makis-notation.ts';
import { assertNever } from '../rules/types.ts';
import { makisOccupancy, planMakisGame, type MakisCorrection, type MakisPlayerOptions } from './makis-player.ts';
import {
  TraceRecording,
  checkBoardEnd,
  checkTruthAgainstPlan,
  gridBoardComment,
  isGridFrame,
  nobodyAnswers,
  peopleTruth,
  settledAt,
  type GeneratedTrace,
  type PeopleTruth,
  type TraceOptions,
} from './trace-common.ts';
import type { PeopleModel } from './people.ts';

export interface MakisTraceOptions extends MakisPlayerOptions, TraceOptions<GridSensorModel, GridHandModel> {}

/** An alert the referee is expected to raise, in the order they come. */
export interface MakisExpectedAlert {
  readonly t: number;
  readonly code: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** What really happened in a generated trace, for tests of everything downstream of the sensors. */
export interface MakisTruth {
  readonly game: 'makis';
  readonly seed: number | string;
  readonly rules: MakisOptions;
  readonly cols: number;
  readonly rows: number;
  readonly sensor: GridSensorModel;
  readonly hand: GridHandModel;
  readonly rateHz: number;
  readonly calibrationMs: number;
  /**
   * The record after take-backs, in notation, as far as the board can show it: a pass is seen only
   * when a later player's Maki or the next roll's knights move, so passes at the end are left out.
   */
  readonly record: readonly string[];
  /** The record as `spieltisch replay` reads it. */
  readonly recordText: string;
  /** The plies of the record: when the hand started and when it was done (null for a pass, which has no hand). */
  readonly moves: readonly {
    readonly ply: number;
    readonly move: string;
    readonly kind: 'place' | 'roll' | 'step' | 'pass';
    readonly player: number;
    readonly start: number | null;
    readonly end: number | null;
    /** When the last piece of the ply was set down, its resets not included (null for a pass). */
    readonly settledAt: number | null;
    /** A roll as the dice III, IV and V showed it. */
    readonly dice?: Roll;
  }[];
  /** Makis moved two squares, and how the player put it right. */
  readonly illegalAttempts: readonly {
    readonly t: number;
    readonly player: number;
    readonly from: string;
    readonly to: string;
    readonly code: string;
    readonly correction: MakisCorrection;
  }[];
  /** Knights moved for a misread roll the dice cannot make, then set right. */
  readonly misrolls: readonly { readonly t: number; readonly shown: string; readonly code: string; readonly move: string }[];
  /** Resets made only after a long pause: the referee names the first one owed. */
  readonly slowResets: readonly MakisExpectedAlert[];
  /** Take-backs: when the hands started, the move undone, and the plies left. */
  readonly takeBacks: readonly { readonly t: number; readonly moves: readonly string[]; readonly ply: number }[];
  /**
   * Moves the board cannot tell from another (a knight home with a step left over, two knights
   * on row 8): the console is asked; `move` is the answer, `options` what it is asked to choose from.
   */
  readonly questions: readonly {
    readonly t: number;
    readonly ply: number;
    readonly move: string;
    readonly options: readonly string[];
    /** Nobody at the console answers it (the people's `unanswered`): the answers file leaves it out. */
    readonly unanswered?: true;
  }[];
  /** Every alert the referee should raise, in time order. */
  readonly alerts: readonly MakisExpectedAlert[];
  /** How the game ended; null when the recording stopped mid-game (`maxRounds`). */
  readonly end: { readonly t: number; readonly reason: EndReason; readonly winner: string } | null;
  /** What the squares sense when the recording ends (occupancy 0/1), cell order. */
  readonly final: readonly number[];
  /** The engine's final position as `spieltisch replay` prints it. */
  readonly finalPosition: MakisPosition;
  readonly durationMs: number;
  readonly frames: number;
  /** The people model the trace was generated with, when the options named one. */
  readonly peopleModel?: PeopleModel;
  /** What the people did beyond their moves, in the order planned (only with a people model). */
  readonly people?: readonly PeopleTruth[];
}

export type MakisTrace = GeneratedTrace<MakisTruth>;

/**
 * Plans a game, performs it on a simulated 9 × 9 board in virtual time (as fast as the CPU goes)
 * and returns the lines the board sent, with the ground truth. Deterministic for a seed.
 */
export function generateMakisTrace(options: MakisTraceOptions): MakisTrace {
  const plan = planMakisGame(options);
  const rules = plan.options;
  const rateHz = options.rateHz ?? 20;
  const calibrationMs = options.calibrationMs ?? 3000;
  const tailMs = options.tailMs ?? 4000;
  const recording = new TraceRecording(isGridFrame);
  const table = new GridTable(
    recording.scheduler,
    { seed: options.seed, cols: SIZE, rows: SIZE, sense: 'occupancy', pieces: plan.layout, sparePieces: plan.spare, sensor: options.sensor, hand: options.hand, rateHz },
    recording.out,
  );
  const at = recording.perform(table, plan.actions, { calibrationMs, tailMs });
  const final = makisOccupancy(plan.final);
  checkBoardEnd(table.occupancy(), final);

  const moves: { -readonly [K in keyof MakisTruth['moves'][number]]: MakisTruth['moves'][number][K] }[] = [];
  const illegalAttempts: MakisTruth['illegalAttempts'][number][] = [];
  const misrolls: MakisTruth['misrolls'][number][] = [];
  const slowResets: MakisExpectedAlert[] = [];
  const takeBacks: MakisTruth['takeBacks'][number][] = [];
  const questions: MakisTruth['questions'][number][] = [];
  const unanswered = nobodyAnswers(options);
  let end: MakisTruth['end'] = null;
  for (const e of plan.events) {
    switch (e.kind) {
      case 'move': {
        moves.length = e.ply - 1; // a move at this ply replaces any taken back
        const t0 = at(e.label);
        // The passes just before it were made when this hand began.
        for (const m of moves) if (m.kind === 'pass' && m.start === null) m.start = m.end = m.settledAt = t0;
        moves.push({
          ply: e.ply,
          move: e.move,
          kind: e.moveKind,
          player: e.player,
          start: t0,
          end: at(e.endLabel),
          settledAt: settledAt(table, e.endLabel),
          ...(e.dice ? { dice: e.dice } : {}),
        });
        if (e.alike.length > 0) {
          questions.push({ t: at(e.endLabel), ply: e.ply, move: e.move, options: [e.move, ...e.alike].sort(), ...(unanswered() ? { unanswered: true as const } : {}) });
        }
        break;
      }
      case 'pass':
        moves.length = e.ply - 1;
        moves.push({ ply: e.ply, move: e.move, kind: 'pass', player: e.player, start: null, end: null, settledAt: null });
        break;
      case 'resets':
        if (e.slow) slowResets.push({ t: at(e.label), code: e.slow.code, params: e.slow.params });
        break;
      case 'illegal':
        illegalAttempts.push({ t: at(e.label), player: e.player, from: e.from, to: e.to, code: e.code, correction: e.correction });
        break;
      case 'misroll':
        misrolls.push({ t: at(e.label), shown: e.shown, code: e.code, move: e.move });
        break;
      case 'take-back':
        moves.length -= e.moves.length;
        takeBacks.push({ t: at(e.label), moves: e.moves, ply: moves.length });
        break;
      case 'end':
        end = { t: at(e.label), reason: e.reason, winner: e.winner };
        break;
      default:
        assertNever(e);
    }
  }
  checkTruthAgainstPlan(plan, end, moves);
  // Passes no later move shows are not part of what the board can tell.
  while (moves.length > 0 && moves[moves.length - 1].kind === 'pass') moves.pop();
  const record = moves.map((m) => m.move);

  const alerts: MakisExpectedAlert[] = [
    ...illegalAttempts.map((a) => ({ t: a.t, code: a.code })),
    ...misrolls.map((m) => ({ t: m.t, code: m.code })),
    ...slowResets,
  ].sort((a, b) => a.t - b.t);

  const sensor = { ...DEFAULT_GRID_SENSOR, ...options.sensor };
  const hand = { ...DEFAULT_GRID_HAND, ...options.hand };
  const truth: MakisTruth = {
    game: 'makis',
    seed: options.seed,
    rules,
    cols: SIZE,
    rows: SIZE,
    sensor,
    hand,
    rateHz,
    calibrationMs,
    record,
    recordText: formatMakisRecord(record, rules),
    moves,
    illegalAttempts,
    misrolls,
    slowResets,
    takeBacks,
    questions,
    alerts,
    end,
    final,
    finalPosition: positionJson(plan.final),
    durationMs: recording.scheduler.now,
    frames: recording.frames,
    ...peopleTruth(options, plan.people, at, (cell) => squareName(cell)),
  };
  const comments = [
    `spieltisch simulated Makis board, seed ${JSON.stringify(options.seed)}, ${rules.players} player${rules.players === 1 ? '' : 's'}, ${rules.mode}`,
    gridBoardComment(SIZE, SIZE, 'occupancy', sensor, rateHz, 'square'),
    `record ${record.join(' ')}`,
  ];
  return { trace: recording.text(comments), truth };
}

/** The record in the game record format (RULES.md): headers, then the tokens. */
export function formatMakisRecord(record: readonly string[], rules: MakisOptions): string {
  return formatRecord({ Game: 'makis', Players: String(rules.players), Options: JSON.stringify(rules) }, record, 8);
}

/**
 * The answers file for a referee console: one move per line, each the answer to the referee's
 * next question that offers it (`truth.questions`). Empty when the board showed everything.
 */
export function makisAnswersOf(truth: Pick<MakisTruth, 'questions'>): string {
  // Questions nobody at the console answers are left out.
  return truth.questions.filter((q) => q.unanswered !== true).map((q) => `${q.move}\n`).join('');
}
