// Which language a page shows: `?lang=` first, then the visitor's last choice, then German.
import { DEFAULT_LANG, isLang, type Lang } from './catalogue.ts';

const STORAGE_KEY = 'spieltisch.lang';

/** Pure, so the order of precedence can be tested without a browser. */
export function chooseLang(search: string, stored: string | null): Lang {
  const asked = new URLSearchParams(search).get('lang');
  if (isLang(asked)) return asked;
  if (isLang(stored)) return stored;
  return DEFAULT_LANG;
}

function storedLang(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    // Private windows and locked-down kiosks may refuse storage; the URL still works.
    return null;
  }
}

export function initialLang(): Lang {
  return chooseLang(location.search, storedLang());
}

/** Remembers a choice across reloads and keeps the address shareable (`?lang=en`). */
export function rememberLang(lang: Lang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // See storedLang.
  }
  const url = new URL(location.href);
  url.searchParams.set('lang', lang);
  history.replaceState(history.state, '', url);
  document.documentElement.lang = lang;
}
