// The table's own queue of game events on their way to the broker: bounded, in order, and kept
// until the broker has acknowledged each one (QoS 1), so an outage of any length loses nothing
// but what overflows the bound, and that only from the event stream: the retained state and the
// game log still have it.

/** One event, serialized once, and whether it is out at the broker waiting for its acknowledgement. */
export interface OutboxEntry {
  readonly seq: number;
  readonly text: string;
  sent: boolean;
  acked: boolean;
}

export class Outbox {
  private entries: OutboxEntry[] = [];
  /** Entries before `head` are acknowledged and only wait to be compacted away. */
  private head = 0;
  private unsent = 0;
  private overflowed = 0;

  /** `limit`: the most events held (sent or not) before new ones are counted and dropped. */
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`an outbox holds at least one event, not ${limit}`);
  }

  /** Queues an event; false when the outbox is full and the event is dropped. */
  push(seq: number, text: string): boolean {
    if (this.size >= this.limit) {
      this.overflowed++;
      return false;
    }
    this.entries.push({ seq, text, sent: false, acked: false });
    this.unsent++;
    return true;
  }

  /** Events held: out at the broker or waiting. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Events waiting to be sent. */
  get waiting(): number {
    return this.unsent;
  }

  /** Events sent and not yet acknowledged. */
  get inFlight(): number {
    return this.size - this.unsent;
  }

  /** Events dropped because the outbox was full. */
  get dropped(): number {
    return this.overflowed;
  }

  /** The oldest unsent event, now marked sent; null when none waits. */
  next(): OutboxEntry | null {
    if (this.unsent === 0) return null;
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (!entry.sent && !entry.acked) {
        entry.sent = true;
        this.unsent--;
        return entry;
      }
    }
    return null;
  }

  /** The broker has it: forget it (in order, so the queue's front moves on). */
  acked(entry: OutboxEntry): void {
    if (entry.acked || !entry.sent) return;
    entry.acked = true;
    while (this.head < this.entries.length && this.entries[this.head].acked) this.head++;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** It never reached the broker (the client was ended): it waits to be sent again, in its place. */
  failed(entry: OutboxEntry): void {
    if (entry.acked || !entry.sent) return;
    entry.sent = false;
    this.unsent++;
  }
}
