// <makis-dice>: Miwin's three dice III, IV and V showing a roll — the last one, or the one the table rolled and the
// knights still have to follow. Plain data in; the size comes from the page (--die-size).
import { LitElement, css, html, nothing, type PropertyDeclarations } from 'lit';
import { DEFAULT_LANG, t, type Lang } from '../i18n/catalogue.ts';

declare global {
  interface HTMLElementTagNameMap {
    'makis-dice': MakisDice;
  }
}

/** The dice in the order a roll lists its numbers (RULES.md §3). */
export const DIE_NAMES = ['III', 'IV', 'V'] as const;

export class MakisDice extends LitElement {
  static override styles = css`
    :host {
      display: block;
      --size: var(--die-size, 2.6em);
    }
    figure {
      margin: 0;
      display: grid;
      justify-items: start;
      gap: 0.3em;
    }
    figcaption {
      font-weight: 700;
      color: var(--muted, #c8c8c8);
    }
    :host([expected]) figcaption {
      color: var(--text, #fff);
    }
    ol {
      display: flex;
      gap: calc(var(--size) * 0.28);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li {
      display: grid;
      justify-items: center;
      gap: 0.15em;
    }
    .face {
      display: grid;
      place-items: center;
      box-sizing: border-box;
      width: var(--size);
      height: var(--size);
      border: calc(var(--size) * 0.06) solid var(--text, #fff);
      border-radius: calc(var(--size) * 0.2);
      background: var(--panel, #1b1b1e);
      color: var(--text, #fff);
      font-size: calc(var(--size) * 0.62);
      font-weight: 800;
      font-variant-numeric: tabular-nums;
      line-height: 1;
    }
    /* The table's own roll is the one to act on: solid white, like a real die. */
    :host([expected]) .face {
      background: var(--text, #fff);
      color: var(--bg, #000);
    }
    .name {
      font-size: calc(var(--size) * 0.3);
      font-weight: 700;
      color: var(--muted, #c8c8c8);
      font-family: Georgia, 'DejaVu Serif', serif;
    }
    .none {
      color: var(--muted, #c8c8c8);
    }
  `;

  static override properties: PropertyDeclarations = {
    roll: { attribute: false },
    caption: {},
    expected: { type: Boolean, reflect: true },
    lang: { reflect: true },
  };

  declare roll: readonly number[] | null;
  declare caption: string;
  /** The table rolled this: the knights must still follow it. */
  declare expected: boolean;
  declare lang: Lang;

  constructor() {
    super();
    this.roll = null;
    this.caption = '';
    this.expected = false;
    this.lang = DEFAULT_LANG;
  }

  override render() {
    const roll = this.roll;
    return html`<figure>
      ${this.caption ? html`<figcaption>${this.caption}</figcaption>` : nothing}
      ${roll && roll.length === 3
        ? html`<ol aria-label=${t(this.lang, 'makis.dice.label', { first: roll[0], second: roll[1], third: roll[2] })}>
            ${DIE_NAMES.map(
              (name, i) => html`<li><span class="face" aria-hidden="true">${roll[i]}</span><span class="name" aria-hidden="true">${name}</span></li>`,
            )}
          </ol>`
        : html`<span class="none">${t(this.lang, 'makis.dice.none')}</span>`}
    </figure>`;
  }
}

customElements.define('makis-dice', MakisDice);
