// Benchmark: Malawi legal-move generation over positions reached by seeded random play.
import { pathToFileURL } from 'node:url';
import { DEFAULT_OPTIONS, initial, legalMoves, play } from '../../server/rules/malawi.ts';
import type { MalawiMove, MalawiState } from '../../server/rules/malawi.ts';
import { mulberry32 as seeded } from '../support/prng.ts';


/** Random play that first picks a kind of move, so distributions (the most numerous) do not crowd out moving. */
function randomMove(moves: readonly MalawiMove[], random: () => number): MalawiMove {
  const kinds = [...new Set(moves.map((move) => move.kind))];
  const kind = kinds[Math.floor(random() * kinds.length)];
  const ofKind = moves.filter((move) => move.kind === kind);
  return ofKind[Math.floor(random() * ofKind.length)];
}

function samplePositions(count: number, seed: number): MalawiState[] {
  const random = seeded(seed);
  const positions: MalawiState[] = [];
  while (positions.length < count) {
    let state = initial(DEFAULT_OPTIONS);
    while (state.outcome === null && positions.length < count) {
      positions.push(state);
      const result = play(state, randomMove(legalMoves(state), random));
      if (!result.ok) throw new Error(`random play chose an illegal move: ${result.error.message}`);
      state = result.value;
    }
  }
  return positions;
}

/** Generates legal moves over sampled positions for about `ms` milliseconds. */
export function malawiMoveGen(ms: number): { positions: number; movesPerSecond: number } {
  const sample = samplePositions(2000, 20260101);
  let positions = 0;
  let moves = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (const state of sample) moves += legalMoves(state).length;
    positions += sample.length;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return { positions, movesPerSecond: Math.round((moves / elapsed) * 1000) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { positions, movesPerSecond } = malawiMoveGen(2000);
  console.log(`malawi move generation: ${positions} positions, ${movesPerSecond} moves/s`);
}
