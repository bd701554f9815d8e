// Strict JSON text for the log: what is written must read back as the same value.
import { GameLogInputError } from './errors.ts';

/**
 * JSON.stringify silently turns NaN into null, a Date into a string, a Map into {} and drops
 * functions; a game log that replays must not lose data that way, so anything that would not
 * read back as itself is refused. The one allowance: an object property whose value is
 * `undefined` is left out, as TypeScript's optional fields expect.
 */
export function toJsonText(value: unknown, what: string): string {
  checkJson(value, what, new Set());
  return JSON.stringify(value);
}

function checkJson(value: unknown, path: string, open: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notJson(path, `is ${value}, which JSON cannot hold`);
    return;
  }
  if (typeof value !== 'object') throw notJson(path, `is ${describe(value)}, which JSON cannot hold`);
  if (open.has(value)) throw notJson(path, 'contains itself');
  open.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      // A hole or `undefined` in an array would come back as null.
      if (value[i] === undefined) throw notJson(`${path}[${i}]`, 'is undefined, which JSON cannot hold in an array');
      checkJson(value[i], `${path}[${i}]`, open);
    }
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw notJson(path, `is ${describe(value)}, not plain data (use plain objects, arrays, strings, numbers, booleans, null)`);
    }
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) checkJson(item, `${path}.${key}`, open);
    }
  }
  open.delete(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') return `a ${(value as object).constructor?.name ?? 'object'}`;
  return `a ${typeof value}`;
}

const notJson = (path: string, why: string) => new GameLogInputError('store/not-json', `${path} ${why}`);
