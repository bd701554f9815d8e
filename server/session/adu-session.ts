// One live Adu game on an occupancy grid: the Adu referee behind the common session, and the view every page draws.
import { merkskala, placementDue, squareName, type AduOptions, type AduPiece } from '../rules/adu.ts';
import { AduReferee, type AduCommandResult, type AduRefereeEvent, type AduRefereeOptions, type GridPicture } from '../referee/index.ts';
import type { AduView, ConsoleCommand } from '../http/messages.ts';
import { GameSession, madeWhileDown, type CommandResult, type SessionEvent, type SessionOptions } from './game-session.ts';
import type { LoggedAnswer } from './resume.ts';

export interface AduSessionOptions extends SessionOptions {
  readonly rules: AduOptions;
  /** The referee's timings and its patience with open declarations. */
  readonly referee?: AduRefereeOptions;
  /**
   * A game to resume: its id in the log, its moves so far, and the console's answers about them
   * (a captured soldier's range declared); a declaration never answered is asked again.
   */
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[]; readonly answers?: readonly LoggedAnswer[] };
}

export class AduSession extends GameSession {
  readonly game = 'adu' as const;
  readonly referee: AduReferee;

  constructor(private readonly adu: AduSessionOptions) {
    super({ ...adu, gameId: adu.resume?.gameId });
    this.referee = new AduReferee(adu.rules, adu.referee);
    if (adu.resume) {
      const restored = this.referee.restore(adu.resume.moves, adu.resume.answers);
      if (!restored.ok) throw new Error(`cannot resume game ${adu.resume.gameId}: ply ${restored.ply}: ${restored.error.message}`);
      this.applyAll(this.referee.openQuestions());
      const outcome = this.referee.state.outcome;
      // Who was still in at the end, as a game ended while watched logs it.
      const ended = outcome && { winner: String(outcome.winner), reason: outcome.reason, players: [...outcome.players] };
      this.endIfOver(ended);
    }
  }

  /** One occupancy (G) or count (C) frame from the board, `t` on the board's clock in ms. */
  frame(t: number, picture: GridPicture): void {
    this.lastT = t;
    // A move read from a resumed game's board before it was watched was made while the service was down.
    const unwatched = this.referee.resuming;
    const events = this.referee.frame(t, picture);
    if (events.length) this.applyAll(sessionEvents(events, unwatched));
  }

  record(): string[] {
    return this.referee.record();
  }

  view(): AduView {
    const state = this.referee.state;
    const size = state.options.size;
    const squares: (AduPiece | null)[] = state.squares.slice();
    // A king capture the board shows under way: the captor already stands on the king's point.
    const pending = this.referee.pending();
    if (pending) {
      squares[pending.to] = squares[pending.from];
      squares[pending.from] = null;
      for (const cell of pending.remove) squares[cell] = null;
    }
    const pieces: { square: string; player: number; kind: AduPiece['kind']; id: string }[] = [];
    const seats = Array.from({ length: state.options.players }, (_, i) => ({ player: i + 1, in: state.inGame[i], kings: 0, reserves: 0 }));
    squares.forEach((piece, cell) => {
      if (piece === null) return;
      pieces.push({ square: squareName(cell, size), player: piece.player, kind: piece.kind, id: piece.id });
      if (piece.kind === 'king') seats[piece.player - 1].kings++;
      if (piece.kind === 'reserve') seats[piece.player - 1].reserves++;
    });
    const due = placementDue(state);
    const outcome = state.outcome;
    const declaring = this.referee.openDeclarations().map(({ player, soldier, square }) => ({ player, soldier, square }));
    return {
      game: 'adu',
      size,
      players: state.options.players,
      pieces,
      phase: state.phase,
      placing: due === null ? null : { kind: due.kind, id: due.id },
      toMove: outcome ? null : state.toMove,
      seats,
      supply: state.supply,
      ranges: merkskala(state),
      awaitingReserve: pending?.awaitingReserve ? { player: pending.player } : null,
      outcome: outcome ? { winner: String(outcome.winner), reason: outcome.reason, players: [...outcome.players] } : null,
      lastMove: this.referee.lastMove(),
      ...(state.passed.length > 0 ? { passed: [...state.passed] } : {}),
      ...(declaring.length > 0 ? { declaring } : {}),
    };
  }

  protected options(): object {
    return this.adu.rules;
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
        return { ok: true, events: sessionEvents(events) };
      }
      case 'agree':
        return { ok: false, error: 'console/no-agreement', message: 'Adu has no ending by agreement (RULES.md §4).' };
      case 'confirm':
        return { ok: true, events: [] };
      case 'roll':
        return { ok: false, error: 'console/no-dice', message: 'Adu is played without dice.' };
    }
  }
}

/**
 * The referee's events as the session logs and broadcasts them. A declaration that rewrites the
 * record (a range other than the lowest) is a take-back of the moves from the capture on and the
 * same moves played again, the capture now carrying its range: that is what the log keeps, so a
 * game resumed from it reads the declared range.
 */
function sessionEvents(events: readonly AduRefereeEvent[], reconstructed = false): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (const event of events) {
    if (event.kind !== 'declared') {
      out.push(reconstructed ? madeWhileDown(event) : event);
      continue;
    }
    if (event.undone.length === 0) continue;
    out.push({ kind: 'takeback', t: event.t, undone: event.undone, ply: event.ply - 1 });
    event.moves.forEach((move, i) => out.push({ kind: 'move', t: event.t, move, ply: event.ply + i }));
  }
  return out;
}

function commandResult(result: AduCommandResult): CommandResult {
  return result.ok
    ? { ok: true, events: sessionEvents(result.events) }
    : { ok: false, error: result.error.code, message: result.error.message, ...(result.error.params ? { params: result.error.params } : {}) };
}
