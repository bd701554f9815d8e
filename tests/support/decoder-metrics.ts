// The referee's figures for one refereed game, as a small pure function of what really happened (the truth) and what the referee said (its events and final record): exact records, wrong moves left, corrections, stalls, needless questions, and the time from the last stone down to the move shown.

/** What the figures need of a generated game's truth (every game's truth has these fields). */
export interface FiguresTruth {
  readonly record: readonly string[];
  /** The moves of the record: when the hand reached in and was done (null for a Makis pass), and (Kalaha) when the last stone was set down. */
  readonly moves: readonly { readonly move: string; readonly start: number | null; readonly end: number | null; readonly settledAt?: number }[];
  readonly durationMs: number;
}

/** A referee event as `spieltisch referee` prints it. */
export interface FiguresEvent {
  readonly t: number;
  readonly kind: string;
  readonly [key: string]: unknown;
}

/**
 * What the board would show after the first `plies` moves of the true record and then `option`
 * (a question's option in notation), as a key to compare; null when it is no legal move there.
 */
export type PositionAfter = (plies: number, option: string) => string | null;

export interface GameFigures {
  readonly exact: boolean;
  /** Moves wrong, missing or extra in the final record: the edit distance to the true record. */
  readonly wrongMoves: number;
  readonly corrections: number;
  /** Silences of more than `STALL_MS` after a move was made (see `stallsOf`). */
  readonly stalls: number;
  readonly questions: number;
  /** Questions that stop play though every option leaves the same board. */
  readonly needlessQuestions: number;
  readonly moves: number;
  /** Per move the referee got right, ms from its last stone down to its move event (Kalaha: truth with `settledAt`). */
  readonly latencies: readonly number[];
}

/** A referee silent this long while a move made waits to be seen has stalled. */
export const STALL_MS = 10_000;

/** Events that tell the table something: a stall is the lack of all of them. */
const RESPONSES: ReadonlySet<string> = new Set(['move', 'takeback', 'alert', 'question', 'correction', 'end']);

/** Moves wrong, missing or extra: the edit distance between two records. */
export function recordDistance(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

/**
 * Stalls: for each move of the truth, from the moment it was complete (its last stone down, or
 * the hand done), the referee's next response (move, take-back, alert, question, correction,
 * end) comes more than `STALL_MS` later, or never though the trace runs on that long. A move
 * event for the move's own ply made after the hand reached in counts too, even before the last
 * stone is down. Moves waiting in the same silence make one stall. A player thinking for long is
 * no stall: nothing waits to be seen.
 */
export function stallsOf(truth: FiguresTruth, events: readonly FiguresEvent[]): number {
  const responses = events.filter((e) => RESPONSES.has(e.kind)).sort((x, y) => x.t - y.t);
  const end = Math.max(truth.durationMs, ...responses.slice(-1).map((e) => e.t));
  const silences = new Set<number>();
  truth.moves.forEach((m, i) => {
    const done = m.settledAt ?? m.end;
    if (done === null) return;
    const own = responses.find((e) => e.kind === 'move' && e.ply === i + 1 && e.t >= (m.start ?? done));
    if (own !== undefined && own.t - done <= STALL_MS) return;
    const next = responses.findIndex((e) => e.t >= done);
    if ((next < 0 ? end : responses[next].t) - done > STALL_MS) silences.add(next);
  });
  return silences.size;
}

/** Which ply a question asks about: its own `params.ply` when it says, else the last move of the truth complete by then. */
function questionPly(truth: FiguresTruth, q: FiguresEvent): number {
  const params = q.params as { ply?: unknown } | undefined;
  if (params && typeof params.ply === 'number') return params.ply;
  let ply = 0;
  truth.moves.forEach((m, i) => {
    const done = m.settledAt ?? m.end;
    if (done !== null && done <= q.t) ply = i + 1;
  });
  return Math.max(1, ply);
}

/**
 * Whether a question waits for an answer that cannot change the board: it blocks (not marked
 * `blocking: false`, no option preselected to be taken without an answer) and every option,
 * played after the moves before the one it asks about, leaves the same board.
 */
export function isNeedless(truth: FiguresTruth, q: FiguresEvent, positionAfter: PositionAfter): boolean {
  if (q.blocking === false || typeof q.preselected === 'string') return false;
  const options = Array.isArray(q.options) ? (q.options as unknown[]).filter((o): o is string => typeof o === 'string') : [];
  if (options.length < 2) return false;
  const plies = questionPly(truth, q) - 1;
  const boards = options.map((o) => positionAfter(plies, o));
  return boards.every((b) => b !== null && b === boards[0]);
}

/**
 * Latencies: for each move of the truth with `settledAt`, the referee's last move event for that
 * ply naming that move, made after the hand reached in; ms from the last stone down to it.
 */
function latenciesOf(truth: FiguresTruth, events: readonly FiguresEvent[]): number[] {
  const out: number[] = [];
  truth.moves.forEach((m, i) => {
    if (m.settledAt === undefined) return;
    let shown: number | null = null;
    for (const e of events) if (e.kind === 'move' && e.ply === i + 1 && e.move === m.move && (m.start === null || e.t >= m.start)) shown = e.t;
    if (shown !== null) out.push(shown - m.settledAt);
  });
  return out;
}

/** The figures of one game: the truth, the referee's events in order, its final record, and (for questions) the engine's boards. */
export function gameFigures(truth: FiguresTruth, events: readonly FiguresEvent[], record: readonly string[], positionAfter?: PositionAfter): GameFigures {
  const questions = events.filter((e) => e.kind === 'question');
  const wrongMoves = recordDistance(record, truth.record);
  return {
    exact: wrongMoves === 0,
    wrongMoves,
    corrections: events.filter((e) => e.kind === 'correction').length,
    stalls: stallsOf(truth, events),
    questions: questions.length,
    needlessQuestions: positionAfter ? questions.filter((q) => isNeedless(truth, q, positionAfter)).length : 0,
    moves: truth.record.length,
    latencies: latenciesOf(truth, events),
  };
}

/** The figures of many games together. */
export interface FiguresSummary {
  readonly games: number;
  readonly exact: number;
  readonly wrongMoves: number;
  readonly corrections: number;
  readonly stalls: number;
  readonly questions: number;
  readonly needlessPer100Moves: number;
  readonly moves: number;
  readonly latencyP50: number | null;
  readonly latencyP99: number | null;
}

/** The `p`-th percentile (0–100) of sorted numbers, the nearest rank. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(games: readonly GameFigures[]): FiguresSummary {
  const sum = (f: (g: GameFigures) => number) => games.reduce((n, g) => n + f(g), 0);
  const moves = sum((g) => g.moves);
  const latencies = games.flatMap((g) => g.latencies).sort((a, b) => a - b);
  return {
    games: games.length,
    exact: games.filter((g) => g.exact).length,
    wrongMoves: sum((g) => g.wrongMoves),
    corrections: sum((g) => g.corrections),
    stalls: sum((g) => g.stalls),
    questions: sum((g) => g.questions),
    needlessPer100Moves: moves === 0 ? 0 : (100 * sum((g) => g.needlessQuestions)) / moves,
    moves,
    latencyP50: percentile(latencies, 50),
    latencyP99: percentile(latencies, 99),
  };
}
