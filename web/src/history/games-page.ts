// <games-page>: the page at /games. Its address says everything on show, so any view can be shared as a link:
// the list with its filters and page (`/games?game=kalaha&player=Anna&page=2`), or one game with the ply shown
// (`/games?id=12&ply=40`, keeping the list's filters for the way back). Links stay real links; a plain click moves
// within the page and pushes the address, and the browser's Back goes where it did before.
import { LitElement, html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { initialLang, rememberLang, t, type Lang } from '../i18n/index.ts';
import type { LangChangeEvent } from '../common/index.ts';
import { gamesSearch, readGamesQuery, type GamesQuery } from './filters.ts';
import { pageBar, pageStyles } from './page.ts';
import './game-list.ts';
import './game-replay.ts';

export interface GamesNavigateDetail {
  /** The new address's query, `?…` or ''. */
  readonly search: string;
}
export type GamesNavigateEvent = CustomEvent<GamesNavigateDetail>;

export interface PlyChangeDetail {
  readonly ply: number;
}
export type PlyChangeEvent = CustomEvent<PlyChangeDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'games-page': GamesPage;
  }
  interface HTMLElementEventMap {
    'games-navigate': GamesNavigateEvent;
    'ply-change': PlyChangeEvent;
  }
}

/** The slider may move many times a second; the address follows once it rests (browsers throttle history calls). */
const ADDRESS_DELAY_MS = 250;

export class GamesPage extends LitElement {
  static override styles = pageStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    query: { state: true },
  };

  declare lang: Lang;
  declare query: GamesQuery;

  private addressTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.lang = initialLang();
    this.query = readGamesQuery(location.search);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPopState);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    clearTimeout(this.addressTimer);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) document.documentElement.lang = this.lang;
    if ((changed.has('lang') || changed.has('query')) && this.query.view === 'list') {
      document.title = `${t(this.lang, 'page.games.title')} · Spieltisch`;
    }
  }

  override render() {
    const query = this.query;
    return html`
      ${pageBar(this.lang, 'games', this.onLangChange)}
      <main @games-navigate=${this.onNavigate} @ply-change=${this.onPlyChange}>
        ${query.view === 'list'
          ? html`<game-list .lang=${this.lang} .list=${query.list}></game-list>`
          : html`<game-replay
              .lang=${this.lang}
              .gameId=${query.id}
              .startPly=${query.ply}
              .back=${gamesSearch({ view: 'list', list: query.list }, this.lang)}
            ></game-replay>`}
      </main>
    `;
  }

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };

  private readonly onNavigate = (event: GamesNavigateEvent): void => {
    clearTimeout(this.addressTimer);
    const before = this.query.view;
    history.pushState(null, '', `${location.pathname}${event.detail.search}`);
    this.query = readGamesQuery(event.detail.search);
    if (before !== this.query.view) window.scrollTo(0, 0);
  };

  private readonly onPlyChange = (event: PlyChangeEvent): void => {
    const query = this.query;
    if (query.view !== 'game') return;
    clearTimeout(this.addressTimer);
    this.addressTimer = setTimeout(() => {
      // Not through `this.query`: the replay already shows the ply; only the address has to catch up.
      const search = gamesSearch({ ...query, ply: event.detail.ply }, this.lang);
      history.replaceState(history.state, '', `${location.pathname}${search}`);
    }, ADDRESS_DELAY_MS);
  };

  private readonly onPopState = (): void => {
    clearTimeout(this.addressTimer);
    this.query = readGamesQuery(location.search);
  };
}

customElements.define('games-page', GamesPage);
