// <lang-toggle>: the small DE | EN switch every page carries; it only reports the choice.
import { LitElement, css, html, type PropertyDeclarations } from 'lit';
import { DEFAULT_LANG, LANGS, t, type Lang } from '../i18n/catalogue.ts';

export interface LangChangeDetail {
  readonly lang: Lang;
}
export type LangChangeEvent = CustomEvent<LangChangeDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'lang-toggle': LangToggle;
  }
  interface HTMLElementEventMap {
    'lang-change': LangChangeEvent;
  }
}

export class LangToggle extends LitElement {
  static override styles = css`
    :host {
      display: inline-block;
      font-size: var(--lang-toggle-size, 1rem);
    }
    div {
      display: flex;
      gap: 0.25em;
    }
    button {
      font: inherit;
      font-weight: 700;
      min-width: 2.6em;
      min-height: 2em;
      padding: 0.1em 0.5em;
      border: 2px solid var(--muted, #c8c8c8);
      border-radius: 0.4em;
      background: transparent;
      color: var(--text, #fff);
      cursor: pointer;
    }
    button[aria-pressed='true'] {
      background: var(--text, #fff);
      color: var(--bg, #000);
      border-color: var(--text, #fff);
    }
  `;

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
  };

  declare lang: Lang;

  constructor() {
    super();
    this.lang = DEFAULT_LANG;
  }

  override render() {
    return html`<div role="group" aria-label=${t(this.lang, 'lang.choose')}>
      ${LANGS.map(
        (lang) =>
          html`<button
            lang=${lang}
            aria-pressed=${String(lang === this.lang)}
            title=${t(lang, `lang.${lang}`)}
            @click=${() => this.choose(lang)}
          >
            ${lang.toUpperCase()}
          </button>`,
      )}
    </div>`;
  }

  private choose(lang: Lang): void {
    if (lang === this.lang) return;
    this.lang = lang;
    this.dispatchEvent(new CustomEvent<LangChangeDetail>('lang-change', { detail: { lang }, bubbles: true, composed: true }));
  }
}

customElements.define('lang-toggle', LangToggle);
