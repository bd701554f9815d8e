// One live Kalaha game on a weighing table: the Kalaha referee behind the common session.
import { STORE, observe, type KalahaOptions, type KalahaState } from '../rules/kalaha.ts';
import { KalahaReferee } from '../referee/index.ts';
import type { ConsoleCommand, KalahaView } from '../http/messages.ts';
import { GameSession, type CommandResult, type SessionOptions } from './game-session.ts';

export interface KalahaSessionOptions extends SessionOptions {
  readonly rules: KalahaOptions;
  /** A game to resume: its id in the log and its moves so far. */
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[] };
}

export class KalahaSession extends GameSession {
  readonly game = 'kalaha' as const;
  readonly referee: KalahaReferee;

  constructor(private readonly kalaha: KalahaSessionOptions) {
    super({ ...kalaha, gameId: kalaha.resume?.gameId });
    this.referee = new KalahaReferee(kalaha.rules);
    if (kalaha.resume) {
      const restored = this.referee.restore(kalaha.resume.moves);
      if (!restored.ok) throw new Error(`cannot resume game ${kalaha.resume.gameId}: ply ${restored.ply}: ${restored.message}`);
      this.endIfOver(this.referee.state.outcome);
    }
  }

  /** One weight frame from the board (tenths of a gram, `t` on the board's clock in ms). */
  frame(t: number, tenths: ArrayLike<number>): void {
    this.lastT = t;
    const events = this.referee.frame(t, tenths);
    if (events.length) this.applyAll(events);
  }

  record(): string[] {
    return this.referee.record();
  }

  view(): KalahaView {
    return kalahaView(this.referee.state, this.referee.lastMove(), this.referee.pendingTransfers());
  }

  protected options(): object {
    return this.kalaha.rules;
  }

  protected override result(): object {
    const [south, north] = this.referee.state.stores;
    return { stores: { south, north } };
  }

  protected perform(command: ConsoleCommand): CommandResult {
    switch (command.kind) {
      case 'undo':
        return this.referee.undo(this.lastT);
      case 'enter':
        return this.referee.enter(this.lastT, command.move);
      case 'agree':
        return this.referee.agreeToEnd(this.lastT);
      case 'confirm':
        return this.referee.confirm();
      case 'choose':
      case 'ask':
        return { ok: false, error: 'console/no-question', message: 'The Kalaha referee asks no questions: the scales tell every move.' };
      case 'roll':
        return { ok: false, error: 'console/no-dice', message: 'Kalaha is played without dice.' };
    }
  }
}

export function kalahaView(
  state: KalahaState,
  last: { pit: number; sown: readonly number[]; captures: readonly number[] } | null,
  pending: readonly { from: number; to: number; stones: number }[],
): KalahaView {
  const cells = observe(state);
  const lastMove: KalahaView['lastMove'] = last ? { pit: last.pit, sown: last.sown, captures: last.captures } : null;
  return {
    game: 'kalaha',
    pits: cells.slice(0, 12),
    stores: { south: cells[STORE.south], north: cells[STORE.north] },
    toMove: state.outcome ? null : state.toMove,
    outcome: state.outcome ? { winner: state.outcome.winner, reason: state.outcome.reason } : null,
    lastMove,
    pending: pending.map((tr) => ({
      pit: tr.from,
      stones: tr.stones,
      store: tr.to === STORE.south ? 'south' : 'north',
      reason: state.outcome ? 'end' : 'capture',
    })),
  };
}
