// Simulated Makis players: whole games with real dice, chosen with the engine and turned into the physical actions of hands on a 9 × 9 board.
import { Random, type GridAction, type GridPieceSpec } from '../../firmware-bridge/index.ts';
import {
  DEFAULT_OPTIONS,
  FACES,
  SIZE,
  canRoll,
  columnOf,
  initial,
  legalMoves,
  parseOptions,
  play,
  rollEffects,
  rowOf,
  square,
  squareName,
  stepEffects,
  whyIllegal,
  type EndReason,
  type MakisMove,
  type MakisOptions,
  type MakisState,
  type Roll,
  type Square,
} from '../rules/makis.ts';
import { formatMove } from '../rules/makis-notation.ts';
import { knightDanger } from '../rules/makis-odds.ts';
import { assertNever } from '../rules/types.ts';
import { PeoplePlanner, scriptMarks, type PeoplePlanEvent, type TakeBackPlanEvent } from './player-common.ts';
import type { PeopleModel } from './people.ts';

export interface MakisPlayerOptions {
  readonly seed: number | string;
  /** Engine options: players (1–5), mode, the knights' starting rows. */
  readonly rules?: Partial<MakisOptions>;
  /**
   * Chance per Maki turn that the player first moves their Maki two squares, notices and puts it
   * right; and per roll that the players misread a die, move the knights for a roll Miwin's dice
   * cannot make, notice and set the knights right.
   */
  readonly illegalProbability?: number;
  /** Of the Makis moved two squares, the chance that the player moves it straight on to a legal square instead of back first. Default 0.4. */
  readonly correctOnwardProbability?: number;
  /** Chance after a step or roll (one that does not end the game) that the players take it back. */
  readonly takeBackProbability?: number;
  /** Chance per Maki turn that the player passes though they could step. Default 0.1. */
  readonly passProbability?: number;
  /** Chance that the resets a move asks for are made only after a long pause (the referee then asks for them). Default 0.1. */
  readonly slowResetProbability?: number;
  /** Chance that several resets are made in another order than the rules list them. Default 0.3. */
  readonly shuffleResetsProbability?: number;
  /** Chance that a piece moving one square is slid rather than lifted (where its way is clear). Default 0.5. */
  readonly slideProbability?: number;
  /** Rolls made (taken-back ones included) after which the recording stops, before the next roll; default: play to the end. */
  readonly maxRounds?: number;
  /** How the people behave beyond their moves (people.ts); left out, the calm players of the first model. */
  readonly people?: Partial<PeopleModel>;
}

/** A game that runs this long is a bug (the knights reach row 9 long before). */
const RUNAWAY_ROLLS = 2000;

/** The colour of each player's Maki, player 1 first (the board knows colours, not players). */
export const MAKIS_COLOURS: readonly string[] = ['red', 'blue', 'green', 'yellow', 'white'];
export const KNIGHT_COLOUR = 'black';

export const MAKIS_HANDLINGS = ['slide', 'carry'] as const;
/** How a hand moves a piece: along the board (the squares passed sense it) or through the air. */
export type MakisHandling = (typeof MAKIS_HANDLINGS)[number];

export const MAKIS_CORRECTIONS = ['back', 'onward'] as const;
export type MakisCorrection = (typeof MAKIS_CORRECTIONS)[number];

/** A reset the referee will name when the board stands still with it owed. */
export interface ResetAlert {
  readonly code: 'makis/reset-knight' | 'makis/reset-maki' | 'makis/remove-maki';
  readonly params: Readonly<Record<string, string | number>>;
}

/** One thing that happened at the board, tied to the `mark`s in the script that time it. */
export type MakisPlanEvent =
  | {
      readonly kind: 'move';
      readonly label: string;
      readonly endLabel: string;
      /** Position in the record at the time it was played (1-based; passes count). */
      readonly ply: number;
      readonly move: string;
      readonly moveKind: 'place' | 'roll' | 'step';
      /** The player who placed, rolled or stepped. */
      readonly player: number;
      /** A roll as the dice III, IV and V showed it. */
      readonly dice: Roll | null;
      /** How a stepping Maki travelled; null for placements and rolls. */
      readonly handling: MakisHandling | null;
      /** Other rolls that leave the same board (a knight home with a step left over): the console is asked which. */
      readonly alike: readonly string[];
    }
  | { readonly kind: 'pass'; readonly ply: number; readonly move: string; readonly player: number }
  | {
      readonly kind: 'resets';
      readonly label: string;
      readonly endLabel: string;
      readonly count: number;
      /** Made only after a long pause: the referee names the first. */
      readonly slow: ResetAlert | null;
      readonly shuffled: boolean;
    }
  | {
      readonly kind: 'illegal';
      readonly label: string;
      readonly player: number;
      readonly from: string;
      readonly to: string;
      /** What the engine says of the step (`makis/not-adjacent`). */
      readonly code: string;
      readonly correction: MakisCorrection;
    }
  | {
      readonly kind: 'misroll';
      readonly label: string;
      /** The roll the knights showed, as the alert names it (`1-5-9`). */
      readonly shown: string;
      readonly code: string;
      /** The roll really made, in notation. */
      readonly move: string;
    }
  | TakeBackPlanEvent
  | { readonly kind: 'end'; readonly label: string; readonly reason: EndReason; readonly winner: string };

export interface MakisGamePlan {
  readonly options: MakisOptions;
  /** The knights as set on the board at the start. */
  readonly layout: readonly GridPieceSpec[];
  /** The Makis waiting beside the board, player 1 first. */
  readonly spare: readonly { readonly colour: string }[];
  /** The script for the board, `mark`s included. */
  readonly actions: readonly GridAction[];
  readonly events: readonly MakisPlanEvent[];
  /** The game record after take-backs, in notation (passes included, also trailing ones). */
  readonly record: readonly string[];
  readonly final: MakisState;
  /** What the people did beyond their moves (none without `people`). */
  readonly people: readonly PeoplePlanEvent[];
}

/** The knights of a start position as pieces on the board. */
export function makisLayout(options: MakisOptions): GridPieceSpec[] {
  return options.knights.map((row, i) => ({ cell: square(i + 1, row), beads: 0, colour: KNIGHT_COLOUR }));
}

/** What a 9 × 9 board needs to start a Makis game: its size, the knights, and the Makis beside it. */
export function makisBoardSetup(rules: Partial<MakisOptions> = {}): { cols: number; rows: number; pieces: GridPieceSpec[]; sparePieces: { colour: string }[] } {
  const options = checkedOptions(rules);
  return { cols: SIZE, rows: SIZE, pieces: makisLayout(options), sparePieces: MAKIS_COLOURS.slice(0, options.players).map((colour) => ({ colour })) };
}

export function checkedOptions(rules: Partial<MakisOptions>): MakisOptions {
  const parsed = parseOptions({ ...DEFAULT_OPTIONS, ...rules });
  if (!parsed.ok) throw new RangeError(parsed.error.message);
  return parsed.value;
}

const ascendingText = (dice: readonly number[]): string => [...dice].sort((a, b) => a - b).join('-');
const rollToken = (dice: readonly number[]): string => formatMove({ kind: 'roll', dice: [...dice].sort((a, b) => a - b) as unknown as Roll });

/** The resets a roll or a step leaves, in the order the rules list them (and the referee names them). */
interface PlannedReset {
  readonly piece: 'knight' | 'maki';
  readonly player: number;
  readonly from: Square;
  readonly to: Square | 'out';
}

function resetAlert(r: PlannedReset, remaining: number): ResetAlert {
  const from = squareName(r.from);
  if (r.to === 'out') return { code: 'makis/remove-maki', params: { player: r.player, square: from, remaining } };
  const to = squareName(r.to);
  if (r.piece === 'knight') return { code: 'makis/reset-knight', params: { column: columnOf(r.from), row: rowOf(r.to), from, to, remaining } };
  return { code: 'makis/reset-maki', params: { player: r.player, square: to, from, to, remaining } };
}

/** Knight steps a roll actually made per column (a knight stops on row 9). */
function advances(before: readonly number[], after: readonly number[]): number[] {
  return before.map((row, i) => after[i] - row);
}

/** What the board shows in a position: knights and the Makis on the board. */
export function makisOccupancy(state: Pick<MakisState, 'knights' | 'makis'>): number[] {
  const cells = new Array<number>(SIZE * SIZE).fill(0);
  state.knights.forEach((row, i) => (cells[square(i + 1, row)] = 1));
  for (const spot of state.makis) if (typeof spot === 'number') cells[spot] = 1;
  return cells;
}

/** The board's picture of a position as a key to compare. */
function pictureKey(state: Pick<MakisState, 'knights' | 'makis'>): string {
  return makisOccupancy(state).join('');
}

/** What the board shows in a position with some resets not yet made (`undone`): knights and Makis on the board. */
function boardWith(state: Pick<MakisState, 'knights' | 'makis'>, undone: readonly PlannedReset[]): string {
  const counts = new Array<number>(SIZE * SIZE).fill(0);
  state.knights.forEach((row, i) => counts[square(i + 1, row)]++);
  for (const spot of state.makis) if (typeof spot === 'number') counts[spot]++;
  for (const r of undone) {
    if (r.to !== 'out') counts[r.to]--;
    counts[r.from]++;
  }
  return counts.map((n) => (n > 0 ? 1 : 0)).join('');
}

/** Plans a whole game: real dice, players choosing steps with an eye on the danger, mistakes and take-backs now and then. */
export function planMakisGame(options: MakisPlayerOptions): MakisGamePlan {
  const rules = checkedOptions(options.rules ?? {});
  const rng = new Random(options.seed).fork('player');
  const dice = new Random(options.seed).fork('dice');
  const pIllegal = options.illegalProbability ?? 0;
  const pOnward = options.correctOnwardProbability ?? 0.4;
  const pTakeBack = options.takeBackProbability ?? 0;
  const pPass = options.passProbability ?? 0.1;
  const pSlow = options.slowResetProbability ?? 0.1;
  const pShuffle = options.shuffleResetsProbability ?? 0.3;
  const pSlide = options.slideProbability ?? 0.5;
  const maxRounds = options.maxRounds ?? Infinity;

  const actions: GridAction[] = [];
  const events: MakisPlanEvent[] = [];
  const startResult = initial(rules);
  if (!startResult.ok) throw new RangeError(startResult.error.message);
  const start = startResult.value;
  let state = start;
  /** Every ply as played, with the position before it: passes too. */
  const history: { move: MakisMove; notation: string; before: MakisState; visible: boolean }[] = [];
  let rolls = 0;
  const mark = scriptMarks(actions);
  /** The board as the hand leaves it: 1 where a piece stands. */
  const board = makisOccupancy(start);
  const colour = (player: number): string => MAKIS_COLOURS[player - 1];
  const people = options.people === undefined ? null : new PeoplePlanner(options.people, options.seed, actions, mark);
  /** The ply the hands are making now (history holds the plies made). */
  const nextPly = (): number => history.length + 1;
  /** The empty squares left and right of `sq`, and (`rows`) above and below it. */
  const emptyBeside = (sq: Square, rows = false): Square[] => {
    const out: Square[] = [];
    const c = columnOf(sq);
    const r = rowOf(sq);
    const near: [number, number][] = [[c - 1, r], [c + 1, r]];
    if (rows) near.push([c, r - 1], [c, r + 1]);
    for (const [cc, rr] of near) if (cc >= 1 && cc <= SIZE && rr >= 1 && rr <= SIZE && board[square(cc, rr)] === 0) out.push(square(cc, rr));
    return out;
  };

  /**
   * The knights of a roll as rougher hands move them (each entry one move of a hand, a double
   * perhaps in two): two knights lifted and set down together, one set a row off and corrected
   * within a second; in any order.
   */
  const peopleKnights = (p: PeoplePlanner, steps: { from: Square; to: Square }[]): void => {
    const ply = nextPly();
    let i = 0;
    const plain = (k: number): boolean => k < steps.length && board[steps[k].to] === 0 && rowOf(steps[k].to) - rowOf(steps[k].from) === 1;
    if (plain(0) && plain(1) && steps[1].from !== steps[0].to && steps[0].from !== steps[1].to && p.chance(p.model.bothHands)) {
      const [a, b] = steps;
      p.note('both-hands', ply, [a.from, b.from], null);
      // Lifted together, set down together (the one lifted last first).
      actions.push(
        { kind: 'lift', cell: a.from, lead: 40, tail: 0 },
        { kind: 'lift', cell: b.from, lead: p.range([0, 40]), tail: 0 },
        { kind: 'put', cell: b.to, lead: p.range([250, 500]), tail: 0 },
        { kind: 'put', cell: a.to, lead: p.range([0, 40]) },
      );
      board[a.from] = board[b.from] = 0;
      board[a.to] = board[b.to] = 1;
      i = 2;
      if (steps.length > 2) actions.push({ kind: 'wait', ms: Math.round(rng.range(0, 300)) });
    }
    const corrected = p.chance(p.model.knightCorrected) && i < steps.length ? p.pick(steps.slice(i)) : null;
    for (; i < steps.length; i++) {
      const { from, to } = steps[i];
      if (board[to] === 1) liftOff(to);
      // One row too far (not onto row 9: that would end the game), or one short of a double.
      const wrong = corrected === steps[i] ? emptyBeside(to, true).filter((sq) => columnOf(sq) === columnOf(to) && sq !== from && rowOf(sq) < SIZE) : [];
      if (wrong.length > 0) {
        p.correctedCarry(ply, from, p.pick(wrong), to, 'knight-corrected', 1000);
        board[from] = 0;
        board[to] = 1;
      } else movePiece(from, to, rowOf(to) - rowOf(from) === 1);
      if (i < steps.length - 1) actions.push({ kind: 'wait', ms: Math.round(rng.range(0, 300)) });
    }
  };

  /** Moves a piece from one square to another, sliding it along when its way is clear. */
  const movePiece = (from: Square, to: Square, allowSlide = true): MakisHandling => {
    const path = slideSquares(from, to);
    const clear = path.every((sq) => board[sq] === 0);
    const handling: MakisHandling = allowSlide && clear && (people?.slideAllowed() ?? true) && rng.chance(pSlide) ? 'slide' : 'carry';
    actions.push({ kind: handling, from, to });
    board[from] = 0;
    board[to] = 1;
    return handling;
  };
  const liftOff = (sq: Square): void => {
    actions.push({ kind: 'lift', cell: sq }, { kind: 'stow-piece' });
    board[sq] = 0;
  };
  const putOn = (sq: Square, player: number): void => {
    actions.push({ kind: 'fetch-piece', colour: colour(player) }, { kind: 'put', cell: sq });
    board[sq] = 1;
  };

  /** The knights of a roll moved by hand, in any column order; a Maki a knight lands on comes off first. */
  const moveKnights = (before: MakisState, after: readonly number[], onlyColumns?: readonly number[]): void => {
    const columns = (onlyColumns ?? after.map((_, i) => i + 1)).filter((c) => after[c - 1] !== before.knights[c - 1]);
    shuffle(columns);
    const m = people?.model;
    // (People whose knights are moved as calm people move them keep the calm hands' order and pauses.)
    if (people !== null && m !== undefined && m.knightsOneByOne + m.bothHands + m.knightCorrected + m.quickStart > 0) {
      // Each column's knight in one move of the hand, or a double in two single steps; one at a time in any order.
      const byColumn = columns.map((c) => {
        const from = square(c, before.knights[c - 1]);
        const to = square(c, after[c - 1]);
        const middle = after[c - 1] - before.knights[c - 1] === 2 ? square(c, before.knights[c - 1] + 1) : -1;
        return middle >= 0 && board[middle] === 0 && people.chance(people.model.knightsOneByOne) ? [{ from, to: middle }, { from: middle, to }] : [{ from, to }];
      });
      let steps = byColumn.flat();
      if (byColumn.some((c) => c.length === 2)) {
        // The single steps of the doubles in among the others, each column's in its order.
        const order = people.shuffle(byColumn.flatMap((c, k) => c.map(() => k)));
        const next = byColumn.map(() => 0);
        steps = order.map((k) => byColumn[k][next[k]++]);
        people.note('knights-one-by-one', nextPly(), columns.map((c) => square(c, before.knights[c - 1])), null);
      }
      peopleKnights(people, steps);
      return;
    }
    for (const c of columns) {
      const from = square(c, before.knights[c - 1]);
      const to = square(c, after[c - 1]);
      if (board[to] === 1) liftOff(to);
      const steps = after[c - 1] - before.knights[c - 1];
      const middle = steps === 2 ? square(c, before.knights[c - 1] + 1) : -1;
      if (steps === 2 && board[middle] === 0 && rng.chance(0.3)) {
        // A double as two single steps, each its own move of the hand.
        movePiece(from, middle);
        movePiece(middle, to);
      } else {
        movePiece(from, to, steps === 1);
      }
      actions.push({ kind: 'wait', ms: Math.round(rng.range(0, 300)) });
    }
  };

  /** A Maki's step as rougher hands make it, or false for a plain one: a square hovered over, or the Maki held in the air a while. */
  const peopleStep = (p: PeoplePlanner, from: Square, to: Square): boolean => {
    board[from] = 0;
    const over = emptyBeside(to, true).filter((sq) => sq !== from);
    board[from] = 1;
    if (over.length > 0 && p.chance(p.model.hover)) p.hoverCarry(nextPly(), from, to, p.pick(over));
    else if (p.chance(p.model.handRest)) p.restingCarry(nextPly(), from, to);
    else return false;
    board[from] = 0;
    board[to] = 1;
    return true;
  };

  const shuffle = <T>(items: T[]): void => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [items[i], items[j]] = [items[j], items[i]];
    }
  };

  /** The resets, after a look at what the move did: soon, or after a long pause; in the rules' order or another. */
  const makeResets = (resets: readonly PlannedReset[], allowSlow: boolean): boolean => {
    if (resets.length === 0) return false;
    const slow = allowSlow && rng.chance(pSlow) ? resetAlert(resets[0], resets.length) : null;
    const order = resets.slice();
    const shuffled = order.length > 1 && rng.chance(pShuffle);
    if (shuffled) shuffle(order);
    const label = mark('resets');
    actions.push({ kind: 'wait', ms: Math.round(slow ? rng.range(10000, 12000) : rng.range(700, 1500)) });
    for (const r of order) {
      if (r.to === 'out') liftOff(r.from);
      else if (people !== null && r.piece === 'maki' && people.chance(people.model.resetBeside) && emptyBeside(r.to).length > 0) {
        // Set down beside its square and corrected.
        people.correctedCarry(history.length, r.from, people.pick(emptyBeside(r.to)), r.to, 'reset-beside', 1000);
        board[r.from] = 0;
        board[r.to] = 1;
      } else movePiece(r.from, r.to, false);
    }
    const endLabel = mark('reset');
    events.push({ kind: 'resets', label, endLabel, count: resets.length, slow, shuffled });
    return slow !== null;
  };

  const rollResets = (before: MakisState, dice: Roll): PlannedReset[] => {
    const effects = rollEffects(before.knights, before.makis, dice);
    if (effects.knightHome) return [];
    const landed = new Set(effects.knights.map((row, i) => square(i + 1, row)));
    const out: PlannedReset[] = [];
    for (const p of effects.captured) {
      const sq = before.makis[p - 1] as Square;
      if (!landed.has(sq)) out.push({ piece: 'maki', player: p, from: sq, to: 'out' });
    }
    for (const s of effects.sentBack) if (s.from !== s.to) out.push({ piece: 'maki', player: s.player, from: s.from, to: s.to });
    return out;
  };

  const stepResets = (before: MakisState, player: number, to: Square): PlannedReset[] => {
    const effects = stepEffects(before.knights, before.makis, player, to);
    const out: PlannedReset[] = [];
    for (const c of effects.knightsSentBack) {
      const row = before.knights[c - 1];
      if (row !== 1) out.push({ piece: 'knight', player: 0, from: square(c, row), to: square(c, 1) });
    }
    for (const s of effects.makisSentBack) if (s.from !== s.to) out.push({ piece: 'maki', player: s.player, from: s.from, to: s.to });
    return out;
  };

  /** Other rolls that leave exactly the same board (possible only when a knight comes home with a step left over). */
  const lookAlikes = (before: MakisState, roll: Roll, next: MakisState): string[] => {
    if (next.outcome?.reason !== 'knight-home') return [];
    const key = pictureKey(next);
    const out: string[] = [];
    const own = rollToken(roll);
    for (const other of legalMoves(before)) {
      if (other.kind !== 'roll' || rollToken(other.dice) === own) continue;
      const r = play(before, other);
      if (r.ok && pictureKey(r.value) === key) out.push(rollToken(other.dice));
    }
    return out;
  };

  /**
   * Other steps that leave the board looking just as it does right after this one (before its
   * resets): a later player's step after passes, with some of its own resets made. The referee
   * cannot tell them apart and asks the console.
   */
  const stepLookAlikes = (before: MakisState, move: MakisMove & { kind: 'maki'; to: Square }, next: MakisState): string[] => {
    const seen = boardWith(next, stepResets(before, move.player, move.to));
    const out: string[] = [];
    let cur = before;
    for (const player of before.pending) {
      for (const other of legalMoves(cur)) {
        if (other.kind !== 'maki' || other.to === null || (other.player === move.player && other.to === move.to)) continue;
        const r = play(cur, other);
        if (!r.ok) continue;
        const resets = stepResets(cur, other.player, other.to);
        for (let mask = 0; mask < 1 << resets.length; mask++) {
          if (boardWith(r.value, resets.filter((_, i) => (mask >> i) & 1)) === seen) {
            out.push(formatMove(other));
            break;
          }
        }
      }
      const pass = play(cur, { kind: 'maki', player, to: null });
      if (!pass.ok || pass.value.phase !== 'maki') break;
      cur = pass.value;
    }
    return out;
  };

  /**
   * A misread die: the knights moved for a roll the dice cannot make, one number wrong; the
   * players notice and take back the knights that went wrong. Only misreadings whose knights land
   * on empty squares below row 9 (so the board shows them plainly). Returns the columns whose
   * knight still has to move for the true roll, or null when no such misreading fits.
   */
  const misroll = (before: MakisState, roll: Roll, right: readonly number[]): number[] | null => {
    const candidates: number[][] = [];
    for (let i = 0; i < 3; i++) {
      for (let w = 1; w <= SIZE; w++) {
        if (w === roll[i]) continue;
        const shown = roll.slice() as number[];
        shown[i] = w;
        if (canRoll(shown)) continue;
        const steps = new Array<number>(SIZE).fill(0);
        for (const d of shown) steps[d - 1]++;
        let fine = true;
        for (let c = 0; c < SIZE && fine; c++) {
          for (let s = 1; s <= steps[c] && fine; s++) {
            const row = before.knights[c] + s;
            if (row >= SIZE || board[square(c + 1, row)] === 1) fine = false;
          }
        }
        if (fine) candidates.push(shown);
      }
    }
    if (candidates.length === 0) return null;
    const shown = rng.pick(candidates);
    const wrong = before.knights.slice();
    for (const d of shown) wrong[d - 1]++;
    const label = mark('misroll');
    const error = whyIllegal(before, { kind: 'roll', dice: shown as unknown as Roll });
    events.push({ kind: 'misroll', label, shown: ascendingText(shown), code: error?.code ?? 'makis/impossible-roll', move: rollToken(roll) });
    moveKnights(before, wrong);
    actions.push({ kind: 'wait', ms: Math.round(rng.range(1000, 2000)) }); // noticing
    const again: number[] = [];
    for (let c = 1; c <= SIZE; c++) {
      const home = before.knights[c - 1];
      if (wrong[c - 1] === right[c - 1]) continue;
      if (wrong[c - 1] !== home) movePiece(square(c, wrong[c - 1]), square(c, home), false);
      if (right[c - 1] !== home) again.push(c);
    }
    return again;
  };

  /** What people play: a winning step at once; otherwise forward, away from danger, now and then a knight sent home; sometimes a pass. */
  const chooseStep = (moves: readonly MakisMove[]): MakisMove => {
    const player = state.toMove;
    const steps = moves.filter((m): m is MakisMove & { kind: 'maki'; to: Square } => m.kind === 'maki' && m.to !== null);
    const pass = moves.find((m) => m.kind === 'maki' && m.to === null) as MakisMove;
    const winning = steps.filter((m) => rowOf(m.to) === 1);
    if (winning.length > 0) return rng.pick(winning);
    if (steps.length === 0 || rng.chance(pPass)) return pass;
    let best = steps[0];
    let bestScore = -Infinity;
    for (const m of steps) {
      const effects = stepEffects(state.knights, state.makis, player, m.to);
      const knights = state.knights.slice();
      for (const c of effects.knightsSentBack) knights[c - 1] = 1;
      const danger = knightDanger(knights).danger[m.to];
      const risk = danger === null ? 0 : (danger.capture * 3 + danger.reset) / 216;
      const score = (SIZE - rowOf(m.to)) - 4 * risk + 0.6 * effects.knightsSentBack.length + rng.range(0, 1.5);
      if (score > bestScore) {
        bestScore = score;
        best = m;
      }
    }
    return best;
  };

  /** A Maki moved two squares by mistake; the player notices and puts it back, or on to a legal square. */
  const illegalStep = (player: number): { at: Square; onward: MakisMove } | null => {
    const from = state.makis[player - 1] as Square;
    const targets: Square[] = [];
    for (let dr = -2; dr <= 2; dr++) {
      for (let dc = -2; dc <= 2; dc++) {
        if (Math.max(Math.abs(dr), Math.abs(dc)) !== 2) continue;
        const c = columnOf(from) + dc;
        const r = rowOf(from) + dr;
        if (c < 1 || c > SIZE || r < 1 || r > SIZE) continue;
        const sq = square(c, r);
        if (board[sq] === 0 && rowOf(sq) !== 1) targets.push(sq);
      }
    }
    if (targets.length === 0) return null;
    const to = rng.pick(targets);
    const error = whyIllegal(state, { kind: 'maki', player, to });
    if (error === null) return null;
    const legal = legalMoves(state).filter((m): m is MakisMove & { kind: 'maki'; to: Square } => m.kind === 'maki' && m.to !== null && rowOf(m.to) !== 1);
    const correction: MakisCorrection = legal.length > 0 && rng.chance(pOnward) ? 'onward' : 'back';
    const label = mark('illegal');
    actions.push({ kind: 'carry', from, to });
    board[from] = 0;
    board[to] = 1;
    events.push({ kind: 'illegal', label, player, from: squareName(from), to: squareName(to), code: error.code, correction });
    actions.push({ kind: 'wait', ms: Math.round(rng.range(1000, 2000)) }); // noticing
    if (correction === 'onward') return { at: to, onward: rng.pick(legal) };
    actions.push({ kind: 'carry', from: to, to: from });
    board[to] = 0;
    board[from] = 1;
    actions.push({ kind: 'think' });
    return null;
  };

  /**
   * Whether putting the board back as it was before the last move would look like a move from
   * here (a later Maki's step whose reset restores the old picture): the referee reads the move,
   * so these players do not take back then.
   */
  const takeBackLooksLikeMove = (): boolean => {
    const last = history[history.length - 1];
    if (!last || state.phase !== 'maki') return false;
    const target = boardWith(last.before, []);
    let cur = state;
    for (const player of state.pending) {
      for (const other of legalMoves(cur)) {
        if (other.kind !== 'maki' || other.to === null) continue;
        const r = play(cur, other);
        if (!r.ok) continue;
        const resets = stepResets(cur, other.player, other.to);
        for (let mask = 0; mask < 1 << resets.length; mask++) {
          if (boardWith(r.value, resets.filter((_, i) => (mask >> i) & 1)) === target) return true;
        }
      }
      const pass = play(cur, { kind: 'maki', player, to: null });
      if (!pass.ok || pass.value.phase !== 'maki') break;
      cur = pass.value;
    }
    return false;
  };

  const takeBack = (): void => {
    const last = history.pop()!;
    const label = mark('takeback');
    const { move, before } = last;
    const after = state;
    switch (move.kind) {
      case 'maki': {
        const to = move.to as Square;
        const resets = stepResets(before, move.player, to);
        for (const r of [...resets].reverse()) if (r.to !== 'out') movePiece(r.to, r.from, false);
        movePiece(to, before.makis[move.player - 1] as Square);
        break;
      }
      case 'roll': {
        // Knights back down first (a captured Maki's square is under one), then the Makis.
        for (let c = 1; c <= SIZE; c++) {
          if (after.knights[c - 1] !== before.knights[c - 1]) movePiece(square(c, after.knights[c - 1]), square(c, before.knights[c - 1]), false);
        }
        const effects = rollEffects(before.knights, before.makis, move.dice);
        for (const p of effects.captured) putOn(before.makis[p - 1] as Square, p);
        for (const s of effects.sentBack) if (s.from !== s.to) movePiece(s.to, s.from, false);
        break;
      }
      case 'place':
        throw new Error('placements are not taken back');
      default:
        assertNever(move);
    }
    state = before;
    events.push({ kind: 'take-back', label, moves: [last.notation] });
  };

  const record = (move: MakisMove, next: MakisState, visible: boolean): string => {
    const notation = move.kind === 'roll' ? rollToken(move.dice) : formatMove(move);
    history.push({ move, notation, before: state, visible });
    state = next;
    return notation;
  };

  const playMove = (move: MakisMove): MakisState => {
    const r = play(state, move);
    if (!r.ok) throw new Error(`the engine refused its own legal move ${formatMove(move)}: ${r.error.code}`);
    return r.value;
  };

  while (state.outcome === null) {
    switch (state.phase) {
      case 'place': {
        if (people !== null) people.turn(nextPly());
        else actions.push({ kind: 'think' });
        const moves = legalMoves(state);
        const move = rng.pick(moves) as MakisMove & { kind: 'place' };
        const next = playMove(move);
        const label = mark('place');
        putOn(move.square, move.player);
        const endLabel = mark('placed');
        const notation = record(move, next, true);
        events.push({ kind: 'move', label, endLabel, ply: history.length, move: notation, moveKind: 'place', player: move.player, dice: null, handling: null, alike: [] });
        break;
      }
      case 'roll': {
        if (rolls >= maxRounds) break;
        if (rolls >= RUNAWAY_ROLLS) throw new Error(`no end after ${RUNAWAY_ROLLS} rolls`);
        rolls++;
        if (people !== null) people.turn(nextPly());
        else actions.push({ kind: 'think' });
        const roller = state.toMove;
        const thrown: Roll = [dice.pick(FACES.III), dice.pick(FACES.IV), dice.pick(FACES.V)];
        const move: MakisMove = { kind: 'roll', dice: thrown };
        const before = state;
        const next = playMove(move);
        const label = mark('roll');
        const after = rollEffects(before.knights, before.makis, thrown).knights;
        let columns = after.map((_, i) => i + 1).filter((c) => after[c - 1] !== before.knights[c - 1]);
        if (rng.chance(pIllegal)) columns = misroll(before, thrown, after) ?? columns;
        moveKnights(before, after, columns);
        const endLabel = mark('rolled');
        const notation = record(move, next, true);
        events.push({ kind: 'move', label, endLabel, ply: history.length, move: notation, moveKind: 'roll', player: roller, dice: thrown, handling: null, alike: lookAlikes(before, thrown, next) });
        const resets = rollResets(before, thrown);
        makeResets(resets, next.outcome === null);
        // Only a move without resets is taken back: undoing resets first can look like a move of its own.
        if (next.outcome === null && resets.length === 0 && rng.chance(pTakeBack) && !takeBackLooksLikeMove()) {
          actions.push({ kind: 'think' });
          takeBack();
        }
        break;
      }
      case 'maki': {
        const player = state.toMove;
        if (people !== null) people.turn(nextPly());
        else actions.push({ kind: 'think' });
        const misplaced = rng.chance(pIllegal) ? illegalStep(player) : null;
        const moves = legalMoves(state);
        const move = misplaced ? misplaced.onward : chooseStep(moves);
        const before = state;
        const next = playMove(move);
        if (move.kind !== 'maki') throw new Error('a Maki move was expected');
        if (move.to === null) {
          people?.cancelTurn();
          const notation = record(move, next, false);
          events.push({ kind: 'pass', ply: history.length, move: notation, player });
          break;
        }
        const label = mark('step');
        const from = before.makis[player - 1] as Square;
        const handling = misplaced ? movePiece(misplaced.at, move.to, false) : people !== null && peopleStep(people, from, move.to) ? 'carry' : movePiece(from, move.to);
        const endLabel = mark('stepped');
        const alike = stepLookAlikes(before, move as MakisMove & { kind: 'maki'; to: Square }, next);
        const notation = record(move, next, true);
        events.push({ kind: 'move', label, endLabel, ply: history.length, move: notation, moveKind: 'step', player, dice: null, handling, alike });
        const resets = stepResets(before, player, move.to);
        makeResets(resets, next.outcome === null);
        if (next.outcome === null && resets.length === 0 && rng.chance(pTakeBack) && !takeBackLooksLikeMove()) {
          actions.push({ kind: 'think' });
          takeBack();
        }
        break;
      }
      case 'over':
        break;
      default:
        assertNever(state.phase);
    }
    if (state.phase === 'roll' && rolls >= maxRounds) break;
  }
  if (state.outcome !== null) {
    const label = mark('end');
    events.push({ kind: 'end', label, reason: state.outcome.reason, winner: String(state.outcome.winner) });
  }

  people?.finish();
  return {
    people: people?.events ?? [],
    options: rules,
    layout: makisLayout(rules),
    spare: MAKIS_COLOURS.slice(0, rules.players).map((c) => ({ colour: c })),
    actions,
    events,
    record: history.map((h) => h.notation),
    final: state,
  };
}

/** The squares a slide passes over after leaving `from`, its end included: all must be empty. */
function slideSquares(from: Square, to: Square): Square[] {
  const out: Square[] = [];
  let col = columnOf(from);
  let row = rowOf(from);
  const toCol = columnOf(to);
  const toRow = rowOf(to);
  while (col !== toCol) {
    col += Math.sign(toCol - col);
    out.push(square(col, row));
  }
  while (row !== toRow) {
    row += Math.sign(toRow - row);
    out.push(square(col, row));
  }
  return out;
}
