// Pseudo-terminal cables made by socat: the service opens a real serial device, a simulated board in this process writes the other end; pulling the cable kills socat.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { closePort, openSerialPort } from '../../firmware-bridge/index.ts';

/** Every socat this process started and has not seen exit: killed on exit, whatever happened to the test. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/** Kills every socat still running (for an afterEach that must leave none behind). */
export async function stopAllSocat(): Promise<void> {
  await Promise.all([...running].map((p) => stopProcess(p)));
}

function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) {
    running.delete(p);
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    // SIGTERM: socat removes its links as it goes.
    p.kill('SIGTERM');
  });
}

/** A fresh folder for the pty links of one test. */
export function ptyFolder(): { readonly dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-pty-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A USB cable between the service and a board, made of a socat pty pair. The service opens
 * `servicePath` like any serial port; this object holds the board's end. `pull()` kills socat,
 * which closes the service's port as unplugging a USB device does, and the path disappears
 * until `plug()`.
 */
export class PtyCable {
  readonly servicePath: string;
  readonly boardPath: string;
  /** Bytes the service wrote to the board. */
  onBytes: ((bytes: Buffer) => void) | null = null;
  pulls = 0;
  private socat: ChildProcess | null = null;
  private port: Duplex | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(dir: string, name = 'board') {
    this.servicePath = join(dir, `${name}-service`);
    this.boardPath = join(dir, `${name}-board`);
  }

  get plugged(): boolean {
    return this.port !== null;
  }

  async plug(): Promise<void> {
    if (this.socat) throw new Error('already plugged');
    await this.exited;
    const socat = spawn('socat', [`pty,raw,echo=0,link=${this.servicePath}`, `pty,raw,echo=0,link=${this.boardPath}`], { stdio: 'ignore' });
    running.add(socat);
    this.exited = new Promise<void>((resolve) =>
      socat.once('exit', () => {
        running.delete(socat);
        resolve();
      }),
    );
    this.socat = socat;
    const start = Date.now();
    while (!existsSync(this.servicePath) || !existsSync(this.boardPath)) {
      if (socat.exitCode !== null) throw new Error(`socat exited with ${socat.exitCode}`);
      if (Date.now() - start > 5000) throw new Error('socat made no pty pair within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const port = await openSerialPort(this.boardPath);
    port.on('data', (bytes: Buffer) => this.onBytes?.(bytes));
    port.on('error', () => {});
    this.port = port;
  }

  /** Bytes from the board; false (and dropped) while the cable is out. */
  write(bytes: string | Buffer): boolean {
    const port = this.port;
    if (!port || port.destroyed) return false;
    port.write(bytes);
    return true;
  }

  /** Pulls the cable now; resolves when socat is gone. */
  pull(): Promise<void> {
    const socat = this.socat;
    const port = this.port;
    this.socat = null;
    this.port = null;
    if (!socat) return Promise.resolve();
    this.pulls++;
    const gone = stopProcess(socat);
    return Promise.all([gone, port ? closePort(port) : undefined]).then(() => undefined);
  }

  close(): Promise<void> {
    return this.pull();
  }
}
