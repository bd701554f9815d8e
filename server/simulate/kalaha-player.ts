// Simulated Kalaha players: whole games chosen with the engine and turned into the physical actions of hands on the table.
import { Random, type TableAction } from '../../firmware-bridge/index.ts';
import {
  DEFAULT_OPTIONS,
  PITS,
  STORE,
  endByAgreement,
  initial,
  legalMoves,
  observe,
  owner,
  play,
  sowing,
  whyIllegal,
  type EndReason,
  type KalahaMove,
  type KalahaOptions,
  type KalahaState,
  type Side,
} from '../rules/kalaha.ts';
import { sameCells, scriptMarks, type TakeBackPlanEvent } from './player-common.ts';
import { peopleWith, type PeopleModel } from './people.ts';

export interface KalahaPlayerOptions {
  readonly seed: number | string;
  /** Engine options (seedsPerPit 3 is the 36-stone variant). */
  readonly rules?: Partial<KalahaOptions>;
  /** Chance per turn that the player first starts a move the rules forbid, notices, and puts it back. */
  readonly illegalProbability?: number;
  /** Of those, the chance that the player notices before every stone is sown. */
  readonly partialIllegalProbability?: number;
  /** Chance after a move (one that does not end the game) that the players take back the last move. */
  readonly takeBackProbability?: number;
  /** Of those take-backs, the chance that the last two moves are taken back. */
  readonly takeBackTwoProbability?: number;
  /** Chance per turn that the player takes the biggest capture on offer instead of a random legal move (people like capturing; it also keeps games short). Default 0.6. */
  readonly captureEagerness?: number;
  /** Moves played (taken-back ones included) after which the session stops; default: play to the end. */
  readonly maxMoves?: number;
  /** At `maxMoves`: the recording simply stops mid-game (`stop`, default), or the players agree to end and sweep (`agree`). */
  readonly onMaxMoves?: 'stop' | 'agree';
  /** How the people's hands behave beyond their moves (people.ts); the calm first model when left out. */
  readonly people?: Partial<PeopleModel>;
}

/** What the people model (people.ts) did to a move; absent on a calm move. */
export interface KalahaHandling {
  /** How the move began: `quick` while the last move was barely down, `short` after a still board of only `pauseMs`. */
  readonly start?: 'quick' | 'short';
  /** Then: ms from the last stone of the move before set down to this move's stones lifted. */
  readonly stillMs?: number;
  /** A hand rested in a pit of the mover's (the `rest` action's mark, the pit's cell, how hard and how long). */
  readonly rest?: { readonly label: string; readonly cell: number; readonly grams: number; readonly ms: number };
  /** Both hands: the other hand took the captured stones while the last ones were still being sown. */
  readonly bothHands?: true;
  /** A stone meant for `pit` was dropped into `into` (the next pit) and then moved where it belongs. */
  readonly wrongPit?: { readonly pit: number; readonly into: number };
  /** The stones were sown quickly (`quickSowingMs` each). */
  readonly quickSowing?: true;
}

/** A game that runs this long is a bug (the repetition rule ends every game long before). */
const RUNAWAY_MOVES = 5000;

export const CAPTURE_STYLES = ['pit-by-pit', 'one-handful', 'two-handfuls'] as const;
/** How a hand carries captured stones to the store. */
export type CaptureStyle = (typeof CAPTURE_STYLES)[number];

/** One thing that happened at the table, tied to the `mark` in the script that times it. */
export type KalahaPlanEvent =
  | {
      readonly kind: 'move';
      readonly label: string;
      readonly endLabel: string;
      /** Position in the record at the time it was played (1-based). */
      readonly ply: number;
      readonly move: string;
      readonly side: Side;
      readonly sown: readonly number[];
      readonly captures: readonly { readonly pit: number; readonly stones: number }[];
      readonly captureStyle: CaptureStyle | null;
      readonly handling?: KalahaHandling;
    }
  | {
      readonly kind: 'illegal';
      readonly label: string;
      readonly pit: string;
      readonly side: Side;
      readonly code: string;
      /** Put back before all its stones were sown. */
      readonly partial: boolean;
    }
  | TakeBackPlanEvent
  | { readonly kind: 'end'; readonly label: string; readonly reason: EndReason; readonly winner: Side | 'draw' };

export interface KalahaGamePlan {
  readonly options: KalahaOptions;
  /** The script for the table, `mark`s included. */
  readonly actions: readonly TableAction[];
  readonly events: readonly KalahaPlanEvent[];
  /** The game record after take-backs, in notation. */
  readonly record: readonly string[];
  readonly final: KalahaState;
}

/** The pits that receive the stones of `pit`, in sowing order (counter-clockwise; the emptied pit skipped when `skipOrigin`). */
export function sowingOrder(pit: number, stones: number, skipOrigin: boolean): number[] {
  const order: number[] = [];
  let p = pit;
  for (let i = 0; i < stones; i++) {
    p = (p + 1) % 12;
    if (skipOrigin && p === pit) p = (p + 1) % 12;
    order.push(p);
  }
  return order;
}

interface PlayedMove {
  readonly move: string;
  readonly pit: number;
  readonly mover: Side;
  readonly sown: readonly number[];
  readonly captures: readonly { readonly pit: number; readonly stones: number }[];
}

/** Each pit's stones into its owner's store: what the board looks like once the players have swept. */
function swept(cells: readonly number[]): number[] {
  const out = cells.slice();
  for (let p = 0; p < 12; p++) {
    out[STORE[owner(p)]] += out[p];
    out[p] = 0;
  }
  return out;
}

/**
 * What a move does physically: the pits sown in order and the captures carried. The engine's
 * `sowing` gives the sowing and the capture it would make; whether the capture happens (the
 * capture-nothing fallback) is read from the state `play` returns, so the player never second-
 * guesses the rules.
 */
function physicalMove(state: KalahaState, pit: number, next: KalahaState): { played: PlayedMove; board: number[] } {
  const sow = sowing(state, pit);
  const mover = state.toMove;
  const sown = sowingOrder(pit, state.pits[pit], state.options.skipOrigin);
  const expected = observe(state);
  expected[pit] = 0;
  for (const q of sown) expected[q]++;
  if (!sameCells(expected, sow.afterSow)) {
    throw new Error(`the engine's sowing of ${PITS[pit]} differs from counter-clockwise order: ${sow.afterSow.join(' ')}`);
  }
  const withCapture = sow.afterSow.slice();
  const captures = sow.captures.map((q) => ({ pit: q, stones: sow.afterSow[q] }));
  for (const c of captures) {
    withCapture[STORE[mover]] += c.stones;
    withCapture[c.pit] = 0;
  }
  const seen = observe(next);
  for (const [board, caught] of [
    [withCapture, captures],
    [sow.afterSow.slice(), []],
  ] as const) {
    const fits = next.outcome ? sameCells(swept(board), seen) : sameCells(board, seen);
    if (fits) return { played: { move: PITS[pit], pit, mover, sown, captures: caught }, board };
  }
  throw new Error(`cannot explain the engine's position after ${PITS[pit]} by sowing and capturing`);
}

/**
 * How the next move begins by the people model: quickly (each move by the `quickStart` chance, at
 * most `quickRun` in a row), after a short still board, or (null) after thinking.
 */
function startOf(people: PeopleModel, prng: Random, quick: { run: number }, afterMove: boolean): 'quick' | 'short' | null {
  if (afterMove && quick.run < people.quickRun && people.quickStart > 0 && prng.chance(people.quickStart)) {
    quick.run++;
    return 'quick';
  }
  quick.run = 0;
  if (afterMove && people.shortPause > 0 && prng.chance(people.shortPause)) return 'short';
  return null;
}

/** The index of the last action in `actions` that sets stones down. */
function lastLandingIn(actions: readonly TableAction[]): number | null {
  for (let i = actions.length - 1; i >= 0; i--) {
    const k = actions[i].kind;
    if (k === 'drop' || k === 'put' || k === 'carry') return i;
  }
  return null;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The legal move that gains the mover the most stones (ties broken at random). */
function greediest(state: KalahaState, moves: readonly KalahaMove[], rng: Random): KalahaMove {
  const store = state.toMove === 'south' ? 0 : 1;
  let best: KalahaMove[] = [];
  let bestGain = -1;
  for (const m of moves) {
    const r = play(state, m);
    const gain = r.ok ? r.value.stores[store] - state.stores[store] : -1;
    if (gain > bestGain) {
      bestGain = gain;
      best = [m];
    } else if (gain === bestGain) {
      best.push(m);
    }
  }
  return rng.pick(best);
}

/** Plans a whole game: the engine picks legal moves at random; people err and take back now and then. */
export function planKalahaGame(options: KalahaPlayerOptions): KalahaGamePlan {
  const rules: KalahaOptions = { ...DEFAULT_OPTIONS, ...options.rules };
  const rng = new Random(options.seed).fork('player');
  const pIllegal = options.illegalProbability ?? 0;
  const pPartial = options.partialIllegalProbability ?? 0.4;
  const pTakeBack = options.takeBackProbability ?? 0;
  const pTwo = options.takeBackTwoProbability ?? 0.3;
  const maxMoves = options.maxMoves ?? Infinity;
  const onMaxMoves = options.onMaxMoves ?? 'stop';
  const eagerness = options.captureEagerness ?? 0.6;
  // The people's ways draw from a stream of their own: the calm model draws nothing that changes a game or its script.
  const people = peopleWith(options.people);
  const prng = new Random(options.seed).fork('people');

  const actions: TableAction[] = [];
  const events: KalahaPlanEvent[] = [];
  let state = initial(rules);
  let board = observe(state);
  const history: { state: KalahaState; played: PlayedMove }[] = [];
  let movesMade = 0;
  const mark = scriptMarks(actions);
  /** The script's last action that set stones down, while the last thing done at the table was a move (a quick start overlaps it). */
  let lastLanding: number | null = null;
  const quick = { run: 0 };

  /**
   * Sows with one hand while the other takes the captured stones: each captured pit sown before
   * the last is lifted as soon as its last stone is in (half the time its handful goes to the store
   * before the last stone lands); the last pit is lifted as its stone lands, and all goes to the store.
   */
  const sowWithBothHands = (played: PlayedMove, drop: (cell: number, last?: boolean) => void): CaptureStyle => {
    const store = STORE[played.mover];
    const n = played.sown.length;
    const last = played.sown[n - 1];
    const early = played.captures.filter((c) => c.pit !== last);
    played.sown.forEach((q, i) => {
      const isLast = i === n - 1;
      if (isLast && early.length > 0 && prng.chance(0.5)) {
        actions.push({ kind: 'put', cell: store, hand: 'other', ms: Math.round(prng.range(150, 350)) });
        early.length = 0;
      }
      drop(q, isLast);
      for (const c of early) {
        if (!isLast && played.sown.lastIndexOf(c.pit) === i) actions.push({ kind: 'lift', cell: c.pit, hand: 'other', ms: Math.round(prng.range(80, 200)) });
      }
    });
    const twoHandfuls = played.captures.length > 1 && early.length === 0;
    if (played.captures.some((c) => c.pit === last)) actions.push({ kind: 'lift', cell: last, hand: 'other', ms: Math.round(prng.range(80, 250)) });
    actions.push({ kind: 'put', cell: store, hand: 'other' });
    return twoHandfuls ? 'two-handfuls' : 'one-handful';
  };

  const illegalAttempt = (): void => {
    const candidates: number[] = [];
    for (let p = 0; p < 12; p++) if (state.pits[p] > 0 && whyIllegal(state, { kind: 'sow', pit: p }) !== null) candidates.push(p);
    if (candidates.length === 0) return;
    // Forbidden captures and refusing to feed are the interesting mistakes; prefer them when the position offers one.
    const own = candidates.filter((p) => owner(p) === state.toMove);
    const pit = own.length > 0 && rng.chance(0.5) ? rng.pick(own) : rng.pick(candidates);
    const error = whyIllegal(state, { kind: 'sow', pit })!;
    const n = state.pits[pit];
    const order = sowingOrder(pit, n, rules.skipOrigin);
    const partial = n > 1 && rng.chance(pPartial);
    const sown = partial ? order.slice(0, rng.int(1, n - 1)) : order;
    const label = mark('illegal');
    events.push({ kind: 'illegal', label, pit: PITS[pit], side: state.toMove, code: error.code, partial });
    actions.push({ kind: 'lift', cell: pit });
    for (const q of sown) actions.push({ kind: 'drop', cell: q });
    actions.push({ kind: 'wait', ms: Math.round(rng.range(400, 1500)) }); // noticing
    // Any stone of each pit sown into goes back, not necessarily the one dropped there.
    for (let i = sown.length - 1; i >= 0; i--) actions.push({ kind: 'lift', cell: sown[i], count: 1 });
    actions.push({ kind: 'put', cell: pit });
  };

  const carryCaptures = (mover: Side, captures: PlayedMove['captures']): CaptureStyle | null => {
    if (captures.length === 0) return null;
    const store = STORE[mover];
    const total = captures.reduce((n, c) => n + c.stones, 0);
    const style: CaptureStyle = captures.length === 1 ? (rng.chance(0.7) ? 'pit-by-pit' : 'one-handful') : rng.pick(CAPTURE_STYLES);
    if (style === 'pit-by-pit') {
      for (const c of captures) actions.push({ kind: 'carry', from: c.pit, to: store });
      return style;
    }
    for (const c of captures) actions.push({ kind: 'lift', cell: c.pit });
    if (style === 'two-handfuls' && total > 1) {
      actions.push({ kind: 'put', cell: store, count: rng.int(1, total - 1) });
    }
    actions.push({ kind: 'put', cell: store });
    return style;
  };

  const sweep = (reason: EndReason, winner: Side | 'draw'): void => {
    const label = mark('end');
    events.push({ kind: 'end', label, reason, winner });
    actions.push({ kind: 'think' });
    // Each player sweeps their own row, pit by pit, into their store.
    for (const p of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
      if (board[p] > 0) actions.push({ kind: 'carry', from: p, to: STORE[owner(p)] });
    }
    board = swept(board);
  };

  const takeBack = (count: number): void => {
    const label = mark('takeback');
    const undone: string[] = [];
    for (let i = 0; i < count; i++) {
      const last = history.pop()!;
      const { played } = last;
      const store = STORE[played.mover];
      for (let j = played.captures.length - 1; j >= 0; j--) {
        const c = played.captures[j];
        actions.push({ kind: 'lift', cell: store, count: c.stones });
        actions.push({ kind: 'put', cell: c.pit });
      }
      for (let j = played.sown.length - 1; j >= 0; j--) actions.push({ kind: 'lift', cell: played.sown[j], count: 1 });
      actions.push({ kind: 'put', cell: played.pit });
      state = last.state;
      board = observe(state);
      undone.push(played.move);
    }
    events.push({ kind: 'take-back', label, moves: undone });
  };

  let stopped = false;
  while (state.outcome === null) {
    if (movesMade >= RUNAWAY_MOVES) throw new Error(`no end after ${RUNAWAY_MOVES} moves`);
    if (movesMade >= maxMoves) {
      if (onMaxMoves === 'stop') {
        stopped = true;
        break;
      }
      const ended = endByAgreement(state);
      if (!ended.ok) throw new Error(`endByAgreement refused: ${ended.error.code}`);
      state = ended.value;
      break;
    }
    // The chance is drawn before the think is scripted (the same draw as ever): a turn that begins
    // with an illegal attempt begins after thinking, never quickly.
    const illegal = rng.chance(pIllegal);
    const start = illegal ? null : startOf(people, prng, quick, lastLanding !== null);
    const thinkAt = actions.length;
    if (start === null) actions.push({ kind: 'think' });
    if (illegal) {
      illegalAttempt();
      actions.push({ kind: 'think' });
    }
    const moves = legalMoves(state);
    if (moves.length === 0) throw new Error('the engine offers no move in a game that is not over');
    const move: KalahaMove = rng.chance(eagerness) ? greediest(state, moves, rng) : rng.pick(moves);
    const result = play(state, move);
    if (!result.ok) throw new Error(`the engine refused its own legal move ${PITS[move.pit]}: ${result.error.code}`);
    const next = result.value;
    const { played, board: after } = physicalMove(state, move.pit, next);
    const handling: { -readonly [K in keyof KalahaHandling]: KalahaHandling[K] } = {};
    let liftMs: number | undefined;
    if (start !== null && lastLanding !== null) {
      // The last move's hand is still on its way back when this one reaches in: its last stone
      // lands as its action ends, and this move's stones leave their pit `gap` ms later.
      const gap = Math.round(start === 'quick' ? prng.range(people.quickStartMs[0], people.quickStartMs[1]) : prng.range(people.pauseMs, people.pauseMs * 1.5));
      const landing = actions[lastLanding];
      if (landing.kind === 'drop' || landing.kind === 'put' || landing.kind === 'carry') actions[lastLanding] = { ...landing, overlap: true };
      // Fingers close around the stones 0.6 of the way into a lift.
      liftMs = Math.round(prng.range(Math.min(60, gap / 0.6), Math.min(400, gap / 0.6)));
      const wait = gap - Math.round(liftMs * 0.6);
      if (wait > 0) actions.push({ kind: 'wait', ms: wait });
      handling.start = start;
      handling.stillMs = gap;
    }
    if (people.handRest > 0 && prng.chance(people.handRest)) {
      // The other hand rests in a pit of the mover's row while they think, or as they sow.
      const own = [0, 1, 2, 3, 4, 5].map((i) => (played.mover === 'south' ? i : i + 6)).filter((p) => p !== move.pit);
      const rest = { cell: prng.pick(own), grams: round1(prng.range(people.handRestGrams[0], people.handRestGrams[1])), ms: Math.round(prng.range(people.handRestMs[0], people.handRestMs[1])) };
      const restLabel = mark('rest');
      actions.pop();
      const at = start === null && prng.chance(0.5) ? thinkAt : actions.length;
      actions.splice(at, 0, { kind: 'mark', label: restLabel }, { kind: 'rest', ...rest });
      handling.rest = { label: restLabel, ...rest };
    }
    const label = mark('move');
    actions.push(liftMs === undefined ? { kind: 'lift', cell: move.pit } : { kind: 'lift', cell: move.pit, ms: liftMs });
    const bothHands = played.captures.length > 0 && people.bothHands > 0 && prng.chance(people.bothHands);
    const quickSowing = people.quickSowing > 0 && prng.chance(people.quickSowing);
    const wrongPit = !bothHands && people.wrongPit > 0 && prng.chance(people.wrongPit);
    if (quickSowing) handling.quickSowing = true;
    const sowMs = quickSowing ? () => Math.round(prng.range(people.quickSowingMs[0], people.quickSowingMs[1])) : null;
    const drop = (cell: number, last = false): void => {
      const a: TableAction = sowMs ? { kind: 'drop', cell, ms: sowMs() } : { kind: 'drop', cell };
      actions.push(last ? { ...a, overlap: true } : a);
    };
    let captureStyle: CaptureStyle | null;
    if (bothHands) {
      captureStyle = sowWithBothHands(played, drop);
      handling.bothHands = true;
    } else {
      if (wrongPit) {
        const n = played.sown.length;
        const i = prng.int(0, n - 1);
        const into = (played.sown[i] + 1) % 12;
        const noticed = i + prng.int(0, Math.min(2, n - 1 - i));
        played.sown.forEach((q, j) => {
          drop(j === i ? into : q);
          if (j === noticed) {
            // Noticed a moment later: the other hand moves a stone of the wrong pit (people cannot
            // tell which one strayed) to where it belongs, while the sowing hand holds the rest.
            actions.push({ kind: 'wait', ms: Math.round(prng.range(200, 800)) });
            actions.push({ kind: 'lift', cell: into, count: 1, hand: 'other' });
            actions.push({ kind: 'drop', cell: played.sown[i], hand: 'other', ...(sowMs ? { ms: sowMs() } : {}) });
          }
        });
        handling.wrongPit = { pit: played.sown[i], into };
      } else {
        for (const q of played.sown) drop(q);
      }
      captureStyle = carryCaptures(played.mover, played.captures);
    }
    lastLanding = lastLandingIn(actions);
    const endLabel = mark('moved');
    events.push({
      kind: 'move',
      label,
      endLabel,
      ply: history.length + 1,
      move: played.move,
      side: played.mover,
      sown: played.sown,
      captures: played.captures,
      captureStyle,
      ...(Object.keys(handling).length > 0 ? { handling } : {}),
    });
    history.push({ state, played });
    movesMade++;
    state = next;
    board = after;
    if (state.outcome === null && rng.chance(pTakeBack)) {
      // People notice after a moment: the board stands still in the position they then undo.
      actions.push({ kind: 'think' });
      takeBack(history.length >= 2 && rng.chance(pTwo) ? 2 : 1);
      lastLanding = null;
      quick.run = 0;
    }
  }
  if (!stopped) {
    const outcome = state.outcome!;
    sweep(outcome.reason, outcome.winner);
  }
  if (!sameCells(board, observe(state))) throw new Error('the board differs from the engine’s final position');
  return { options: rules, actions, events, record: history.map((h) => h.played.move), final: state };
}
