// The new-game form's logic, pure: seats and their names, option values, the start request, and who may be named the winner.
import type { GameName, HostedGame, OptionField } from './api.ts';

export type OptionValues = Readonly<Record<string, string | number | boolean>>;

/** The names the log gives a seat nobody named (server/table/hosting.ts): `Süd`, `Nord`, `Spieler 3`. */
export function isDefaultName(seat: string, name: string): boolean {
  return seat === 'south' ? name === 'Süd' : seat === 'north' ? name === 'Nord' : name === `Spieler ${seat}`;
}

/**
 * The names in seat order from a logged players record: `{ south, north }` or `{ "1", "2", … }`. A seat's default
 * name is left blank, so the field shows that nobody was named.
 */
export function seatNames(hosted: HostedGame, players: Readonly<Record<string, string>> | null): string[] {
  const { min, kind } = hosted.seats;
  if (!players) return Array.from({ length: min }, () => '');
  const named = (seat: string): string => {
    const name = players[seat] ?? '';
    return isDefaultName(seat, name) ? '' : name;
  };
  if (kind === 'sides') return [named('south'), named('north')];
  const seats = Object.keys(players)
    .filter((k) => /^[1-9][0-9]?$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map(named);
  return resizeSeats(hosted, seats, seats.length);
}

/** `count` seats (kept within the game's bounds), the first names kept. */
export function resizeSeats(hosted: HostedGame, names: readonly string[], count: number): string[] {
  const n = Math.min(hosted.seats.max, Math.max(hosted.seats.min, count));
  return Array.from({ length: n }, (_, i) => names[i] ?? '');
}

/** The names with seat `i` moved by `delta` (−1: one seat earlier); unchanged at either end. */
export function moveSeat(names: readonly string[], i: number, delta: -1 | 1): string[] {
  const j = i + delta;
  if (i < 0 || i >= names.length || j < 0 || j >= names.length) return [...names];
  const out = [...names];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** The value each option starts with: what the game now uses when it is the same game, else the default. */
export function optionValues(fields: readonly OptionField[], current: Readonly<Record<string, unknown>> | null): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const field of fields) {
    const now = current?.[field.key];
    out[field.key] = valueFits(field, now) ? (now as string | number | boolean) : field.default;
  }
  return out;
}

/** Whether a value is one the field allows. */
export function valueFits(field: OptionField, value: unknown): boolean {
  switch (field.kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= field.min && value <= field.max;
    case 'choice':
      return field.values.includes(value as string | number);
    case 'bool':
      return typeof value === 'boolean';
    default:
      return field satisfies never;
  }
}

/** An option's value as typed into a field: a whole number, a choice by its text, a checkbox. */
export function readOption(field: OptionField, text: string, checked: boolean): string | number | boolean {
  switch (field.kind) {
    case 'int':
      return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
    case 'choice':
      return field.values.find((v) => String(v) === text) ?? text;
    case 'bool':
      return checked;
    default:
      return field satisfies never;
  }
}

/** The fields whose value the server would refuse (an empty or out-of-range number). */
export function badOptions(fields: readonly OptionField[], values: OptionValues): string[] {
  return fields.filter((f) => !valueFits(f, values[f.key])).map((f) => f.key);
}

export interface StartBody {
  readonly game: GameName;
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly players: readonly string[];
  readonly abandon?: true;
}

/** The start request: every option offered (a board's fixed size too), the names as typed, trimmed. */
export function startBody(hosted: HostedGame, values: OptionValues, names: readonly string[], abandon: boolean): StartBody {
  const options: Record<string, string | number | boolean> = {};
  for (const field of hosted.options) options[field.key] = values[field.key] ?? field.default;
  return { game: hosted.game, options, players: names.map((n) => n.trim()), ...(abandon ? { abandon: true as const } : {}) };
}

/** Who may be named the winner of the game now, as the server takes it. */
export function winners(game: GameName, players: number, cooperative: boolean): string[] {
  const seats = Array.from({ length: players }, (_, i) => String(i + 1));
  switch (game) {
    case 'kalaha':
    case 'malawi':
      return ['south', 'north', 'draw'];
    case 'makis':
      return [...seats, ...(cooperative ? ['team'] : []), 'knights'];
    case 'adu':
      return [...seats, 'draw'];
    default:
      return game satisfies never;
  }
}
