// <game-form>: a new game — which game, its rules (RULES.md's options), the players' names and seats — and the
// button that starts it. It asks; the page sends the request.
import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { sideName, t, type Lang } from '../i18n/index.ts';
import type { GameName, HostedGame, OptionField, SetupState } from './api.ts';
import { badOptions, moveSeat, optionValues, readOption, resizeSeats, seatNames, startBody, type StartBody } from './seats.ts';
import { optionLabel, optionValueText } from './words.ts';

declare global {
  interface HTMLElementTagNameMap {
    'game-form': GameForm;
  }
  interface HTMLElementEventMap {
    'start-game': CustomEvent<StartBody>;
  }
}

interface Draft {
  values: Record<string, string | number | boolean>;
  names: string[];
}

export class GameForm extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    fieldset {
      margin: 0 0 0.9rem;
      padding: 0;
      border: 0;
      min-width: 0;
    }
    legend {
      margin-bottom: 0.4em;
      padding: 0;
      font-weight: 700;
    }
    .games {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    .games label {
      display: inline-flex;
      align-items: center;
      gap: 0.4em;
      min-height: 2.8rem;
      padding: 0.2em 0.9em;
      border: 2px solid var(--muted);
      border-radius: 0.5em;
      cursor: pointer;
      font-weight: 700;
    }
    .games label.chosen {
      border-color: var(--text);
      background: var(--text);
      color: var(--bg);
    }
    .games input {
      position: absolute;
      opacity: 0;
      width: 1px;
      height: 1px;
    }
    .games label:focus-within {
      outline: 3px solid var(--origin);
      outline-offset: 2px;
    }
    /* The label beside its control, or above it when both do not fit (a long choice on a phone). */
    .option {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 0.3rem 0.6rem;
      padding: 0.3em 0;
    }
    .option label {
      flex: 1 1 12rem;
    }
    .option select {
      max-width: 100%;
    }
    .option.bad label {
      color: var(--diff);
    }
    .seat {
      display: grid;
      grid-template-columns: minmax(4.5em, auto) minmax(0, 1fr) auto;
      align-items: center;
      gap: 0.5rem;
      margin-bottom: 0.4rem;
    }
    .seat .who {
      font-weight: 700;
    }
    .seat .who small {
      display: block;
      font-weight: 400;
      color: var(--muted);
    }
    .seat .moves {
      display: flex;
      gap: 0.25rem;
    }
    input,
    select,
    button {
      font: inherit;
      color: inherit;
    }
    input[type='text'],
    input[type='number'],
    select {
      min-width: 0;
      min-height: 2.6rem;
      padding: 0.2em 0.5em;
      border: 2px solid var(--muted);
      border-radius: 0.5em;
      background: #000;
      color: var(--text);
    }
    input[type='number'] {
      width: 5.5em;
    }
    input[type='checkbox'] {
      width: 1.6em;
      height: 1.6em;
      accent-color: var(--sown);
    }
    button {
      cursor: pointer;
      min-height: 2.6rem;
      min-width: 2.6rem;
      padding: 0.2em 0.6em;
      border: 2px solid var(--muted);
      border-radius: 0.5em;
      background: var(--panel);
      color: var(--text);
    }
    button:disabled {
      cursor: not-allowed;
      opacity: 0.45;
    }
    button:focus-visible,
    input:focus-visible,
    select:focus-visible {
      outline: 3px solid var(--origin);
      outline-offset: 2px;
    }
    button.start {
      width: 100%;
      min-height: 3.2rem;
      border-color: var(--text);
      background: var(--text);
      color: var(--bg);
      font-weight: 800;
    }
    button.start.replace {
      border-color: var(--warn-bg);
      background: var(--warn-bg);
      color: var(--warn-text);
    }
    .fixed {
      font-weight: 700;
    }
    .warning {
      margin: 0 0 0.5rem;
      padding: 0.4em 0.7em;
      border-left: 0.35em solid var(--warn-bg);
      background: var(--panel);
    }
    .hint {
      margin: 0.3em 0 0;
      color: var(--muted);
      font-size: 0.9em;
    }
  `;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    games: { attribute: false },
    current: { attribute: false },
    locked: { type: Boolean },
    running: { type: Boolean },
    plies: { type: Number },
    chosen: { state: true },
    drafts: { state: true },
  };

  declare lang: Lang;
  declare games: readonly HostedGame[];
  declare current: SetupState['current'] | null;
  declare locked: boolean;
  /** A game is being played: starting another abandons it. */
  declare running: boolean;
  declare plies: number;
  declare chosen: GameName | null;
  /** What was filled in per game, so switching between games keeps it. */
  declare drafts: Readonly<Partial<Record<GameName, Draft>>>;

  constructor() {
    super();
    this.lang = 'de';
    this.games = [];
    this.current = null;
    this.locked = true;
    this.running = false;
    this.plies = 0;
    this.chosen = null;
    this.drafts = {};
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The form starts from the game on the table, its rules and its players.
    if ((changed.has('games') || changed.has('current')) && this.chosen === null && this.current && this.games.length) {
      this.chosen = this.games.some((g) => g.game === this.current?.game) ? this.current.game : this.games[0].game;
    }
  }

  override render() {
    const hosted = this.games.find((g) => g.game === this.chosen);
    if (!hosted) return html`<p class="hint">${t(this.lang, 'setup.loading')}</p>`;
    const draft = this.draftOf(hosted);
    const bad = badOptions(hosted.options, draft.values);
    return html`
      <fieldset>
        <legend>${t(this.lang, 'setup.new.game')}</legend>
        <div class="games" role="radiogroup">
          ${this.games.map(
            (g) => html`<label class=${g.game === this.chosen ? 'chosen' : ''} data-game=${g.game}>
              <input type="radio" name="game" .value=${g.game} .checked=${g.game === this.chosen} @change=${() => (this.chosen = g.game)} />
              ${t(this.lang, `game.${g.game}`)}
            </label>`,
          )}
        </div>
      </fieldset>
      ${hosted.options.length
        ? html`<fieldset class="options">
            <legend>${t(this.lang, 'setup.new.options')}</legend>
            ${hosted.options.map((field) => this.renderOption(hosted, field, draft, bad.includes(field.key)))}
          </fieldset>`
        : nothing}
      <fieldset class="seats">
        <legend>${t(this.lang, 'setup.new.players')}</legend>
        ${draft.names.map((name, i) => this.renderSeat(hosted, draft, name, i))}
        ${hosted.seats.kind === 'numbered'
          ? html`<button class="add" ?disabled=${draft.names.length >= hosted.seats.max} @click=${() => this.setNames(hosted, resizeSeats(hosted, draft.names, draft.names.length + 1))}>
                + ${t(this.lang, 'setup.seat.add')}
              </button>
              <p class="hint">${t(this.lang, 'setup.seat.count', { min: hosted.seats.min, max: hosted.seats.max })}</p>`
          : nothing}
        <p class="hint">${t(this.lang, 'setup.seat.hint')}</p>
      </fieldset>
      ${this.running ? html`<p class="warning" role="status">${t(this.lang, 'setup.start.running', { plies: this.plies })}</p>` : nothing}
      <button class="start ${this.running ? 'replace' : ''}" ?disabled=${this.locked || bad.length > 0} @click=${() => this.start(hosted, draft)}>
        ${t(this.lang, this.running ? 'setup.start.replace' : 'setup.start.submit')}
      </button>
    `;
  }

  private renderOption(hosted: HostedGame, field: OptionField, draft: Draft, bad: boolean) {
    const id = `option-${field.key}`;
    const label = optionLabel(this.lang, field.key);
    const value = draft.values[field.key];
    const set = (e: Event) => {
      const input = e.target as HTMLInputElement | HTMLSelectElement;
      const next = readOption(field, input.value, input instanceof HTMLInputElement && input.checked);
      this.setDraft(hosted, { ...draft, values: { ...draft.values, [field.key]: next } });
    };
    let control;
    switch (field.kind) {
      case 'int':
        control = field.fixed
          ? html`<span class="fixed" id=${id}>${t(this.lang, 'setup.option.fixed', { value: optionValueText(this.lang, field, field.min) })}</span>`
          : html`<input id=${id} type="number" inputmode="numeric" min=${field.min} max=${field.max} step="1" .value=${Number.isNaN(value) ? '' : String(value)} @input=${set} />`;
        break;
      case 'choice':
        control = html`<select id=${id} @change=${set}>
          ${field.values.map((v) => html`<option .value=${String(v)} ?selected=${v === value}>${optionValueText(this.lang, field, v)}</option>`)}
        </select>`;
        break;
      case 'bool':
        control = html`<input id=${id} type="checkbox" .checked=${value === true} @change=${set} />`;
        break;
      default:
        return field satisfies never;
    }
    return html`<div class="option ${bad ? 'bad' : ''}">
      <label for=${id}>${label}${field.kind === 'int' && !field.fixed ? html` <small>(${field.min}–${field.max})</small>` : nothing}</label>
      ${control}
    </div>`;
  }

  private renderSeat(hosted: HostedGame, draft: Draft, name: string, i: number) {
    const sides = hosted.seats.kind === 'sides';
    const who = sides
      ? html`${sideName(this.lang, i === 0 ? 'south' : 'north')}${i === 0 ? html`<small>${t(this.lang, 'setup.seat.opens')}</small>` : nothing}`
      : html`${t(this.lang, 'setup.seat.numbered', { seat: i + 1 })}${i === 0 ? html`<small>${t(this.lang, 'setup.seat.opens')}</small>` : nothing}`;
    const id = `seat-${i}`;
    return html`<div class="seat">
      <label class="who" for=${id}>${who}</label>
      <input
        id=${id}
        type="text"
        maxlength="40"
        autocomplete="off"
        placeholder=${t(this.lang, 'setup.seat.placeholder')}
        .value=${name}
        @input=${(e: Event) => this.setNames(hosted, draft.names.map((n, j) => (j === i ? (e.target as HTMLInputElement).value : n)))}
      />
      <span class="moves">
        ${sides
          ? i === 0
            ? html`<button class="swap" title=${t(this.lang, 'setup.seat.swap')} aria-label=${t(this.lang, 'setup.seat.swap')} @click=${() => this.setNames(hosted, moveSeat(draft.names, 0, 1))}>⇅</button>`
            : nothing
          : html`<button title=${t(this.lang, 'setup.seat.up')} aria-label=${t(this.lang, 'setup.seat.up')} ?disabled=${i === 0} @click=${() => this.setNames(hosted, moveSeat(draft.names, i, -1))}>↑</button>
              <button title=${t(this.lang, 'setup.seat.down')} aria-label=${t(this.lang, 'setup.seat.down')} ?disabled=${i === draft.names.length - 1} @click=${() => this.setNames(hosted, moveSeat(draft.names, i, 1))}>↓</button>
              <button
                class="remove"
                title=${t(this.lang, 'setup.seat.remove', { seat: i + 1 })}
                aria-label=${t(this.lang, 'setup.seat.remove', { seat: i + 1 })}
                ?disabled=${draft.names.length <= hosted.seats.min}
                @click=${() => this.setNames(hosted, draft.names.filter((_, j) => j !== i))}
              >
                ✕
              </button>`}
      </span>
    </div>`;
  }

  private draftOf(hosted: HostedGame): Draft {
    const kept = this.drafts[hosted.game];
    if (kept) return kept;
    const same = this.current?.game === hosted.game;
    return {
      values: optionValues(hosted.options, same ? (this.current?.options ?? null) : null),
      names: seatNames(hosted, same ? (this.current?.players ?? null) : null),
    };
  }

  private setDraft(hosted: HostedGame, draft: Draft): void {
    this.drafts = { ...this.drafts, [hosted.game]: draft };
  }

  private setNames(hosted: HostedGame, names: string[]): void {
    this.setDraft(hosted, { ...this.draftOf(hosted), names });
  }

  private start(hosted: HostedGame, draft: Draft): void {
    this.dispatchEvent(new CustomEvent('start-game', { detail: startBody(hosted, draft.values, draft.names, this.running), bubbles: true, composed: true }));
  }
}

customElements.define('game-form', GameForm);
