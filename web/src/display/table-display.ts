// <table-display>: the public scoreboard page of a table (Kalaha or Malawi, as the server says); it only listens,
// and never needs a click.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Alert, GameView, KalahaView, MalawiView } from '../../../server/http/messages.ts';
import { TableConnection, alertsByUrgency, type TableState } from '../connection/index.ts';
import {
  formatAlert,
  initialLang,
  rememberLang,
  sideName,
  t,
  type BoardKind,
  type Lang,
  type SideName,
} from '../i18n/index.ts';
import {
  beadTotals,
  boardKind,
  boardStatusLine,
  lastMoveLine,
  linkNotice,
  outcomeLines,
  recordRows,
  type LangChangeEvent,
} from '../common/index.ts';
import '../common/index.ts';
import '../board/index.ts';
import { displayStyles } from './display.styles.ts';


declare global {
  interface HTMLElementTagNameMap {
    'table-display': TableDisplay;
  }
}

/** Enough moves to follow the game from afar; the whole record is on the games page. */
const RECORD_ROWS = 8;
/** The most urgent alerts that fit under the board; nobody can scroll a scoreboard, so the rest are counted in the heading. */
const MAX_ALERTS = 3;

export class TableDisplay extends LitElement {
  static override styles = displayStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    // Which game is on show, for the layout: a square Malawi board sits beside the text, Kalaha's long one above it.
    game: { reflect: true },
  };

  declare lang: Lang;
  declare game: GameView['game'] | null;

  private readonly connection = new TableConnection(this);

  constructor() {
    super();
    this.lang = initialLang();
    this.game = null;
  }

  protected override willUpdate(): void {
    this.game = this.connection.table.view?.game ?? null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang') || changed.has('game')) {
      document.documentElement.lang = this.lang;
      document.title = t(this.lang, this.game === 'malawi' ? 'page.display.titleMalawi' : 'page.display.title');
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
        ${view ? this.renderBoard(table, view) : html`<p class="waiting">${notice ?? t(this.lang, 'status.link.connecting')}</p>`}
      </div>
      ${view ? this.renderBelow(table, view, stale) : nothing}
    `;
  }

  private renderBoard(table: TableState, view: GameView) {
    const diffs = table.alerts.flatMap((a) => a.cells ?? []);
    switch (view.game) {
      case 'kalaha':
        return html`<kalaha-board
          legend
          .lang=${this.lang}
          .pits=${view.pits}
          .stores=${view.stores}
          .toMove=${view.outcome ? null : view.toMove}
          .lastMove=${view.lastMove}
          .pending=${view.pending}
          .diffs=${diffs}
        ></kalaha-board>`;
      case 'malawi':
        return html`<malawi-board
          legend
          .lang=${this.lang}
          .size=${view.size}
          .pieces=${view.pieces}
          .toMove=${view.outcome ? null : view.toMove}
          .lastMove=${view.lastMove}
          .diffs=${diffs}
        ></malawi-board>`;
      default:
        return assertNever(view);
    }
  }

  private renderHeader(table: TableState, view: GameView | null, stale: boolean) {
    const toMove = view && !view.outcome ? view.toMove : null;
    const winner = view?.outcome?.winner;
    const score = (side: SideName) => {
      if (!view) return html`<span></span>`;
      const marked = toMove === side || winner === side;
      return view.game === 'kalaha' ? this.renderScore(side, view.stores[side], marked) : this.renderBeads(side, view, marked);
    };
    // Same order as the Kalaha board: north's store is on the left, south's on the right.
    return html`<header>
      ${score('north')}
      <div class="middle">
        ${!view
          ? nothing
          : view.outcome
            ? html`<div class="turn over">${t(this.lang, 'outcome.title')}</div>`
            : html`<div class="turn" aria-live="polite">${this.renderTurn(toMove, view.game)}</div>`}
        <div class="meta">
          ${stale ? nothing : this.renderBoardStatus(table)}
          <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
        </div>
      </div>
      ${score('south')}
    </header>`;
  }

  /** `marked`: this side is to move, or has won. */
  private renderScore(side: SideName, stones: number, marked: boolean) {
    return html`<div class="score ${side} ${marked ? 'marked' : ''}">
      <span class="name">${sideName(this.lang, side)}</span><span class="stones">${stones}</span>
    </div>`;
  }

  /** Malawi's score box: the side's piece as on the board (the key to the colours), and its beads. */
  private renderBeads(side: SideName, view: MalawiView, marked: boolean) {
    const beads = beadTotals(view)[side];
    return html`<div class="score ${side} ${marked ? 'marked' : ''}">
      <svg class="piece-icon" viewBox="0 0 100 100" aria-hidden="true">
        ${side === 'south'
          ? svg`<circle class="south" cx="50" cy="50" r="40"></circle>`
          : svg`<rect class="north" x="14" y="14" width="72" height="72" rx="12"></rect>`}
      </svg>
      <span class="name">${sideName(this.lang, side)}</span><span class="stones">${beads}</span
      ><span class="unit">${t(this.lang, 'malawi.beads', { count: beads })}</span>
    </div>`;
  }

  private renderTurn(toMove: SideName | null, game: GameView['game']) {
    if (!toMove) return t(this.lang, 'turn.none');
    const text = t(this.lang, 'turn.toMove', { side: sideName(this.lang, toMove) });
    // The arrow points at the mover's end of the table (Kalaha: their store; Malawi: their baseline),
    // so the turn reads even without the words.
    if (game === 'malawi') {
      return html`<span class="arrow" aria-hidden="true">${toMove === 'north' ? '▲' : '▼'}</span> ${text}`;
    }
    return toMove === 'north'
      ? html`<span class="arrow" aria-hidden="true">◀</span> ${text}`
      : html`${text} <span class="arrow" aria-hidden="true">▶</span>`;
  }

  private renderBelow(table: TableState, view: GameView, stale: boolean) {
    const outcome = outcomeLines(this.lang, view);
    const last = lastMoveLine(this.lang, table);
    const alerts = alertsByUrgency(table.alerts);
    const board = boardKind(view);
    return html`<div class="below ${stale ? 'stale' : ''}">
      <section aria-live="polite">
        ${outcome
          ? html`<div class="outcome">
              <div class="headline">${outcome.headline}</div>
              <div class="detail">${outcome.score} — ${outcome.reason}</div>
            </div>`
          : nothing}
        ${last ? html`<p class="last-move">${t(this.lang, 'lastMove.title')}: ${last}</p>` : nothing}
        ${table.questions.length ? html`<p class="asking">${t(this.lang, 'question.waiting')}</p>` : nothing}
        ${alerts.length
          ? html`<h2>
                ${t(this.lang, 'alerts.title')}
                ${alerts.length > MAX_ALERTS
                  ? html`<span class="more">· ${t(this.lang, 'alerts.more', { count: alerts.length - MAX_ALERTS })}</span>`
                  : nothing}
              </h2>
              <ul class="alerts">
                ${alerts.slice(0, MAX_ALERTS).map((a) => this.renderAlert(a, board))}
              </ul>`
          : nothing}
      </section>
      ${this.renderRecord(table.record)}
    </div>`;
  }

  private renderAlert(alert: Alert, board: BoardKind) {
    const text = formatAlert(this.lang, alert, board);
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

function assertNever(x: never): never {
  throw new Error(`unexpected view ${JSON.stringify(x)}`);
}

customElements.define('table-display', TableDisplay);
