// <coming-later>: the stand-in for pages that are not built yet (/setup, /games), in both languages.
import { LitElement, css, html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { initialLang, rememberLang, t, type Lang } from '../i18n/index.ts';
import type { LangChangeEvent } from '../common/index.ts';
import '../common/index.ts';

declare global {
  interface HTMLElementTagNameMap {
    'coming-later': ComingLater;
  }
}

export const LATER_PAGES = ['setup', 'games'] as const;
export type LaterPage = (typeof LATER_PAGES)[number];

export class ComingLater extends LitElement {
  static override styles = css`
    :host {
      display: grid;
      place-content: center;
      gap: 1rem;
      min-height: 100vh;
      padding: 2rem;
      box-sizing: border-box;
      text-align: center;
      font-size: clamp(1rem, 3vmin, 2rem);
    }
    h1 {
      margin: 0;
      font-size: 2em;
    }
    a {
      color: var(--sown, #56b4e9);
    }
    lang-toggle {
      justify-self: center;
    }
  `;

  static override properties: PropertyDeclarations = {
    page: { reflect: true },
    lang: { reflect: true },
  };

  declare page: LaterPage;
  declare lang: Lang;

  constructor() {
    super();
    this.page = 'games';
    this.lang = initialLang();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang') || changed.has('page')) {
      document.documentElement.lang = this.lang;
      document.title = `${t(this.lang, `page.${this.page}.title`)} · Spieltisch`;
    }
  }

  override render() {
    return html`
      <h1>${t(this.lang, `page.${this.page}.title`)}</h1>
      <p>${t(this.lang, 'page.later')}</p>
      <p><a href="/display?lang=${this.lang}">${t(this.lang, 'page.toDisplay')}</a></p>
      <lang-toggle .lang=${this.lang} @lang-change=${this.onLangChange}></lang-toggle>
    `;
  }

  private readonly onLangChange = (event: LangChangeEvent): void => {
    this.lang = event.detail.lang;
    rememberLang(this.lang);
  };
}

customElements.define('coming-later', ComingLater);
