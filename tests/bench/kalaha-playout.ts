// Random Kalaha playouts with the full Vauban rules (forbidden captures, feeding, repetition) on the fast core.
//
// The bench runner calls kalahaPlayouts(ms); run this file alone to print one measurement:
//   node bin/run-ts.js tests/bench/kalaha-playout.ts [ms]
import { pathToFileURL } from 'node:url';
import { KalahaCore } from '../../server/rules/index.ts';
import { xorshift32 } from '../support/prng.ts';


/** Plays random games for about `ms` milliseconds; counts plies and finished games. */
export function kalahaPlayouts(ms: number): { plies: number; games: number; pliesPerSecond: number } {
  const core = new KalahaCore();
  const random = xorshift32(0x5eed);
  let plies = 0;
  let games = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    // A batch of games between clock reads keeps the clock out of the measurement.
    for (let g = 0; g < 64; g++) {
      core.reset();
      while (core.playRandom(random) >= 0);
      plies += core.plies;
      games++;
    }
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return { plies, games, pliesPerSecond: Math.round((plies * 1000) / elapsed) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = Number(process.argv[2] ?? 2000);
  kalahaPlayouts(Math.min(ms, 300)); // warm-up
  const r = kalahaPlayouts(ms);
  console.log(
    `kalaha playouts: ${r.games} games, ${r.plies} plies, ${(r.pliesPerSecond / 1e6).toFixed(2)} M plies/s, ${(r.plies / r.games).toFixed(1)} plies/game`,
  );
}
