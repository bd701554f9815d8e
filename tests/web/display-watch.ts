// A display in headless Chromium as a screen on the wall sees the table: it was watching before the last change.
//
// A display that has just opened and finds a game rests on its idle screen until something happens (display/idle.ts):
// its first sync is what it finds, not something that happened. A screen at a table has been on all along and woke
// with the last move. So the page's socket is routed through Playwright: the page first finds the table's sync one
// state earlier, then the server's own sync, as after a reconnect across a move, and wakes as it does for a move.
// Everything after that passes through unchanged, both ways.
import type { Page } from 'playwright-core';
import type { ServerMessage } from '../../server/http/messages.ts';

type Sync = Extract<ServerMessage, { type: 'sync' }>;

export interface WatchOptions {
  /** Changes the server's first sync before the page sees it (a test adds an alert the scenario lacks). */
  readonly amend?: (sync: Sync) => Sync;
}

/** Routes the page's `/ws` so its display sees the table move on once; call before `page.goto`. */
export async function watchFromBefore(page: Page, options: WatchOptions = {}): Promise<void> {
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    let first = true;
    server.onMessage((message) => {
      if (!first || typeof message !== 'string') return ws.send(message);
      first = false;
      const parsed = JSON.parse(message) as ServerMessage;
      if (parsed.type !== 'sync') return ws.send(message);
      const sync = options.amend ? options.amend(parsed) : parsed;
      ws.send(JSON.stringify({ ...sync, stateId: sync.stateId - 1 }));
      ws.send(JSON.stringify(sync));
    });
  });
}
