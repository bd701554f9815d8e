// `spieltisch import`: games from a file into the game log, each move checked by its engine; every
// game or none.
import { importGames, ImportError } from '../export/index.ts';
import { gameName, readInput, type ImportArgs, type Io } from '../cli.ts';
import { formatOf, open } from './export.ts';

export async function importCommand({ values, positionals }: ImportArgs, io: Io): Promise<number> {
  const format = values.format === undefined ? undefined : formatOf(values.format);
  const game = values.game === undefined ? undefined : gameName(values.game);
  const text = await readInput(positionals, io, 'game record');
  const log = open(values.db, io);
  if (!log) return 1;
  try {
    const report = importGames(log, text, { format, game });
    const ids = report.imported.map((g) => g.id);
    io.out(`imported ${ids.length} ${ids.length === 1 ? 'game' : 'games'}${ids.length ? ` (${ids.length === 1 ? 'id' : 'ids'} ${ids.join(', ')})` : ''} into ${log.file}`);
    for (const s of report.skipped) io.out(`skipped game ${s.game} of the file: it is in the log already (id ${s.id})`);
    return 0;
  } catch (e) {
    if (e instanceof ImportError) {
      io.err(`spieltisch: nothing imported: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    log.close();
  }
}
