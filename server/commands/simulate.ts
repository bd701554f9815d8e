// `spieltisch simulate`: play a game on the simulated table in virtual time; write its sensor trace
// (the file `spieltisch referee` reads) and print what really happened.
import { writeFileSync } from 'node:fs';
import { generateKalahaTrace, stringifyTruth } from '../simulate/index.ts';
import { gameName, number, type Io, type SimulateArgs } from '../cli.ts';
import { kalahaRules } from './options.ts';

export async function simulateCommand({ values }: SimulateArgs, io: Io): Promise<number> {
  gameName(values.game, ['kalaha']);
  const rules = kalahaRules(values.options);
  const seed = number(values.seed, 'seed', 0, 2 ** 31);
  const { trace, truth } = generateKalahaTrace({
    seed,
    rules,
    illegalProbability: number(values.illegal, 'illegal', 0, 1),
    takeBackProbability: number(values.takebacks, 'takebacks', 0, 1),
  });
  if (values.out) writeFileSync(values.out, trace);
  else io.out(trace.trimEnd());
  if (values.out) io.out(stringifyTruth(truth).trimEnd());
  return 0;
}
