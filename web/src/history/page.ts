// What the history and statistics pages share: their look, the bar with the pages' links and the language switch,
// the message shown when a request failed, and in-page navigation that keeps real links.
import { css, html, nothing, type TemplateResult } from 'lit';
import { t, type Lang } from '../i18n/catalogue.ts';
import type { LangChangeEvent } from '../common/index.ts';
import type { ApiProblem } from './api.ts';
import { problemLines } from './format.ts';

export const pageStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    max-width: 80rem;
    margin: 0 auto;
    padding: 1rem clamp(0.75rem, 3vw, 2rem) 3rem;
    line-height: 1.45;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  a {
    color: var(--sown, #56b4e9);
  }
  a:focus-visible,
  button:focus-visible,
  select:focus-visible,
  input:focus-visible {
    outline: 3px solid var(--diff, #f0e442);
    outline-offset: 2px;
  }
  header.bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1.25rem;
    margin-bottom: 1rem;
  }
  header.bar nav {
    display: flex;
    gap: 1rem;
    flex: 1;
  }
  header.bar nav a {
    text-decoration: none;
    font-weight: 600;
    padding: 0.25rem 0;
    border-bottom: 3px solid transparent;
  }
  header.bar nav a[aria-current='page'] {
    color: var(--text, #fff);
    border-bottom-color: var(--text, #fff);
  }
  h1 {
    font-size: clamp(1.5rem, 4vw, 2.25rem);
    margin: 0 0 0.75rem;
  }
  h2 {
    font-size: 1.25rem;
    margin: 0 0 0.5rem;
  }
  section,
  .panel {
    background: var(--panel, #1b1b1e);
    border-radius: 0.75rem;
    padding: 1rem;
  }
  .muted {
    color: var(--muted, #c8c8c8);
  }
  .problem {
    border-left: 6px solid var(--error, #d55e00);
    background: var(--panel, #1b1b1e);
    padding: 1rem;
    border-radius: 0.5rem;
  }
  .problem p {
    margin: 0 0 0.5rem;
    font-size: 1.15rem;
  }
  .problem small {
    color: var(--muted, #c8c8c8);
  }
  .empty {
    font-size: 1.15rem;
    padding: 1.5rem 1rem;
    background: var(--panel, #1b1b1e);
    border-radius: 0.75rem;
  }
  button,
  select,
  input {
    font: inherit;
    color: var(--text, #fff);
    background: var(--bg, #0b0b0c);
    border: 2px solid var(--muted, #c8c8c8);
    border-radius: 0.4rem;
    min-height: 2.5rem;
    padding: 0.2rem 0.5rem;
  }
  button {
    cursor: pointer;
    font-weight: 600;
  }
  button:disabled {
    opacity: 0.4;
    cursor: default;
  }
  input[type='date'] {
    color-scheme: dark;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.75rem 1rem;
    margin-bottom: 1rem;
  }
  .filters label {
    display: grid;
    gap: 0.2rem;
    font-size: 0.9rem;
    color: var(--muted, #c8c8c8);
  }
  .filters select,
  .filters input {
    min-width: 9rem;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

export type PageName = 'games' | 'stats';

/** The links between the pages and the language switch. */
export function pageBar(lang: Lang, current: PageName, onLang: (event: LangChangeEvent) => void): TemplateResult {
  const link = (page: PageName | 'display', href: string) =>
    html`<a href="${href}?lang=${lang}" aria-current=${page === current ? 'page' : 'false'}>${t(lang, `history.nav.${page}`)}</a>`;
  return html`<header class="bar">
    <nav aria-label=${t(lang, 'history.nav.label')}>${link('games', '/games')} ${link('stats', '/stats')} ${link('display', '/display')}</nav>
    <lang-toggle .lang=${lang} @lang-change=${onLang}></lang-toggle>
  </header>`;
}

/** A failed request in words, the code in small print, and a way to try again. */
export function problemBox(lang: Lang, problem: ApiProblem, retry?: () => void): TemplateResult {
  const { text, detail } = problemLines(lang, problem);
  return html`<div class="problem" role="alert">
    <p>${text}</p>
    ${detail ? html`<small>${detail}</small>` : nothing}
    ${retry ? html`<div><button @click=${retry}>${t(lang, 'history.retry')}</button></div>` : nothing}
  </div>`;
}

/**
 * For a link inside the page: a plain left click stays in the page (the caller pushes the address); a click with a
 * modifier, or a middle click, is left to the browser, so "open in a new tab" still works.
 */
export function inPage(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  event.preventDefault();
  return true;
}
