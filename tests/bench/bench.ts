// `npm run bench`: prints the numbers the project holds itself to. Never part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kalahaPlayouts } from './kalaha-playout.ts';
import { malawiMoveGen } from './malawi-movegen.ts';
import { eventsPerSecond } from './store-bench.ts';
import { postgresEventsPerSecond } from './postgres-bench.ts';
import { refereeDecisions } from './referee-time.ts';
import { lineToDisplayLatency } from './latency.ts';
import { fanoutBench } from './fanout-bench.ts';
import { refereeAccuracy } from './referee-accuracy.ts';
import { decoderFigures, figuresSettings, figuresTable, type FiguresRow } from './decoder-figures.ts';
import { malawiRefereeDecisions } from './malawi-referee-time.ts';
import { makisRefereeDecisions, makisSimulationSpeed } from './makis-referee-time.ts';
import { makisPlayouts } from './makis-bench.ts';
import { aduMoveGen } from './adu-bench.ts';
import { tournamentBench } from './mqtt-bench.ts';
import { aduRefereeDecisions } from './adu-referee-time.ts';
import { boardLinkThroughput, hasSocat, lineStreamThroughput, plugInToFirstFrame, ptyThroughput } from './link-bench.ts';

const round = (x: number, digits = 3) => Number(x.toPrecision(digits));
const line = (name: string, value: string) => console.log(`${name.padEnd(48)} ${value}`);

console.log(`Spieltisch bench — Node ${process.version}, ${new Date().toISOString()}`);

const playouts = kalahaPlayouts(3000);
line('Kalaha random playouts (full Vauban rules)', `${round(playouts.pliesPerSecond / 1e6)} M plies/s (${playouts.games} games)`);

const movegen = malawiMoveGen(2000);
line('Malawi legal-move generation', `${round(movegen.movesPerSecond / 1e6)} M moves/s (${movegen.positions} positions)`);

const makis = makisPlayouts(2000);
line('Makis random playouts (rounds: roll + Maki moves)', `${round(makis.roundsPerSecond / 1e3)} k rounds/s (${makis.games} games)`);

const adu = aduMoveGen(2000);
line('Adu legal-move generation, six players', `${round(adu.movesPerSecond / 1e6)} M moves/s (${adu.positions} positions)`);

const referee = refereeDecisions(20);
line('Kalaha referee, per settled picture', `mean ${round(referee.meanMs * 1000)} µs, p99 ${round(referee.p99Ms * 1000)} µs, max ${round(referee.maxMs * 1000)} µs (${referee.decisions} pictures)`);
line('Kalaha referee, per frame (settle + decide)', `mean ${round(referee.perFrameUs)} µs (${referee.frames} frames)`);

const malawi = malawiRefereeDecisions();
line('Malawi referee, per settled picture', `mean ${round(malawi.meanMs * 1000)} µs, p99 ${round(malawi.p99Ms * 1000)} µs (${malawi.decisions} pictures)`);

const makisSim = makisSimulationSpeed(10);
line('Makis simulated games, 1–5 players, to the end', `${round(makisSim.gamesPerSecond)} games/s, ${round(makisSim.speedup)}× real time (${makisSim.plies} plies)`);
const makisReferee = makisRefereeDecisions(makisSim.traces);
line('Makis referee, per settled picture', `mean ${round(makisReferee.meanMs * 1000)} µs, p99 ${round(makisReferee.p99Ms * 1000)} µs (${makisReferee.decisions} pictures, ${makisReferee.recordsRight}/${makisReferee.games} records right)`);

const aduReferee = aduRefereeDecisions();
line('Adu referee, six players, per settled picture', `mean ${round(aduReferee.meanMs * 1000)} µs, p99 ${round(aduReferee.p99Ms * 1000)} µs (${aduReferee.decisions} pictures, ${aduReferee.recordsRight}/${aduReferee.games} records right)`);

const framed = await lineStreamThroughput();
line('Serial lines framed, checked, parsed', `${round(framed.linesPerSecond / 1e3)} k lines/s (${round(framed.bytesPerSecond / 1e6)} MB/s, ${framed.lines} lines)`);
const linked = await boardLinkThroughput();
line('Serial lines to typed BoardLink events', `${round(linked.linesPerSecond / 1e3)} k lines/s (${linked.lines} lines)`);
if (hasSocat()) {
  const pty = await ptyThroughput();
  line('Serial lines through a pty into SerialBoard', `${round(pty.linesPerSecond / 1e3)} k lines/s (${round(pty.bytesPerSecond / 1e6)} MB/s)`);
  const plug = await plugInToFirstFrame();
  line('Plug-in → first accepted frame (pty)', `median ${round(plug.firstFrame.median)} ms, max ${round(plug.firstFrame.max)} ms (${plug.samples} plugs; an Arduino adds its ~2 s boot)`);
  line('Re-plug after 2 s out → first frame', `median ${round(plug.againAfterPull.median)} ms, max ${round(plug.againAfterPull.max)} ms (mostly the wait for the next backoff try)`);
} else {
  line('Serial link over a pty', 'skipped: socat is not installed');
}

for (const clients of [1, 100]) {
  const latency = await lineToDisplayLatency(clients);
  line(`Sensor line → WebSocket, ${clients} display${clients > 1 ? 's' : ''} (last one)`, `p50 ${round(latency.p50)} ms, p99 ${round(latency.p99)} ms, max ${round(latency.max)} ms (${latency.samples} messages)`);
}
// The server and the displays each in a process of their own (fanout-bench.ts).
const fanout = await fanoutBench(1000);
const mib = (bytes: number) => round(bytes / 1048576);
line('Sensor line → WebSocket, 1000 displays (last one)', `p50 ${round(fanout.p50)} ms, p99 ${round(fanout.p99)} ms, max ${round(fanout.max)} ms (${fanout.samples} messages of ${fanout.updateBytes} B)`);
line('  line → message, message → every socket', `p50 ${round(fanout.decidedP50)} + ${round(fanout.fanoutP50)} ms, p99 ${round(fanout.decidedP99)} + ${round(fanout.fanoutP99)} ms`);
line('Server memory, idle → 1000 displays', `RSS ${mib(fanout.memory.idle.rss)} → ${mib(fanout.memory.withClients.rss)} MiB (peak ${mib(fanout.memory.maxRss)}), heap ${mib(fanout.memory.idle.heapUsed)} → ${mib(fanout.memory.withClients.heapUsed)} MiB`);

const dir = mkdtempSync(join(tmpdir(), 'spieltisch-bench-'));
try {
  line('Game log appends, durable (synchronous=FULL)', `${Math.round(eventsPerSecond(2000, join(dir, 'bench.db')))} events/s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const pgLog = await postgresEventsPerSecond(2000);
line('Game log appends, PostgreSQL (synchronous_commit=on)', `${pgLog.eventsPerSecond} events/s, one append p50 ${round(pgLog.p50Ms)} ms, p99 ${round(pgLog.p99Ms)} ms`);

for (const noise of [0.1, 0.2, 0.3]) {
  const a = refereeAccuracy(20, noise);
  line(`Referee accuracy, noise ${noise} g (${a.games} games)`, `${a.recordsRight}/${a.games} records right, ${a.movesRight}/${a.moves} moves, ${a.attemptsAlerted}/${a.attempts} illegal attempts alerted, ${a.falseAlerts} other alerts`);
}

// Issue 16's figures: every game refereed over generated games with calm and rougher hands.
const figures = figuresSettings();
const figuresStart = performance.now();
const figureRows: FiguresRow[] = [];
for (const game of figures.games) for (const level of figures.levels) figureRows.push(decoderFigures(game, level, figures.count));
line(`Referee figures, ${figures.count} games per game and level`, `${round((performance.now() - figuresStart) / 1000)} s (BENCH_GAMES, BENCH_LEVELS, BENCH_FIGURE_GAMES to change)`);
console.log(figuresTable(figureRows));

const tournament = await tournamentBench();
line(`MQTT, ${tournament.tables} tables at ${tournament.speed}×: line → tournament display`, `p50 ${round(tournament.p50)} ms, p99 ${round(tournament.p99)} ms, max ${round(tournament.max)} ms (${tournament.samples} updates, ${tournament.boardsEqual}/${tournament.tables} boards equal at the end)`);
line('MQTT broadcast service, CPU and memory', `${round(tournament.cpuShare * 100)} % of a core (${round(tournament.cpuPerUpdateUs)} µs per update), RSS ${round(tournament.rssMiB)} MiB, peak ${round(tournament.peakRssMiB)} MiB`);
