// The referee's figures over generated games of all four games at three levels of the people model (issue 16, item 6): records exactly right, wrong moves left, corrections, stalls, needless questions per 100 moves, referee time per frame, and (Kalaha) the time from the last stone down to the move shown.
//   node bin/run-ts.js tests/bench/decoder-figures.ts      (BENCH_GAMES=200 games per game and level; BENCH_LEVELS=calm,harsh:1,harsh:2; BENCH_FIGURE_GAMES=kalaha,malawi,makis,adu)
// The traces are refereed as `spieltisch referee` does it (the table kits' `refereeTrace`), the
// console's answers from the truth as `--answers` gives them, less the share of questions the
// people model leaves unanswered.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random } from '../../firmware-bridge/index.ts';
import { games, kalaha, malawi, adu, type GameName } from '../../server/rules/index.ts';
import { tables } from '../../server/tables/index.ts';
import { aduAnswersOf, answersOf, makisAnswersOf, makisOccupancy, type PeopleModel } from '../../server/simulate/index.ts';
import { peopleOption } from '../../server/commands/options.ts';
import { AduReferee, KalahaReferee, MakisReferee, MalawiReferee } from '../../server/referee/index.ts';
import { gameFigures, summarize, type FiguresEvent, type FiguresSummary, type FiguresTruth, type GameFigures, type PositionAfter } from '../support/decoder-metrics.ts';

export const FIGURE_GAMES: readonly GameName[] = ['kalaha', 'malawi', 'makis', 'adu'];

export interface FiguresRow extends FiguresSummary {
  readonly game: GameName;
  readonly level: string;
  readonly frames: number;
  /** Referee time per frame (its `frame` call), µs. */
  readonly frameP50Us: number;
  readonly frameP99Us: number;
  readonly frameMaxUs: number;
  /** Wall time to generate the traces and to referee them, ms. */
  readonly generateMs: number;
  readonly refereeMs: number;
}

/** Per-frame times in a histogram of whole µs (every frame of hundreds of games is too many to keep). */
class FrameTimes {
  private readonly buckets = new Uint32Array(100_001);
  count = 0;
  max = 0;

  add(us: number): void {
    this.buckets[Math.min(this.buckets.length - 1, Math.floor(us))]++;
    this.count++;
    if (us > this.max) this.max = us;
  }

  percentile(p: number): number {
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= rank) return i + 1; // the bucket's upper edge: "under i + 1 µs"
    }
    return this.max;
  }
}

/**
 * Times every `frame` call of the four referees into `times` while `run` runs (the kits build
 * their referees inside `refereeTrace`, so the timing goes on the classes).
 */
function timingFrames<T>(times: FrameTimes, run: () => T): T {
  const classes = [KalahaReferee, MalawiReferee, MakisReferee, AduReferee] as unknown as { prototype: Record<string, unknown> }[];
  const originals = classes.map((c) => c.prototype.frame);
  classes.forEach((c, i) => {
    const frame = originals[i];
    if (typeof frame !== 'function') return;
    c.prototype.frame = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      const out = (frame as (...a: unknown[]) => unknown).apply(this, args);
      times.add((performance.now() - start) * 1000);
      return out;
    };
  });
  try {
    return run();
  } finally {
    classes.forEach((c, i) => (c.prototype.frame = originals[i]));
  }
}

/** What the board shows after a prefix of the true record and one more move, by the game's engine. */
function positionOracle(game: GameName, truth: { record: readonly string[]; rules: unknown; sense?: string }): PositionAfter {
  const def = games[game]!;
  const states: unknown[] = [def.initial(truth.rules)];
  for (const token of truth.record) {
    const prev = states[states.length - 1];
    const move = def.parseMove(token, prev);
    const next = move.ok ? def.play(prev, move.value) : move;
    if (!next.ok) break;
    states.push(next.value);
  }
  const show = (state: unknown): string => {
    switch (game) {
      case 'kalaha':
        return kalaha.observe(state as kalaha.KalahaState).join(' ');
      case 'malawi':
        return (truth.sense === 'count' ? malawi.observeCounts : malawi.observe)(state as malawi.MalawiState).join(' ');
      case 'makis':
        return makisOccupancy(state as Parameters<typeof makisOccupancy>[0]).join('');
      case 'adu':
        return adu.observe(state as adu.AduState).join('');
    }
  };
  return (plies, option) => {
    const state = states[plies];
    if (state === undefined) return null;
    const move = def.parseMove(option, state);
    if (!move.ok) return null;
    const next = def.play(state, move.value);
    return next.ok ? show(next.value) : null;
  };
}

/** The console's answers file from the truth, each plain answer (a question answered) left out with the `unanswered` chance. */
function answersFile(game: GameName, truth: never, unanswered: number, rng: Random): string | undefined {
  let text: string;
  if (game === 'malawi') text = answersOf(truth);
  else if (game === 'makis') text = makisAnswersOf(truth);
  else if (game === 'adu') text = aduAnswersOf(truth);
  else return undefined;
  return text
    .split('\n')
    .filter((line) => !(line && !/^\d+ /.test(line) && unanswered > 0 && rng.chance(unanswered)))
    .join('\n');
}

export function decoderFigures(game: GameName, level: string, count: number, firstSeed = 1): FiguresRow {
  const people: Partial<PeopleModel> | undefined = level === 'calm' ? undefined : peopleOption(level);
  const unanswered = people?.unanswered ?? 0;
  const kit = tables[game].withRules({});
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-figures-'));
  const times = new FrameTimes();
  const figures: GameFigures[] = [];
  let generateMs = 0;
  let refereeMs = 0;
  try {
    for (let g = 0; g < count; g++) {
      const seed = firstSeed + g;
      const t0 = performance.now();
      const generated = kit.generateTrace({ seed, illegal: 0.1, takebacks: 0.05, sense: 'count', people });
      const truth = JSON.parse(generated.truth) as FiguresTruth & { rules: unknown; sense?: string };
      // The square boards' people leave their unanswered questions out of the truth's answers already.
      const leftOut = 'people' in truth && Array.isArray((truth as { people?: unknown }).people) ? 0 : unanswered;
      const answers = answersFile(game, truth as never, leftOut, new Random(seed).fork('unanswered'));
      let file: string | undefined;
      if (answers !== undefined) {
        file = join(dir, `${seed}.answers`);
        writeFileSync(file, answers);
      }
      const t1 = performance.now();
      const events: FiguresEvent[] = [];
      const run = timingFrames(times, () => kit.refereeTrace(generated.trace, file, (e) => events.push(e as FiguresEvent)));
      const t2 = performance.now();
      generateMs += t1 - t0;
      refereeMs += t2 - t1;
      figures.push(gameFigures(truth, events, run.record, positionOracle(game, truth)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    game,
    level,
    ...summarize(figures),
    frames: times.count,
    frameP50Us: times.percentile(50),
    frameP99Us: times.percentile(99),
    frameMaxUs: Math.round(times.max),
    generateMs: Math.round(generateMs),
    refereeMs: Math.round(refereeMs),
  };
}

/** The rows as a Markdown table, as the note of issue 16 wants them. */
export function figuresTable(rows: readonly FiguresRow[]): string {
  const ms = (x: number | null) => (x === null ? '–' : `${Math.round(x)}`);
  const lines = [
    '| game | people | games exact | wrong moves left | corrections | stalls | questions (needless per 100 moves) | frame p50 / p99 / max µs | last stone → move p50 / p99 ms | time gen + ref s |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.game} | ${r.level} | ${r.exact} of ${r.games} | ${r.wrongMoves} (of ${r.moves}) | ${r.corrections} | ${r.stalls} | ${r.questions} (${r.needlessPer100Moves.toFixed(2)}) | ${r.frameP50Us} / ${r.frameP99Us} / ${r.frameMaxUs} | ${r.game === 'kalaha' ? `${ms(r.latencyP50)} / ${ms(r.latencyP99)}` : '–'} | ${(r.generateMs / 1000).toFixed(0)} + ${(r.refereeMs / 1000).toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}

/** What the environment asks for: games per game and level, the levels, the games. */
export function figuresSettings(env: NodeJS.ProcessEnv = process.env): { count: number; levels: string[]; games: GameName[] } {
  const count = Number(env.BENCH_GAMES ?? 200);
  const levels = (env.BENCH_LEVELS ?? 'calm,harsh:1,harsh:2').split(',').filter(Boolean);
  const chosen = (env.BENCH_FIGURE_GAMES ?? FIGURE_GAMES.join(',')).split(',').filter((g): g is GameName => (FIGURE_GAMES as readonly string[]).includes(g));
  return { count: Number.isInteger(count) && count > 0 ? count : 200, levels, games: chosen };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { count, levels, games: chosen } = figuresSettings();
  const rows: FiguresRow[] = [];
  const start = performance.now();
  for (const game of chosen) {
    for (const level of levels) {
      rows.push(decoderFigures(game, level, count));
      console.error(`${game} ${level}: done after ${Math.round((performance.now() - start) / 1000)} s`);
    }
  }
  console.log(figuresTable(rows));
  console.log(`\n${count} games per game and level, ${Math.round((performance.now() - start) / 1000)} s in all`);
}
