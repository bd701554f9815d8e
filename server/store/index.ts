// The public face of server/store: the game log.
export { isDatabaseUrl, openGameLog } from './open.ts';
export { EVENT_KINDS, GAME_SOURCES, MAX_LIST_LIMIT } from './types.ts';
export type {
  AppendKind,
  Durability,
  EventKind,
  GameEnd,
  GameEvent,
  GameFilter,
  GameLog,
  GameQuery,
  GameRecord,
  GameSource,
  GameSummary,
  ImportedGame,
  NewEvent,
  NewGame,
  Players,
} from './types.ts';
export { GameLogInputError, GameLogRefusedError, GameLogWriteError, INPUT_ERROR_CODES, REFUSAL_REASONS, UNWRITABLE_REASONS } from './errors.ts';
export type { InputErrorCode, RefusalReason, UnwritableReason } from './errors.ts';
export { SCHEMA_VERSION } from './schema.ts';
export { dayRange, gameStats, localDay, tally, winnerOf } from './stats.ts';
export type { GameKindStats, GameStats, Tally } from './stats.ts';
