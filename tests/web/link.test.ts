// Reconnect waits and the socket address.
import { describe, expect, it } from 'vitest';
import {
  RECONNECT_MAX_MS,
  RECONNECT_MIN_MS,
  reconnectDelay,
  secondsUntilRetry,
  socketUrl,
} from '../../web/src/connection/link.ts';

describe('reconnectDelay', () => {
  it('starts at half a second', () => {
    expect(reconnectDelay(0, 0)).toBe(500);
    expect(reconnectDelay(0, 0.5)).toBe(500);
  });

  it('doubles, then stays at ten seconds', () => {
    const waits = Array.from({ length: 8 }, (_, attempt) => reconnectDelay(attempt, 0.5));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('stays between 0.5 s and 10 s however it is spread', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      for (const random of [0, 0.25, 0.5, 0.999]) {
        const wait = reconnectDelay(attempt, random);
        expect(wait).toBeGreaterThanOrEqual(RECONNECT_MIN_MS);
        expect(wait).toBeLessThanOrEqual(RECONNECT_MAX_MS);
      }
    }
  });

  it('spreads displays that lost the server at the same moment', () => {
    expect(reconnectDelay(3, 0)).toBeLessThan(reconnectDelay(3, 0.99));
  });
});

describe('secondsUntilRetry', () => {
  it('counts whole seconds down to the retry', () => {
    const link = { phase: 'waiting', attempt: 2, retryAt: 10_000 } as const;
    expect(secondsUntilRetry(link, 7_100)).toBe(3);
    expect(secondsUntilRetry(link, 10_500)).toBe(0);
    expect(secondsUntilRetry({ phase: 'open' }, 0)).toBeNull();
  });
});

describe('socketUrl', () => {
  it('uses /ws on the page host, encrypted when the page is', () => {
    expect(socketUrl({ protocol: 'http:', host: 'spieltisch.local:3000' })).toBe('ws://spieltisch.local:3000/ws');
    expect(socketUrl({ protocol: 'https:', host: 'kalaha.example' })).toBe('wss://kalaha.example/ws');
  });
});
