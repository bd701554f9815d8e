// <adu-board>: an Adu board for 2 to 6 players drawn as SVG from plain data. It knows no rules: pieces, the last
// move and differences come in as properties; a tapped intersection goes out as a `square-select` event.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type SVGTemplateResult } from 'lit';
import type { Alert, AduView } from '../../../server/http/messages.ts';
import { DEFAULT_LANG, playerName, signed, squareIndex, squareName, t, type Lang } from '../i18n/catalogue.ts';
import { aduBoardStyles } from './adu-board.styles.ts';
import { aduPieceName } from '../common/index.ts';
import {
  PIECE_RADIUS,
  SPACING,
  arrowLine,
  boardLabels,
  boardSide,
  linesBox,
  pieceLabel,
  pointBox,
  pointCenter,
  type Box,
} from './adu-layout.ts';
import type { Point } from './layout.ts';
import { playerPiece } from './player-mark.ts';
import type { SquareSelectDetail } from './malawi-board.ts';

export type AduBoardPiece = AduView['pieces'][number];
export type AduLastMove = NonNullable<AduView['lastMove']>;
type CellDiff = NonNullable<Alert['cells']>[number];

declare global {
  interface HTMLElementTagNameMap {
    'adu-board': AduBoard;
  }
}

/** Clearance an arrow keeps from a piece at either end. */
const PIECE_GAP = PIECE_RADIUS * 1.3 + 6;
/** The ring round the piece that moved last: outside its shape, inside the neighbours' reach. */
const MOVED_RING = PIECE_RADIUS * 1.3 + 4;

export class AduBoard extends LitElement {
  static override styles = aduBoardStyles;

  static override properties: PropertyDeclarations = {
    size: { type: Number, reflect: true },
    pieces: { attribute: false },
    lastMove: { attribute: false },
    diffs: { attribute: false },
    marked: { attribute: false },
    selectable: { type: Boolean, reflect: true },
    lang: { reflect: true },
    legend: { type: Boolean, reflect: true },
  };

  declare size: number;
  declare pieces: readonly AduBoardPiece[];
  /** The last move and its intersections in notation order: from, to, and the reserve king's point. */
  declare lastMove: AduLastMove | null;
  declare diffs: readonly CellDiff[];
  declare marked: readonly number[];
  declare selectable: boolean;
  declare lang: Lang;
  declare legend: boolean;

  constructor() {
    super();
    this.size = 13;
    this.pieces = [];
    this.lastMove = null;
    this.diffs = [];
    this.marked = [];
    this.selectable = false;
    this.lang = DEFAULT_LANG;
    this.legend = false;
  }

  override render() {
    const n = this.size;
    const side = boardSide(n);
    const byCell = new Map<number, AduBoardPiece>();
    for (const piece of this.pieces) {
      const cell = squareIndex(piece.square, n);
      if (cell !== null) byCell.set(cell, piece);
    }
    const moved = (this.lastMove?.squares ?? []).map((s) => squareIndex(s, n));
    // A placement names one point, a move or capture two (from, to), a capture with a reserve king three.
    const [from, to, ...placed] = moved.length === 1 ? [null, moved[0]] : moved;
    const diffByCell = new Map<number, string>();
    for (const d of this.diffs) if (d.diff !== 0) diffByCell.set(d.cell, signed(d.diff));
    const marked = new Set(this.marked);
    const cells = Array.from({ length: n * n }, (_, cell) => cell);
    const { files, ranks } = boardLabels(n);
    return html`
      <svg viewBox="0 0 ${side} ${side}" role="group" aria-label=${t(this.lang, 'adu.board.label', { size: n })}>
        <rect class="table" x="0" y="0" width=${side} height=${side} rx="28"></rect>
        ${[...files, ...ranks].map((l) => svg`<text class="label" x=${l.x} y=${l.y} aria-hidden="true">${l.text}</text>`)}
        ${this.renderLines()}
        ${from !== null && from !== undefined && !byCell.has(from) ? this.renderMark(from, 'from', PIECE_RADIUS * 0.75) : nothing}
        ${from !== null && from !== undefined && to !== null && to !== undefined ? this.renderArrow(from, to, byCell.has(from)) : nothing}
        ${cells.map((cell) => this.renderPoint(cell, byCell.get(cell) ?? null))}
        ${to !== null && to !== undefined ? this.renderMark(to, 'to', MOVED_RING) : nothing}
        ${placed.map((cell) => (cell === null ? nothing : this.renderMark(cell, 'placed', MOVED_RING)))}
        ${cells.map((cell) => {
          const kind = diffByCell.has(cell) ? 'differs' : marked.has(cell) ? 'marked' : null;
          return kind ? frame(inset(pointBox(cell, n), 4), kind) : nothing;
        })}
        ${[...diffByCell].map(([cell, text]) => diffBadge(pointBox(cell, n), text))}
      </svg>
      ${this.legend ? this.renderLegend(from !== null && from !== undefined, to !== null && to !== undefined, diffByCell.size > 0) : nothing}
    `;
  }

  private renderLines(): SVGTemplateResult {
    const n = this.size;
    const box = linesBox(n);
    const lines: SVGTemplateResult[] = [];
    for (let i = 0; i < n; i++) {
      const x = box.x + i * SPACING;
      const y = box.y + i * SPACING;
      lines.push(svg`<line x1=${x} y1=${box.y} x2=${x} y2=${box.y + box.height}></line>`);
      lines.push(svg`<line x1=${box.x} y1=${y} x2=${box.x + box.width} y2=${y}></line>`);
    }
    return svg`<g class="lines" aria-hidden="true">${lines}</g>`;
  }

  private renderPoint(cell: number, piece: AduBoardPiece | null): SVGTemplateResult {
    const n = this.size;
    const name = squareName(cell, n);
    const box = pointBox(cell, n);
    const label = piece
      ? t(this.lang, 'adu.point.piece', { square: name, piece: aduPieceName(this.lang, piece), player: playerName(this.lang, piece.player) })
      : t(this.lang, 'adu.point.empty', { square: name });
    return svg`<g class="point-hit" role="img" aria-label=${label} data-square=${name} @click=${() => this.selectPoint(cell)}>
      <rect class="hit" x=${box.x} y=${box.y} width=${box.width} height=${box.height}></rect>
      ${piece ? drawPiece(piece, pointCenter(cell, n)) : nothing}
    </g>`;
  }

  private renderMark(cell: number, kind: 'from' | 'to' | 'placed', r: number): SVGTemplateResult {
    const c = pointCenter(cell, this.size);
    return svg`<circle class="mark ${kind}" cx=${c.x} cy=${c.y} r=${r}></circle>`;
  }

  private renderArrow(from: number, to: number, fromOccupied: boolean): SVGTemplateResult {
    const line = arrowLine(from, to, this.size, fromOccupied ? PIECE_GAP : PIECE_RADIUS * 0.75, MOVED_RING + 2);
    const length = Math.hypot(line.to.x - line.from.x, line.to.y - line.from.y);
    if (length < 8) return svg``;
    return svg`<g aria-hidden="true">
      <line class="arrow-casing" x1=${line.from.x} y1=${line.from.y} x2=${line.to.x} y2=${line.to.y}></line>
      <line class="arrow" x1=${line.from.x} y1=${line.from.y} x2=${line.to.x} y2=${line.to.y}></line>
    </g>`;
  }

  private renderLegend(from: boolean, to: boolean, diff: boolean) {
    const c = { x: 50, y: 50 };
    // The kinds are told apart by their border and letter, whoever owns them; a neutral seat shows them.
    const items: [string, SVGTemplateResult][] = [
      [t(this.lang, 'legend.adu.king'), drawPiece({ player: 1, kind: 'king', id: 'K1' }, c, 36)],
      [t(this.lang, 'legend.adu.soldier'), drawPiece({ player: 1, kind: 'soldier', id: 'S1' }, c, 36)],
      [t(this.lang, 'legend.adu.reserve'), drawPiece({ player: 1, kind: 'reserve', id: 'R1' }, c, 36)],
    ];
    if (from) items.push([t(this.lang, 'legend.adu.from'), svg`<circle class="mark from" cx="50" cy="50" r="30" stroke-width="8"></circle>`]);
    if (to) items.push([t(this.lang, 'legend.adu.to'), svg`<circle class="mark to" cx="50" cy="50" r="36" stroke-width="9"></circle>`]);
    if (diff) items.push([t(this.lang, 'legend.diff'), svg`${frame({ x: 8, y: 8, width: 84, height: 84 }, 'differs')}`]);
    return html`<ul class="legend">
      ${items.map(([label, mark]) => html`<li><svg viewBox="0 0 100 100" aria-hidden="true">${mark}</svg><span>${label}</span></li>`)}
    </ul>`;
  }

  private selectPoint(cell: number): void {
    if (!this.selectable) return;
    const detail: SquareSelectDetail = { square: squareName(cell, this.size), cell };
    this.dispatchEvent(new CustomEvent<SquareSelectDetail>('square-select', { detail, bubbles: true, composed: true }));
  }
}

/**
 * A piece in its player's colour and shape. Kings have a double border and read `K`; soldiers their name
 * (`S3`); reserve kings a dashed border and `R` — the kinds differ in line and letter, not in colour.
 */
function drawPiece(piece: Pick<AduBoardPiece, 'player' | 'kind' | 'id'>, c: Point, r = PIECE_RADIUS): SVGTemplateResult {
  const label = pieceLabel(piece);
  switch (piece.kind) {
    case 'king':
      return playerPiece(piece.player, c, r * 1.05, label, { rim: '#ffffff', rimWidth: r * 0.16, inner: true, labelSize: r * 1.05 });
    case 'soldier':
      return playerPiece(piece.player, c, r, label, { labelSize: r * 0.82 });
    case 'reserve':
      return playerPiece(piece.player, c, r * 0.92, label, { rim: '#ffffff', rimWidth: r * 0.12, dash: `${r * 0.22} ${r * 0.16}`, labelSize: r * 0.95 });
    default:
      return piece.kind satisfies never;
  }
}

function inset(box: Box, by: number): Box {
  return { x: box.x + by, y: box.y + by, width: box.width - 2 * by, height: box.height - 2 * by };
}

function frame(box: Box, kind: string): SVGTemplateResult {
  return svg`<rect class="frame ${kind}" x=${box.x} y=${box.y} width=${box.width} height=${box.height} rx="10"></rect>`;
}

function diffBadge(box: Box, text: string): SVGTemplateResult {
  const width = 18 * [...text].length + 18;
  const height = 34;
  const x = box.x + box.width - width / 2;
  const y = box.y + height / 2;
  return svg`<g class="badge">
    <rect x=${x - width / 2} y=${y - height / 2} width=${width} height=${height} rx="9"></rect>
    <text x=${x} y=${y + 1}>${text}</text>
  </g>`;
}

customElements.define('adu-board', AduBoard);
