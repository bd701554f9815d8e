// The board line protocol, version 1 (hardware/PROTOCOL.md): checksums, board→service messages, service→board commands.

/** Longest line the protocol allows, checksum included, terminator (`\r\n` or `\n`) not included. */
export const MAX_LINE_BYTES = 256;
export const PROTOCOL_VERSION = 1;
/** Cells of a Kalaha board in sensor order: pits A…F, a…f, store south, store north. */
export const KALAHA_CELLS = 14;
/** `seq` is a 32-bit counter. */
export const SEQ_MODULUS = 2 ** 32;

export const BOARD_MESSAGE_TYPES = ['hello', 'weights', 'grid', 'counts', 'button', 'heartbeat', 'error', 'ok'] as const;
export type BoardMessageType = (typeof BOARD_MESSAGE_TYPES)[number];

/** Frame types that carry a `seq`; a gap in one of them means frames were lost. */
export const SEQ_MESSAGE_TYPES = ['weights', 'grid', 'counts', 'heartbeat'] as const;
export type SeqMessageType = (typeof SEQ_MESSAGE_TYPES)[number];

export const BUTTONS = ['ok', 'undo', 'help'] as const;
export type ButtonName = (typeof BUTTONS)[number];

export const BOARD_KINDS = ['kalaha', 'grid'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

export const SENSE_KINDS = ['occupancy', 'count'] as const;
export type SenseKind = (typeof SENSE_KINDS)[number];

/** Why a line was dropped. `non-ascii` covers every byte outside printable ASCII (a `\r` before the `\n` excepted). */
export const DROP_REASONS = ['checksum', 'malformed', 'overlong', 'non-ascii'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface HelloMessage {
  readonly type: 'hello';
  readonly proto: number;
  /** `<name>/<version>` as the firmware writes it. */
  readonly fw: string;
  /** `kalaha`, `grid`, or a kind a newer board announces (kept, so the caller can refuse it by name). */
  readonly board: string;
  readonly id: string;
  readonly cells: number | null;
  readonly cols: number | null;
  readonly rows: number | null;
  readonly sense: SenseKind | null;
  /** Every `key=value` field, the unknown ones included (forward compatible). */
  readonly fields: Readonly<Record<string, string>>;
  readonly receivedAt: number;
}

export interface WeightsMessage {
  readonly type: 'weights';
  readonly seq: number;
  /** 14 weights in tenths of a gram, sensor order; a tared cell may read slightly negative. */
  readonly cells: number[];
  readonly receivedAt: number;
}

export interface GridMessage {
  readonly type: 'grid';
  readonly seq: number;
  /** Bit i is cell i = row * cols + col; a bigint because boards beyond 7×7 exceed 53 bits. */
  readonly occupancy: bigint;
  readonly receivedAt: number;
}

export interface CountsMessage {
  readonly type: 'counts';
  readonly seq: number;
  readonly cells: number[];
  readonly receivedAt: number;
}

export interface ButtonMessage {
  readonly type: 'button';
  readonly name: ButtonName;
  readonly receivedAt: number;
}

export interface HeartbeatMessage {
  readonly type: 'heartbeat';
  readonly seq: number;
  readonly uptimeMs: number;
  readonly receivedAt: number;
}

/** `ERR <code> <text>`: a fault the firmware reports, or its answer to a command it refused. */
export interface BoardErrorMessage {
  readonly type: 'error';
  readonly code: string;
  readonly text: string;
  readonly receivedAt: number;
}

/** `OK <command>`: the board carried out `command` (the command's body, as sent). */
export interface OkMessage {
  readonly type: 'ok';
  readonly command: string;
  readonly receivedAt: number;
}

export type BoardMessage =
  | HelloMessage
  | WeightsMessage
  | GridMessage
  | CountsMessage
  | ButtonMessage
  | HeartbeatMessage
  | BoardErrorMessage
  | OkMessage;

/** What `parseBody` makes of a line body: a message, or why not. Strings, so the hot path allocates nothing to fail. */
export type BodyFailure = 'unknown-type' | 'malformed';

export type ParsedLine =
  | { readonly kind: 'message'; readonly message: BoardMessage }
  /** A type this service does not know: ignored, as the protocol asks (a newer board may send it). */
  | { readonly kind: 'unknown'; readonly tag: string }
  | { readonly kind: 'dropped'; readonly reason: DropReason };

// ---------------------------------------------------------------------------------------------
// Checksum and framing

/** XOR of the bytes of `body` (ASCII), `end` exclusive. */
export function checksum(body: string, end: number = body.length): number {
  let cs = 0;
  for (let i = 0; i < end; i++) cs ^= body.charCodeAt(i);
  return cs & 0xff;
}

const HEX = '0123456789ABCDEF';

function isPrintable(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

/**
 * `body*CS\n`. Throws a RangeError for a body the protocol cannot carry (non-ASCII, `*`, too long):
 * that is a programming error on this side of the wire, not something a board did.
 */
export function formatLine(body: string): string {
  let cs = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (!isPrintable(c) || c === 0x2a) throw new RangeError(`line body has a byte the protocol cannot carry at ${i}: ${JSON.stringify(body)}`);
    cs ^= c;
  }
  if (body.length + 3 > MAX_LINE_BYTES) throw new RangeError(`line of ${body.length + 3} bytes exceeds ${MAX_LINE_BYTES}`);
  return body + '*' + HEX[cs >> 4] + HEX[cs & 15] + '\n';
}

/** Value of one hex digit (either case: boards are strict in what they send, we are lenient in what we accept), or -1. */
export function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/**
 * Parses one whole line (`body*CS`, with or without its `\r\n`). The line stream does the same
 * work on bytes; this is the form for tests, traces and tools.
 */
export function parseLine(line: string, receivedAt = 0): ParsedLine {
  let end = line.length;
  if (end > 0 && line.charCodeAt(end - 1) === 0x0a) end--;
  if (end > 0 && line.charCodeAt(end - 1) === 0x0d) end--;
  if (end > MAX_LINE_BYTES) return { kind: 'dropped', reason: 'overlong' };
  for (let i = 0; i < end; i++) {
    if (!isPrintable(line.charCodeAt(i))) return { kind: 'dropped', reason: 'non-ascii' };
  }
  const bodyEnd = end - 3;
  if (bodyEnd < 0 || line.charCodeAt(bodyEnd) !== 0x2a) return { kind: 'dropped', reason: 'checksum' };
  const hi = hexDigit(line.charCodeAt(bodyEnd + 1));
  const lo = hexDigit(line.charCodeAt(bodyEnd + 2));
  if (hi < 0 || lo < 0 || ((hi << 4) | lo) !== checksum(line, bodyEnd)) return { kind: 'dropped', reason: 'checksum' };
  const parsed = parseBody(line, bodyEnd, receivedAt);
  if (parsed === 'malformed') return { kind: 'dropped', reason: 'malformed' };
  if (parsed === 'unknown-type') return { kind: 'unknown', tag: tagOf(line, bodyEnd) };
  return { kind: 'message', message: parsed };
}

/** The message type of a body: its first field. */
export function tagOf(body: string, end: number = body.length): string {
  const sp = body.indexOf(' ');
  return body.slice(0, sp < 0 || sp > end ? end : sp);
}


// ---------------------------------------------------------------------------------------------
// Field parsing. A cursor over the body string instead of `split`, because a W frame arrives
// twenty times a second and splitting it would allocate sixteen strings each time.

let at = 0;

/** A decimal integer at the cursor (optionally signed), advancing past it; NaN when there is none. */
function readInt(s: string, end: number, signed: boolean): number {
  let i = at;
  let negative = false;
  if (signed && i < end && s.charCodeAt(i) === 0x2d) {
    negative = true;
    i++;
  }
  const first = i;
  let value = 0;
  while (i < end) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
    i++;
  }
  // 15 digits stay exact in a double; a longer field is garbage, not a number.
  if (i === first || i - first > 15) return NaN;
  at = i;
  return negative ? -value : value;
}

/** Expects a single space at the cursor (the field separator) and steps over it. */
function space(s: string, end: number): boolean {
  if (at < end && s.charCodeAt(at) === 0x20) {
    at++;
    return true;
  }
  return false;
}

function readSeq(s: string, end: number): number {
  const seq = readInt(s, end, false);
  return seq < SEQ_MODULUS ? seq : NaN;
}

/** Integers separated by single spaces up to `end`; null if any is malformed. */
function readInts(s: string, end: number, signed: boolean, expected: number): number[] | null {
  const out: number[] = [];
  let n = 0;
  while (true) {
    const v = readInt(s, end, signed);
    if (Number.isNaN(v)) return null;
    out.push(v);
    n++;
    if (at === end) break;
    if (!space(s, end)) return null;
  }
  return expected > 0 && n !== expected ? null : out;
}

/** Parses a checked body (`end` is where `*CS` starts). */
export function parseBody(s: string, end: number = s.length, receivedAt = 0): BoardMessage | BodyFailure {
  // Dispatch on the first byte before reading the tag, so the common W frame costs one comparison.
  const c0 = s.charCodeAt(0);
  const c1 = end > 1 ? s.charCodeAt(1) : -1;
  if (c0 === 0x57 /* W */ && c1 === 0x20) {
    at = 2;
    const seq = readSeq(s, end);
    if (Number.isNaN(seq) || !space(s, end)) return 'malformed';
    const cells = readInts(s, end, true, KALAHA_CELLS);
    return cells ? { type: 'weights', seq, cells, receivedAt } : 'malformed';
  }
  const tag = tagOf(s, end);
  at = tag.length;
  if (at < end) at++; // the space after the tag
  switch (tag) {
    case 'W':
      return 'malformed'; // a bare `W` without fields
    case 'G': {
      const seq = readSeq(s, end);
      if (Number.isNaN(seq) || !space(s, end) || at >= end) return 'malformed';
      for (let i = at; i < end; i++) if (hexDigit(s.charCodeAt(i)) < 0) return 'malformed';
      return { type: 'grid', seq, occupancy: BigInt('0x' + s.slice(at, end)), receivedAt };
    }
    case 'C': {
      const seq = readSeq(s, end);
      if (Number.isNaN(seq) || !space(s, end)) return 'malformed';
      const cells = readInts(s, end, false, 0);
      return cells ? { type: 'counts', seq, cells, receivedAt } : 'malformed';
    }
    case 'HB': {
      const seq = readSeq(s, end);
      if (Number.isNaN(seq) || !space(s, end)) return 'malformed';
      const uptimeMs = readInt(s, end, false);
      if (Number.isNaN(uptimeMs) || at !== end) return 'malformed';
      return { type: 'heartbeat', seq, uptimeMs, receivedAt };
    }
    case 'BTN': {
      const name = s.slice(at, end);
      return (BUTTONS as readonly string[]).includes(name) ? { type: 'button', name: name as ButtonName, receivedAt } : 'malformed';
    }
    case 'ERR': {
      if (at >= end) return 'malformed';
      const sp = s.indexOf(' ', at);
      const codeEnd = sp < 0 || sp >= end ? end : sp;
      if (codeEnd === at) return 'malformed';
      return { type: 'error', code: s.slice(at, codeEnd), text: codeEnd < end ? s.slice(codeEnd + 1, end) : '', receivedAt };
    }
    case 'OK': {
      if (at >= end || s.charCodeAt(at) === 0x20) return 'malformed';
      return { type: 'ok', command: s.slice(at, end), receivedAt };
    }
    case 'HELLO':
      return parseHello(s.slice(at, end), receivedAt);
    default:
      return 'unknown-type';
  }
}

const POSITIVE_INT = /^[1-9][0-9]{0,5}$/;

function parseHello(fieldsText: string, receivedAt: number): HelloMessage | 'malformed' {
  if (fieldsText === '') return 'malformed';
  const fields: Record<string, string> = {};
  for (const field of fieldsText.split(' ')) {
    const eq = field.indexOf('=');
    if (eq <= 0 || eq === field.length - 1) return 'malformed';
    const key = field.slice(0, eq);
    if (Object.hasOwn(fields, key)) return 'malformed';
    fields[key] = field.slice(eq + 1);
  }
  const { proto, fw, board, id } = fields;
  if (proto === undefined || !POSITIVE_INT.test(proto) || fw === undefined || board === undefined || id === undefined) return 'malformed';
  const int = (key: string): number | null | 'bad' => {
    const v = fields[key];
    if (v === undefined) return null;
    return POSITIVE_INT.test(v) ? Number(v) : 'bad';
  };
  const cells = int('cells');
  const cols = int('cols');
  const rows = int('rows');
  if (cells === 'bad' || cols === 'bad' || rows === 'bad') return 'malformed';
  const senseText = fields.sense;
  let sense: SenseKind | null = null;
  if (senseText !== undefined) {
    if (!(SENSE_KINDS as readonly string[]).includes(senseText)) return 'malformed';
    sense = senseText as SenseKind;
  }
  // The shape each board kind promises; a kind we do not know is passed on for the caller to refuse.
  if (board === 'kalaha' && cells === null) return 'malformed';
  if (board === 'grid' && (cols === null || rows === null || sense === null)) return 'malformed';
  return { type: 'hello', proto: Number(proto), fw, board, id, cells, cols, rows, sense, fields, receivedAt };
}

/** Whether grid cell `i` is occupied. */
export function isOccupied(grid: GridMessage, i: number): boolean {
  return ((grid.occupancy >> BigInt(i)) & 1n) === 1n;
}

// ---------------------------------------------------------------------------------------------
// Service → board

export const COMMAND_KINDS = ['hello', 'tare', 'rate', 'led', 'leds-off'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

export type BoardCommand =
  | { readonly kind: 'hello' }
  /** Zero all cells, or one. */
  | { readonly kind: 'tare'; readonly cell?: number }
  | { readonly kind: 'rate'; readonly hz: number }
  /** `color` is `rrggbb` or `off`. */
  | { readonly kind: 'led'; readonly cell: number; readonly color: string }
  | { readonly kind: 'leds-off' };

export const RATE_MIN_HZ = 1;
export const RATE_MAX_HZ = 50;
const COLOR = /^[0-9a-fA-F]{6}$/;

/** The body of a command line. Throws a RangeError for a command this service should never send. */
export function formatCommand(command: BoardCommand): string {
  switch (command.kind) {
    case 'hello':
      return 'HELLO?';
    case 'tare':
      if (command.cell === undefined) return 'TARE';
      if (!Number.isInteger(command.cell) || command.cell < 0) throw new RangeError(`TARE cell ${command.cell}`);
      return `TARE ${command.cell}`;
    case 'rate':
      if (!Number.isInteger(command.hz) || command.hz < RATE_MIN_HZ || command.hz > RATE_MAX_HZ) {
        throw new RangeError(`RATE ${command.hz}: the protocol allows ${RATE_MIN_HZ}–${RATE_MAX_HZ}`);
      }
      return `RATE ${command.hz}`;
    case 'led':
      if (!Number.isInteger(command.cell) || command.cell < 0) throw new RangeError(`LED cell ${command.cell}`);
      if (command.color !== 'off' && !COLOR.test(command.color)) throw new RangeError(`LED colour ${command.color}`);
      return `LED ${command.cell} ${command.color === 'off' ? 'off' : command.color.toLowerCase()}`;
    case 'leds-off':
      return 'LEDS off';
    default:
      return assertNever(command);
  }
}

/** The whole line of a command, checksum and `\n` included. */
export function commandLine(command: BoardCommand): string {
  return formatLine(formatCommand(command));
}

/**
 * A command body as a board reads it. Ranges are not checked here: the board answers an
 * out-of-range `RATE` with `ERR`, and that answer is part of what a simulated board must show.
 */
export function parseCommand(body: string): BoardCommand | BodyFailure {
  const parts = body.split(' ');
  const int = (text: string | undefined): number => (text !== undefined && /^[0-9]{1,6}$/.test(text) ? Number(text) : NaN);
  switch (parts[0]) {
    case 'HELLO?':
      return parts.length === 1 ? { kind: 'hello' } : 'malformed';
    case 'TARE': {
      if (parts.length === 1) return { kind: 'tare' };
      const cell = int(parts[1]);
      return parts.length === 2 && !Number.isNaN(cell) ? { kind: 'tare', cell } : 'malformed';
    }
    case 'RATE': {
      const hz = int(parts[1]);
      return parts.length === 2 && !Number.isNaN(hz) ? { kind: 'rate', hz } : 'malformed';
    }
    case 'LED': {
      const cell = int(parts[1]);
      const color = parts[2];
      if (parts.length !== 3 || Number.isNaN(cell) || color === undefined) return 'malformed';
      if (color !== 'off' && !COLOR.test(color)) return 'malformed';
      return { kind: 'led', cell, color: color === 'off' ? 'off' : color.toLowerCase() };
    }
    case 'LEDS':
      return parts.length === 2 && parts[1] === 'off' ? { kind: 'leds-off' } : 'malformed';
    default:
      return 'unknown-type';
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
