// How a page's link to the server is doing, and how long to wait before trying again.

export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 10_000;
/** A socket that has not opened by then is given up and retried (a dropped Wi-Fi can hang it for minutes). */
export const OPEN_TIMEOUT_MS = 5_000;

export type LinkStatus =
  | { readonly phase: 'connecting'; readonly attempt: number }
  | { readonly phase: 'open' }
  | { readonly phase: 'waiting'; readonly attempt: number; readonly retryAt: number };

export const FIRST_LINK: LinkStatus = { phase: 'connecting', attempt: 0 };

/**
 * The wait before reconnect attempt `attempt` (0 = first retry): doubling from 0.5 s up to 10 s.
 * A server restart drops every display at once, so each wait is spread by ±25 % (`random` in [0, 1))
 * to keep them from all knocking in the same instant.
 */
export function reconnectDelay(attempt: number, random: number): number {
  const base = RECONNECT_MIN_MS * 2 ** Math.max(0, attempt);
  const spread = base * (0.75 + 0.5 * random);
  return Math.round(Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_MIN_MS, spread)));
}

/** Whole seconds until the next try, for "retrying in 3 s"; null when not waiting. */
export function secondsUntilRetry(link: LinkStatus, now: number): number | null {
  if (link.phase !== 'waiting') return null;
  return Math.max(0, Math.ceil((link.retryAt - now) / 1000));
}

/** `ws(s)://<host>/ws` for the page's own server. */
export function socketUrl(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}
