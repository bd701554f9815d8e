// <kalaha-display>: the public scoreboard page of the Kalaha table; it only listens, and never needs a click.
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Alert, KalahaView } from '../../../server/http/messages.ts';
import { TableConnection, alertsByUrgency, type TableState } from '../connection/index.ts';
import { formatAlert, initialLang, rememberLang, sideName, t, type Lang, type SideName } from '../i18n/index.ts';
import type { LangChangeEvent } from '../common/index.ts';
import '../common/index.ts';
import '../board/index.ts';
import { displayStyles } from './kalaha-display.styles.ts';
import { boardStatusLine, lastMoveLine, linkNotice, outcomeLines, recordRows } from './present.ts';

declare global {
  interface HTMLElementTagNameMap {
    'kalaha-display': KalahaDisplay;
  }
}

/** Enough moves to follow the game from afar; the whole record is on the games page. */
const RECORD_ROWS = 8;
/** The most urgent alerts that fit under the board; nobody can scroll a scoreboard, so the rest are counted in the heading. */
const MAX_ALERTS = 3;

export class KalahaDisplay extends LitElement {
  static override styles = displayStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
  };

  declare lang: Lang;

  private readonly connection = new TableConnection(this);

  constructor() {
    super();
    this.lang = initialLang();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) {
      document.documentElement.lang = this.lang;
      document.title = t(this.lang, 'page.display.title');
    }
  }

  override render() {
    const { table, link } = this.connection;
    const notice = linkNotice(this.lang, link, Date.now(), table.synced);
    const view = table.view;
    // After a loss the last known game stays on screen, dimmed, under a banner that says so.
    const stale = notice !== null && view !== null;
    return html`
      ${stale
        ? html`<p class="link" role="status">${notice}<small>${t(this.lang, 'status.link.stale')}</small></p>`
        : nothing}
      ${this.renderHeader(table, view, stale)}
      <div class="board ${stale ? 'stale' : ''}">
        ${view
          ? html`<kalaha-board
              legend
              .lang=${this.lang}
              .pits=${view.pits}
              .stores=${view.stores}
              .toMove=${view.outcome ? null : view.toMove}
              .lastMove=${view.lastMove}
              .pending=${view.pending}
              .diffs=${table.alerts.flatMap((a) => a.cells ?? [])}
            ></kalaha-board>`
          : html`<p class="waiting">${notice ?? t(this.lang, 'status.link.connecting')}</p>`}
      </div>
      ${view ? this.renderBelow(table, view, stale) : nothing}
    `;
  }

  private renderHeader(table: TableState, view: KalahaView | null, stale: boolean) {
    const toMove = view && !view.outcome ? view.toMove : null;
    const winner = view?.outcome?.winner;
    // Same order as the board: north's store is on the left, south's on the right.
    return html`<header>
      ${view ? this.renderScore('north', view.stores.north, toMove === 'north' || winner === 'north') : html`<span></span>`}
      <div class="middle">
        ${!view
          ? nothing
          : view.outcome
            ? html`<div class="turn over">${t(this.lang, 'outcome.title')}</div>`
            : html`<div class="turn" aria-live="polite">${this.renderTurn(toMove)}</div>`}
        <div class="meta">
          ${stale ? nothing : this.renderBoardStatus(table)}
          <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
        </div>
      </div>
      ${view ? this.renderScore('south', view.stores.south, toMove === 'south' || winner === 'south') : html`<span></span>`}
    </header>`;
  }

  /** `marked`: this side is to move, or has won. */
  private renderScore(side: SideName, stones: number, marked: boolean) {
    return html`<div class="score ${side} ${marked ? 'marked' : ''}">
      <span class="name">${sideName(this.lang, side)}</span><span class="stones">${stones}</span>
    </div>`;
  }

  private renderTurn(toMove: SideName | null) {
    if (!toMove) return t(this.lang, 'turn.none');
    const text = t(this.lang, 'turn.toMove', { side: sideName(this.lang, toMove) });
    // The arrow points at the mover's end of the table, so the turn reads even without the words.
    return toMove === 'north'
      ? html`<span class="arrow" aria-hidden="true">◀</span> ${text}`
      : html`${text} <span class="arrow" aria-hidden="true">▶</span>`;
  }

  private renderBelow(table: TableState, view: KalahaView, stale: boolean) {
    const outcome = outcomeLines(this.lang, view);
    const last = lastMoveLine(this.lang, table);
    const alerts = alertsByUrgency(table.alerts);
    return html`<div class="below ${stale ? 'stale' : ''}">
      <section aria-live="polite">
        ${outcome
          ? html`<div class="outcome">
              <div class="headline">${outcome.headline}</div>
              <div class="detail">${outcome.score} — ${outcome.reason}</div>
            </div>`
          : nothing}
        ${last ? html`<p class="last-move">${t(this.lang, 'lastMove.title')}: ${last}</p>` : nothing}
        ${alerts.length
          ? html`<h2>
                ${t(this.lang, 'alerts.title')}
                ${alerts.length > MAX_ALERTS
                  ? html`<span class="more">· ${t(this.lang, 'alerts.more', { count: alerts.length - MAX_ALERTS })}</span>`
                  : nothing}
              </h2>
              <ul class="alerts">
                ${alerts.slice(0, MAX_ALERTS).map((a) => this.renderAlert(a))}
              </ul>`
          : nothing}
      </section>
      ${this.renderRecord(table.record)}
    </div>`;
  }

  private renderAlert(alert: Alert) {
    const text = formatAlert(this.lang, alert);
    return html`<li class="alert ${alert.level}" lang=${text.translated ? this.lang : 'en'}>
      <span class="level">${t(this.lang, `alert.level.${alert.level}`)}:</span>${text.text}
      ${text.detail ? html`<span class="detail">${text.detail}</span>` : nothing}
    </li>`;
  }

  private renderRecord(record: readonly string[]) {
    const { rows, hidden } = recordRows(record, RECORD_ROWS);
    const latest = (number: number, side: 0 | 1) => (number - 1) * 2 + side === record.length - 1;
    // Written the way players write a record ("12. F d 13. C"), wrapping like text.
    return html`<section class="record">
      <h2>${t(this.lang, 'record.title')} <span class="count">· ${t(this.lang, 'record.plies', { count: record.length })}</span></h2>
      ${record.length
        ? html`<p class="moves">
            ${hidden ? html`<span class="muted">…</span>` : nothing}
            ${rows.map(
              (row) =>
                html`<span class="pair"
                  ><span class="no">${row.number}.</span> <span class=${latest(row.number, 0) ? 'latest' : ''}>${row.south}</span>${row.north !== null
                    ? html` <span class=${latest(row.number, 1) ? 'latest' : ''}>${row.north}</span>`
                    : nothing}</span
                >`,
            )}
          </p>`
        : html`<p class="muted">${t(this.lang, 'record.empty')}</p>`}
    </section>`;
  }

  private renderBoardStatus(table: TableState) {
    const status = boardStatusLine(this.lang, table.board);
    if (!status) return nothing;
    return html`<span class="board-status ${status.tone}" role="status">
      <span aria-hidden="true">${status.tone === 'warn' ? '▲' : '●'}</span> ${status.text}
    </span>`;
  }

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

customElements.define('kalaha-display', KalahaDisplay);
