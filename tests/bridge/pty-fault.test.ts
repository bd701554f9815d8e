// A real serial port (a socat pty) whose device goes away is always noticed, whatever its read was doing at that moment.
import { afterEach, describe, expect, test } from 'vitest';
import { SerialBoard, formatLine, type LinkState } from '../../firmware-bridge/index.ts';
import { PtyCable, ptyFolder, stopAllSocat } from './pty.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await stopAllSocat();
});

async function waitFor(cond: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a serial device that goes away', () => {
  test('is seen to go every time, with its port reading, waiting, or idle', async () => {
    const folder = ptyFolder();
    cleanups.push(() => folder.remove());
    const hello = formatLine('HELLO proto=1 fw=test/1 board=kalaha id=P1 cells=14');
    const noticed: LinkState[][] = [];
    // The port being read at the moment of the pull is the case a naive binding never notices:
    // its tty reads end-of-file, not an error. Pulls at several moments of a busy line hit it.
    for (const delayMs of [0, 3, 10, 25, 60, 0, 5, 15]) {
      const cable = new PtyCable(folder.dir, `p${noticed.length}`);
      cleanups.push(() => cable.close());
      await cable.plug();
      cable.onBytes = (bytes) => {
        if (bytes.toString('latin1').includes('HELLO?')) cable.write(hello);
      };
      // No watchdog or reopening in this test: only the port closing may say the device went.
      const serial = await SerialBoard.open({ path: cable.servicePath, watchdogMs: 600_000, reopenAfterMs: 600_000 });
      cleanups.push(() => serial.close());
      const states: LinkState[] = [];
      serial.on('state', (s) => states.push(s));
      const busy = setInterval(() => cable.write(formatLine('HB 1 1000')), 1);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      clearInterval(busy);
      await cable.pull();
      await waitFor(() => states.length > 0, `the pull after ${delayMs} ms to be noticed`);
      noticed.push(states);
      await serial.close();
    }
    expect(noticed).toEqual(Array.from({ length: 8 }, () => ['reconnecting']));
  }, 60_000);
});
