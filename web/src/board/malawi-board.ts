// <malawi-board>: a Malawi board drawn as SVG from plain data. It knows no rules: pieces, the last move, differences
// and the console's selection all come in as properties; a tapped square goes out as a `square-select` event.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type SVGTemplateResult } from 'lit';
import type { Alert, MalawiView } from '../../../server/http/messages.ts';
import { DEFAULT_LANG, sideName, signed, squareIndex, squareName, t, type Lang, type SideName } from '../i18n/catalogue.ts';
import { beadsOf } from '../i18n/alerts.ts';
import { malawiBoardStyles } from './malawi-board.styles.ts';
import {
  BEAD_RADIUS,
  CELL,
  INNER_FRAME,
  MAX_BEADS,
  OUTER_FRAME,
  PIECE_GAP,
  PIECE_HALF_SIDE,
  PIECE_RADIUS,
  arrowLine,
  beadOffsets,
  boardHeight,
  boardLabels,
  boardWidth,
  frameBox,
  gridBox,
  hatchLines,
  isDarkSquare,
  moveMarks,
  squareBox,
  squareCenter,
  turnBar,
  type Box,
  type MalawiLastMove,
  type MoveMarks,
} from './malawi-layout.ts';
import type { Point } from './layout.ts';

export type MalawiPiece = MalawiView['pieces'][number];
export type SquareDiff = NonNullable<Alert['cells']>[number];

export interface SquareSelectDetail {
  /** `c3` */
  readonly square: string;
  /** Cell index: row * size + col, row 0 = rank 1. */
  readonly cell: number;
}
export type SquareSelectEvent = CustomEvent<SquareSelectDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'malawi-board': MalawiBoard;
  }
  interface HTMLElementEventMap {
    'square-select': SquareSelectEvent;
  }
}

/** Stripes end a little inside the square: their thickness would otherwise poke into the neighbours. */
const HATCH_INSET = 4;

export class MalawiBoard extends LitElement {
  static override styles = malawiBoardStyles;

  static override properties: PropertyDeclarations = {
    size: { type: Number, reflect: true },
    pieces: { attribute: false },
    toMove: { attribute: false },
    lastMove: { attribute: false },
    diffs: { attribute: false },
    marked: { attribute: false },
    selectable: { type: Boolean, reflect: true },
    lang: { reflect: true },
    legend: { type: Boolean, reflect: true },
  };

  declare size: number;
  declare pieces: readonly MalawiPiece[];
  declare toMove: SideName | null;
  declare lastMove: MalawiLastMove | null;
  /**
   * Squares where the real board differs from the game: +1 a piece stands there that should not, −1 one is
   * missing; on a counting board `diff: 0` with `beads` when the piece is right but not its beads.
   */
  declare diffs: readonly SquareDiff[];
  /** Squares the console has picked (tapped into a move being entered). */
  declare marked: readonly number[];
  /** Squares can be tapped (the console); the display only shows. */
  declare selectable: boolean;
  declare lang: Lang;
  /** Explain the marks below the board (only those on show). */
  declare legend: boolean;

  constructor() {
    super();
    this.size = 6;
    this.pieces = [];
    this.toMove = null;
    this.lastMove = null;
    this.diffs = [];
    this.marked = [];
    this.selectable = false;
    this.lang = DEFAULT_LANG;
    this.legend = false;
  }

  override render() {
    const n = this.size;
    const width = boardWidth(n);
    const height = boardHeight(n);
    const bySquare = new Map<number, MalawiPiece>();
    for (const piece of this.pieces) {
      const cell = squareIndex(piece.square, n);
      if (cell !== null) bySquare.set(cell, piece);
    }
    const marks = moveMarks(this.lastMove, n);
    const diffByCell = new Map<number, string>();
    for (const d of this.diffs) {
      const beads = beadsOf(d);
      // The bead sign marks a count of beads, not of pieces.
      if (d.diff !== 0) diffByCell.set(d.cell, signed(d.diff));
      else if (beads !== 0) diffByCell.set(d.cell, `${signed(beads)}\u2022`);
    }
    const marked = new Set(this.marked);
    const cells = Array.from({ length: n * n }, (_, cell) => cell);
    const grid = gridBox(n);
    const { files, ranks } = boardLabels(n);
    return html`
      <svg viewBox="0 0 ${width} ${height}" role="group" aria-label=${t(this.lang, 'malawi.board.label', { size: n })}>
        <rect class="table" x="0" y="0" width=${width} height=${height} rx="28"></rect>
        ${this.toMove ? this.renderTurnBar(this.toMove) : nothing}
        ${[...files, ...ranks].map((l) => svg`<text class="label" x=${l.x} y=${l.y} aria-hidden="true">${l.text}</text>`)}
        ${cells.map((cell) => this.renderSquare(cell, bySquare.get(cell) ?? null, marks, diffByCell.get(cell), marked.has(cell)))}
        <rect class="grid" x=${grid.x} y=${grid.y} width=${grid.width} height=${grid.height}></rect>
        ${this.renderArrows(marks, bySquare)}
        ${[...diffByCell].map(([cell, text]) => diffBadge(squareBox(cell, n), text))}
      </svg>
      ${this.legend ? this.renderLegend(marks, diffByCell.size > 0, this.pieces.some((p) => p.strength === 0)) : nothing}
    `;
  }

  private renderTurnBar(side: SideName): SVGTemplateResult {
    const b = turnBar(side, this.size);
    return svg`<rect class="turn-bar" x=${b.x} y=${b.y} width=${b.width} height=${b.height} rx=${b.height / 2}></rect>`;
  }

  private renderSquare(
    cell: number,
    piece: MalawiPiece | null,
    marks: MoveMarks,
    diff: string | undefined,
    marked: boolean,
  ): SVGTemplateResult {
    const n = this.size;
    const box = squareBox(cell, n);
    const name = squareName(cell, n);
    const label = piece
      ? t(this.lang, 'malawi.square.piece', { square: name, side: sideName(this.lang, piece.side), strength: piece.strength })
      : t(this.lang, 'malawi.square.empty', { square: name });
    const moveFrame =
      marks.captured === cell
        ? 'captured'
        : marks.to === cell
          ? 'to'
          : marks.from === cell
            ? 'from'
            : marks.received.includes(cell)
              ? 'received'
              : null;
    const outer = diff ? 'differs' : marked ? 'marked' : null;
    return svg`
      <g class="square-hit" role="img" aria-label=${label} data-square=${name} @click=${() => this.selectSquare(cell)}>
        <rect class="square ${isDarkSquare(cell, n) ? 'dark' : 'light'}" x=${box.x} y=${box.y} width=${CELL} height=${CELL}></rect>
        ${marks.captured === cell ? hatch(frameBox(cell, n, HATCH_INSET)) : nothing}
        ${piece ? drawPiece(squareCenter(cell, n), piece.side, piece.strength) : nothing}
        ${moveFrame ? frame(frameBox(cell, n, INNER_FRAME.inset), moveFrame, INNER_FRAME.width) : nothing}
        ${outer ? frame(frameBox(cell, n, OUTER_FRAME.inset), outer, OUTER_FRAME.width) : nothing}
      </g>`;
  }

  /** One arrow for a move or capture; a distribution is shown by its frames alone (up to five arrows would hide the beads). */
  private renderArrows(marks: MoveMarks, bySquare: ReadonlyMap<number, MalawiPiece>) {
    if (marks.from === null) return nothing;
    const target = marks.to ?? marks.captured;
    if (target === null) return nothing;
    // A moved piece has left its square; the arrow may start at its centre.
    const startGap = bySquare.has(marks.from) ? PIECE_GAP : 0;
    const line = arrowLine(marks.from, target, this.size, startGap, PIECE_GAP);
    return arrow(line.from, line.to);
  }

  private renderLegend(marks: MoveMarks, diff: boolean, empty: boolean) {
    const items: [string, SVGTemplateResult][] = [];
    const swatch = { x: 0, y: 0, width: 100, height: 100 };
    const inset = { x: 10, y: 10, width: 80, height: 80 };
    const centre = { x: 50, y: 50 };
    for (const side of ['south', 'north'] as const) {
      items.push([sideName(this.lang, side), drawPiece(centre, side, 2)]);
    }
    if (empty) items.push([t(this.lang, 'legend.malawi.empty'), drawPiece(centre, 'south', 0)]);
    if (marks.from !== null) items.push([t(this.lang, 'legend.malawi.from'), frame(inset, 'from', 7)]);
    if (marks.to !== null) {
      items.push([t(this.lang, 'legend.malawi.to'), svg`${frame(inset, 'to', 7)}${arrow({ x: 8, y: 50 }, { x: 70, y: 50 })}`]);
    }
    if (marks.captured !== null) {
      items.push([t(this.lang, 'legend.captured'), svg`${hatch(inset)}${frame(inset, 'captured', 7)}`]);
    }
    if (marks.received.length) items.push([t(this.lang, 'legend.malawi.received'), frame(inset, 'received', 7)]);
    if (diff) items.push([t(this.lang, 'legend.diff'), svg`${frame(inset, 'differs', 7)}${diffBadge(swatch, '±')}`]);
    return html`<ul class="legend">
      ${items.map(
        ([label, mark]) =>
          html`<li><svg viewBox="0 0 100 100" aria-hidden="true">${mark}</svg><span>${label}</span></li>`,
      )}
    </ul>`;
  }

  private selectSquare(cell: number): void {
    if (!this.selectable) return;
    const detail: SquareSelectDetail = { square: squareName(cell, this.size), cell };
    this.dispatchEvent(new CustomEvent<SquareSelectDetail>('square-select', { detail, bubbles: true, composed: true }));
  }
}

/** A piece: south a light disc, north a dark rounded square; its beads as dice dots, none (hollow) at strength 0. */
function drawPiece(c: Point, side: SideName, strength: number): SVGTemplateResult {
  const empty = strength === 0 ? 'empty' : '';
  const body =
    side === 'south'
      ? svg`<circle class="piece south ${empty}" cx=${c.x} cy=${c.y} r=${PIECE_RADIUS}></circle>`
      : svg`<rect class="piece north ${empty}" x=${c.x - PIECE_HALF_SIDE} y=${c.y - PIECE_HALF_SIDE}
          width=${2 * PIECE_HALF_SIDE} height=${2 * PIECE_HALF_SIDE} rx="9"></rect>`;
  const beads =
    strength > MAX_BEADS
      ? svg`<text class="numeral ${side}" x=${c.x} y=${c.y}>${strength}</text>`
      : beadOffsets(strength).map((d) => svg`<circle class="bead ${side}" cx=${c.x + d.x} cy=${c.y + d.y} r=${BEAD_RADIUS}></circle>`);
  return svg`${body}${beads}`;
}

function frame(box: Box, kind: string, width: number): SVGTemplateResult {
  return svg`<rect class="frame ${kind}" x=${box.x} y=${box.y} width=${box.width} height=${box.height} rx="6"
    stroke-width=${width}></rect>`;
}

function hatch(box: Box): SVGTemplateResult {
  return svg`<g class="hatch">${hatchLines(box, 20).map(
    (l) => svg`<line x1=${l.a.x} y1=${l.a.y} x2=${l.b.x} y2=${l.b.y}></line>`,
  )}</g>`;
}

function arrow(from: Point, to: Point): SVGTemplateResult {
  const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const ux = (to.x - from.x) / length;
  const uy = (to.y - from.y) / length;
  const head = 22;
  const half = 13;
  // The shaft stops where the head begins, so its round cap does not poke through the tip.
  const baseX = to.x - ux * head;
  const baseY = to.y - uy * head;
  const points = [
    `${to.x},${to.y}`,
    `${baseX - uy * half},${baseY + ux * half}`,
    `${baseX + uy * half},${baseY - ux * half}`,
  ].join(' ');
  return svg`<g class="move-arrow">
    ${length > head ? svg`<line class="arrow" x1=${from.x} y1=${from.y} x2=${baseX} y2=${baseY}></line>` : nothing}
    <polygon class="arrow-head" points=${points}></polygon>
  </g>`;
}

function diffBadge(box: Box, text: string): SVGTemplateResult {
  const width = 18 * [...text].length + 18;
  const height = 34;
  // In the square's top-right corner, over the frame: the piece in the middle stays visible.
  const x = box.x + box.width - width / 2 - 2;
  const y = box.y + height / 2 + 2;
  return svg`<g class="badge">
    <rect x=${x - width / 2} y=${y - height / 2} width=${width} height=${height} rx="9"></rect>
    <text x=${x} y=${y + 1}>${text}</text>
  </g>`;
}

customElements.define('malawi-board', MalawiBoard);
