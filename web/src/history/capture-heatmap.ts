// <capture-heatmap>: a Kalaha board's twelve pits laid out as on the table (north's f…a above, south's A…F below),
// each tinted by the stones captured from it; the counts are written in every pit, so colour is never the only cue.
import { LitElement, css, html, nothing, unsafeCSS, type PropertyDeclarations } from 'lit';
import { DEFAULT_LANG, sideName, t, type Lang } from '../i18n/catalogue.ts';
import { heatLevel, type CaptureHeat, type PitHeat } from './heatmap.ts';

declare global {
  interface HTMLElementTagNameMap {
    'capture-heatmap': CaptureHeatmap;
  }
}

/** North's row is seen from south: f on the left, a on the right, as on the board. */
const NORTH_ROW = [11, 10, 9, 8, 7, 6] as const;
const SOUTH_ROW = [0, 1, 2, 3, 4, 5] as const;

/**
 * The tint in tenths, one class each: the pages' Content-Security-Policy refuses style attributes, and Lit's
 * styleMap writes one on its first render.
 */
const STEPS = 10;
const levelStyles = unsafeCSS(Array.from({ length: STEPS + 1 }, (_, i) => `.pit.l${i} { --level: ${i / STEPS}; }`).join('\n'));

export class CaptureHeatmap extends LitElement {
  static override styles = [
    levelStyles,
    css`
      :host {
        display: block;
        --heat: var(--captured, #d55e00);
      }
      .board {
        display: grid;
        grid-template-columns: auto repeat(6, minmax(0, 1fr));
        gap: 0.4rem;
        align-items: center;
        padding: 0.75rem;
        border-radius: 1rem;
        background: var(--wood, #3a3330);
      }
      .side {
        color: var(--muted, #c8c8c8);
        font-size: 0.85rem;
        padding-right: 0.25rem;
      }
      .pit {
        aspect-ratio: 1;
        border-radius: 50%;
        border: 2px solid var(--pit-edge, #8a817c);
        display: grid;
        place-content: center;
        text-align: center;
        line-height: 1.1;
        min-width: 0;
        background: color-mix(in srgb, var(--heat) calc(var(--level) * 100%), var(--pit, #1c1917));
      }
      .letter {
        font-weight: 700;
        font-size: 0.8rem;
        opacity: 0.85;
      }
      .stones {
        font-size: clamp(1rem, 3vw, 1.5rem);
        font-weight: 700;
        font-variant-numeric: tabular-nums;
      }
      .times {
        font-size: 0.75rem;
      }
      p {
        margin: 0.5rem 0 0;
        color: var(--muted, #c8c8c8);
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    heat: { attribute: false },
    lang: { reflect: true },
  };

  declare heat: CaptureHeat | null;
  declare lang: Lang;

  constructor() {
    super();
    this.heat = null;
    this.lang = DEFAULT_LANG;
  }

  override render() {
    const heat = this.heat;
    if (!heat) return nothing;
    if (heat.stones === 0) return html`<p>${t(this.lang, 'history.heat.none')}</p>`;
    const row = (pits: readonly number[]) => pits.map((i) => this.renderPit(heat.pits[i], heat.max));
    return html`
      <div class="board" role="list">
        <span class="side">${sideName(this.lang, 'north')}</span>
        ${row(NORTH_ROW)}
        <span class="side">${sideName(this.lang, 'south')}</span>
        ${row(SOUTH_ROW)}
      </div>
      <p>${t(this.lang, 'history.heat.total', { stones: heat.stones })} · ${t(this.lang, 'history.heat.legend', { max: heat.max })}</p>
    `;
  }

  private renderPit(pit: PitHeat, max: number) {
    const level = heatLevel(pit.stones, max);
    // White ink throughout: it keeps at least 3.9 : 1 against the full tint, and more on every weaker one.
    return html`<div
      class="pit l${Math.round(level * STEPS)}"
      role="listitem"
      aria-label=${t(this.lang, 'history.heat.pit', { pit: pit.pit, stones: pit.stones, captures: pit.captures })}
      title=${t(this.lang, 'history.heat.pit', { pit: pit.pit, stones: pit.stones, captures: pit.captures })}
    >
      <span class="letter" aria-hidden="true">${pit.pit}</span>
      <span class="stones" aria-hidden="true">${pit.stones}</span>
      <span class="times" aria-hidden="true">${pit.captures ? `${pit.captures}×` : ''}</span>
    </div>`;
  }
}

customElements.define('capture-heatmap', CaptureHeatmap);
