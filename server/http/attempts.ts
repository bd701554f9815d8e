// Token guesses per address, across connections and routes: a few wrong tokens, then a delay that doubles with each
// further one, shared by the WebSocket's `auth` and every HTTP Bearer check (README.md, "Security").
import { isIPv6 } from 'node:net';
import type { Request } from 'express';
import { bearerToken, sameToken } from './security.ts';
import { MAX_TOKEN_LENGTH } from './schemas.ts';

/** Wrong tokens an address may send before it must wait: a referee mistyping a few times never notices. */
export const FREE_FAILURES = 5;
/** The wait after the first failure past the free ones; each further failure doubles it. */
export const FIRST_DELAY_MS = 1000;
/** The longest wait: a guesser gets one try in this long, a referee locked out by a neighbour waits no longer. */
export const MAX_DELAY_MS = 5 * 60_000;
/** An address that sent no wrong token for this long starts afresh. */
export const FORGET_AFTER_MS = 60 * 60_000;
/** Addresses remembered at most; the one quiet longest is forgotten first, so a flood of addresses costs bounded memory. */
export const MAX_ADDRESSES = 10_000;
/** At most one line on stderr per address in this long, however many attempts it makes. */
export const LOG_PERIOD_MS = 60_000;
/** And at most this many lines in a period for all addresses together: a flood from many addresses is summed up. */
export const MAX_LOG_LINES_PER_PERIOD = 20;

/** What a token check came to. `retryAfterMs`: how long the address must wait before it is heard again. */
export type TokenCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'missing' | 'wrong' }
  | { readonly ok: false; readonly reason: 'too-many'; readonly retryAfterMs: number };

interface Failures {
  count: number;
  lastFailure: number;
  /** Attempts are refused unheard until then. */
  blockedUntil: number;
  /** Attempts refused unheard since the last line logged about this address. */
  refusedSinceLine: number;
  /** When a line was last logged about this address; -Infinity: never. */
  lineAt: number;
}

export interface TokenGuardOptions {
  /** A line for the operator (stderr); never given a token. */
  readonly log?: (line: string) => void;
  /** Monotonic time in ms; the tests step it by hand. */
  readonly now?: () => number;
  readonly maxAddresses?: number;
}

/**
 * The referee token and the record of wrong ones by address. Every check goes through `check`: an address waiting
 * out its delay is refused without its token being compared, so even the right one is not heard until the wait is
 * over (else the delay would not slow a guesser down). The right token clears the address's record.
 */
export class TokenGuard {
  private readonly failures = new Map<string, Failures>();
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private readonly maxAddresses: number;
  private periodStart = -Infinity;
  private linesInPeriod = 0;
  private unloggedAddresses = 0;

  constructor(
    private readonly token: string,
    options: TokenGuardOptions = {},
  ) {
    this.log = options.log ?? (() => {});
    this.now = options.now ?? (() => performance.now());
    this.maxAddresses = options.maxAddresses ?? MAX_ADDRESSES;
  }

  /** Judges `given` (undefined: no token at all, which is no guess) from `address` (the peer's IP). */
  check(address: string | undefined, given: string | undefined): TokenCheck {
    const key = addressKey(address);
    const now = this.now();
    const record = this.current(key, now);
    if (record && now < record.blockedUntil) {
      record.refusedSinceLine++;
      this.report(key, record, now);
      return { ok: false, reason: 'too-many', retryAfterMs: record.blockedUntil - now };
    }
    if (given === undefined) return { ok: false, reason: 'missing' };
    if (given.length <= MAX_TOKEN_LENGTH && sameToken(given, this.token)) {
      if (record) this.failures.delete(key);
      return { ok: true };
    }
    this.fail(key, record, now);
    return { ok: false, reason: 'wrong' };
  }

  /** How many addresses are remembered (bounded by `maxAddresses`). */
  get size(): number {
    return this.failures.size;
  }

  /** The address's record, unless it has been quiet long enough to be forgotten. */
  private current(key: string, now: number): Failures | undefined {
    const record = this.failures.get(key);
    if (record && now - record.lastFailure >= FORGET_AFTER_MS && now >= record.blockedUntil) {
      this.failures.delete(key);
      return undefined;
    }
    return record;
  }

  private fail(key: string, found: Failures | undefined, now: number): void {
    const record = found ?? { count: 0, lastFailure: now, blockedUntil: 0, refusedSinceLine: 0, lineAt: -Infinity };
    record.count++;
    record.lastFailure = now;
    const past = record.count - FREE_FAILURES;
    if (past > 0) record.blockedUntil = now + Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(past - 1, 30));
    // Re-inserted, so the Map's order is the order of last failure and the first key is the one quiet longest.
    this.failures.delete(key);
    this.failures.set(key, record);
    while (this.failures.size > this.maxAddresses) this.failures.delete(this.failures.keys().next().value as string);
    if (past > 0) this.report(key, record, now);
  }

  /** One line per address per period, and a bounded number in all: the attempts are counted, never the tokens. */
  private report(key: string, record: Failures, now: number): void {
    if (now - record.lineAt < LOG_PERIOD_MS) return;
    if (now - this.periodStart >= LOG_PERIOD_MS) {
      if (this.unloggedAddresses > 0) this.log(`security: wrong referee tokens from ${this.unloggedAddresses} more address(es) in the last minute were not logged one by one`);
      this.periodStart = now;
      this.linesInPeriod = 0;
      this.unloggedAddresses = 0;
    }
    if (this.linesInPeriod >= MAX_LOG_LINES_PER_PERIOD) {
      this.unloggedAddresses++;
      record.lineAt = now;
      return;
    }
    this.linesInPeriod++;
    const refused = record.refusedSinceLine ? `, ${record.refusedSinceLine} attempt(s) refused unheard since the last line` : '';
    this.log(`security: ${record.count} wrong referee token(s) from ${key}${refused}; it is not heard for ${Math.ceil((record.blockedUntil - now) / 1000)} s`);
    record.lineAt = now;
    record.refusedSinceLine = 0;
  }
}

/**
 * Whose attempts count together: an IPv4 address, or an IPv6 address's /64 (one host is given a whole /64 and may
 * pick any address in it). An IPv4 address mapped into IPv6 (`::ffff:192.0.2.7`) is that IPv4 address.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` filled in, zone dropped, leading zeros dropped. */
function expandIPv6(address: string): string[] {
  const [bare] = address.toLowerCase().split('%');
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 is handled above; 64:ff9b::1.2.3.4 here) is two groups.
  const last = right.length ? right : left;
  if (last.length && last[last.length - 1].includes('.')) {
    const [a, b, c, d] = last.pop()!.split('.').map(Number);
    last.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => (Number.parseInt(group, 16) || 0).toString(16));
}

/** An HTTP request's Bearer token judged by `guard`, by the address the request came from. */
export function bearerCheck(guard: TokenGuard, req: Request): TokenCheck {
  return guard.check(req.socket.remoteAddress, bearerToken(req));
}

/** Whole seconds to wait, as Retry-After and the refusals' `params.seconds` give them (at least 1). */
export function retrySeconds(check: { readonly retryAfterMs: number }): number {
  return Math.max(1, Math.ceil(check.retryAfterMs / 1000));
}
