// <makis-board>: a Makis board drawn as SVG from plain data. It knows no rules: knights, Makis, the danger of each
// square, the rolls and the pieces to put back all come in as properties; a tapped square goes out as `square-select`.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type SVGTemplateResult } from 'lit';
import type { Alert, MakisView } from '../../../server/http/messages.ts';
import { DEFAULT_LANG, makisSquareLabel, makisSquareName, percent, playerName, signed, t, type Lang } from '../i18n/catalogue.ts';
import { dangerNumber, dangerShare, lastMakiCell, ROLLS } from '../common/index.ts';
import { makisBoardStyles } from './makis-board.styles.ts';
import {
  BOARD_HEIGHT,
  BOARD_WIDTH,
  CELL,
  GRID,
  KNIGHT_HALF_SIDE,
  KNIGHT_PATH,
  MAKIS_SIZE,
  MAKI_RADIUS,
  arrowBetween,
  cellAt,
  cellOf,
  columnLabels,
  dangerLabelAt,
  dangerOpacity,
  knightMoves,
  rolledColumns,
  rowLabels,
  squareBox,
  squareCenter,
  type Box,
} from './makis-layout.ts';
import type { Point } from './layout.ts';
import { outlineElement, playerPiece } from './player-mark.ts';
import { playerStyle, shapeGeometry } from './players.ts';
import type { SquareSelectDetail } from './malawi-board.ts';

export type MakisDanger = NonNullable<MakisView['odds']>['danger'];
export type MakisPendingPiece = MakisView['pending'][number];
type CellDiff = NonNullable<Alert['cells']>[number];

declare global {
  interface HTMLElementTagNameMap {
    'makis-board': MakisBoard;
  }
}

const SQUARES = Array.from({ length: MAKIS_SIZE * MAKIS_SIZE }, (_, cell) => cell);
/** Clearance an arrow keeps from a piece at either end. */
const PIECE_GAP = 44;

export class MakisBoard extends LitElement {
  static override styles = makisBoardStyles;

  static override properties: PropertyDeclarations = {
    knights: { attribute: false },
    makis: { attribute: false },
    toMove: { attribute: false },
    lastRoll: { attribute: false },
    expectedRoll: { attribute: false },
    danger: { attribute: false },
    pending: { attribute: false },
    lastMove: { attribute: false },
    diffs: { attribute: false },
    marked: { attribute: false },
    selectable: { type: Boolean, reflect: true },
    lang: { reflect: true },
    legend: { type: Boolean, reflect: true },
  };

  /** The knights' rows (1–9), column 1 first. */
  declare knights: readonly number[];
  /** Per player, player 1 first: the Maki's square (`c5r9`), `out`, or null before it is placed. */
  declare makis: readonly (string | null)[];
  /** The player whose Maki is ringed: they place, roll or move next. */
  declare toMove: number | null;
  declare lastRoll: readonly number[] | null;
  /** A roll the table made: the knights it moves get arrows. */
  declare expectedRoll: readonly number[] | null;
  /** Per square by name: rolls (of 216) that would capture / send back a Maki there; null when no roll is due. */
  declare danger: MakisDanger | null;
  declare pending: readonly MakisPendingPiece[];
  /** The last record token (`1:c4r8`): the square a Maki moved to is framed. */
  declare lastMove: string | null;
  /** Cells where the real board differs from the game: +1 a piece stands there that should not, −1 one is missing. */
  declare diffs: readonly CellDiff[];
  /** Cells the console has picked. */
  declare marked: readonly number[];
  declare selectable: boolean;
  declare lang: Lang;
  declare legend: boolean;

  constructor() {
    super();
    this.knights = [];
    this.makis = [];
    this.toMove = null;
    this.lastRoll = null;
    this.expectedRoll = null;
    this.danger = null;
    this.pending = [];
    this.lastMove = null;
    this.diffs = [];
    this.marked = [];
    this.selectable = false;
    this.lang = DEFAULT_LANG;
    this.legend = false;
  }

  override render() {
    const knightAt = new Map<number, number>();
    this.knights.forEach((row, i) => {
      if (row >= 1 && row <= MAKIS_SIZE) knightAt.set(cellAt(i + 1, row), i + 1);
    });
    const makiAt = new Map<number, number>();
    this.makis.forEach((spot, i) => {
      const cell = cellOf(spot);
      if (cell !== null) makiAt.set(cell, i + 1);
    });
    const rolled = rolledColumns(this.lastRoll);
    const steps = this.expectedRoll ? knightMoves(this.knights, this.expectedRoll) : [];
    const expectedTo = new Set(steps.map((s) => s.to));
    const last = lastMakiCell(this.lastMove);
    const pendingFrom = new Map<number, MakisPendingPiece>();
    const pendingTo = new Map<number, MakisPendingPiece>();
    for (const p of this.pending) {
      const from = cellOf(p.from);
      const to = cellOf(p.to);
      if (from !== null) pendingFrom.set(from, p);
      if (to !== null) pendingTo.set(to, p);
    }
    const diffByCell = new Map<number, string>();
    for (const d of this.diffs) if (d.diff !== 0) diffByCell.set(d.cell, signed(d.diff));
    const marked = new Set(this.marked);
    const turnCell = this.toMove !== null ? cellOf(this.makis[this.toMove - 1]) : null;

    return html`
      <svg viewBox="0 0 ${BOARD_WIDTH} ${BOARD_HEIGHT}" role="group" aria-label=${t(this.lang, 'makis.board.label')}>
        <rect class="table" x="0" y="0" width=${BOARD_WIDTH} height=${BOARD_HEIGHT} rx="28"></rect>
        ${columnLabels().map((label) => svg`${this.renderDie(label.column, label.top, rolled[label.column - 1])}
          ${this.renderDie(label.column, label.bottom, rolled[label.column - 1])}`)}
        ${rowLabels().map(
          (label) => svg`<text class="row-label" x=${label.left.x} y=${label.left.y} aria-hidden="true">${label.row}</text>
            <text class="row-label" x=${label.right.x} y=${label.right.y} aria-hidden="true">${label.row}</text>`,
        )}
        ${SQUARES.map((cell) => this.renderSquare(cell, knightAt.get(cell) ?? null, makiAt.get(cell) ?? null))}
        ${this.renderGrid()}
        ${SQUARES.map((cell) => this.renderPieces(cell, knightAt.get(cell) ?? null, makiAt.get(cell) ?? null, cell === turnCell))}
        ${[...pendingFrom].map(([cell, p]) => this.renderGhost(cell, p, knightAt.has(cell) || makiAt.has(cell)))}
        ${[...pendingTo].map(([cell, p]) => this.renderGhost(cell, p, knightAt.has(cell) || makiAt.has(cell)))}
        ${SQUARES.map((cell) => {
          // The outer band is for differences and the console's picks, else for the Maki moved last: its inner
          // band would cross the ring round a Maki whose turn it is.
          const flagged = diffByCell.has(cell) ? 'differs' : marked.has(cell) ? 'marked' : null;
          const outer = flagged ?? (cell === last ? 'last' : null);
          const inner = pendingTo.has(cell)
            ? 'pending-to'
            : pendingFrom.has(cell)
              ? 'pending-from'
              : expectedTo.has(cell)
                ? 'expected'
                : cell === last && flagged
                  ? 'last'
                  : null;
          return svg`${inner ? frame(inset(squareBox(cell), 10), inner) : nothing}
            ${outer ? frame(inset(squareBox(cell), 3.5), outer) : nothing}`;
        })}
        ${this.renderDangerNumbers(knightAt)}
        <g class="arrows expected">${steps.map((s) => arrow(arrowBetween(s.from, s.to, PIECE_GAP, 18)))}</g>
        <g class="arrows pending">
          ${this.pending.map((p) => {
            const from = cellOf(p.from);
            const to = cellOf(p.to);
            return from === null || to === null || from === to ? nothing : arrow(arrowBetween(from, to, PIECE_GAP, PIECE_GAP));
          })}
        </g>
        ${[...diffByCell].map(([cell, text]) => diffBadge(squareBox(cell), text))}
      </svg>
      ${this.legend ? this.renderLegend(rolled.some((n) => n > 0), steps.length > 0, last !== null, diffByCell.size > 0) : nothing}
    `;
  }

  private renderDie(column: number, box: Box, rolled: number): SVGTemplateResult {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    return svg`<g class="die ${rolled ? 'rolled' : ''}" aria-hidden="true">
      <rect x=${box.x} y=${box.y} width=${box.width} height=${box.height} rx="9"></rect>
      ${rolled > 1 ? svg`<rect class="double" x=${box.x - 6} y=${box.y - 6} width=${box.width + 12} height=${box.height + 12} rx="13"></rect>` : nothing}
      <text x=${cx} y=${cy + 1}>${column}</text>
    </g>`;
  }

  private renderSquare(cell: number, knight: number | null, maki: number | null): SVGTemplateResult {
    const box = squareBox(cell);
    const name = makisSquareName(cell);
    const square = makisSquareLabel(name);
    const danger = this.danger?.[name];
    const share = dangerShare(danger);
    let label =
      knight !== null
        ? t(this.lang, 'makis.square.knight', { square, column: knight })
        : maki !== null
          ? t(this.lang, 'makis.square.maki', { square, player: playerName(this.lang, maki) })
          : t(this.lang, 'makis.square.empty', { square });
    if (share > 0 && danger) label += `; ${t(this.lang, 'makis.square.danger', { percent: percent(this.lang, danger.capture + danger.reset, ROLLS) })}`;
    const opacity = dangerOpacity(share);
    return svg`<g class="square-hit" role="img" aria-label=${label} data-square=${name} @click=${() => this.selectSquare(cell)}>
      <rect class="square" x=${box.x} y=${box.y} width=${CELL} height=${CELL}></rect>
      ${opacity > 0 ? svg`<rect class="tint" x=${box.x} y=${box.y} width=${CELL} height=${CELL} fill-opacity=${opacity}></rect>` : nothing}
    </g>`;
  }

  private renderGrid(): SVGTemplateResult {
    const lines: SVGTemplateResult[] = [];
    for (let i = 1; i < MAKIS_SIZE; i++) {
      const x = GRID.x + i * CELL;
      const y = GRID.y + i * CELL;
      lines.push(svg`<line x1=${x} y1=${GRID.y} x2=${x} y2=${GRID.y + GRID.height}></line>`);
      lines.push(svg`<line x1=${GRID.x} y1=${y} x2=${GRID.x + GRID.width} y2=${y}></line>`);
    }
    return svg`<g class="grid" aria-hidden="true">${lines}<rect x=${GRID.x} y=${GRID.y} width=${GRID.width} height=${GRID.height}></rect></g>`;
  }

  private renderPieces(cell: number, knight: number | null, maki: number | null, turn: boolean): SVGTemplateResult | typeof nothing {
    const c = squareCenter(cell);
    if (knight !== null) return drawKnight(c, false);
    if (maki === null) return nothing;
    return svg`${turn ? svg`<circle class="turn-ring" cx=${c.x} cy=${c.y} r=${MAKI_RADIUS * 1.3 + 1.5}></circle>` : nothing}
      ${playerPiece(maki, c, MAKI_RADIUS, String(maki))}`;
  }

  /**
   * A piece to put back: drawn dashed where it is not (yet) — at its return square while it still stands
   * where it was, or where it stood once the game shows it home — so either way both ends are seen.
   */
  private renderGhost(cell: number, piece: MakisPendingPiece, occupied: boolean): SVGTemplateResult | typeof nothing {
    if (occupied) return nothing;
    const c = squareCenter(cell);
    if (piece.piece === 'knight' || piece.player === undefined) return drawKnight(c, true);
    const geometry = shapeGeometry(playerStyle(piece.player).shape, c, MAKI_RADIUS);
    return outlineElement(geometry.outline, { cls: 'ghost', fill: 'none', stroke: 'var(--mk-pending)', width: 5, dash: '10 7' });
  }

  /** Each square's danger in whole percent, over the tint (and over a Maki standing there: its own odds matter most). */
  private renderDangerNumbers(knightAt: ReadonlyMap<number, number>) {
    const danger = this.danger;
    if (!danger) return nothing;
    return svg`<g aria-hidden="true">${SQUARES.map((cell) => {
      if (knightAt.has(cell)) return nothing;
      const text = dangerNumber(dangerShare(danger[makisSquareName(cell)]));
      if (!text) return nothing;
      const at = dangerLabelAt(cell);
      return svg`<text class="danger" x=${at.x} y=${at.y}>${text}</text>`;
    })}</g>`;
  }

  private renderLegend(rolled: boolean, expected: boolean, last: boolean, diff: boolean) {
    const items: [string, SVGTemplateResult, string?][] = [];
    const centre = { x: 50, y: 50 };
    const swatch = { x: 10, y: 10, width: 80, height: 80 };
    items.push([t(this.lang, 'legend.makis.knight'), drawKnight(centre, false)]);
    if (this.danger) {
      const steps = [0.05, 0.15, 0.3, 0.45, 0.6];
      items.push([
        t(this.lang, 'legend.makis.danger'),
        svg`${steps.map((share, i) => svg`<rect class="square" x=${i * 60} y="10" width="60" height="80"></rect>
          <rect class="tint" x=${i * 60} y="10" width="60" height="80" fill-opacity=${dangerOpacity(share)}></rect>`)}`,
        'ramp',
      ]);
    }
    if (rolled) {
      items.push([
        t(this.lang, 'legend.makis.rolled'),
        svg`<g class="die rolled"><rect x="15" y="15" width="70" height="70" rx="12"></rect><text x="50" y="52" font-size="48">5</text></g>`,
      ]);
    }
    if (expected) items.push([t(this.lang, 'legend.makis.expected'), svg`${frame(swatch, 'expected')}`]);
    if (this.pending.length) items.push([t(this.lang, 'legend.makis.pending'), svg`${frame(swatch, 'pending-from')}`]);
    if (last) items.push([t(this.lang, 'legend.makis.last'), frame(swatch, 'last')]);
    if (diff) items.push([t(this.lang, 'legend.diff'), svg`${frame(swatch, 'differs')}${diffBadge({ x: 0, y: 0, width: 100, height: 100 }, '±')}`]);
    return html`<ul class="legend">
      ${items.map(
        ([label, mark, wide]) =>
          html`<li>
            <svg class=${wide ?? ''} viewBox=${wide ? '0 0 300 100' : '0 0 100 100'} aria-hidden="true">${mark}</svg><span>${label}</span>
          </li>`,
      )}
    </ul>`;
  }

  private selectSquare(cell: number): void {
    if (!this.selectable) return;
    const detail: SquareSelectDetail = { square: makisSquareName(cell), cell };
    this.dispatchEvent(new CustomEvent<SquareSelectDetail>('square-select', { detail, bubbles: true, composed: true }));
  }
}

/** A knight: a dark rounded square with a light horse's head; dashed and hollow as a ghost still to be put there. */
function drawKnight(c: Point, ghost: boolean): SVGTemplateResult {
  const h = KNIGHT_HALF_SIDE;
  if (ghost) {
    return svg`<rect class="ghost" x=${c.x - h} y=${c.y - h} width=${2 * h} height=${2 * h} rx="10"></rect>`;
  }
  const scale = (2 * h - 8) / 100;
  return svg`<g class="knight">
    <rect class="knight-body" x=${c.x - h} y=${c.y - h} width=${2 * h} height=${2 * h} rx="10"></rect>
    <g transform="translate(${c.x - 50 * scale} ${c.y - 50 * scale}) scale(${scale})">
      <path class="knight-head" d=${KNIGHT_PATH}></path>
      <circle class="knight-eye" cx="52" cy="27" r="4"></circle>
    </g>
  </g>`;
}

function inset(box: Box, by: number): Box {
  return { x: box.x + by, y: box.y + by, width: box.width - 2 * by, height: box.height - 2 * by };
}

function frame(box: Box, kind: string): SVGTemplateResult {
  return svg`<rect class="frame ${kind}" x=${box.x} y=${box.y} width=${box.width} height=${box.height} rx="6"></rect>`;
}

function arrow(line: { from: Point; to: Point }): SVGTemplateResult {
  const { from, to } = line;
  const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const ux = (to.x - from.x) / length;
  const uy = (to.y - from.y) / length;
  const head = 24;
  const half = 15;
  const baseX = to.x - ux * head;
  const baseY = to.y - uy * head;
  const points = [`${to.x},${to.y}`, `${baseX - uy * half},${baseY + ux * half}`, `${baseX + uy * half},${baseY - ux * half}`].join(' ');
  const shaft = length > head;
  return svg`<g>
    ${shaft ? svg`<line class="arrow-casing" x1=${from.x} y1=${from.y} x2=${baseX} y2=${baseY}></line>` : nothing}
    <polygon class="arrow-head-casing" points=${points}></polygon>
    ${shaft ? svg`<line class="arrow" x1=${from.x} y1=${from.y} x2=${baseX} y2=${baseY}></line>` : nothing}
    <polygon class="arrow-head" points=${points}></polygon>
  </g>`;
}

function diffBadge(box: Box, text: string): SVGTemplateResult {
  const width = 18 * [...text].length + 18;
  const height = 34;
  const x = box.x + box.width - width / 2 - 2;
  const y = box.y + box.height - height / 2 - 2;
  return svg`<g class="badge">
    <rect x=${x - width / 2} y=${y - height / 2} width=${width} height=${height} rx="9"></rect>
    <text x=${x} y=${y + 1}>${text}</text>
  </g>`;
}

customElements.define('makis-board', MakisBoard);
