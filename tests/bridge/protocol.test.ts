// Tests of the board line protocol: checksums, every board→service message, malformed and unknown lines, commands.
import { describe, expect, test } from 'vitest';
import {
  checksum,
  commandLine,
  formatCommand,
  formatLine,
  isOccupied,
  parseCommand,
  parseLine,
  type BoardMessage,
  type GridMessage,
} from '../../firmware-bridge/index.ts';

/** A body with a correct checksum, written out independently of formatLine. */
function line(body: string): string {
  let cs = 0;
  for (const ch of body) cs ^= ch.charCodeAt(0);
  return `${body}*${cs.toString(16).toUpperCase().padStart(2, '0')}`;
}

function message(text: string): BoardMessage {
  const r = parseLine(line(text));
  if (r.kind !== 'message') throw new Error(`expected a message from ${text}, got ${JSON.stringify(r)}`);
  return r.message;
}

describe('checksum', () => {
  test('is the XOR of the body bytes (the NMEA 0183 example)', () => {
    expect(checksum('GPGLL,5300.97914,N,00259.98174,E,125926,A')).toBe(0x28);
    expect(checksum('AB')).toBe(0x03);
    expect(checksum('')).toBe(0);
  });

  test('formatLine writes two upper-case hex digits and a newline', () => {
    expect(formatLine('AB')).toBe('AB*03\n');
    expect(formatLine('HB 1 1000')).toBe(line('HB 1 1000') + '\n');
    expect(formatLine('W 25 402 398 0 455 410 0 0 0 0 0 0 0 0 0')).toMatch(/\*[0-9A-F]{2}\n$/);
  });

  test('formatLine refuses what the protocol cannot carry', () => {
    expect(() => formatLine('a*b')).toThrow(RangeError);
    expect(() => formatLine('ä')).toThrow(RangeError);
    expect(() => formatLine('a\nb')).toThrow(RangeError);
    expect(() => formatLine('x'.repeat(254))).toThrow(RangeError);
    expect(formatLine('x'.repeat(253)).length).toBe(257);
  });

  test('a wrong or missing checksum drops the line', () => {
    const good = line('HB 7 7000');
    const bad = good.slice(0, -2) + (good.endsWith('00') ? '01' : '00');
    expect(parseLine(good).kind).toBe('message');
    expect(parseLine(bad)).toEqual({ kind: 'dropped', reason: 'checksum' });
    expect(parseLine('HB 7 7000')).toEqual({ kind: 'dropped', reason: 'checksum' });
    expect(parseLine('HB 7 7000*')).toEqual({ kind: 'dropped', reason: 'checksum' });
    expect(parseLine('HB 7 7000*G1')).toEqual({ kind: 'dropped', reason: 'checksum' });
  });

  test('lower-case checksum digits and a trailing \\r\\n are accepted', () => {
    const good = line('W 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0');
    expect(parseLine(good.toLowerCase().replace(/^w/, 'W')).kind).toBe('message');
    expect(parseLine(good + '\r\n').kind).toBe('message');
  });

  test('non-ASCII and over-long lines are dropped with their own reason', () => {
    expect(parseLine(line('ERR x café'))).toEqual({ kind: 'dropped', reason: 'non-ascii' });
    expect(parseLine(line('ERR x ' + 'y'.repeat(250)))).toEqual({ kind: 'dropped', reason: 'overlong' });
  });
});

describe('board → service messages', () => {
  test('HELLO of a Kalaha board, with its key=value fields', () => {
    expect(message('HELLO proto=1 fw=spieltisch/0.3 board=kalaha id=A17 cells=14')).toEqual({
      type: 'hello',
      proto: 1,
      fw: 'spieltisch/0.3',
      board: 'kalaha',
      id: 'A17',
      cells: 14,
      cols: null,
      rows: null,
      sense: null,
      fields: { proto: '1', fw: 'spieltisch/0.3', board: 'kalaha', id: 'A17', cells: '14' },
      receivedAt: 0,
    });
  });

  test('HELLO of a grid board, unknown fields kept', () => {
    const m = message('HELLO proto=1 fw=g/1 board=grid id=7 cols=6 rows=6 sense=count leds=yes');
    expect(m).toMatchObject({ type: 'hello', board: 'grid', cols: 6, rows: 6, sense: 'count', cells: null });
    expect(m.type === 'hello' && m.fields.leds).toBe('yes');
  });

  test('W: seq and 14 weights in tenths of a gram, negative allowed', () => {
    expect(message('W 25 402 398 0 455 410 0 0 0 0 0 0 0 -3 12')).toEqual({
      type: 'weights',
      seq: 25,
      cells: [402, 398, 0, 455, 410, 0, 0, 0, 0, 0, 0, 0, -3, 12],
      receivedAt: 0,
    });
    expect(message('W 4294967295 0 0 0 0 0 0 0 0 0 0 0 0 0 0')).toMatchObject({ seq: 4294967295 });
  });

  test('G: hex occupancy beyond 53 bits', () => {
    const m = message('G 3 8000000000000001') as GridMessage;
    expect(m.type).toBe('grid');
    expect(m.occupancy).toBe(0x8000000000000001n);
    expect(isOccupied(m, 0)).toBe(true);
    expect(isOccupied(m, 1)).toBe(false);
    expect(isOccupied(m, 63)).toBe(true);
    expect((message('G 4 ff') as GridMessage).occupancy).toBe(255n);
  });

  test('C, BTN, HB, ERR, OK', () => {
    expect(message('C 9 0 2 5 0')).toEqual({ type: 'counts', seq: 9, cells: [0, 2, 5, 0], receivedAt: 0 });
    expect(message('BTN undo')).toEqual({ type: 'button', name: 'undo', receivedAt: 0 });
    expect(message('HB 12 12034')).toEqual({ type: 'heartbeat', seq: 12, uptimeMs: 12034, receivedAt: 0 });
    expect(message('ERR hx711 cell 7 not ready')).toEqual({ type: 'error', code: 'hx711', text: 'cell 7 not ready', receivedAt: 0 });
    expect(message('ERR brownout')).toEqual({ type: 'error', code: 'brownout', text: '', receivedAt: 0 });
    expect(message('OK TARE 3')).toEqual({ type: 'ok', command: 'TARE 3', receivedAt: 0 });
  });

  test('receivedAt is stamped from the caller', () => {
    const r = parseLine(line('BTN ok'), 1234);
    expect(r.kind === 'message' && r.message.receivedAt).toBe(1234);
  });

  test('an unknown type is ignored, not an error', () => {
    expect(parseLine(line('TEMP 21.5'))).toEqual({ kind: 'unknown', tag: 'TEMP' });
    expect(parseLine(line('WX 1 2'))).toEqual({ kind: 'unknown', tag: 'WX' });
    expect(parseLine(line('HELLO?'))).toEqual({ kind: 'unknown', tag: 'HELLO?' });
  });

  const zeros = (n: number): string => Array.from({ length: n }, () => '0').join(' ');
  test.each([
    ['W with 13 weights', `W 1 ${zeros(13)}`],
    ['W with 15 weights', `W 1 ${zeros(15)}`],
    ['W without fields', 'W'],
    ['W with a decimal weight', `W 1 1.5 ${zeros(13)}`],
    ['W with a double space', `W 1  ${zeros(14)}`],
    ['W with a trailing space', `W 1 ${zeros(14)} `],
    ['W with seq beyond 32 bits', `W 4294967296 ${zeros(14)}`],
    ['W with a negative seq', `W -1 ${zeros(14)}`],
    ['W with a lone minus', `W 1 - ${zeros(13)}`],
    ['G with a non-hex digit', 'G 1 12G4'],
    ['G without occupancy', 'G 1'],
    ['C without counts', 'C 1'],
    ['C with a negative count', 'C 1 2 -1'],
    ['BTN with an unknown button', 'BTN reset'],
    ['BTN without a name', 'BTN'],
    ['HB without uptime', 'HB 1'],
    ['HB with text', 'HB 1 soon'],
    ['ERR without a code', 'ERR'],
    ['OK without a command', 'OK'],
    ['HELLO without proto', 'HELLO fw=x/1 board=kalaha id=1 cells=14'],
    ['HELLO with a non-numeric proto', 'HELLO proto=one fw=x/1 board=kalaha id=1 cells=14'],
    ['HELLO kalaha without cells', 'HELLO proto=1 fw=x/1 board=kalaha id=1'],
    ['HELLO grid without sense', 'HELLO proto=1 fw=x/1 board=grid id=1 cols=6 rows=6'],
    ['HELLO grid with an unknown sense', 'HELLO proto=1 fw=x/1 board=grid id=1 cols=6 rows=6 sense=smell'],
    ['HELLO with a field without =', 'HELLO proto=1 fw=x/1 board=kalaha id=1 cells=14 junk'],
    ['HELLO with a repeated key', 'HELLO proto=1 proto=2 fw=x/1 board=kalaha id=1 cells=14'],
  ])('%s is malformed', (_name, body) => {
    expect(parseLine(line(body))).toEqual({ kind: 'dropped', reason: 'malformed' });
  });
});

describe('service → board commands', () => {
  test('format', () => {
    expect(formatCommand({ kind: 'hello' })).toBe('HELLO?');
    expect(formatCommand({ kind: 'tare' })).toBe('TARE');
    expect(formatCommand({ kind: 'tare', cell: 12 })).toBe('TARE 12');
    expect(formatCommand({ kind: 'rate', hz: 20 })).toBe('RATE 20');
    expect(formatCommand({ kind: 'led', cell: 3, color: 'FF8800' })).toBe('LED 3 ff8800');
    expect(formatCommand({ kind: 'led', cell: 3, color: 'off' })).toBe('LED 3 off');
    expect(formatCommand({ kind: 'leds-off' })).toBe('LEDS off');
    expect(commandLine({ kind: 'hello' })).toBe(line('HELLO?') + '\n');
  });

  test('out-of-range commands are refused before they reach the wire', () => {
    expect(() => formatCommand({ kind: 'rate', hz: 0 })).toThrow(RangeError);
    expect(() => formatCommand({ kind: 'rate', hz: 51 })).toThrow(RangeError);
    expect(() => formatCommand({ kind: 'led', cell: 1, color: 'red' })).toThrow(RangeError);
    expect(() => formatCommand({ kind: 'tare', cell: -1 })).toThrow(RangeError);
  });

  test('a board parses what the service formats', () => {
    for (const c of [
      { kind: 'hello' },
      { kind: 'tare' },
      { kind: 'tare', cell: 4 },
      { kind: 'rate', hz: 50 },
      { kind: 'led', cell: 13, color: '00ff00' },
      { kind: 'led', cell: 0, color: 'off' },
      { kind: 'leds-off' },
    ] as const) {
      expect(parseCommand(formatCommand(c))).toEqual(c);
    }
    expect(parseCommand('RATE 99')).toEqual({ kind: 'rate', hz: 99 });
    expect(parseCommand('RATE')).toBe('malformed');
    expect(parseCommand('LED 1 blue')).toBe('malformed');
    expect(parseCommand('DANCE')).toBe('unknown-type');
  });
});
