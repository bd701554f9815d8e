// `spieltisch serve`: one table refereed live — a board (real or simulated), the referee, the
// game log, and the pages, whose setup page may change the game — until the process is stopped.
import { randomBytes } from 'node:crypto';
import { openGameLog, GameLogRefusedError, type GameLog } from '../store/index.ts';
import { startHttp } from '../http/index.ts';
import { readFileSync } from 'node:fs';
import { SerialBoard, firmataPorts, parsePinMap, type PortAccess } from '../../firmware-bridge/index.ts';
import { tables, tableGames } from '../tables/index.ts';
import { LiveTable, realBoard, simulatedBoard, type TableBoard } from '../table/index.ts';
import { gameName, number, sense as senseOf, UsageError, type Io, type ServeArgs } from '../cli.ts';
import { optionsJson } from './options.ts';
import { publishSettings, publishTable } from './broadcast.ts';

export async function serve({ values, positionals }: ServeArgs, io: Io): Promise<number> {
  if (positionals.length) throw new UsageError(`serve takes no file (got "${positionals.join(' ')}")`);
  const kit = tables[gameName(values.game, tableGames())];
  const sense = senseOf(values.sense);
  const httpPort = number(values.http, 'http', 0, 65535);
  const simSpeed = number(values['sim-speed'], 'sim-speed', 0.1, 1000);
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : number(values.seed, 'seed', 0, 2 ** 31);
  const simulated = values.simulate || values.port === undefined;
  const input = optionsJson(values.options);
  const mqtt = publishSettings(values);
  if (values.players !== undefined) {
    if (kit.game === 'kalaha' || kit.game === 'malawi') throw new UsageError(`--players is for games of more than two players (makis, adu); ${kit.title} is played by two`);
    const players = number(values.players, 'players', 1, 6);
    if (input.players !== undefined && input.players !== players) throw new UsageError(`--players ${players} and --options {"players":${JSON.stringify(input.players)}} disagree`);
    input.players = players;
  }

  const ports = simulated ? undefined : boardPorts(values.transport, values.pins);

  let log: GameLog;
  try {
    log = openGameLog(values.db);
  } catch (e) {
    if (e instanceof GameLogRefusedError) {
      io.err(`spieltisch: ${e.message}`);
      return 1;
    }
    throw e;
  }

  let serial: SerialBoard | null = null;
  let board: TableBoard;
  if (simulated) {
    board = simulatedBoard(kit.board, { seed, simSpeed, sense });
    // Every simulated board has the same id. In a log several tables share (one PostgreSQL database for a
    // tournament) a simulated table goes by its name on the broker instead: else all their games would be one
    // board's, and each table that starts would abandon the game another has open.
    if (mqtt?.board !== undefined) board = namedBoard(board, mqtt.board);
  } else {
    // A real board: found (--port auto) or opened, and reconnected whenever its cable is pulled.
    try {
      serial = await SerialBoard.open({ path: values.port === 'auto' ? undefined : values.port, board: kit.board, ports, handshake: { timeoutMs: 5000 } });
    } catch (e) {
      io.err(`spieltisch: ${(e as Error).message}`);
      return 1;
    }
    board = realBoard(serial.link, serial.hello, `${serial.path} (board ${serial.hello.id})`);
  }

  // The table owns the board's link and the game on it, which the setup page may change. A game left open by a
  // crash goes on where it was on a real board, whose pieces are still where they were; a simulated board always
  // starts afresh.
  const table = await LiveTable.open({ board, log, onFault: (fault) => io.err(`board: ${fault.code} ${fault.text}`) }, { game: kit.game, options: input, resume: !simulated });
  if (table.resumed) io.out(`Spieltisch: resuming game ${table.resumed.gameId} after ${table.resumed.moves.length} moves`);
  const where = simulated ? `on ${table.description} (speed ${simSpeed}×, seed ${seed})` : `on ${table.description}`;
  const boardId = table.id;
  // Every page shows at once when the board stops responding or its cable is out, and when it is back.
  serial?.on('state', (state) => {
    table.setBoard(state === 'live' ? { connected: true, link: 'live' } : { connected: false, link: state });
    io.err(`board: ${state}`);
  });
  serial?.on('reconnected', (hello, path) => io.err(`board: ${hello.id} is back on ${path}`));
  serial?.on('rebooted', (hello) => io.err(`board: ${hello.id} restarted`));
  // A different board plugged in is kept out of the game: the log says which, the pages say a board was refused.
  serial?.on('refused', (why) => {
    io.err(`board: a different board was refused (${why})`);
    table.noteBoardRefused(why);
  });

  const token = values.token ?? process.env.SPIELTISCH_TOKEN ?? randomBytes(9).toString('base64url');
  const http = await startHttp(table, { port: httpPort, host: values.host, token, log, boardId, setup: table });
  io.out(`Spieltisch: ${kit.title} ${where}`);
  io.out(`Spieltisch: display at http://localhost:${http.port}  ·  game log ${log.file}`);
  io.out(`Spieltisch: referee console at http://localhost:${http.port}/referee  ·  token ${token}`);
  io.out(`Spieltisch: setup (game, players, scales) at http://localhost:${http.port}/setup`);
  const publisher = mqtt ? await publishTable(table, mqtt, boardId, io) : null;

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // The board stops first, so the game stands still while the publisher sends what is left: every
  // move the log holds also reaches the broker as an event, not only in the last state.
  await table.close();
  await publisher?.close();
  await http.close();
  await serial?.close();
  log.close();
  return 0;
}

/** `board` under another id in the log. */
function namedBoard(board: TableBoard, id: string): TableBoard {
  return { ...board, attach: async (game) => ({ ...(await board.attach(game)), boardId: id }) };
}

/** Where a real board is looked for: serial ports speaking the line protocol, or Firmata boards read through johnny-five. */
function boardPorts(transport: string | undefined, pins: string | undefined): PortAccess | undefined {
  if (transport === 'serial') {
    if (pins !== undefined) throw new UsageError('--pins is for --transport firmata');
    return undefined;
  }
  if (transport !== 'firmata') throw new UsageError(`--transport must be serial or firmata (got "${transport}")`);
  if (pins === undefined) throw new UsageError('--transport firmata needs --pins: a JSON pin map, or a file holding one (see README)');
  let text = pins;
  if (!pins.trimStart().startsWith('{')) {
    try {
      text = readFileSync(pins, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the pin map ${pins}: ${(e as Error).message}`);
    }
  }
  try {
    return firmataPorts(parsePinMap(JSON.parse(text)));
  } catch (e) {
    throw new UsageError(`--pins: ${(e as Error).message}`);
  }
}
