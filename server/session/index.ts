// One live game: verdicts → state → log → broadcast.
export { KalahaSession, kalahaView, type KalahaSessionOptions, type SessionLog, type Listener } from './kalaha-session.ts';
export { recordOf, type LoggedEvent } from './resume.ts';
