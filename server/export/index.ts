// The public face of server/export: games out of the log and into it, in the text notation of
// RULES.md with headers, JSON and CSV; and a game's positions ply by ply for the history page.
import type { GameFilter, GameLog, GameRecord } from '../store/index.ts';
import { formatGamesCsv } from './csv.ts';
import { formatGameJson, formatGamesJson } from './json.ts';
import { portableFromLog, type PortableGame } from './portable.ts';
import { formatGameText, formatGamesText } from './text.ts';
import type { Format } from './import.ts';

export { FORMATS, detectFormat, importGames, importGamesAsync, isFormat, readGames, type Format, type ImportReport, type ReadOptions } from './import.ts';
export { ImportError, IMPORT_ERROR_CODES, type ImportErrorCode, type ImportErrorDetails } from './errors.ts';
export { checkGame, type CheckedGame, type DeclaredGame } from './check.ts';
export { portableFromLog, isoTime, winnerIn, reasonIn, type PortableEvent, type PortableGame } from './portable.ts';
export { formatGameText, formatGamesText, readGamesText, splitGames } from './text.ts';
export { formatGameJson, formatGamesJson, gameJson, readGamesJson, JSON_FORMAT_ONE, JSON_FORMAT_MANY, JSON_VERSION } from './json.ts';
export { formatGamesCsv, parseCsv, readGamesCsv, CSV_COLUMNS } from './csv.ts';
export { RecordPlayer, playAll, positionsOf, type BadMove, type PositionStep, type Positions } from './play.ts';
export { seatsOf, seatHeader, winnersOf } from './seats.ts';

/** What a download of each format is sent as. */
export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  pgn: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** One game in a format. CSV is a table of games, so one game is a table of one row. */
export function formatGame(game: PortableGame, format: Format): string {
  switch (format) {
    case 'pgn':
      return formatGameText(game);
    case 'json':
      return formatGameJson(game);
    case 'csv':
      return formatGamesCsv([game]);
  }
}

/** Many games in a format, oldest first. */
export function formatGames(games: readonly PortableGame[], format: Format): string {
  switch (format) {
    case 'pgn':
      return formatGamesText(games);
    case 'json':
      return formatGamesJson(games);
    case 'csv':
      return formatGamesCsv(games);
  }
}

/** One logged game in a format. */
export function exportGame(log: GameLog, game: GameRecord, format: Format): string {
  return formatGame(portableFromLog(log, game), format);
}

/** Every logged game that matches, oldest first, in a format. */
export function exportGames(log: GameLog, filter: GameFilter, format: Format): { text: string; count: number } {
  const games = log.allGames(filter).map((g) => portableFromLog(log, g));
  return { text: formatGames(games, format), count: games.length };
}
