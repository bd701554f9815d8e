// Many tables, one broadcast: the tables publish their games to an MQTT broker, the broadcast service
// gathers them for the tournament display. TOPICS.md describes the topics.
export { startPublisher, safeUrl, tableLogPosition, type PublishedGame, type PublisherOptions, type PublisherStats, type TablePublisher } from './publisher.ts';
export { startBroadcast, type BroadcastOptions, type RunningBroadcast } from './broadcast.ts';
export { BoardBook, DEFAULT_MAX_BOARDS, DEFAULT_STALE_MS, type BoardBookOptions, type Outcome } from './boards.ts';
export { KeyFileError, MIN_KEY_LENGTH, readKeyFile, readKeysFile, sign, verify } from './signing.ts';
export { eventPayloadSchema, gameViewSchema, statePayloadSchema, statusPayloadSchema, syncSchema, updateSchema } from './schemas.ts';
export { Outbox, type OutboxEntry } from './outbox.ts';
export {
  CHANNELS,
  EVERY_TABLE,
  MAX_PAYLOAD_BYTES,
  TOPIC_ROOT,
  compareRuns,
  isTopicName,
  parseTopic,
  readPayload,
  type PayloadReading,
  topicOf,
  type Channel,
  type EventPayload,
  type Run,
  type StatePayload,
  type StatusPayload,
  type TablePayload,
  type TableTopic,
} from './topics.ts';
export { RECENT_EVENTS, type BoardRecord, type BroadcastMessage, type BrokerState, type RecentEvent } from './messages.ts';
