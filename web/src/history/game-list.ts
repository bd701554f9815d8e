// <game-list>: the logged games, newest first, a page at a time, with the filters of the address (game, day, table,
// player); each game links to its own page. Changing a filter asks <games-page> to push a new address.
import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { DEFAULT_LANG, t, type Lang } from '../i18n/catalogue.ts';
import { GAME_NAMES, getJson, type ApiProblem, type GameList, type GameSummary, type Players, type Stats } from './api.ts';
import {
  EXPORT_FORMATS,
  PAGE_SIZE,
  exportAllPath,
  filtered,
  gamesSearch,
  listApiPath,
  playersApiPath,
  withFilter,
  type FilterKey,
  type ListQuery,
} from './filters.ts';
import { dateTime, lengthLine, playersOf, resultLine, sourceLine } from './format.ts';
import { inPage, pageStyles, problemBox } from './page.ts';
import type { GamesNavigateDetail } from './games-page.ts';

declare global {
  interface HTMLElementTagNameMap {
    'game-list': GameListView;
  }
}

const EMPTY_LIST: ListQuery = { filter: {}, page: 1 };

export class GameListView extends LitElement {
  static override styles = [
    pageStyles,
    css`
      :host {
        padding: 0;
      }
      table {
        width: 100%;
        border-collapse: collapse;
        background: var(--panel, #1b1b1e);
        border-radius: 0.75rem;
        overflow: hidden;
      }
      caption {
        text-align: left;
        padding: 0 0 0.5rem;
        color: var(--muted, #c8c8c8);
      }
      th,
      td {
        text-align: left;
        padding: 0.6rem 0.75rem;
        vertical-align: top;
      }
      thead th {
        font-size: 0.9rem;
        color: var(--muted, #c8c8c8);
        border-bottom: 2px solid #3a3a40;
      }
      tbody tr + tr td {
        border-top: 1px solid #2c2c32;
      }
      tbody tr:hover {
        background: rgba(255, 255, 255, 0.04);
      }
      .live {
        display: inline-block;
        padding: 0 0.4rem;
        border-radius: 0.3rem;
        background: var(--warn-bg, #f0e442);
        color: var(--warn-text, #000);
        font-weight: 700;
      }
      .id {
        color: var(--muted, #c8c8c8);
        font-variant-numeric: tabular-nums;
      }
      .paging {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem 1.5rem;
        margin: 1rem 0;
      }
      .paging a[aria-disabled='true'] {
        color: var(--muted, #c8c8c8);
        opacity: 0.5;
        pointer-events: none;
        text-decoration: none;
      }
      .exports {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        color: var(--muted, #c8c8c8);
      }
      [aria-busy='true'] table {
        opacity: 0.6;
      }
      /* On a phone each game is a card: the column names go in front of the values. */
      @media (max-width: 760px) {
        table,
        tbody,
        tr,
        td {
          display: block;
        }
        thead {
          display: none;
        }
        caption {
          display: block;
        }
        tbody tr {
          padding: 0.5rem 0;
        }
        td {
          padding: 0.15rem 0.75rem;
        }
        td[data-label]::before {
          content: attr(data-label) ': ';
          color: var(--muted, #c8c8c8);
        }
        tbody tr + tr td {
          border-top: none;
        }
        tbody tr + tr {
          border-top: 1px solid #2c2c32;
        }
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    list: { attribute: false },
    data: { state: true },
    problem: { state: true },
    players: { state: true },
    boards: { state: true },
    loading: { state: true },
  };

  declare lang: Lang;
  declare list: ListQuery;
  declare data: GameList | null;
  declare problem: ApiProblem | null;
  declare players: readonly string[];
  declare boards: readonly string[];
  declare loading: boolean;

  private controller: AbortController | null = null;

  constructor() {
    super();
    this.lang = DEFAULT_LANG;
    this.list = EMPTY_LIST;
    this.data = null;
    this.problem = null;
    this.players = [];
    this.boards = [];
    this.loading = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('list')) void this.load();
  }

  /** The page of games, and the names and tables the filters offer; the list's problem is the one to show. */
  private async load(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    const list = this.list;
    this.problem = null;
    this.loading = true;
    try {
      const [games, players, stats] = await Promise.all([
        getJson<GameList>(listApiPath(list), controller.signal),
        getJson<Players>(playersApiPath(list.filter), controller.signal),
        this.boards.length ? null : getJson<Stats>('/api/stats', controller.signal),
      ]);
      if (games.ok) this.data = games.value;
      else {
        this.data = null;
        this.problem = games.problem;
      }
      if (players.ok) this.players = players.value.players.map((p) => p.name);
      if (stats?.ok) this.boards = stats.value.perBoard.map((b) => b.board);
      this.loading = false;
    } catch {
      // Aborted: a newer request is on its way.
    }
  }

  override render() {
    const data = this.data;
    return html`
      <h1>${t(this.lang, 'page.games.title')}</h1>
      ${this.renderFilters()}
      <div aria-live="polite" aria-busy=${String(this.loading)}>
        ${this.problem
          ? problemBox(this.lang, this.problem, () => void this.load())
          : data === null
            ? html`<p class="muted">${t(this.lang, 'history.loading')}</p>`
            : data.total === 0
              ? this.renderEmpty()
              : this.renderGames(data)}
      </div>
    `;
  }

  private renderFilters() {
    const filter = this.list.filter;
    const option = (value: string, label: string, current: string | undefined) =>
      html`<option value=${value} ?selected=${(current ?? '') === value}>${label}</option>`;
    // A name or table from a shared link stays choosable even when the log no longer lists it.
    const withCurrent = (names: readonly string[], current: string | undefined) =>
      current !== undefined && !names.includes(current) ? [current, ...names] : names;
    return html`<form class="filters" aria-label=${t(this.lang, 'history.filter.title')} @submit=${(e: Event) => e.preventDefault()}>
      <label
        >${t(this.lang, 'history.filter.game')}
        <select data-filter="game" @change=${this.onFilter}>
          ${option('', t(this.lang, 'history.filter.any'), filter.game)}
          ${GAME_NAMES.map((g) => option(g, t(this.lang, `game.${g}`), filter.game))}
        </select>
      </label>
      <label
        >${t(this.lang, 'history.filter.day')}
        <input type="date" data-filter="day" lang=${this.lang} .value=${filter.day ?? ''} @change=${this.onFilter} />
      </label>
      <label
        >${t(this.lang, 'history.filter.board')}
        <select data-filter="board" @change=${this.onFilter}>
          ${option('', t(this.lang, 'history.filter.any'), filter.board)}
          ${withCurrent(this.boards, filter.board).map((b) => option(b, b, filter.board))}
        </select>
      </label>
      <label
        >${t(this.lang, 'history.filter.player')}
        <select data-filter="player" @change=${this.onFilter}>
          ${option('', t(this.lang, 'history.filter.any'), filter.player)}
          ${withCurrent(this.players, filter.player).map((p) => option(p, p, filter.player))}
        </select>
      </label>
      ${filtered(filter)
        ? html`<a href="/games${gamesSearch({ view: 'list', list: EMPTY_LIST }, this.lang)}" @click=${this.onLink}
            >${t(this.lang, 'history.filter.reset')}</a
          >`
        : nothing}
    </form>`;
  }

  private renderEmpty() {
    const filter = this.list.filter;
    if (!filtered(filter)) return html`<p class="empty">${t(this.lang, 'history.empty.log')}</p>`;
    return html`<p class="empty">
      ${t(this.lang, 'history.empty.filtered')}
      <a href="/games${gamesSearch({ view: 'list', list: EMPTY_LIST }, this.lang)}" @click=${this.onLink}>${t(this.lang, 'history.filter.reset')}</a>
    </p>`;
  }

  private renderGames(data: GameList) {
    const lang = this.lang;
    const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
    const page = this.list.page;
    const from = data.offset + 1;
    const to = data.offset + data.games.length;
    const pageLink = (n: number, key: 'history.list.newer' | 'history.list.older', disabled: boolean) =>
      html`<a
        href="/games${gamesSearch({ view: 'list', list: { ...this.list, page: n } }, lang)}"
        aria-disabled=${String(disabled)}
        tabindex=${disabled ? '-1' : '0'}
        @click=${this.onLink}
        >${t(lang, key)}</a
      >`;
    return html`
      <table>
        <caption>
          ${t(lang, 'history.list.caption')}
          ·
          ${t(lang, 'history.list.range', { from, to, total: data.total })}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t(lang, 'history.col.when')}</th>
            <th scope="col">${t(lang, 'history.col.game')}</th>
            <th scope="col">${t(lang, 'history.col.board')}</th>
            <th scope="col">${t(lang, 'history.col.players')}</th>
            <th scope="col">${t(lang, 'history.col.result')}</th>
            <th scope="col">${t(lang, 'history.col.length')}</th>
            <th scope="col">${t(lang, 'history.col.source')}</th>
          </tr>
        </thead>
        <tbody>
          ${data.games.map((g) => this.renderGame(g))}
        </tbody>
      </table>
      ${pages > 1
        ? html`<nav class="paging" aria-label=${t(lang, 'history.list.paging')}>
            ${pageLink(page - 1, 'history.list.newer', page <= 1)}
            <span>${t(lang, 'history.list.page', { page, pages })}</span>
            ${pageLink(page + 1, 'history.list.older', page >= pages)}
          </nav>`
        : nothing}
      <p class="exports">
        <span>${t(lang, 'history.list.exportAll')}</span>
        ${EXPORT_FORMATS.map((f) => html`<a href=${exportAllPath(this.list.filter, f)} download>${t(lang, `history.download.${f}`)}</a>`)}
      </p>
    `;
  }

  private renderGame(g: GameSummary) {
    const lang = this.lang;
    const href = `/games${gamesSearch({ view: 'game', id: String(g.id), ply: null, list: this.list }, lang)}`;
    return html`<tr>
      <td data-label=${t(lang, 'history.col.when')}>
        <a href=${href} @click=${this.onLink} aria-label=${t(lang, 'history.list.open', { id: g.id })}>${dateTime(lang, g.startedAt)}</a>
        <span class="id">#${g.id}</span>
      </td>
      <td data-label=${t(lang, 'history.col.game')}>${t(lang, `game.${g.game}`)}</td>
      <td data-label=${t(lang, 'history.col.board')}>${g.boardId}</td>
      <td data-label=${t(lang, 'history.col.players')}>${playersOf(lang, g).join(' · ')}</td>
      <td data-label=${t(lang, 'history.col.result')}>
        ${g.live ? html`<span class="live">${resultLine(lang, g)}</span>` : resultLine(lang, g)}
      </td>
      <td data-label=${t(lang, 'history.col.length')}>${lengthLine(lang, g)}</td>
      <td data-label=${t(lang, 'history.col.source')}>${sourceLine(lang, g)}</td>
    </tr>`;
  }

  private readonly onFilter = (event: Event): void => {
    const target = event.target as HTMLSelectElement | HTMLInputElement;
    const key = target.dataset.filter as FilterKey;
    const list: ListQuery = { filter: withFilter(this.list.filter, key, target.value), page: 1 };
    this.navigate(gamesSearch({ view: 'list', list }, this.lang));
  };

  private readonly onLink = (event: MouseEvent): void => {
    if (!inPage(event)) return;
    const href = (event.currentTarget as HTMLAnchorElement).getAttribute('href') ?? '';
    this.navigate(href.slice(href.indexOf('?') < 0 ? href.length : href.indexOf('?')));
  };

  private navigate(search: string): void {
    this.dispatchEvent(new CustomEvent<GamesNavigateDetail>('games-navigate', { detail: { search }, bubbles: true, composed: true }));
  }
}

customElements.define('game-list', GameListView);
