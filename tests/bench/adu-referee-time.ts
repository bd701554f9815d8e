// Benchmark: Adu referee decision time with six players — every settled picture of simulated games on a 13 × 13 occupancy grid, timed one by one.
import { pathToFileURL } from 'node:url';
import { parseLine, traceEntries } from '../../firmware-bridge/index.ts';
import { AduReferee, type AduRefereeEvent } from '../../server/referee/index.ts';
import { generateAduTrace, type AduTrace } from '../../server/simulate/index.ts';

export interface AduDecisionTimes {
  readonly games: number;
  readonly decisions: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly frames: number;
  /** Mean time of a whole frame (settle stage and, now and then, a decision), µs. */
  readonly perFrameUs: number;
  /** Games whose record the referee read right (a bench that measures a wrong referee measures nothing). */
  readonly recordsRight: number;
}

/** Six players placing, moving, capturing, erring and taking back on the simulated board (generated once, outside the timing). */
function traces(games: number, firstSeed: number): AduTrace[] {
  const out: AduTrace[] = [];
  for (let g = 0; g < games; g++) out.push(generateAduTrace({ seed: firstSeed + g, rules: { players: 6 }, illegalProbability: 0.1, takeBackProbability: 0.05 }));
  return out;
}

/** Referees one trace, the console answering from the truth; every decision and every frame timed. */
function referee(trace: AduTrace, times: number[]): { frames: number; frameMs: number; right: boolean } {
  const { truth } = trace;
  const referee = new AduReferee(truth.rules);
  const decide = referee.decide.bind(referee);
  referee.decide = (picture) => {
    const start = performance.now();
    const events = decide(picture);
    times.push(performance.now() - start);
    return events;
  };
  const answers = [...truth.answers];
  const respond = (events: readonly AduRefereeEvent[]): void => {
    for (const e of events) {
      if (e.kind !== 'question') continue;
      const i = answers.findIndex((a) => e.options.includes(a));
      if (i < 0) continue;
      const result = referee.answer(e.id, answers.splice(i, 1)[0], e.t);
      if (result.ok) respond(result.events);
    }
  };
  let frames = 0;
  let frameMs = 0;
  for (const entry of traceEntries(trace.trace)) {
    const parsed = parseLine(entry.line, entry.t);
    if (parsed.kind !== 'message' || parsed.message.type !== 'grid') continue;
    const start = performance.now();
    const events = referee.frame(entry.t, { type: 'grid', bits: parsed.message.occupancy });
    frameMs += performance.now() - start;
    frames++;
    respond(events);
  }
  return { frames, frameMs, right: referee.record().join(' ') === truth.record.join(' ') };
}

export function aduRefereeDecisions(games = 8, firstSeed = 4100): AduDecisionTimes {
  const generated = traces(games, firstSeed);
  // Warm up first: the first game pays for compiling.
  referee(generated[0], []);
  const times: number[] = [];
  let frames = 0;
  let frameMs = 0;
  let recordsRight = 0;
  for (const trace of generated) {
    const run = referee(trace, times);
    frames += run.frames;
    frameMs += run.frameMs;
    if (run.right) recordsRight++;
  }
  times.sort((a, b) => a - b);
  return {
    games,
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
  const r = aduRefereeDecisions();
  const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
  console.log(`Adu referee, six players, per settled picture: mean ${us(r.meanMs)}, p99 ${us(r.p99Ms)}, max ${us(r.maxMs)} (${r.decisions} pictures, ${r.games} games, ${r.recordsRight} records right)`);
  console.log(`Adu referee, six players, per frame (settle + decide): mean ${r.perFrameUs.toFixed(1)} µs (${r.frames} frames)`);
}
