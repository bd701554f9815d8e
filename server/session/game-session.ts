// What every live game has in common, whatever the board: referee events → state → game log →
// every page, and the referee console's commands.
//
// The session is the authority: pages get a full `sync` on connect and then `update`s with an
// increasing stateId; a console command based on an older state is refused. An event is written
// to the game log before any page is told about it.
import type { Alert, BoardStatus, ConsoleCommand, GameView, Question, ServerMessage } from '../http/messages.ts';
import type { GameLog } from '../store/index.ts';
import type { GameName } from '../rules/types.ts';

/** What the session needs of a game log. */
export type SessionLog = Pick<GameLog, 'startGame' | 'append' | 'endGame'>;

export type Listener = (message: ServerMessage, text: string) => void;

/** The events every referee speaks in (each game's referee may say more, which passes by). */
export type SessionEvent =
  | { readonly kind: 'calibrated'; readonly t: number }
  /** `reconstructed`: made while the service was down, and read from the board after its restart. */
  /** `assumed`: taken without the board or the console deciding it (issue 16's contract). */
  | { readonly kind: 'move'; readonly t: number; readonly move: string; readonly ply: number; readonly reconstructed?: boolean; readonly assumed?: true }
  /** The record from `ply` on was `old` and is now `new`. */
  | { readonly kind: 'correction'; readonly t: number; readonly ply: number; readonly old: readonly string[]; readonly new: readonly string[]; readonly reason: 'evidence' | 'console' }
  | { readonly kind: 'takeback'; readonly t: number; readonly undone: readonly string[]; readonly ply: number }
  | { readonly kind: 'settled'; readonly t: number }
  | { readonly kind: 'end'; readonly t: number; readonly outcome: { readonly winner: string; readonly reason: string } }
  | { readonly kind: 'new-game'; readonly t: number }
  | {
      readonly kind: 'alert';
      readonly t: number;
      readonly code: string;
      readonly message: string;
      readonly params: Readonly<Record<string, string | number>>;
      readonly cells?: readonly { readonly cell: number; readonly diff: number }[];
    }
  | { readonly kind: 'cleared'; readonly t: number }
  | {
      readonly kind: 'question';
      readonly t: number;
      readonly id: number;
      readonly code: string;
      readonly message: string;
      readonly params: Readonly<Record<string, string | number>>;
      readonly options: readonly string[];
      readonly preselected?: string;
      readonly blocking?: false;
    }
  | { readonly kind: 'question-closed'; readonly t: number; readonly id: number };

/** The outcome of a console command: the events it caused, or why it was refused. */
export type CommandResult =
  | { readonly ok: true; readonly events: readonly SessionEvent[] }
  | { readonly ok: false; readonly error: string; readonly message: string; readonly params?: Readonly<Record<string, string | number>> };

export interface SessionOptions {
  readonly boardId: string;
  readonly source: BoardStatus['source'];
  readonly log?: SessionLog;
  /** Wall clock for the game log (ms since the epoch); the referee runs on the board's clock. */
  readonly now?: () => number;
  /** The players' names by side or seat, as the log keeps them; default the sides' names. */
  readonly players?: Readonly<Record<string, string>>;
  /** The game being resumed from the log, if any. */
  readonly gameId?: number;
}

export abstract class GameSession {
  abstract readonly game: GameName & GameView['game'];
  private stateId = 0;
  private alert: Alert | null = null;
  private alertSeq = 0;
  private readonly questions = new Map<number, Question>();
  private readonly listeners = new Set<Listener>();
  private gameId: number | null;
  /** The logged game has its end written (by the referee's `end`, or by `closeGame`). */
  private gameEnded = false;
  private board: BoardStatus;
  private readonly now: () => number;
  /** The board's clock at the last frame: console commands happen "now" on that clock. */
  protected lastT = 0;

  constructor(private readonly base: SessionOptions) {
    this.now = base.now ?? Date.now;
    this.gameId = base.gameId ?? null;
    this.board = { source: base.source, connected: false, calibrated: false, framesPerSecond: 0, dropped: 0 };
  }

  abstract view(): GameView;
  abstract record(): string[];
  /** The game's options as the log keeps them. */
  protected abstract options(): object;
  /** Carry out a console command in the referee. */
  protected abstract perform(command: ConsoleCommand): CommandResult;

  get currentGameId(): number | null {
    return this.gameId;
  }

  get currentStateId(): number {
    return this.stateId;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sync(): ServerMessage {
    return {
      type: 'sync',
      stateId: this.stateId,
      game: this.game,
      record: this.record(),
      view: this.view(),
      alerts: this.alert ? [this.alert] : [],
      questions: [...this.questions.values()],
      board: this.board,
      ...(this.gameId !== null ? { gameId: this.gameId } : {}),
    };
  }

  /** The board's link changed (connected, frame rate, dropped lines). */
  setBoard(board: Partial<BoardStatus>): void {
    const next = { ...this.board, ...board };
    if (JSON.stringify(next) === JSON.stringify(this.board)) return;
    this.board = next;
    this.broadcast({ type: 'board', board: this.board });
  }

  /** A console command, already authenticated; refused when based on an older state. */
  command(stateId: number, command: ConsoleCommand): CommandResult {
    if (stateId !== this.stateId) {
      return { ok: false, error: 'console/stale-state', message: `The game has moved on (state ${this.stateId}, the console saw ${stateId}); look again and repeat.` };
    }
    const result = this.perform(command);
    if (result.ok) {
      if (command.kind === 'choose' || command.kind === 'enter') {
        // A move entered by hand may be the game's first: the game row must exist to hold the answer.
        this.ensureGame(this.now());
        this.log('answer', this.now(), { command });
      }
      this.applyAll(result.events);
    }
    return result;
  }

  protected applyAll(events: readonly SessionEvent[]): void {
    for (const event of events) this.apply(event);
  }

  /**
   * A resumed game whose record is already over: the service stopped between logging the last move
   * and the game's end, which is logged now.
   */
  protected endIfOver(outcome: Extract<SessionEvent, { kind: 'end' }>['outcome'] | null): void {
    if (outcome) this.applyAll([{ kind: 'end', t: 0, outcome }]);
  }

  private apply(event: SessionEvent): void {
    const at = this.now();
    if ('t' in event) this.lastT = Math.max(this.lastT, event.t);
    switch (event.kind) {
      case 'calibrated':
        this.ensureGame(at);
        this.setBoard({ calibrated: true });
        return;
      case 'move':
        this.ensureGame(at);
        this.log('move', at, { move: event.move, ply: event.ply, ...(event.reconstructed ? { reconstructed: true } : {}) });
        this.update('move', { move: event.move });
        return;
      case 'takeback':
        this.log('takeback', at, { undone: event.undone, ply: event.ply });
        this.update('takeback', { undone: event.undone });
        return;
      case 'settled':
        this.update('settled', {});
        return;
      case 'end':
        // The log writes the end event and closes the game in one step.
        if (this.gameId !== null && !this.gameEnded) this.base.log?.endGame(this.gameId, { at, result: { ...event.outcome, ...this.result() } });
        if (this.gameId !== null) this.gameEnded = true;
        this.update('end', {});
        return;
      case 'new-game':
        this.gameId = null;
        this.gameEnded = false;
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
      case 'question': {
        const question: Question = {
          id: event.id,
          code: event.code,
          message: event.message,
          params: event.params,
          options: event.options,
          ...(event.preselected !== undefined ? { preselected: event.preselected } : {}),
        };
        this.questions.set(event.id, question);
        this.broadcast({ type: 'question', stateId: this.stateId, question });
        return;
      }
      case 'question-closed':
        if (this.questions.delete(event.id)) this.broadcast({ type: 'question-closed', stateId: this.stateId, id: event.id });
        return;
    }
  }

  /** Whether a game is in the log and its end not yet written there. */
  get gameOpen(): boolean {
    return this.gameId !== null && !this.gameEnded && this.base.log !== undefined;
  }

  /**
   * Ends the logged game from outside the referee: the setup page ended it (`result`, to which the
   * game's own result is added) or abandoned it (`null`). The session should be replaced afterwards;
   * it writes nothing more for this game. Returns the game's id, or null when no game was open.
   */
  closeGame(result: object | null): number | null {
    if (!this.gameOpen || this.gameId === null) return null;
    const id = this.gameId;
    this.base.log?.endGame(id, { at: this.now(), result: result === null ? { reason: 'abandoned' } : { ...result, ...this.result() } });
    this.gameEnded = true;
    return id;
  }

  /** What the game's result adds to the logged outcome (Kalaha: the stores). */
  protected result(): object {
    return {};
  }

  private ensureGame(at: number): void {
    if (this.gameId !== null || !this.base.log) return;
    this.gameId = this.base.log.startGame({
      game: this.game,
      options: { ...this.options() },
      players: this.base.players ?? { south: 'Süd', north: 'Nord' },
      boardId: this.base.boardId,
      source: this.base.source === 'simulated' ? 'simulated' : 'sensors',
      at,
    });
  }

  /** A fault of the board or its link, kept in the log of the game being played (with none open, not kept). */
  noteFault(code: string, detail: Readonly<Record<string, string | number>> = {}): void {
    this.log('fault', this.now(), { code, ...detail });
  }

  private log(kind: 'move' | 'takeback' | 'alert' | 'answer' | 'fault', at: number, payload: unknown): void {
    // An ended game's log takes nothing more (the console may still answer a question about its last move).
    if (this.gameId === null || !this.base.log || this.gameEnded) return;
    this.base.log.append(this.gameId, { kind, at, payload });
  }

  private update(event: 'move' | 'takeback' | 'settled' | 'new-game' | 'end', extra: { move?: string; undone?: readonly string[] }): void {
    this.stateId++;
    this.broadcast({
      type: 'update',
      stateId: this.stateId,
      event,
      ...extra,
      record: this.record(),
      view: this.view(),
      ...(this.gameId !== null ? { gameId: this.gameId } : {}),
    });
  }

  private broadcast(message: ServerMessage): void {
    if (this.listeners.size === 0) return;
    const text = JSON.stringify(message);
    for (const listener of this.listeners) listener(message, text);
  }
}

/** A move read from a resumed game's board before it was watched: made while the service was down. */
export function madeWhileDown(event: SessionEvent): SessionEvent {
  return event.kind === 'move' ? { ...event, reconstructed: true } : event;
}
