// The entry of the import's worker thread (import-thread.ts starts it): TypeScript is loaded through tsx here
// too, since a worker does not inherit the loader of the thread that started it in every Node version.
import { register } from 'tsx/esm/api';

register();
await import('./import-worker-body.ts');
