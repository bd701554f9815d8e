// The WebSocket link of one page, as a Lit reactive controller: opens with the host, closes with it, reconnects by itself.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { applyMessage, EMPTY_TABLE, parseServerMessage, type TableState } from './state.ts';
import { FIRST_LINK, OPEN_TIMEOUT_MS, reconnectDelay, socketUrl, type LinkStatus } from './link.ts';

export interface TableConnectionOptions {
  /** Defaults to `/ws` on the page's own host. */
  readonly url?: string;
}

export class TableConnection implements ReactiveController {
  /** What the server has told us; kept while reconnecting so the page can still show the last known state. */
  table: TableState = EMPTY_TABLE;
  link: LinkStatus = FIRST_LINK;

  private readonly host: ReactiveControllerHost;
  private readonly url: string | undefined;
  private socket: WebSocket | null = null;
  /**
   * Connections in a row that ended before a sync. Only a sync resets it: a server that accepts
   * and drops us at once must still be retried with growing waits.
   */
  private failures = 0;
  private running = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private countdown: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, options: TableConnectionOptions = {}) {
    this.host = host;
    this.url = options.url;
    host.addController(this);
  }

  hostConnected(): void {
    this.running = true;
    window.addEventListener('online', this.retryNow);
    document.addEventListener('visibilitychange', this.retryNow);
    this.open();
  }

  hostDisconnected(): void {
    this.running = false;
    window.removeEventListener('online', this.retryNow);
    document.removeEventListener('visibilitychange', this.retryNow);
    this.stopTimers();
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'page closed');
  }

  private open(): void {
    this.stopTimers();
    const socket = new WebSocket(this.url ?? socketUrl(location));
    this.socket = socket;
    this.setLink({ phase: 'connecting', attempt: this.failures });

    this.openTimer = setTimeout(() => {
      if (socket === this.socket && socket.readyState === WebSocket.CONNECTING) socket.close();
    }, OPEN_TIMEOUT_MS);

    // Every handler first checks that its socket is still the current one: a late event from a
    // replaced socket must not touch the state.
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      clearTimeout(this.openTimer);
      this.setLink({ phase: 'open' });
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (socket !== this.socket || typeof event.data !== 'string') return;
      const message = parseServerMessage(event.data);
      if (!message) return;
      if (message.type === 'sync') this.failures = 0;
      const next = applyMessage(this.table, message);
      if (next !== this.table) {
        this.table = next;
        this.host.requestUpdate();
      }
    });
    // 'error' is always followed by 'close'; the retry is scheduled there, once.
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (this.running) this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    this.stopTimers();
    const delay = reconnectDelay(this.failures, Math.random());
    this.failures += 1;
    this.setLink({ phase: 'waiting', attempt: this.failures, retryAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => this.open(), delay);
    // Re-render once a second so "retrying in 3 s" counts down.
    this.countdown = setInterval(() => this.host.requestUpdate(), 1000);
  }

  /** Network back, or the tab visible again: no reason to sit out the rest of a long wait. */
  private readonly retryNow = (): void => {
    if (!this.running || this.link.phase !== 'waiting' || document.visibilityState === 'hidden') return;
    this.open();
  };

  private setLink(link: LinkStatus): void {
    this.link = link;
    this.host.requestUpdate();
  }

  private stopTimers(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.openTimer);
    clearInterval(this.countdown);
  }
}
