// Reading and checking an import off the main thread, so the live table goes on meanwhile: a worker does the work
// (import-worker-body.ts) and hands the checked games back a batch at a time; one import at a time, whatever
// comes in at once.
import { Worker } from 'node:worker_threads';
import type { GameName } from '../rules/index.ts';
import type { CheckedGame } from './check.ts';
import { ImportError, type ImportErrorCode, type ImportErrorDetails } from './errors.ts';
import type { Format } from './import.ts';

/** What the worker is given. */
export interface CheckJob {
  readonly text: string;
  readonly format?: Format;
  readonly game?: GameName;
  readonly now: number;
}

/** What the worker says: every game checked (how many), or why not; then, each time it is asked, the next batch. */
export type CheckMessage =
  | { readonly type: 'checked'; readonly format: Format; readonly count: number; readonly threadId: number }
  | { readonly type: 'games'; readonly games: readonly CheckedGame[] }
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
export function checkOffThread(job: CheckJob): Promise<CheckedFile> {
  const run = queue.then(() => checkInWorker(job));
  queue = run.then(
    (file) => file.ended,
    () => undefined,
  );
  return run.then((file) => file.checked);
}

function checkInWorker(job: CheckJob): Promise<{ checked: CheckedFile; ended: Promise<void> }> {
  const worker = new Worker(new URL('./import-worker.mjs', import.meta.url), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // What is waited for now: the verdict first, then one batch after another.
  let waiting: { resolve: (message: CheckMessage) => void; reject: (error: Error) => void } | null = null;
  const next = () => new Promise<CheckMessage>((resolve, reject) => (waiting = { resolve, reject }));
  const fail = (error: Error) => {
    const w = waiting;
    waiting = null;
    w?.reject(error);
  };
  worker.on('message', (message: CheckMessage) => {
    const w = waiting;
    waiting = null;
    w?.resolve(message);
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
          void worker.terminate();
          throw new Error(`the import could not be checked: ${verdict.type === 'failed' ? verdict.message : 'the worker answered out of turn'}`);
        default:
          return verdict satisfies never;
      }
      const { format, count, threadId } = verdict;
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
      return { checked: { format, count, threadId, batches }, ended };
    },
    (error: unknown) => {
      void worker.terminate();
      throw error;
    },
  );
}
