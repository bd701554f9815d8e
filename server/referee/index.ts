// The referee: settle the sensor stream, match settled pictures against the rules, say what happened.
export { KalahaReferee, cellName, type KalahaRefereeOptions, type RefereeEvent, type RefereeAlert, type ConsoleResult } from './kalaha-referee.ts';
export { WeightSettler, DEFAULT_SETTLE, type SettleOptions, type SettledPicture } from './settle.ts';
export { matchTarget, type WeightModel, type Target, type Transfer, type Reference, type Match } from './weigh.ts';
export { MalawiReferee, SENSINGS, QUESTION_REASONS, MISMATCH_ACTIONS, type MalawiRefereeOptions, type MalawiRefereeEvent, type MalawiAlert, type MalawiQuestion, type MalawiCommandResult, type GridPicture, type Sensing, type SquareDiff, type QuestionReason, type MismatchAction } from './malawi-referee.ts';
export { GridSettler, DEFAULT_GRID_SETTLE, type GridSettleOptions, type SettledGrid } from './grid-settle.ts';
export * as squares from './squares.ts';
export type { BoardShape, Grid, CellDiff } from './squares.ts';
export { AduReferee, ADU_QUESTION_REASONS, canonicalMove as canonicalAduMove, type AduRefereeOptions, type AduRefereeEvent, type AduAlert, type AduQuestion, type AduCommandResult, type AduPending, type AduQuestionReason } from './adu-referee.ts';
export { MakisReferee, RESET_PIECES, MAKIS_QUESTION_REASONS, ascending, diceOrder, screenName, type MakisRefereeOptions, type MakisRefereeEvent, type MakisAlert, type MakisQuestion, type MakisCommandResult, type MakisQuestionReason, type Reset, type ResetPiece } from './makis-referee.ts';
