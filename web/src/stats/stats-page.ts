// <stats-page>: the page at /stats. Games per day and per table, and for each game its wins by side or seat and its
// average length, as charts with the same numbers in tables; today at this table. The filters (game, table, a range
// of days) live in the address, as on /games.
import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { initialLang, rememberLang, t, type Lang } from '../i18n/index.ts';
import type { LangChangeEvent } from '../common/index.ts';
import {
  GAME_NAMES,
  dayLabel,
  filtered,
  gamesSearch,
  getJson,
  lineLook,
  pageBar,
  pageStyles,
  problemBox,
  readStatsFilter,
  statsApiPath,
  statsSearch,
  withFilter,
  type ApiProblem,
  type ChartSpec,
  type FilterKey,
  type GameKindStats,
  type LogFilter,
  type Stats,
} from '../history/index.ts';
import { average, winRows } from './present.ts';
import './today-at-table.ts';

declare global {
  interface HTMLElementTagNameMap {
    'stats-page': StatsPage;
  }
}

/** Bars of games are drawn in the colour of a sown pit: one series, no meaning to decode. */
const GAMES_LOOK = { colour: '#56b4e9', dash: [], point: 'rect', rotation: 0 } as const;

export class StatsPage extends LitElement {
  static override styles = [
    pageStyles,
    css`
      .summary {
        font-size: 1.2rem;
        margin: 0 0 1rem;
      }
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr));
        gap: 1rem;
        margin-bottom: 1rem;
      }
      .today {
        margin-bottom: 1rem;
        font-size: 1.1rem;
      }
      section h3 {
        margin: 0 0 0.25rem;
        font-size: 1.15rem;
      }
      section p {
        margin: 0 0 0.5rem;
      }
      details {
        margin-top: 0.5rem;
      }
      summary {
        cursor: pointer;
        color: var(--sown, #56b4e9);
      }
      table {
        border-collapse: collapse;
        margin-top: 0.5rem;
        font-variant-numeric: tabular-nums;
      }
      th,
      td {
        text-align: left;
        padding: 0.25rem 1rem 0.25rem 0;
      }
      td.n,
      th.n {
        text-align: right;
      }
      .per-game {
        margin-bottom: 1rem;
      }
      .games-table {
        width: 100%;
        max-width: 44rem;
      }
      tbody th {
        font-weight: 600;
      }
      thead th {
        color: var(--muted, #c8c8c8);
        font-size: 0.9rem;
      }
      .games {
        --chart-height: 10rem;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    filter: { state: true },
    stats: { state: true },
    problem: { state: true },
    boards: { state: true },
  };

  declare lang: Lang;
  declare filter: LogFilter;
  declare stats: Stats | null;
  declare problem: ApiProblem | null;
  declare boards: readonly string[];

  private controller: AbortController | null = null;

  constructor() {
    super();
    this.lang = initialLang();
    this.filter = readStatsFilter(location.search);
    this.stats = null;
    this.problem = null;
    this.boards = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPopState);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    this.controller?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('filter')) void this.load();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) {
      document.documentElement.lang = this.lang;
      document.title = `${t(this.lang, 'page.stats.title')} · Spieltisch`;
    }
  }

  private async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.problem = null;
    const filter = this.filter;
    // The tables to choose from are every table of the log, not only those the filter leaves.
    const needBoards = this.boards.length === 0 && filtered(filter);
    try {
      const [stats, all] = await Promise.all([
        getJson<Stats>(statsApiPath(filter), controller.signal),
        needBoards ? getJson<Stats>(statsApiPath({}), controller.signal) : null,
      ]);
      if (stats.ok) {
        this.stats = stats.value;
        if (!filtered(filter)) this.boards = stats.value.perBoard.map((b) => b.board);
      } else {
        this.stats = null;
        this.problem = stats.problem;
      }
      if (all?.ok) this.boards = all.value.perBoard.map((b) => b.board);
    } catch {
      // Aborted: a newer filter is being loaded.
    }
  }

  override render() {
    const lang = this.lang;
    const stats = this.stats;
    return html`
      ${pageBar(lang, 'stats', this.onLangChange)}
      <main>
        <h1>${t(lang, 'page.stats.title')}</h1>
        ${this.renderFilters()}
        <div aria-live="polite">
          ${this.problem
            ? problemBox(lang, this.problem, () => void this.load())
            : stats === null
              ? html`<p class="muted">${t(lang, 'history.loading')}</p>`
              : this.renderStats(stats)}
        </div>
      </main>
    `;
  }

  private renderFilters() {
    const lang = this.lang;
    const filter = this.filter;
    const option = (value: string, label: string, current: string | undefined) =>
      html`<option value=${value} ?selected=${(current ?? '') === value}>${label}</option>`;
    const boards = filter.board !== undefined && !this.boards.includes(filter.board) ? [filter.board, ...this.boards] : this.boards;
    return html`<form class="filters" aria-label=${t(lang, 'history.filter.title')} @submit=${(e: Event) => e.preventDefault()}>
      <label
        >${t(lang, 'history.filter.game')}
        <select data-filter="game" @change=${this.onFilter}>
          ${option('', t(lang, 'history.filter.any'), filter.game)} ${GAME_NAMES.map((g) => option(g, t(lang, `game.${g}`), filter.game))}
        </select>
      </label>
      <label
        >${t(lang, 'history.filter.board')}
        <select data-filter="board" @change=${this.onFilter}>
          ${option('', t(lang, 'history.filter.any'), filter.board)} ${boards.map((b) => option(b, b, filter.board))}
        </select>
      </label>
      <label
        >${t(lang, 'history.filter.from')}
        <input type="date" data-filter="from" lang=${lang} .value=${filter.from ?? ''} max=${filter.to ?? ''} @change=${this.onFilter} />
      </label>
      <label
        >${t(lang, 'history.filter.to')}
        <input type="date" data-filter="to" lang=${lang} .value=${filter.to ?? ''} min=${filter.from ?? ''} @change=${this.onFilter} />
      </label>
      ${filtered(filter) ? html`<a href="/stats?lang=${lang}" @click=${this.onReset}>${t(lang, 'history.filter.reset')}</a>` : nothing}
    </form>`;
  }

  private renderStats(stats: Stats) {
    const lang = this.lang;
    const today = html`<section class="today">
      <today-at-table .lang=${lang} .data=${stats.today} board=${this.filter.board ?? nothing}></today-at-table>
    </section>`;
    if (stats.games === 0) {
      return html`${today}
        <p class="empty">${t(lang, filtered(this.filter) ? 'history.empty.filtered' : 'history.empty.log')}</p>`;
    }
    return html`
      <p class="summary">${t(lang, 'stats.summary', { games: stats.games, finished: stats.finished, live: stats.live })}</p>
      ${today}
      <div class="grid">${this.renderPerDay(stats)} ${this.renderPerBoard(stats)}</div>
      <section class="per-game">
        <h2>${t(lang, 'stats.perGame.title')}</h2>
        ${this.renderGameTable(stats)}
      </section>
      <div class="grid games">${stats.perGame.map((g) => this.renderGame(g))}</div>
    `;
  }

  private renderPerDay(stats: Stats) {
    const lang = this.lang;
    const spec: ChartSpec = {
      kind: 'bar',
      labels: stats.perDay.map((d) => dayLabel(lang, d.day, 'short')),
      series: [{ label: t(lang, 'stats.dataset.games'), values: stats.perDay.map((d) => d.games), look: GAMES_LOOK }],
      integers: true,
      legend: false,
    };
    const gamesLink = (day: string) => `/games${gamesSearch({ view: 'list', list: { filter: { ...this.gameFilter(), day }, page: 1 } }, lang)}`;
    return html`<section class="per-day">
      <h2>${t(lang, 'stats.perDay.title')}</h2>
      <history-chart .lang=${lang} .spec=${spec} label=${t(lang, 'stats.perDay.title')}></history-chart>
      <details>
        <summary>${t(lang, 'stats.asTable')}</summary>
        <table>
          <thead>
            <tr><th scope="col">${t(lang, 'stats.col.day')}</th><th scope="col">${t(lang, 'stats.col.games')}</th></tr>
          </thead>
          <tbody>
            ${stats.perDay.map((d) => html`<tr><td><a href=${gamesLink(d.day)}>${dayLabel(lang, d.day)}</a></td><td class="n">${d.games}</td></tr>`)}
          </tbody>
        </table>
      </details>
    </section>`;
  }

  private renderPerBoard(stats: Stats) {
    const lang = this.lang;
    const spec: ChartSpec = {
      kind: 'bar',
      labels: stats.perBoard.map((b) => b.board),
      series: [{ label: t(lang, 'stats.dataset.games'), values: stats.perBoard.map((b) => b.games), look: GAMES_LOOK }],
      integers: true,
      horizontal: true,
      legend: false,
    };
    const gamesLink = (board: string) => `/games${gamesSearch({ view: 'list', list: { filter: { ...this.gameFilter(), board }, page: 1 } }, lang)}`;
    return html`<section class="per-board">
      <h2>${t(lang, 'stats.perBoard.title')}</h2>
      <history-chart .lang=${lang} .spec=${spec} label=${t(lang, 'stats.perBoard.title')}></history-chart>
      <table>
        <thead>
          <tr><th scope="col">${t(lang, 'stats.col.board')}</th><th scope="col">${t(lang, 'stats.col.games')}</th></tr>
        </thead>
        <tbody>
          ${stats.perBoard.map((b) => html`<tr><td><a href=${gamesLink(b.board)}>${b.board}</a></td><td class="n">${b.games}</td></tr>`)}
        </tbody>
      </table>
    </section>`;
  }

  /** Every game side by side: how many, how many finished, how long on average. */
  private renderGameTable(stats: Stats) {
    const lang = this.lang;
    const mean = (n: number | null) => (n === null ? '–' : average(lang, n));
    return html`<table class="games-table">
      <thead>
        <tr>
          <th scope="col">${t(lang, 'stats.col.game')}</th>
          <th scope="col" class="n">${t(lang, 'stats.col.games')}</th>
          <th scope="col" class="n">${t(lang, 'stats.col.finished')}</th>
          <th scope="col" class="n">${t(lang, 'stats.col.avgPlies')}</th>
          <th scope="col" class="n">${t(lang, 'stats.col.avgMinutes')}</th>
        </tr>
      </thead>
      <tbody>
        ${stats.perGame.map(
          (g) => html`<tr>
            <th scope="row">${t(lang, `game.${g.game}`)}</th>
            <td class="n">${g.games}</td>
            <td class="n">${g.finished}</td>
            <td class="n">${mean(g.averagePlies)}</td>
            <td class="n">${g.averageMinutes === null ? '–' : t(lang, 'history.minutes', { minutes: average(lang, g.averageMinutes) })}</td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }

  private renderGame(g: GameKindStats) {
    const lang = this.lang;
    const rows = winRows(lang, g.wins);
    const spec: ChartSpec = {
      kind: 'bar',
      labels: rows.map((r) => r.label),
      series: [
        {
          label: t(lang, 'stats.dataset.wins'),
          values: rows.map((r) => r.wins),
          look: GAMES_LOOK,
          barColours: rows.map((r) => lineLook(r.key).colour),
        },
      ],
      integers: true,
      legend: false,
    };
    const averages =
      g.averagePlies === null
        ? t(lang, 'stats.average.none')
        : t(lang, 'stats.average', { plies: average(lang, g.averagePlies), minutes: average(lang, g.averageMinutes ?? 0) });
    return html`<section class="game" data-game=${g.game}>
      <h3>${t(lang, `game.${g.game}`)}</h3>
      <p>${t(lang, 'stats.game.summary', { games: g.games, finished: g.finished })} · ${averages}</p>
      ${rows.length
        ? html`<h4 class="visually-hidden">${t(lang, 'stats.wins.title')}</h4>
            <history-chart .lang=${lang} .spec=${spec} label=${`${t(lang, `game.${g.game}`)}: ${t(lang, 'stats.wins.title')}`}></history-chart>
            <table>
              <caption class="visually-hidden">${t(lang, 'stats.wins.title')}</caption>
              <thead>
                <tr><th scope="col">${t(lang, 'stats.col.winner')}</th><th scope="col">${t(lang, 'stats.col.wins')}</th></tr>
              </thead>
              <tbody>
                ${rows.map((r) => html`<tr><td>${r.label}</td><td class="n">${r.wins}</td></tr>`)}
              </tbody>
            </table>`
        : nothing}
    </section>`;
  }

  /** The filter's game, carried into the links to the list. */
  private gameFilter(): LogFilter {
    return this.filter.game ? { game: this.filter.game } : {};
  }

  private setFilter(filter: LogFilter): void {
    history.pushState(null, '', `${location.pathname}${statsSearch(filter, this.lang)}`);
    this.filter = filter;
  }

  private readonly onFilter = (event: Event): void => {
    const target = event.target as HTMLSelectElement | HTMLInputElement;
    this.setFilter(withFilter(this.filter, target.dataset.filter as FilterKey, target.value));
  };

  private readonly onReset = (event: MouseEvent): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.setFilter({});
  };

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };

  private readonly onPopState = (): void => {
    this.filter = readStatsFilter(location.search);
  };
}

customElements.define('stats-page', StatsPage);
