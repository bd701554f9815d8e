// The connection controller against a scripted socket: connect, sync, lose the server, back off, come back, stop;
// and for the console: the token on every connect, commands out, answers in.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BoardStatus, ServerMessage } from '../../server/http/messages.ts';
import { TableConnection } from '../../web/src/connection/controller.ts';
import { OPEN_TIMEOUT_MS } from '../../web/src/connection/link.ts';

class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  /** What the page sent, parsed. */
  readonly sent: unknown[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.made.push(this);
  }
  close(): void {
    this.serverCloses();
  }
  send(text: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(text));
  }
  accept(): void {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  receive(message: ServerMessage): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  serverCloses(): void {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new Event('close'));
  }
}

const BOARD: BoardStatus = { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };
const sync = (stateId: number): ServerMessage => ({
  type: 'sync',
  stateId,
  game: 'kalaha',
  record: [],
  view: {
    game: 'kalaha',
    pits: Array(12).fill(4),
    stores: { south: 0, north: 0 },
    toMove: 'south',
    outcome: null,
    lastMove: null,
    pending: [],
  },
  alerts: [],
  board: BOARD,
});

function makeHost() {
  const controllers: ReactiveController[] = [];
  const host = {
    addController: (c: ReactiveController) => void controllers.push(c),
    removeController: () => {},
    requestUpdate: vi.fn(),
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost;
  return { host, controllers };
}

const latest = () => FakeSocket.made[FakeSocket.made.length - 1];

describe('TableConnection', () => {
  let win: EventTarget;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    win = new EventTarget();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('window', win);
    vi.stubGlobal('document', doc);
    vi.stubGlobal('location', { protocol: 'http:', host: 'table.local:3000' });
    // The middle of the spread, so waits are exactly 0.5 s, 1 s, 2 s, …
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('registers with its host and connects to /ws when the host connects', () => {
    const { host, controllers } = makeHost();
    const connection = new TableConnection(host);
    expect(controllers).toEqual([connection]);
    expect(FakeSocket.made).toHaveLength(0);
    connection.hostConnected();
    expect(latest().url).toBe('ws://table.local:3000/ws');
    expect(connection.link).toEqual({ phase: 'connecting', attempt: 0 });
  });

  it('applies a sync and asks the host to render', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    latest().accept();
    host.requestUpdate.mockClear();
    latest().receive(sync(4));
    expect(connection.table.stateId).toBe(4);
    expect(connection.link).toEqual({ phase: 'open' });
    expect(host.requestUpdate).toHaveBeenCalled();
  });

  it('does not render again for a stale update', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    latest().accept();
    latest().receive(sync(4));
    host.requestUpdate.mockClear();
    const before = connection.table;
    latest().receive({ type: 'update', stateId: 3, event: 'move', move: 'C', record: ['C'], view: before.view! });
    expect(connection.table).toBe(before);
    expect(host.requestUpdate).not.toHaveBeenCalled();
  });

  it('reconnects with growing waits until a sync, then starts again from half a second', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    latest().accept();
    latest().receive(sync(1));

    latest().serverCloses();
    expect(connection.link).toMatchObject({ phase: 'waiting', attempt: 1 });
    expect(connection.table.stateId).toBe(1); // the last known game stays
    vi.advanceTimersByTime(499);
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(2);

    // Refused twice more: 1 s, then 2 s.
    latest().serverCloses();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.made).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(3);
    latest().serverCloses();
    vi.advanceTimersByTime(2000);
    expect(FakeSocket.made).toHaveLength(4);

    // Accepted but dropped before a sync: still counts as a failure (4 s).
    latest().accept();
    latest().serverCloses();
    vi.advanceTimersByTime(3999);
    expect(FakeSocket.made).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(5);

    latest().accept();
    latest().receive(sync(2));
    latest().serverCloses();
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(6);
  });

  it('never waits more than ten seconds', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      latest().accept();
      latest().serverCloses();
      const link = connection.link;
      if (link.phase !== 'waiting') throw new Error(`expected to wait, is ${link.phase}`);
      waits.push(link.retryAt - Date.now());
      vi.advanceTimersByTime(link.retryAt - Date.now());
      expect(FakeSocket.made).toHaveLength(i + 2);
    }
    expect(waits.slice(0, 6)).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
    expect(Math.max(...waits)).toBe(10_000);
  });

  it('gives up on a socket that does not open, and tries again', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    const hanging = latest();
    vi.advanceTimersByTime(OPEN_TIMEOUT_MS);
    expect(hanging.readyState).toBe(FakeSocket.CLOSED);
    expect(connection.link.phase).toBe('waiting');
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('retries at once when the network comes back', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    latest().serverCloses();
    latest().serverCloses(); // a second close of the same socket changes nothing
    expect(FakeSocket.made).toHaveLength(1);
    win.dispatchEvent(new Event('online'));
    expect(FakeSocket.made).toHaveLength(2);
    expect(connection.link.phase).toBe('connecting');
  });

  it('closes and stays closed when the host goes away', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    const socket = latest();
    socket.accept();
    connection.hostDisconnected();
    expect(socket.readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(1);
    win.dispatchEvent(new Event('online'));
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('ignores late events from a socket it has replaced', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    const first = latest();
    first.serverCloses();
    vi.advanceTimersByTime(500);
    latest().accept();
    latest().receive(sync(9));
    first.receive(sync(1));
    expect(connection.table.stateId).toBe(9);
  });

  it('sends nothing at all from a display', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.hostConnected();
    latest().accept();
    latest().receive(sync(4));
    expect(connection.command({ kind: 'undo' })).toBeNull();
    expect(latest().sent).toEqual([]);
  });

  it('presents the token on every connect, and at once when it is given on an open link', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.setToken('secret');
    connection.hostConnected();
    latest().accept();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'secret' }]);
    latest().serverCloses();
    vi.advanceTimersByTime(500);
    latest().accept();
    expect(latest().sent).toEqual([{ type: 'auth', token: 'secret' }]);
    connection.setToken('other');
    expect(latest().sent).toEqual([
      { type: 'auth', token: 'secret' },
      { type: 'auth', token: 'other' },
    ]);
  });

  it('sends a command based on the state on screen and takes in its answer', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.setToken('secret');
    connection.hostConnected();
    latest().accept();
    expect(connection.canCommand).toBe(false); // no sync yet: nothing to base a command on
    latest().receive(sync(7));
    expect(connection.canCommand).toBe(true);
    const ref = connection.command({ kind: 'choose', questionId: 3, move: 'c1xc5' });
    expect(ref).toBe(1);
    expect(latest().sent[1]).toEqual({ type: 'command', ref: 1, stateId: 7, command: { kind: 'choose', questionId: 3, move: 'c1xc5' } });
    expect(connection.commands.pending).toHaveLength(1);
    host.requestUpdate.mockClear();
    latest().receive({ type: 'command-result', ref: 1, ok: false, error: 'console/stale-state', message: 'moved on' });
    expect(connection.commands.pending).toHaveLength(0);
    expect(connection.commands.outcomes[0]).toMatchObject({ ref: 1, ok: false, error: 'console/stale-state' });
    expect(connection.table.stateId).toBe(7);
    expect(host.requestUpdate).toHaveBeenCalled();
  });

  it('stops sending commands once the token is refused, until a new one is given', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.setToken('wrong');
    connection.hostConnected();
    latest().accept();
    latest().receive(sync(7));
    latest().receive({ type: 'command-result', ref: 0, ok: false, error: 'console/bad-token', message: 'no' });
    expect(connection.commands.auth).toBe('refused');
    expect(connection.canCommand).toBe(false);
    expect(connection.command({ kind: 'undo' })).toBeNull();
    connection.setToken('right');
    expect(connection.canCommand).toBe(true);
  });

  it('reports a command as unanswered when the link drops before its answer', () => {
    const { host } = makeHost();
    const connection = new TableConnection(host);
    connection.setToken('secret');
    connection.hostConnected();
    latest().accept();
    latest().receive(sync(7));
    connection.command({ kind: 'undo' });
    latest().serverCloses();
    expect(connection.commands.pending).toEqual([]);
    expect(connection.commands.outcomes[0]).toMatchObject({ ref: 1, ok: false, error: 'console/no-answer' });
  });
});
