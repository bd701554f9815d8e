// `spieltisch export`: games out of the game log, in the text notation of RULES.md, JSON or CSV.
import { existsSync, writeFileSync } from 'node:fs';
import { openGameLog, GameLogRefusedError, dayRange, isDatabaseUrl, type GameFilter, type GameLog } from '../store/index.ts';
import { FORMATS, exportGame, exportGames, isFormat, type Format } from '../export/index.ts';
import { gameName, number, UsageError, type ExportArgs, type Io } from '../cli.ts';

export async function exportCommand({ values, positionals }: ExportArgs, io: Io): Promise<number> {
  if (positionals.length) throw new UsageError(`export takes no file; write to one with --out (got "${positionals.join(' ')}")`);
  const format = formatOf(values.format ?? 'pgn');
  const filter: { -readonly [K in keyof GameFilter]: GameFilter[K] } = {};
  if (values.game !== undefined) filter.game = gameName(values.game);
  if (values.board !== undefined) filter.board = nonEmpty(values.board, 'board');
  if (values.player !== undefined) filter.player = nonEmpty(values.player, 'player');
  if (values.day !== undefined) {
    const range = dayRange(values.day);
    if (!range) throw new UsageError(`--day must be a day such as 2024-05-01 (got "${values.day}")`);
    Object.assign(filter, range);
  }
  const id = values.id === undefined ? undefined : number(values.id, 'id', 1, Number.MAX_SAFE_INTEGER);
  if (id !== undefined && (!Number.isInteger(id) || Object.keys(filter).length > 0)) {
    throw new UsageError('--id names one game by its whole number, and is not combined with --game, --board, --player or --day');
  }
  // Exporting must not leave an empty log behind where there was none (a database server is not a file to look for).
  if (values.db !== ':memory:' && !isDatabaseUrl(values.db) && !existsSync(values.db)) {
    io.err(`spieltisch: there is no game log at ${values.db}`);
    return 1;
  }
  const log = open(values.db, io);
  if (!log) return 1;
  try {
    let text: string;
    let count: number;
    if (id !== undefined) {
      const game = log.game(id);
      if (!game) {
        io.err(`spieltisch: there is no game ${id} in ${log.file}`);
        return 1;
      }
      text = exportGame(log, game, format);
      count = 1;
    } else {
      ({ text, count } = exportGames(log, filter, format));
    }
    if (values.out !== undefined) {
      writeFileSync(values.out, text);
      io.out(`exported ${count} ${count === 1 ? 'game' : 'games'} to ${values.out}`);
    } else {
      if (text.length) io.out(text.replace(/\r?\n$/, ''));
      if (count === 0) io.err('spieltisch: no games match');
    }
    return 0;
  } finally {
    log.close();
  }
}

export function formatOf(value: string): Format {
  if (isFormat(value)) return value;
  throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got "${value}")`);
}

function nonEmpty(value: string, name: string): string {
  if (value.trim() === '') throw new UsageError(`--${name} must not be empty`);
  return value;
}

/** The game log, or null after saying why it was refused. */
export function open(file: string, io: Io): GameLog | null {
  try {
    return openGameLog(file);
  } catch (e) {
    if (e instanceof GameLogRefusedError) {
      io.err(`spieltisch: ${e.message}`);
      return null;
    }
    throw e;
  }
}
