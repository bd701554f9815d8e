// Referee decision time: every settled picture of generated games, timed one by one.
import { KalahaReferee } from '../../server/referee/index.ts';
import { generateKalahaTrace } from '../../server/simulate/index.ts';
import { traceEntries, parseLine, STONE_SETS } from '../../firmware-bridge/index.ts';

export interface DecisionTimes {
  readonly decisions: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly frames: number;
  readonly perFrameUs: number;
}

export function refereeDecisions(games: number): DecisionTimes {
  const times: number[] = [];
  let frames = 0;
  let frameTime = 0;
  for (let g = 0; g < games; g++) {
    const { trace, truth } = generateKalahaTrace({ seed: 900 + g, stoneSet: STONE_SETS[g % STONE_SETS.length], illegalProbability: 0.1, takeBackProbability: 0.05 });
    const weights = [...traceEntries(trace)].flatMap((e) => {
      const parsed = parseLine(e.line);
      return parsed.kind === 'message' && parsed.message.type === 'weights' ? [{ t: e.t, cells: parsed.message.cells }] : [];
    });
    const referee = new KalahaReferee(truth.rules);
    const decide = referee.decide.bind(referee);
    referee.decide = (picture) => {
      const start = performance.now();
      const events = decide(picture);
      times.push(performance.now() - start);
      return events;
    };
    const start = performance.now();
    for (const w of weights) referee.frame(w.t, w.cells);
    frameTime += performance.now() - start;
    frames += weights.length;
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, x) => s + x, 0) / times.length;
  return {
    decisions: times.length,
    meanMs: mean,
    p99Ms: times[Math.floor(times.length * 0.99)],
    maxMs: times[times.length - 1],
    frames,
    perFrameUs: (frameTime * 1000) / frames,
  };
}
