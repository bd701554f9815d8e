// The HTTP and WebSocket face of the service.
export { startHttp, parseClientMessage, DEFAULT_WEB_ROOT, type LiveGame, type HttpOptions, type RunningServer } from './server.ts';
export { parseHostNames } from './hosts.ts';
export type * from './messages.ts';
