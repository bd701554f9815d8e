// <kalaha-board>: the Kalaha table drawn as SVG from plain data. It knows no rules: counts, the last move,
// differences and pending stones all come in as properties; a tapped pit goes out as a `pit-select` event.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type SVGTemplateResult } from 'lit';
import type { Alert, KalahaView } from '../../../server/http/messages.ts';
import { DEFAULT_LANG, PIT_LETTERS, STORE_CELL, signed, sideName, t, type Lang, type SideName } from '../i18n/catalogue.ts';
import { boardStyles } from './kalaha-board.styles.ts';
import {
  BOARD_HEIGHT,
  BOARD_WIDTH,
  DOT_RADIUS,
  MAX_DOTS,
  PIT_RADIUS,
  countPosition,
  dotOffsets,
  isTopRow,
  letterPosition,
  pitCenter,
  rowBand,
  storeBox,
  type Point,
} from './layout.ts';

export type LastMoveMarks = NonNullable<KalahaView['lastMove']>;
export type PendingStones = KalahaView['pending'][number];
export type CellDiff = NonNullable<Alert['cells']>[number];

export interface PitSelectDetail {
  readonly pit: number;
}
export type PitSelectEvent = CustomEvent<PitSelectDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'kalaha-board': KalahaBoard;
  }
  interface HTMLElementEventMap {
    'pit-select': PitSelectEvent;
  }
}

const PIT_INDICES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
const RING_RADIUS = PIT_RADIUS + 9;

export class KalahaBoard extends LitElement {
  static override styles = boardStyles;

  static override properties: PropertyDeclarations = {
    pits: { attribute: false },
    stores: { attribute: false },
    toMove: { attribute: false },
    lastMove: { attribute: false },
    diffs: { attribute: false },
    pending: { attribute: false },
    lang: { reflect: true },
    legend: { type: Boolean, reflect: true },
  };

  /** Stones per pit in the server's sensor order: A…F, a…f. */
  declare pits: readonly number[];
  declare stores: { readonly south: number; readonly north: number };
  declare toMove: SideName | null;
  declare lastMove: LastMoveMarks | null;
  /** Cells (0–11 pits, 12/13 stores) where the real board differs from the game: + means too many stones there. */
  declare diffs: readonly CellDiff[];
  declare pending: readonly PendingStones[];
  declare lang: Lang;
  /** Explain the markers below the board (only those on show). */
  declare legend: boolean;

  constructor() {
    super();
    this.pits = [];
    this.stores = { south: 0, north: 0 };
    this.toMove = null;
    this.lastMove = null;
    this.diffs = [];
    this.pending = [];
    this.lang = DEFAULT_LANG;
    this.legend = false;
  }

  override render() {
    const diffByCell = new Map(this.diffs.filter((d) => d.diff !== 0).map((d) => [d.cell, d.diff]));
    const sown = new Set(this.lastMove?.sown ?? []);
    const captured = new Set(this.lastMove?.captures ?? []);
    const pendingByPit = new Map(this.pending.map((p) => [p.pit, p]));
    return html`
      <svg viewBox="0 0 ${BOARD_WIDTH} ${BOARD_HEIGHT}" role="group" aria-label=${t(this.lang, 'board.label')}>
        <rect class="table" x="0" y="0" width=${BOARD_WIDTH} height=${BOARD_HEIGHT} rx="48"></rect>
        ${this.toMove ? this.renderTurnBand(this.toMove) : nothing}
        ${this.renderStore('north', diffByCell.get(STORE_CELL.north))}
        ${this.renderStore('south', diffByCell.get(STORE_CELL.south))}
        ${PIT_INDICES.map((pit) =>
          this.renderPit(pit, {
            origin: this.lastMove?.pit === pit,
            sown: sown.has(pit),
            captured: captured.has(pit),
            diff: diffByCell.get(pit),
            pending: pendingByPit.get(pit),
          }),
        )}
      </svg>
      ${this.legend ? this.renderLegend(diffByCell.size > 0, sown.size > 0, captured.size > 0) : nothing}
    `;
  }

  private renderTurnBand(side: SideName): SVGTemplateResult {
    const b = rowBand(side);
    return svg`<rect class="turn" x=${b.x} y=${b.y} width=${b.width} height=${b.height} rx=${b.height / 2}></rect>`;
  }

  private renderStore(side: SideName, diff: number | undefined): SVGTemplateResult {
    const box = storeBox(side);
    const count = this.stores[side];
    const incoming = this.pending.some((p) => p.store === side);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const label = t(this.lang, 'board.store', { side: sideName(this.lang, side), count });
    return svg`
      <g role="img" aria-label=${label}>
        <rect class="pit ${diff ? 'differs' : ''}" x=${box.x} y=${box.y} width=${box.width} height=${box.height}
          rx=${box.width / 2}></rect>
        ${incoming ? svg`<rect class="store-pending" x=${box.x - 6} y=${box.y - 6} width=${box.width + 12}
          height=${box.height + 12} rx=${box.width / 2 + 6}></rect>` : nothing}
        <text class="store-count" x=${cx} y=${cy}>${count}</text>
        <text class="store-label" x=${box.label.x} y=${box.label.y}>${sideName(this.lang, side)}</text>
        ${diff ? badge('diff', { x: box.x + box.width - 20, y: box.y + 40 }, signed(diff)) : nothing}
        ${incoming ? badge('pending', { x: cx, y: box.y + box.height - 50 }, side === 'north' ? '\u2190' : '\u2192') : nothing}
      </g>`;
  }

  private renderPit(
    pit: number,
    marks: {
      origin: boolean;
      sown: boolean;
      captured: boolean;
      diff: number | undefined;
      pending: PendingStones | undefined;
    },
  ): SVGTemplateResult {
    const count = this.pits[pit] ?? 0;
    const c = pitCenter(pit);
    const at = countPosition(pit);
    const letterAt = letterPosition(pit);
    // Badges sit on the pit's outer side, away from the letters between the rows.
    const outward = isTopRow(pit) ? -1 : 1;
    const letter = PIT_LETTERS[pit];
    return svg`
      <g class="pit-hit" role="img" aria-label=${t(this.lang, 'board.pit', { pit: letter, count })}
        @click=${() => this.selectPit(pit)}>
        <circle class="pit ${marks.diff ? 'differs' : ''}" cx=${c.x} cy=${c.y} r=${PIT_RADIUS}></circle>
        ${count <= MAX_DOTS
          ? dotOffsets(count).map(
              (d) => svg`<circle class="stone" cx=${c.x + d.x} cy=${c.y + d.y} r=${DOT_RADIUS}></circle>`,
            )
          : svg`<text class="heap" x=${c.x} y=${c.y}>${count}</text>`}
        ${marks.captured ? hatch(c, PIT_RADIUS) : nothing}
        ${marks.captured
          ? svg`<circle class="ring captured" cx=${c.x} cy=${c.y} r=${RING_RADIUS}></circle>`
          : marks.origin
            ? svg`<circle class="ring origin" cx=${c.x} cy=${c.y} r=${RING_RADIUS}></circle>`
            : marks.sown
              ? svg`<circle class="ring sown" cx=${c.x} cy=${c.y} r=${RING_RADIUS}></circle>`
              : nothing}
        <text class="count ${count === 0 ? 'empty' : ''}" x=${at.x} y=${at.y}>${count}</text>
        <text class="letter" x=${letterAt.x} y=${letterAt.y}>${letter}</text>
        ${marks.diff ? badge('diff', { x: c.x + 62, y: c.y + outward * 62 }, signed(marks.diff)) : nothing}
        ${marks.pending
          ? badge('pending', { x: c.x - 62, y: c.y + outward * 62 }, marks.pending.store === 'north' ? '\u2190' : '\u2192')
          : nothing}
      </g>`;
  }

  private renderLegend(diff: boolean, sown: boolean, captured: boolean) {
    const items: [string, SVGTemplateResult][] = [];
    const ring = (kind: string) => svg`<circle class="ring ${kind}" cx="0" cy="0" r="72"></circle>`;
    if (this.lastMove) items.push([t(this.lang, 'legend.origin'), ring('origin')]);
    if (sown) items.push([t(this.lang, 'legend.sown'), ring('sown')]);
    if (captured) items.push([t(this.lang, 'legend.captured'), svg`${hatch({ x: 0, y: 0 }, 72)}${ring('captured')}`]);
    // Badges are drawn at pit scale; in a swatch they must fill it.
    const big = (mark: SVGTemplateResult) => svg`<g transform="scale(2.2)">${mark}</g>`;
    if (diff) items.push([t(this.lang, 'legend.diff'), big(badge('diff', { x: 0, y: 0 }, '±'))]);
    if (this.pending.length) {
      items.push([t(this.lang, 'legend.pending'), big(badge('pending', { x: 0, y: 0 }, '\u2192'))]);
    }
    if (!items.length) return nothing;
    return html`<ul class="legend">
      ${items.map(
        ([label, mark]) =>
          html`<li><svg viewBox="-100 -100 200 200" aria-hidden="true">${mark}</svg><span>${label}</span></li>`,
      )}
    </ul>`;
  }

  private selectPit(pit: number): void {
    this.dispatchEvent(
      new CustomEvent<PitSelectDetail>('pit-select', { detail: { pit }, bubbles: true, composed: true }),
    );
  }
}

function badge(kind: 'diff' | 'pending', at: Point, text: string): SVGTemplateResult {
  const width = 26 * [...text].length + 28;
  const height = 56;
  return svg`<g class="badge ${kind}">
    <rect x=${at.x - width / 2} y=${at.y - height / 2} width=${width} height=${height} rx="14"></rect>
    <text x=${at.x} y=${at.y + 2}>${text}</text>
  </g>`;
}

/** Diagonal stripes clipped to a circle by arithmetic, not by a pattern id (ids do not cross shadow roots reliably). */
function hatch(c: Point, r: number): SVGTemplateResult {
  const step = 26;
  const lines: SVGTemplateResult[] = [];
  for (let d = -r + step / 2; d < r; d += step) {
    const h = Math.sqrt(r * r - d * d);
    // Offset d along (1,1)/√2, half-chord h along (1,−1)/√2.
    const ox = c.x + d * Math.SQRT1_2;
    const oy = c.y + d * Math.SQRT1_2;
    lines.push(
      svg`<line x1=${ox - h * Math.SQRT1_2} y1=${oy + h * Math.SQRT1_2} x2=${ox + h * Math.SQRT1_2} y2=${oy - h * Math.SQRT1_2}></line>`,
    );
  }
  return svg`<g class="hatch">${lines}</g>`;
}

customElements.define('kalaha-board', KalahaBoard);
