// The WebSocket link of one page, as a Lit reactive controller: opens with the host, closes with it, reconnects by
// itself; for the referee console it also signs in with the token and sends commands.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ClientMessage, ConsoleCommand } from '../../../server/http/messages.ts';
import { applyMessage, EMPTY_TABLE, parseServerMessage, type TableState } from './state.ts';
import { applyCommandResult, connectionLost, EMPTY_LOG, issueCommand, tokenChanged, type CommandLog } from './commands.ts';
import { FIRST_LINK, OPEN_TIMEOUT_MS, reconnectDelay, socketUrl, type LinkStatus } from './link.ts';

export interface TableConnectionOptions {
  /** Defaults to `/ws` on the page's own host. */
  readonly url?: string;
}

export class TableConnection implements ReactiveController {
  /** What the server has told us; kept while reconnecting so the page can still show the last known state. */
  table: TableState = EMPTY_TABLE;
  link: LinkStatus = FIRST_LINK;
  /** The console's own commands and their answers (a display never sends any). */
  commands: CommandLog = EMPTY_LOG;

  private readonly host: ReactiveControllerHost;
  private readonly url: string | undefined;
  private socket: WebSocket | null = null;
  /** The referee token, sent on every (re)connect; null on the display. */
  private token: string | null = null;
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

  /**
   * Sets the referee token (null forgets it). It is sent at once when the link is open, and again
   * after every reconnect: the server remembers it per connection.
   */
  setToken(token: string | null): void {
    this.token = token;
    this.commands = tokenChanged(this.commands);
    if (token !== null) this.send({ type: 'auth', token });
    this.host.requestUpdate();
  }

  /** Whether a command can go out now: the link is open, the table known, a token given and not refused. */
  get canCommand(): boolean {
    return (
      this.socket?.readyState === WebSocket.OPEN &&
      this.table.synced &&
      this.token !== null &&
      this.commands.auth !== 'refused'
    );
  }

  /**
   * Sends a console command based on the state on screen; its answer arrives in `commands`.
   * Returns the command's ref, or null when it could not be sent.
   */
  command(command: ConsoleCommand): number | null {
    if (!this.canCommand) return null;
    const { log, message } = issueCommand(this.commands, command, this.table.stateId);
    if (!this.send(message)) return null;
    this.commands = log;
    this.host.requestUpdate();
    return message.ref;
  }

  private send(message: ClientMessage): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
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
      if (this.token !== null) this.send({ type: 'auth', token: this.token });
      this.setLink({ phase: 'open' });
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (socket !== this.socket || typeof event.data !== 'string') return;
      const message = parseServerMessage(event.data);
      if (!message) return;
      if (message.type === 'sync') this.failures = 0;
      if (message.type === 'command-result') {
        const log = applyCommandResult(this.commands, message);
        if (log !== this.commands) {
          this.commands = log;
          this.host.requestUpdate();
        }
        return;
      }
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
      this.commands = connectionLost(this.commands);
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
