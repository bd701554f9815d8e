// One live Kalaha game: referee verdicts → game state → game log → every page.
//
// The session is the authority: pages get a full `sync` on connect and then `update`s with an
// increasing stateId. An event is written to the game log before any page is told about it.
import { STORE, observe, type KalahaOptions, type KalahaState } from '../rules/kalaha.ts';
import { KalahaReferee, type RefereeEvent } from '../referee/index.ts';
import type { Alert, BoardStatus, KalahaView, ServerMessage } from '../http/messages.ts';
import type { GameLog } from '../store/index.ts';

/** What the session needs of a game log. */
export type SessionLog = Pick<GameLog, 'startGame' | 'append' | 'endGame'>;

export interface KalahaSessionOptions {
  readonly rules: KalahaOptions;
  readonly boardId: string;
  readonly source: BoardStatus['source'];
  readonly log?: SessionLog;
  /** Wall clock for the game log (ms since the epoch); the referee runs on the board's clock. */
  readonly now?: () => number;
  /** A game to resume: its id in the log and its moves so far. */
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[] };
}

export type Listener = (message: ServerMessage, text: string) => void;

export class KalahaSession {
  readonly referee: KalahaReferee;
  private stateId = 0;
  private alert: Alert | null = null;
  private alertSeq = 0;
  private readonly listeners = new Set<Listener>();
  private gameId: number | null = null;
  private board: BoardStatus;
  private readonly now: () => number;

  constructor(private readonly options: KalahaSessionOptions) {
    this.referee = new KalahaReferee(options.rules);
    this.now = options.now ?? Date.now;
    this.board = { source: options.source, connected: false, calibrated: false, framesPerSecond: 0, dropped: 0 };
    if (options.resume) {
      const restored = this.referee.restore(options.resume.moves);
      if (!restored.ok) throw new Error(`cannot resume game ${options.resume.gameId}: ply ${restored.ply}: ${restored.message}`);
      this.gameId = options.resume.gameId;
    }
  }

  get currentGameId(): number | null {
    return this.gameId;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sync(): ServerMessage {
    return {
      type: 'sync',
      stateId: this.stateId,
      game: 'kalaha',
      record: this.referee.record(),
      view: this.view(),
      alerts: this.alert ? [this.alert] : [],
      board: this.board,
    };
  }

  /** One weight frame from the board (tenths of a gram, `t` on the board's clock in ms). */
  frame(t: number, tenths: ArrayLike<number>): RefereeEvent[] {
    const events = this.referee.frame(t, tenths);
    for (const event of events) this.apply(event);
    return events;
  }

  /** The board's link changed (connected, frame rate, dropped lines). */
  setBoard(board: Partial<BoardStatus>): void {
    const next = { ...this.board, ...board };
    if (JSON.stringify(next) === JSON.stringify(this.board)) return;
    this.board = next;
    this.broadcast({ type: 'board', board: this.board });
  }

  private apply(event: RefereeEvent): void {
    const at = this.now();
    switch (event.kind) {
      case 'calibrated':
        this.ensureGame(at);
        this.setBoard({ calibrated: true });
        return;
      case 'move':
        this.ensureGame(at);
        this.log('move', at, { move: event.move, ply: event.ply });
        this.update('move', { move: event.move });
        return;
      case 'takeback':
        this.log('takeback', at, { undone: event.undone, ply: event.ply });
        this.update('takeback', { undone: event.undone });
        return;
      case 'settled':
        this.update('settled', {});
        return;
      case 'end': {
        // The log writes the end event and closes the game in one step.
        const [south, north] = this.referee.state.stores;
        if (this.gameId !== null) this.options.log?.endGame(this.gameId, { at, result: { ...event.outcome, stores: { south, north } } });
        this.update('end', {});
        return;
      }
      case 'new-game':
        this.gameId = null;
        this.ensureGame(at);
        this.update('new-game', {});
        return;
      case 'alert': {
        const alert: Alert = {
          id: ++this.alertSeq,
          level: event.code.startsWith('board/') ? 'info' : event.code === 'referee/ambiguous' ? 'warn' : 'error',
          code: event.code,
          message: event.message,
          params: event.params,
          ...(event.cells ? { cells: event.cells } : {}),
        };
        if (this.alert) this.broadcast({ type: 'alert-cleared', stateId: this.stateId, id: this.alert.id });
        this.alert = alert;
        this.log('alert', at, { code: event.code, params: event.params, cells: event.cells });
        this.broadcast({ type: 'alert', stateId: this.stateId, alert });
        return;
      }
      case 'cleared':
        if (!this.alert) return;
        this.broadcast({ type: 'alert-cleared', stateId: this.stateId, id: this.alert.id });
        this.alert = null;
        return;
    }
  }

  private ensureGame(at: number): void {
    if (this.gameId !== null || !this.options.log) return;
    this.gameId = this.options.log.startGame({
      game: 'kalaha',
      options: { ...this.options.rules },
      players: { south: 'Süd', north: 'Nord' },
      boardId: this.options.boardId,
      source: this.options.source === 'simulated' ? 'simulated' : 'sensors',
      at,
    });
  }

  private log(kind: 'move' | 'takeback' | 'alert', at: number, payload: unknown): void {
    if (this.gameId === null || !this.options.log) return;
    this.options.log.append(this.gameId, { kind, at, payload });
  }

  private update(event: 'move' | 'takeback' | 'settled' | 'new-game' | 'end', extra: { move?: string; undone?: readonly string[] }): void {
    this.stateId++;
    this.broadcast({ type: 'update', stateId: this.stateId, event, ...extra, record: this.referee.record(), view: this.view() });
  }

  private broadcast(message: ServerMessage): void {
    if (this.listeners.size === 0) return;
    const text = JSON.stringify(message);
    for (const listener of this.listeners) listener(message, text);
  }

  view(): KalahaView {
    return kalahaView(this.referee.state, this.referee.lastMove(), this.referee.pendingTransfers());
  }
}

export function kalahaView(
  state: KalahaState,
  last: { pit: number; sown: readonly number[]; captures: readonly number[] } | null,
  pending: readonly { from: number; to: number; stones: number }[],
): KalahaView {
  const cells = observe(state);
  const lastMove: KalahaView['lastMove'] = last ? { pit: last.pit, sown: last.sown, captures: last.captures } : null;
  return {
    game: 'kalaha',
    pits: cells.slice(0, 12),
    stores: { south: cells[STORE.south], north: cells[STORE.north] },
    toMove: state.outcome ? null : state.toMove,
    outcome: state.outcome ? { winner: state.outcome.winner, reason: state.outcome.reason } : null,
    lastMove,
    pending: pending.map((tr) => ({
      pit: tr.from,
      stones: tr.stones,
      store: tr.to === STORE.south ? 'south' : 'north',
      reason: state.outcome ? 'end' : 'capture',
    })),
  };
}

