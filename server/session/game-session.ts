// What every live game has in common, whatever the board: referee events → state → game log →
// every page, and the referee console's commands.
//
// The session is the authority: pages get a full `sync` on connect and then `update`s with an
// increasing stateId; a console command based on an older state is refused. An event is written
// to the game log before any page is told about it. When the log cannot be written (a full disk),
// the events wait in order, the pages see the game as it was and why, and the events are written,
// and only then shown, as soon as the log takes them again.
import type { Alert, BoardStatus, ConsoleCommand, GameView, Question, RecordCorrection, ServerMessage } from '../http/messages.ts';
import { GameLogWriteError, type GameLog } from '../store/index.ts';
import type { GameName } from '../rules/types.ts';

/** What the session needs of a game log. */
export type SessionLog = Pick<GameLog, 'startGame' | 'append' | 'endGame'>;

type UpdateEvent = Extract<ServerMessage, { type: 'update' }>['event'];

export type Listener = (message: ServerMessage, text: string) => void;

/** The events every referee speaks in (each game's referee may say more, which passes by). */
export type SessionEvent =
  | { readonly kind: 'calibrated'; readonly t: number }
  /**
   * `reconstructed`: made while the service was down, and read from the board after its restart.
   * `assumed`: taken without the board or the console deciding it (its question went unanswered, or
   * every answer left the same position); the console may still change it.
   */
  | {
      readonly kind: 'move';
      readonly t: number;
      readonly move: string;
      readonly ply: number;
      readonly reconstructed?: boolean;
      readonly assumed?: true;
    }
  | { readonly kind: 'takeback'; readonly t: number; readonly undone: readonly string[]; readonly ply: number }
  /**
   * The record from `ply` (1-based) on was `old` and is now `new` (either may be longer): later
   * pictures showed a committed move was wrong (`evidence`), or the console answered a question about
   * a move already in the record (`console`).
   */
  | {
      readonly kind: 'correction';
      readonly t: number;
      readonly ply: number;
      readonly old: readonly string[];
      readonly new: readonly string[];
      readonly reason: RecordCorrection['reason'];
    }
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
      /** `false`: the record went on with one option (an `assumed` move); the console may still answer. */
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
  /** While the log cannot be written, how soon the session tries again, in ms (default 2000, then slower); every new event tries too. */
  readonly retryMs?: number;
}

/**
 * One thing the session does, in the order it happened: a write to the log, which may have to wait, or
 * what follows from it (pages told, the game's id taken), which waits for every write before it.
 */
type Step = { readonly write: () => void } | { readonly then: () => void };

const DEFAULT_RETRY_MS = 2000;
/**
 * The timer's tries slow down to one in this many ms: a database that does not answer holds the service's
 * thread for its whole timeout at each try (see server/store/postgres.ts). Every new event still tries at once.
 */
const MAX_RETRY_MS = 30_000;

/** The English words for why the log cannot be written, in the sentences the session sends. */
const UNWRITABLE_WORDS: Readonly<Record<GameLogWriteError['reason'], string>> = {
  'disk-full': 'the disk is full',
  'read-only': 'it is read-only',
  gone: 'the database is gone',
  failed: 'the database refused the write',
};

export abstract class GameSession {
  abstract readonly game: GameName & GameView['game'];
  private stateId = 0;
  private alert: Alert | null = null;
  private alertSeq = 0;
  private readonly questions = new Map<number, Question>();
  private readonly listeners = new Set<Listener>();
  /** The game's id in the log, once its row is written. */
  private gameId: number | null;
  /** The game has its row in the log, or the write of it waits in `steps`. */
  private gameStarted: boolean;
  /** The logged game has its end written, or waiting to be (by the referee's `end`, or by `closeGame`). */
  private gameEnded = false;
  /** What happened and is not yet done, oldest first: it waits for a write the log refused. */
  private readonly steps: Step[] = [];
  /** Why the first of `steps` could not be written; null while the log takes every write. */
  private held: GameLogWriteError | null = null;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryMs: number;
  /** The wait before the next try by the timer: doubled after each, up to MAX_RETRY_MS. */
  private retryDelay: number;
  private flushing = false;
  /** The record and view the pages were last shown: what a page that connects sees while events wait. */
  private shown: { readonly record: readonly string[]; readonly view: GameView } | null = null;
  private board: BoardStatus;
  private readonly now: () => number;
  /** The board's clock at the last frame: console commands happen "now" on that clock. */
  protected lastT = 0;

  constructor(private readonly base: SessionOptions) {
    this.now = base.now ?? Date.now;
    this.gameId = base.gameId ?? null;
    this.gameStarted = this.gameId !== null;
    this.retryMs = base.retryMs ?? DEFAULT_RETRY_MS;
    this.retryDelay = this.retryMs;
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
    if (this.steps.length === 0) this.shown ??= { record: this.record(), view: this.view() };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sync(): ServerMessage {
    // While events wait for the log, a page sees the game as the others do: without them.
    if (this.steps.length === 0 || this.shown === null) this.shown = { record: this.record(), view: this.view() };
    return {
      type: 'sync',
      stateId: this.stateId,
      game: this.game,
      record: this.shown.record,
      view: this.shown.view,
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
    this.flush();
    // The console acts on the game the pages show; what waits for the log would come after it.
    if (this.held) {
      return {
        ok: false,
        error: 'store/unwritable',
        message: `The game log cannot be written (${UNWRITABLE_WORDS[this.held.reason]}); the table waits until it can, and takes no command meanwhile.`,
        params: { reason: this.held.reason },
      };
    }
    // The log holds the game's end and takes nothing more, and the rules allow no move after it: a take-back, an
    // entered move or an answer can only be refused. `confirm` changes no move (a resumed board's reading).
    if (command.kind !== 'confirm' && (this.gameEnded || this.view().outcome !== null)) {
      return { ok: false, error: 'console/game-over', message: 'The game is over and its result is in the log: nothing in it can be changed now; start the next game on the setup page.' };
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
    this.flush();
  }

  /** Why the log takes no write now, and how many events wait for it; null while it takes every write. */
  get logTrouble(): { readonly reason: GameLogWriteError['reason']; readonly held: number } | null {
    return this.held && { reason: this.held.reason, held: this.heldWrites() };
  }

  /** Tries the waiting writes again now (the session does so by itself every `retryMs`). */
  tryLogAgain(): void {
    this.flush();
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
        this.then(() => this.setBoard({ calibrated: true }));
        return;
      case 'move':
        this.ensureGame(at);
        this.log('move', at, {
          move: event.move,
          ply: event.ply,
          ...(event.reconstructed ? { reconstructed: true } : {}),
          ...(event.assumed ? { assumed: true } : {}),
        });
        this.update('move', { move: event.move, ...(event.assumed ? { assumed: true } : {}) });
        return;
      case 'correction': {
        this.ensureGame(at);
        const correction = { ply: event.ply, old: [...event.old], new: [...event.new], reason: event.reason };
        this.log('correction', at, correction);
        // The update's record is the corrected one: the referee has already rewritten its own.
        this.update('correction', { correction });
        return;
      }
      case 'takeback':
        this.log('takeback', at, { undone: event.undone, ply: event.ply });
        this.update('takeback', { undone: event.undone });
        return;
      case 'settled':
        this.update('settled', {});
        return;
      case 'end': {
        // The log writes the end event and closes the game in one step.
        const result = { ...event.outcome, ...this.result() };
        if (this.gameStarted && !this.gameEnded) this.write((log) => log.endGame(this.loggedGame(), { at, result }));
        if (this.gameStarted) this.gameEnded = true;
        this.update('end', {});
        return;
      }
      case 'new-game':
        this.then(() => {
          this.gameId = null;
        });
        this.gameStarted = false;
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
        this.log('alert', at, { code: event.code, params: event.params, cells: event.cells });
        this.then(() => {
          if (this.alert) this.broadcast({ type: 'alert-cleared', stateId: this.stateId, id: this.alert.id });
          this.alert = alert;
          this.broadcast({ type: 'alert', stateId: this.stateId, alert });
        });
        return;
      }
      case 'cleared':
        this.then(() => {
          if (!this.alert) return;
          this.broadcast({ type: 'alert-cleared', stateId: this.stateId, id: this.alert.id });
          this.alert = null;
        });
        return;
      case 'question': {
        const question: Question = {
          id: event.id,
          code: event.code,
          message: event.message,
          params: event.params,
          options: event.options,
          ...(event.preselected !== undefined ? { preselected: event.preselected } : {}),
          ...(event.blocking === false ? { blocking: false as const } : {}),
        };
        this.then(() => {
          this.questions.set(event.id, question);
          this.broadcast({ type: 'question', stateId: this.stateId, question });
        });
        return;
      }
      case 'question-closed':
        this.then(() => {
          if (this.questions.delete(event.id)) this.broadcast({ type: 'question-closed', stateId: this.stateId, id: event.id });
        });
        return;
    }
  }

  /** Whether a game is in the log and its end not yet written there. */
  get gameOpen(): boolean {
    return this.gameStarted && !this.gameEnded && this.base.log !== undefined;
  }

  /**
   * Ends the logged game from outside the referee: the setup page ended it (`result`, to which the
   * game's own result is added) or abandoned it (`null`). The session should be replaced afterwards;
   * it writes nothing more for this game. Returns the game's id, or null when no game was open.
   * Throws GameLogWriteError, ending nothing, while the log cannot be written: events still wait for it.
   */
  closeGame(result: object | null): number | null {
    if (!this.gameOpen || !this.base.log) return null;
    this.flush();
    if (this.held) throw this.held;
    const id = this.loggedGame();
    this.base.log.endGame(id, { at: this.now(), result: result === null ? { reason: 'abandoned' } : { ...result, ...this.result() } });
    this.gameEnded = true;
    return id;
  }

  /** What the game's result adds to the logged outcome (Kalaha: the stores). */
  protected result(): object {
    return {};
  }

  private ensureGame(at: number): void {
    if (this.gameStarted || !this.base.log) return;
    this.gameStarted = true;
    const game = {
      game: this.game,
      options: { ...this.options() },
      players: this.base.players ?? { south: 'Süd', north: 'Nord' },
      boardId: this.base.boardId,
      source: this.base.source === 'simulated' ? ('simulated' as const) : ('sensors' as const),
      at,
    };
    this.write((log) => {
      this.gameId = log.startGame(game);
    });
  }

  /** A fault of the board or its link, kept in the log of the game being played (with none open, not kept). */
  noteFault(code: string, detail: Readonly<Record<string, string | number>> = {}): void {
    this.log('fault', this.now(), { code, ...detail });
    this.flush();
  }

  private log(kind: 'move' | 'takeback' | 'correction' | 'alert' | 'answer' | 'fault', at: number, payload: unknown): void {
    // An ended game's log takes nothing more (the store refuses it): an alert or a board fault after the end is
    // shown, not kept.
    if (!this.gameStarted || this.gameEnded) return;
    this.write((log) => log.append(this.loggedGame(), { kind, at, payload }));
  }

  /** The game's id, when a write that needs it runs: the write of its row came before. */
  private loggedGame(): number {
    if (this.gameId === null) throw new Error('a write to the log ran before the game had its row');
    return this.gameId;
  }

  private write(write: (log: SessionLog) => unknown): void {
    const log = this.base.log;
    if (log) this.steps.push({ write: () => void write(log) });
  }

  private then(then: () => void): void {
    this.steps.push({ then });
  }

  /**
   * Does what waits, in order, up to the first write the log refuses: that one and all after it wait, the
   * pages are told why, and it is tried again in `retryMs` or at the next event, whichever comes first. A
   * write the log refuses for its input would never land: it is dropped, and the caller hears of it once the
   * rest is done.
   */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    let refused: unknown = null;
    try {
      while (this.steps.length) {
        const step = this.steps[0];
        if ('then' in step) {
          this.steps.shift();
          step.then();
          continue;
        }
        try {
          step.write();
        } catch (error) {
          if (!(error instanceof GameLogWriteError)) {
            this.steps.shift();
            refused ??= error;
            continue;
          }
          this.hold(error);
          return;
        }
        this.steps.shift();
      }
      if (this.held) this.release();
    } finally {
      this.flushing = false;
    }
    if (refused !== null) throw refused;
  }

  private heldWrites(): number {
    return this.steps.filter((step) => 'write' in step).length;
  }

  private hold(error: GameLogWriteError): void {
    this.held = error;
    this.showLog({ unwritable: error.reason, held: this.heldWrites() });
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      try {
        this.flush();
      } catch {
        // A write refused for its input was dropped; with no caller to tell, the rest goes on.
      }
    }, this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, Math.max(this.retryMs, MAX_RETRY_MS));
    this.retry.unref();
  }

  private release(): void {
    this.held = null;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.retryDelay = this.retryMs;
    this.showLog(undefined);
  }

  /** The log's state on every page, beside the board's. */
  private showLog(log: BoardStatus['log']): void {
    const { log: before, ...board } = this.board;
    if (JSON.stringify(before) === JSON.stringify(log)) return;
    this.board = log ? { ...board, log } : board;
    this.broadcast({ type: 'board', board: this.board });
  }

  private update(
    event: UpdateEvent,
    extra: { move?: string; assumed?: true; undone?: readonly string[]; correction?: RecordCorrection },
  ): void {
    // As it is now, not when it is shown: the referee may be further on by then.
    const record = this.record();
    const view = this.view();
    this.then(() => {
      this.stateId++;
      this.shown = { record, view };
      this.broadcast({
        type: 'update',
        stateId: this.stateId,
        event,
        ...extra,
        record,
        view,
        ...(this.gameId !== null ? { gameId: this.gameId } : {}),
      });
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
