// The one alert a referee shows at a time: raised once for as long as the same trouble lasts (its
// key), cleared once. Every referee keeps its alerts this way.
import type { BoardAlert } from './events.ts';

/** An alert as raised; the referee adds the cells to fix where it has them. */
export type RaisedAlert = Omit<BoardAlert, 'cells'>;

export class AlertLatch {
  private showing: string | null = null;

  /** The key of the alert showing now, null when none is. */
  get key(): string | null {
    return this.showing;
  }

  /** An alert, unless the same one (by key) is showing already. */
  raise(t: number, key: string, code: string, message: string, params: Readonly<Record<string, string | number>>): RaisedAlert | null {
    if (this.showing === key) return null;
    this.showing = key;
    return { kind: 'alert', t, code, message, params };
  }

  /** Takes the alert down (the caller checks `key` first when it only clears one that shows). */
  clear(t: number): { readonly kind: 'cleared'; readonly t: number } {
    this.showing = null;
    return { kind: 'cleared', t };
  }
}
