// The README's Mosquitto ACL, on a real broker: a table writes its own topics only, the broadcast service reads them
// all, and a stranger without a password gets nowhere. The ACL is read from the README itself, so the two agree.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import { startBroadcast, topicOf, type Outcome, type RunningBroadcast } from '../../server/mqtt/index.ts';
import { TestBroker, mosquittoPath } from './broker.ts';
import { startTable, until, type TestTable } from './harness.ts';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The fenced block of the README that starts `# spieltisch.acl`. */
function readmeAcl(): string {
  const block = /```\n(# spieltisch\.acl[^`]*)```/.exec(readFileSync(README, 'utf8'));
  if (!block) throw new Error('the README shows no ACL starting "# spieltisch.acl"');
  return block[1];
}

let broker: TestBroker | null = null;
let broadcast: RunningBroadcast | null = null;
let tables: TestTable[] = [];
const clients: MqttClient[] = [];

beforeAll(() => {
  mosquittoPath();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await Promise.all(tables.map((t) => t.close()));
  await broadcast?.close();
  await broker?.close();
  tables = [];
  broadcast = null;
  broker = null;
});

describe('the README’s Mosquitto ACL', () => {
  test('a table writes only its own topics; the broadcast service reads every table', async () => {
    const users = { broadcast: 'pw-broadcast', 'brett-1': 'pw-brett-1', 'brett-2': 'pw-brett-2' };
    broker = await TestBroker.start({ persistence: false, auth: { users, acl: readmeAcl() } });
    const url = (user: keyof typeof users) => broker!.url.replace('mqtt://', `mqtt://${user}:${users[user]}@`);
    broadcast = await startBroadcast({ url: url('broadcast'), port: 0, listen: '127.0.0.1', clientId: `broadcast-${randomBytes(4).toString('hex')}` });
    const outcomes: Outcome[] = [];
    broadcast.subscribe((o) => outcomes.push(o));
    await until('the broadcast service is subscribed', () => broadcast!.broker().connected);
    const real = await startTable('kalaha', { url: url('brett-1'), site: 'vauban', name: 'brett-1', seed: 3, simSpeed: 40 });
    tables = [real];
    await until('brett-1 is on the display', () => (broadcast!.book.get('vauban/brett-1')?.record.length ?? 0) >= 2);

    // brett-2's table, or whoever has its password, writes brett-1's topics, then its own.
    const other = await connectAsync(url('brett-2'), { clientId: `other-${randomBytes(4).toString('hex')}` });
    clients.push(other);
    const run = { id: 'forged', log: { gameId: 999, seq: 999 } };
    const before = outcomes.length;
    await other.publishAsync(topicOf('vauban', 'brett-1', 'status'), JSON.stringify({ v: 1, status: 'offline', run }), { qos: 1, retain: true });
    await other.publishAsync(topicOf('vauban', 'brett-2', 'status'), JSON.stringify({ v: 1, status: 'online', run, game: 'kalaha', at: 1 }), { qos: 1, retain: true });
    await until('brett-2’s own status arrived', () => broadcast!.book.get('vauban/brett-2')?.presence === 'online');
    expect(outcomes.slice(before).filter((o) => o.key === 'vauban/brett-1' && o.kind === 'presence')).toEqual([]);
    expect(broadcast.book.get('vauban/brett-1')).toMatchObject({ presence: 'online', run: real.publisher.run });

    // Without a password, nothing.
    await expect(connectAsync(broker.url, { clientId: `anonymous-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad username/i);
  }, 60_000);
});
