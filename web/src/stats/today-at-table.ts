// <today-at-table>: today's games at a table and who won them, small enough for the public display's idle screen.
// Either it is given the API's `today` (the statistics page does so), or it asks /api/stats itself and asks again
// every `refresh` seconds. It inherits its font size and colours from the page around it.
import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { DEFAULT_LANG, t, type Lang } from '../i18n/catalogue.ts';
import { getJson, isGameName, statsApiPath, type Stats, type TodayAtTable as Today } from '../history/index.ts';
import { todayLines } from './present.ts';

declare global {
  interface HTMLElementTagNameMap {
    'today-at-table': TodayAtTable;
  }
}

const DEFAULT_REFRESH_S = 60;

export class TodayAtTable extends LitElement {
  static override styles = css`
    :host {
      display: block;
      color: var(--text, #fff);
    }
    h2 {
      font-size: 1.25em;
      margin: 0 0 0.3em;
    }
    p {
      margin: 0 0 0.3em;
    }
    .counts {
      font-size: 1.1em;
    }
    .wins {
      display: flex;
      flex-wrap: wrap;
      gap: 0.2em 0.6em;
      align-items: baseline;
    }
    ul {
      display: flex;
      flex-wrap: wrap;
      gap: 0.2em 1em;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .wins-label,
    .quiet {
      color: var(--muted, #c8c8c8);
    }
    .count {
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
  `;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    board: {},
    game: {},
    refresh: { type: Number },
    data: { attribute: false },
    failed: { state: true },
  };

  declare lang: Lang;
  /** The table to count; without it, the server's own table. */
  declare board: string | undefined;
  /** Only one game (`kalaha`, …); without it, every game. */
  declare game: string | undefined;
  /** Seconds between asking the server again; 0 asks once. Unused when `data` is given. */
  declare refresh: number;
  /** Today as `/api/stats` gives it; null when the server knows no table; undefined to let the element ask itself. */
  declare data: Today | null | undefined;
  declare failed: boolean;

  private timer: ReturnType<typeof setInterval> | undefined;
  private fetched = false;
  private controller: AbortController | null = null;

  constructor() {
    super();
    this.lang = DEFAULT_LANG;
    this.board = undefined;
    this.game = undefined;
    this.refresh = DEFAULT_REFRESH_S;
    this.data = undefined;
    this.failed = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.schedule();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('data') && this.data !== undefined && !this.fetched) this.stop();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('board') || changed.has('game') || changed.has('refresh') || (changed.has('data') && this.data === undefined)) this.schedule();
  }

  /** Asks now and then every `refresh` seconds, unless the data comes from outside. */
  private schedule(): void {
    this.stop();
    if (this.data !== undefined && !this.fetched) return;
    void this.fetchToday();
    if (this.refresh > 0) this.timer = setInterval(() => void this.fetchToday(), this.refresh * 1000);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.controller?.abort();
  }

  private async fetchToday(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    const filter = { ...(this.board ? { board: this.board } : {}), ...(isGameName(this.game) ? { game: this.game } : {}) };
    try {
      const answer = await getJson<Stats>(statsApiPath(filter), controller.signal);
      this.fetched = true;
      if (answer.ok) {
        this.data = answer.value.today;
        this.failed = false;
      } else {
        // Keep showing the last good count: an idle screen should not flicker over one missed request.
        this.failed = this.data === undefined;
      }
    } catch {
      // Aborted.
    }
  }

  override render() {
    const lang = this.lang;
    if (this.data === undefined) {
      return this.failed ? html`<p class="quiet">${t(lang, 'today.unavailable')}</p>` : html`<p class="quiet">${t(lang, 'history.loading')}</p>`;
    }
    if (this.data === null) return html`<h2>${t(lang, 'today.title')}</h2><p class="quiet">${t(lang, 'today.noBoard')}</p>`;
    const lines = todayLines(lang, this.data, !this.board);
    return html`
      <h2>${lines.title}</h2>
      <p class="counts">${lines.counts}</p>
      ${lines.wins.length
        ? html`<div class="wins">
            <span class="wins-label">${t(lang, 'today.wins')}:</span>
            <ul>
              ${lines.wins.map((w) => html`<li>${w.label} <span class="count">${w.wins}</span></li>`)}
            </ul>
          </div>`
        : nothing}
    `;
  }
}

customElements.define('today-at-table', TodayAtTable);
