// `spieltisch serve`: one table refereed live — a board (real or simulated), the referee, the
// game log, and the pages — until the process is stopped.
import { randomBytes } from 'node:crypto';
import { openGameLog, GameLogRefusedError, type GameLog } from '../store/index.ts';
import { KalahaSession, MalawiSession, recordOf, type GameSession } from '../session/index.ts';
import { startHttp } from '../http/index.ts';
import { startSimulatedKalahaBoard, startSimulatedGridBoard, openSerial, type BoardLink } from '../../firmware-bridge/index.ts';
import { playKalahaGames, playMalawiGames, malawiBoardSetup } from '../simulate/index.ts';
import { gameName, number, UsageError, type Io, type ServeArgs } from '../cli.ts';
import { kalahaRules, malawiRules } from './options.ts';

export async function serve({ values, positionals }: ServeArgs, io: Io): Promise<number> {
  if (positionals.length) throw new UsageError(`serve takes no file (got "${positionals.join(' ')}")`);
  const game = gameName(values.game, ['kalaha', 'malawi']);
  const sense = values.sense;
  if (sense !== 'occupancy' && sense !== 'count') throw new UsageError(`--sense must be occupancy or count (got "${sense}")`);
  const httpPort = number(values.http, 'http', 0, 65535);
  const simSpeed = number(values['sim-speed'], 'sim-speed', 0.1, 1000);
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : number(values.seed, 'seed', 0, 2 ** 31);
  const simulated = values.simulate || values.port === undefined;

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
  let closeBoard: () => Promise<void>;
  let boardId: string;
  let options: object;
  if (simulated && game === 'kalaha') {
    const rules = kalahaRules(values.options);
    options = rules;
    const sim = await startSimulatedKalahaBoard({ seed, stoneSet: 'mixed', seedsPerPit: rules.seedsPerPit, simSpeed, virtualTimestamps: true });
    const players = playKalahaGames(sim.table, { seed, rules, illegalProbability: 0.08, takeBackProbability: 0.03 });
    link = sim.link;
    boardId = 'simulated';
    closeBoard = async () => {
      players.stop();
      await sim.close();
    };
  } else if (simulated) {
    const rules = malawiRules(values.options);
    options = rules;
    const sim = await startSimulatedGridBoard({ seed, sense, simSpeed, virtualTimestamps: true, ...malawiBoardSetup(rules) });
    // Simulated players make no console announcements: on an occupancy board their captures and
    // distributions show up as questions for the referee console.
    const players = playMalawiGames(sim.table, { seed, rules, illegalProbability: 0.08, takeBackProbability: 0.03 });
    link = sim.link;
    boardId = 'simulated-grid';
    closeBoard = async () => {
      players.stop();
      await sim.close();
    };
  } else {
    link = await openSerial(values.port as string);
    const hello = await link.handshake({ timeoutMs: 5000 });
    const wanted = game === 'kalaha' ? 'kalaha' : 'grid';
    if (hello.board !== wanted) {
      await link.close();
      io.err(`spieltisch: the board on ${values.port} is a ${hello.board} board; ${game} needs a ${wanted} board`);
      return 1;
    }
    options = game === 'kalaha' ? kalahaRules(values.options) : malawiRules(values.options, hello.cols ?? undefined);
    boardId = hello.id;
    closeBoard = () => link.close();
  }

  // A game left open by a crash goes on where it was — on a real board, whose pieces are still
  // where they were. A simulated board always starts afresh.
  const live = log.liveGame(boardId);
  let resume: { gameId: number; moves: string[] } | undefined;
  if (live && !simulated && live.game === game && JSON.stringify(live.options) === JSON.stringify(options)) {
    resume = { gameId: live.id, moves: recordOf(log.events(live.id)) };
    io.out(`Spieltisch: resuming game ${live.id} after ${resume.moves.length} moves`);
  } else if (live) {
    log.endGame(live.id, { at: Date.now(), result: { reason: 'abandoned' } });
  }

  const source = simulated ? 'simulated' : 'serial';
  let session: GameSession;
  if (game === 'kalaha') {
    const kalaha = new KalahaSession({ rules: options as ReturnType<typeof kalahaRules>, boardId, source, log, resume });
    link.on('weights', (frame) => kalaha.frame(frame.receivedAt, frame.cells));
    session = kalaha;
  } else {
    const malawi = new MalawiSession({ rules: options as ReturnType<typeof malawiRules>, boardId, source, log, resume });
    link.on('grid', (frame) => malawi.frame(frame.receivedAt, { type: 'grid', bits: frame.occupancy }));
    link.on('counts', (frame) => malawi.frame(frame.receivedAt, { type: 'counts', counts: frame.cells }));
    session = malawi;
  }
  link.on('error', (fault) => io.err(`board: ${fault.code} ${fault.text}`));
  let frames = 0;
  for (const kind of ['weights', 'grid', 'counts'] as const) link.on(kind, () => frames++);
  let lastStatus = Date.now();
  const status = setInterval(() => {
    const now = Date.now();
    const stats = link.stats();
    const dropped = Object.values(stats.dropped ?? {}).reduce((s: number, n) => s + (typeof n === 'number' ? n : 0), 0);
    session.setBoard({ connected: true, framesPerSecond: Math.round((frames * 1000) / (now - lastStatus)), dropped });
    frames = 0;
    lastStatus = now;
  }, 1000);
  session.setBoard({ connected: true });
  link.on('disconnect', () => session.setBoard({ connected: false }));

  const token = values.token ?? process.env.SPIELTISCH_TOKEN ?? randomBytes(9).toString('base64url');
  const http = await startHttp(session, { port: httpPort, host: values.host, token });
  const what = game === 'kalaha' ? 'Kalaha' : 'Malawi';
  io.out(`Spieltisch: ${what} ${simulated ? `on a simulated ${game === 'kalaha' ? 'table' : `board sensing ${sense}`} (speed ${simSpeed}×, seed ${seed})` : `on ${values.port} (board ${boardId})`}`);
  io.out(`Spieltisch: display at http://localhost:${http.port}  ·  game log ${values.db}`);
  io.out(`Spieltisch: referee console at http://localhost:${http.port}/referee  ·  token ${token}`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(status);
  await http.close();
  await closeBoard();
  log.close();
  return 0;
}
