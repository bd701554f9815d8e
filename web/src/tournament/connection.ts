// The tournament page's WebSocket to the broadcast service, as a Lit reactive controller: it opens
// with the page, keeps every board's latest record, reconnects with a growing pause, and asks the
// page to draw at most once per frame however many boards change.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BoardRecord, BroadcastMessage, BrokerState } from '../../../server/mqtt/messages.ts';

export type LinkState = 'connecting' | 'open' | 'lost';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 8000;

/**
 * Applies one message to the boards (pure: tested without a socket). The service checks every board before it sends
 * it; the page still takes only what has the shape it draws, so a message it does not understand changes nothing.
 */
export function applyMessage(boards: Map<string, BoardRecord>, message: BroadcastMessage): BrokerState | null {
  if (!isObject(message)) return null;
  switch (message.type) {
    case 'boards':
      if (!Array.isArray(message.boards)) return null;
      boards.clear();
      for (const board of message.boards) if (isBoard(board)) boards.set(board.key, board);
      return isBroker(message.broker) ? message.broker : null;
    case 'board':
      if (isBoard(message.board)) boards.set(message.board.key, message.board);
      return null;
    case 'broker':
      return isBroker(message.broker) ? message.broker : null;
    case 'gone':
      boards.delete(message.key);
      return null;
    default:
      message satisfies never;
      return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBroker(value: unknown): value is BrokerState {
  return isObject(value) && typeof value.connected === 'boolean';
}

/** What the page reads of a board without looking: its names, the lists it walks, the view's game. */
export function isBoard(value: unknown): value is BoardRecord {
  if (!isObject(value)) return false;
  const { key, site, board, record, alerts, recent, view, counts } = value;
  return (
    typeof key === 'string' &&
    typeof site === 'string' &&
    typeof board === 'string' &&
    Array.isArray(record) &&
    Array.isArray(alerts) &&
    Array.isArray(recent) &&
    isObject(counts) &&
    (view === null || (isObject(view) && typeof view.game === 'string'))
  );
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
