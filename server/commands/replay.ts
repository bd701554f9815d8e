// `spieltisch replay`: replay a game record and print RULES.md's JSON line.
import { games, replay } from '../rules/index.ts';
import { gameName, readInput, UsageError, type Io, type ReplayArgs } from '../cli.ts';

export async function replayCommand({ values, positionals }: ReplayArgs, io: Io): Promise<number> {
  const name = gameName(values.game);
  const def = games[name];
  if (!def) throw new UsageError(`replay of ${name} is not available yet`);
  const text = await readInput(positionals, io, 'record');
  const { line, exitCode } = replay(def, text, values.options);
  io.out(JSON.stringify(line));
  return exitCode;
}
