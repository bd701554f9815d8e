// The answers file of `spieltisch referee --answers FILE`: the referee console's actions, played
// back against a recorded trace.
import { readFileSync } from 'node:fs';
import { UsageError } from '../cli.ts';

export interface TimedAction {
  readonly t: number;
  /** A move in notation, or `undo`, or `back` (then `back` holds the record length wanted). */
  readonly move: string;
  readonly back?: number;
}

export interface Answers {
  /** Plain moves: each answers the referee's next question that offers it. */
  readonly answers: string[];
  /** Timed actions, in time order. */
  readonly timed: TimedAction[];
}

export const NO_ANSWERS: Answers = { answers: [], timed: [] };

/**
 * An answers file: one line per console action. `<move>` answers the referee's next question that
 * offers it; `<ms> <move>` announces at that trace time a move the board cannot see; `<ms> undo`
 * takes the last move back; `<ms> back <n>` takes moves back until the record has n. Blank lines
 * and `#` comments are skipped.
 */
export function readAnswers(file: string | undefined): Answers {
  if (file === undefined) return { answers: [], timed: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the answers file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const answers: string[] = [];
  const timed: TimedAction[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    if (parts.length === 1) answers.push(parts[0]);
    else if (parts.length === 2 && /^\d+$/.test(parts[0])) timed.push({ t: Number(parts[0]), move: parts[1] });
    else if (parts.length === 3 && /^\d+$/.test(parts[0]) && parts[1] === 'back' && /^\d+$/.test(parts[2])) timed.push({ t: Number(parts[0]), move: 'back', back: Number(parts[2]) });
    else throw new UsageError(`${file} line ${i + 1}: write a move, a time in ms and a move (or "undo"), or a time and "back <plies>", not "${line}"`);
  }
  timed.sort((a, b) => a.t - b.t);
  return { answers, timed };
}

/** The console's answer to a question, as the referee command prints it. */
export interface AnswerLine {
  readonly kind: 'answer';
  readonly t: number;
  readonly id: number;
  readonly move: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly message?: string;
}

export function answerLine(
  t: number,
  id: number,
  move: string,
  answered: { readonly ok: true } | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } },
): AnswerLine {
  return { kind: 'answer', t, id, move, ok: answered.ok, ...(answered.ok ? {} : { error: answered.error.code, message: answered.error.message }) };
}
