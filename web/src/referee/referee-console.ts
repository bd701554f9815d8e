// <referee-console>: the referee's page — the board and record, alerts, open questions with their answers as big
// buttons, take-back, confirm, end by agreement and a move entered by hand; every command checked and answered by the
// server; the game's events with their times, and a warning tone on an illegal move.
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { Alert, ConsoleCommand, GameView, MakisView, Question } from '../../../server/http/messages.ts';
import { NO_ANSWER, TableConnection, alertsByUrgency, latestOutcome, type TableState } from '../connection/index.ts';
import {
  formatAlert,
  formatQuestion,
  hasKey,
  initialLang,
  makisCell,
  playerName,
  rememberLang,
  squareIndex,
  t,
  type BoardKind,
  type Lang,
  type MessageKey,
} from '../i18n/index.ts';
import {
  aduActor,
  boardKind,
  boardStatusLine,
  correctionLine,
  describeMove,
  expectedRollLine,
  lastMoveLine,
  linkNotice,
  outcomeLines,
  passedLine,
  recordLines,
  turnLine,
  type LangChangeEvent,
} from '../common/index.ts';
import { gameBoard, playerIcon, type SquareSelectEvent } from '../board/index.ts';
import '../common/index.ts';
import { appendToEntry, chosenOption, joinersFor, narrowOptions, normaliseEntry, squaresIn, type GridGame } from './entry.ts';
import { outcomeText } from './outcome.ts';
import { initialToken, rememberToken } from './token.ts';
import { EMPTY_JOURNAL, addLive, addLogged, answerEntry, entriesBetween, journalEntries, type Journal, type LogEvent, type Shown } from './journal.ts';
import { WarningTone, alertsToSound, rememberMuted, storedMuted, type ToneResult } from './alarm.ts';
import { consoleStyles } from './referee-console.styles.ts';

declare global {
  interface HTMLElementTagNameMap {
    'referee-console': RefereeConsole;
  }
}

/** Answers shown at once; a referee asked about dozens of distributions narrows them by tapping squares. */
const MAX_OPTIONS = 8;
/** At most one warning tone in this time. */
const TONE_GAP_MS = 2000;
/** Events listed; the whole game is on the games page. */
const MAX_EVENTS = 300;

/** How a move is written in each game, for the hand-entry field's placeholder and hint. */
const ENTRY_TEXTS: Readonly<Record<GameView['game'], { readonly placeholder: MessageKey; readonly hint: MessageKey }>> = {
  kalaha: { placeholder: 'console.enter.placeholder.kalaha', hint: 'console.enter.hint.kalaha' },
  malawi: { placeholder: 'console.enter.placeholder.malawi', hint: 'console.enter.hint.malawi' },
  makis: { placeholder: 'console.enter.placeholder.makis', hint: 'console.enter.hint.makis' },
  adu: { placeholder: 'console.enter.placeholder.adu', hint: 'console.enter.hint.adu' },
};

function gridGame(game: GameView['game'] | undefined): GridGame | null {
  return game === 'malawi' || game === 'makis' || game === 'adu' ? game : null;
}

export class RefereeConsole extends LitElement {
  static override styles = consoleStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    entry: { state: true },
    editingToken: { state: true },
    picked: { state: true },
    journal: { state: true },
    muted: { state: true },
    soundBlocked: { state: true },
    confirmingAgree: { state: true },
  };

  declare lang: Lang;
  /** What is typed in the hand-entry field. */
  declare entry: string;
  /** The referee asked to change the token. */
  declare editingToken: boolean;
  /** Per question id: the option tapped in a question that waits for a confirmation (one with `preselected`). */
  declare picked: Readonly<Record<number, string>>;
  /** The game's events, newest shown first. */
  declare journal: Journal;
  /** The warning tone is switched off (remembered in this browser). */
  declare muted: boolean;
  /** A tone was due but the browser waits for a tap before it lets the page sound. */
  declare soundBlocked: boolean;
  /** "End by agreement" was tapped once and waits for its confirmation. */
  declare confirmingAgree: boolean;

  private readonly connection = new TableConnection(this);
  private token: string | null;
  private readonly tone = new WarningTone();
  /** What became of the last warning tone asked for, and how many sounded: for the browser tests, which cannot listen. */
  lastTone: ToneResult | null = null;
  tonesPlayed = 0;
  private lastToneAt = Number.NEGATIVE_INFINITY;
  /** The table as the last render saw it, to tell what changed since. */
  private seen: TableState = this.connection.table;
  private seenOutcomes = 0;
  /** The game the last command's answer was about: a new game started from the setup page clears the answer. */
  private outcomeGameId: number | null = null;
  private logBusy = false;
  private logAgain = false;

  constructor() {
    super();
    this.lang = initialLang();
    this.entry = '';
    this.editingToken = false;
    this.picked = {};
    this.journal = EMPTY_JOURNAL;
    this.muted = storedMuted();
    this.soundBlocked = false;
    this.confirmingAgree = false;
    this.token = initialToken();
    if (this.token !== null) this.connection.setToken(this.token);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Browsers let a page sound only after a tap or a key: any will do.
    window.addEventListener('pointerdown', this.onGesture, true);
    window.addEventListener('keydown', this.onGesture, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pointerdown', this.onGesture, true);
    window.removeEventListener('keydown', this.onGesture, true);
    this.tone.close();
  }

  /** What the WebSocket brought since the last render: into the event list, and the tone for a new illegal move. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const table = this.connection.table;
    const before = this.seen;
    this.seen = table;
    const now = Date.now();
    const entries = entriesBetween(before, table, now);
    const outcomes = this.connection.commands.outcomes;
    const lastRef = outcomes.length ? outcomes[outcomes.length - 1].ref : 0;
    if (lastRef > this.seenOutcomes) {
      for (const outcome of outcomes) {
        if (outcome.ref <= this.seenOutcomes || !outcome.ok) continue;
        const answer = answerEntry({ kind: outcome.command.kind, move: 'move' in outcome.command ? outcome.command.move : undefined }, now);
        if (answer) entries.push(answer);
      }
      this.seenOutcomes = lastRef;
      this.outcomeGameId = table.gameId;
    }
    const resynced = table.synced && table !== before && (!before.synced || (table.lastEvent === null && table.stateId !== before.stateId));
    const journal = addLive(this.journal, entries, table.gameId);
    if (journal !== this.journal) this.journal = journal;
    if (journal.gameId !== null && (entries.length || resynced || journal.gameId !== before.gameId)) this.readLog();
    if (before.synced && alertsToSound(before.alerts, table.alerts).length) {
      this.sound();
    }
    if (!this.canAgree(table.view)) this.confirmingAgree = false;
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
        ${view?.game === 'makis' ? this.renderDice(view) : nothing}
        <section class="table-side" aria-label=${view ? t(this.lang, `game.${view.game}`) : ''}>
          ${view ? this.renderTurn(view) : nothing} ${view ? this.renderBoard(table, view) : nothing}
          ${view ? this.renderLastMove(table) : nothing}
        </section>
        <div class="commands">${view ? this.renderActions(table) : nothing} ${view ? this.renderEntry(view) : nothing}</div>
        <div class="journal">
          ${this.renderAlerts(table.alerts, boardKind(view))} ${this.renderRecord(view?.game ?? 'kalaha', table.record)}
          ${this.renderEvents(view)}
        </div>
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
        <button
          class="small sound ${this.muted ? 'muted' : ''}"
          aria-pressed=${String(!this.muted)}
          title=${t(this.lang, 'console.sound.label')}
          @click=${this.onToggleSound}
        >
          <span aria-hidden="true">♪</span> ${t(this.lang, this.muted ? 'console.sound.off' : 'console.sound.on')}
        </button>
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
    const actor = view.game === 'makis' ? view.toMove : view.game === 'adu' ? aduActor(view) : null;
    // The referee waits for the reserve king to appear; the console says why the turn has not passed on.
    const reserve = view.game === 'adu' && view.awaitingReserve ? view.awaitingReserve.player : null;
    const passed = view.game === 'adu' ? passedLine(this.lang, view) : null;
    return html`<p class="turn">
      ${actor !== null ? html`${playerIcon(actor)} ` : nothing}${turnLine(this.lang, view) ?? t(this.lang, 'turn.none')}
      ${reserve !== null ? html`<small>${t(this.lang, 'adu.awaitingReserve', { player: playerName(this.lang, reserve) })}</small>` : nothing}
      ${passed ? html`<small>${passed}</small>` : nothing}
    </p>`;
  }

  private renderBoard(table: TableState, view: GameView) {
    const diffs = table.alerts.flatMap((a) => a.cells ?? []);
    // Squares can be tapped into the hand-entry field on the square boards; the Kalaha table has pits.
    return gameBoard(this.lang, view, diffs, view.game === 'kalaha' ? undefined : { marked: this.markedCells(view), onSelect: this.onSquareSelect });
  }

  /**
   * The squares typed or tapped into the hand-entry field, as cells of the board on show; and those of the
   * answer chosen in a question awaiting confirmation (the captured soldier and its captor).
   */
  private markedCells(view: GameView): number[] {
    const game = gridGame(view.game);
    if (!game) return [];
    const chosen = this.connection.table.questions
      .map((q) => chosenOption(q.options, q.preselected, this.picked[q.id]))
      .filter((option): option is string => option !== null);
    return [this.entry, ...chosen]
      .flatMap((text) => squaresIn(text, game))
      .map((name) => (view.game === 'makis' ? makisCell(name) : view.game === 'kalaha' ? null : squareIndex(name, view.size)))
      .filter((cell): cell is number => cell !== null);
  }

  /**
   * Makis: the dice. Once the table has rolled, that roll big, and what it asks of the knights; before,
   * the button that rolls for the table (a fair random source on the server) and the last roll.
   */
  private renderDice(view: MakisView) {
    const locked = !this.canSend();
    const expected = view.expectedRoll;
    const canRoll = view.outcome === null && view.phase === 'roll' && expected === null;
    const why = expected ? t(this.lang, 'console.roll.done') : view.phase !== 'roll' ? t(this.lang, 'console.roll.notNow') : t(this.lang, 'console.roll.hint');
    return html`<section class="roll ${expected ? 'expected' : ''}">
      <h2>${t(this.lang, expected ? 'console.expected.title' : 'makis.dice.last')}</h2>
      ${expected
        ? html`<makis-dice expected class="big" .lang=${this.lang} .roll=${expected}></makis-dice>
            <p class="steps">${expectedRollLine(this.lang, expected)}</p>`
        : html`<makis-dice .lang=${this.lang} .roll=${view.lastRoll}></makis-dice>`}
      ${view.outcome === null
        ? html`<button class="action roll-button" ?disabled=${locked || !canRoll} @click=${() => this.send({ kind: 'roll' })}>
            <span class="label"><span aria-hidden="true">⚄</span> ${t(this.lang, 'console.roll')}</span>
            <span class="words">${why}</span>
          </button>`
        : nothing}
    </section>`;
  }

  private renderLastMove(table: TableState) {
    const last = lastMoveLine(this.lang, table);
    return last ? html`<p class="last-move">${t(this.lang, 'lastMove.title')}: ${last}</p>` : nothing;
  }

  /** Why the buttons are locked, and the answer to the last command; nothing at all when neither applies. */
  private renderStatus(view: GameView | null) {
    const lock = this.renderLock();
    const outcome = this.renderOutcome(view);
    const sound = this.soundBlocked && !this.muted
      ? html`<button class="sound-blocked" @click=${this.onEnableSound}>
          <span aria-hidden="true">♪</span> ${t(this.lang, 'console.sound.blocked')}
        </button>`
      : nothing;
    return lock === nothing && outcome === nothing && sound === nothing ? nothing : html`<div class="status">${sound}${lock}${outcome}</div>`;
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
    if (!outcome || this.connection.table.gameId !== this.outcomeGameId) return nothing;
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
    const chosen = chosenOption(question.options, question.preselected, this.picked[question.id]);
    if (chosen !== null) return this.renderConfirmQuestion(question, text, chosen, game);
    const locked = !this.canSend();
    const grid = gridGame(game) ?? 'malawi';
    const squares = squaresIn(this.entry, grid);
    const { shown, matching } = narrowOptions(question.options, squares, MAX_OPTIONS, grid);
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
    const waiting = question.blocking !== false;
    return html`<div class="question ${waiting ? '' : 'not-blocking'}">
      <p class="asking" lang=${text.translated ? this.lang : 'en'}>${text.text}</p>
      ${waiting ? nothing : html`<p class="narrow">${t(this.lang, 'console.question.notBlocking')}</p>`}
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

  /**
   * A question with a preselected answer (Adu: the lowest range a captured soldier may be declared): every
   * option shows, the preselected one chosen; a tap on another only chooses it, and one tap on the big
   * button confirms — so the usual answer is a single tap.
   */
  private renderConfirmQuestion(question: Question, text: { text: string; translated: boolean }, chosen: string, game: GameView['game']) {
    const locked = !this.canSend();
    const words = describeMove(this.lang, game, chosen);
    return html`<div class="question confirm">
      <p class="asking" lang=${text.translated ? this.lang : 'en'}>${text.text}</p>
      <div class="options choice" role="radiogroup">
        ${question.options.map(
          (option) => html`<button
            class="option ${option === chosen ? 'chosen' : ''}"
            role="radio"
            aria-checked=${String(option === chosen)}
            @click=${() => (this.picked = { ...this.picked, [question.id]: option })}
          >
            <span class="answer">${describeMove(this.lang, game, option)}</span>
            <span class="notation small">${option}</span>
            ${option === question.preselected ? html`<span class="words">${t(this.lang, 'console.choose.preselected')}</span>` : nothing}
          </button>`,
        )}
      </div>
      <button class="primary confirm-choice" ?disabled=${locked} @click=${() => this.send({ kind: 'choose', questionId: question.id, move: chosen })}>
        <span aria-hidden="true">✓</span> ${t(this.lang, 'console.choose.confirm', { option: words === chosen ? chosen : `${words} (${chosen})` })}
      </button>
    </div>`;
  }

  private renderActions(table: TableState) {
    const locked = !this.canSend();
    const last = table.record[table.record.length - 1];
    const view = table.view;
    // Occupancy sensors cannot see a capture or a distribution: the referee is told one happened and asks which.
    const canAsk = view?.game === 'malawi' && view.outcome === null;
    // A game that is over has its end in the log: the server refuses a take-back (console/game-over), so none is offered.
    const over = view !== null && view.outcome !== null;
    return html`<section class="actions">
      <h2>${t(this.lang, 'console.actions.title')}</h2>
      <div class="buttons">
        ${canAsk
          ? html`<button class="action report" ?disabled=${locked} @click=${() => this.send({ kind: 'ask' })}>
              <span class="label"><span aria-hidden="true">?</span> ${t(this.lang, 'console.ask')}</span>
              <span class="words">${t(this.lang, 'console.ask.hint')}</span>
            </button>`
          : nothing}
        <button class="action undo" ?disabled=${locked || last === undefined || over} @click=${() => this.send({ kind: 'undo' })}>
          <span class="label"><span aria-hidden="true">↶</span> ${t(this.lang, 'console.undo')}</span>
          <span class="words">${over ? t(this.lang, 'console.undo.over') : last === undefined ? t(this.lang, 'console.undo.none') : t(this.lang, 'console.undo.hint', { move: last })}</span>
        </button>
        <button class="action" ?disabled=${locked} @click=${() => this.send({ kind: 'confirm' })}>
          <span class="label"><span aria-hidden="true">✓</span> ${t(this.lang, 'console.confirm')}</span>
          <span class="words">${t(this.lang, 'console.confirm.hint')}</span>
        </button>
        ${this.canAgree(view) ? this.renderAgree(locked) : nothing}
      </div>
    </section>`;
  }

  /** Kalaha: the players agree to end the game. It cannot be taken back, so it asks once more. */
  private renderAgree(locked: boolean) {
    if (!this.confirmingAgree) {
      return html`<button class="action agree" ?disabled=${locked} @click=${() => (this.confirmingAgree = true)}>
        <span class="label"><span aria-hidden="true">⚑</span> ${t(this.lang, 'console.agree')}</span>
        <span class="words">${t(this.lang, 'console.agree.hint')}</span>
      </button>`;
    }
    return html`<div class="agree-confirm" role="group" aria-label=${t(this.lang, 'console.agree')}>
      <p>${t(this.lang, 'console.agree.sure')}</p>
      <div class="row">
        <button
          class="primary agree-yes"
          ?disabled=${locked}
          @click=${() => {
            this.confirmingAgree = false;
            this.send({ kind: 'agree' });
          }}
        >
          ${t(this.lang, 'console.agree.yes')}
        </button>
        <button class="agree-no" @click=${() => (this.confirmingAgree = false)}>${t(this.lang, 'console.agree.no')}</button>
      </div>
    </div>`;
  }

  private canAgree(view: GameView | null): boolean {
    return view?.game === 'kalaha' && view.outcome === null;
  }

  /** The game's events, newest first, each with its time: from the game log when there is one. */
  private renderEvents(view: GameView | null) {
    const entries = journalEntries(this.journal, MAX_EVENTS);
    const id = this.journal.gameId;
    const time = new Intl.DateTimeFormat(this.lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return html`<section class="events">
      <h2>
        ${t(this.lang, 'console.journal.title')}
        ${id !== null
          ? html`<span class="muted">· <a href="/games?id=${id}&lang=${this.lang}">${t(this.lang, 'console.journal.fromLog', { id })}</a></span>`
          : nothing}
      </h2>
      ${entries.length
        ? html`<ol class="events-list" reversed>
            ${entries.map((entry) => this.renderEvent(entry, view, time))}
          </ol>`
        : html`<p class="muted">${t(this.lang, 'console.journal.empty')}</p>`}
      ${id === null && entries.length ? html`<p class="hint">${t(this.lang, 'console.journal.live')}</p>` : nothing}
    </section>`;
  }

  private renderEvent(entry: Shown, view: GameView | null, time: Intl.DateTimeFormat) {
    const game = view?.game ?? 'kalaha';
    const when = html`<time datetime=${new Date(entry.at).toISOString()}>${time.format(entry.at)}</time>`;
    const row = (kind: string, mark: string, text: unknown, detail?: unknown, lang?: string) =>
      html`<li class="event ${kind}" data-kind=${entry.kind} lang=${lang ?? this.lang}>
        ${when}<span class="mark" aria-hidden="true">${mark}</span><span class="text">${text}${detail ? html`<span class="detail">${detail}</span>` : nothing}</span>
      </li>`;
    switch (entry.kind) {
      case 'move': {
        const words = describeMove(this.lang, game, entry.move);
        const said = [
          words !== entry.move ? words : '',
          entry.reconstructed ? t(this.lang, 'console.journal.reconstructed') : '',
          entry.assumed ? t(this.lang, 'console.journal.assumed') : '',
        ]
          .filter(Boolean)
          .join(' — ');
        // An assumed move is marked: nobody decided it, and the console may still change it.
        return row(entry.assumed ? 'move assumed' : 'move', entry.assumed ? '?' : '•', html`${entry.ply ? `${entry.ply}. ` : ''}<b>${entry.move}</b>`, said || undefined);
      }
      case 'takeback':
        return row('takeback', '↶', t(this.lang, 'event.takeback', { moves: entry.undone.join(' ') }));
      case 'correction':
        return row('correction', '✎', correctionLine(this.lang, entry));
      case 'alert': {
        const text = formatAlert(this.lang, entry.alert, boardKind(view));
        const repeats = entry.repeats ? ` (${t(this.lang, 'console.journal.repeats', { count: entry.repeats + 1 })})` : '';
        return row(`alert ${entry.alert.level}`, entry.alert.level === 'error' ? '✕' : '!', `${text.text}${repeats}`, text.detail || undefined, text.translated ? this.lang : 'en');
      }
      case 'answer':
        return row(
          'answer',
          '✓',
          t(this.lang, entry.byHand ? 'console.journal.entered' : 'console.journal.answer', { move: entry.move }),
          describeMove(this.lang, game, entry.move),
        );
      case 'new-game':
        return row('new-game', '★', t(this.lang, 'event.new-game'));
      case 'end': {
        const reason = entry.reason && hasKey(this.lang, `reason.${entry.reason}`) ? t(this.lang, `reason.${entry.reason}` as MessageKey) : entry.reason;
        return row('end', '⚑', t(this.lang, 'console.journal.end'), reason ?? undefined);
      }
      default:
        return entry satisfies never;
    }
  }

  /** Asks the game log for the events after the last one read; one request at a time, again if more happened meanwhile. */
  private readLog(): void {
    const id = this.journal.gameId;
    if (id === null) return;
    if (this.logBusy) {
      this.logAgain = true;
      return;
    }
    this.logBusy = true;
    const covered = this.journal.liveSeq;
    fetch(`/api/games/${id}?after=${this.journal.lastSeq}`, { headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<{ events?: unknown }>) : null))
      .then((body) => {
        if (body && Array.isArray(body.events)) this.journal = addLogged(this.journal, id, body.events as LogEvent[], covered);
      })
      .catch(() => {
        // The live entries stay listed; the next event asks again.
      })
      .finally(() => {
        this.logBusy = false;
        if (this.logAgain) {
          this.logAgain = false;
          this.readLog();
        }
      });
  }

  private renderEntry(view: GameView) {
    const locked = !this.canSend();
    const texts = ENTRY_TEXTS[view.game];
    const grid = gridGame(view.game);
    const joiners = joinersFor(view.game);
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
            placeholder=${t(this.lang, texts.placeholder)}
            @input=${this.onEntryInput}
          />
          <button class="primary" type="submit" ?disabled=${locked || view.outcome !== null || normaliseEntry(this.entry) === ''}>
            ${t(this.lang, 'console.enter.submit')}
          </button>
        </div>
        ${grid
          ? html`<div class="joiners">
              ${joiners.map(
                (j) => html`<button type="button" class="joiner" @click=${() => (this.entry = appendToEntry(this.entry, j, grid))}>${j}</button>`,
              )}
              <button type="button" class="joiner clear" aria-label=${t(this.lang, 'console.enter.clear')} title=${t(this.lang, 'console.enter.clear')}
                @click=${() => (this.entry = '')}>⌫</button>
            </div>`
          : nothing}
        <p class="hint">${t(this.lang, texts.hint)}</p>
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

  private renderRecord(game: GameView['game'], record: readonly string[]) {
    // The referee may need the whole game: all of it, scrolling.
    const { lines } = recordLines(game, record, Number.POSITIVE_INFINITY);
    return html`<section class="record">
      <h2>${t(this.lang, 'record.title')} <span class="muted">· ${t(this.lang, 'record.plies', { count: record.length })}</span></h2>
      ${record.length
        ? html`<ol class="moves">
            ${lines.map(
              (line) => html`<li>${line.label ? html`<span class="no">${line.label}</span> ` : nothing}${line.moves.map((m) => m.text).join(' ')}</li>`,
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
    this.entry = appendToEntry(this.entry, event.detail.square, gridGame(this.connection.table.view?.game) ?? 'malawi');
  };

  private readonly onGesture = (): void => {
    void this.tone.unlock().then((running) => {
      if (running) this.soundBlocked = false;
    });
  };

  private readonly onToggleSound = (): void => {
    this.muted = !this.muted;
    rememberMuted(this.muted);
  };

  /** The tone was held back: this tap lets the page sound, and plays it so the referee hears what was missed. */
  private readonly onEnableSound = (): void => {
    void this.tone.unlock().then((running) => {
      this.soundBlocked = !running;
      if (running) this.sound();
    });
  };

  private sound(): void {
    // A hand moving pieces can raise several alerts in a second: one tone says it.
    const now = Date.now();
    if (now - this.lastToneAt < TONE_GAP_MS) return;
    this.lastToneAt = now;
    const result = this.tone.play(this.muted);
    this.lastTone = result;
    if (result === 'played') this.tonesPlayed += 1;
    if (result === 'blocked') this.soundBlocked = true;
    if (result === 'played') this.soundBlocked = false;
  }

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

customElements.define('referee-console', RefereeConsole);
