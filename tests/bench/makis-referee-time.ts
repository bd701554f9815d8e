// Benchmark: Makis — whole simulated games per second (plan, hands and sensors in virtual time, the trace written), and the referee's decision time for every settled picture of those games, timed one by one.
import { pathToFileURL } from 'node:url';
import { parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { MakisReferee } from '../../server/referee/index.ts';
import { generateMakisTrace, type MakisTrace, type MakisTraceOptions } from '../../server/simulate/index.ts';

export interface MakisSimulationSpeed {
  readonly games: number;
  readonly plies: number;
  readonly gamesPerSecond: number;
  readonly pliesPerSecond: number;
  /** Virtual time simulated per second of real time. */
  readonly speedup: number;
}

export interface MakisDecisionTimes {
  readonly games: number;
  readonly decisions: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly frames: number;
  /** Mean time of a whole frame (settle stage and, now and then, a decision), µs. */
  readonly perFrameUs: number;
  /** Games whose record the referee read exactly as played. */
  readonly recordsRight: number;
}

/** Games of 1 to 5 players to the end, with the mistakes a table makes now and then. */
function optionsFor(g: number): MakisTraceOptions {
  return { seed: 900 + g, rules: { players: 1 + (g % 5) }, illegalProbability: 0.1, takeBackProbability: 0.05, slowResetProbability: 0.1 };
}

export function makisSimulationSpeed(games = 10): MakisSimulationSpeed & { traces: MakisTrace[] } {
  const traces: MakisTrace[] = [];
  const start = performance.now();
  for (let g = 0; g < games; g++) traces.push(generateMakisTrace(optionsFor(g)));
  const seconds = (performance.now() - start) / 1000;
  const plies = traces.reduce((n, t) => n + t.truth.record.length, 0);
  const virtual = traces.reduce((n, t) => n + t.truth.durationMs, 0) / 1000;
  return { games, plies, gamesPerSecond: games / seconds, pliesPerSecond: plies / seconds, speedup: virtual / seconds, traces };
}

export function makisRefereeDecisions(traces: readonly MakisTrace[]): MakisDecisionTimes {
  const times: number[] = [];
  let frames = 0;
  let frameMs = 0;
  let recordsRight = 0;
  for (const { trace, truth } of traces) {
    // Lines are parsed before the clock starts: the bridge's work is not the referee's.
    const input: { t: number; bits: bigint }[] = [];
    for (const entry of traceEntries(trace)) {
      const parsed = parseLine(entry.line);
      if (parsed.kind === 'message' && parsed.message.type === 'grid') input.push({ t: entry.t, bits: parsed.message.occupancy });
    }
    const referee = new MakisReferee(truth.rules);
    const decide = referee.decide.bind(referee);
    referee.decide = (picture) => {
      const start = performance.now();
      const events = decide(picture);
      times.push(performance.now() - start);
      return events;
    };
    const answers = truth.questions.map((q) => q.move);
    for (const { t, bits } of input) {
      const start = performance.now();
      const events = referee.frame(t, { type: 'grid', bits });
      frameMs += performance.now() - start;
      frames++;
      for (const e of events) if (e.kind === 'question' && answers.length) referee.answer(e.id, answers.shift() as string, t);
    }
    if (referee.record().join(' ') === truth.record.join(' ')) recordsRight++;
  }
  times.sort((a, b) => a - b);
  return {
    games: traces.length,
    decisions: times.length,
    meanMs: times.reduce((s, x) => s + x, 0) / times.length,
    p99Ms: times[Math.floor(times.length * 0.99)],
    maxMs: times[times.length - 1],
    frames,
    perFrameUs: (frameMs * 1000) / frames,
    recordsRight,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Warm up first: the first games pay for compiling.
  makisRefereeDecisions(makisSimulationSpeed(3).traces);
  const sim = makisSimulationSpeed(20);
  console.log(
    `Makis simulated games (1–5 players, to the end): ${sim.gamesPerSecond.toFixed(1)} games/s, ${Math.round(sim.pliesPerSecond)} plies/s, ${Math.round(sim.speedup)}× real time (${sim.games} games, ${sim.plies} plies)`,
  );
  const r = makisRefereeDecisions(sim.traces);
  const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
  console.log(`Makis referee, per settled picture: mean ${us(r.meanMs)}, p99 ${us(r.p99Ms)}, max ${us(r.maxMs)} (${r.decisions} pictures)`);
  console.log(`Makis referee, per frame (settle + decide): mean ${r.perFrameUs.toFixed(1)} µs (${r.frames} frames)`);
  console.log(`Makis referee, records read exactly: ${r.recordsRight}/${r.games} games`);
}
