// The square board's LEDs as a guide: when the referee's alert names squares to fix, those squares
// light up on the board itself — orange where a piece is too many, blue where one is missing,
// yellow where only the beads differ — and go dark when the alert clears or the game changes.
import type { BoardCommand, BoardErrorMessage } from '../../firmware-bridge/index.ts';
import type { ServerMessage } from '../http/messages.ts';

export const TOO_MANY = 'ff6000';
export const MISSING = '0060ff';
export const BEADS_DIFFER = 'ffd000';
/** A board answers about 20 commands sent at once safely (hardware/PROTOCOL.md); a mismatch names far fewer squares. */
export const MAX_LIT = 20;

export class BoardLeds {
  /** Cleared when the board says it has no LEDs: it is not asked again. */
  private enabled = true;
  private lit = false;

  constructor(private readonly send: (command: BoardCommand) => boolean) {}

  /** Every message the pages get; alerts with cells light the board, their end darkens it. */
  follow(message: ServerMessage): void {
    if (!this.enabled) return;
    switch (message.type) {
      case 'alert': {
        this.darken();
        const cells = (message.alert.cells ?? []).filter((c) => c.diff !== 0 || (c.beads ?? 0) !== 0).slice(0, MAX_LIT);
        for (const c of cells) this.send({ kind: 'led', cell: c.cell, color: c.diff > 0 ? TOO_MANY : c.diff < 0 ? MISSING : BEADS_DIFFER });
        this.lit = cells.length > 0;
        return;
      }
      case 'alert-cleared':
      case 'sync':
        this.darken();
        return;
      default:
        return;
    }
  }

  /** A board without LEDs answers `ERR unsupported`; after that none are sent. */
  fault(fault: BoardErrorMessage): void {
    if (fault.code === 'unsupported' && /\bLEDs?\b/i.test(fault.text)) this.enabled = false;
  }

  /** After the board restarted or came back: its LEDs are dark, whatever was lit before. */
  forget(): void {
    this.lit = false;
  }

  get active(): boolean {
    return this.enabled;
  }

  private darken(): void {
    if (!this.lit) return;
    this.send({ kind: 'leds-off' });
    this.lit = false;
  }
}
