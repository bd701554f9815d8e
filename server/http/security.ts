// Who may change a game and how much any client may cost the table: the referee token, security headers, request
// bodies, the WebSocket's limits per connection. README.md, "Security", says why each limit is what it is.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { MAX_TOKEN_LENGTH } from './schemas.ts';

/**
 * The built pages load their scripts, styles and data from this server only; nothing inline, nothing framed.
 * Lit's styles are constructed style sheets, which `style-src 'self'` allows; a style *attribute* is refused, and
 * with it a Lit `style="…${x}"` binding or `styleMap` on its first render (set a property or a class instead).
 * `connect-src 'self'` covers the page's own `ws:`/`wss:` in every current browser.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

/** Sets the security headers on every response, pages and API alike. */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  };
}

/** Constant-time comparison of tokens of any length (both are hashed first, so neither length nor content leaks). */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization') ?? '';
  return /^Bearer (.+)$/i.exec(header)?.[1];
}

/** Whether the request carries the referee token, as `authorize` judges it; an absent or over-long one never does. */
export function carriesToken(req: Request, authorize: (token: string) => boolean): boolean {
  const given = bearerToken(req);
  return given !== undefined && given.length <= MAX_TOKEN_LENGTH && authorize(given);
}

/**
 * The last error handler: a body that could not be read is a 4xx with a JSON body saying why; anything else is a
 * 500 that names no internals. Routers with their own handler (api.ts) answer first.
 */
export function httpErrors(): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const e = error as { status?: unknown; type?: unknown; limit?: unknown };
    const refusal = bodyRefusal(e);
    if (refusal) return res.status(refusal.status).json({ error: refusal.code, message: refusal.message });
    res.status(500).json({ error: 'server/internal', message: 'The server could not answer this request.' });
  };
}

function bodyRefusal(e: { status?: unknown; type?: unknown; limit?: unknown }): { status: number; code: string; message: string } | null {
  if (!e || typeof e !== 'object') return null;
  switch (e.type) {
    case 'entity.too.large':
      return { status: 413, code: 'api/too-large', message: `The body is larger than the ${String(e.limit)} bytes this request may be.` };
    case 'entity.parse.failed':
      return { status: 400, code: 'api/bad-json', message: 'The body is not valid JSON.' };
    case 'charset.unsupported':
      return { status: 415, code: 'api/unsupported-charset', message: 'Send the body as UTF-8.' };
    case 'encoding.unsupported':
      return { status: 415, code: 'api/unsupported-encoding', message: 'The body’s Content-Encoding is not one the server reads (gzip, deflate, identity).' };
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return { status: e.status, code: 'api/bad-body', message: 'The request body could not be read.' };
  return null;
}

// ——— The WebSocket ———

/** The largest WebSocket message a client may send; a console command is under 200 bytes. Larger: closed with 1009. */
export const MAX_MESSAGE_BYTES = 4096;

/** The largest amount of unsent data a slow page may have before it is dropped (it reconnects and syncs). */
export const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * How many messages one connection may send: a burst, then a steady rate. A referee taps a few times a second at
 * most, and a display sends nothing. A message the server cannot read costs `GARBAGE_COST`, a wrong token
 * `BAD_TOKEN_COST`: guessing tokens goes slowly even on one connection.
 */
export const MESSAGE_BURST = 20;
export const MESSAGES_PER_SECOND = 5;
export const GARBAGE_COST = 4;
export const BAD_TOKEN_COST = 5;

/** Close codes a dropped client sees (RFC 6455 §7.4.1). */
export const CLOSE_POLICY = 1008;
/** How long a dropped client has to answer the close before its connection is cut. */
export const CLOSE_GRACE_MS = 1000;

/**
 * A token bucket: `capacity` tokens, refilled at `perSecond`; `take` spends some or says the client is over its
 * limit. Time comes in from the caller, so the bucket is tested without a clock.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Spends `cost` tokens at time `now` (ms); false when there are not enough (nothing is spent then). */
  take(cost: number, now: number): boolean {
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.perSecond) / 1000);
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

/**
 * Whether a page at `origin` may sign in as the referee on a connection to `host`: pages this server served (same
 * host and port), and any in `allowed`. No Origin at all is a program, not a browser page; it still needs the token.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[] = []): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return host !== undefined && url.host === host.toLowerCase();
}
