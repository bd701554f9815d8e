// <tournament-page>: every board of a tournament side by side (/tournament), or one board large
// (/tournament/<site>/<board>), as the broadcast service gathers them. It only listens.
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { BoardRecord } from '../../../server/mqtt/messages.ts';
import { initialLang, rememberLang, type Lang } from '../i18n/index.ts';
import { type LangChangeEvent } from '../common/index.ts';
import '../common/index.ts';
import { BroadcastConnection } from './connection.ts';
import { boardPicture } from './board-picture.ts';
import { contenders, eventLine, gameTitle, lastMoveLine, moveLine, troubles, turnLine, type Contender, type Trouble } from './summary.ts';
import { tt } from './catalogue.ts';
import { boardOfPath } from './route.ts';
import { tournamentStyles } from './tournament.styles.ts';

declare global {
  interface HTMLElementTagNameMap {
    'tournament-page': TournamentPage;
  }
}

/** Past this many boards the cards drop their pictures, so a whole room fits one screen. */
const PICTURES_UP_TO = 16;
/** The troubles a card has room for; the board's own page shows them all. */
const CARD_TROUBLES = 2;
const RECORD_MOVES = 24;

export class TournamentPage extends LitElement {
  static override styles = tournamentStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
  };

  declare lang: Lang;

  private readonly only = boardOfPath(location.pathname);
  private readonly connection = new BroadcastConnection(this, this.only);

  constructor() {
    super();
    this.lang = initialLang();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) {
      document.documentElement.lang = this.lang;
      document.title = this.only ? `${this.only} · ${tt(this.lang, 'page.title')}` : tt(this.lang, 'page.title');
    }
  }

  override render() {
    const { connection } = this;
    return html`
      ${this.renderBanner()}
      ${this.only ? this.renderOne(this.only) : this.renderAll([...connection.boards.values()])}
    `;
  }

  private renderBanner() {
    const { link, broker, synced } = this.connection;
    if (link === 'lost') return html`<p class="banner" role="status">${tt(this.lang, 'link.lost')}</p>`;
    if (!synced) return html`<p class="banner quiet" role="status">${tt(this.lang, 'link.connecting')}</p>`;
    if (broker && !broker.connected) return html`<p class="banner" role="status">${tt(this.lang, 'broker.lost')}</p>`;
    return nothing;
  }

  private renderAll(boards: BoardRecord[]) {
    boards.sort((a, b) => a.key.localeCompare(b.key, undefined, { numeric: true }));
    const online = boards.filter((b) => b.presence === 'online').length;
    const pictures = boards.length <= PICTURES_UP_TO;
    // One site: named once in the heading, not on every card.
    const sites = [...new Set(boards.map((b) => b.site))];
    const oneSite = sites.length === 1 ? sites[0] : null;
    return html`<header class="top">
        <h1>${tt(this.lang, 'page.heading')}</h1>
        <span class="counts"
          >${oneSite ? `${oneSite} · ` : ''}${tt(this.lang, 'page.boards', { count: boards.length })} · ${tt(this.lang, 'page.online', { count: online })}</span
        >
        <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
      </header>
      ${this.connection.synced && boards.length === 0 ? html`<p class="empty">${tt(this.lang, 'page.empty')}</p>` : nothing}
      <main class="grid ${pictures ? 'pictures' : 'compact'}">${boards.map((board) => this.safely(board, () => this.renderCard(board, pictures, oneSite === null)))}</main>`;
  }

  /**
   * One board's part of the page, or a line saying it cannot be shown: the service sends only boards it has checked,
   * and should one still be beyond what the page can draw, the other boards stay.
   */
  private safely(board: BoardRecord, render: () => unknown) {
    try {
      return render();
    } catch {
      return html`<p class="card unreadable" role="status">${tt(this.lang, 'board.unreadable')} (${board.key})</p>`;
    }
  }

  /** `picture`: draw the board; otherwise the card is compact. `site`: name the site too. */
  private renderCard(board: BoardRecord, picture: boolean, site: boolean) {
    const view = board.view;
    const trouble = troubles(this.lang, board);
    const stale = board.presence === 'offline' || this.connection.broker?.connected === false;
    return html`<a
      class="card ${board.presence} ${stale ? 'stale' : ''}"
      href=${this.boardHref(board)}
      aria-label=${tt(this.lang, 'board.open', { board: board.board })}
    >
      <div class="head">
        <span class="name">${board.board}</span>
        ${site ? html`<span class="site">${board.site}</span>` : nothing}
        ${this.renderPresence(board)}
      </div>
      <div class="game">${gameTitle(this.lang, board)}${picture ? ` · ${tt(this.lang, 'moves.count', { count: board.record.length })}` : ''}</div>
      ${picture && view ? html`<div class="mini">${boardPicture(view, board.alerts, this.lang, false)}</div>` : nothing}
      ${view ? this.renderSides(contenders(this.lang, view)) : nothing}
      ${view ? html`<div class="turn ${view.outcome ? 'over' : ''}">${turnLine(this.lang, view) ?? ''}</div>` : nothing}
      <div class="last">${picture ? (lastMoveLine(this.lang, board.record) ?? '') : moveLine(this.lang, board.record)}</div>
      ${this.renderTroubles(trouble, picture ? CARD_TROUBLES : 1)}
    </a>`;
  }

  private renderTroubles(list: readonly Trouble[], room: number) {
    if (list.length === 0) return nothing;
    return html`<ul class="troubles">
      ${list.slice(0, room).map((x) => html`<li class=${x.level} title=${x.text}>${x.text}</li>`)}
      ${list.length > room ? html`<li class="more">${tt(this.lang, 'alerts.more', { count: list.length - room })}</li>` : nothing}
    </ul>`;
  }

  private renderPresence(board: BoardRecord) {
    // A shape as well as a colour: ● online, ○ offline, ? not heard of.
    const mark = board.presence === 'online' ? '●' : board.presence === 'offline' ? '○' : '?';
    return html`<span class="presence ${board.presence}"><span aria-hidden="true">${mark}</span> ${tt(this.lang, `presence.${board.presence}`)}</span>`;
  }

  private renderSides(list: readonly Contender[]) {
    return html`<ul class="sides">
      ${list.map(
        (c) => html`<li class="side ${c.toMove ? 'to-move' : ''} ${c.winner ? 'winner' : ''} ${c.out ? 'out' : ''}">
          <span class="who">${c.winner ? html`<span aria-hidden="true">★ </span>` : nothing}${c.name}</span>
          ${c.score !== null ? html`<span class="score" title=${c.scoreText ?? ''}>${c.score}</span>` : c.scoreText ? html`<span class="note">${c.scoreText}</span>` : nothing}
        </li>`,
      )}
    </ul>`;
  }

  private renderOne(key: string) {
    const board = this.connection.boards.get(key);
    const [site, name] = key.split('/');
    return html`<header class="top">
        <a class="back" href=${this.overviewHref()}><span aria-hidden="true">←</span> ${tt(this.lang, 'page.back')}</a>
        <h1>${name}</h1>
        <span class="counts">${site}</span>
        ${board ? this.renderPresence(board) : nothing}
        <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
      </header>
      ${board ? this.safely(board, () => this.renderBoardPage(board)) : this.connection.synced ? html`<p class="empty">${tt(this.lang, 'page.notFound', { board: key })}</p>` : nothing}`;
  }

  private renderBoardPage(board: BoardRecord) {
    const view = board.view;
    const stale = board.presence === 'offline' || this.connection.broker?.connected === false;
    const moves = board.record;
    const first = Math.max(0, moves.length - RECORD_MOVES);
    return html`<main class="one ${view?.game ?? ''} ${stale ? 'stale' : ''}">
      <div class="big">${view ? boardPicture(view, board.alerts, this.lang, true) : nothing}</div>
      <aside>
        <section class="summary">
          <div class="game">${gameTitle(this.lang, board)}</div>
          ${view ? this.renderSides(contenders(this.lang, view)) : nothing}
          ${view ? html`<div class="turn ${view.outcome ? 'over' : ''}">${turnLine(this.lang, view) ?? ''}</div>` : nothing}
          <div class="last">${lastMoveLine(this.lang, moves) ?? tt(this.lang, 'moves.count', { count: 0 })}</div>
          <ul class="troubles">${troubles(this.lang, board).map((x) => html`<li class=${x.level}>${x.text}</li>`)}</ul>
        </section>
        ${board.recent.length
          ? html`<section>
              <h2>${tt(this.lang, 'recent.title')}</h2>
              <ol class="recent">
                ${[...board.recent].reverse().map((e) => html`<li>${eventLine(this.lang, e)}</li>`)}
              </ol>
            </section>`
          : nothing}
        ${moves.length
          ? html`<section>
              <h2>${tt(this.lang, 'record.title')} · ${tt(this.lang, 'moves.count', { count: moves.length })}</h2>
              <ol class="record" start=${first + 1}>
                ${moves.slice(first).map((m) => html`<li>${m}</li>`)}
              </ol>
            </section>`
          : nothing}
      </aside>
    </main>`;
  }

  private boardHref(board: BoardRecord): string {
    return `/tournament/${encodeURIComponent(board.site)}/${encodeURIComponent(board.board)}?lang=${this.lang}`;
  }

  private overviewHref(): string {
    return `/tournament?lang=${this.lang}`;
  }

  private onLangChange(e: LangChangeEvent): void {
    this.lang = e.detail.lang;
    rememberLang(this.lang);
  }
}

customElements.define('tournament-page', TournamentPage);
