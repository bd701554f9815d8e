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

export type GameView = KalahaView | MalawiView;

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
    }
  | {
      readonly type: 'update';
      readonly stateId: number;
      readonly event: 'move' | 'takeback' | 'settled' | 'new-game' | 'end';
      /** The move just played (event `move`), in notation. */
      readonly move?: string;
      /** The moves taken back (event `takeback`). */
      readonly undone?: readonly string[];
      readonly record: readonly string[];
      readonly view: GameView;
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
  | { readonly kind: 'confirm' };

export type ClientMessage =
  | { readonly type: 'auth'; readonly token: string }
  | { readonly type: 'command'; readonly ref: number; readonly stateId: number; readonly command: ConsoleCommand };
