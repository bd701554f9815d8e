// `spieltisch broadcast`: gathers every table that publishes to one MQTT broker and serves the
// tournament display, until the process is stopped; and the options `serve` publishes a table with.
import { isIP } from 'node:net';
import { parseHostNames } from '../http/hosts.ts';
import { isTopicName, KeyFileError, readKeyFile, readKeysFile, startBroadcast, startPublisher, tableLogPosition, type PublishedGame, type TablePublisher } from '../mqtt/index.ts';
import type { GameLog } from '../store/index.ts';
import { number, UsageError, type BroadcastArgs, type Io } from '../cli.ts';

export async function broadcastCommand({ values, positionals }: BroadcastArgs, io: Io): Promise<number> {
  if (positionals.length) throw new UsageError(`broadcast takes no file (got "${positionals.join(' ')}")`);
  if (values.mqtt === undefined) throw new UsageError('broadcast needs --mqtt URL, the broker the tables publish to (mqtt://host:1883)');
  const port = number(values.http, 'http', 0, 65535);
  const maxBoards = Math.floor(number(values['max-boards'], 'max-boards', 1, 10_000));
  const forgetAfter = number(values['forget-after'], 'forget-after', 1, 7 * 24 * 60);
  const keys = values.keys === undefined ? undefined : keyFile(() => readKeysFile(values.keys!));
  const hostNames = hostNamesOf(values.host ?? [], values.listen !== undefined);
  const broadcast = await startBroadcast({
    url: mqttUrl(values.mqtt),
    port,
    listen: values.listen ?? '0.0.0.0',
    hostNames,
    clientId: values['client-id'],
    maxBoards,
    staleMs: forgetAfter * 60_000,
    keys,
    onNotice: (line) => io.out(`Spieltisch: ${line}`),
  });
  io.out(`Spieltisch: tournament display at http://localhost:${broadcast.port}/tournament  ·  boards at /api/boards`);
  if (keys) io.out(`Spieltisch: signed messages only from ${[...keys.keys()].join(', ')}`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await broadcast.close();
  return 0;
}

/**
 * The names of `--host NAME[,NAME…]`, as for serve. `--host` was once broadcast's listen address; an address (or
 * localhost) given as --host without --listen may mean either, and taking it as a name would listen on every
 * interface where the old meaning listened on one: it is refused, saying to use --listen. As a name it adds
 * nothing, since the display answers to the machine's own addresses and localhost anyway.
 */
function hostNamesOf(values: readonly string[], listenGiven: boolean): string[] {
  let names: string[];
  try {
    names = parseHostNames(values);
  } catch (e) {
    throw new UsageError(`--host: ${(e as Error).message}`);
  }
  const address = listenGiven ? undefined : names.find((name) => isIP(name) !== 0 || name === 'localhost');
  if (address !== undefined) {
    throw new UsageError(`--host names the names the display answers to, as for serve; to listen on ${address}, give --listen ${address}`);
  }
  return names;
}

/** A broker address the mqtt client understands; anything else is a usage error now, not a silent retry loop later. */
export function mqttUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--mqtt must be a broker address such as mqtt://localhost:1883 (got "${value}")`);
  }
  if (!['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'tls:', 'ws:', 'wss:'].includes(url.protocol)) {
    throw new UsageError(`--mqtt must start with mqtt://, mqtts://, ws:// or wss:// (got "${value}")`);
  }
  return value;
}

/** A key file read, or a usage error saying what is wrong with it. */
function keyFile<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof KeyFileError) throw new UsageError(e.message);
    throw e;
  }
}

export interface PublishSettings {
  readonly url: string;
  readonly site: string;
  readonly board: string | undefined;
  /** The site's key, from --mqtt-key FILE. */
  readonly key: string | undefined;
}

/** What `serve --mqtt URL [--site NAME] [--board-name NAME] [--mqtt-key FILE]` asks for; null without --mqtt. */
export function publishSettings(values: { mqtt?: string; site?: string; 'board-name'?: string; 'mqtt-key'?: string }): PublishSettings | null {
  if (values.mqtt === undefined) {
    if (values.site !== undefined || values['board-name'] !== undefined || values['mqtt-key'] !== undefined) {
      throw new UsageError('--site, --board-name and --mqtt-key are for the table on the broker: they need --mqtt URL');
    }
    return null;
  }
  const site = values.site ?? 'local';
  for (const [option, name] of [['site', site], ['board-name', values['board-name']]] as const) {
    if (name !== undefined && !isTopicName(name)) throw new UsageError(`--${option} must be letters, digits, . _ or -, at most 64 (got "${name}")`);
  }
  const path = values['mqtt-key'];
  const key = path === undefined ? undefined : keyFile(() => readKeyFile(path));
  return { url: mqttUrl(values.mqtt), site, board: values['board-name'], key };
}

/**
 * Starts publishing a table; the board's own id names it unless --board-name did. Where the table's log stands for
 * `boardId` orders this run after the table's earlier ones.
 */
export async function publishTable(game: PublishedGame, settings: PublishSettings, boardId: string, log: GameLog, io: Io): Promise<TablePublisher> {
  const board = settings.board ?? boardId;
  if (!isTopicName(board)) throw new UsageError(`the board id "${board}" cannot name a topic: give --board-name`);
  return startPublisher(game, {
    url: settings.url,
    site: settings.site,
    board,
    log: tableLogPosition(log, boardId),
    key: settings.key,
    onNotice: (line) => io.out(`Spieltisch: ${line}`),
  });
}
