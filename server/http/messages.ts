// What the server sends to every page over the WebSocket, and what the pages may send back.
// The web pages import these types only.

export type SideName = 'south' | 'north';

/** The Kalaha table as a page draws it. Cells follow the sensor order: pits A…F, a…f. */
export interface KalahaView {
  readonly game: 'kalaha';
  readonly pits: readonly number[];
  readonly stores: { readonly south: number; readonly north: number };
  readonly toMove: SideName | null;
  readonly outcome: { readonly winner: SideName | 'draw'; readonly reason: string } | null;
  /** The last move: the pit sown, the pits that received a stone, the pits captured. */
  readonly lastMove: { readonly pit: number; readonly sown: readonly number[]; readonly captures: readonly number[] } | null;
  /** Stones the players still have to carry into a store (after a capture or at the end). */
  readonly pending: readonly { readonly pit: number; readonly stones: number; readonly store: SideName; readonly reason: 'capture' | 'end' }[];
}

/** A Malawi board as a page draws it: squares `a1`…, each piece with its side and strength (beads). */
export interface MalawiView {
  readonly game: 'malawi';
  readonly size: number;
  readonly pieces: readonly { readonly square: string; readonly side: SideName; readonly strength: number }[];
  readonly toMove: SideName | null;
  readonly outcome: { readonly winner: SideName | 'draw'; readonly reason: string } | null;
  /** The last move in notation (`c1-c3`, `c1xc5`, `d1>a1,b1`) and the squares it touched. */
  readonly lastMove: { readonly notation: string; readonly kind: 'move' | 'capture' | 'distribute'; readonly squares: readonly string[] } | null;
}

/**
 * A Makis board as a page draws it. Squares are named `c<column>r<row>` (`c5r9`); players are
 * numbered from 1 in seat order.
 */
export interface MakisView {
  readonly game: 'makis';
  readonly players: number;
  readonly mode: 'competitive' | 'cooperative';
  /** The knights' rows (1–9), column 1 first. */
  readonly knights: readonly number[];
  /** One entry per player, player 1 first: the Maki's square, `out` once captured, null before it is placed. */
  readonly makis: readonly (string | 'out' | null)[];
  readonly phase: 'place' | 'roll' | 'maki' | 'over';
  /** The player who places, rolls or moves next; null once the game is over. */
  readonly toMove: number | null;
  /** The last roll (three numbers, as the dice III, IV, V show them), null before the first. */
  readonly lastRoll: readonly [number, number, number] | null;
  /** A roll the display made for the table: the referee now expects exactly this one. */
  readonly expectedRoll: readonly [number, number, number] | null;
  /** What the next roll would do, exactly over the 216 rolls; null when no roll is due. */
  readonly odds: {
    /** Per square by name: rolls (of 216) that would capture / send back a Maki standing there. */
    readonly danger: Readonly<Record<string, { readonly capture: number; readonly reset: number }>>;
    /** Per Maki on the board, player 1 first. */
    readonly makis: readonly { readonly player: number; readonly square: string; readonly capture: number; readonly reset: number }[];
    /** Rolls (of 216) that bring a knight to row 9. */
    readonly knightsHome: number;
  } | null;
  /** Pieces the players still have to put back after the last roll or step (knight or Maki resets). */
  readonly pending: readonly { readonly piece: 'knight' | 'maki'; readonly column: number; readonly player?: number; readonly from: string; readonly to: string }[];
  readonly outcome: { readonly winner: string; readonly reason: string } | null;
  /** The last token in notation (`R2.5.5`, `1:c4r8`, `2@c2r9`). */
  readonly lastMove: string | null;
}

/** An Adu board (intersections `a1`…) for 2 to 6 players, numbered from 1 in seat order. */
export interface AduView {
  readonly game: 'adu';
  readonly size: number;
  readonly players: number;
  readonly pieces: readonly { readonly square: string; readonly player: number; readonly kind: 'king' | 'soldier' | 'reserve'; readonly id: string }[];
  readonly phase: 'placement' | 'play' | 'over';
  /** Placement: what the player to move places next. */
  readonly placing: { readonly kind: 'king' | 'soldier'; readonly id: string } | null;
  readonly toMove: number | null;
  /** Per player, player 1 first: still in the game, kings and reserve kings on the board. */
  readonly seats: readonly { readonly player: number; readonly in: boolean; readonly kings: number; readonly reserves: number }[];
  /** Reserve kings left in the supply. */
  readonly supply: number;
  /** The Merkskala: per player number, each soldier on the board and its ranges still possible. */
  readonly ranges: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>>;
  /** After a king was captured: the capturer must put a reserve king on a free point. */
  readonly awaitingReserve: { readonly player: number } | null;
  readonly outcome: { readonly winner: string; readonly reason: string; readonly players: readonly number[] } | null;
  readonly lastMove: { readonly notation: string; readonly squares: readonly string[] } | null;
  /** Players still in who had no legal move and were skipped right before `toMove`'s turn (absent: none). */
  readonly passed?: readonly number[];
  /** Captured soldiers whose owner has not declared the range yet; the Merkskala meanwhile counts the lowest (absent: none). */
  readonly declaring?: readonly { readonly player: number; readonly soldier: string; readonly square: string }[];
}

export type GameView = KalahaView | MalawiView | MakisView | AduView;

/**
 * A question for the referee console: the sensors cannot tell which of several legal moves was
 * made (a Malawi capture or distribution leaves occupancy unchanged). `options` are the legal
 * moves that fit, in notation; the console answers with one of them.
 */
export interface Question {
  readonly id: number;
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
  readonly options: readonly string[];
  /** The option the console shows chosen at first (Adu: the lowest range a captured soldier may be declared). */
  readonly preselected?: string;
  /**
   * `false`: play goes on without the answer. The record took one option (a move marked `assumed`);
   * an answer that differs corrects the record. Absent: the referee waits for it.
   */
  readonly blocking?: false;
}

/**
 * A correction of the record: from `ply` (1-based) on it was `old` and is now `new` (either may be
 * longer). `evidence`: later pictures showed the committed move was wrong; `console`: the console
 * answered a question about a move already in the record.
 */
export interface RecordCorrection {
  readonly ply: number;
  readonly old: readonly string[];
  readonly new: readonly string[];
  readonly reason: 'evidence' | 'console';
}

/**
 * An alert shown on every page. `code` is stable (`kalaha/forbidden-capture`, `referee/mismatch`),
 * `params` fill the sentence in the page's language, `message` is the English fallback.
 */
export interface Alert {
  readonly id: number;
  readonly level: 'info' | 'warn' | 'error';
  readonly code: string;
  readonly message: string;
  readonly params: Readonly<Record<string, string | number>>;
  /** Cells that differ from the expected board: positive = stones too many there. */
  readonly cells?: readonly { readonly cell: number; readonly diff: number; readonly beads?: number }[];
}

export interface BoardStatus {
  readonly source: 'simulated' | 'serial' | 'trace' | 'none';
  readonly connected: boolean;
  /**
   * What the link knows when `connected` is false: `not-responding` (no heartbeat for 3 s),
   * `reconnecting` (the cable is gone; the link tries again with backoff), `wrong-board` (another board
   * answered where this one was: refused, and the link goes on looking for this one). Absent: nothing more known.
   */
  readonly link?: 'live' | 'not-responding' | 'reconnecting' | 'wrong-board';
  readonly calibrated: boolean;
  readonly framesPerSecond: number;
  readonly dropped: number;
}

export type ServerMessage =
  | {
      readonly type: 'sync';
      readonly stateId: number;
      readonly game: GameView['game'];
      readonly record: readonly string[];
      readonly view: GameView;
      readonly alerts: readonly Alert[];
      /** Open questions for the referee console (absent: none). */
      readonly questions?: readonly Question[];
      readonly board: BoardStatus;
      /** The game's id in the game log, for `GET /api/games/:id` (absent: no log, or the game has no row yet). */
      readonly gameId?: number;
    }
  | {
      readonly type: 'update';
      readonly stateId: number;
      readonly event: 'move' | 'takeback' | 'correction' | 'settled' | 'new-game' | 'end';
      /** The move just played (event `move`), in notation. */
      readonly move?: string;
      /** The move was taken without the board or the console deciding it (event `move`); the console may still change it. */
      readonly assumed?: true;
      /** The moves taken back (event `takeback`). */
      readonly undone?: readonly string[];
      /** What was corrected (event `correction`); `record` is the corrected record. */
      readonly correction?: RecordCorrection;
      readonly record: readonly string[];
      readonly view: GameView;
      /** As in `sync`: a game gets its row in the log with its first move, so the first update may be the first to name it. */
      readonly gameId?: number;
    }
  | { readonly type: 'alert'; readonly stateId: number; readonly alert: Alert }
  | { readonly type: 'alert-cleared'; readonly stateId: number; readonly id: number }
  | { readonly type: 'board'; readonly board: BoardStatus }
  | { readonly type: 'question'; readonly stateId: number; readonly question: Question }
  | { readonly type: 'question-closed'; readonly stateId: number; readonly id: number }
  /** The answer to one console command, to the console that sent it only. */
  | {
      readonly type: 'command-result';
      /** The command's `ref`; 0 answers `auth`. */
      readonly ref: number;
      readonly ok: boolean;
      /** Why it was refused: `console/bad-token`, `console/unauthorized`, `console/stale-state`, `console/bad-message`, `console/no-question`, `console/nothing-to-undo`, or the referee's or engine's code (`referee/not-an-option`, `malawi/wrong-distance`, …). */
      readonly error?: string;
      /** The English sentence; `params` fill the page's own. */
      readonly message?: string;
      readonly params?: Readonly<Record<string, string | number>>;
    };

/**
 * What a referee console may send. Every command needs the referee token the server prints at
 * start (`auth` once per connection); `stateId` is the state the console saw, and a command based
 * on a stale state is refused. `ref` is echoed in the command-result.
 */
export type ConsoleCommand =
  | { readonly kind: 'choose'; readonly questionId: number; readonly move: string }
  /** "A capture or distribution happened": the referee asks which (Malawi on an occupancy board). */
  | { readonly kind: 'ask' }
  | { readonly kind: 'undo' }
  | { readonly kind: 'enter'; readonly move: string }
  /** The players agree to end the game (Kalaha: each takes the stones in their own pits). */
  | { readonly kind: 'agree' }
  | { readonly kind: 'confirm' }
  /** Makis: the display rolls the dice for the table (a fair random source); the referee then expects exactly that roll. */
  | { readonly kind: 'roll' };

export type ClientMessage =
  | { readonly type: 'auth'; readonly token: string }
  | { readonly type: 'command'; readonly ref: number; readonly stateId: number; readonly command: ConsoleCommand };

/**
 * The board's raw readings for the setup page's live view, so a dead sensor shows at a glance. Sent only to
 * the sockets that asked with a RawRequest, and at most about ten a second (the newest frame each time).
 */
export interface RawFrameMessage {
  readonly type: 'raw';
  /** `weights`: a Kalaha table, `cells` in tenths of a gram (pits A…F, a…f, stores south, north); `occupancy`: 1 or 0 per square; `counts`: beads or pieces per square. */
  readonly sense: 'weights' | 'occupancy' | 'counts';
  /** A square board's size (cell = row · cols + col, row 0 = rank 1); null on a Kalaha table. */
  readonly cols: number | null;
  readonly rows: number | null;
  /** The frame's own counter. */
  readonly seq: number;
  readonly cells: readonly number[];
  /** Frames a second the board sent over the last second. */
  readonly framesPerSecond: number;
  /** Lines dropped since the link opened (a bad checksum, a malformed or overlong line, a byte that is not ASCII). */
  readonly dropped: number;
  /** Frames missing from the seq counter (lost on the line, or thinned because they came too fast). */
  readonly lost: number;
}

/** A page asks for raw frames (`on: true`) or stops them. Any page may ask: the readings change nothing. */
export interface RawRequest {
  readonly type: 'raw';
  readonly on: boolean;
}
