// `spieltisch replay`: replay a game record and print RULES.md's JSON line.
import { games, replay } from '../rules/index.ts';
import { gameName, readInput, UsageError, type Io, type ReplayArgs } from '../cli.ts';

export async function replayCommand({ values, positionals }: ReplayArgs, io: Io): Promise<number> {
  const name = gameName(values.game);
  const def = games[name];
  if (!def) throw new UsageError(`replay of ${name} is not available yet`);
  let text: string;
  try {
    text = await readInput(positionals, io, 'record');
  } catch (e) {
    // Tools read the JSON line; people read the sentence on stderr.
    if (e instanceof UsageError) io.out(JSON.stringify({ ok: false, error: 'input/unreadable', message: e.message }));
    throw e;
  }
  const { line, exitCode } = replay(def, text, values.options);
  io.out(JSON.stringify(line));
  return exitCode;
}
