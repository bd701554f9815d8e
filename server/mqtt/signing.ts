// Signed payloads: a table that has its site's key signs every payload (HMAC-SHA256 over the topic and the JSON
// text), and a broadcast service that has the key drops whatever is unsigned or signed wrongly. The signature is the
// payload's last member, `"sig"`, so a consumer without the key still reads plain JSON.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isTopicName } from './topics.ts';

/** A shorter key is guessed too easily; `openssl rand -base64 32` makes a good one. */
export const MIN_KEY_LENGTH = 16;

/** The signature member as the signer appends it; base64url of 32 bytes is 43 characters. */
const SIGNATURE = /,"sig":"([A-Za-z0-9_-]{43})"\}$/;

function mac(key: string, topic: string, body: string): Buffer {
  // The topic is signed too: a board's signed state replayed on another board's topic does not verify.
  return createHmac('sha256', key).update(topic).update('\n').update(body).digest();
}

/** `text` (a JSON object) with its signature appended as the last member. */
export function sign(key: string, topic: string, text: string): string {
  return `${text.slice(0, -1)},"sig":"${mac(key, topic, text).toString('base64url')}"}`;
}

export type Verdict = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: 'unsigned' | 'bad-signature' };

/** The payload without its signature when `key` signed it for `topic`. */
export function verify(key: string, topic: string, text: string): Verdict {
  const found = SIGNATURE.exec(text);
  if (!found) return { ok: false, reason: 'unsigned' };
  const body = `${text.slice(0, found.index)}}`;
  const given = Buffer.from(found[1], 'base64url');
  const expected = mac(key, topic, body);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true, text: body } : { ok: false, reason: 'bad-signature' };
}

/** Why a key file cannot be used, in a sentence; the caller makes it a usage error. */
export class KeyFileError extends Error {}

/** A table's key: the file's one line (`serve --mqtt-key FILE`). */
export function readKeyFile(path: string): string {
  const key = readText(path).trim();
  if (key.includes('\n')) throw new KeyFileError(`the key file ${path} must hold one line, the site's key`);
  checkKey(key, path);
  return key;
}

/**
 * The broadcast service's keys (`broadcast --keys FILE`): one `SITE KEY` per line; blank lines and lines starting
 * with `#` are skipped. A site listed here accepts signed payloads only.
 */
export function readKeysFile(path: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [i, raw] of readText(path).split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [site, key, ...rest] = line.split(/\s+/);
    const where = `${path} line ${i + 1}`;
    if (rest.length || key === undefined) throw new KeyFileError(`${where} must be a site and its key, nothing else`);
    if (!isTopicName(site)) throw new KeyFileError(`${where}: "${site}" is not a site name (letters, digits, . _ -)`);
    if (keys.has(site)) throw new KeyFileError(`${where}: the site ${site} has a key already`);
    checkKey(key, where);
    keys.set(site, key);
  }
  return keys;
}

function checkKey(key: string, where: string): void {
  if (key.length < MIN_KEY_LENGTH) throw new KeyFileError(`the key in ${where} is shorter than ${MIN_KEY_LENGTH} characters (make one with: openssl rand -base64 32)`);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new KeyFileError(code === 'ENOENT' ? `the key file ${path} does not exist` : code === 'EISDIR' ? `${path} is a folder, not a key file` : `cannot read the key file ${path} (${code ?? 'error'})`);
  }
}
