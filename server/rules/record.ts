// The game record format common to every game (RULES.md, "Common to all games"): headers, then move tokens.
//
//   [Game "kalaha"] [Options "{"seedsPerPit":3}"]
//   1. C e  2. F d {north captures 2 from C}
//
// - Headers `[Key "value"]` come before the first move, on their own lines or not. A value is read
//   as written, so JSON goes in without escaping; it ends at the first `"` followed by `]` (spaces
//   allowed between) and then white space, `[`, `{` or the end of the text. `\"` and `\\` may be
//   used as in PGN for a value that needs them.
// - Moves are separated by white space. Move numbers (`12.`, `12...`) are dropped, also when glued
//   to the move (`12.C`). `{…}` comments are dropped wherever they stand; they do not nest.
// - Errors are values, never throws: `record/unterminated-comment`, `record/stray-brace`,
//   `record/malformed-header`, `record/duplicate-header`, `record/header-after-moves`, each with
//   line and column (from 1) in params and message.
import { fail, ok } from './types.ts';
import type { Result } from './types.ts';

export interface GameRecord {
  readonly headers: ReadonlyMap<string, string>;
  readonly moves: readonly string[];
}

const MOVE_NUMBER = /^\d+\.+/;
const HEADER_START = /\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"/y;

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

/** Line and column (from 1) of an offset. */
function where(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: at - start + 1 };
}

function failAt(text: string, at: number, code: string, what: string) {
  const { line, column } = where(text, at);
  return fail(code, `Line ${line}, column ${column}: ${what}`, { line, column });
}

/** Reads a header's value from just after its opening quote; returns the value and the offset after `]`. */
function readValue(text: string, from: number): { value: string; end: number } | null {
  let value = '';
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') return null;
    if (ch === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
      value += text[++i];
      continue;
    }
    if (ch === '"') {
      let k = i + 1;
      while (text[k] === ' ' || text[k] === '\t') k++;
      if (text[k] === ']') {
        const after = text[k + 1];
        if (after === undefined || isSpace(after) || after === '[' || after === '{') return { value, end: k + 1 };
      }
    }
    value += ch;
  }
  return null;
}

/** Parses a game record: headers as a Map (in order of appearance) and the move tokens. */
export function parseRecord(text: string): Result<GameRecord> {
  const headers = new Map<string, string>();
  const moves: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (ch === '{') {
      const close = text.indexOf('}', i + 1);
      if (close < 0) return failAt(text, i, 'record/unterminated-comment', 'this comment "{" is never closed with "}".');
      i = close + 1;
      continue;
    }
    if (ch === '}') return failAt(text, i, 'record/stray-brace', 'a "}" without a "{" before it.');
    if (ch === '[') {
      if (moves.length > 0) {
        return failAt(text, i, 'record/header-after-moves', 'headers like [Game "kalaha"] must come before the first move.');
      }
      HEADER_START.lastIndex = i;
      const start = HEADER_START.exec(text);
      const read = start ? readValue(text, HEADER_START.lastIndex) : null;
      if (!start || !read) return failAt(text, i, 'record/malformed-header', 'a header must look like [Key "value"] on one line.');
      const key = start[1];
      if (headers.has(key)) return failAt(text, i, 'record/duplicate-header', `the header ${key} is given twice.`);
      headers.set(key, read.value);
      i = read.end;
      continue;
    }
    let end = i;
    while (end < n && !isSpace(text[end]) && text[end] !== '{' && text[end] !== '}') end++;
    const token = text.slice(i, end).replace(MOVE_NUMBER, '');
    if (token !== '') moves.push(token);
    i = end;
  }
  return ok({ headers, moves });
}

/** A header line; the value is written as is when that reads back unchanged, else with PGN escapes. */
function formatHeader(key: string, value: string): string {
  const plain = `${value}"]`;
  const back = readValue(plain, 0);
  const written = back && back.value === value && back.end === plain.length ? value : value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `[${key} "${written}"]`;
}

/**
 * Writes a record that parseRecord reads back: one header per line, then the moves with a move
 * number before every `perNumber` moves. Header values must not contain line breaks.
 */
export function formatRecord(
  headers: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
  moves: readonly string[],
  perNumber = 2,
): string {
  const entries = headers instanceof Map ? [...headers] : Object.entries(headers);
  const lines = entries.map(([key, value]) => formatHeader(key, value));
  const body: string[] = [];
  for (let k = 0; k < moves.length; k += perNumber) {
    body.push(`${k / perNumber + 1}. ${moves.slice(k, k + perNumber).join(' ')}`);
  }
  if (body.length > 0) lines.push(body.join(' '));
  return lines.join('\n') + '\n';
}
