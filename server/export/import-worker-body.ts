// What the import's worker thread does: read a file and check every game of it, say how many games checked (or why
// not); then either write them on a connection of its own to the log, a slice at a time with the main thread's go
// between slices, or hand the checked games over a batch at a time as the main thread asks, so that the main thread
// never holds more of them than it is writing.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { GameLogInputError, GameLogRefusedError, GameLogWriteError, openGameLog, type GameLog, type RefusalReason, type UnwritableReason } from '../store/index.ts';
import { checkGame, type CheckedGame } from './check.ts';
import { ImportError } from './errors.ts';
import { WRITE_SLICE_MS, detectFormat, readGames, writeOne, type Format, type ImportReport } from './import.ts';
import type { CheckJob, CheckMessage } from './import-thread.ts';

/** Games per message: the main thread takes in a batch in one go (structured clone), so a batch is kept small. */
const BATCH = 20;

function check(job: CheckJob, text: string, post: (message: CheckMessage) => void): CheckedGame[] | null {
  try {
    const format = job.format ?? detectFormat(text);
    const checked = readGames(text, { format, game: job.game }).map((game) => checkGame(game, job.now));
    post({ type: 'checked', format, count: checked.length, threadId });
    return checked;
  } catch (e) {
    if (e instanceof ImportError) post({ type: 'refused', code: e.code, message: e.message, details: e.details });
    else post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    return null;
  }
}

/** A log that would not open here, though the main thread has it open: why it cannot be written. */
const REFUSED_AS: Partial<Record<RefusalReason, UnwritableReason>> = { 'read-only': 'read-only', unreachable: 'gone', unwritable: 'disk-full' };

/** The log's refusal as a message the main thread raises again (import-thread.ts). */
function refusal(e: unknown): CheckMessage {
  if (e instanceof GameLogWriteError) return { type: 'unwritable', reason: e.reason, file: e.file, message: e.message };
  if (e instanceof GameLogRefusedError) return { type: 'unwritable', reason: REFUSED_AS[e.reason] ?? 'failed', file: e.file, message: e.message };
  if (e instanceof GameLogInputError) return { type: 'input', code: e.code, message: e.message };
  return { type: 'failed', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Writes the checked games in the file's order, one transaction per slice of a few milliseconds, as importGamesAsync
 * does on the main thread. After each slice the write lock is free until the main thread says go, so a move of the
 * live table waits at most for one slice.
 */
async function write(address: string, format: Format, checked: readonly CheckedGame[], post: (message: CheckMessage) => void, go: () => Promise<void>): Promise<void> {
  const report: { format: Format; imported: { game: number; id: number }[]; skipped: { game: number; id: number }[] } = { format, imported: [], skipped: [] };
  let log: GameLog;
  try {
    log = openGameLog(address);
  } catch (e) {
    post(refusal(e));
    return;
  }
  try {
    let next = 0;
    while (next < checked.length) {
      const start = performance.now();
      log.transaction(() => {
        do writeOne(log, checked[next++], report.imported, report.skipped);
        while (next < checked.length && performance.now() - start < WRITE_SLICE_MS);
      });
      if (next < checked.length) {
        const turn = go();
        post({ type: 'slice', written: next });
        await turn;
      }
    }
    post({ type: 'written', report: report satisfies ImportReport });
  } catch (e) {
    post(refusal(e));
  } finally {
    log.close();
  }
}

if (parentPort) {
  const port = parentPort;
  const post = (message: CheckMessage) => port.postMessage(message);
  const job = workerData as CheckJob;
  // As body-parser would have decoded it (a byte-order mark dropped, a byte that is no character replaced), here.
  const text = typeof job.text === 'string' ? job.text : new TextDecoder(job.charset ?? 'utf-8').decode(job.text);
  const checked = check(job, text, post);
  if (checked && job.log !== undefined) {
    const turns: (() => void)[] = [];
    port.on('message', () => turns.shift()?.());
    const format = job.format ?? detectFormat(text);
    void write(job.log, format, checked, post, () => new Promise<void>((resolve) => turns.push(resolve)));
  } else if (checked) {
    let next = 0;
    port.on('message', () => {
      post({ type: 'games', games: checked.slice(next, next + BATCH) });
      next += BATCH;
    });
  }
}
