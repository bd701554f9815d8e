// One live game: verdicts → state → log → broadcast, and the referee console's commands.
export { GameSession, type SessionLog, type Listener, type SessionEvent, type CommandResult, type SessionOptions } from './game-session.ts';
export { KalahaSession, kalahaView, type KalahaSessionOptions } from './kalaha-session.ts';
export { CORRECTION_REASONS, correctionOf, recordOf, resumeOf, type LoggedEvent, type LoggedAnswer, type ResumedRecord } from './resume.ts';
export { MalawiSession, type MalawiSessionOptions } from './malawi-session.ts';
export { MakisSession, drawFairRoll, type MakisSessionOptions } from './makis-session.ts';
export { AduSession, type AduSessionOptions } from './adu-session.ts';
