// `spieltisch serve --mqtt` and `spieltisch broadcast` as the README runs them: real processes, a
// real Mosquitto, and the tournament display's /api/boards; and the options' usage errors.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../server/cli.ts';
import type { BoardRecord, BrokerState } from '../../server/mqtt/index.ts';
import { TestBroker, mosquittoPath } from './broker.ts';

const bin = fileURLToPath(new URL('../../bin/spieltisch.js', import.meta.url));

let broker: TestBroker | null = null;
const children: ChildProcess[] = [];
/** Key files for the tests: the site verein's key, the broadcast service's list, and bad ones. */
const dir = mkdtempSync(join(tmpdir(), 'spieltisch-keys-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const VEREIN_KEY = file('verein.key', 'dGhlIHZlcmVpbiBrZXkgZm9yIHRlc3Rz\n');
const KEYS = file('keys.txt', '# site key\nverein dGhlIHZlcmVpbiBrZXkgZm9yIHRlc3Rz\n');

beforeAll(() => {
  mosquittoPath();
  return () => rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
  await broker?.close();
  broker = null;
});

interface Running {
  readonly child: ChildProcess;
  output: string;
}

/** Starts the command and resolves once a line of its output matches `ready` (its first group is returned). */
function run(args: readonly string[], ready: RegExp): Promise<{ running: Running; match: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const running: Running = { child, output: '' };
  return new Promise((resolve, reject) => {
    const take = (chunk: Buffer) => {
      running.output += String(chunk);
      const match = ready.exec(running.output);
      if (match) resolve({ running, match: match[1] });
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => reject(new Error(`spieltisch ${args[0]} exited (${code}):\n${running.output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

async function boards(port: number): Promise<{ broker: BrokerState; boards: BoardRecord[] }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/boards`);
  return (await response.json()) as { broker: BrokerState; boards: BoardRecord[] };
}

describe('serve --mqtt and broadcast, as processes', () => {
  test('two tables that sign appear on the tournament display with their moves, one that does not never; one that stops goes offline', async () => {
    broker = await TestBroker.start({ persistence: false });
    const { match: port } = await run(
      ['broadcast', '--mqtt', broker.url, '--http', '0', '--listen', '127.0.0.1', '--client-id', `cli-${randomBytes(4).toString('hex')}`, '--keys', KEYS],
      /tournament display at http:\/\/localhost:(\d+)/,
    );
    const tables = await Promise.all(
      [1, 2, 3].map((n) =>
        run(
          [
            'serve',
            '--simulate',
            '--sim-speed',
            '40',
            '--seed',
            String(n),
            '--http',
            '0',
            '--listen',
            '127.0.0.1',
            '--db',
            ':memory:',
            '--mqtt',
            broker!.url,
            '--site',
            'verein',
            '--board-name',
            `tisch-${n}`,
            // The third table has no key: the broadcast service, which has the site's, drops what it says.
            ...(n < 3 ? ['--mqtt-key', VEREIN_KEY] : []),
          ],
          /publishing to mqtt:\/\/\S+ as (spieltisch\/\S+)/,
        ),
      ),
    );
    expect(tables.map((t) => t.match).sort()).toEqual(['spieltisch/verein/tisch-1', 'spieltisch/verein/tisch-2', 'spieltisch/verein/tisch-3']);

    const api = Number(port);
    let seen: BoardRecord[] = [];
    for (let i = 0; i < 600 && !(seen.length === 2 && seen.every((b) => b.record.length >= 3)); i++) {
      seen = (await boards(api)).boards;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.map((b) => [b.key, b.presence, b.game])).toEqual([
      ['verein/tisch-1', 'online', 'kalaha'],
      ['verein/tisch-2', 'online', 'kalaha'],
    ]);
    expect(seen.every((b) => b.record.length >= 3)).toBe(true);
    const one = await fetch(`http://127.0.0.1:${api}/api/boards/verein/tisch-1`);
    expect(((await one.json()) as BoardRecord).key).toBe('verein/tisch-1');
    expect((await fetch(`http://127.0.0.1:${api}/api/boards/verein/nobody`)).status).toBe(404);

    // A table that stops says goodbye: offline, its last picture kept.
    await stop(tables[0].running.child);
    let gone: BoardRecord | undefined;
    for (let i = 0; i < 300 && gone?.presence !== 'offline'; i++) {
      gone = (await boards(api)).boards.find((b) => b.key === 'verein/tisch-1');
      if (gone?.presence !== 'offline') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(gone?.presence).toBe('offline');
    expect(gone?.record.length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});

describe('the MQTT options', () => {
  const io = (): Io & { errors: string[] } => {
    const errors: string[] = [];
    return { errors, out: () => {}, err: (line) => errors.push(line), stdin: async () => '' };
  };

  test.each([
    ['--site without --mqtt', ['serve', '--site', 'verein'], /need --mqtt/],
    ['--board-name without --mqtt', ['serve', '--board-name', 'tisch-1'], /need --mqtt/],
    ['a broker address that is not one', ['serve', '--mqtt', 'localhost:1883'], /--mqtt must/],
    ['a board name with a slash', ['serve', '--mqtt', 'mqtt://127.0.0.1:1', '--board-name', 'a/b'], /--board-name must be/],
    ['a site with a wildcard', ['serve', '--mqtt', 'mqtt://127.0.0.1:1', '--site', 'v+'], /--site must be/],
    ['broadcast without a broker', ['broadcast'], /broadcast needs --mqtt/],
    ['broadcast with a bad port', ['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', '--http', 'x'], /--http must be/],
    ['--mqtt-key without --mqtt', ['serve', '--mqtt-key', VEREIN_KEY], /need --mqtt/],
    ['a key file that is not there', ['serve', '--mqtt', 'mqtt://127.0.0.1:1', '--mqtt-key', join(dir, 'nothing.key')], /does not exist/],
    ['a key file that is a folder', ['serve', '--mqtt', 'mqtt://127.0.0.1:1', '--mqtt-key', dir], /is a folder/],
    ['a key too short to be safe', ['serve', '--mqtt', 'mqtt://127.0.0.1:1', '--mqtt-key', file('short.key', 'abc\n')], /shorter than 16/],
    ['a keys line without a key', ['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', '--keys', file('half.txt', 'verein\n')], /line 1 must be a site and its key/],
    ['a keys line naming no site', ['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', '--keys', file('wild.txt', 'v+ dGhlIHZlcmVpbiBrZXkgZm9yIHRlc3Rz\n')], /is not a site name/],
    ['no room for any board', ['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', '--max-boards', '0'], /--max-boards must be/],
    ['boards never forgotten', ['broadcast', '--mqtt', 'mqtt://127.0.0.1:1', '--forget-after', '0'], /--forget-after must be/],
  ])('%s is a usage error', async (_name, argv, message) => {
    const out = io();
    expect(await main(argv, out)).toBe(2);
    expect(out.errors[0]).toMatch(message);
  });
});
