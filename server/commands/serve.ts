// `spieltisch serve`: one table refereed live — a board (real or simulated), the referee, the
// game log, and the pages — until the process is stopped.
import { randomBytes } from 'node:crypto';
import { openGameLog, GameLogRefusedError, type GameLog } from '../store/index.ts';
import { recordOf } from '../session/index.ts';
import { startHttp } from '../http/index.ts';
import { readFileSync } from 'node:fs';
import { SerialBoard, firmataPorts, parsePinMap, type BoardLink, type PortAccess } from '../../firmware-bridge/index.ts';
import { tables, tableGames, type TableGame } from '../tables/index.ts';
import { gameName, number, sense as senseOf, UsageError, type Io, type ServeArgs } from '../cli.ts';
import { optionsJson } from './options.ts';
import { publishSettings, publishTable } from './broadcast.ts';

export async function serve({ values, positionals }: ServeArgs, io: Io): Promise<number> {
  if (positionals.length) throw new UsageError(`serve takes no file (got "${positionals.join(' ')}")`);
  const kit = tables[gameName(values.game, tableGames())]!;
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

  let link: BoardLink;
  let serial: SerialBoard | null = null;
  let closeBoard: () => Promise<void>;
  let boardId: string;
  let game: TableGame;
  let where: string;
  if (simulated) {
    game = kit.withRules(input);
    const sim = await game.simulate({ seed, simSpeed, sense });
    ({ link, boardId } = sim);
    closeBoard = () => sim.close();
    where = `on ${sim.description} (speed ${simSpeed}×, seed ${seed})`;
  } else {
    // A real board: found (--port auto) or opened, and reconnected whenever its cable is pulled.
    try {
      serial = await SerialBoard.open({ path: values.port === 'auto' ? undefined : values.port, board: kit.board, ports, handshake: { timeoutMs: 5000 } });
    } catch (e) {
      io.err(`spieltisch: ${(e as Error).message}`);
      return 1;
    }
    const board = serial;
    const hello = board.hello;
    link = board.link;
    game = kit.withRules(input, hello);
    boardId = hello.id;
    closeBoard = () => board.close();
    where = `on ${board.path} (board ${boardId})`;
  }

  // A game left open by a crash goes on where it was — on a real board, whose pieces are still
  // where they were. A simulated board always starts afresh.
  const live = log.liveGame(boardId);
  let resume: { gameId: number; moves: string[] } | undefined;
  if (live && !simulated && live.game === kit.game && JSON.stringify(live.options) === JSON.stringify(game.options)) {
    resume = { gameId: live.id, moves: recordOf(log.events(live.id)) };
    io.out(`Spieltisch: resuming game ${live.id} after ${resume.moves.length} moves`);
  } else if (live) {
    log.endGame(live.id, { at: Date.now(), result: { reason: 'abandoned' } });
  }

  const session = game.session({ boardId, source: simulated ? 'simulated' : 'serial', log, resume }, link);
  link.on('error', (fault) => io.err(`board: ${fault.code} ${fault.text}`));
  let frames = 0;
  for (const kind of ['weights', 'grid', 'counts'] as const) link.on(kind, () => frames++);
  let lastStatus = Date.now();
  const status = setInterval(() => {
    const now = Date.now();
    const stats = link.stats();
    const dropped = Object.values(stats.dropped ?? {}).reduce((s: number, n) => s + (typeof n === 'number' ? n : 0), 0);
    session.setBoard({ framesPerSecond: Math.round((frames * 1000) / (now - lastStatus)), dropped });
    frames = 0;
    lastStatus = now;
  }, 1000);
  session.setBoard({ connected: true, link: 'live' });
  link.on('disconnect', () => session.setBoard({ connected: false }));
  // Every page shows at once when the board stops responding or its cable is out, and when it is back.
  serial?.on('state', (state) => {
    session.setBoard(state === 'live' ? { connected: true, link: 'live' } : { connected: false, link: state });
    io.err(`board: ${state}`);
  });
  serial?.on('reconnected', (hello, path) => io.err(`board: ${hello.id} is back on ${path}`));
  serial?.on('rebooted', (hello) => io.err(`board: ${hello.id} restarted`));

  const token = values.token ?? process.env.SPIELTISCH_TOKEN ?? randomBytes(9).toString('base64url');
  const http = await startHttp(session, { port: httpPort, host: values.host, token, log, boardId });
  io.out(`Spieltisch: ${kit.title} ${where}`);
  io.out(`Spieltisch: display at http://localhost:${http.port}  ·  game log ${values.db}`);
  io.out(`Spieltisch: referee console at http://localhost:${http.port}/referee  ·  token ${token}`);
  const publisher = mqtt ? await publishTable(session, mqtt, boardId, io) : null;

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(status);
  await publisher?.close();
  await http.close();
  await closeBoard();
  log.close();
  return 0;
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
