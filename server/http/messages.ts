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
  readonly pending: readonly { readonly pit: number; readonly store: SideName; readonly reason: 'capture' | 'end' }[];
}

export type GameView = KalahaView;

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
  readonly cells?: readonly { readonly cell: number; readonly diff: number }[];
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
      readonly game: 'kalaha';
      readonly record: readonly string[];
      readonly view: GameView;
      readonly alerts: readonly Alert[];
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
  | { readonly type: 'board'; readonly board: BoardStatus };
