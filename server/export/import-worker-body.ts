// What the import's worker thread does: read a file and check every game of it, say how many games checked (or why
// not), then hand the checked games over a batch at a time as the main thread asks, so that the main thread never
// holds more of them than it is writing.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { checkGame, type CheckedGame } from './check.ts';
import { ImportError } from './errors.ts';
import { detectFormat, readGames } from './import.ts';
import type { CheckJob, CheckMessage } from './import-thread.ts';

/** Games per message: the main thread takes in a batch in one go (structured clone), so a batch is kept small. */
const BATCH = 20;

function check(job: CheckJob, post: (message: CheckMessage) => void): CheckedGame[] | null {
  try {
    const format = job.format ?? detectFormat(job.text);
    const checked = readGames(job.text, { format, game: job.game }).map((game) => checkGame(game, job.now));
    post({ type: 'checked', format, count: checked.length, threadId });
    return checked;
  } catch (e) {
    if (e instanceof ImportError) post({ type: 'refused', code: e.code, message: e.message, details: e.details });
    else post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    return null;
  }
}

if (parentPort) {
  const port = parentPort;
  const post = (message: CheckMessage) => port.postMessage(message);
  const checked = check(workerData as CheckJob, post);
  if (checked) {
    let next = 0;
    port.on('message', () => {
      post({ type: 'games', games: checked.slice(next, next + BATCH) });
      next += BATCH;
    });
  }
}
