// <setup-page>: the table's setup — the game on it now (end or abandon it), a new game with its rules and players,
// the Kalaha table's scales, and the sensors' raw readings. Changes need the referee token, taken as the console
// takes it (`?token=`, then this tab's storage).
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { TableConnection } from '../connection/index.ts';
import { initialLang, playerName, rememberLang, sideName, t, type Lang } from '../i18n/index.ts';
import { boardStatusLine, linkNotice, logNotice, type LangChangeEvent } from '../common/index.ts';
import '../common/index.ts';
import { initialToken, rememberToken } from '../referee/token.ts';
import { fetchSetup, postSetup, type GameName, type SetupAction, type SetupState } from './api.ts';
import { done, refusal, type Outcome } from './outcome.ts';
import { isDefaultName, winners, type StartBody } from './seats.ts';
import { setupStyles } from './setup-page.styles.ts';
import { optionLabel, optionValueText } from './words.ts';
import './game-form.ts';
import './scales-wizard.ts';
import './raw-view.ts';

declare global {
  interface HTMLElementTagNameMap {
    'setup-page': SetupPage;
  }
}

type Section = 'current' | 'new' | 'scales';

/** What the last request in a section came to, worded at each render so a change of language rewords it. */
type Said =
  | { readonly ok: true; readonly action: SetupAction; readonly game: GameName; readonly gameId: number | null }
  | { readonly ok: false; readonly code: string; readonly message: string };

export class SetupPage extends LitElement {
  static override styles = setupStyles;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    setup: { state: true },
    loadError: { state: true },
    busy: { state: true },
    outcomes: { state: true },
    editingToken: { state: true },
    tokenRefused: { state: true },
    winner: { state: true },
    confirming: { state: true },
  };

  declare lang: Lang;
  declare setup: SetupState | null;
  declare loadError: Outcome | null;
  /** The request under way, if any: every other button waits for it. */
  declare busy: SetupAction | null;
  declare outcomes: Readonly<Partial<Record<Section, Said>>>;
  declare editingToken: boolean;
  /** The HTTP API said the token is wrong. */
  declare tokenRefused: boolean;
  /** The result chosen for ending the game: a winner, or '' for none. */
  declare winner: string;
  declare confirming: boolean;

  private readonly connection = new TableConnection(this);
  private token: string | null;
  /** What of the live table, when it changes, makes the setup state worth asking for again. */
  private seen = '';

  constructor() {
    super();
    this.lang = initialLang();
    this.setup = null;
    this.loadError = null;
    this.busy = null;
    this.outcomes = {};
    this.editingToken = false;
    this.tokenRefused = false;
    this.winner = '';
    this.confirming = false;
    this.token = initialToken();
    if (this.token !== null) this.connection.setToken(this.token);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang')) {
      document.documentElement.lang = this.lang;
      document.title = `${t(this.lang, 'page.setup.title')} · Spieltisch`;
    }
    // A new game, its first move, its end, or the referee's calibration: the setup state has moved on.
    const { view, record, board, synced } = this.connection.table;
    const seen = synced && view ? `${view.game}|${record.length > 0}|${view.outcome !== null}|${board?.calibrated}` : '';
    if (seen && seen !== this.seen) {
      const first = this.seen === '';
      this.seen = seen;
      if (!first) void this.load();
    }
  }

  private async load(): Promise<void> {
    const answer = await fetchSetup();
    if (answer.ok) {
      this.setup = answer.value;
      this.loadError = null;
    } else {
      this.loadError = refusal(this.lang, answer.code, answer.message);
    }
  }

  private get needToken(): boolean {
    return this.token === null || this.tokenRefused || this.connection.commands.auth === 'refused' || this.editingToken;
  }

  private get locked(): boolean {
    return this.token === null || this.tokenRefused || this.connection.commands.auth === 'refused' || this.busy !== null;
  }

  override render() {
    const { table, link } = this.connection;
    const notice = linkNotice(this.lang, link, Date.now(), table.synced);
    // The moves waiting for the game log are not shown: every page says why the game seems to stand still.
    const unlogged = logNotice(this.lang, table.board);
    const setup = this.setup;
    const game = table.view?.game ?? setup?.current.game ?? null;
    const status = boardStatusLine(this.lang, table.board);
    return html`
      <header>
        <h1>${t(this.lang, 'page.setup.title')}${game ? html`<span class="game"> · ${t(this.lang, `game.${game}`)}</span>` : nothing}</h1>
        <div class="meta">
          ${status ? html`<span class="board-status ${status.tone}">${status.text}</span>` : nothing}
          ${!this.needToken && this.connection.commands.auth === 'accepted'
            ? html`<span class="signed-in"><span aria-hidden="true">✓</span> ${t(this.lang, 'console.token.accepted')}</span>`
            : nothing}
          ${!this.needToken ? html`<button class="small" @click=${() => (this.editingToken = true)}>${t(this.lang, 'console.token.change')}</button>` : nothing}
          <a href="/display?lang=${this.lang}">${t(this.lang, 'page.toDisplay')}</a>
          <a href="/referee?lang=${this.lang}">${t(this.lang, 'setup.toConsole')}</a>
          <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
        </div>
      </header>
      ${notice ? html`<p class="link" role="status">${notice}</p>` : nothing}
      ${unlogged !== null ? html`<p class="link log" role="alert">${unlogged}</p>` : nothing}
      ${this.needToken ? this.renderTokenForm() : nothing}
      ${this.loadError && !setup ? html`<p class="lock" role="alert">${this.loadError.text}</p>` : nothing}
      ${setup
        ? html`<main>
            <div class="column">${this.renderCurrent(setup)} ${this.renderNew(setup)}</div>
            <div class="column">${setup.board.kind === 'kalaha' ? this.renderScales(setup) : nothing} ${this.renderRaw(game)}</div>
          </main>`
        : html`<p class="muted" role="status">${t(this.lang, 'setup.loading')}</p>`}
    `;
  }

  private renderTokenForm() {
    const refused = this.tokenRefused || this.connection.commands.auth === 'refused';
    // Refused unheard, because this device sent too many wrong tokens: say how long to wait instead of "wrong".
    const waiting = this.connection.commands.auth === 'refused' ? this.connection.commands.authRefusal : undefined;
    const why = waiting ? t(this.lang, 'result.console/too-many-attempts', waiting.params ?? {}) : t(this.lang, 'console.token.refused');
    return html`<form class="token ${refused ? 'refused' : ''}" @submit=${this.onTokenSubmit}>
      ${refused ? html`<p class="refusal" role="alert"><span aria-hidden="true">✕</span> ${why}</p>` : nothing}
      <label for="token">${t(this.lang, 'console.token.label')}</label>
      <div class="row">
        <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required />
        <button class="primary" type="submit">${t(this.lang, 'console.token.submit')}</button>
        ${this.editingToken ? html`<button type="button" @click=${() => (this.editingToken = false)}>${t(this.lang, 'console.token.cancel')}</button>` : nothing}
      </div>
      <p class="hint">${t(this.lang, 'setup.token.hint')}</p>
    </form>`;
  }

  /** The game on the table now: who plays, how far it is, and ending or abandoning it. */
  private renderCurrent(setup: SetupState) {
    const { table } = this.connection;
    const view = table.view;
    const current = setup.current;
    const game = view?.game ?? current.game;
    const plies = table.synced ? table.record.length : current.plies;
    const over = view ? view.outcome !== null : current.over;
    const logged = current.gameId !== null;
    const state = over
      ? t(this.lang, 'setup.current.over')
      : plies > 0
        ? t(this.lang, 'setup.current.running', { plies })
        : t(this.lang, 'setup.current.waiting');
    const players = view?.game === 'makis' || view?.game === 'adu' ? view.players : Object.keys(current.players).length;
    const cooperative = view?.game === 'makis' && view.mode === 'cooperative';
    const choices = winners(game, players, cooperative);
    const winner = choices.includes(this.winner) ? this.winner : '';
    return html`<section class="current" aria-labelledby="current-title">
      <h2 id="current-title">${t(this.lang, 'setup.current.title')}</h2>
      <p class="now">${t(this.lang, `game.${game}`)}</p>
      <p class="state">
        ${state} · ${logged ? t(this.lang, 'setup.current.gameId', { id: current.gameId as number }) : t(this.lang, 'setup.current.notLogged')}
      </p>
      ${this.renderRules(setup)}
      <ul class="players">
        ${Object.entries(current.players).map(([seat, name]) => {
          const label = this.seatLabel(seat);
          // A name that is only its seat's (the log's default) is said once.
          return html`<li>${name === label || isDefaultName(seat, name) ? label : html`${name} <small>(${label})</small>`}</li>`;
        })}
      </ul>
      <div class="actions">
        <label
          >${t(this.lang, 'setup.end.result')}
          <select class="winner" @change=${(e: Event) => (this.winner = (e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${winner === ''}>${t(this.lang, 'setup.end.none')}</option>
            ${choices.map((w) => html`<option .value=${w} ?selected=${w === winner}>${this.winnerLabel(w, current.players)}</option>`)}
          </select>
        </label>
        <button class="end primary" ?disabled=${this.locked || over || !logged} @click=${this.onEnd}>${t(this.lang, 'setup.end.submit')}</button>
        <button class="abandon danger" ?disabled=${this.locked} @click=${() => (this.confirming = true)}>${t(this.lang, 'setup.abandon.submit')}</button>
      </div>
      ${this.confirming
        ? html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-text">
            <p id="confirm-text">${t(this.lang, logged && !over ? 'setup.abandon.confirm' : 'setup.abandon.confirmReset')}</p>
            <div class="row">
              <button class="danger confirm-abandon" ?disabled=${this.locked} @click=${this.onAbandon}>${t(this.lang, 'setup.abandon.yes')}</button>
              <button @click=${() => (this.confirming = false)}>${t(this.lang, 'console.token.cancel')}</button>
            </div>
          </div>`
        : nothing}
      <p class="hint">${t(this.lang, 'setup.end.hint')}</p>
      ${this.renderOutcome('current')}
    </section>`;
  }

  private renderRules(setup: SetupState) {
    const hosted = setup.games.find((g) => g.game === setup.current.game);
    if (!hosted) return nothing;
    const parts = hosted.options
      .filter((f) => f.key in setup.current.options)
      .map((f) => `${optionLabel(this.lang, f.key)}: ${optionValueText(this.lang, f, setup.current.options[f.key])}`);
    return parts.length ? html`<p class="rules">${parts.join(' · ')}</p>` : nothing;
  }

  private renderNew(setup: SetupState) {
    const { table } = this.connection;
    const plies = table.synced ? table.record.length : setup.current.plies;
    const running = table.synced ? plies > 0 && table.view?.outcome === null : setup.current.running;
    return html`<section class="new" aria-labelledby="new-title">
      <h2 id="new-title">${t(this.lang, 'setup.new.title')}</h2>
      <game-form
        .lang=${this.lang}
        .games=${setup.games}
        .current=${setup.current}
        .locked=${this.locked}
        .running=${running}
        .plies=${plies}
        @start-game=${this.onStart}
      ></game-form>
      ${this.renderOutcome('new')}
    </section>`;
  }

  private renderScales(setup: SetupState) {
    const { table } = this.connection;
    const running = table.synced ? table.record.length > 0 && table.view?.outcome === null : setup.current.running;
    const seeds = typeof setup.current.options.seedsPerPit === 'number' ? setup.current.options.seedsPerPit : 4;
    return html`<section class="scales" aria-labelledby="scales-title">
      <h2 id="scales-title">${t(this.lang, 'setup.scales.title')}</h2>
      <scales-wizard
        .lang=${this.lang}
        .calibration=${setup.calibration}
        .seedsPerPit=${seeds}
        .simulated=${setup.board.source === 'simulated'}
        .locked=${this.locked}
        .running=${running}
        @scales-tare=${() => this.act('scales', 'tare', {})}
        @scales-measure=${() => this.act('scales', 'stones', {})}
      ></scales-wizard>
      ${this.renderOutcome('scales')}
    </section>`;
  }

  private renderRaw(game: GameName | null) {
    return html`<section class="raw" aria-labelledby="raw-title">
      <h2 id="raw-title">${t(this.lang, 'setup.raw.title')}</h2>
      <raw-view .lang=${this.lang} .game=${game}></raw-view>
    </section>`;
  }

  private renderOutcome(section: Section) {
    const said = this.outcomes[section];
    if (!said) return nothing;
    const outcome = said.ok
      ? done(this.lang, said.action, { game: t(this.lang, `game.${said.game}`), gameId: said.gameId })
      : refusal(this.lang, said.code, said.message);
    return html`<p class="outcome ${outcome.ok ? 'ok' : 'refused'}" role=${outcome.ok ? 'status' : 'alert'} lang=${outcome.english ? 'en' : this.lang}>
      <span aria-hidden="true">${outcome.ok ? '✓' : '✕'}</span> ${outcome.text}
    </p>`;
  }

  private seatLabel(seat: string): string {
    if (seat === 'south' || seat === 'north') return sideName(this.lang, seat);
    return t(this.lang, 'setup.seat.numbered', { seat });
  }

  private winnerLabel(winner: string, players: Readonly<Record<string, string>>): string {
    switch (winner) {
      case 'draw':
        return t(this.lang, 'setup.end.draw');
      case 'team':
        return t(this.lang, 'setup.end.team');
      case 'knights':
        return t(this.lang, 'setup.end.knights');
      default: {
        const label = winner === 'south' || winner === 'north' ? sideName(this.lang, winner) : playerName(this.lang, winner);
        const name = players[winner];
        return t(this.lang, 'setup.end.wins', { who: name && !isDefaultName(winner, name) ? `${name} (${label})` : label });
      }
    }
  }

  /** Sends one change; its answer updates the state and is said in the section that asked. */
  private async act(section: Section, action: SetupAction, body: object): Promise<void> {
    if (this.token === null || this.busy) return;
    this.busy = action;
    try {
      const answer = await postSetup(action, body, this.token);
      if (answer.ok) {
        this.setup = answer.value.state;
        const gameId = typeof answer.value.gameId === 'number' ? answer.value.gameId : null;
        this.outcomes = { [section]: { ok: true, action, game: answer.value.state.current.game, gameId } };
        if (action === 'end' || action === 'abandon') this.winner = '';
      } else {
        if (answer.code === 'setup/unauthorized') this.tokenRefused = true;
        this.outcomes = { [section]: { ok: false, code: answer.code, message: answer.message } };
      }
    } finally {
      this.busy = null;
      this.confirming = false;
    }
  }

  private readonly onStart = (event: CustomEvent<StartBody>): void => {
    void this.act('new', 'start', event.detail);
  };

  private readonly onEnd = (): void => {
    void this.act('current', 'end', this.winner ? { winner: this.winner } : { winner: null });
  };

  private readonly onAbandon = (): void => {
    void this.act('current', 'abandon', {});
  };

  private readonly onTokenSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).querySelector<HTMLInputElement>('#token');
    const token = input?.value.trim() ?? '';
    if (!token) return;
    this.token = token;
    this.tokenRefused = false;
    this.editingToken = false;
    rememberToken(token);
    this.connection.setToken(token);
  };

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

customElements.define('setup-page', SetupPage);
