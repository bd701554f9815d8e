// The clock a board's lines are stamped with for the referee: time in which the board was not heard is cut out.
//
// Why: the settle stages decide that a picture holds still when frames keep showing it for long
// enough on the frames' own clock. A picture seen for a moment before the cable was pulled (a
// piece in the air, a bead half-way) would otherwise count as held still through the whole
// silence, and be settled by the first frame after it. With the silence cut out, the first frame
// after it follows the last one before it by one frame period, as if nothing had been missed.

/** A silence longer than this is cut out. Boards send a heartbeat every second, so any longer silence is a fault. */
export const DEFAULT_GAP_MS = 1500;
/** What a cut-out silence still counts for: the protocol's default frame period. */
export const STEP_ACROSS_GAP_MS = 50;

export class GaplessClock {
  private last = NaN;
  private offset = 0;
  private cutNext = false;
  /** Silences cut out so far. */
  gaps = 0;

  constructor(private readonly gapMs = DEFAULT_GAP_MS) {}

  /** The next line follows a gap whatever its time says (a port that came back, a board that restarted). */
  cut(): void {
    this.cutNext = true;
  }

  /** The time to stamp on a line the source says arrived (or was sent) at `t`. Never goes back. */
  at(t: number): number {
    if (Number.isNaN(this.last)) {
      this.last = t;
      return t;
    }
    const dt = t - this.last;
    this.last = t;
    if (dt < 0) {
      this.offset += dt;
    } else if ((this.cutNext || dt > this.gapMs) && dt > STEP_ACROSS_GAP_MS) {
      this.offset += dt - STEP_ACROSS_GAP_MS;
      this.gaps++;
    }
    this.cutNext = false;
    return t - this.offset;
  }
}
