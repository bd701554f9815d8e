// The entry of the import's worker thread (import-thread.ts starts it): TypeScript is loaded through tsx here
// too, since a worker does not inherit the loader of the thread that started it in every Node version.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

// On a busy machine the import would otherwise take the core the live table's thread is waiting for. Linux keeps a
// nice value per thread (/proc/thread-self names this one); elsewhere there is no such file and nothing changes,
// rather than the whole process being made nicer.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // Not Linux, or not allowed: the import runs at the service's priority.
}

register();
await import('./import-worker-body.ts');
