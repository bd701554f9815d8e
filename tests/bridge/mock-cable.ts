// A board at the end of a cable that tests plug and pull: ports on serialport's MockBinding behind the PortAccess a SerialBoard opens.
import { formatLine, openMockPort, type MockBoardPort, type PortAccess, type SerialPortCandidate } from '../../firmware-bridge/index.ts';

let cables = 0;

/**
 * One USB port. While plugged, opening its path gives a fresh MockBinding port whose board end
 * answers `HELLO?` with `hello` (unless `answering` is off); pulling it closes the port under the
 * service, as the kernel does when the device goes.
 */
export class MockCable implements PortAccess {
  readonly path = `mock/cable-${++cables}`;
  plugged = true;
  answering = true;
  /** How long the board takes to answer `HELLO?` (a board busy, or a slow machine). */
  replyDelayMs = 0;
  hello: string;
  /** Board ends opened so far, the latest last. */
  readonly boards: MockBoardPort[] = [];
  opens = 0;

  constructor(hello: string, readonly vendorId = '2341') {
    this.hello = hello;
  }

  /** The board end now plugged in, if the service has opened it. */
  get board(): MockBoardPort | null {
    const b = this.boards.at(-1);
    return b && b.isOpen ? b : null;
  }

  async open(path: string) {
    this.opens++;
    if (path !== this.path || !this.plugged) throw new Error(`cannot open ${path}: No such file or directory`);
    const board = await openMockPort(path);
    board.onWrite((bytes) => {
      if (!this.answering || !bytes.toString('latin1').includes('HELLO?')) return;
      const hello = formatLine(this.hello);
      if (this.replyDelayMs > 0) setTimeout(() => board.emit(hello), this.replyDelayMs);
      else board.emit(hello);
    });
    this.boards.push(board);
    return board.stream;
  }

  async list(): Promise<SerialPortCandidate[]> {
    return this.plugged ? [{ path: this.path, manufacturer: 'Arduino (www.arduino.cc)', vendorId: this.vendorId, likelyBoard: true }] : [];
  }

  /** Sends lines from the board (each gets its checksum); false when nothing is plugged in. */
  send(...bodies: string[]): boolean {
    const board = this.board;
    return board !== null && board.emit(bodies.map((b) => formatLine(b)).join(''));
  }

  async pull(): Promise<void> {
    this.plugged = false;
    await this.board?.close();
  }

  plug(): void {
    this.plugged = true;
  }
}

/** Several cables as one machine's list of ports. */
export function machine(...cables: MockCable[]): PortAccess {
  return {
    open: (path) => {
      const cable = cables.find((c) => c.path === path);
      if (!cable) return Promise.reject(new Error(`cannot open ${path}: No such file or directory`));
      return cable.open(path);
    },
    list: async () => (await Promise.all(cables.map((c) => c.list()))).flat(),
  };
}
