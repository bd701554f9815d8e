// A resumed game's board that has not been read as the game yet, for the square-board referees. After a restart the
// players may have played on while nobody watched: the first move, take-back or next game read from the board, or the
// console acting, ends it, and from then on the board is watched as in any game.

type Calibrated = { readonly kind: 'calibrated'; readonly t: number };

/** The events that show the board has been read as the game. */
const READ: ReadonlySet<string> = new Set(['move', 'takeback', 'new-game']);

export class ResumeWatch {
  private unread = false;

  /** `onWatched`: the referee counts its board as calibrated from now on. */
  constructor(private readonly onWatched: () => void) {}

  /** The board has not been read since the game was resumed: a move read from it was made while nobody watched. */
  get resuming(): boolean {
    return this.unread;
  }

  /** After `restore`: a game with moves may have gone on while the service was down. */
  restored(moves: number): void {
    this.unread = moves > 0;
  }

  /** The board showed the game's position itself, and calibrated so: nothing happened meanwhile. */
  seen(): void {
    this.unread = false;
  }

  /** A frame's events: one that reads the board as the game ends the resume. */
  afterFrame<E extends { readonly kind: string }>(t: number, events: readonly E[]): readonly (E | Calibrated)[] {
    return this.unread && events.some((e) => READ.has(e.kind)) ? this.watched(t, events) : events;
  }

  /** The board is watched from now on; the first time, a `calibrated` event goes before the events. */
  watched<E>(t: number, events: readonly E[]): (E | Calibrated)[] {
    if (!this.unread) return [...events];
    this.unread = false;
    this.onWatched();
    return [{ kind: 'calibrated', t }, ...events];
  }
}
