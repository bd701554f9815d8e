// One live Malawi game on a square board: the Malawi referee behind the common session.
import { squareName, type MalawiOptions } from '../rules/malawi.ts';
import { MalawiReferee, type GridPicture, type MalawiCommandResult } from '../referee/index.ts';
import type { ConsoleCommand, MalawiView } from '../http/messages.ts';
import { GameSession, madeWhileDown, type CommandResult, type SessionOptions } from './game-session.ts';

export interface MalawiSessionOptions extends SessionOptions {
  readonly rules: MalawiOptions;
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[] };
}

export class MalawiSession extends GameSession {
  readonly game = 'malawi' as const;
  readonly referee: MalawiReferee;

  constructor(private readonly malawi: MalawiSessionOptions) {
    super({ ...malawi, gameId: malawi.resume?.gameId });
    this.referee = new MalawiReferee(malawi.rules);
    if (malawi.resume) {
      const restored = this.referee.restore(malawi.resume.moves);
      if (!restored.ok) throw new Error(`cannot resume game ${malawi.resume.gameId}: ply ${restored.ply}: ${restored.error.message}`);
      this.endIfOver(this.referee.state.outcome);
    }
  }

  /** One occupancy (G) or count (C) frame from the board, `t` on the board's clock in ms. */
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

  view(): MalawiView {
    const state = this.referee.state;
    const size = state.options.size;
    const pieces: { square: string; side: 'south' | 'north'; strength: number }[] = [];
    state.squares.forEach((piece, cell) => {
      if (piece) pieces.push({ square: squareName(cell, size), side: piece.side, strength: piece.strength });
    });
    return {
      game: 'malawi',
      size,
      pieces,
      toMove: state.outcome ? null : state.toMove,
      outcome: state.outcome ? { winner: state.outcome.winner, reason: state.outcome.reason } : null,
      lastMove: this.referee.lastMove(),
    };
  }

  protected options(): object {
    return this.malawi.rules;
  }

  protected perform(command: ConsoleCommand): CommandResult {
    switch (command.kind) {
      case 'choose':
        return commandResult(this.referee.answer(command.questionId, command.move, this.lastT));
      case 'ask':
        return commandResult(this.referee.askWhich(this.lastT));
      case 'enter':
        return commandResult(this.referee.enter(command.move, this.lastT));
      case 'undo': {
        const events = this.referee.undo(this.lastT);
        if (events.length === 0) return { ok: false, error: 'console/nothing-to-undo', message: 'There is no move to take back.' };
        return { ok: true, events };
      }
      case 'agree':
        return { ok: false, error: 'console/no-agreement', message: 'Malawi has no ending by agreement (RULES.md §2).' };
      case 'confirm':
        return { ok: true, events: [] };
      case 'roll':
        return { ok: false, error: 'console/no-dice', message: 'Malawi is played without dice.' };
    }
  }
}


function commandResult(result: MalawiCommandResult): CommandResult {
  return result.ok
    ? { ok: true, events: result.events }
    : { ok: false, error: result.error.code, message: result.error.message, ...(result.error.params ? { params: result.error.params } : {}) };
}
