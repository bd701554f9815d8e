// Finding the board: which serial ports may be one (USB vendor ids, device names), and a HELLO handshake on each to be sure.
import type { Duplex } from 'node:stream';
import { BoardLink, DEFAULT_BAUD_RATE, listSerialPorts, openSerialPort, type HandshakeOptions, type SerialPortCandidate } from './link.ts';
import { closePort } from './port-relay.ts';
import type { HelloMessage } from './protocol.ts';

/** How ports are listed and opened: serialport on a real machine; a test may open pseudo-terminals or mock ports. */
export interface PortAccess {
  /** Resolves with the open port; the port emits `close` when the device goes away. */
  open(path: string): Promise<Duplex>;
  list(): Promise<SerialPortCandidate[]>;
}

/** The machine's serial ports through serialport. */
export function serialPorts(baudRate = DEFAULT_BAUD_RATE): PortAccess {
  return {
    open: (path) => openSerialPort(path, baudRate),
    list: async () => {
      try {
        return await listSerialPorts();
      } catch (e) {
        // On Linux serialport lists ports through udevadm.
        throw new Error(`cannot list serial ports (${(e as Error).message}); on Debian the udev package provides udevadm. Or name the port with --port`);
      }
    },
  };
}

/** What must be true of the board that answers. */
export interface WantedBoard {
  /** Its kind, as HELLO says it (`kalaha`, `grid`). */
  readonly board?: string;
  /** Its serial (`id=`): after a reconnect, only the board that was there before will do. */
  readonly id?: string;
}

/** A port with a board on it that has said HELLO. The port is open, paused, and belongs to the caller. */
export interface FoundBoard {
  readonly path: string;
  readonly port: Duplex;
  readonly hello: HelloMessage;
  /** The HELLO line as received, to be passed on to the link that reads the port from now on. */
  readonly helloLine: string;
}

/** A port answered HELLO, but not as the board wanted. */
export class WrongBoardError extends Error {
  override readonly name = 'WrongBoardError';
}

/** No port had the board. `tried` says what each candidate answered; `wrongBoard`: a board answered there, but not the wanted one. */
export class NoBoardError extends Error {
  override readonly name = 'NoBoardError';
  constructor(
    message: string,
    readonly tried: readonly { readonly path: string; readonly error: string; readonly wrongBoard?: boolean }[],
  ) {
    super(message);
  }
}

/** The refusals of another board than the wanted one in a failed search or probe (empty: no board answered at all). */
export function wrongBoards(error: unknown): string[] {
  if (error instanceof WrongBoardError) return [error.message];
  if (error instanceof NoBoardError) return error.tried.filter((t) => t.wrongBoard).map((t) => t.error);
  return [];
}

/** Why `hello` is not the wanted board, or null if it is. */
export function refusal(hello: HelloMessage, wanted: WantedBoard): string | null {
  if (wanted.board !== undefined && hello.board !== wanted.board) return `a ${hello.board} board (id ${hello.id}) answered; a ${wanted.board} board is wanted`;
  if (wanted.id !== undefined && hello.id !== wanted.id) return `board ${hello.id} answered; board ${wanted.id} was playing`;
  return null;
}

/** Opens `path` and asks for HELLO. On any failure the port is closed again and the promise rejects saying why. */
export async function probePort(ports: PortAccess, path: string, wanted: WantedBoard = {}, handshake: HandshakeOptions = {}): Promise<FoundBoard> {
  const port = await ports.open(path);
  const link = new BoardLink(port);
  let helloLine = '';
  link.on('line', (text) => {
    if (text.startsWith('HELLO ')) helloLine = text;
  });
  try {
    const hello = await link.handshake(handshake);
    const why = refusal(hello, wanted);
    if (why !== null) throw new WrongBoardError(`${path}: ${why}`);
    link.release();
    return { path, port, hello, helloLine };
  } catch (e) {
    if (!link.isClosed) link.release();
    await closePort(port);
    throw e;
  }
}

/** Device names of USB serial adapters, for ports that the system could not tell a vendor id for. */
const USB_SERIAL_NAME = /ttyACM|ttyUSB|usbmodem|usbserial|wchusbserial|^COM\d+$/i;

/** The ports worth a handshake, most likely first: Arduino vendor ids, then USB serial device names. */
export function candidates(ports: readonly SerialPortCandidate[]): SerialPortCandidate[] {
  return [...ports.filter((p) => p.likelyBoard), ...ports.filter((p) => !p.likelyBoard && USB_SERIAL_NAME.test(p.path))];
}

/**
 * Finds the wanted board: a handshake on every candidate port at once (each Arduino resets when
 * its port opens and takes about two seconds to answer), the most likely one kept, the others
 * closed. Ports that are neither an Arduino's nor a USB serial adapter's are never written to.
 */
export async function findBoard(ports: PortAccess, wanted: WantedBoard = {}, handshake: HandshakeOptions = {}): Promise<FoundBoard> {
  const listed = await ports.list();
  const paths = candidates(listed).map((p) => p.path);
  if (paths.length === 0) {
    const seen = listed.length ? `ports seen: ${listed.map((p) => `${p.path}${p.vendorId ? ` (vendor ${p.vendorId})` : ''}`).join(', ')}` : 'no serial ports at all';
    throw new NoBoardError(`no port looks like an Arduino (${seen}); name the port with --port`, []);
  }
  const results = await Promise.allSettled(paths.map((path) => probePort(ports, path, wanted, handshake)));
  let found: FoundBoard | null = null;
  const tried: { path: string; error: string; wrongBoard?: boolean }[] = [];
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    if (r.status === 'rejected') tried.push({ path: paths[i], error: (r.reason as Error).message, ...(r.reason instanceof WrongBoardError ? { wrongBoard: true } : {}) });
    else if (found === null) found = r.value;
    else await closePort(r.value.port);
  }
  if (found) return found;
  throw new NoBoardError(`no board answered: ${tried.map((t) => `${t.path}: ${t.error}`).join('; ')}`, tried);
}
