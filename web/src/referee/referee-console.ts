// <referee-console>: the referee's page — the board and record, alerts, open questions with their answers as big
// buttons, take-back, confirm and a move entered by hand; every command checked and answered by the server.
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Alert, ConsoleCommand, GameView, Question } from '../../../server/http/messages.ts';
import { NO_ANSWER, TableConnection, alertsByUrgency, latestOutcome, type TableState } from '../connection/index.ts';
import {
  formatAlert,
  formatQuestion,
  initialLang,
  rememberLang,
  sideName,
  squareIndex,
  t,
  type BoardKind,
  type Lang,
} from '../i18n/index.ts';
import {
  boardKind,
  boardStatusLine,
  describeMove,
  lastMoveLine,
  linkNotice,
  outcomeLines,
  recordRows,
  type LangChangeEvent,
} from '../common/index.ts';
import type { SquareSelectEvent } from '../board/index.ts';
import '../common/index.ts';
import '../board/index.ts';
import { MALAWI_JOINERS, appendToEntry, narrowOptions, normaliseEntry, squaresIn } from './entry.ts';
import { outcomeText } from './outcome.ts';
import { initialToken, rememberToken } from './token.ts';
import { consoleStyles } from './referee-console.styles.ts';

declare global {
  interface HTMLElementTagNameMap {
    'referee-console': RefereeConsole;
  }
}

/** Answers shown at once; a referee asked about dozens of distributions narrows them by tapping squares. */
const MAX_OPTIONS = 8;

export class RefereeConsole extends LitElement {
  static override styles = consoleStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    entry: { state: true },
    editingToken: { state: true },
  };

  declare lang: Lang;
  /** What is typed in the hand-entry field. */
  declare entry: string;
  /** The referee asked to change the token. */
  declare editingToken: boolean;

  private readonly connection = new TableConnection(this);
  private token: string | null;

  constructor() {
    super();
    this.lang = initialLang();
    this.entry = '';
    this.editingToken = false;
    this.token = initialToken();
    if (this.token !== null) this.connection.setToken(this.token);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) {
      document.documentElement.lang = this.lang;
      document.title = `${t(this.lang, 'page.referee.title')} · Spieltisch`;
    }
  }

  override render() {
    const { table, link } = this.connection;
    const notice = linkNotice(this.lang, link, Date.now(), table.synced);
    const view = table.view;
    const needToken = this.token === null || this.connection.commands.auth === 'refused' || this.editingToken;
    return html`
      ${this.renderHeader(table, view, needToken)}
      ${notice ? html`<p class="link" role="status">${notice}</p>` : nothing}
      ${needToken ? this.renderTokenForm() : nothing}
      <main>
        ${this.renderStatus(view)}
        ${this.renderQuestions(table, view)}
        <section class="table-side" aria-label=${view ? t(this.lang, `game.${view.game}`) : ''}>
          ${view ? this.renderTurn(view) : nothing} ${view ? this.renderBoard(table, view) : nothing}
          ${view ? this.renderLastMove(table) : nothing}
        </section>
        <div class="commands">${view ? this.renderActions(table) : nothing} ${view ? this.renderEntry(view) : nothing}</div>
        <div class="journal">${this.renderAlerts(table.alerts, boardKind(view))} ${this.renderRecord(table.record)}</div>
      </main>
    `;
  }

  private renderHeader(table: TableState, view: GameView | null, needToken: boolean) {
    const status = boardStatusLine(this.lang, table.board);
    return html`<header>
      <h1>${t(this.lang, 'page.referee.title')}${view ? html`<span class="game"> · ${t(this.lang, `game.${view.game}`)}</span>` : nothing}</h1>
      <div class="meta">
        ${status ? html`<span class="board-status ${status.tone}">${status.text}</span>` : nothing}
        ${!needToken && this.connection.commands.auth === 'accepted'
          ? html`<span class="signed-in"><span aria-hidden="true">✓</span> ${t(this.lang, 'console.token.accepted')}</span>`
          : nothing}
        ${!needToken
          ? html`<button class="small" @click=${() => (this.editingToken = true)}>${t(this.lang, 'console.token.change')}</button>`
          : nothing}
        <a href="/display?lang=${this.lang}">${t(this.lang, 'console.toDisplay')}</a>
        <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
      </div>
    </header>`;
  }

  private renderTokenForm() {
    const refused = this.connection.commands.auth === 'refused';
    return html`<form class="token ${refused ? 'refused' : ''}" @submit=${this.onTokenSubmit}>
      ${refused ? html`<p class="refusal" role="alert"><span aria-hidden="true">✕</span> ${t(this.lang, 'console.token.refused')}</p>` : nothing}
      <label for="token">${t(this.lang, 'console.token.label')}</label>
      <div class="row">
        <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required />
        <button class="primary" type="submit">${t(this.lang, 'console.token.submit')}</button>
        ${this.editingToken
          ? html`<button type="button" @click=${() => (this.editingToken = false)}>${t(this.lang, 'console.token.cancel')}</button>`
          : nothing}
      </div>
      <p class="hint">${t(this.lang, 'console.token.hint')}</p>
    </form>`;
  }

  private renderTurn(view: GameView) {
    const outcome = outcomeLines(this.lang, view);
    if (outcome) {
      return html`<p class="turn over">${outcome.headline} <small>${outcome.score} — ${outcome.reason}</small></p>`;
    }
    return html`<p class="turn">
      ${view.toMove ? t(this.lang, 'turn.toMove', { side: sideName(this.lang, view.toMove) }) : t(this.lang, 'turn.none')}
    </p>`;
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
      case 'malawi': {
        const marked = squaresIn(this.entry)
          .map((name) => squareIndex(name, view.size))
          .filter((cell): cell is number => cell !== null);
        return html`<malawi-board
          legend
          selectable
          .lang=${this.lang}
          .size=${view.size}
          .pieces=${view.pieces}
          .toMove=${view.outcome ? null : view.toMove}
          .lastMove=${view.lastMove}
          .diffs=${diffs}
          .marked=${marked}
          @square-select=${this.onSquareSelect}
        ></malawi-board>`;
      }
      default:
        return view satisfies never;
    }
  }

  private renderLastMove(table: TableState) {
    const last = lastMoveLine(this.lang, table);
    return last ? html`<p class="last-move">${t(this.lang, 'lastMove.title')}: ${last}</p>` : nothing;
  }

  /** Why the buttons are locked, and the answer to the last command; nothing at all when neither applies. */
  private renderStatus(view: GameView | null) {
    const lock = this.renderLock();
    const outcome = this.renderOutcome(view);
    return lock === nothing && outcome === nothing ? nothing : html`<div class="status">${lock}${outcome}</div>`;
  }

  /** Why the buttons are locked, when they are. */
  private renderLock() {
    const { link, table, commands } = this.connection;
    if (link.phase !== 'open' || !table.synced) {
      return html`<p class="lock" role="status">${t(this.lang, 'console.offline')}</p>`;
    }
    if (this.token === null) return html`<p class="lock" role="status">${t(this.lang, 'console.needToken')}</p>`;
    if (commands.pending.length) return html`<p class="pending" role="status">${t(this.lang, 'console.pending')}</p>`;
    return nothing;
  }

  private renderOutcome(view: GameView | null) {
    const outcome = latestOutcome(this.connection.commands);
    if (!outcome) return nothing;
    // A refused token says so in the token form; repeating it here would only add noise.
    if (!outcome.ok && this.connection.commands.auth === 'refused') return nothing;
    const text = outcomeText(this.lang, outcome, boardKind(view));
    const warn = !outcome.ok && outcome.error === NO_ANSWER;
    return html`<div class="outcome ${outcome.ok ? 'ok' : warn ? 'warn' : 'refused'}" role=${outcome.ok ? 'status' : 'alert'}>
      <p class="headline"><span aria-hidden="true">${outcome.ok ? '✓' : '✕'}</span> ${text.headline}</p>
      ${text.reason ? html`<p class="reason" lang=${text.translated ? this.lang : 'en'}>${text.reason}</p>` : nothing}
    </div>`;
  }

  private renderQuestions(table: TableState, view: GameView | null) {
    const board = boardKind(view);
    if (!table.questions.length) {
      return html`<section class="questions none">
        <h2>${t(this.lang, 'console.questions.title')}</h2>
        <p class="muted">${t(this.lang, 'console.questions.none')}</p>
      </section>`;
    }
    return html`<section class="questions">
      <h2>${t(this.lang, 'console.questions.title')}</h2>
      ${table.questions.map((q) => this.renderQuestion(q, board, view?.game ?? 'kalaha'))}
    </section>`;
  }

  private renderQuestion(question: Question, board: BoardKind, game: GameView['game']) {
    const text = formatQuestion(this.lang, question, board);
    const locked = !this.canSend();
    const squares = squaresIn(this.entry);
    const { shown, matching } = narrowOptions(question.options, squares, MAX_OPTIONS);
    const total = question.options.length;
    const names = squares.join(', ');
    const note =
      squares.length && matching === 0
        ? t(this.lang, 'console.options.none', { squares: names })
        : squares.length && matching < total
          ? t(this.lang, 'console.options.filtered', { shown: matching, total, squares: names, hidden: matching - shown.length })
          : matching > shown.length
            ? t(this.lang, 'console.options.more', { count: matching - shown.length })
            : null;
    return html`<div class="question">
      <p class="asking" lang=${text.translated ? this.lang : 'en'}>${text.text}</p>
      ${note ? html`<p class="narrow">${note}</p>` : nothing}
      <div class="options">
        ${shown.map(
          (move) => html`<button
            class="option"
            ?disabled=${locked}
            @click=${() => this.send({ kind: 'choose', questionId: question.id, move })}
          >
            <span class="notation">${move}</span>
            <span class="words">${describeMove(this.lang, game, move)}</span>
          </button>`,
        )}
      </div>
    </div>`;
  }

  private renderActions(table: TableState) {
    const locked = !this.canSend();
    const last = table.record[table.record.length - 1];
    const view = table.view;
    // Occupancy sensors cannot see a capture or a distribution: the referee is told one happened and asks which.
    const canAsk = view?.game === 'malawi' && view.outcome === null;
    return html`<section class="actions">
      <h2>${t(this.lang, 'console.actions.title')}</h2>
      <div class="buttons">
        ${canAsk
          ? html`<button class="action report" ?disabled=${locked} @click=${() => this.send({ kind: 'ask' })}>
              <span class="label"><span aria-hidden="true">?</span> ${t(this.lang, 'console.ask')}</span>
              <span class="words">${t(this.lang, 'console.ask.hint')}</span>
            </button>`
          : nothing}
        <button class="action" ?disabled=${locked || last === undefined} @click=${() => this.send({ kind: 'undo' })}>
          <span class="label"><span aria-hidden="true">↶</span> ${t(this.lang, 'console.undo')}</span>
          <span class="words">${last === undefined ? t(this.lang, 'console.undo.none') : t(this.lang, 'console.undo.hint', { move: last })}</span>
        </button>
        <button class="action" ?disabled=${locked} @click=${() => this.send({ kind: 'confirm' })}>
          <span class="label"><span aria-hidden="true">✓</span> ${t(this.lang, 'console.confirm')}</span>
          <span class="words">${t(this.lang, 'console.confirm.hint')}</span>
        </button>
      </div>
    </section>`;
  }

  private renderEntry(view: GameView) {
    const locked = !this.canSend();
    const malawi = view.game === 'malawi';
    return html`<section class="entry">
      <h2>${t(this.lang, 'console.enter.title')}</h2>
      <form @submit=${this.onEntrySubmit}>
        <label for="move">${t(this.lang, 'console.enter.label')}</label>
        <div class="row">
          <input
            id="move"
            name="move"
            autocomplete="off"
            autocapitalize="off"
            spellcheck="false"
            .value=${this.entry}
            placeholder=${t(this.lang, malawi ? 'console.enter.placeholder.malawi' : 'console.enter.placeholder.kalaha')}
            @input=${this.onEntryInput}
          />
          <button class="primary" type="submit" ?disabled=${locked || normaliseEntry(this.entry) === ''}>
            ${t(this.lang, 'console.enter.submit')}
          </button>
        </div>
        ${malawi
          ? html`<div class="joiners">
              ${MALAWI_JOINERS.map(
                (j) => html`<button type="button" class="joiner" @click=${() => (this.entry = appendToEntry(this.entry, j))}>${j}</button>`,
              )}
              <button type="button" class="joiner clear" aria-label=${t(this.lang, 'console.enter.clear')} title=${t(this.lang, 'console.enter.clear')}
                @click=${() => (this.entry = '')}>⌫</button>
            </div>`
          : nothing}
        <p class="hint">${t(this.lang, malawi ? 'console.enter.hint.malawi' : 'console.enter.hint.kalaha')}</p>
      </form>
    </section>`;
  }

  private renderAlerts(alerts: readonly Alert[], board: BoardKind) {
    if (!alerts.length) return nothing;
    return html`<section class="alerts">
      <h2>${t(this.lang, 'alerts.title')}</h2>
      <ul>
        ${alertsByUrgency(alerts).map((alert) => {
          const text = formatAlert(this.lang, alert, board);
          return html`<li class="alert ${alert.level}" lang=${text.translated ? this.lang : 'en'}>
            <span class="level">${t(this.lang, `alert.level.${alert.level}`)}:</span> ${text.text}
            ${text.detail ? html`<span class="detail">${text.detail}</span>` : nothing}
          </li>`;
        })}
      </ul>
    </section>`;
  }

  private renderRecord(record: readonly string[]) {
    // The referee may need the whole game: all of it, scrolling.
    const { rows } = recordRows(record, Number.POSITIVE_INFINITY);
    return html`<section class="record">
      <h2>${t(this.lang, 'record.title')} <span class="muted">· ${t(this.lang, 'record.plies', { count: record.length })}</span></h2>
      ${record.length
        ? html`<ol class="moves">
            ${rows.map(
              (row) => html`<li><span class="no">${row.number}.</span> ${row.south} ${row.north ?? ''}</li>`,
            )}
          </ol>`
        : html`<p class="muted">${t(this.lang, 'record.empty')}</p>`}
    </section>`;
  }

  private canSend(): boolean {
    return this.connection.canCommand && this.connection.commands.pending.length === 0;
  }

  private send(command: ConsoleCommand): void {
    if (!this.canSend()) return;
    const ref = this.connection.command(command);
    if (ref !== null && command.kind === 'enter') this.entry = '';
  }

  private readonly onTokenSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const token = (new FormData(form).get('token') ?? '').toString().trim();
    if (!token) return;
    this.token = token;
    this.editingToken = false;
    rememberToken(token);
    this.connection.setToken(token);
  };

  private readonly onEntryInput = (event: Event): void => {
    this.entry = (event.target as HTMLInputElement).value;
  };

  private readonly onEntrySubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    const move = normaliseEntry(this.entry);
    if (move) this.send({ kind: 'enter', move });
  };

  private readonly onSquareSelect = (event: SquareSelectEvent): void => {
    this.entry = appendToEntry(this.entry, event.detail.square);
  };

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

customElements.define('referee-console', RefereeConsole);
