// Where the referee token comes from: `?token=` in the address first, then this tab's session storage.
const STORAGE_KEY = 'spieltisch.refereeToken';

/** Pure, so the order of precedence can be tested without a browser. Blank tokens count as none. */
export function chooseToken(search: string, stored: string | null): { token: string | null; fromUrl: boolean } {
  const asked = new URLSearchParams(search).get('token')?.trim();
  if (asked) return { token: asked, fromUrl: true };
  const kept = stored?.trim();
  return { token: kept ? kept : null, fromUrl: false };
}

/** The address without its token, so it does not linger in the history or on a shared screen. */
export function withoutToken(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('token');
  return url.href;
}

function storage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    // Locked-down browsers may refuse storage: the token then lasts as long as the page.
    return null;
  }
}

/**
 * The token this tab should use. Session storage, not local: a console left open on a borrowed
 * phone forgets the token when the tab closes.
 */
export function initialToken(): string | null {
  const store = storage();
  let stored: string | null = null;
  try {
    stored = store?.getItem(STORAGE_KEY) ?? null;
  } catch {
    stored = null;
  }
  const { token, fromUrl } = chooseToken(location.search, stored);
  if (fromUrl && token) {
    rememberToken(token);
    history.replaceState(history.state, '', withoutToken(location.href));
  }
  return token;
}

export function rememberToken(token: string | null): void {
  try {
    if (token === null) storage()?.removeItem(STORAGE_KEY);
    else storage()?.setItem(STORAGE_KEY, token);
  } catch {
    // See storage().
  }
}
