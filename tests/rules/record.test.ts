// The game record format: headers, move numbers, comments, and errors as values.
import { describe, expect, test } from 'vitest';
import { formatRecord, parseRecord } from '../../server/rules/record.ts';

function parsed(text: string) {
  const result = parseRecord(text);
  if (!result.ok) throw new Error(result.error.message);
  return { headers: Object.fromEntries(result.value.headers), moves: result.value.moves.join(' ') };
}

function error(text: string) {
  const result = parseRecord(text);
  if (result.ok) throw new Error('the record was accepted');
  return result.error;
}

describe('moves', () => {
  test('tokens separated by any white space', () => {
    expect(parsed('C e\tF\r\nd\n\n  A')).toEqual({ headers: {}, moves: 'C e F d A' });
  });

  test('move numbers are dropped, also with several dots or glued to the move', () => {
    expect(parsed('1. C e 2. F d 3... A 10.b').moves).toBe('C e F d A b');
  });

  test('comments are dropped wherever they stand, across lines too', () => {
    expect(parsed('{opening} 1. C {south\nopens} e 2.{x}F d{captures 2}').moves).toBe('C e F d');
  });

  test('an empty record has no headers and no moves', () => {
    expect(parsed('')).toEqual({ headers: {}, moves: '' });
    expect(parsed('  {only a comment}\n')).toEqual({ headers: {}, moves: '' });
  });

  test('tokens of other games pass through unchanged', () => {
    expect(parsed('1. a1-a3 f6-f4 2. c1xc5 d1>a1,b1,e1 R2.5.5 1:c4r8 2:- 1@c5r9 e5xe9R@h8').moves).toBe(
      'a1-a3 f6-f4 c1xc5 d1>a1,b1,e1 R2.5.5 1:c4r8 2:- 1@c5r9 e5xe9R@h8',
    );
  });
});

describe('headers', () => {
  test('headers on their own lines, in order', () => {
    const result = parseRecord('[Game "kalaha"]\n[Event "Vauban, Sunday"]\n1. C e');
    expect(result.ok && [...result.value.headers]).toEqual([
      ['Game', 'kalaha'],
      ['Event', 'Vauban, Sunday'],
    ]);
    expect(result.ok && result.value.moves).toEqual(['C', 'e']);
  });

  test('headers and moves on one line, as in RULES.md', () => {
    expect(parsed('[Game "kalaha"]  1. C e  2. F d')).toEqual({ headers: { Game: 'kalaha' }, moves: 'C e F d' });
  });

  test('a JSON value goes in as written, quotes and brackets included', () => {
    expect(parsed('[Options "{"seedsPerPit":3,"skipOrigin":false}"] C').headers).toEqual({
      Options: '{"seedsPerPit":3,"skipOrigin":false}',
    });
    expect(parsed('[Options "{"list":["x"]}"][Game "kalaha"]').headers).toEqual({ Options: '{"list":["x"]}', Game: 'kalaha' });
  });

  test('PGN escapes \\" and \\\\ are read', () => {
    expect(parsed('[Options "{\\"seedsPerPit\\":3}"] [Path "a\\\\b"]').headers).toEqual({
      Options: '{"seedsPerPit":3}',
      Path: 'a\\b',
    });
  });

  test('spaces inside the brackets are allowed; the value keeps its own', () => {
    expect(parsed('[ Event   " Grünspange 5 " ]').headers).toEqual({ Event: ' Grünspange 5 ' });
  });
});

describe('errors are values with line and column', () => {
  test.each([
    ['an unterminated comment', '1. C e\n2. F {north then\nd', 'record/unterminated-comment', 2, 6],
    ['a stray closing brace', 'C e}', 'record/stray-brace', 1, 4],
    ['a header without quotes', '[Game kalaha]\nC', 'record/malformed-header', 1, 1],
    ['a header without its closing bracket', '[Game "kalaha"\nC e', 'record/malformed-header', 1, 1],
    ['a header split over lines', '[Event "Vauban\nFreiburg"]', 'record/malformed-header', 1, 1],
    ['a header without a key', '["kalaha"]', 'record/malformed-header', 1, 1],
    ['a duplicate header', '[Game "kalaha"]\n  [Game "malawi"]', 'record/duplicate-header', 2, 3],
    ['a header after the moves', 'C e [Game "kalaha"]', 'record/header-after-moves', 1, 5],
  ])('%s', (_, text, code, line, column) => {
    const e = error(text);
    expect(e.code).toBe(code);
    expect(e.params).toEqual({ line, column });
    expect(e.message).toMatch(new RegExp(`^Line ${line}, column ${column}: `));
  });

  test('a bad record never throws', () => {
    for (const text of ['{', '}', '[', '[G', '[G "', '[G "x', '[G "x"', '[G "x"]]', '\u0000{']) {
      expect(() => parseRecord(text)).not.toThrow();
    }
  });
});

describe('formatRecord', () => {
  test('writes headers and numbered moves that read back the same', () => {
    const headers = new Map([
      ['Game', 'kalaha'],
      ['Options', '{"seedsPerPit":3}'],
      ['Note', 'ends in "]" then a space: "] x'],
    ]);
    const text = formatRecord(headers, ['C', 'e', 'F', 'd', 'A']);
    expect(text).toBe(
      '[Game "kalaha"]\n[Options "{"seedsPerPit":3}"]\n[Note "ends in \\"]\\" then a space: \\"] x"]\n1. C e 2. F d 3. A\n',
    );
    const back = parseRecord(text);
    expect(back.ok && [...back.value.headers]).toEqual([...headers]);
    expect(back.ok && back.value.moves).toEqual(['C', 'e', 'F', 'd', 'A']);
  });
});
