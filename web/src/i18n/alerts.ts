// Coded messages in the page's language — alerts, console questions, refused commands: a stable code and its params
// → a sentence, falling back to the server's English message.
import type { Alert, Question } from '../../../server/http/messages.ts';
import {
  CATALOGUES,
  KALAHA_BOARD,
  cellLabel,
  fill,
  hasKey,
  list,
  makisSquareLabel,
  signed,
  sideName,
  type BoardKind,
  type Lang,
  type Params,
} from './catalogue.ts';

/** The alert codes the catalogue knows; the server may add more, which then show its English message. */
export const ALERT_CODES = [
  'kalaha/forbidden-capture',
  'kalaha/unfair-capture',
  'kalaha/capture-not-allowed',
  'kalaha/must-feed',
  'kalaha/not-your-pit',
  'kalaha/illegal-move',
  'kalaha/empty-pit',
  'kalaha/game-over',
  'kalaha/unreadable-move',
  // Every code the Malawi engine and its notation produce (server/rules/malawi*.ts): a move refused at
  // the table, a hand-entered move refused at the console, or a bad set-up.
  'malawi/game-over',
  'malawi/no-piece',
  'malawi/not-your-piece',
  'malawi/strength-zero',
  'malawi/not-straight',
  'malawi/wrong-distance',
  'malawi/path-blocked',
  'malawi/square-occupied',
  'malawi/nothing-to-capture',
  'malawi/capture-own',
  'malawi/capture-zero',
  'malawi/no-recipients',
  'malawi/too-many-recipients',
  'malawi/recipient-self',
  'malawi/recipient-twice',
  'malawi/recipient-not-own',
  'malawi/recipient-full',
  'malawi/off-board',
  'malawi/bad-square',
  'malawi/bad-notation',
  'malawi/bad-position',
  'malawi/bad-setup',
  'malawi/bad-strength',
  'malawi/setup-overlap',
  'malawi/bad-piece-count',
  'malawi/bad-options',
  'malawi/unknown-option',
  'malawi/bad-size',
  'malawi/bad-max-strength',
  'malawi/bad-baseline-win',
  // Makis: what the referee asks the players to do (names proposed to the referee; see CODE_ALIASES),
  // then every code the engine and its notation produce (server/rules/makis*.ts).
  'makis/impossible-roll',
  'makis/expected-roll',
  'makis/wrong-roll',
  'makis/reset-knight',
  'makis/reset-maki',
  'makis/remove-maki',
  'makis/illegal',
  'makis/game-over',
  'makis/placement-expected',
  'makis/roll-expected',
  'makis/maki-move-expected',
  'makis/no-such-player',
  'makis/player-out',
  'makis/not-your-turn',
  'makis/off-board',
  'makis/square-taken',
  'makis/not-row-9',
  'makis/not-adjacent',
  'makis/not-roll-time',
  'makis/bad-square',
  'makis/bad-notation',
  'makis/bad-setup',
  'makis/setup-overlap',
  // Adu: the referee's (proposed, as for Makis), then the engine's and its notation's (server/rules/adu*.ts).
  'adu/place-reserve',
  'adu/illegal',
  'adu/ambiguous',
  'adu/game-over',
  'adu/still-placing',
  'adu/placement-over',
  'adu/wrong-placement',
  'adu/off-board',
  'adu/square-taken',
  'adu/no-piece',
  'adu/not-your-piece',
  'adu/reserve-immobile',
  'adu/same-square',
  'adu/not-straight',
  'adu/king-one-step',
  'adu/jump',
  'adu/own-piece',
  'adu/square-occupied',
  'adu/nothing-to-capture',
  'adu/range-exceeded',
  'adu/reserve-not-earned',
  'adu/declare-inconsistent',
  'adu/declare-not-soldier',
  'adu/supply-empty',
  'adu/reserve-square-taken',
  'adu/reserve-missing',
  'adu/bad-square',
  'adu/bad-notation',
  'adu/bad-pieces',
  'adu/bad-setup',
  'referee/mismatch',
  'referee/capture-pending',
  'referee/sweep-pending',
  'referee/takeback',
  'referee/ambiguous',
  'referee/which-move',
  'board/not-responding',
  'board/calibrating',
  'board/remove-pieces',
  'referee/declare-first',
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

/** Codes a console question may carry; each has a `question.<code>` sentence. */
export const QUESTION_CODES = [
  'referee/which-move',
  'referee/ambiguous',
  'adu/declare-range',
  'adu/ambiguous',
  'makis/which-roll',
  'makis/which-move',
] as const;

/**
 * A code the server sends → the code this catalogue words it under. The Makis and Adu referees
 * were written alongside these pages; when one names a code differently from the catalogue
 * (`makis/knight-back` for `makis/reset-knight`, say), one line here makes the pages word it,
 * without renaming keys in both languages.
 */
export const CODE_ALIASES: Readonly<Record<string, string>> = {
  'referee/declare-range': 'adu/declare-range',
  'board/place-reserve': 'adu/place-reserve',
};

/** The catalogue's name for a server code. */
export function catalogueCode(code: string): string {
  return Object.hasOwn(CODE_ALIASES, code) ? CODE_ALIASES[code] : code;
}

export interface AlertText {
  /** The sentence to show. */
  readonly text: string;
  /** Which cells differ and by how much ("C +2, d −1", "c3 −1"), when the alert names cells. */
  readonly detail: string | null;
  /** False when the catalogue had no sentence for it and the server's message is shown. */
  readonly translated: boolean;
}

/** Params that name a roll of the dice: `2-5-5`, `2.5.5` or `R2.5.5` are shown as "2 · 5 · 5". */
const ROLL_PARAMS = new Set(['roll', 'dice', 'expected']);
/** Params that list values: "1,2,4" is shown as "1, 2 und 4". */
const LIST_PARAMS = new Set(['pits', 'squares', 'consistent', 'ranges']);

// Params arrive as the server writes them: sides as 'south'/'north', pit lists as "b c" or "b,c", Makis squares
// as `c5r9` (screens say "5/9"), rolls as "2-5-5".
function localParams(lang: Lang, params: Params): Params {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === 'south' || value === 'north') out[name] = sideName(lang, value);
    else if (typeof value !== 'string') out[name] = value;
    else if (LIST_PARAMS.has(name)) out[name] = list(lang, value.split(/[\s,]+/).filter(Boolean).map(makisSquareLabel));
    else if (ROLL_PARAMS.has(name)) out[name] = rollText(value);
    else out[name] = makisSquareLabel(value);
  }
  return out;
}

/** "2 · 5 · 5" for a roll written `2-5-5`, `2.5.5`, `R2.5.5` or `2 5 5`; anything else as it is. */
export function rollText(roll: string | readonly number[]): string {
  if (typeof roll !== 'string') return roll.join(' · ');
  const match = /^R?\s*(\d)\s*[-.,\s]\s*(\d)\s*[-.,\s]\s*(\d)$/i.exec(roll.trim());
  return match ? `${match[1]} · ${match[2]} · ${match[3]}` : roll;
}

const variantCache = new Map<string, readonly string[]>();

export type CodedKind = 'alert' | 'question' | 'result';

/**
 * The catalogue keys that may word `code` on this board, most specific first: the game's variants
 * (`alert.referee/mismatch#malawi…`, in catalogue order), then the common sentence. The first one
 * whose conditions hold and whose params are all there wins, so one code can be worded for
 * whatever params the server sends.
 */
function candidateKeys(lang: Lang, kind: CodedKind, code: string, game: string): readonly string[] {
  const base = `${kind}.${catalogueCode(code)}`;
  const cacheKey = `${lang} ${base} ${game}`;
  let keys = variantCache.get(cacheKey);
  if (!keys) {
    const prefix = `${base}#${game}`;
    keys = [...Object.keys(CATALOGUES[lang]).filter((key) => key.startsWith(prefix)), base];
    variantCache.set(cacheKey, keys);
  }
  return keys;
}

// A variant's conditions: `.action=take-off` in `alert.referee/mismatch#malawi.action=take-off`.
const CONDITION = /\.(\w+)=([\w-]+)/g;

/** Whether the params meet every `.name=value` condition in a variant's key (a key without any always does). */
export function conditionsHold(key: string, params: Params): boolean {
  const variant = key.slice(key.indexOf('#') + 1);
  for (const [, name, value] of variant.matchAll(CONDITION)) {
    if (String(params[name]) !== value) return false;
  }
  return true;
}

/** The sentence for a code from the catalogue, or null when there is none that its params can fill. */
export function wordCode(lang: Lang, kind: CodedKind, code: string, params: Params, board: BoardKind): string | null {
  const local = localParams(lang, params);
  for (const key of candidateKeys(lang, kind, code, board.game)) {
    if (!hasKey(lang, key)) continue;
    // Conditions are checked on the server's values ('take-off'), before names are put into the page's language.
    if (key.includes('#') && !conditionsHold(key, params)) continue;
    const sentence = fill(lang, CATALOGUES[lang][key], local);
    if (sentence !== null) return sentence;
  }
  return null;
}

export function formatAlert(lang: Lang, alert: Alert, board: BoardKind = KALAHA_BOARD): AlertText {
  const sentence = wordCode(lang, 'alert', alert.code, alert.params ?? {}, board);
  const cells = alert.cells?.filter((c) => c.diff !== 0 || beadsOf(c) !== 0) ?? [];
  // A no-break space keeps each sign with its cell when the line wraps on a phone.
  const detail = cells.length
    ? fill(lang, CATALOGUES[lang]['alert.cells'], {
        cells: cells
          .map((c) =>
            c.diff !== 0
              ? `${cellLabel(lang, c.cell, board)}\u00a0${signed(c.diff)}`
              : `${cellLabel(lang, c.cell, board)}\u00a0${fill(lang, CATALOGUES[lang]['alert.cells.beads'], { beads: signed(beadsOf(c)), count: Math.abs(beadsOf(c)) })}`,
          )
          .join(', '),
      })
    : null;
  return sentence === null
    ? { text: alert.message, detail, translated: false }
    : { text: sentence, detail, translated: true };
}

/**
 * On a counting Malawi board a square can hold the right piece with the wrong beads: the server
 * then sends `diff: 0` and `beads` (too many: positive), a field the contract's `cells` does not name yet.
 */
export function beadsOf(cell: NonNullable<Alert['cells']>[number]): number {
  const beads = (cell as { readonly beads?: unknown }).beads;
  return typeof beads === 'number' ? beads : 0;
}

export interface QuestionText {
  readonly text: string;
  readonly translated: boolean;
}

export function formatQuestion(lang: Lang, question: Question, board: BoardKind = KALAHA_BOARD): QuestionText {
  const sentence = wordCode(lang, 'question', question.code, question.params ?? {}, board);
  return sentence === null ? { text: question.message, translated: false } : { text: sentence, translated: true };
}
