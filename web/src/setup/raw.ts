// The raw sensor view's logic, pure: reading a raw frame, where each cell sits, how strong its colour is, and which
// sensors have shown a change since the view opened (a sensor that never does may be dead).
import type { RawFrameMessage } from '../../../server/http/messages.ts';
import { FILE_LETTERS, cellName, type Lang } from '../i18n/index.ts';

const SENSES = new Set(['weights', 'occupancy', 'counts']);
/** The most cells a frame may carry (a 13 × 13 board; Kalaha has 14). */
const MAX_CELLS = 19 * 19;

/** One WebSocket text as a raw frame, or null for anything else (every other message a page gets). */
export function parseRawFrame(text: string): RawFrameMessage | null {
  if (!text.startsWith('{"type":"raw"')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const m = value as Partial<RawFrameMessage> | null;
  if (typeof m !== 'object' || m === null || m.type !== 'raw' || !SENSES.has(m.sense as string)) return null;
  if (!Array.isArray(m.cells) || m.cells.length > MAX_CELLS || !m.cells.every((c) => typeof c === 'number' && Number.isFinite(c))) return null;
  const count = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  if (!count(m.seq) || !count(m.framesPerSecond) || !count(m.dropped) || !count(m.lost)) return null;
  if (m.sense === 'weights' ? m.cells.length !== 14 : !count(m.cols) || !count(m.rows) || (m.cols as number) * (m.rows as number) !== m.cells.length) return null;
  return m as RawFrameMessage;
}

/** Where a cell sits in the view's CSS grid (1-based lines), and its name. */
export interface CellPlace {
  readonly cell: number;
  readonly column: number;
  readonly row: number;
  /** Stores span both rows of the Kalaha table. */
  readonly rowSpan: number;
  readonly label: string;
}

/**
 * The Kalaha table seen from south, as the board is drawn: north's store on the left, a–f along the top from right
 * to left, A–F along the bottom from left to right, south's store on the right. Eight columns, two rows.
 */
export function kalahaPlaces(lang: Lang): CellPlace[] {
  const places: CellPlace[] = [];
  for (let pit = 0; pit < 12; pit++) {
    const south = pit < 6;
    places.push({ cell: pit, column: south ? pit + 2 : 11 - pit + 2, row: south ? 2 : 1, rowSpan: 1, label: cellName(lang, pit) });
  }
  places.push({ cell: 13, column: 1, row: 1, rowSpan: 2, label: cellName(lang, 13) });
  places.push({ cell: 12, column: 8, row: 1, rowSpan: 2, label: cellName(lang, 12) });
  return places;
}

/**
 * A square board seen from south: rank 1 at the bottom, file a on the left. Makis names its squares
 * column/row (`5/9`), the other games `c3`.
 */
export function gridPlaces(cols: number, rows: number, makis: boolean): CellPlace[] {
  const places: CellPlace[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const label = makis ? `${col + 1}/${row + 1}` : `${FILE_LETTERS[col] ?? '?'}${row + 1}`;
      places.push({ cell: row * cols + col, column: col + 1, row: rows - row, rowSpan: 1, label });
    }
  }
  return places;
}

/**
 * How strongly a cell is coloured, 0 to 1: its reading against the largest on the board, so the heaviest pit or
 * fullest square is full colour. Weights are scaled to at least 20 g, so an empty table's noise stays dark.
 */
export function intensity(frame: RawFrameMessage, cell: number): number {
  const value = frame.cells[cell] ?? 0;
  // Half a gram is the noise of an empty pit, not a stone.
  if (value <= (frame.sense === 'weights' ? 5 : 0)) return 0;
  if (frame.sense === 'occupancy') return 1;
  let top = frame.sense === 'weights' ? 200 : 1;
  for (const v of frame.cells) if (v > top) top = v;
  return Math.min(1, value / top);
}

/** A reading as the view writes it: grams with one decimal, a count, or nothing for occupancy. */
export function cellText(lang: Lang, frame: RawFrameMessage, cell: number): string {
  const value = frame.cells[cell] ?? 0;
  if (frame.sense === 'weights') return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value / 10);
  if (frame.sense === 'counts') return String(value);
  return '';
}

/** A weight change smaller than this (tenths of a gram) is noise, not a hand. */
const WEIGHT_CHANGE = 10;
/** A load cell that reads exactly the same this many frames in a row is flat: a live one always jitters a little. */
export const FLAT_FRAMES = 20;

/**
 * Which sensors have changed since the view opened (or was reset). Sweep a hand or a piece over every pit or square:
 * one that never shows a change is dead or unplugged. On the scales, a cell whose reading does not jitter at all is
 * flagged as flat too.
 */
export class ChangeWatch {
  private baseline: number[] | null = null;
  private sense: RawFrameMessage['sense'] | null = null;
  private readonly changed = new Set<number>();
  private last: number[] = [];
  private same: number[] = [];

  /** Takes a frame; a frame of another size or sense starts the watch afresh. */
  observe(frame: RawFrameMessage): void {
    if (!this.baseline || this.sense !== frame.sense || this.baseline.length !== frame.cells.length) {
      this.baseline = [...frame.cells];
      this.sense = frame.sense;
      this.changed.clear();
      this.last = [...frame.cells];
      this.same = frame.cells.map(() => 1);
      return;
    }
    const threshold = frame.sense === 'weights' ? WEIGHT_CHANGE : 1;
    frame.cells.forEach((v, i) => {
      if (Math.abs(v - (this.baseline as number[])[i]) >= threshold) this.changed.add(i);
      this.same[i] = v === this.last[i] ? this.same[i] + 1 : 1;
      this.last[i] = v;
    });
  }

  hasChanged(cell: number): boolean {
    return this.changed.has(cell);
  }

  get changedCount(): number {
    return this.changed.size;
  }

  /** A load cell that read exactly the same value for FLAT_FRAMES frames. */
  isFlat(cell: number): boolean {
    return this.sense === 'weights' && (this.same[cell] ?? 0) >= FLAT_FRAMES;
  }

  reset(): void {
    this.baseline = null;
    this.sense = null;
    this.changed.clear();
  }
}
