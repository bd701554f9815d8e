// A pretend serial port on serialport's MockBinding: the service side is a real SerialPortStream, the board side injects and hears bytes.
import { createRequire } from 'node:module';
import { SerialPortStream } from '@serialport/stream';

/** The part of MockBinding's port this module uses. */
interface MockPortBinding {
  readonly isOpen: boolean;
  emitData(data: Buffer | string): void;
  write(buffer: Buffer): Promise<void>;
}

/** The part of MockBinding this module uses (it implements serialport's BindingInterface). */
interface MockBindingInterface {
  createPort(path: string, options?: { readonly echo?: boolean; readonly record?: boolean }): void;
  list(): Promise<unknown[]>;
  open(options: { readonly path: string; readonly baudRate: number }): Promise<MockPortBinding>;
}

// Loaded through require, for two reasons: the package's types are not reachable through its exports
// map under `moduleResolution: Bundler` (so the little used is typed above), and the CommonJS instance
// is the one serialport's own SerialPortMock uses, so both see the same mock ports.
const { MockBinding } = createRequire(import.meta.url)('@serialport/binding-mock') as { MockBinding: MockBindingInterface };

type WriteListener = (bytes: Buffer) => void;

/**
 * Both ends of a mock serial line. The service reads `stream` exactly as it reads a SerialPort
 * (the two differ only in the binding); the board end calls `emit` to send bytes and `onWrite`
 * to hear what the service wrote.
 */
export class MockBoardPort {
  private readonly listeners: WriteListener[] = [];
  private readonly writes: Buffer[] = [];
  private port: MockPortBinding | null = null;

  private constructor(
    readonly path: string,
    readonly stream: SerialPortStream,
  ) {}

  /** @internal */
  static async open(path: string, baudRate: number): Promise<MockBoardPort> {
    MockBinding.createPort(path, { echo: false, record: false });
    let board: MockBoardPort | null = null;
    // A binding that is MockBinding in every respect but one: writes are also handed to the board end.
    // Wrapping the binding, not the stream, keeps the service's side byte-for-byte what a real port does.
    const binding: MockBindingInterface = {
      ...MockBinding,
      async open(options: { readonly path: string; readonly baudRate: number }) {
        const port = await MockBinding.open(options);
        const write = port.write.bind(port);
        port.write = async (buffer: Buffer): Promise<void> => {
          await write(buffer);
          board?.heard(Buffer.from(buffer));
        };
        return port;
      },
    };
    const stream = new SerialPortStream({ binding, path, baudRate, autoOpen: false });
    board = new MockBoardPort(path, stream);
    await new Promise<void>((resolve, reject) => stream.open((err) => (err ? reject(err) : resolve())));
    board.port = (stream.port as MockPortBinding | undefined) ?? null;
    return board;
  }

  get isOpen(): boolean {
    return this.port !== null && this.port.isOpen;
  }

  /** Bytes from the board to the service. Returns false (and drops them) once the port is closed, like a cable pulled mid-line. */
  emit(bytes: Buffer | string): boolean {
    if (!this.isOpen) return false;
    this.port!.emitData(bytes);
    return true;
  }

  /** Hears every chunk the service writes. Returns a function that stops listening. */
  onWrite(listener: WriteListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Everything the service has written so far (tests read commands from it). */
  written(): Buffer {
    return Buffer.concat(this.writes);
  }

  close(): Promise<void> {
    if (!this.stream.isOpen) return Promise.resolve();
    return new Promise<void>((resolve) => this.stream.close(() => resolve()));
  }

  private heard(bytes: Buffer): void {
    this.writes.push(bytes);
    for (const listener of this.listeners.slice()) listener(bytes);
  }
}

let mockPorts = 0;

/** Creates a mock port (a fresh path unless one is given) and opens its service side. */
export function openMockPort(path?: string, baudRate = 115200): Promise<MockBoardPort> {
  mockPorts++;
  return MockBoardPort.open(path ?? `sim/board-${mockPorts}`, baudRate);
}
