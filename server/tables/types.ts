// A table kit: everything `spieltisch serve` and `spieltisch referee` need to know of one game —
// its rules from the command line, its simulated board and players, its live session on a board
// link, and how a recorded trace is refereed. One file per game; `index.ts` lists them.
import type { BoardLink, HelloMessage } from '../../firmware-bridge/index.ts';
import type { GameSession, LoggedAnswer, SessionLog } from '../session/index.ts';
import type { BoardStatus } from '../http/messages.ts';
import type { GameName } from '../rules/types.ts';
import type { TraceSummary } from './trace.ts';
import type { PeopleModel } from '../simulate/people.ts';

export interface TableKit {
  readonly game: GameName;
  /** The game's name as people write it: `Kalaha`. */
  readonly title: string;
  /** What a real board's HELLO must say its kind is. */
  readonly board: 'kalaha' | 'grid';
  /**
   * The game with the rules of `--options` (already parsed JSON; `{}` when not given); a real
   * board's HELLO may fill in what the options leave out (its size). Throws a UsageError.
   */
  withRules(input: Record<string, unknown>, hello?: HelloMessage): TableGame;
}

export interface TableGame {
  /** The rules as the game log keeps them (compared on resume). */
  readonly options: object;
  /** A simulated board with simulated players at it, playing game after game. */
  simulate(settings: SimulateSettings): Promise<SimulatedTable>;
  /** The live session, its referee fed by the link's frames. */
  session(settings: SessionSettings, link: BoardLink): GameSession;
  /** Referee a recorded trace (the trace's time is the clock); `print` hears every event. */
  refereeTrace(text: string, answersFile: string | undefined, print: (event: { t: number; kind: string }) => void): TraceRun;
  /** One game played by simulated players on the simulated board in virtual time: its sensor trace and what really happened. */
  generateTrace(settings: TraceSettings): GeneratedTrace;
}

export interface TraceSettings {
  readonly seed: number;
  /** Chance per turn of an illegal attempt that is then put right. */
  readonly illegal: number;
  /** Chance per move that the players take it back. */
  readonly takebacks: number;
  readonly sense: 'occupancy' | 'count';
  /** How the people at the board behave beyond their moves; the calm first model when left out. */
  readonly people?: Partial<PeopleModel>;
}

export interface GeneratedTrace {
  /** The trace file's text. */
  readonly trace: string;
  /** What really happened, as JSON text (one key per line). */
  readonly truth: string;
}

export interface SimulateSettings {
  readonly seed: number;
  /** How much faster than real time the simulated players act. */
  readonly simSpeed: number;
  /** Square boards: whether the simulated board senses occupancy or counts beads. */
  readonly sense: 'occupancy' | 'count';
}

export interface SimulatedTable {
  readonly link: BoardLink;
  readonly boardId: string;
  /** How the start-up line describes it: `a simulated table`. */
  readonly description: string;
  close(): Promise<void>;
}

export interface SessionSettings {
  readonly boardId: string;
  readonly source: BoardStatus['source'];
  readonly log: SessionLog;
  /** A game to resume from the log: its moves, and the console's answers about them. */
  readonly resume?: { readonly gameId: number; readonly moves: readonly string[]; readonly answers?: readonly LoggedAnswer[] };
  /** The players' names by side or seat, for the log (each kit passes its settings on to the session). */
  readonly players?: Readonly<Record<string, string>>;
}

export interface TraceRun {
  readonly summary: TraceSummary;
  readonly record: readonly string[];
}
