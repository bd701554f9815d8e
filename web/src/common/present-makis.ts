// What the pages say about a Makis table: the turn, the Makis and their odds, the dice, the pieces to put back. Pure.
import type { MakisView } from '../../../server/http/messages.ts';
import { makisCell, makisSquareLabel, percent, playerName, rollText, t, type Lang } from '../i18n/index.ts';

export type MakisPending = MakisView['pending'][number];
export type Roll = readonly [number, number, number];

/** Rolls are counted over the 216 equally likely ordered rolls of Miwin's three dice (RULES.md §3). */
export const ROLLS = 216;

/** Whose action is next, in words: "Spieler 2 würfelt"; null once the game is over. */
export function makisTurn(lang: Lang, view: MakisView): string | null {
  if (view.outcome || view.toMove === null) return null;
  const player = playerName(lang, view.toMove);
  switch (view.phase) {
    case 'place':
      return t(lang, 'turn.makis.place', { player });
    case 'roll':
      return t(lang, 'turn.makis.roll', { player });
    case 'maki':
      return t(lang, 'turn.makis.maki', { player });
    case 'over':
      return null;
    default:
      return view.phase satisfies never;
  }
}

/** The knights' steps a roll asks for: each number rolled once is one step, a double two (RULES.md §3 step 1). */
export function knightSteps(roll: Roll): { readonly column: number; readonly count: number }[] {
  const steps = new Map<number, number>();
  for (const n of roll) steps.set(n, (steps.get(n) ?? 0) + 1);
  return [...steps].sort(([a], [b]) => a - b).map(([column, count]) => ({ column, count }));
}

/** "Spalte 2 ein Feld vor, Spalte 5 zwei Felder vor" — what the players do after the table rolled. */
export function expectedRollLine(lang: Lang, roll: Roll): string {
  const steps = knightSteps(roll).map(({ column, count }) => t(lang, 'makis.expected.step', { column, count }));
  return t(lang, 'makis.expected.steps', { steps: steps.join(', ') });
}

/** The danger of a square as a whole percentage for the board (capture and sending back are one roll's exclusive outcomes). */
export function dangerShare(danger: { readonly capture: number; readonly reset: number } | undefined): number {
  if (!danger) return 0;
  return Math.min(1, Math.max(0, (danger.capture + danger.reset) / ROLLS));
}

/** "12" for the board's squares: whole percent, never 0 for a chance that is not zero. */
export function dangerNumber(share: number): string {
  if (share <= 0) return '';
  const whole = Math.round(share * 100);
  return whole === 0 ? '<1' : String(whole);
}

export type MakisSeatState = 'on-board' | 'out' | 'unplaced';

export interface MakisSeat {
  readonly player: number;
  readonly name: string;
  readonly state: MakisSeatState;
  /** "auf 5/8", "geschlagen — ausgeschieden", "noch nicht gesetzt". */
  readonly where: string;
  /** The odds of the next roll for this Maki, when a roll is due. */
  readonly odds: string | null;
  /** This player places, rolls or moves next. */
  readonly toMove: boolean;
  /** This player (or their team) has won. */
  readonly winner: boolean;
}

/** One line per player, player 1 first: where their Maki is and what the next roll may do to it. */
export function makisSeats(lang: Lang, view: MakisView): MakisSeat[] {
  return view.makis.map((spot, i) => {
    const player = i + 1;
    const state: MakisSeatState = spot === 'out' ? 'out' : spot === null ? 'unplaced' : 'on-board';
    const where =
      state === 'out'
        ? t(lang, 'makis.maki.out')
        : state === 'unplaced'
          ? t(lang, 'makis.maki.unplaced')
          : t(lang, 'makis.maki.at', { square: makisSquareLabel(spot as string) });
    const odds = view.odds?.makis.find((m) => m.player === player);
    const winner = view.outcome !== null && (view.outcome.winner === String(player) || (view.outcome.winner === 'team' && state !== 'out'));
    return {
      player,
      name: playerName(lang, player),
      state,
      where,
      odds: odds
        ? t(lang, 'makis.maki.odds', { capture: percent(lang, odds.capture, ROLLS), reset: percent(lang, odds.reset, ROLLS) })
        : null,
      toMove: view.outcome === null && view.toMove === player,
      winner,
    };
  });
}

/** "Ritter der Spalte 4 von 4/6 zurück auf 4/1" for each piece still to put back. */
export function pendingLines(lang: Lang, pending: readonly MakisPending[]): string[] {
  return pending.map((p) => {
    const from = makisSquareLabel(p.from);
    const to = makisSquareLabel(p.to);
    return p.piece === 'knight' || p.player === undefined
      ? t(lang, 'makis.pending.knight', { column: p.column, from, to })
      : t(lang, 'makis.pending.maki', { player: playerName(lang, p.player), from, to });
  });
}

const ROLL_TOKEN = /^R([1-9])\.([1-9])\.([1-9])$/i;
const STEP_TOKEN = /^([1-5]):(c[1-9]r[1-9]|-)$/i;
const PLACE_TOKEN = /^([1-5])@(c[1-9]r[1-9])$/i;

export type MakisToken =
  | { readonly kind: 'roll'; readonly roll: Roll }
  | { readonly kind: 'step'; readonly player: number; readonly square: string | null }
  | { readonly kind: 'place'; readonly player: number; readonly square: string };

/** A record token (`R2.5.5`, `1:c4r8`, `2:-`, `1@c5r9`) read as data; null for anything else. Notation only, no rules. */
export function readMakisToken(token: string): MakisToken | null {
  const text = token.trim();
  const roll = ROLL_TOKEN.exec(text);
  if (roll) return { kind: 'roll', roll: [Number(roll[1]), Number(roll[2]), Number(roll[3])] };
  const step = STEP_TOKEN.exec(text);
  if (step) return { kind: 'step', player: Number(step[1]), square: step[2] === '-' ? null : step[2].toLowerCase() };
  const place = PLACE_TOKEN.exec(text);
  if (place) return { kind: 'place', player: Number(place[1]), square: place[2].toLowerCase() };
  return null;
}

/** The last token in words, for the display ("Spieler 1 zieht den Maki nach 4/8"). */
export function makisLastMove(lang: Lang, token: string | null): string | null {
  if (!token) return null;
  return makisTokenWords(lang, token, 'lastMove') ?? token;
}

/** A token in a few words, for the console's answer buttons ("Spieler 1 nach 4/8"); the token itself when unreadable. */
export function describeMakisMove(lang: Lang, token: string): string {
  return makisTokenWords(lang, token, 'move') ?? token;
}

function makisTokenWords(lang: Lang, token: string, style: 'lastMove' | 'move'): string | null {
  const move = readMakisToken(token);
  if (!move) return null;
  switch (move.kind) {
    case 'roll':
      return t(lang, `${style}.makis.roll`, { dice: rollText(move.roll) });
    case 'step':
      return move.square === null
        ? t(lang, `${style}.makis.pass`, { player: playerName(lang, move.player) })
        : t(lang, `${style}.makis.step`, { player: playerName(lang, move.player), square: makisSquareLabel(move.square) });
    case 'place':
      return t(lang, `${style}.makis.place`, { player: playerName(lang, move.player), square: makisSquareLabel(move.square) });
    default:
      return move satisfies never;
  }
}

/** The square the last token moved a Maki to (a step or a placement), as a cell, for marking it on the board. */
export function lastMakiCell(token: string | null): number | null {
  const move = token ? readMakisToken(token) : null;
  if (!move || move.kind === 'roll' || move.square === null) return null;
  return makisCell(move.square);
}
