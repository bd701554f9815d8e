// The tournament page's WebSocket to the broadcast service, as a Lit reactive controller: it opens
// with the page, keeps every board's latest record, reconnects with a growing pause, and asks the
// page to draw at most once per frame however many boards change.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BoardRecord, BroadcastMessage, BrokerState } from '../../../server/mqtt/messages.ts';

export type LinkState = 'connecting' | 'open' | 'lost';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 8000;

/** Applies one message to the boards (pure: tested without a socket). */
export function applyMessage(boards: Map<string, BoardRecord>, message: BroadcastMessage): BrokerState | null {
  switch (message.type) {
    case 'boards':
      boards.clear();
      for (const board of message.boards) boards.set(board.key, board);
      return message.broker;
    case 'board':
      boards.set(message.board.key, message.board);
      return null;
    case 'broker':
      return message.broker;
    default:
      return message satisfies never;
  }
}

export class BroadcastConnection implements ReactiveController {
  readonly boards = new Map<string, BoardRecord>();
  broker: BrokerState | null = null;
  link: LinkState = 'connecting';
  /** Whether a first list of boards has arrived. */
  synced = false;

  private socket: WebSocket | null = null;
  private pause = FIRST_PAUSE_MS;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private frame: number | null = null;
  private stopped = false;

  /** `board`: follow only this board (`<site>/<board>`); null for all. */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly board: string | null,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.stopped = false;
    this.open();
  }

  hostDisconnected(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.socket?.close();
    this.socket = null;
  }

  private open(): void {
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.board) url.searchParams.set('board', this.board);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener('message', (e) => {
      let message: BroadcastMessage;
      try {
        message = JSON.parse(String(e.data)) as BroadcastMessage;
      } catch {
        return;
      }
      const broker = applyMessage(this.boards, message);
      if (broker) this.broker = broker;
      if (message.type === 'boards') {
        this.synced = true;
        this.link = 'open';
        this.pause = FIRST_PAUSE_MS;
      }
      this.draw();
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      this.link = 'lost';
      this.draw();
      this.retry = setTimeout(() => this.open(), this.pause);
      this.pause = Math.min(LONGEST_PAUSE_MS, this.pause * 2);
    });
  }

  private draw(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.host.requestUpdate();
    });
  }
}
