// The `spieltisch` command: serve a table, replay a record, referee a sensor trace, simulate a game,
// export and import games of the log.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFileSync } from 'node:fs';
import { GAME_NAMES, type GameName } from './rules/types.ts';

const USAGE = `spieltisch — a companion for board games on real boards

Usage:
  spieltisch serve [--game G] [--options JSON] [--players N] [--simulate]
                   [--sim-speed X] [--seed N] [--sense count|occupancy]
                   [--port SERIALPATH|auto] [--transport serial|firmata]
                   [--pins JSON|FILE] [--http PORT] [--db FILE|URL] [--token T]
                   [--host NAME[,NAME…]] [--listen ADDRESS]
                   [--mqtt URL [--site NAME] [--board-name NAME] [--mqtt-key FILE]]
      Referee a table live and serve its pages (default: a simulated table,
      display at http://localhost:3000). Console commands need the referee
      token: --token, else $SPIELTISCH_TOKEN, else one made up and printed.
      The pages answer to localhost and this machine's names and addresses;
      --host (repeatable, or comma-separated) adds the names a proxy or DNS
      gives them. --listen is the address listened on (default 0.0.0.0).
      --port auto finds the board (Arduino USB ids, then a HELLO); a pulled
      cable is reconnected. --transport firmata reads switches wired to an
      Arduino running StandardFirmata, pins as --pins gives them.
      --mqtt URL also publishes the game to that MQTT broker under
      spieltisch/SITE/BOARD/ (--site, default "local"; --board-name, default
      the board's id); the table plays on while the broker is away.
      --mqtt-key FILE signs every message with the site's key (the file's
      one line), for a broadcast service that has it.
  spieltisch broadcast --mqtt URL [--http PORT] [--client-id ID]
                       [--host NAME[,NAME…]] [--listen ADDRESS]
                       [--keys FILE] [--max-boards N] [--forget-after MIN]
      Gather every table that publishes to the broker and serve the
      tournament display (default http://localhost:3100/tournament).
      --host and --listen as for serve: the display answers to localhost,
      this machine's names and addresses and each --host NAME; it listens
      on --listen (default 0.0.0.0).
      --keys FILE: one "SITE KEY" a line; those sites' unsigned or badly
      signed messages are dropped. At most --max-boards boards (64); one
      unheard for --forget-after minutes (15) is forgotten.
  spieltisch replay --game G [--options JSON] FILE|-
      Replay a game record; prints one JSON line (exit 1 on an illegal move).
  spieltisch referee --game G [--options JSON] [--answers FILE] TRACE|-
      Referee a recorded sensor trace; prints one JSON line per event. For
      games whose referee asks questions, --answers gives the console's
      answers (one move per line, in order). Adu's answers name a move, or
      a captured soldier's declared range as its capture with =R (d4xd7=3);
      simulate prints them as "answers" in what really happened.
  spieltisch simulate --game G [--seed N] [--options JSON] [--out TRACE]
                      [--illegal P] [--takebacks P] [--sense count|occupancy]
                      [--people calm|harsh:1|harsh:2|harsh:3|JSON]
      Play a game on the simulated board (with a chance P per turn of an
      illegal attempt put right, or a take-back); writes its sensor trace to
      TRACE (or prints it) and prints what really happened as JSON. --people
      gives the players quicker, rougher hands: a level, or knobs such as
      '{"quickStart":0.5,"handRest":0.1}' (or '{"harsh":2,"lineGap":0}').
      Kalaha's table knows every knob; the square boards know theirs.
  spieltisch export [--db FILE|URL] [--format pgn|json|csv] [--out FILE]
                    [--id N | --game G --board B --player NAME --day YYYY-MM-DD]
      Write games from the game log (default data/spieltisch.db): one game by
      its id, or every game that matches the filters (all given must hold),
      oldest first. pgn is the text notation of RULES.md with headers (the
      default), json each game with its events, csv one row per game. To
      standard output without --out.
  spieltisch import [--db FILE|URL] [--format pgn|json|csv] [--game G] FILE|-
      Add the games of FILE (format found from its start unless given) to the
      game log after checking every move with the game's engine: all games or
      none, and the first bad move is named by game and ply (exit 1). --game
      is the game of records without a [Game] header. Games the log holds
      already (same game, board, start and moves) are skipped.
  spieltisch help

  G is one of kalaha (default), malawi, makis, adu.
  Makis: a board cannot tell the number of players, the mode or the knights'
  starting rows; refereeing a trace of other than the defaults needs them in
  --options ('{"players":3}'). The simulated Makis and Adu boards sense
  occupancy, whatever --sense says. --db takes a SQLite file or a
  postgres:// URL (a game log shared by many tables).
`;

/** A usage error: printed with the usage hint, exit status 2. */
export class UsageError extends Error {}

export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly stdin: () => Promise<string>;
}

/**
 * Standard output whose reader may leave early (`spieltisch referee … | head -1`): once the pipe is
 * closed, the rest of the output has nobody to read it and is dropped, and the command ends as it
 * would have, with its own status — a closed pipe is no failure of the command.
 */
export function pipeOut(stream: NodeJS.WriteStream): (line: string) => void {
  let gone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
      gone = true;
      return;
    }
    throw error;
  });
  return (line) => {
    // The stream is destroyed as soon as a write finds the pipe closed; its error event comes later.
    if (gone || stream.destroyed) return;
    stream.write(line + '\n');
  };
}

const defaultIo: Io = {
  out: pipeOut(process.stdout),
  err: (line) => process.stderr.write(line + '\n'),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { serve } = await import('./commands/serve.ts');
        return await serve(parse(rest, SERVE_OPTIONS), io);
      }
      case 'broadcast': {
        const { broadcastCommand } = await import('./commands/broadcast.ts');
        return await broadcastCommand(parse(rest, BROADCAST_OPTIONS), io);
      }
      case 'replay': {
        const { replayCommand } = await import('./commands/replay.ts');
        return await replayCommand(parse(rest, REPLAY_OPTIONS), io);
      }
      case 'referee': {
        const { refereeCommand } = await import('./commands/referee.ts');
        return await refereeCommand(parse(rest, REFEREE_OPTIONS), io);
      }
      case 'simulate': {
        const { simulateCommand } = await import('./commands/simulate.ts');
        return await simulateCommand(parse(rest, SIMULATE_OPTIONS), io);
      }
      case 'export': {
        const { exportCommand } = await import('./commands/export.ts');
        return await exportCommand(parse(rest, EXPORT_OPTIONS), io);
      }
      case 'import': {
        const { importCommand } = await import('./commands/import.ts');
        return await importCommand(parse(rest, IMPORT_OPTIONS), io);
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`spieltisch: ${(e as Error).message}`);
      io.err(`Try "spieltisch help".`);
      return 2;
    }
    // A file the system refused (a folder where a file belongs, no permission, a full disk): the system's own
    // sentence, which names the path, and exit 1. A stack is for bugs, and this is none.
    const system = e as NodeJS.ErrnoException;
    if (system instanceof Error && typeof system.code === 'string' && /^E[A-Z]+$/.test(system.code) && typeof system.syscall === 'string') {
      io.err(`spieltisch: ${system.message}`);
      return 1;
    }
    throw e;
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;
const GAME = { game: { type: 'string', default: 'kalaha' } } as const satisfies Options;
const SERVE_OPTIONS = {
  ...GAME,
  simulate: { type: 'boolean', default: false },
  'sim-speed': { type: 'string', default: '1' },
  seed: { type: 'string' },
  port: { type: 'string' },
  transport: { type: 'string', default: 'serial' },
  pins: { type: 'string' },
  http: { type: 'string', default: '3000' },
  host: { type: 'string', multiple: true },
  listen: { type: 'string', default: '0.0.0.0' },
  db: { type: 'string', default: 'data/spieltisch.db' },
  options: { type: 'string' },
  token: { type: 'string' },
  sense: { type: 'string', default: 'count' },
  players: { type: 'string' },
  mqtt: { type: 'string' },
  site: { type: 'string' },
  'board-name': { type: 'string' },
  'mqtt-key': { type: 'string' },
} as const satisfies Options;
const BROADCAST_OPTIONS = {
  mqtt: { type: 'string' },
  http: { type: 'string', default: '3100' },
  host: { type: 'string', multiple: true },
  // No default here: whether it was given tells an old `--host ADDRESS` apart (commands/broadcast.ts).
  listen: { type: 'string' },
  'client-id': { type: 'string' },
  keys: { type: 'string' },
  'max-boards': { type: 'string', default: '64' },
  'forget-after': { type: 'string', default: '15' },
} as const satisfies Options;
const REPLAY_OPTIONS = { ...GAME, options: { type: 'string' } } as const satisfies Options;
const REFEREE_OPTIONS = { ...GAME, options: { type: 'string' }, answers: { type: 'string' } } as const satisfies Options;
const SIMULATE_OPTIONS = {
  ...GAME,
  options: { type: 'string' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string' },
  illegal: { type: 'string', default: '0.1' },
  takebacks: { type: 'string', default: '0.05' },
  sense: { type: 'string', default: 'count' },
  people: { type: 'string' },
} as const satisfies Options;

const DB = { db: { type: 'string', default: 'data/spieltisch.db' } } as const satisfies Options;
const EXPORT_OPTIONS = {
  ...DB,
  format: { type: 'string' },
  out: { type: 'string' },
  id: { type: 'string' },
  game: { type: 'string' },
  board: { type: 'string' },
  player: { type: 'string' },
  day: { type: 'string' },
} as const satisfies Options;
const IMPORT_OPTIONS = { ...DB, format: { type: 'string' }, game: { type: 'string' } } as const satisfies Options;

export type ServeArgs = ReturnType<typeof parse<typeof SERVE_OPTIONS>>;
export type BroadcastArgs = ReturnType<typeof parse<typeof BROADCAST_OPTIONS>>;
export type ExportArgs = ReturnType<typeof parse<typeof EXPORT_OPTIONS>>;
export type ImportArgs = ReturnType<typeof parse<typeof IMPORT_OPTIONS>>;
export type ReplayArgs = ReturnType<typeof parse<typeof REPLAY_OPTIONS>>;
export type RefereeArgs = ReturnType<typeof parse<typeof REFEREE_OPTIONS>>;
export type SimulateArgs = ReturnType<typeof parse<typeof SIMULATE_OPTIONS>>;

function parse<O extends Options>(args: readonly string[], options: O) {
  const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  return { values, positionals };
}

export function gameName(value: string | undefined, allowed: readonly GameName[] = GAME_NAMES): GameName {
  if (value && (allowed as readonly string[]).includes(value)) return value as GameName;
  throw new UsageError(`--game must be one of ${allowed.join(', ')} (got "${value}")`);
}

/** Read a file argument, or standard input for "-"; a missing file is a usage error. */
export async function readInput(positionals: readonly string[], io: Io, what: string): Promise<string> {
  if (positionals.length !== 1) throw new UsageError(`give one ${what} file, or - for standard input`);
  const [file] = positionals;
  if (file === '-') return io.stdin();
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file}: ${(e as Error).message}`);
  }
}

/** What a square board senses: `--sense occupancy` or `--sense count`. */
export function sense(value: string | undefined): 'occupancy' | 'count' {
  if (value === 'occupancy' || value === 'count') return value;
  throw new UsageError(`--sense must be occupancy or count (got "${value}")`);
}

export function number(value: string | undefined, name: string, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number from ${min} to ${max} (got "${value}")`);
  return n;
}
