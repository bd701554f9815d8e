// Reading, checking and writing an import off the main thread, so the live table goes on meanwhile: a worker does
// the work (import-worker-body.ts). Given a log another connection can open, it writes the games itself, a slice at
// a time on a connection of its own, waiting for the main thread's go between slices (importOffThread); else it
// hands the checked games back a batch at a time for the main thread to write (checkOffThread). One import at a
// time, whatever comes in at once.
import { Worker } from 'node:worker_threads';
import type { GameName } from '../rules/index.ts';
import { GameLogInputError, GameLogWriteError, type InputErrorCode, type UnwritableReason } from '../store/index.ts';
import type { CheckedGame } from './check.ts';
import { ImportError, type ImportErrorCode, type ImportErrorDetails } from './errors.ts';
import type { Format, ImportReport } from './import.ts';

/** What the worker is given. */
export interface CheckJob {
  /** The file, or its bytes as they came (decoded in the worker, by `charset`, default UTF-8). */
  readonly text: string | Uint8Array;
  /** A label TextDecoder knows (utf-8, iso-8859-1, utf-16le…); for bytes only. */
  readonly charset?: string;
  readonly format?: Format;
  readonly game?: GameName;
  readonly now: number;
  /**
   * The log's sharedAddress: the worker opens it and writes the games itself. Without it the worker hands the
   * checked games back (batches) and writes nothing.
   */
  readonly log?: string;
}

/**
 * What the worker says: every game checked (how many), or why not. Then, each time it is asked, the next batch;
 * or, when it writes, `slice` after each committed slice (it waits for the main thread's go before the next), and
 * `written` at the end, or why the log would not take them.
 */
export type CheckMessage =
  | { readonly type: 'checked'; readonly format: Format; readonly count: number; readonly threadId: number }
  | { readonly type: 'games'; readonly games: readonly CheckedGame[] }
  | { readonly type: 'slice'; readonly written: number }
  | { readonly type: 'written'; readonly report: ImportReport }
  | { readonly type: 'unwritable'; readonly reason: UnwritableReason; readonly file: string; readonly message: string }
  | { readonly type: 'input'; readonly code: InputErrorCode; readonly message: string }
  | { readonly type: 'refused'; readonly code: ImportErrorCode; readonly message: string; readonly details: ImportErrorDetails }
  | { readonly type: 'failed'; readonly message: string };

/** A file whose every game has checked; the games themselves are still with the worker. */
export interface CheckedFile {
  readonly format: Format;
  readonly count: number;
  /** The thread that checked them (never the caller's). */
  readonly threadId: number;
  /** The checked games in the file's order, a batch at a time. The worker ends after the last, or when the loop is left. */
  batches(): AsyncGenerator<readonly CheckedGame[]>;
}

/** A 2 MiB file's games and the engines' states while checking them fit many times over; a runaway does not. */
const WORKER_HEAP_MB = 512;

let queue: Promise<unknown> = Promise.resolve();

/**
 * Reads and checks every game of `job.text` in a worker thread. Rejects with the ImportError the checks raise (the
 * same as importGames would), or an Error when the worker itself failed. An import waits until the worker of the
 * one before has ended, so take every batch of the answer, or leave the loop, to let the next one go.
 */
export function checkOffThread(job: Omit<CheckJob, 'log'>): Promise<CheckedFile> {
  const run = queue.then(() => checkInWorker(job));
  queue = run.then(
    (file) => file.ended,
    () => undefined,
  );
  return run.then((file) => file.checked);
}

/**
 * Reads, checks and writes every game of `job.text` in a worker thread, on its own connection to the log at
 * `job.log`: the main thread only passes the file on and says go between slices. Rejects with the ImportError of
 * the checks (nothing written), a GameLogWriteError or GameLogInputError from the log (the slices before it are
 * written), or an Error when the worker itself failed.
 */
export function importOffThread(job: CheckJob & { readonly log: string }): Promise<ImportReport> {
  const run = queue.then(() => checkInWorker(job));
  queue = run.then(
    (file) => file.ended,
    () => undefined,
  );
  return run.then((file) => file.written());
}

/** The log's refusal, as the worker told it, raised on this thread as the log would have raised it. */
function logError(message: CheckMessage): Error {
  if (message.type === 'unwritable') return new GameLogWriteError(message.reason, message.file, message.message);
  if (message.type === 'input') return new GameLogInputError(message.code, message.message);
  if (message.type === 'failed') return new Error(`the import could not be written: ${message.message}`);
  return new Error('the import’s worker answered out of turn');
}

function checkInWorker(job: CheckJob): Promise<{ checked: CheckedFile; written: () => Promise<ImportReport>; ended: Promise<void> }> {
  // Bytes that own their whole buffer are handed over, not copied: the main thread does nothing the size of the file.
  const bytes = job.text instanceof Uint8Array ? job.text : null;
  const handOver = bytes !== null && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const worker = new Worker(new URL('./import-worker.mjs', import.meta.url), {
    workerData: job,
    transferList: handOver ? [bytes.buffer as ArrayBuffer] : [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // The worker's messages in order: the verdict first, then one batch after another, or one slice after another.
  // A message that comes before it is waited for (a writing worker goes on after its verdict) waits in the inbox.
  const inbox: CheckMessage[] = [];
  let failure: Error | null = null;
  let waiting: { resolve: (message: CheckMessage) => void; reject: (error: Error) => void } | null = null;
  const next = () => {
    const message = inbox.shift();
    if (message) return Promise.resolve(message);
    if (failure) return Promise.reject(failure);
    return new Promise<CheckMessage>((resolve, reject) => (waiting = { resolve, reject }));
  };
  const fail = (error: Error) => {
    failure ??= error;
    const w = waiting;
    waiting = null;
    w?.reject(error);
  };
  worker.on('message', (message: CheckMessage) => {
    const w = waiting;
    waiting = null;
    if (w) w.resolve(message);
    else inbox.push(message);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`the import's worker stopped (exit ${code}) before it was done`)));

  return next().then(
    (verdict) => {
      switch (verdict.type) {
        case 'checked':
          break;
        case 'refused':
          void worker.terminate();
          throw new ImportError(verdict.code, verdict.message, verdict.details);
        case 'failed':
        case 'games':
        case 'slice':
        case 'written':
        case 'unwritable':
        case 'input':
          void worker.terminate();
          throw new Error(`the import could not be checked: ${verdict.type === 'failed' ? verdict.message : 'the worker answered out of turn'}`);
        default:
          return verdict satisfies never;
      }
      const { format, count, threadId } = verdict;
      async function written(): Promise<ImportReport> {
        try {
          for (;;) {
            const message = await next();
            if (message.type === 'written') return message.report;
            if (message.type !== 'slice') throw logError(message);
            // The live table's frames, pages and writes go first; the worker's connection holds the write lock
            // only while it writes a slice, and takes it again only after this go.
            await new Promise<void>((resolve) => setImmediate(resolve));
            worker.postMessage('next');
          }
        } finally {
          void worker.terminate();
        }
      }
      async function* batches(): AsyncGenerator<readonly CheckedGame[]> {
        try {
          for (let taken = 0; taken < count; ) {
            const answer = next();
            worker.postMessage('next');
            const message = await answer;
            if (message.type !== 'games' || message.games.length === 0) throw new Error('the import’s worker answered out of turn');
            taken += message.games.length;
            yield message.games;
          }
        } finally {
          void worker.terminate();
        }
      }
      return { checked: { format, count, threadId, batches }, written, ended };
    },
    (error: unknown) => {
      void worker.terminate();
      throw error;
    },
  );
}
