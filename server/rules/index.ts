// The public face of the rules folder: common types, the record format, replay, and one namespace per game.
//
// Engines share function names (initial, play, legalMoves…), so each game is exported as a
// namespace (`kalaha.play(state, move)`) and its types by their own names. `games` holds every
// game's GameDefinition by name; to add a game, import its definition and list it there.
import type { GameDefinition, GameName } from './types.ts';
import { kalahaGame } from './kalaha-notation.ts';
import { malawiGame } from './malawi-game.ts';
import { aduGame } from './adu-game.ts';
import { makisGame } from './makis-game.ts';

export * from './types.ts';
export { parseRecord, formatRecord, type GameRecord } from './record.ts';
export { replay, type ReplayResult } from './replay.ts';

export * as kalaha from './kalaha.ts';
export * as kalahaNotation from './kalaha-notation.ts';
export { kalahaGame, type KalahaPosition } from './kalaha-notation.ts';
export { KalahaCore } from './kalaha.ts';
export * as malawi from './malawi.ts';
export * as malawiNotation from './malawi-notation.ts';
export { malawiGame } from './malawi-game.ts';
export * as adu from './adu.ts';
export * as aduRanges from './adu-ranges.ts';
export * as aduNotation from './adu-notation.ts';
export { aduGame } from './adu-game.ts';
export type { AduMove, AduOptions, AduOutcome, AduSetup, AduState } from './adu.ts';
export * as makis from './makis.ts';
export * as makisNotation from './makis-notation.ts';
export * as makisOdds from './makis-odds.ts';
export { makisGame } from './makis-game.ts';
export type { MakisMove, MakisOptions, MakisOutcome, MakisSetup, MakisState } from './makis.ts';
export type {
  EndReason,
  KalahaMove,
  KalahaOptions,
  KalahaOutcome,
  KalahaSetup,
  KalahaState,
  PitName,
  Sowing,
} from './kalaha.ts';

// `any`: the games differ in state, move and option types.
export const games: Partial<Record<GameName, GameDefinition<any, any, any>>> = {
  kalaha: kalahaGame,
  malawi: malawiGame,
  adu: aduGame,
  makis: makisGame,
};

/** The definition of a game by name, or undefined when that game has no engine yet. */
export function gameDefinition(name: string): GameDefinition<any, any, any> | undefined {
  return Object.hasOwn(games, name) ? games[name as GameName] : undefined;
}
