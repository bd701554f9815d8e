// `spieltisch simulate`: play a game on the simulated board in virtual time; write its sensor trace
// (the file `spieltisch referee` reads) and print what really happened.
import { writeFileSync } from 'node:fs';
import { tables, tableGames } from '../tables/index.ts';
import { gameName, number, sense, type Io, type SimulateArgs } from '../cli.ts';
import { optionsJson, peopleOption } from './options.ts';

export async function simulateCommand({ values }: SimulateArgs, io: Io): Promise<number> {
  const name = gameName(values.game, tableGames());
  const game = tables[name].withRules(optionsJson(values.options));
  const { trace, truth } = game.generateTrace({
    seed: number(values.seed, 'seed', 0, 2 ** 31),
    illegal: number(values.illegal, 'illegal', 0, 1),
    takebacks: number(values.takebacks, 'takebacks', 0, 1),
    sense: sense(values.sense),
    people: peopleOption(values.people),
  });
  if (values.out) writeFileSync(values.out, trace);
  else io.out(trace.trimEnd());
  if (values.out) io.out(truth.trimEnd());
  return 0;
}
