// The catalogue core: languages, lookup and formatting of the messages, names of sides, pits and cells.
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { ErrorCode, FormatError, IntlMessageFormat } from 'intl-messageformat';
import { de, type Catalogue, type MessageKey } from './de.ts';
import { en } from './en.ts';

export type { Catalogue, MessageKey } from './de.ts';

export const LANGS = ['de', 'en'] as const;
export type Lang = (typeof LANGS)[number];
/** German first: the table stands in Freiburg. */
export const DEFAULT_LANG: Lang = 'de';

export const CATALOGUES: Readonly<Record<Lang, Catalogue>> = { de, en };

export type Params = Readonly<Record<string, string | number>>;

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

// The messages are ICU MessageFormat, formatted by FormatJS's intl-messageformat: `{name}` is a parameter,
// `{n, plural, one {Stein} other {# Steine}}` picks a form by the CLDR plural rules of the language (`=0 {…}`
// for an exact number first), and `#` inside a form is the number. Tags stay text: a "<" on a screen is a "<".
type Formatter = IntlMessageFormat;

const formatters: Record<Lang, Map<string, Formatter>> = { de: new Map(), en: new Map() };

/** The template parsed once per language; a template that is no valid message throws (the catalogue tests parse every one). */
function formatter(lang: Lang, template: string): Formatter {
  let format = formatters[lang].get(template);
  if (!format) formatters[lang].set(template, (format = new IntlMessageFormat(template, lang, undefined, { ignoreTag: true })));
  return format;
}

/** The names a template needs, in order of appearance (repeats kept once), including those inside plural forms. */
export function placeholders(template: string): string[] {
  const names = new Set<string>();
  const walk = (elements: readonly MessageFormatElement[]): void => {
    for (const element of elements) {
      if ('value' in element && element.type !== TYPE.literal) names.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(formatter(DEFAULT_LANG, template).getAst());
  return [...names];
}

/**
 * Fills a template, or returns null when it names a parameter that is missing:
 * a sentence with a hole is worse than the server's own fallback sentence.
 */
export function fill(lang: Lang, template: string, params: Params = {}): string | null {
  try {
    return String(formatter(lang, template).format(params));
  } catch (error) {
    if (error instanceof FormatError && error.code === ErrorCode.MISSING_VALUE) return null;
    throw error;
  }
}

/** The sentence for a key; a missing parameter shows as its name so the gap is visible, never silent. */
export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  const template = CATALOGUES[lang][key];
  return fill(lang, template, params) ?? template;
}

export function hasKey(lang: Lang, key: string): key is MessageKey {
  return Object.hasOwn(CATALOGUES[lang], key);
}

export type SideName = 'south' | 'north';

export function sideName(lang: Lang, side: SideName): string {
  return t(lang, side === 'south' ? 'side.south' : 'side.north');
}

/** Pits in sensor order (the server's cell index 0–11): south's A–F, then north's a–f. */
export const PIT_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'] as const;
/** Cells 12 and 13 are the stores, in the server's sensor order. */
export const STORE_CELL = { south: 12, north: 13 } as const;

export function pitLetter(pit: number): string {
  return PIT_LETTERS[pit] ?? `#${pit}`;
}

/**
 * Files from the left as seen from south or the first seat: Malawi boards run from 4 × 4 to 12 × 12
 * (RULES.md §2), Adu boards from 7 × 7 to 19 × 19 intersections (`a`…`s`, RULES.md §4).
 */
export const FILE_LETTERS = 'abcdefghijklmnopqrs';

/** `c3` for cell index i = row * size + col, row 0 = rank 1 (south's baseline), col 0 = file a. */
export function squareName(cell: number, size: number): string {
  return `${FILE_LETTERS[cell % size] ?? '?'}${Math.floor(cell / size) + 1}`;
}

/** The cell index of `c3` on a board of `size`, or null when it is no square of that board. */
export function squareIndex(name: string, size: number): number | null {
  const match = /^([a-s])([1-9][0-9]?)$/.exec(name.trim().toLowerCase());
  if (!match) return null;
  const col = FILE_LETTERS.indexOf(match[1]);
  const row = Number(match[2]) - 1;
  return col < size && row < size ? row * size + col : null;
}

/** Makis is played on 9 × 9 squares: columns 1–9 are the dice numbers, rows 1–9 (RULES.md §3). */
export const MAKIS_SIZE = 9;
const MAKIS_SQUARE = /^c([1-9])r([1-9])$/i;

/** The cell index of a Makis square written `c5r9` (column 5, row 9), or null; cell = (row − 1) · 9 + (column − 1). */
export function makisCell(name: string): number | null {
  const match = MAKIS_SQUARE.exec(name.trim());
  return match ? (Number(match[2]) - 1) * MAKIS_SIZE + Number(match[1]) - 1 : null;
}

/** `c5r9` for a Makis cell index, as the record writes it. */
export function makisSquareName(cell: number): string {
  return `c${(cell % MAKIS_SIZE) + 1}r${Math.floor(cell / MAKIS_SIZE) + 1}`;
}

/** "5/9": a Makis square as screens show it (column/row). Anything that is not a square stays as it is. */
export function makisSquareLabel(name: string): string {
  const match = MAKIS_SQUARE.exec(name.trim());
  return match ? `${match[1]}/${match[2]}` : name;
}

/** Which board a cell number belongs to: Kalaha's pits and stores, or the squares or intersections of a grid. */
export type BoardKind =
  | { readonly game: 'kalaha' }
  | { readonly game: 'malawi'; readonly size: number }
  | { readonly game: 'makis' }
  | { readonly game: 'adu'; readonly size: number };
export const KALAHA_BOARD: BoardKind = { game: 'kalaha' };

/** A sensor cell by name: a pit by its letter, a store by its owner, a square by its name ("c3", Makis "5/9"). */
export function cellLabel(lang: Lang, cell: number, board: BoardKind): string {
  switch (board.game) {
    case 'kalaha':
      return cellName(lang, cell);
    case 'malawi':
    case 'adu':
      return squareName(cell, board.size);
    case 'makis':
      return makisSquareLabel(makisSquareName(cell));
    default:
      return board satisfies never;
  }
}

/** A Kalaha sensor cell by name: a pit by its letter, a store by its owner. */
export function cellName(lang: Lang, cell: number): string {
  if (cell === STORE_CELL.south) return t(lang, 'cell.store', { side: sideName(lang, 'south') });
  if (cell === STORE_CELL.north) return t(lang, 'cell.store', { side: sideName(lang, 'north') });
  return pitLetter(cell);
}

/** "Spieler 3": Makis and Adu number their players from 1 in seat order. */
export function playerName(lang: Lang, player: number | string): string {
  return t(lang, 'player.name', { player });
}

/**
 * `count` of `total` as a percentage the way the language writes it ("12 %", "12%"); a chance that
 * is not zero never shows as 0 ("<1 %"), nor one short of certain as 100.
 */
export function percent(lang: Lang, count: number, total: number): string {
  const format = percentFormat(lang);
  if (total <= 0 || count <= 0) return format.format(0);
  const share = count / total;
  if (share < 0.005) return `<${format.format(0.01)}`;
  if (share < 1 && share > 0.995) return `>${format.format(0.99)}`;
  return format.format(share);
}

const percentFormats = new Map<Lang, Intl.NumberFormat>();
function percentFormat(lang: Lang): Intl.NumberFormat {
  let format = percentFormats.get(lang);
  if (!format) percentFormats.set(lang, (format = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 })));
  return format;
}

/** "b, c und d" — a list the way the language says it. */
export function list(lang: Lang, items: readonly string[]): string {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
}

/** +2 / −1 with a real minus sign: on a big screen a hyphen is easy to miss. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0';
}
