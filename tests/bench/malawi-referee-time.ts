// Benchmark: Malawi referee decision time — every settled picture of seeded random games, on occupancy and counting boards, timed one by one.
import { pathToFileURL } from 'node:url';
import { MalawiReferee, type GridPicture } from '../../server/referee/index.ts';
import { bitsOf } from '../../server/referee/squares.ts';
import { DEFAULT_OPTIONS, initial, legalMoves, play, type MalawiMove, type MalawiState } from '../../server/rules/malawi.ts';
import { formatMove } from '../../server/rules/malawi-notation.ts';
import { mulberry32 as seeded } from '../support/prng.ts';

export interface MalawiDecisionTimes {
  readonly decisions: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly frames: number;
  /** Mean time of a whole frame (settle stage and, now and then, a decision), µs. */
  readonly perFrameUs: number;
}

const FRAME_MS = 50;


/** Random play that first picks a kind of move, so distributions (the most numerous) do not crowd out moving. */
function randomMove(state: MalawiState, random: () => number): MalawiMove {
  const moves = legalMoves(state);
  const kinds = [...new Set(moves.map((m) => m.kind))];
  const kind = random() < 0.6 && kinds.includes('move') ? 'move' : kinds[Math.floor(random() * kinds.length)];
  const ofKind = moves.filter((m) => m.kind === kind);
  return ofKind[Math.floor(random() * ofKind.length)];
}

/**
 * One game on a board that senses occupancy or counts: a hand lifts a piece, sometimes holds it
 * long enough for the picture to settle, puts it down; on a counting board beads come off and go
 * on one at a time. An occupancy board's captures and distributions are entered on the console.
 */
function playGame(seed: number, counting: boolean, time: (referee: MalawiReferee) => void): { frames: number; frameMs: number } {
  const random = seeded(seed);
  const referee = new MalawiReferee(DEFAULT_OPTIONS);
  time(referee);
  let state = initial(DEFAULT_OPTIONS);
  const cells = state.squares.map((p) => (p === null ? 0 : 1 + p.strength));
  let t = 0;
  let frames = 0;
  let frameMs = 0;
  const wait = (ms: number) => {
    for (let k = 0; k < ms / FRAME_MS; k++, t += FRAME_MS) {
      const values = cells.slice();
      if (random() < 0.02) values[Math.floor(random() * values.length)] ^= 1; // a glitch
      const picture: GridPicture = counting ? { type: 'counts', counts: values } : { type: 'grid', bits: bitsOf(values) };
      const start = performance.now();
      referee.frame(t, picture);
      frameMs += performance.now() - start;
      frames++;
    }
  };
  wait(1000);
  for (let ply = 0; ply < 80 && state.outcome === null; ply++) {
    const move = randomMove(state, random);
    switch (move.kind) {
      case 'move':
        cells[move.to] = cells[move.from];
        cells[move.from] = 0;
        wait(random() < 0.3 ? 800 : 150); // a piece held in the air, now and then long enough to settle
        break;
      case 'capture':
        if (!counting) referee.enter(formatMove(move, DEFAULT_OPTIONS.size), t);
        cells[move.to] = 1;
        break;
      case 'distribute':
        if (!counting) referee.enter(formatMove(move, DEFAULT_OPTIONS.size), t);
        cells[move.from] = 1;
        for (const r of move.recipients) {
          wait(200);
          cells[r]++;
        }
        break;
    }
    const next = play(state, move);
    if (!next.ok) throw new Error(`random play chose an illegal move: ${next.error.message}`);
    state = next.value;
    wait(move.kind === 'distribute' ? 3500 : 700);
    // A capture two pieces could have made: the console answers from the truth.
    const question = referee.openQuestions()[0];
    if (question) referee.answer(question.id, formatMove(move, DEFAULT_OPTIONS.size), t);
  }
  if (referee.record().length !== state.plies) throw new Error(`the referee saw ${referee.record().length} of ${state.plies} moves (seed ${seed})`);
  return { frames, frameMs };
}

export function malawiRefereeDecisions(games = 20): MalawiDecisionTimes {
  const times: number[] = [];
  let frames = 0;
  let frameMs = 0;
  const time = (referee: MalawiReferee): void => {
    const decide = referee.decide.bind(referee);
    referee.decide = (picture) => {
      const start = performance.now();
      const events = decide(picture);
      times.push(performance.now() - start);
      return events;
    };
  };
  for (let g = 0; g < games; g++) {
    const run = playGame(700 + g, g % 2 === 1, time);
    frames += run.frames;
    frameMs += run.frameMs;
  }
  times.sort((a, b) => a - b);
  return {
    decisions: times.length,
    meanMs: times.reduce((s, x) => s + x, 0) / times.length,
    p99Ms: times[Math.floor(times.length * 0.99)],
    maxMs: times[times.length - 1],
    frames,
    perFrameUs: (frameMs * 1000) / frames,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Warm up first: the first games pay for compiling.
  malawiRefereeDecisions(6);
  const r = malawiRefereeDecisions(40);
  const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
  console.log(`Malawi referee, per settled picture: mean ${us(r.meanMs)}, p99 ${us(r.p99Ms)}, max ${us(r.maxMs)} (${r.decisions} pictures)`);
  console.log(`Malawi referee, per frame (settle + decide): mean ${r.perFrameUs.toFixed(1)} µs (${r.frames} frames)`);
}
