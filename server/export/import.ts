// Import: read a file in any of the formats, check every game through its engine, then write them — in one
// transaction (importGames), or on a live server checked in a worker thread and written in short slices (importGamesAsync).
import { recordOf } from '../session/index.ts';
import type { GameLog } from '../store/index.ts';
import type { GameName } from '../rules/index.ts';
import { checkGame, type CheckedGame, type DeclaredGame } from './check.ts';
import { readGamesCsv } from './csv.ts';
import { ImportError } from './errors.ts';
import { checkOffThread, importOffThread } from './import-thread.ts';
import { readGamesJson } from './json.ts';
import { readGamesText } from './text.ts';

export const FORMATS = ['pgn', 'json', 'csv'] as const;
/** `pgn`: the text notation of RULES.md with headers; `json`: games with their events; `csv`: one row per game. */
export type Format = (typeof FORMATS)[number];

export function isFormat(value: unknown): value is Format {
  return (FORMATS as readonly unknown[]).includes(value);
}

/** JSON starts with an object or a list of objects; CSV with a header row naming `moves`; anything else is a record. */
export function detectFormat(text: string): Format {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  // A record may open with a {comment}; a JSON object opens with a key or closes at once.
  if (/^\{\s*["}]/.test(start) || /^\[\s*[{\]]/.test(start)) return 'json';
  const firstLine = start.split(/\r?\n/, 1)[0] ?? '';
  if (!firstLine.startsWith('[') && /(^|,)"?moves"?\s*(,|$)/i.test(firstLine)) return 'csv';
  return 'pgn';
}

export interface ReadOptions {
  /** The file's format; detected from its start when not given. */
  readonly format?: Format;
  /** The game of records that do not name theirs. */
  readonly game?: GameName;
}

/** The games a file declares, not yet checked. */
export function readGames(text: string, options: ReadOptions = {}): DeclaredGame[] {
  const format = options.format ?? detectFormat(text);
  switch (format) {
    case 'pgn':
      return readGamesText(text, options.game);
    case 'json':
      return readGamesJson(text, options.game);
    case 'csv':
      return readGamesCsv(text, options.game);
  }
}

export interface ImportReport {
  readonly format: Format;
  /** Each new game: its place in the file (from 1) and its id in the log. */
  readonly imported: readonly { readonly game: number; readonly id: number }[];
  /** Games already in the log (same game, board, start and moves), written again never. */
  readonly skipped: readonly { readonly game: number; readonly id: number }[];
}

/**
 * Reads, checks and writes every game of a file. Throws an ImportError, with nothing written, for
 * a file that cannot be read or a game that does not check (the first bad move named by its ply).
 */
export function importGames(log: GameLog, text: string, options: ReadOptions & { readonly now?: number } = {}): ImportReport {
  const format = options.format ?? detectFormat(text);
  const now = options.now ?? Date.now();
  const checked: CheckedGame[] = readGames(text, { ...options, format }).map((declared) => checkGame(declared, now));
  return writeChecked(log, format, checked);
}

/**
 * How long one slice of an import's writes may take before its transaction is committed; the commit (an fsync
 * with durable writes) comes on top. The live table's frames and pages are served between slices.
 */
export const WRITE_SLICE_MS = 5;

/**
 * importGames for a server that referees a live game at the same time. Reading, checking (seconds for a large file)
 * and writing happen in a worker thread (import-thread.ts), on a connection of its own to the same log, in slices
 * of a few milliseconds each, one transaction a slice: a commit waits for the disk (tens of milliseconds on a busy
 * one), and the event loop must not wait with it. A log no other connection can open (`:memory:`) is written here,
 * in the same slices, giving the event loop back in between. Every game is checked before the first is written, so
 * a bad file still writes nothing; only a log that fails in the middle (a full disk) keeps the games written so far,
 * and importing the file again adds the rest, as games already in the log are skipped.
 */
export async function importGamesAsync(
  log: GameLog,
  text: string | Uint8Array,
  options: ReadOptions & { readonly now?: number; readonly charset?: string } = {},
): Promise<ImportReport> {
  // Bytes (a request's body) are decoded in the worker too; they are handed over to it and unusable here after.
  const job = { text, charset: options.charset, format: options.format, game: options.game, now: options.now ?? Date.now() };
  const address = log.sharedAddress();
  if (address !== null) return importOffThread({ ...job, log: address });
  const file = await checkOffThread(job);
  const imported: { game: number; id: number }[] = [];
  const skipped: { game: number; id: number }[] = [];
  for await (const batch of file.batches()) {
    let next = 0;
    while (next < batch.length) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const start = performance.now();
      log.transaction(() => {
        do writeOne(log, batch[next++], imported, skipped);
        while (next < batch.length && performance.now() - start < WRITE_SLICE_MS);
      });
    }
  }
  return { format: file.format, imported, skipped };
}

/** Writes one checked game unless the log holds it already. */
export function writeOne(log: GameLog, c: CheckedGame, imported: { game: number; id: number }[], skipped: { game: number; id: number }[]): void {
  const same = alreadyLogged(log, c);
  if (same !== null) skipped.push({ game: c.index, id: same });
  else imported.push({ game: c.index, id: log.importGame(c.game) });
}

function writeChecked(log: GameLog, format: Format, checked: readonly CheckedGame[]): ImportReport {
  return log.transaction(() => {
    const imported: { game: number; id: number }[] = [];
    const skipped: { game: number; id: number }[] = [];
    for (const c of checked) writeOne(log, c, imported, skipped);
    return { format, imported, skipped };
  });
}

/** The id of a game in the log with the same game, board, start and record; null when there is none. */
function alreadyLogged(log: GameLog, c: CheckedGame): number | null {
  const { game, boardId, startedAt } = c.game;
  for (const other of log.listGames({ game, board: boardId, from: startedAt, to: startedAt + 1, limit: 1000 })) {
    const moves = recordOf(log.events(other.id));
    if (moves.length === c.moves.length && moves.every((m, i) => m === c.moves[i])) return other.id;
  }
  return null;
}

export { ImportError };
