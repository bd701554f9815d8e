// LiveTable: one board and the game on it now. The setup page starts, ends and abandons games and tares the
// scales; pages, the MQTT publisher and any other subscriber follow the table across a change of game.
//
// The table owns the board link and the current session. Every session message reaches the table's subscribers;
// a new game reaches them as a `sync`. State ids go on counting across games (each session counts from 0, the
// table adds where the last one stopped), so a page or a broker that drops updates older than its state never
// drops the new game's.
import type { EventEmitter } from 'node:events';
import type { BoardErrorMessage, BoardLink, CountsMessage, GridMessage, HelloMessage, WeightsMessage } from '../../firmware-bridge/index.ts';
import { tables as allKits, type TableGame, type TableKit } from '../tables/index.ts';
import { KalahaSession, resumeOf, type CommandResult, type GameSession, type LoggedAnswer, type SessionLog } from '../session/index.ts';
import type { GameLog } from '../store/index.ts';
import type { GameName } from '../rules/index.ts';
import type { BoardStatus, ConsoleCommand, GameView, RawFrameMessage, ServerMessage } from '../http/messages.ts';
import { UsageError } from '../cli.ts';
import type { AttachedBoard, TableBoard } from './boards.ts';
import { checkOptions, defaultPlayers, hostedGames, playersOf, SEATS, type HostedGame } from './hosting.ts';
import { measureStones, WeightWindow, type StoneMeasurement } from './calibration.ts';
import { BoardLeds } from './board-leds.ts';

/** What the table needs of the game log: what a session writes, and what a resume reads. */
export type TableLog = SessionLog & Partial<Pick<GameLog, 'liveGame' | 'events'>>;

export type TableListener = (message: ServerMessage, text: string) => void;
export type RawListener = (message: RawFrameMessage, text: string) => void;

export interface LiveTableOptions {
  readonly board: TableBoard;
  readonly log: TableLog;
  /** The table kits (default every kit in server/tables). */
  readonly kits?: Partial<Record<GameName, TableKit>>;
  /** Wall clock, ms: the pace of raw frames, frame rates, when the scales were tared. */
  readonly now?: () => number;
  /** Raw frames go out at most once in this many ms (default 100: ten a second). */
  readonly rawEveryMs?: number;
  /** How often the frame rate and dropped lines are told to the pages (default 1000 ms; 0: only by `refreshStatus`). */
  readonly statusEveryMs?: number;
  /** How long the board may take to answer TARE (default 2000 ms). */
  readonly commandTimeoutMs?: number;
  /** The board reported a fault (`ERR`). */
  readonly onFault?: (fault: BoardErrorMessage) => void;
}

/** The first game, as `serve` names it from its command line. */
export interface FirstGame {
  readonly game: GameName;
  /** Options as given (the kit checks them). */
  readonly options?: Record<string, unknown>;
  /** Go on with a game the log holds open for this board, if it is the same game with the same options. */
  readonly resume?: boolean;
}

/** A refusal of the setup page's request: HTTP status, stable code, English sentence. */
export class SetupError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: object = {},
  ) {
    super(message);
  }
}

/** The game the table plays now, and how it was asked for. */
interface Current {
  readonly kit: TableKit;
  readonly game: TableGame;
  /** Options as given, checked: what a fresh session of the same game is built from again. */
  readonly input: Record<string, unknown>;
  readonly players: Readonly<Record<string, string>>;
}

export interface EndRequest {
  /** A side (`south`, `north`), a seat (`"2"`), `draw`, `team` or `knights`; null: ended without a result. */
  readonly winner?: unknown;
  readonly reason?: unknown;
}

export interface SetupState {
  readonly board: {
    readonly kind: TableBoard['kind'];
    readonly source: TableBoard['source'];
    readonly id: string;
    readonly cols: number | null;
    readonly rows: number | null;
    readonly sense: 'weights' | 'occupancy' | 'counts';
    readonly status: BoardStatus;
  };
  readonly games: readonly HostedGame[];
  readonly current: {
    readonly game: GameName;
    readonly options: object;
    readonly players: Readonly<Record<string, string>>;
    /** The game's id in the log; null until its first move (or, on the Kalaha table, its calibration). */
    readonly gameId: number | null;
    readonly plies: number;
    /** Moves have been played and the game is not over: starting another abandons it. */
    readonly running: boolean;
    readonly over: boolean;
    readonly stateId: number;
  };
  /** The Kalaha table's scales; null on a square board. */
  readonly calibration: {
    readonly taredAt: number | null;
    readonly measured: (StoneMeasurement & { readonly at: number }) | null;
    /** What the referee found at the opening (null until it calibrated). */
    readonly referee: { readonly stone: number; readonly spread: number } | null;
  } | null;
}

const RESULT_REASON = /^[a-z][a-z-]{0,39}$/;
const LINK_EVENTS = ['weights', 'grid', 'counts', 'button', 'heartbeat', 'hello', 'error', 'ok', 'dropped', 'line', 'disconnect'] as const;

export class LiveTable {
  private readonly board: TableBoard;
  private readonly log: TableLog;
  private readonly kits: Partial<Record<GameName, TableKit>>;
  private readonly now: () => number;
  private readonly rawEveryMs: number;
  private readonly commandTimeoutMs: number;
  private readonly onFault: ((fault: BoardErrorMessage) => void) | undefined;
  private readonly listeners = new Set<TableListener>();
  private readonly rawListeners = new Set<RawListener>();

  private attached!: AttachedBoard;
  /** A square board's LEDs, lit on the squares a mismatch names; none on a Kalaha table. */
  private readonly leds: BoardLeds | null;
  /** Per fault code: when it was last logged, and how many of it came since. */
  private readonly faults = new Map<string, { at: number; more: number }>();
  private boardId!: string;
  private current!: Current;
  private session!: GameSession;
  /** Added to the session's state ids: where the table's count stood when this session began. */
  private base = 0;
  /** Undoes what the session and the table hung on the link. */
  private detachSession: () => void = () => {};
  private detachLink: () => void = () => {};
  private unsubscribeSession: () => void = () => {};
  /** The board's status as serve and the link tell it, given to every new session. */
  private boardStatus: Partial<BoardStatus> = {};
  private changing = false;
  private queue: Promise<unknown> = Promise.resolve();
  private resumedGame: { gameId: number; moves: readonly string[] } | null = null;

  // The link's frames: counted for the frame rate, kept for calibration, passed on raw.
  private frames = 0;
  private lastStatusAt: number;
  private framesPerSecond = 0;
  private lastSeq = -1;
  private lost = 0;
  private lastRawAt = -Infinity;
  private readonly weights = new WeightWindow(24);
  private taredAt: number | null = null;
  private measured: (StoneMeasurement & { at: number }) | null = null;
  private statusTimer: NodeJS.Timeout | undefined;

  private constructor(options: LiveTableOptions) {
    this.board = options.board;
    this.log = options.log;
    this.kits = options.kits ?? allKits;
    this.now = options.now ?? Date.now;
    this.rawEveryMs = options.rawEveryMs ?? 100;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2000;
    this.onFault = options.onFault;
    this.leds = options.board.kind === 'grid' ? new BoardLeds((command) => this.attached?.link.send(command) ?? false) : null;
    this.lastStatusAt = this.now();
    const every = options.statusEveryMs ?? 1000;
    if (every > 0) {
      this.statusTimer = setInterval(() => this.refreshStatus(), every);
      this.statusTimer.unref();
    }
  }

  /** Opens the table on `board` with its first game (resumed from the log when asked and possible). */
  static async open(options: LiveTableOptions, first: FirstGame): Promise<LiveTable> {
    const table = new LiveTable(options);
    try {
      await table.openWith(first);
    } catch (e) {
      await table.close();
      throw e;
    }
    return table;
  }

  private async openWith(first: FirstGame): Promise<void> {
    const kit = this.kits[first.game];
    if (!kit) throw new UsageError(`no table kit for ${first.game}`);
    if (kit.board !== this.board.kind) throw new UsageError(`${kit.title} is not played on a ${this.board.kind === 'kalaha' ? 'Kalaha table' : 'square board'}`);
    const input = { ...(first.options ?? {}) };
    const game = kit.withRules(input, this.board.hello ?? undefined);
    this.attached = await this.board.attach(game);
    this.boardId = this.attached.boardId;
    let players = defaultPlayers(first.game, typeof input.players === 'number' ? input.players : SEATS[first.game].min);
    // A game left open by a crash goes on where it was, on a real board, whose pieces are still where they
    // were; any other open game of this board is abandoned.
    const live = this.log.liveGame?.(this.boardId);
    let resume: { gameId: number; moves: string[]; answers: LoggedAnswer[] } | undefined;
    if (live && first.resume && live.game === first.game && JSON.stringify(live.options) === JSON.stringify(game.options) && this.log.events) {
      resume = { gameId: live.id, ...resumeOf(this.log.events(live.id)) };
      players = { ...live.players };
      this.resumedGame = resume;
    } else if (live) {
      this.log.endGame(live.id, { at: this.now(), result: { reason: 'abandoned' } });
    }
    this.attachLink(this.attached.link);
    this.install({ kit, game, input, players }, resume);
  }

  // -------------------------------------------------------------------------------------------
  // What the pages see (LiveGame)

  /** The game on the table now. */
  get game(): GameName & GameView['game'] {
    return this.session.game;
  }

  get currentGameId(): number | null {
    return this.session.currentGameId;
  }

  get currentStateId(): number {
    return this.base + this.session.currentStateId;
  }

  /** The game the log held open and this table went on with at start, if any. */
  get resumed(): { readonly gameId: number; readonly moves: readonly string[] } | null {
    return this.resumedGame;
  }

  get link(): BoardLink {
    return this.attached.link;
  }

  /** The id the log knows this table by (the first board's, for a simulated table that restarts). */
  get id(): string {
    return this.boardId;
  }

  /** How the start-up line describes the board. */
  get description(): string {
    return this.attached.description;
  }

  /** The session of the game now (tests, tools). */
  get currentSession(): GameSession {
    return this.session;
  }

  sync(): ServerMessage {
    return this.shift(this.session.sync());
  }

  subscribe(listener: TableListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A referee console's command, the token already checked; refused while the game is being changed. */
  command(stateId: number, command: ConsoleCommand): CommandResult {
    if (this.changing) return { ok: false, error: 'console/changing', message: 'The table is changing its game; look again and repeat.' };
    if (stateId < this.base) {
      return { ok: false, error: 'console/stale-state', message: `The game has moved on (state ${this.currentStateId}, the console saw ${stateId}); look again and repeat.` };
    }
    return this.session.command(stateId - this.base, command);
  }

  /** The board's link changed (connected, its link state); the frame rate and dropped lines the table counts itself. */
  setBoard(board: Partial<BoardStatus>): void {
    // The link going silent, away or live again is kept in the game's log beside its moves.
    if (board.link !== undefined && board.link !== this.boardStatus.link) this.noteFault(`board/${board.link}`);
    this.boardStatus = { ...this.boardStatus, ...board };
    this.session.setBoard(board);
  }

  /** Another board answered where this table's was and was refused: kept in the game's log beside its moves, with why. */
  noteBoardRefused(why: string): void {
    this.noteFault('board/refused', { text: why });
  }

  /** Raw frames, at most one per `rawEveryMs`, for as long as someone listens. */
  subscribeRaw(listener: RawListener): () => void {
    this.rawListeners.add(listener);
    return () => this.rawListeners.delete(listener);
  }

  /** Tells the pages the frame rate since the last call and the lines dropped; runs every second by itself. */
  refreshStatus(): void {
    if (!this.session) return; // still opening
    const now = this.now();
    const ms = now - this.lastStatusAt;
    if (ms <= 0) return;
    this.framesPerSecond = Math.round((this.frames * 1000) / ms);
    this.frames = 0;
    this.lastStatusAt = now;
    const status = { framesPerSecond: this.framesPerSecond, dropped: this.droppedLines() };
    this.boardStatus = { ...this.boardStatus, ...status };
    this.session.setBoard(status);
  }

  // -------------------------------------------------------------------------------------------
  // The setup page

  /** The games this board hosts, the game now, and the scales. */
  setupState(): SetupState {
    const hello = this.hello();
    const view = this.session.view();
    const plies = this.session.record().length;
    const referee = this.session instanceof KalahaSession ? this.session.referee.weightModel : null;
    return {
      board: {
        kind: this.board.kind,
        source: this.board.source,
        id: this.boardId,
        cols: this.board.kind === 'grid' ? (hello?.cols ?? null) : null,
        rows: this.board.kind === 'grid' ? (hello?.rows ?? null) : null,
        sense: this.board.kind === 'kalaha' ? 'weights' : hello?.sense === 'count' ? 'counts' : 'occupancy',
        status: (this.session.sync() as Extract<ServerMessage, { type: 'sync' }>).board,
      },
      games: this.hosted(),
      current: {
        game: this.session.game,
        options: this.current.game.options,
        players: this.current.players,
        gameId: this.session.currentGameId,
        plies,
        running: this.running(),
        over: view.outcome !== null,
        stateId: this.currentStateId,
      },
      calibration:
        this.board.kind === 'kalaha'
          ? { taredAt: this.taredAt, measured: this.measured, referee: referee ? { stone: round(referee.stone), spread: round(referee.stoneSpread) } : null }
          : null,
    };
  }

  /** The games this board hosts, each with its options and seats. */
  hosted(): HostedGame[] {
    return hostedGames({ kind: this.board.kind, source: this.board.source, hello: this.board.hello, sense: this.board.sense }, this.kits);
  }

  /**
   * Starts a game: `options` as the setup page offers them, `players` their names in seat order. A game with
   * moves that is not over is in the way: refused, unless `abandonRunning` abandons it first.
   */
  start(game: unknown, options: unknown, players: unknown, abandonRunning = false): Promise<{ gameId: number | null; abandoned: number | null }> {
    return this.exclusive(async () => {
      const hosted = this.hosted().find((h) => h.game === game);
      if (!hosted) {
        const offered = this.hosted().map((h) => h.game).join(', ');
        throw new SetupError(400, 'setup/not-hosted', `This board does not host "${String(game)}"; it hosts ${offered || 'no game'}.`);
      }
      const name = hosted.game;
      const checked = checkOptions(hosted, options);
      if (!checked.ok) throw new SetupError(400, checked.code, checked.message);
      const names = playersOf(name, players);
      if (!names.ok) throw new SetupError(400, names.code, names.message);
      const input = { ...checked.value };
      if (SEATS[name].kind === 'numbered') input.players = Object.keys(names.value).length;
      const kit = this.kits[name] as TableKit;
      let built: TableGame;
      try {
        built = kit.withRules(input, this.board.hello ?? undefined);
      } catch (e) {
        if (e instanceof UsageError) throw new SetupError(400, 'setup/bad-options', e.message.replace(/^--options: /, ''));
        throw e;
      }
      if (this.running() && !abandonRunning) {
        throw new SetupError(409, 'setup/game-running', `A game of ${this.current.kit.title} is being played (${this.session.record().length} moves): end or abandon it first.`);
      }
      const abandoned = this.session.closeGame(null);
      await this.replace({ kit, game: built, input, players: names.value }, { reattach: true });
      return { gameId: this.session.currentGameId, abandoned };
    });
  }

  /** Ends the game with a result the people at the table give; the table is then ready for the next game. */
  end(result: EndRequest): Promise<{ gameId: number }> {
    return this.exclusive(async () => {
      const winner = result.winner ?? null;
      if (winner !== null) {
        const winners = this.winners();
        if (typeof winner !== 'string' || !winners.includes(winner)) {
          throw new SetupError(400, 'setup/bad-winner', `The winner of this game is one of ${winners.map((w) => JSON.stringify(w)).join(', ')}, or null for none.`);
        }
      }
      const reason = result.reason ?? 'declared';
      if (typeof reason !== 'string' || !RESULT_REASON.test(reason)) {
        throw new SetupError(400, 'setup/bad-reason', 'The reason is a short word in lower case, such as "declared" or "agreed".');
      }
      if (!this.session.gameOpen) {
        const over = this.session.view().outcome !== null;
        throw new SetupError(
          409,
          over ? 'setup/game-over' : 'setup/no-game',
          over ? 'This game is over already and its result is in the log; start the next one.' : 'No game has begun yet: there is nothing to end.',
        );
      }
      const gameId = this.session.closeGame(winner === null ? { reason } : { winner, reason }) as number;
      await this.replace(this.current, { reattach: true });
      return { gameId };
    });
  }

  /** Abandons the game (the log keeps it as abandoned) and sets the same game up afresh. */
  abandon(): Promise<{ gameId: number | null }> {
    return this.exclusive(async () => {
      const gameId = this.session.closeGame(null);
      await this.replace(this.current, { reattach: true });
      return { gameId };
    });
  }

  /**
   * Zeroes the Kalaha table's scales (`TARE`). The table should be empty; a game with moves is in the way. The
   * referee then calibrates afresh from the next opening it sees.
   */
  tare(): Promise<{ at: number }> {
    return this.exclusive(async () => {
      this.needScales();
      if (this.running()) throw new SetupError(409, 'setup/game-running', 'A game is being played: end or abandon it before taring the table.');
      try {
        await this.attached.link.request({ kind: 'tare' }, this.commandTimeoutMs);
      } catch (e) {
        throw boardFailure(e as Error);
      }
      this.taredAt = this.now();
      this.measured = null;
      this.weights.clear();
      // The open game (no move yet) keeps its row in the log; its referee starts again.
      const open = this.session.gameOpen && this.session.currentGameId !== null ? { gameId: this.session.currentGameId, moves: [] } : undefined;
      await this.replace(this.current, { reattach: false, resume: open });
      return { at: this.taredAt };
    });
  }

  /** Measures the stone weight from the last still frames of a table filled as the rules say. */
  measureStones(): Promise<StoneMeasurement & { at: number }> {
    return this.exclusive(async () => {
      this.needScales();
      if (this.attached.link.isClosed || this.boardStatus.connected === false) throw new SetupError(409, 'setup/board-offline', 'The board is not connected.');
      const seedsPerPit = (this.current.game.options as { seedsPerPit: number }).seedsPerPit;
      const measured = measureStones(this.weights.frames(), seedsPerPit);
      if (!measured.ok) throw new SetupError(409, measured.code, measured.message, measured.cells ? { cells: measured.cells } : {});
      this.measured = { ...measured.value, at: this.now() };
      return this.measured;
    });
  }

  /** Stops the timers, lets go of the session and closes the board. */
  async close(): Promise<void> {
    clearInterval(this.statusTimer);
    this.unsubscribeSession();
    this.detachSession();
    this.detachLink();
    await this.board.close();
  }

  // -------------------------------------------------------------------------------------------

  private needScales(): void {
    if (this.board.kind !== 'kalaha') throw new SetupError(409, 'setup/no-scales', 'Only the Kalaha table weighs; a square board has nothing to tare or calibrate.');
  }

  private running(): boolean {
    return this.session.gameOpen && this.session.record().length > 0 && this.session.view().outcome === null;
  }

  /** Who may be named the winner of the game now. */
  private winners(): string[] {
    const view = this.session.view();
    switch (view.game) {
      case 'kalaha':
      case 'malawi':
        return ['south', 'north', 'draw'];
      case 'makis':
        return [...seatNumbers(view.players), ...(view.mode === 'cooperative' ? ['team'] : []), 'knights'];
      case 'adu':
        return [...seatNumbers(view.players), 'draw'];
      default:
        return view satisfies never;
    }
  }

  /** One change of game at a time; console commands wait it out. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      this.changing = true;
      try {
        return await fn();
      } finally {
        this.changing = false;
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Puts a new session of `next` on the table (on a fresh simulated board when `reattach`), and tells every page. */
  private async replace(next: Current, how: { reattach: boolean; resume?: { gameId: number; moves: readonly string[] } }): Promise<void> {
    const nextBase = this.currentStateId + 1;
    this.unsubscribeSession();
    this.detachSession();
    this.unsubscribeSession = () => {};
    this.detachSession = () => {};
    if (how.reattach && this.board.source === 'simulated') {
      this.detachLink();
      this.attached = await this.board.attach(next.game);
      this.attachLink(this.attached.link);
    }
    this.base = nextBase;
    this.install(next, how.resume);
    this.emit(this.sync());
  }

  /** Builds the session of `next` on the attached link, noting what it hangs on the link so it can be taken off. */
  private install(next: Current, resume?: { gameId: number; moves: readonly string[]; answers?: readonly LoggedAnswer[] }): void {
    const link = this.attached.link;
    const before = new Map(LINK_EVENTS.map((name) => [name, new Set(link.rawListeners(name))]));
    const session = next.game.session(
      { boardId: this.boardId, source: this.board.source, log: this.log, players: next.players, ...(resume ? { resume } : {}) },
      link,
    );
    const added = LINK_EVENTS.flatMap((name) => link.rawListeners(name).filter((l) => !before.get(name)?.has(l)).map((l) => [name, l] as const));
    const emitter = link as unknown as EventEmitter;
    this.detachSession = () => {
      for (const [name, listener] of added) emitter.off(name, listener as (...args: unknown[]) => void);
    };
    this.current = next;
    this.session = session;
    session.setBoard({ connected: !link.isClosed, link: 'live', ...this.boardStatus });
    this.unsubscribeSession = session.subscribe((message, text) => this.forward(message, text));
  }

  /** The table's own listeners on a link: frames for the frame rate, the scales' window and the raw view. */
  private attachLink(link: BoardLink): void {
    this.lastSeq = -1;
    const seq = (n: number): void => {
      if (this.lastSeq >= 0) {
        const gap = (n - this.lastSeq - 1) >>> 0;
        // A seq that jumps back or wildly is a board that restarted, not frames lost.
        if (gap > 0 && gap < 10_000) this.lost += gap;
      }
      this.lastSeq = n;
    };
    const onWeights = (m: WeightsMessage): void => {
      this.frames++;
      seq(m.seq);
      this.weights.push(m.cells);
      if (this.rawListeners.size) this.offerRaw('weights', m.seq, m.cells);
    };
    const onGrid = (m: GridMessage): void => {
      this.frames++;
      seq(m.seq);
      if (this.rawListeners.size) this.offerRaw('occupancy', m.seq, m.occupancy);
    };
    const onCounts = (m: CountsMessage): void => {
      this.frames++;
      seq(m.seq);
      if (this.rawListeners.size) this.offerRaw('counts', m.seq, m.cells);
    };
    const onHello = (_hello: HelloMessage): void => {
      this.lastSeq = -1;
      this.leds?.forget(); // a board that (re)started has its LEDs dark
    };
    const onDisconnect = (): void => this.setBoard({ connected: false });
    const onFault = (fault: BoardErrorMessage): void => {
      this.leds?.fault(fault);
      this.noteFault(`board/${fault.code}`, { text: fault.text });
      this.onFault?.(fault);
    };
    link.on('weights', onWeights);
    link.on('grid', onGrid);
    link.on('counts', onCounts);
    link.on('hello', onHello);
    link.on('disconnect', onDisconnect);
    link.on('error', onFault);
    this.detachLink = () => {
      link.off('weights', onWeights);
      link.off('grid', onGrid);
      link.off('counts', onCounts);
      link.off('hello', onHello);
      link.off('disconnect', onDisconnect);
      link.off('error', onFault);
    };
  }

  private offerRaw(sense: RawFrameMessage['sense'], seq: number, cells: readonly number[] | bigint): void {
    const now = this.now();
    if (now - this.lastRawAt < this.rawEveryMs) return;
    this.lastRawAt = now;
    const hello = this.hello();
    const cols = this.board.kind === 'grid' ? (hello?.cols ?? null) : null;
    const rows = this.board.kind === 'grid' ? (hello?.rows ?? null) : null;
    const message: RawFrameMessage = {
      type: 'raw',
      sense,
      cols,
      rows,
      seq,
      cells: typeof cells === 'bigint' ? bitsOf(cells, (cols ?? 0) * (rows ?? 0)) : cells,
      framesPerSecond: this.framesPerSecond,
      dropped: this.droppedLines(),
      lost: this.lost,
    };
    const text = JSON.stringify(message);
    for (const listener of this.rawListeners) listener(message, text);
  }

  /** What the board said: a real board's HELLO, or the simulated board's of this game. */
  private hello(): HelloMessage | null {
    return this.board.hello ?? this.attached.link.hello;
  }

  private droppedLines(): number {
    const dropped = this.attached.link.stats().dropped as unknown as Record<string, unknown>;
    return Object.values(dropped ?? {}).reduce((s: number, n) => s + (typeof n === 'number' ? n : 0), 0);
  }

  private shift(message: ServerMessage): ServerMessage {
    return this.base !== 0 && 'stateId' in message ? ({ ...message, stateId: message.stateId + this.base } as ServerMessage) : message;
  }

  private forward(message: ServerMessage, text: string): void {
    if (this.base !== 0 && 'stateId' in message) {
      const shifted = this.shift(message);
      this.emit(shifted);
      return;
    }
    this.leds?.follow(message);
    for (const listener of this.listeners) listener(message, text);
  }

  /**
   * A board fault into the game's log: each code at most once in FAULT_EVERY_MS, with how many more
   * came meanwhile — a board spewing errors must not turn into a durable write per line.
   */
  private noteFault(code: string, detail: Readonly<Record<string, string>> = {}): void {
    if (!this.session) return;
    const now = this.now();
    const last = this.faults.get(code);
    if (last && now - last.at < FAULT_EVERY_MS) {
      last.more++;
      return;
    }
    this.faults.set(code, { at: now, more: 0 });
    this.session.noteFault(code, last?.more ? { ...detail, more: last.more } : detail);
  }

  private emit(message: ServerMessage): void {
    this.leds?.follow(message);
    if (this.listeners.size === 0) return;
    const text = JSON.stringify(message);
    for (const listener of this.listeners) listener(message, text);
  }
}

/** A board fault of one code is logged at most this often (its repeats are counted into the next). */
const FAULT_EVERY_MS = 5000;

/** `"1"` … `"n"`: the seats of a game of numbered players. */
function seatNumbers(players: number): string[] {
  return Array.from({ length: players }, (_, i) => String(i + 1));
}

/** Bit i of `bits` for cells 0 … count − 1. */
function bitsOf(bits: bigint, count: number): number[] {
  const out = new Array<number>(count);
  let rest = bits;
  for (let i = 0; i < count; i++) {
    out[i] = Number(rest & 1n);
    rest >>= 1n;
  }
  return out;
}

function boardFailure(e: Error): SetupError {
  if (/refused/.test(e.message)) return new SetupError(502, 'setup/board-refused', e.message);
  if (/closed/.test(e.message)) return new SetupError(409, 'setup/board-offline', e.message);
  return new SetupError(504, 'setup/no-answer', e.message);
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
