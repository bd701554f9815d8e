// A record played through its game's engine, ply by ply: what import checks and what the history
// page's slider shows. Nothing here knows a game; the `games` registry does.
import { gameDefinition, kalaha } from '../rules/index.ts';
import type { GameDefinition, GameName, ReplaySummary, RuleError } from '../rules/index.ts';

/** A move the engine would not play, named by its ply (1 = the first move). */
export interface BadMove {
  readonly ply: number;
  readonly move: string;
  readonly error: RuleError;
}

/**
 * A record being played: the state after every ply so far (index 0 is the start), so that a
 * take-back is a truncation and a move after it is played from the right state.
 */
export class RecordPlayer {
  private readonly states: unknown[];
  private readonly tokens: string[] = [];

  private constructor(
    readonly def: GameDefinition<any, any, any>,
    readonly options: object,
  ) {
    this.states = [def.initial(options)];
  }

  /** The engine's options from JSON (and a record's headers); an error when the engine refuses them. */
  static start(game: GameName, options: unknown, headers?: ReadonlyMap<string, string>): { ok: true; player: RecordPlayer } | { ok: false; error: RuleError } {
    const def = gameDefinition(game);
    if (!def) return { ok: false, error: { code: 'import/bad-game', message: `There is no engine for ${game}.` } };
    const parsed = def.parseOptions(options ?? {}, headers);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    return { ok: true, player: new RecordPlayer(def, parsed.value as object) };
  }

  get plies(): number {
    return this.tokens.length;
  }

  get moves(): readonly string[] {
    return this.tokens;
  }

  /** The state after `ply` moves (0: the start). */
  stateAt(ply: number): unknown {
    return this.states[ply];
  }

  /** Plays one token; on refusal nothing changes and the error says why. */
  play(token: string): RuleError | null {
    const state = this.states[this.states.length - 1];
    if (this.def.summary(state).over) return { code: `${this.def.name}/game-over`, message: 'The game is over; no more moves can be played.' };
    const move = this.def.parseMove(token, state);
    if (!move.ok) return move.error;
    const next = this.def.play(state, move.value);
    if (!next.ok) return next.error;
    this.states.push(next.value);
    this.tokens.push(token);
    return null;
  }

  /** Takes moves back until `plies` remain. */
  truncate(plies: number): void {
    this.states.length = Math.min(this.states.length, plies + 1);
    this.tokens.length = Math.min(this.tokens.length, plies);
  }

  summary(ply = this.plies): ReplaySummary {
    return this.def.summary(this.states[ply]);
  }

  /**
   * Why the game ended, as the engine says (`no-seeds`, `repetition`, …), null while it goes on.
   * Every engine's state carries `outcome: { winner, reason } | null` (RULES.md: each game's end).
   */
  reason(ply = this.plies): string | null {
    const outcome = (this.states[ply] as { outcome?: { reason?: unknown } | null }).outcome;
    return typeof outcome?.reason === 'string' ? outcome.reason : null;
  }
}

/** Plays every move of a record; the first one the engine refuses is returned, counted from 1. */
export function playAll(player: RecordPlayer, moves: readonly string[]): BadMove | null {
  for (const [i, move] of moves.entries()) {
    const error = player.play(move);
    if (error) return { ply: i + 1, move, error };
  }
  return null;
}

/** One step of the history slider: the position after `ply` moves, in the game's replay output form. */
export interface PositionStep extends ReplaySummary {
  readonly ply: number;
  /** The move that led here; null at the start. */
  readonly move: string | null;
  /** Kalaha only: the pits whose stones the move captured, and how many. */
  readonly captures?: readonly { readonly pit: string; readonly stones: number }[];
}

export interface Positions {
  readonly steps: PositionStep[];
  /** Set when a logged move does not replay (a log written by a buggy referee): the steps stop before it. */
  readonly error: BadMove | null;
}

/** The position after every ply of a record (step 0: the start), with the engine's replay. */
export function positionsOf(game: GameName, options: unknown, moves: readonly string[]): Positions | { optionsError: RuleError } {
  const started = RecordPlayer.start(game, options);
  if (!started.ok) return { optionsError: started.error };
  const player = started.player;
  const steps: PositionStep[] = [{ ply: 0, move: null, ...player.summary(0) }];
  for (const [i, move] of moves.entries()) {
    const error = player.play(move);
    if (error) return { steps, error: { ply: i + 1, move, error } };
    const step: PositionStep = { ply: i + 1, move, ...player.summary() };
    steps.push(game === 'kalaha' ? { ...step, captures: kalahaCaptures(player.stateAt(i) as kalaha.KalahaState, move, player.stateAt(i + 1) as kalaha.KalahaState) } : step);
  }
  return { steps, error: null };
}

/**
 * The stones a Kalaha move captured, pit by pit (for the history page's heat map). The sowing
 * says which capture the move would make; the stores say whether it was made: a forbidden
 * capture played because every move was forbidden captures nothing (RULES.md §1), and at the end
 * of a game each player also takes the stones in their own pits.
 */
function kalahaCaptures(before: kalaha.KalahaState, token: string, after: kalaha.KalahaState): { pit: string; stones: number }[] {
  const pit = (kalaha.PITS as readonly string[]).indexOf(token);
  const sown = kalaha.sowing(before, pit);
  if (sown.captures.length === 0) return [];
  const mover = before.toMove === 'south' ? 0 : 1;
  const gain = after.stores[mover] - before.stores[mover];
  const own = mover === 0 ? [0, 1, 2, 3, 4, 5] : [6, 7, 8, 9, 10, 11];
  const swept = after.outcome ? own.reduce((s, p) => s + sown.afterSow[p], 0) : 0;
  if (gain - swept !== sown.captured) return [];
  return sown.captures.map((p) => ({ pit: kalaha.PITS[p], stones: sown.afterSow[p] }));
}
