// Random Makis playouts with the full rules of RULES.md §3 on the immutable engine: rounds (one roll and the Maki moves after it) per second.
//
// Five players, competitive, knights on row 1; rolls drawn uniformly from the 216 ordered rolls,
// each Maki steps at random (the pass included) and, three times in four, towards row 1 when it
// can, so that games end all three ways. Run this file alone to print one measurement:
//   node bin/run-ts.js tests/bench/makis-bench.ts [ms]
import { pathToFileURL } from 'node:url';
import { makis } from '../../server/rules/index.ts';
import type { MakisMove, MakisState } from '../../server/rules/index.ts';
import { xorshift32 } from '../support/prng.ts';


function mustPlay(state: MakisState, move: MakisMove): MakisState {
  const result = makis.play(state, move);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function chooseMove(state: MakisState, random: () => number): MakisMove {
  if (state.phase === 'roll') return { kind: 'roll', dice: makis.ORDERED_ROLLS[random() % makis.ORDERED_ROLLS.length] };
  const moves = makis.legalMoves(state);
  const from = state.makis[state.toMove - 1];
  if (state.phase === 'maki' && typeof from === 'number' && random() % 4 !== 0) {
    const forward = moves.filter((m) => m.kind === 'maki' && m.to !== null && makis.rowOf(m.to) < makis.rowOf(from));
    if (forward.length > 0) return forward[random() % forward.length];
  }
  return moves[random() % moves.length];
}

/** Plays random games for about `ms` milliseconds; counts rounds (rolls) and finished games. */
export function makisPlayouts(ms: number): { rounds: number; games: number; roundsPerSecond: number } {
  const options = { ...makis.DEFAULT_OPTIONS, players: 5 };
  const start = makis.initial(options);
  if (!start.ok) throw new Error(start.error.message);
  const random = xorshift32(0x6d616b);
  let rounds = 0;
  let games = 0;
  const began = performance.now();
  let elapsed = 0;
  do {
    // A batch of games between clock reads keeps the clock out of the measurement.
    for (let g = 0; g < 16; g++) {
      let state = start.value;
      while (state.outcome === null) state = mustPlay(state, chooseMove(state, random));
      rounds += state.rounds;
      games++;
    }
    elapsed = performance.now() - began;
  } while (elapsed < ms);
  return { rounds, games, roundsPerSecond: Math.round((rounds * 1000) / elapsed) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = Number(process.argv[2] ?? 2000);
  makisPlayouts(Math.min(ms, 300)); // warm-up
  const r = makisPlayouts(ms);
  console.log(
    `makis playouts (5 players): ${r.games} games, ${r.rounds} rounds, ${Math.round(r.roundsPerSecond / 1000)} k rounds/s, ${(r.rounds / r.games).toFixed(1)} rounds/game`,
  );
}
