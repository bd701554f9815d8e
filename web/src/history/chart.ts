// <history-chart>: one Chart.js chart (line or bar) from plain data, for the history and statistics pages. Chart.js
// is loaded on first use, so a page draws its board and tables without waiting for it. A click on a line chart goes
// out as `chart-pick` with the index under the pointer; `marker` draws a vertical line at one index (the ply shown).
import { LitElement, css, html, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Chart as ChartType, ChartConfiguration, Plugin } from 'chart.js';
import { DEFAULT_LANG, type Lang } from '../i18n/catalogue.ts';
import type { LineLook } from './colours.ts';

export interface ChartSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
  readonly look: LineLook;
  /** Bars only: one colour per bar (wins by winner). */
  readonly barColours?: readonly string[];
}

export interface ChartSpec {
  readonly kind: 'line' | 'bar';
  readonly labels: readonly string[];
  readonly series: readonly ChartSeries[];
  readonly xTitle?: string;
  readonly yTitle?: string;
  /** The top of the value axis, when the values have one. */
  readonly yMax?: number | null;
  /** Whole numbers only on the value axis (games, stones, pieces). */
  readonly integers?: boolean;
  /** Bars lying down, for long category names. */
  readonly horizontal?: boolean;
  readonly legend?: boolean;
}

export interface ChartPickDetail {
  readonly index: number;
}
export type ChartPickEvent = CustomEvent<ChartPickDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'history-chart': HistoryChart;
  }
  interface HTMLElementEventMap {
    'chart-pick': ChartPickEvent;
  }
}

type ChartModule = typeof import('./chart-setup.ts');
let loading: Promise<ChartModule> | null = null;

function loadChartJs(): Promise<ChartModule> {
  loading ??= import('./chart-setup.ts');
  return loading;
}

/** Starts loading Chart.js now, say while a page waits for its data, so that the chart need not wait for it later. */
export function preloadChartJs(): void {
  void loadChartJs().catch(() => {
    // Tried again when a chart is drawn.
    loading = null;
  });
}

/** Resolves after the browser has painted what is in the DOM now. */
function afterPaint(): Promise<void> {
  return new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
}

const TEXT = '#ffffff';
const MUTED = '#c8c8c8';
const GRID = 'rgba(255, 255, 255, 0.14)';

/**
 * Where each chart's marker stands. Kept beside the chart rather than in its options: Chart.js resolves plugin
 * options once per update, and moving the marker should cost a redraw, not an update.
 */
const markers = new WeakMap<ChartType, number | null>();

/** The vertical line at the ply on show. */
const plyMarker: Plugin<'line' | 'bar'> = {
  id: 'plyMarker',
  afterDatasetsDraw(chart) {
    const index = markers.get(chart as ChartType);
    if (index === null || index === undefined) return;
    const x = chart.scales.x?.getPixelForValue(index);
    if (x === undefined || !Number.isFinite(x)) return;
    const { top, bottom } = chart.chartArea;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = TEXT;
    ctx.lineWidth = 2;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.restore();
  },
};

export class HistoryChart extends LitElement {
  static override styles = css`
    :host {
      display: block;
      position: relative;
      height: var(--chart-height, 18rem);
      min-height: 10rem;
    }
    canvas {
      display: block;
    }
  `;

  static override properties: PropertyDeclarations = {
    spec: { attribute: false },
    marker: { attribute: false },
    label: {},
    lang: { reflect: true },
  };

  declare spec: ChartSpec | null;
  /** An index on the category axis to mark, or null. */
  declare marker: number | null;
  /** What the chart shows, for screen readers (a canvas has no text of its own). */
  declare label: string;
  declare lang: Lang;

  private chart: ChartType | null = null;
  private creating = false;

  constructor() {
    super();
    this.spec = null;
    this.marker = null;
    this.label = '';
    this.lang = DEFAULT_LANG;
  }

  override render() {
    return html`<canvas role="img" aria-label=${this.label}></canvas>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!this.spec) return;
    if (!this.chart) {
      void this.create();
      return;
    }
    markers.set(this.chart, this.marker);
    if (changed.has('spec') || changed.has('lang')) {
      const config = this.config(this.spec);
      this.chart.data = config.data;
      this.chart.options = config.options ?? {};
      this.chart.update('none');
    } else if (changed.has('marker')) {
      this.chart.draw();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.chart?.destroy();
    this.chart = null;
    this.removeAttribute('drawn');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back in the page after a move in the DOM: draw again.
    if (this.hasUpdated && this.spec && !this.chart) void this.create();
  }

  private async create(): Promise<void> {
    if (this.creating) return;
    this.creating = true;
    try {
      const { Chart } = await loadChartJs();
      // What was rendered with the chart (a game's board) is painted first: drawing a long series takes a while.
      await afterPaint();
      const canvas = this.renderRoot.querySelector('canvas');
      if (!canvas || !this.spec || !this.isConnected) return;
      const chart = new Chart(canvas, this.config(this.spec));
      markers.set(chart, this.marker);
      chart.draw();
      this.chart = chart;
      // For tests and benches: the chart is on the canvas.
      this.toggleAttribute('drawn', true);
    } finally {
      this.creating = false;
    }
  }

  private config(spec: ChartSpec): ChartConfiguration<'line' | 'bar'> {
    const line = spec.kind === 'line';
    const datasets = spec.series.map((s) => ({
      label: s.label,
      data: [...s.values],
      borderColor: s.look.colour,
      backgroundColor: s.barColours ? [...s.barColours] : s.look.colour,
      borderDash: [...s.look.dash],
      borderWidth: line ? 3 : 0,
      pointStyle: s.look.point,
      rotation: s.look.rotation,
      pointRadius: 0,
      pointHoverRadius: 6,
      pointHitRadius: 8,
      // A bar for one or two categories should not fill the whole chart.
      maxBarThickness: 72,
      // Moves are steps: a score holds until the next move changes it.
      stepped: line ? ('before' as const) : false,
      spanGaps: false,
    }));
    const font = { family: getComputedStyle(this).fontFamily || 'system-ui', size: 14 };
    const categoryAxis = {
      ticks: { color: MUTED, font, autoSkip: true, maxRotation: 0 },
      grid: { color: GRID },
      title: { display: Boolean(spec.xTitle), text: spec.xTitle ?? '', color: MUTED, font },
    };
    const valueAxis = {
      beginAtZero: true,
      ...(spec.yMax !== null && spec.yMax !== undefined ? { max: spec.yMax } : {}),
      ticks: { color: MUTED, font, ...(spec.integers ? { precision: 0 } : {}) },
      grid: { color: GRID },
      title: { display: Boolean(spec.yTitle), text: spec.yTitle ?? '', color: MUTED, font },
    };
    return {
      type: spec.kind,
      data: { labels: [...spec.labels], datasets },
      plugins: [plyMarker],
      options: {
        locale: this.lang,
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: spec.horizontal ? 'y' : 'x',
        interaction: { mode: 'index', intersect: false },
        scales: spec.horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
        plugins: {
          legend: {
            display: spec.legend ?? spec.series.length > 1,
            labels: { color: TEXT, font, usePointStyle: true, boxHeight: 10 },
          },
          tooltip: { titleFont: font, bodyFont: font },
        },
        onClick: (event, _elements, chart) => {
          if (!line || event.x === null) return;
          const value = chart.scales.x.getValueForPixel(event.x);
          if (value === undefined || !Number.isFinite(value)) return;
          const index = Math.max(0, Math.min(spec.labels.length - 1, Math.round(value)));
          this.dispatchEvent(new CustomEvent<ChartPickDetail>('chart-pick', { detail: { index }, bubbles: true, composed: true }));
        },
      },
    };
  }
}

customElements.define('history-chart', HistoryChart);
