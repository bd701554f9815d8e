// Generated Kalaha sensor traces with their ground truth: a planned game performed on the simulated table in virtual time.
import { DEFAULT_HAND, DEFAULT_SENSOR, KalahaTable, Random, type HandModel, type SensorModel, type StoneSet } from '../../firmware-bridge/index.ts';
import { PITS, observe, type EndReason, type KalahaOptions, type Side } from '../rules/kalaha.ts';
import { assertNever } from '../rules/types.ts';
import { planKalahaGame, type CaptureStyle, type KalahaHandling, type KalahaPlayerOptions } from './kalaha-player.ts';
import { peopleWith, type PeopleModel } from './people.ts';
import { TraceRecording, checkBoardEnd, checkTruthAgainstPlan, type GeneratedTrace, type TraceOptions } from './trace-common.ts';

/** The referee calibrates the stone weight while the table stands still (`calibrationMs`); the tail follows the last stone swept. */
export interface KalahaTraceOptions extends KalahaPlayerOptions, TraceOptions<SensorModel, HandModel> {
  readonly stoneSet?: StoneSet;
}

/** What really happened in a generated trace, for tests of everything downstream of the sensors. */
export interface KalahaTruth {
  readonly game: 'kalaha';
  readonly seed: number | string;
  readonly rules: KalahaOptions;
  readonly stoneSet: StoneSet;
  /** Every stone's weight in grams, in the order they were placed (pit A's first). */
  readonly stoneGrams: readonly number[];
  readonly meanStoneGrams: number;
  readonly sensor: SensorModel;
  readonly hand: HandModel;
  readonly rateHz: number;
  readonly calibrationMs: number;
  /** The record after take-backs, in notation. */
  readonly record: readonly string[];
  /** The record as `spieltisch replay` reads it. */
  readonly recordText: string;
  /**
   * The moves of the record: when the hand lifted the pit, when the hand was done (`end`), and
   * when the last stone of the move (its capture included) was set down (`settledAt`).
   */
  readonly moves: readonly {
    readonly ply: number;
    readonly move: string;
    readonly side: Side;
    readonly start: number;
    readonly end: number;
    readonly settledAt: number;
    readonly captured: number;
    readonly captureStyle: CaptureStyle | null;
    /** What the people model did to the move, when it did anything (a resting hand's `t` is when it began). */
    readonly handling?: Omit<KalahaHandling, 'rest'> & { readonly rest?: { readonly t: number; readonly cell: number; readonly grams: number; readonly ms: number } };
  }[];
  readonly illegalAttempts: readonly { readonly t: number; readonly pit: string; readonly side: Side; readonly code: string; readonly partial: boolean }[];
  /** Take-backs: when the hands started, and the moves undone (last first). */
  readonly takeBacks: readonly { readonly t: number; readonly moves: readonly string[] }[];
  /** How the game ended; null when the recording stopped mid-game (`maxMoves`). */
  readonly end: { readonly t: number; readonly reason: EndReason; readonly winner: Side | 'draw' } | null;
  /** Stones per cell when the recording ends (after a finished game: all pits empty, the stores full), sensor order. */
  readonly final: readonly number[];
  /** Grams per cell at the end. */
  readonly finalGrams: readonly number[];
  readonly durationMs: number;
  readonly frames: number;
  /** The people model, when the trace was made with one (`people` given). */
  readonly people?: PeopleModel;
  /** Then: the bursts of lines lost on the way (no line of the table arrived from `t` for `ms`). */
  readonly lineGaps?: readonly { readonly t: number; readonly ms: number }[];
}

export type KalahaTrace = GeneratedTrace<KalahaTruth>;

/** Whether a line of the table is a frame (`W …`), as against HELLO, heartbeats and answers. */
function isWeightFrame(line: string): boolean {
  return line.charCodeAt(0) === 0x57 /* W */;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Plans a game, performs it on a simulated table in virtual time (as fast as the CPU goes) and
 * returns the lines the table sent, with the ground truth. Deterministic for a seed.
 */
export function generateKalahaTrace(options: KalahaTraceOptions): KalahaTrace {
  const plan = planKalahaGame(options);
  const stoneSet = options.stoneSet ?? 'acorns';
  const rateHz = options.rateHz ?? 20;
  const calibrationMs = options.calibrationMs ?? 3000;
  const tailMs = options.tailMs ?? 3000;
  const recording = new TraceRecording(isWeightFrame);
  // With a people model, lines may be lost on the way: they are held back until the gaps are known.
  const sent: { line: string; t: number }[] = [];
  const table = new KalahaTable(
    recording.scheduler,
    { seed: options.seed, stoneSet, seedsPerPit: plan.options.seedsPerPit, sensor: options.sensor, hand: options.hand, rateHz },
    options.people === undefined ? recording.out : (line, t) => sent.push({ line, t }),
  );
  const landings: number[] = [];
  table.onLand = (_cell, _stones, t) => landings.push(t);
  const stoneGrams = Array.from({ length: 12 }, (_, c) => table.stonesIn(c).map((s) => s.grams)).flat();
  const at = recording.perform(table, plan.actions, { calibrationMs, tailMs });
  /** When the last stone set down by `t` landed. */
  const lastLandingBy = (t: number): number => {
    let lo = 0;
    let hi = landings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (landings[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? landings[lo - 1] : t;
  };
  const final = observe(plan.final);
  checkBoardEnd(table.counts(), final);

  const moves: KalahaTruth['moves'][number][] = [];
  const illegalAttempts: KalahaTruth['illegalAttempts'][number][] = [];
  const takeBacks: KalahaTruth['takeBacks'][number][] = [];
  let end: KalahaTruth['end'] | null = null;
  for (const e of plan.events) {
    switch (e.kind) {
      case 'move':
      {
        moves.length = e.ply - 1; // a move at this ply replaces any taken back
        const end = at(e.endLabel);
        const { rest, ...handling } = e.handling ?? {};
        moves.push({
          ply: e.ply,
          move: e.move,
          side: e.side,
          start: at(e.label),
          end,
          settledAt: lastLandingBy(end),
          captured: e.captures.reduce((n, c) => n + c.stones, 0),
          captureStyle: e.captureStyle,
          ...(e.handling ? { handling: { ...handling, ...(rest ? { rest: { t: at(rest.label), cell: rest.cell, grams: rest.grams, ms: rest.ms } } : {}) } } : {}),
        });
        break;
      }
      case 'illegal':
        illegalAttempts.push({ t: at(e.label), pit: e.pit, side: e.side, code: e.code, partial: e.partial });
        break;
      case 'take-back':
        takeBacks.push({ t: at(e.label), moves: e.moves });
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
  const people = options.people === undefined ? undefined : peopleWith(options.people);
  const lineGaps = people === undefined ? [] : loseLines(people, new Random(options.seed).fork('lines'), moves, sent, recording.out);

  const rules = plan.options;
  const sensor = { ...DEFAULT_SENSOR, ...options.sensor };
  const hand = { ...DEFAULT_HAND, ...options.hand };
  const truth: KalahaTruth = {
    game: 'kalaha',
    seed: options.seed,
    rules,
    stoneSet,
    stoneGrams,
    meanStoneGrams: round2(stoneGrams.reduce((a, b) => a + b, 0) / stoneGrams.length),
    sensor,
    hand,
    rateHz,
    calibrationMs,
    record: plan.record,
    recordText: formatRecordText(plan.record, rules),
    moves,
    illegalAttempts,
    takeBacks,
    end,
    final,
    finalGrams: table.cellGrams().map(round2),
    durationMs: recording.scheduler.now,
    frames: recording.frames,
    ...(people === undefined ? {} : { people, lineGaps }),
  };
  const comments = [
    `spieltisch simulated Kalaha table, seed ${JSON.stringify(options.seed)}`,
    `stones ${stoneSet} (${stoneGrams.length}, mean ${truth.meanStoneGrams} g), noise ${sensor.noiseGrams} g, drift ${sensor.driftGramsPerMinute} g/min, glitch rate ${sensor.glitchRate}, ${rateHz} Hz`,
    `record ${plan.record.join(' ')}`,
  ];
  return { trace: recording.text(comments), truth };
}

/**
 * Passes the lines the table sent on to `out`, except those lost in gaps: per move, with the
 * model's `lineGap` chance, a burst of `lineGapMs` somewhere between the hand reaching in and a
 * moment after the last stone is down. Returns the gaps.
 */
function loseLines(
  people: PeopleModel,
  rng: Random,
  moves: readonly { readonly start: number; readonly settledAt: number }[],
  sent: readonly { readonly line: string; readonly t: number }[],
  out: (line: string, t: number) => void,
): { t: number; ms: number }[] {
  const gaps: { t: number; ms: number }[] = [];
  for (const m of moves) {
    if (people.lineGap <= 0 || !rng.chance(people.lineGap)) continue;
    gaps.push({ t: Math.round(rng.range(m.start, m.settledAt + 300)), ms: Math.round(rng.range(people.lineGapMs[0], people.lineGapMs[1])) });
  }
  gaps.sort((x, y) => x.t - y.t);
  let g = 0;
  for (const { line, t } of sent) {
    while (g < gaps.length && t >= gaps[g].t + gaps[g].ms) g++;
    if (g < gaps.length && t >= gaps[g].t) continue;
    out(line, t);
  }
  return gaps;
}

/** The record in the game record format (RULES.md): headers, then numbered moves. */
export function formatRecordText(record: readonly string[], rules: KalahaOptions): string {
  const moves: string[] = [];
  for (let i = 0; i < record.length; i += 2) moves.push(`${i / 2 + 1}. ${record.slice(i, i + 2).join(' ')}`);
  // JSON goes into a header value as written (the record format reads up to `"]`).
  return `[Game "kalaha"]\n[Options "${JSON.stringify(rules)}"]\n\n${moves.join(' ')}\n`;
}

/** The letter of a pit, for truth readers who hold a pit index. */
export function pitLetter(pit: number): string {
  return PITS[pit];
}
