// What every game's trace generator shares: its options, the board's lines recorded while the plan is performed in virtual time, the truth checked against the plan (take-backs and console questions included), the trace file's text.
import { Scheduler, formatTraceLine, type CommonAction, type GridSensorModel, type SenseKind, type SimulatedFirmware } from '../../firmware-bridge/index.ts';
import { performInVirtualTime } from './perform.ts';
import { Random } from '../../firmware-bridge/index.ts';
import type { PeopleBehaviour, PeoplePlanEvent, TakeBackPlanEvent } from './player-common.ts';
import { peopleWith, type PeopleModel } from './people.ts';

/** What a trace generator adds to its players' options: the board's sensors and the hand (defaults for what is left out), its scan rate, and how long it stands still. */
export interface TraceOptions<Sensor, Hand> {
  readonly sensor?: Partial<Sensor>;
  readonly hand?: Partial<Hand>;
  readonly rateHz?: number;
  /** The board stands still this long before the first move, in the position the game starts from, so the referee can calibrate. */
  readonly calibrationMs?: number;
  /** And this long after the last move. */
  readonly tailMs?: number;
  /** How the people behave beyond their moves (people.ts); the calm first model when left out. */
  readonly people?: Partial<PeopleModel>;
}

/** A generated trace: the trace file's text (`#` comment lines, then `<ms> <line>` per line) and what really happened in it. */
export interface GeneratedTrace<Truth> {
  readonly trace: string;
  readonly truth: Truth;
}

/** Whether a line of a square board is a frame (`G …` or `C …`), as against HELLO, heartbeats and answers. */
export function isGridFrame(line: string): boolean {
  const c0 = line.charCodeAt(0);
  return (c0 === 0x47 /* G */ || c0 === 0x43) /* C */ && line.charCodeAt(1) === 0x20;
}

/** The lines a simulated board sends, stamped with their virtual time, while a plan is performed on it. */
export class TraceRecording {
  readonly scheduler = new Scheduler();
  /** How many of the lines were frames. */
  frames = 0;
  private readonly lines: string[] = [];

  constructor(private readonly isFrame: (line: string) => boolean) {}

  /** Where the board sends its lines. */
  readonly out = (line: string, t: number): void => {
    if (this.isFrame(line)) this.frames++;
    this.lines.push(formatTraceLine(t, line));
  };

  /**
   * Performs the plan's actions on `board` (built with `scheduler` and `out`), the board standing
   * still `calibrationMs` before and `tailMs` after; returns when each mark was reached.
   */
  perform<Action extends { readonly kind: string }>(
    board: SimulatedFirmware<Action | CommonAction>,
    actions: readonly Action[],
    still: { readonly calibrationMs: number; readonly tailMs: number },
  ): (label: string) => number {
    return performInVirtualTime(board, this.scheduler, [{ kind: 'wait', ms: still.calibrationMs }, ...actions, { kind: 'wait', ms: still.tailMs }]);
  }

  /** The trace file's text: a `#` line per comment, then `<ms> <line>` per line sent. */
  text(comments: readonly string[]): string {
    return comments.map((c) => `# ${c}\n`).join('') + this.lines.join('');
  }
}

/** Throws unless the board's sensors end where the engine's position says they must. */
export function checkBoardEnd(sensed: readonly number[], engine: readonly number[]): void {
  if (sensed.length !== engine.length || sensed.some((x, i) => x !== engine[i])) throw new Error(`the board ends at ${sensed.join(' ')}, the engine at ${engine.join(' ')}`);
}

/** Throws unless the truth read from the plan's events ends as the plan does, with the moves of its record. */
export function checkTruthAgainstPlan(
  plan: { readonly final: { readonly outcome: unknown }; readonly record: readonly string[] },
  end: unknown,
  moves: readonly { readonly move: string }[],
): void {
  if ((end === null) !== (plan.final.outcome === null)) throw new Error('the plan and the engine disagree about the end');
  if (moves.map((m) => m.move).join(' ') !== plan.record.join(' ')) throw new Error('truth moves and record disagree');
}

/** A trace's comment on a square board: its size, what it senses and how its sensors err. `cell` is the game's word for what a sensor sits under. */
export function gridBoardComment(cols: number, rows: number, sense: SenseKind, sensor: GridSensorModel, rateHz: number, cell: 'square' | 'point'): string {
  const flaky = sensor.flakyCell === null ? 'none' : `${sensor.flakyCell} (rate ${sensor.flakyRate})`;
  return `${cols}x${rows} ${sense}, flicker rate ${sensor.flickerRate}, flaky ${cell} ${flaky}, reach ${sensor.reach}, ${rateHz} Hz`;
}

/** A take-back as the truth tells it: when the hands started, the moves undone (last first), the plies left, and when the next thing at the table began. */
export interface TakeBackTruth {
  readonly t: number;
  readonly moves: readonly string[];
  readonly ply: number;
  readonly until: number | null;
}

/** The truth of a take-back in a record of `plies` moves; `later` are the plan's events after it. */
export function takeBackTruth(
  takeBack: TakeBackPlanEvent,
  later: readonly object[],
  at: (label: string) => number,
  plies: number,
): TakeBackTruth {
  const next = later.find((e): e is { readonly label: string } => 'label' in e);
  return { t: at(takeBack.label), moves: takeBack.moves, ply: plies - takeBack.moves.length, until: next === undefined ? null : at(next.label) };
}

/**
 * The questions a referee console is asked about moves, in the order asked. One whose move the
 * players later take back is marked so, and stays: the console was asked all the same.
 */
export class ConsoleQuestions<Question extends { takenBack: boolean }> {
  readonly asked: Question[] = [];
  /** The questions about each ply of the record as it stands. */
  private readonly byPly = new Map<number, Question[]>();

  /** A move is made at `ply`: questions about that ply or later were about moves no longer in the record. */
  played(ply: number): void {
    for (const p of this.byPly.keys()) if (p >= ply) this.byPly.delete(p);
  }

  ask(ply: number, question: Question): void {
    this.asked.push(question);
    this.byPly.set(ply, [...(this.byPly.get(ply) ?? []), question]);
  }

  /** The last `count` moves of a record of `plies` are taken back. */
  takeBack(plies: number, count: number): void {
    for (let ply = plies; ply > plies - count; ply--) {
      for (const q of this.byPly.get(ply) ?? []) q.takenBack = true;
      this.byPly.delete(ply);
    }
  }
}

/** What the people did beyond their moves, as the truth tells it (see `PeoplePlanEvent`): when it began, on which squares. */
export interface PeopleTruth {
  readonly t: number;
  readonly behaviour: PeopleBehaviour;
  readonly ply: number;
  /** The squares in the board's cell order (the trace's), and by name. */
  readonly cells: readonly number[];
  readonly squares: readonly string[];
  readonly ms: number | null;
}

/** The people's part of a truth: the model they followed and what they did; nothing when the options named no people (the truth stays as it was). */
export function peopleTruth(
  options: { readonly people?: Partial<PeopleModel> },
  events: readonly PeoplePlanEvent[],
  at: (label: string) => number,
  name: (cell: number) => string,
): { readonly peopleModel?: PeopleModel; readonly people?: readonly PeopleTruth[] } {
  if (options.people === undefined) return {};
  return {
    peopleModel: peopleWith(options.people),
    people: events.map((e) => ({ t: at(e.label), behaviour: e.behaviour, ply: e.ply, cells: e.cells, squares: e.cells.map(name), ms: e.ms })),
  };
}

/**
 * Whether nobody answers the console's next question: drawn per question with the people's
 * `unanswered` rate, from a stream of its own (the players' game and hands stay the same).
 */
export function nobodyAnswers(options: { readonly seed: number | string; readonly people?: Partial<PeopleModel> }): () => boolean {
  if (options.people === undefined) return () => false;
  const rate = peopleWith(options.people).unanswered;
  const rng = new Random(options.seed).fork('console');
  return () => rng.chance(rate);
}

/** When the last piece of a move was set down (or its last bead moved): what rested on the squares last changed before the mark at its end. */
export function settledAt(table: { settledAt(label: string): number | undefined }, endLabel: string): number {
  const t = table.settledAt(endLabel);
  if (t === undefined) throw new Error(`mark ${endLabel} was never reached`);
  return t;
}
