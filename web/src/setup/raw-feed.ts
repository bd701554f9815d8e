// The raw frames' own WebSocket, as a Lit reactive controller: opens with its host, asks for raw frames, keeps the
// newest, reconnects by itself. A socket of its own, so the page's table link never carries ten frames a second.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { RawFrameMessage, RawRequest } from '../../../server/http/messages.ts';
import { reconnectDelay, socketUrl } from '../connection/index.ts';
import { parseRawFrame } from './raw.ts';

export class RawFeed implements ReactiveController {
  /** The newest frame, null before the first. */
  frame: RawFrameMessage | null = null;
  /** When it came (the page's clock, ms). */
  receivedAt = 0;
  open = false;
  /** Told of every frame as it comes (the view's change watch). */
  onFrame: ((frame: RawFrameMessage) => void) | null = null;

  private readonly host: ReactiveControllerHost;
  private socket: WebSocket | null = null;
  private failures = 0;
  private running = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, private readonly url?: string) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.running = true;
    this.connect();
  }

  hostDisconnected(): void {
    this.running = false;
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'view closed');
  }

  private connect(): void {
    const socket = new WebSocket(this.url ?? socketUrl(location));
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.failures = 0;
      this.open = true;
      socket.send(JSON.stringify({ type: 'raw', on: true } satisfies RawRequest));
      this.host.requestUpdate();
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (socket !== this.socket || typeof event.data !== 'string') return;
      const frame = parseRawFrame(event.data);
      if (!frame) return;
      this.frame = frame;
      this.receivedAt = Date.now();
      this.onFrame?.(frame);
      this.host.requestUpdate();
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.open = false;
      this.host.requestUpdate();
      if (!this.running) return;
      this.retry = setTimeout(() => this.connect(), reconnectDelay(this.failures++, Math.random()));
    });
  }
}
