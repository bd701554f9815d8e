// <raw-view>: the board's raw readings as a heat map — weights per pit on the Kalaha table, occupancy or counts per
// square on a square board — with the frame rate, lines dropped and frames lost, so a dead sensor shows at a glance.
import { LitElement, css, html, nothing, unsafeCSS, type PropertyDeclarations } from 'lit';
import type { RawFrameMessage } from '../../../server/http/messages.ts';
import { t, type Lang } from '../i18n/index.ts';
import type { GameName } from './api.ts';
import { RawFeed } from './raw-feed.ts';
import { ChangeWatch, cellText, gridPlaces, intensity, kalahaPlaces, type CellPlace } from './raw.ts';

declare global {
  interface HTMLElementTagNameMap {
    'raw-view': RawView;
  }
}

/** No frame for this long: the view says so (a board sends at least one a second). */
const STALE_MS = 2000;

/**
 * Placement and tint by class: the pages' Content-Security-Policy refuses style attributes, and Lit's styleMap
 * writes one on its first render. Up to 19 columns and rows; the tint in tenths, one hue, lighter for more (it
 * reads the same under every colour-vision deficiency).
 */
const LINES = 19;
const STEPS = 10;
const placeStyles = unsafeCSS(
  [
    ...Array.from({ length: LINES }, (_, i) => `.c${i + 1} { grid-column: ${i + 1}; } .r${i + 1} { grid-row: ${i + 1}; } .cols-${i + 1} { grid-template-columns: repeat(${i + 1}, minmax(0, 1fr)); }`),
    '.r1.span2 { grid-row: 1 / span 2; }',
    ...Array.from({ length: STEPS }, (_, i) => `.cell.lv${i + 1} { background: rgba(86, 180, 233, ${(0.2 + (0.8 * (i + 1)) / STEPS).toFixed(2)}); }`),
  ].join('\n'),
);

export class RawView extends LitElement {
  static override styles = [
    placeStyles,
    css`
    :host {
      display: block;
    }
    .stats {
      display: flex;
      flex-wrap: wrap;
      gap: 0.3rem 1rem;
      margin-bottom: 0.6rem;
      font-variant-numeric: tabular-nums;
    }
    .stats .bad {
      color: var(--warn-text);
      background: var(--warn-bg);
      padding: 0 0.35em;
      border-radius: 0.25em;
      font-weight: 700;
    }
    .stale {
      margin: 0 0 0.6rem;
      padding: 0.3em 0.7em;
      border-radius: 0.4em;
      background: var(--warn-bg);
      color: var(--warn-text);
      font-weight: 700;
    }
    .map {
      display: grid;
      gap: 3px;
      width: 100%;
    }
    .map.grid {
      max-width: min(100%, 34rem);
    }
    .map.kalaha {
      grid-template-columns: repeat(8, minmax(0, 1fr));
      grid-template-rows: repeat(2, minmax(3.2rem, auto));
    }
    .cell {
      position: relative;
      display: grid;
      place-content: center;
      min-width: 0;
      aspect-ratio: 1;
      border: 2px solid #3a3a40;
      border-radius: 0.3em;
      background: #000;
      color: var(--text);
      font-size: 0.8em;
      font-variant-numeric: tabular-nums;
      text-align: center;
      overflow: hidden;
    }
    .kalaha .cell {
      aspect-ratio: auto;
      padding: 0.3em 0.1em;
      font-size: 0.95em;
    }
    .cell .name {
      font-size: 0.75em;
      opacity: 0.85;
    }
    .cell .value {
      font-weight: 700;
    }
    .cell.dark-text {
      color: #000;
    }
    .cell.negative {
      border-color: var(--captured);
      border-style: solid;
    }
    .cell.flat {
      border-color: var(--diff);
      border-style: dashed;
    }
    .cell .tick {
      position: absolute;
      top: 0.05em;
      right: 0.2em;
      font-size: 0.9em;
      font-weight: 800;
      line-height: 1;
    }
    .grid .cell .name {
      display: none;
    }
    .grid.small .cell .value {
      font-size: 0.85em;
    }
    .legend {
      margin: 0.6rem 0 0;
      color: var(--muted);
      font-size: 0.9em;
    }
    .legend p {
      margin: 0.2em 0;
    }
    .swatch {
      display: inline-block;
      width: 0.9em;
      height: 0.9em;
      vertical-align: -0.1em;
      border-radius: 0.15em;
      border: 2px solid transparent;
    }
    .swatch.negative {
      border-color: var(--captured);
    }
    .swatch.flat {
      border-color: var(--diff);
      border-style: dashed;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 0.5rem;
      margin-top: 0.6rem;
    }
    button {
      font: inherit;
      cursor: pointer;
      padding: 0.25em 0.7em;
      border-radius: 0.5em;
      border: 2px solid var(--muted);
      background: var(--panel);
      color: var(--text);
    }
    button:focus-visible {
      outline: 3px solid var(--origin);
      outline-offset: 2px;
    }
  `,
  ];

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    game: {},
  };

  declare lang: Lang;
  /** The game on the table, to name Makis squares as its screens do. */
  declare game: GameName | null;

  private readonly feed = new RawFeed(this);
  private readonly watch = new ChangeWatch();
  private clock: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.lang = 'de';
    this.game = null;
    this.feed.onFrame = (frame) => this.watch.observe(frame);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Once a second, so "no readings for 3 s" counts up even when nothing comes.
    this.clock = setInterval(() => this.requestUpdate(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.clock);
  }

  override render() {
    const frame = this.feed.frame;
    if (!frame) return html`<p class="waiting" role="status">${t(this.lang, 'setup.raw.waiting')}</p>`;
    const age = Date.now() - this.feed.receivedAt;
    const places = frame.sense === 'weights' ? kalahaPlaces(this.lang) : gridPlaces(frame.cols ?? 0, frame.rows ?? 0, this.game === 'makis');
    const small = (frame.cols ?? 0) > 9;
    const total = frame.cells.length;
    return html`
      <p class="stats" aria-live="off">
        <span class="fps">${t(this.lang, 'setup.raw.rate', { fps: frame.framesPerSecond })}</span>
        <span class=${frame.dropped ? 'bad dropped' : 'dropped'}>${t(this.lang, 'setup.raw.dropped', { dropped: frame.dropped })}</span>
        <span class=${frame.lost ? 'bad lost' : 'lost'}>${t(this.lang, 'setup.raw.lost', { lost: frame.lost })}</span>
        <span class="seq">${t(this.lang, 'setup.raw.seq', { seq: frame.seq })}</span>
      </p>
      ${age > STALE_MS || !this.feed.open
        ? html`<p class="stale" role="status">${t(this.lang, 'setup.raw.stale', { seconds: Math.round(age / 1000) })}</p>`
        : nothing}
      <div
        class="map ${frame.sense === 'weights' ? 'kalaha' : `grid cols-${frame.cols}`} ${small ? 'small' : ''}"
        role="img"
        aria-label=${t(this.lang, 'setup.raw.changed', { count: this.watch.changedCount, total })}
      >
        ${places.map((place) => this.renderCell(frame, place))}
      </div>
      <div class="row">
        <span>${t(this.lang, 'setup.raw.changed', { count: this.watch.changedCount, total })}</span>
        <button class="reset" @click=${this.onReset}>${t(this.lang, 'setup.raw.reset')}</button>
      </div>
      <div class="legend">
        <p>${t(this.lang, frame.sense === 'weights' ? 'setup.raw.legend.weights' : frame.sense === 'counts' ? 'setup.raw.legend.counts' : 'setup.raw.legend.occupancy')}</p>
        <p>${t(this.lang, 'setup.raw.legend.changed')}</p>
        ${frame.sense === 'weights'
          ? html`<p><span class="swatch negative"></span> ${t(this.lang, 'setup.raw.legend.negative')}</p>
              <p><span class="swatch flat"></span> ${t(this.lang, 'setup.raw.legend.flat')}</p>`
          : nothing}
      </div>
    `;
  }

  private renderCell(frame: RawFrameMessage, place: CellPlace) {
    const strength = intensity(frame, place.cell);
    const value = frame.cells[place.cell] ?? 0;
    const text = cellText(this.lang, frame, place.cell);
    const changed = this.watch.hasChanged(place.cell);
    const flat = this.watch.isFlat(place.cell);
    const negative = frame.sense === 'weights' && value < -5;
    const level = strength > 0 ? Math.max(1, Math.round(strength * STEPS)) : 0;
    const classes = [
      'cell',
      `c${place.column}`,
      `r${place.row}`,
      place.rowSpan === 2 ? 'span2' : '',
      level ? `lv${level}` : '',
      level > 5 ? 'dark-text' : '',
      negative ? 'negative' : '',
      flat ? 'flat' : '',
      changed ? 'changed' : '',
    ];
    const label = frame.sense === 'occupancy' ? `${place.label}: ${t(this.lang, value ? 'setup.raw.occupied' : 'setup.raw.empty')}` : `${place.label}: ${text}`;
    return html`<div class=${classes.filter(Boolean).join(' ')} data-cell=${place.cell} title=${label}>
      ${frame.sense === 'weights' ? html`<span class="name">${place.label}</span>` : nothing}
      <span class="value">${text}</span>
      ${changed ? html`<span class="tick" aria-hidden="true">✓</span>` : nothing}
    </div>`;
  }

  private readonly onReset = (): void => {
    this.watch.reset();
    if (this.feed.frame) this.watch.observe(this.feed.frame);
    this.requestUpdate();
  };
}

customElements.define('raw-view', RawView);
