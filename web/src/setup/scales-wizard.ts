// <scales-wizard>: the Kalaha table's calibration in two steps — the empty table is tared, then the stones go in and
// their weight and spread are measured — with what the referee reckons beside it. It asks; the page acts.
import { LitElement, css, html, nothing, type PropertyDeclarations } from 'lit';
import { cellName, t, type Lang } from '../i18n/index.ts';
import type { SetupState, StoneMeasurement } from './api.ts';

declare global {
  interface HTMLElementTagNameMap {
    'scales-wizard': ScalesWizard;
  }
  interface HTMLElementEventMap {
    'scales-tare': CustomEvent<void>;
    'scales-measure': CustomEvent<void>;
  }
}

export class ScalesWizard extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    ol {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.8rem;
    }
    li {
      padding: 0.7em 0.8em;
      border: 2px solid var(--muted);
      border-radius: 0.5em;
    }
    li.done {
      border-color: var(--sown);
    }
    h3 {
      margin: 0 0 0.3em;
      font-size: 1.05em;
    }
    p {
      margin: 0.25em 0;
    }
    .muted {
      color: var(--muted);
    }
    .note {
      padding: 0.4em 0.7em;
      border-left: 0.35em solid var(--info);
      background: var(--panel);
    }
    button {
      font: inherit;
      font-weight: 800;
      cursor: pointer;
      min-height: 2.8rem;
      margin-top: 0.4em;
      padding: 0.3em 1.1em;
      border-radius: 0.5em;
      border: 2px solid var(--text);
      background: var(--text);
      color: var(--bg);
    }
    button:disabled {
      cursor: not-allowed;
      opacity: 0.45;
    }
    button:focus-visible {
      outline: 3px solid var(--origin);
      outline-offset: 2px;
    }
    .result {
      display: grid;
      gap: 0.2em;
      margin-top: 0.5em;
    }
    .stone {
      font-size: 1.5em;
      font-weight: 800;
    }
    .suspects {
      margin: 0.4em 0 0;
      padding: 0.4em 0.7em 0.4em 1.6em;
      border-radius: 0.4em;
      background: var(--warn-bg);
      color: var(--warn-text);
      font-weight: 700;
    }
    .pits {
      display: grid;
      grid-template-columns: repeat(6, minmax(0, 1fr));
      gap: 2px;
      margin-top: 0.4em;
      font-size: 0.85em;
      font-variant-numeric: tabular-nums;
      text-align: center;
    }
    .pits span {
      padding: 0.15em 0;
      background: var(--panel);
      border-radius: 0.2em;
    }
    .pits span.suspect {
      background: var(--warn-bg);
      color: var(--warn-text);
      font-weight: 700;
    }
  `;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    calibration: { attribute: false },
    seedsPerPit: { attribute: false },
    simulated: { type: Boolean },
    locked: { type: Boolean },
    running: { type: Boolean },
  };

  declare lang: Lang;
  declare calibration: SetupState['calibration'];
  declare seedsPerPit: number;
  /** A simulated table, whose players do not follow the wizard. */
  declare simulated: boolean;
  /** No token, no link, or a request under way. */
  declare locked: boolean;
  /** A game is being played: the scales stay as they are. */
  declare running: boolean;

  constructor() {
    super();
    this.lang = 'de';
    this.calibration = null;
    this.seedsPerPit = 4;
    this.simulated = false;
    this.locked = true;
    this.running = false;
  }

  override render() {
    const calibration = this.calibration;
    const tared = calibration?.taredAt ?? null;
    const measured = calibration?.measured ?? null;
    const time = (at: number) => new Intl.DateTimeFormat(this.lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(at);
    return html`
      ${this.simulated ? html`<p class="note">${t(this.lang, 'setup.scales.simulated')}</p>` : nothing}
      ${this.running ? html`<p class="note">${t(this.lang, 'setup.scales.busyGame')}</p>` : nothing}
      <ol>
        <li class=${tared !== null ? 'done step-tare' : 'step-tare'}>
          <h3>${t(this.lang, 'setup.scales.step1')}</h3>
          <p>${t(this.lang, 'setup.scales.step1.text')}</p>
          <p class="muted">${tared !== null ? t(this.lang, 'setup.scales.tared', { time: time(tared) }) : t(this.lang, 'setup.scales.notTared')}</p>
          <button class="tare" ?disabled=${this.locked || this.running} @click=${() => this.ask('scales-tare')}>${t(this.lang, 'setup.scales.tare')}</button>
        </li>
        <li class=${measured ? 'done step-measure' : 'step-measure'}>
          <h3>${t(this.lang, 'setup.scales.step2')}</h3>
          <p>${t(this.lang, 'setup.scales.step2.text', { seeds: this.seedsPerPit, stones: 12 * this.seedsPerPit })}</p>
          <button class="measure" ?disabled=${this.locked} @click=${() => this.ask('scales-measure')}>${t(this.lang, 'setup.scales.measure')}</button>
          ${measured ? this.renderMeasured(measured, time(measured.at)) : nothing}
        </li>
      </ol>
      <p class="muted referee">
        ${calibration?.referee
          ? t(this.lang, 'setup.scales.referee', { stone: this.grams(calibration.referee.stone), spread: this.grams(calibration.referee.spread) })
          : t(this.lang, 'setup.scales.refereeNone')}
      </p>
    `;
  }

  private renderMeasured(m: StoneMeasurement, at: string) {
    const suspect = new Set(m.suspects.map((s) => s.cell));
    const percent = new Intl.NumberFormat(this.lang, { style: 'percent', maximumFractionDigits: 0 }).format(m.stone > 0 ? m.spread / m.stone : 0);
    // The pits as on the table seen from south: f…a above, A…F below.
    const rows = [
      [11, 10, 9, 8, 7, 6],
      [0, 1, 2, 3, 4, 5],
    ];
    return html`<div class="result" role="status">
      <p class="stone">${t(this.lang, 'setup.scales.stone', { grams: this.grams(m.stone) })}</p>
      <p>${t(this.lang, 'setup.scales.spread', { grams: this.grams(m.spread), percent })}</p>
      <p>${t(this.lang, 'setup.scales.noise', { grams: this.grams(m.noise) })}</p>
      <p class="muted">${t(this.lang, 'setup.scales.total', { grams: this.grams(m.total, 1), stones: m.stones, frames: m.frames, time: at })}</p>
      <div class="pits" aria-label=${t(this.lang, 'setup.scales.pits')}>
        ${rows.flat().map((pit) => {
          const cell = m.cells[pit];
          return html`<span class=${suspect.has(pit) ? 'suspect' : ''} title=${cellName(this.lang, pit)}>${cellName(this.lang, pit)} ${cell ? this.grams(cell.grams, 1) : '–'}</span>`;
        })}
      </div>
      ${m.suspects.length
        ? html`<ul class="suspects">
            ${m.suspects.map((s) => html`<li>${t(this.lang, `setup.scales.suspect.${s.reason}`, { cell: cellName(this.lang, s.cell) })}</li>`)}
          </ul>`
        : nothing}
    </div>`;
  }

  private grams(value: number, digits = 2): string {
    return new Intl.NumberFormat(this.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  }

  private ask(name: 'scales-tare' | 'scales-measure'): void {
    this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true }));
  }
}

customElements.define('scales-wizard', ScalesWizard);
