// <table-display>: the public scoreboard page of a table (Kalaha, Malawi, Makis or Adu, as the server says); it only
// listens, and never needs a click: it reconnects by itself, rests on an idle screen with today's games when no game
// runs and wakes with the next move. Full screen from its button, the F key, or `?fullscreen` as soon as allowed.
import { LitElement, html, nothing, svg, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { AduView, Alert, GameView, MakisView, MalawiView } from '../../../server/http/messages.ts';
import { EMPTY_TABLE, TableConnection, alertsByUrgency, type TableState } from '../connection/index.ts';
import {
  formatAlert,
  initialLang,
  percent,
  rememberLang,
  sideName,
  t,
  type BoardKind,
  type Lang,
  type MessageKey,
  type SideName,
} from '../i18n/index.ts';
import {
  ROLLS,
  aduActor,
  aduSeats,
  beadTotals,
  boardKind,
  boardStatusLine,
  correctionLine,
  expectedRollLine,
  lastMoveLine,
  linkNotice,
  makisSeats,
  outcomeLines,
  pendingLines,
  declaringLines,
  passedLine,
  recordLines,
  turnLine,
  type AduSeat,
  type LangChangeEvent,
} from '../common/index.ts';
import '../common/index.ts';
import { gameBoard, playerIcon } from '../board/index.ts';
import '../stats/today-at-table.ts';
import { displayStyles } from './display.styles.ts';
import { CORRECTION_SHOWN_MS, correctionShown, isActivity, isIdle, wantsFullscreen } from './idle.ts';


declare global {
  interface HTMLElementTagNameMap {
    'table-display': TableDisplay;
  }
}

/**
 * Enough of the record to fill its room on a large screen (rows as each game counts them); the record shows the newest
 * of these that fit and lets the oldest go over its top edge. The whole record is on the games page.
 */
const RECORD_ROWS: Readonly<Record<GameView['game'], number>> = { kalaha: 12, malawi: 24, makis: 8, adu: 40 };
const TITLES: Readonly<Record<GameView['game'], MessageKey>> = {
  kalaha: 'page.display.title',
  malawi: 'page.display.titleMalawi',
  makis: 'page.display.titleMakis',
  adu: 'page.display.titleAdu',
};
/** The most urgent alerts that fit under the board; nobody can scroll a scoreboard, so the rest are counted in the heading. */
const MAX_ALERTS = 3;
/** How often a resting screen looks again at the clock (its time of day, and whether a result has stood long enough). */
const TICK_MS = 15_000;
/** What may give way beside a square board (Adu's Merkskala, Makis' dice and odds) shrinks at most to this share. */
const MIN_FIT = 0.5;
/** Halvings of the range [MIN_FIT, 1] in the search for the largest type that fits: the result is within 1 %. */
const FIT_STEPS = 6;
/** Below this share the panel's explanations (the Merkskala's key) would be too small to read, and give their room up. */
const TIGHT_FIT = 0.75;
/** Screens whose page scrolls (a phone, upright or on its side): display.styles.ts stacks the page for them. */
const SCROLLING = '(orientation: portrait), (max-height: 480px)';

export class TableDisplay extends LitElement {
  static override styles = displayStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    // Which game is on show, for the layout: a square board (Malawi, Makis, Adu) sits beside the text, Kalaha's long one above it.
    game: { reflect: true },
    /** No game runs: the idle screen with today's games. */
    idle: { type: Boolean, reflect: true },
    /** `?fullscreen`: a screen for a wall, without buttons or pointer, full screen as soon as the browser allows. */
    kiosk: { type: Boolean, reflect: true },
    fullscreen: { state: true },
  };

  declare lang: Lang;
  declare game: GameView['game'] | null;
  declare idle: boolean;
  declare kiosk: boolean;
  declare fullscreen: boolean;

  private readonly connection = new TableConnection(this);
  private seen: TableState = EMPTY_TABLE;
  /** When the game last changed (a move, an alert, a question), on this screen's clock; a screen just opened saw none. */
  private lastActivity = Number.NEGATIVE_INFINITY;
  /** The last game as it ended, kept for the idle screen after the next game has been set up. */
  private lastEnded: GameView | null = null;
  private tick: ReturnType<typeof setInterval> | undefined;
  /** When this screen saw the last correction of the record, on its own clock; it is shown for CORRECTION_SHOWN_MS. */
  private correctionSeenAt = Number.NEGATIVE_INFINITY;
  private correctionTimer: ReturnType<typeof setTimeout> | undefined;
  /** The screen turned or resized: the column beside the board is fitted again. */
  private readonly resized = new ResizeObserver(() => requestAnimationFrame(() => this.fitBelow()));

  constructor() {
    super();
    this.lang = initialLang();
    this.game = null;
    this.idle = false;
    this.kiosk = wantsFullscreen(location.search);
    this.fullscreen = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('fullscreenchange', this.onFullscreenChange);
    if (this.kiosk) {
      // Refused without a gesture in most browsers (a kiosk browser or a policy may allow it): then the first key or
      // tap anybody gives goes full screen, and until then the page looks as it would there.
      this.enterFullscreen();
      document.addEventListener('pointerdown', this.onFirstGesture, { once: true });
    }
    this.tick = setInterval(() => this.requestUpdate(), TICK_MS);
    this.resized.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('fullscreenchange', this.onFullscreenChange);
    document.removeEventListener('pointerdown', this.onFirstGesture);
    clearInterval(this.tick);
    clearTimeout(this.correctionTimer);
    this.resized.disconnect();
  }

  protected override willUpdate(): void {
    const table = this.connection.table;
    this.game = table.view?.game ?? null;
    const now = Date.now();
    if (isActivity(this.seen, table)) this.lastActivity = now;
    if (table.lastCorrection && table.lastCorrection !== this.seen.lastCorrection) {
      // A fresh correction: shown for a while, then the screen draws itself again without it.
      this.correctionSeenAt = now;
      clearTimeout(this.correctionTimer);
      this.correctionTimer = setTimeout(() => this.requestUpdate(), CORRECTION_SHOWN_MS);
    }
    if (table.view?.outcome) this.lastEnded = table.view;
    this.seen = table;
    this.idle = isIdle(table, this.lastActivity, now);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang') || changed.has('game')) {
      document.documentElement.lang = this.lang;
      document.title = t(this.lang, TITLES[this.game ?? 'kalaha']);
    }
    this.fitBelow();
  }

  /**
   * Nobody scrolls a scoreboard. Beside a square board the column is as high as the screen allows: when what must show
   * there and the record's least (its heading and two lines) do not fit, the game's panel gives way (`fitPanel`). Then
   * the record is marked when its oldest moves go over its top edge, which fades them out.
   */
  private fitBelow(): void {
    const below = this.renderRoot.querySelector<HTMLElement>('.below');
    if (!below) return;
    const panel = below.querySelector<HTMLElement>('.panel');
    if (panel) fitPanel(below, panel);
    const moves = below.querySelector<HTMLElement>('.record .moves');
    const first = moves?.firstElementChild;
    if (moves && first) moves.classList.toggle('cut', first.getBoundingClientRect().top < moves.getBoundingClientRect().top - 1);
  }

  override render() {
    const { table, link } = this.connection;
    const notice = linkNotice(this.lang, link, Date.now(), table.synced);
    const view = table.view;
    // After a loss the last known game stays on screen, dimmed, under a banner that says so.
    const stale = notice !== null && view !== null;
    if (this.idle && view && !stale) return this.renderIdle(table, view);
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
    return gameBoard(this.lang, view, table.alerts.flatMap((a) => a.cells ?? []));
  }

  private renderHeader(table: TableState, view: GameView | null, stale: boolean) {
    const sided = view?.game === 'kalaha' || view?.game === 'malawi';
    const toMove = view && sided && !view.outcome ? view.toMove : null;
    const winner = view && sided ? view.outcome?.winner : undefined;
    const score = (side: SideName) => {
      if (!view) return html`<span></span>`;
      if (!sided) return nothing;
      const marked = toMove === side || winner === side;
      return view.game === 'kalaha' ? this.renderScore(side, view.stores[side], marked) : this.renderBeads(side, view, marked);
    };
    // Same order as the Kalaha board: north's store is on the left, south's on the right. Makis and Adu have
    // seats, not sides: their players are listed beside the board, and the header says whose turn it is.
    return html`<header>
      ${score('north')}
      <div class="middle">
        ${!view
          ? nothing
          : view.outcome
            ? html`<div class="turn over">${t(this.lang, 'outcome.title')}</div>`
            : html`<div class="turn" aria-live="polite">${this.renderTurn(view)}</div>`}
        <div class="meta">
          ${stale ? nothing : this.renderBoardStatus(table)}
          ${this.renderControls()}
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

  private renderTurn(view: GameView) {
    const text = turnLine(this.lang, view) ?? t(this.lang, 'turn.none');
    switch (view.game) {
      case 'kalaha':
        // The arrow points at the mover's store, so the turn reads even without the words.
        if (!view.toMove) return text;
        return view.toMove === 'north'
          ? html`<span class="arrow" aria-hidden="true">◀</span> ${text}`
          : html`${text} <span class="arrow" aria-hidden="true">▶</span>`;
      case 'malawi':
        // Towards the mover's baseline.
        if (!view.toMove) return text;
        return html`<span class="arrow" aria-hidden="true">${view.toMove === 'north' ? '▲' : '▼'}</span> ${text}`;
      case 'makis':
        return view.toMove === null ? text : html`${playerIcon(view.toMove)} ${text}`;
      case 'adu': {
        const actor = aduActor(view);
        return actor === null ? text : html`${playerIcon(actor)} ${text}`;
      }
      default:
        return assertNever(view);
    }
  }

  private renderBelow(table: TableState, view: GameView, stale: boolean) {
    const outcome = outcomeLines(this.lang, view);
    const last = lastMoveLine(this.lang, table);
    const alerts = alertsByUrgency(table.alerts);
    const board = boardKind(view);
    return html`<div class="below ${stale ? 'stale' : ''}">
      <section class="now" aria-live="polite">
        ${outcome
          ? html`<div class="outcome">
              <div class="headline">${outcome.headline}</div>
              <div class="detail">${outcome.score} — ${outcome.reason}</div>
            </div>`
          : nothing}
        ${view.game === 'makis' ? this.renderMakisPanel(view) : view.game === 'adu' ? this.renderAduPanel(view) : nothing}
        ${last ? html`<p class="last-move">${t(this.lang, 'lastMove.title')}: ${last}</p>` : nothing}
        ${table.lastCorrection && correctionShown(this.correctionSeenAt, Date.now())
          ? html`<p class="correction" role="status">${correctionLine(this.lang, table.lastCorrection)}</p>`
          : nothing}
        ${table.questions.some((q) => q.blocking !== false) ? html`<p class="asking">${t(this.lang, 'question.waiting')}</p>` : nothing}
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
      ${this.renderRecord(view.game, table.record)}
    </div>`;
  }

  /** Makis beside the board: the dice, what to put back, each player's Maki and the odds of the next roll. */
  private renderMakisPanel(view: MakisView) {
    const seats = makisSeats(this.lang, view);
    const pending = pendingLines(this.lang, view.pending);
    return html`<div class="panel makis">
      <div class="dice">
        ${view.expectedRoll
          ? html`<makis-dice expected .lang=${this.lang} .roll=${view.expectedRoll} caption=${t(this.lang, 'makis.dice.expected')}></makis-dice>`
          : nothing}
        <makis-dice .lang=${this.lang} .roll=${view.lastRoll} caption=${t(this.lang, 'makis.dice.last')}></makis-dice>
      </div>
      ${view.expectedRoll ? html`<p class="call">${expectedRollLine(this.lang, view.expectedRoll)}</p>` : nothing}
      ${pending.length
        ? html`<div class="put-back">
            <h2>${t(this.lang, 'makis.pending.title')}</h2>
            <ul>${pending.map((line) => html`<li>${line}</li>`)}</ul>
          </div>`
        : nothing}
      ${view.mode === 'cooperative' ? html`<p class="mode">${t(this.lang, 'makis.mode.cooperative')}</p>` : nothing}
      <ul class="seats" aria-label=${t(this.lang, 'players.title')}>
        ${seats.map(
          (seat) => html`<li class="seat ${seat.state} ${seat.toMove ? 'acting' : ''} ${seat.winner ? 'winner' : ''}">
            ${playerIcon(seat.player)}
            <span class="name">${seat.name}</span>
            <span class="where">${seat.where}</span>
            ${seat.odds ? html`<span class="odds">${seat.odds}</span>` : nothing}
          </li>`,
        )}
      </ul>
      ${view.odds ? html`<p class="muted knights-home">${t(this.lang, 'makis.knightsHome', { percent: percent(this.lang, view.odds.knightsHome, ROLLS) })}</p>` : nothing}
    </div>`;
  }

  /** Adu beside the board: the supply, each seat's kings and its Merkskala. */
  private renderAduPanel(view: AduView) {
    const seats = aduSeats(this.lang, view);
    // A reserve king awaited is said by the turn line above the board ("Spieler 1 setzt einen Reservekönig"),
    // with the capturer's mark; saying it here too would only push the Merkskala off the screen.
    const passed = passedLine(this.lang, view);
    return html`<div class="panel adu">
      ${passed ? html`<p class="passed">${passed}</p>` : nothing}
      <div class="seat-head">
        <h2>${t(this.lang, 'adu.merkskala.title')}</h2>
        <span class="supply">${t(this.lang, 'adu.supply', { supply: view.supply })}</span>
      </div>
      <ul class="seats">${seats.map((seat) => this.renderAduSeat(seat, declaringLines(this.lang, view, seat.player)))}</ul>
      <p class="muted hint">${t(this.lang, 'adu.merkskala.hint')}</p>
    </div>`;
  }

  private renderAduSeat(seat: AduSeat, declaring: readonly string[]) {
    const classes = [seat.in ? 'in' : 'out', seat.acting ? 'acting' : '', seat.winner ? 'winner' : '', seat.drawn ? 'drawn' : ''].join(' ');
    return html`<li class="seat-card ${classes}">
      <div class="seat-line">${playerIcon(seat.player)}<span class="name">${seat.name}</span><span class="status">${seat.status}</span></div>
      ${declaring.map((line) => html`<p class="declaring">${line}</p>`)}
      ${seat.in
        ? seat.merkskala.length
          ? html`<table class="merkskala">
              ${seat.merkskala.map(
                (row) => html`<tr class=${row.known ? 'known' : ''}
                  aria-label=${t(this.lang, 'adu.merkskala.soldier', {
                    id: row.soldier,
                    ranges: row.cells.filter((c) => c.possible).map((c) => c.range).join(', '),
                  })}>
                  <th>${row.soldier}</th>
                  ${row.cells.map((c) => html`<td class=${c.possible ? 'possible' : 'impossible'}>${c.range}</td>`)}
                </tr>`,
              )}
            </table>`
          : html`<p class="muted">${t(this.lang, 'adu.merkskala.none')}</p>`
        : nothing}
    </li>`;
  }

  private renderAlert(alert: Alert, board: BoardKind) {
    const text = formatAlert(this.lang, alert, board);
    return html`<li class="alert ${alert.level}" lang=${text.translated ? this.lang : 'en'}>
      <span class="level">${t(this.lang, `alert.level.${alert.level}`)}:</span>${text.text}
      ${text.detail ? html`<span class="detail">${text.detail}</span>` : nothing}
    </li>`;
  }

  private renderRecord(game: GameView['game'], record: readonly string[]) {
    const { lines, hidden } = recordLines(game, record, RECORD_ROWS[game]);
    const latest = record.length - 1;
    // Written the way players write a record ("12. F d 13. C"), wrapping like text.
    return html`<section class="record">
      <h2>${t(this.lang, 'record.title')} <span class="count">· ${t(this.lang, 'record.plies', { count: record.length })}</span></h2>
      ${record.length
        ? html`<p class="moves">
            ${hidden ? html`<span class="muted">…</span>` : nothing}
            ${lines.map(
              (line) =>
                html`<span class="pair"
                  >${line.label ? html`<span class="no">${line.label}</span> ` : nothing}${line.moves.map(
                    (move, i) => html`${i ? ' ' : ''}<span class=${move.index === latest ? 'latest' : ''}>${move.text}</span>`,
                  )}</span
                >`,
            )}
          </p>`
        : html`<p class="muted">${t(this.lang, 'record.empty')}</p>`}
    </section>`;
  }

  /** The language and full-screen switches; a kiosk screen has none (nobody is there to press them). */
  private renderControls() {
    if (this.kiosk) return nothing;
    const label = t(this.lang, this.fullscreen ? 'display.fullscreen.exit' : 'display.fullscreen.enter');
    return html`<span class="controls">
      ${document.fullscreenEnabled
        ? html`<button class="fullscreen" aria-pressed=${String(this.fullscreen)} title=${t(this.lang, 'display.fullscreen.hint')}
            @click=${this.toggleFullscreen}><span aria-hidden="true">${this.fullscreen ? '⤡' : '⤢'}</span> ${label}</button>`
        : nothing}
      <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
    </span>`;
  }

  /** No game runs: the table's name and the time, what starts the next game, the last result, and today's games. */
  private renderIdle(table: TableState, view: GameView) {
    const time = new Intl.DateTimeFormat(this.lang, { hour: '2-digit', minute: '2-digit' }).format(Date.now());
    const game = t(this.lang, `game.${view.game}`);
    const ended = view.outcome ? view : this.lastEnded;
    const last = ended ? outcomeLines(this.lang, ended) : null;
    return html`<section class="idle-screen" aria-label=${t(this.lang, 'display.idle.label')}>
      <div class="idle-top">
        <p class="clock"><time>${time}</time></p>
        <div class="meta">${this.renderBoardStatus(table)} ${this.renderControls()}</div>
      </div>
      <h1>${t(this.lang, TITLES[view.game])}</h1>
      <p class="next">${t(this.lang, 'display.idle.next', { game })}</p>
      ${last ? html`<p class="last-result">${t(this.lang, 'display.idle.last', { headline: last.headline, score: last.score })}</p>` : nothing}
      <today-at-table .lang=${this.lang}></today-at-table>
    </section>`;
  }

  private renderBoardStatus(table: TableState) {
    const status = boardStatusLine(this.lang, table.board);
    if (!status) return nothing;
    return html`<span class="board-status ${status.tone}" role="status">
      <span aria-hidden="true">${status.tone === 'warn' ? '▲' : '●'}</span> ${status.text}
    </span>`;
  }

  private enterFullscreen(): void {
    if (document.fullscreenElement || !document.fullscreenEnabled) return;
    document.documentElement.requestFullscreen({ navigationUI: 'hide' }).catch(() => {
      // No gesture yet, or not allowed here: the page still fills the window.
    });
  }

  private readonly toggleFullscreen = (): void => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else this.enterFullscreen();
  };

  private readonly onKey = (event: KeyboardEvent): void => {
    if (this.kiosk) this.enterFullscreen();
    if ((event.key === 'f' || event.key === 'F') && !event.ctrlKey && !event.metaKey && !event.altKey && !event.repeat) this.toggleFullscreen();
  };

  private readonly onFirstGesture = (): void => this.enterFullscreen();

  private readonly onFullscreenChange = (): void => {
    this.fullscreen = document.fullscreenElement !== null;
  };

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

/**
 * Shrinks what may give way in a game's panel (`--fit`: Adu's Merkskala, Makis' dice and odds) to the largest share,
 * down to MIN_FIT, at which the column beside the board holds everything. On a phone the page scrolls and the panel keeps
 * its full size.
 */
function fitPanel(column: HTMLElement, panel: HTMLElement): void {
  const fits = (scale: number): boolean => {
    panel.style.setProperty('--fit', String(scale));
    panel.classList.toggle('tight', scale < TIGHT_FIT);
    return column.scrollHeight <= column.clientHeight;
  };
  if (fits(1) || matchMedia(SCROLLING).matches) return;
  let [low, high] = [MIN_FIT, 1];
  for (let i = 0; i < FIT_STEPS; i++) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  fits(low);
}

function assertNever(x: never): never {
  throw new Error(`unexpected view ${JSON.stringify(x)}`);
}

customElements.define('table-display', TableDisplay);
