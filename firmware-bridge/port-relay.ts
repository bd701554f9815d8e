// A byte Duplex that outlives the ports behind it: one BoardLink reads it while cables are pulled and serial ports come and go.
import { Duplex } from 'node:stream';

/** Called once for each attached port that closes or fails. */
export type PortLost = (port: Duplex, err: Error | null) => void;

/**
 * The service's side of "the cable": bytes from whichever port is attached come out of the
 * readable side, bytes written go to that port. Between ports nothing comes out, and what is
 * written is counted and dropped, as a command sent down a pulled cable would be.
 *
 * The relay never ends because a port did; only `destroy()` (closing the link) ends it, and
 * closes the attached port with it.
 */
export class PortRelay extends Duplex {
  private port: Duplex | null = null;
  /** Chunks written while no port was attached, or that the port failed to take. */
  writesLost = 0;

  constructor(private readonly onPortLost: PortLost) {
    super({ allowHalfOpen: false });
  }

  /** The port bytes come from now, or null while none is attached. */
  get attached(): Duplex | null {
    return this.port;
  }

  /**
   * Reads from `port` from now on. `preface` (text or bytes) comes out first: the lines a
   * handshake on the port already consumed, so the link reading the relay sees them too.
   */
  attach(port: Duplex, preface?: string): void {
    if (this.port) throw new Error('a port is attached already; detach it first');
    if (this.destroyed) throw new Error('the relay is closed');
    if (preface) this.push(preface);
    this.port = port;
    port.on('data', this.onData);
    port.on('error', this.onError);
    port.on('close', this.onClose);
    port.on('end', this.onClose);
    port.resume();
  }

  /**
   * Stops reading the attached port (it is not closed) and returns it. A line the port was in
   * the middle of is ended here, so it is judged (and dropped) on its own instead of joining
   * the first bytes of the next port.
   */
  detach(): Duplex | null {
    const port = this.port;
    if (!port) return null;
    port.off('data', this.onData);
    port.off('error', this.onError);
    port.off('close', this.onClose);
    port.off('end', this.onClose);
    // A port that errors after it was let go must not crash the process.
    port.on('error', ignore);
    this.port = null;
    if (!this.destroyed) this.push('\n');
    return port;
  }

  override _read(): void {
    this.port?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const port = this.port;
    if (!port || port.destroyed || !port.writable) {
      this.writesLost++;
      return callback();
    }
    // The callback is not held for the port's: a write failing on a port that is going away is
    // that port's end, reported by its close, not the relay's.
    port.write(chunk, (err) => {
      if (err) this.writesLost++;
    });
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    const port = this.detach();
    if (port) closePort(port).then(() => callback(err), () => callback(err));
    else callback(err);
  }

  private readonly onData = (chunk: Buffer): void => {
    if (!this.push(chunk)) this.port?.pause();
  };

  private readonly onError = (err: Error): void => this.lost(err);

  private readonly onClose = (): void => this.lost(null);

  private lost(err: Error | null): void {
    const port = this.detach();
    if (port) this.onPortLost(port, err);
  }
}

function ignore(): void {}

/** Closes a port: a SerialPort through `close` (which releases the device), anything else by destroying it. */
export function closePort(port: Duplex): Promise<void> {
  const serial = port as Duplex & { close?: (cb: (err: Error | null) => void) => void; isOpen?: boolean };
  port.on('error', ignore);
  if (typeof serial.close === 'function' && serial.isOpen) {
    return new Promise<void>((resolve) => serial.close!(() => resolve()));
  }
  if (!port.destroyed) port.destroy();
  return Promise.resolve();
}
