// The boards a live table stands on: a real board (one link for every game it hosts) or a simulated one, started
// afresh with each game's kit, its simulated players with it.
import type { BoardLink, HelloMessage } from '../../firmware-bridge/index.ts';
import type { SimulateSettings, TableGame } from '../tables/index.ts';
import type { BoardKind } from './hosting.ts';

/** The board a game is played on, once attached. */
export interface AttachedBoard {
  readonly link: BoardLink;
  readonly boardId: string;
  /** How the start-up line describes it: `a simulated table`, `/dev/ttyACM0 (board 1A2B3C4D)`. */
  readonly description: string;
}

export interface TableBoard {
  readonly kind: BoardKind;
  readonly source: 'simulated' | 'serial';
  /** A real board's HELLO, which decides the games it hosts; null for a simulated board. */
  readonly hello: HelloMessage | null;
  /** A simulated square board's sense (a counting board carries fewer squares in a line). */
  readonly sense?: 'occupancy' | 'count';
  /**
   * The board for `game`. A real board gives its one link every time; a simulated board closes the one it ran
   * and starts a fresh one for this game, with the game's simulated players.
   */
  attach(game: TableGame): Promise<AttachedBoard>;
  /** Closes the board (a real board's port is closed by whoever opened it). */
  close(): Promise<void>;
}

/** A real board on its link. The caller opened it and closes it; `close` here lets go only. */
export function realBoard(link: BoardLink, hello: HelloMessage, description: string): TableBoard {
  if (hello.board !== 'kalaha' && hello.board !== 'grid') throw new RangeError(`a board of kind "${hello.board}" hosts no game`);
  const kind: BoardKind = hello.board;
  return {
    kind,
    source: 'serial',
    hello,
    attach: async () => ({ link, boardId: hello.id, description }),
    close: async () => {},
  };
}

/**
 * A simulated board of `kind`. Each game gets a new one at its own size; the first is played with `seed`, the
 * next with `seed + 1`, and so on, so a run is reproducible and the games differ.
 */
export function simulatedBoard(kind: BoardKind, settings: SimulateSettings): TableBoard {
  let running: { close(): Promise<void> } | null = null;
  let games = 0;
  return {
    kind,
    source: 'simulated',
    hello: null,
    sense: settings.sense,
    async attach(game) {
      const previous = running;
      running = null;
      await previous?.close();
      const sim = await game.simulate({ ...settings, seed: (settings.seed + games++) % 2 ** 31 });
      running = sim;
      return { link: sim.link, boardId: sim.boardId, description: sim.description };
    },
    async close() {
      const previous = running;
      running = null;
      await previous?.close();
    },
  };
}
