// Benchmark: Adu legal-move generation with six players over positions reached by seeded random play.
import { pathToFileURL } from 'node:url';
import { initial, legalMoves, parseOptions, play } from '../../server/rules/adu.ts';
import type { AduMove, AduState } from '../../server/rules/adu.ts';
import { mulberry32 as seeded } from '../support/prng.ts';


/** Random play that takes a capture half the time one is on offer, as players do; it also keeps games short. */
function randomMove(moves: readonly AduMove[], random: () => number): AduMove {
  const captures = moves.filter((move) => move.kind === 'capture');
  const pool = captures.length > 0 && random() < 0.5 ? captures : moves;
  return pool[Math.floor(random() * pool.length)];
}

/** Positions of the moving phase (placement offers only empty intersections, which says little). */
function samplePositions(count: number, seed: number): AduState[] {
  const parsed = parseOptions({ players: 6 });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const random = seeded(seed);
  const positions: AduState[] = [];
  while (positions.length < count) {
    let state = initial(parsed.value);
    while (state.outcome === null && positions.length < count) {
      if (state.phase === 'play') positions.push(state);
      const result = play(state, randomMove(legalMoves(state), random));
      if (!result.ok) throw new Error(`random play chose an illegal move: ${result.error.message}`);
      state = result.value;
    }
  }
  return positions;
}

/**
 * Generates legal moves over sampled six-player positions on the default 13 × 13 board for about
 * `ms` milliseconds. A king capture counts once per intersection its reserve king may take.
 */
export function aduMoveGen(ms: number): { positions: number; movesPerSecond: number } {
  const sample = samplePositions(2000, 20260104);
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
  const { positions, movesPerSecond } = aduMoveGen(2000);
  console.log(`adu move generation (6 players): ${positions} positions, ${movesPerSecond} moves/s`);
}
