// A referee console for Adu trace tests, played as a person at the table would: asked about a move, they answer what was really played.
import type { AduQuestion, AduReferee } from '../../server/referee/index.ts';
import type { AduTruth } from '../../server/simulate/index.ts';

/**
 * The answer a person who watched the game gives to `question`: which move was played at the ply
 * asked about (the last one played there by the time of the question), or the range its owner
 * declared for a captured soldier. Null when nothing played fits the options (the person would
 * rather put the board right than answer).
 */
export function watcherAnswer(truth: Pick<AduTruth, 'played'>, referee: AduReferee, question: AduQuestion): string | null {
  const declaring = question.code === 'referee/declare-range';
  const ply = declaring ? Number(question.params.ply) : referee.record().length + 1;
  const made = truth.played.filter((p) => p.ply === ply && p.end <= question.t + 1000).at(-1);
  if (!made) return null;
  if (declaring) {
    const declared = /=\d+/.test(made.move) ? made.move : `${made.move}=${String(question.params.lowest)}`;
    return question.options.includes(declared) ? declared : null;
  }
  const bare = made.move.replace(/=\d+/, '');
  if (question.options.includes(bare)) return bare;
  // A king capture asked about before its reserve king stood: the option names the capture alone.
  const withoutReserve = bare.replace(/R@[a-s]\d+$/, '');
  return question.options.includes(withoutReserve) ? made.move : null;
}
