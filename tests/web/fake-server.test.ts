// The fake server speaks the real message types: folded through the page's state logic, its script ends where it should.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../server/http/messages.ts';
import { EMPTY_TABLE, applyMessage, parseServerMessage } from '../../web/src/connection/state.ts';
import { playRecord, script, startFakeServer, type FakeServer } from './fake-server.ts';

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function collect(url: string, count: number): Promise<ServerMessage[]> {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url);
    const got: ServerMessage[] = [];
    socket.on('message', (data) => {
      const message = parseServerMessage(String(data));
      if (!message) return fail(new Error(`unreadable: ${String(data)}`));
      got.push(message);
      if (got.length === count) {
        socket.close();
        done(got);
      }
    });
    socket.on('error', fail);
  });
}

describe('fake server', () => {
  it('sows the rulebook example: after C e F, d captures the two stones in C', () => {
    const steps = playRecord(['C', 'e', 'F', 'd']);
    const d = steps[3];
    expect(d.captures).toEqual([2]);
    expect(d.afterSow[2]).toBe(2);
    expect(d.afterSow[1]).toBe(6);
    expect(d.settled.stores).toEqual({ south: 0, north: 2 });
    // Like the server's view: the capture already counted, the pit listed until its stones are carried.
    expect(d.sown.pits[2]).toBe(0);
    expect(d.sown.pending).toEqual([{ pit: 2, store: 'north', reason: 'capture' }]);
    expect(d.settled.pits.reduce((a, b) => a + b, 0) + 2).toBe(48);
  });

  it('plays the live script to its end over a real socket, the stale update ignored', async () => {
    server = await startFakeServer({ scenario: 'live', port: 0, interval: 2, dist: tmpdir() });
    const { onConnect, later } = script('live');
    const messages = await collect(`ws://127.0.0.1:${server.port}/ws`, onConnect.length + later.length);
    const table = messages.reduce(applyMessage, EMPTY_TABLE);
    expect(table.record).toEqual(['C', 'e', 'F', 'd']);
    expect(table.stateId).toBe(15);
    // The stale update (14) still had the captured stones pending; the page must show them carried.
    expect(table.view?.pending).toEqual([]);
    expect(table.view?.stores).toEqual({ south: 0, north: 2 });
    expect(table.alerts.map((a) => a.code)).toEqual(['referee/mismatch']);
    expect(table.board?.framesPerSecond).toBe(19);
  });

  it('serves pages the way the real server should: / and /display, never outside its folder', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'spieltisch-dist-'));
    try {
      await writeFile(join(dist, 'index.html'), 'index');
      await writeFile(join(dist, 'display.html'), 'display');
      await mkdir(join(dist, 'assets'));
      await writeFile(join(dist, 'assets', 'a.js'), 'js');
      server = await startFakeServer({ scenario: 'down', port: 0, dist });
      const get = async (path: string) => {
        const res = await fetch(`${server!.url}${path}`);
        return [res.status, await res.text()] as const;
      };
      expect(await get('/')).toEqual([200, 'index']);
      expect(await get('/display')).toEqual([200, 'display']);
      expect(await get('/assets/a.js')).toEqual([200, 'js']);
      expect((await get('/%2e%2e/etc/passwd'))[0]).toBe(404);
      expect((await get('/referee'))[0]).toBe(404);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});
