// One live Makis game on a 9 × 9 square board: the Makis referee behind the common session, the danger map, and the dice the display rolls for the table.
import { randomInt } from 'node:crypto';
import { FACES, columnOf, squareName, type MakisOptions, type Roll } from '../rules/makis.ts';
import { rollOdds } from '../rules/makis-odds.ts';
import { MakisReferee, type GridPicture, type MakisCommandResult } from '../referee/index.ts';
import type { ConsoleCommand, MakisView } from '../http/messages.ts';
import { GameSession, madeWhileDown, type CommandResult, type SessionOptions } from './game-session.ts';

export interface MakisSessionOptions extends SessionOptions {
  readonly rules: MakisOptions;
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[] };
  /**
   * Draws a roll for the console's `roll` command, as the dice III, IV and V show it. Default: a
   * face of each die, uniformly, from the operating system's random source (crypto.randomInt).
   */
  readonly drawRoll?: () => Roll;
}

/** A fair roll of Miwin's dice III, IV and V, in that order, seeded by the operating system. */
export function drawFairRoll(): Roll {
  return [FACES.III[randomInt(6)], FACES.IV[randomInt(6)], FACES.V[randomInt(6)]];
}

export class MakisSession extends GameSession {
  readonly game = 'makis' as const;
  readonly referee: MakisReferee;
  private readonly drawRoll: () => Roll;
  /** The odds of the next roll, kept for the position they were computed for. */
  private odds: { state: unknown; view: MakisView['odds'] } | null = null;

  constructor(private readonly makis: MakisSessionOptions) {
    super({ ...makis, gameId: makis.resume?.gameId });
    this.referee = new MakisReferee(makis.rules);
    this.drawRoll = makis.drawRoll ?? drawFairRoll;
    if (makis.resume) {
      const restored = this.referee.restore(makis.resume.moves);
      if (!restored.ok) throw new Error(`cannot resume game ${makis.resume.gameId}: ply ${restored.ply}: ${restored.error.message}`);
      const outcome = this.referee.state.outcome;
      this.endIfOver(outcome && { winner: String(outcome.winner), reason: outcome.reason });
    }
  }

  /** One occupancy (G) frame from the board (a counting board's C frame is read as occupancy), `t` on the board's clock in ms. */
  frame(t: number, picture: GridPicture): void {
    this.lastT = t;
    // A move read from a resumed game's board before it was watched was made while the service was down.
    const unwatched = this.referee.resuming;
    const events = this.referee.frame(t, picture);
    if (events.length) this.applyAll(unwatched ? events.map(madeWhileDown) : events);
  }

  record(): string[] {
    return this.referee.record();
  }

  view(): MakisView {
    const referee = this.referee;
    const state = referee.state;
    const over = state.outcome !== null;
    return {
      game: 'makis',
      players: state.options.players,
      mode: state.options.mode,
      knights: state.knights.slice(),
      makis: state.makis.map((spot) => (spot === null ? null : spot === 'out' ? 'out' : squareName(spot))),
      phase: state.phase,
      toMove: over ? null : state.toMove,
      lastRoll: referee.lastRoll(),
      expectedRoll: referee.expectedRoll(),
      odds: this.oddsView(),
      pending: referee.pending().map((r) => ({
        piece: r.piece,
        column: columnOf(r.from),
        ...(r.player !== undefined ? { player: r.player } : {}),
        from: squareName(r.from),
        to: r.to === 'out' ? 'out' : squareName(r.to),
      })),
      outcome: state.outcome ? { winner: String(state.outcome.winner), reason: state.outcome.reason } : null,
      lastMove: referee.lastMove(),
    };
  }

  /** Exact odds over the 216 rolls, when the next thing to happen is a roll. */
  private oddsView(): MakisView['odds'] {
    const state = this.referee.state;
    if (this.odds?.state === state) return this.odds.view;
    const odds = rollOdds(state);
    let view: MakisView['odds'] = null;
    if (odds.ok) {
      const danger: Record<string, { capture: number; reset: number }> = {};
      odds.value.danger.forEach((d, sq) => {
        if (d !== null) danger[squareName(sq)] = { capture: d.capture, reset: d.reset };
      });
      view = {
        danger,
        makis: odds.value.makis.map((m) => ({ player: m.player, square: squareName(m.square), capture: m.capture.numerator, reset: m.reset.numerator })),
        knightsHome: odds.value.knightsHome.numerator,
      };
    }
    this.odds = { state, view };
    return view;
  }

  protected options(): object {
    return this.makis.rules;
  }

  protected perform(command: ConsoleCommand): CommandResult {
    switch (command.kind) {
      case 'choose':
        return commandResult(this.referee.answer(command.questionId, command.move, this.lastT));
      case 'enter':
        return commandResult(this.referee.enter(command.move, this.lastT));
      case 'undo': {
        const events = this.referee.undo(this.lastT);
        if (events.length === 0) return { ok: false, error: 'console/nothing-to-undo', message: 'There is no move to take back.' };
        return { ok: true, events };
      }
      case 'roll':
        return commandResult(this.referee.expectRoll(this.drawRoll(), this.lastT));
      case 'ask':
        return { ok: false, error: 'console/no-question', message: 'The Makis referee has nothing to ask about: the board shows every move.' };
      case 'agree':
        return { ok: false, error: 'console/no-agreement', message: 'Makis has no ending by agreement (RULES.md §3).' };
      case 'confirm':
        return { ok: true, events: [] };
    }
  }
}


function commandResult(result: MakisCommandResult): CommandResult {
  return result.ok
    ? { ok: true, events: result.events }
    : { ok: false, error: result.error.code, message: result.error.message, ...(result.error.params ? { params: result.error.params } : {}) };
}
