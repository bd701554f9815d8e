// Games in the text notation of RULES.md with headers (PGN-like), one after another in a file.
//
//   [Game "kalaha"]
//   [Date "2024.05.01"]             local date of the start (PGN style; `??` for unknown parts)
//   [Time "14:03:12"]               local time of the start
//   [Site "vauban"]                 the table: its board id
//   [South "Anna"]                  Kalaha and Malawi: the players by side
//   [North "Ben"]
//   [Players "3"]                   Makis and Adu: how many seats (RULES.md §3, §4)…
//   [Player1 "Anna"]                …and the player at each seat
//   [Result "south"]                the winner: south, north, draw; a seat 1…6, team, knights; `*` none (yet)
//   [Termination "no-seeds"]        why the game ended, as the engine or the referee said
//   [Source "sensors"]              sensors, hand or simulated
//   [Start "2024-05-01T12:03:12.345Z"]  exact start, UTC; wins over Date and Time on import
//   [End "2024-05-01T12:41:40.002Z"]    exact end, UTC; left out while a game goes on
//   [Options "{"seedsPerPit":4,…}"]  the engine's options
//   1. C e 2. F d …
//
// Games are told apart by a header line that follows moves. Only `[Game]` (or a default game)
// and the moves are needed on import.
import { GAME_NAMES, formatRecord, parseRecord } from '../rules/index.ts';
import type { GameName } from '../rules/index.ts';
import { GAME_SOURCES } from '../store/index.ts';
import type { GameSource } from '../store/index.ts';
import type { DeclaredGame } from './check.ts';
import { ImportError, MAX_JSON_DEPTH, nestedDeeperThan } from './errors.ts';
import { isoTime, parseIsoTime, reasonIn, winnerIn, type PortableGame } from './portable.ts';
import { seatHeader, seatsOf } from './seats.ts';

/** One game as a record with headers. */
export function formatGameText(g: PortableGame): string {
  const headers = new Map<string, string>();
  headers.set('Game', g.game);
  headers.set('Date', pgnDate(g.startedAt));
  headers.set('Time', pgnTime(g.startedAt));
  headers.set('Site', oneLine(g.boardId));
  const seats = seatsOf(g.game, g.options);
  if (g.game === 'makis' || g.game === 'adu') headers.set('Players', String(seats.length));
  for (const seat of seats) {
    const name = g.players[seat];
    if (typeof name === 'string') headers.set(seatHeader(seat), oneLine(name));
  }
  headers.set('Result', winnerIn(g.result) ?? '*');
  const reason = reasonIn(g.result);
  if (reason !== null) headers.set('Termination', oneLine(reason));
  headers.set('Source', g.source);
  headers.set('Start', isoTime(g.startedAt));
  if (g.endedAt !== null) headers.set('End', isoTime(g.endedAt));
  headers.set('Options', JSON.stringify(g.options));
  // A move number per round of the table: each side once, each seat once, a Makis round a roll and every Maki.
  const perNumber = g.game === 'makis' ? seats.length + 1 : seats.length;
  return formatRecord(headers, g.moves, perNumber);
}

/** Many games, a blank line between them. */
export function formatGamesText(games: readonly PortableGame[]): string {
  return games.map(formatGameText).join('\n');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function pgnDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getFullYear(), 4)}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`;
}

function pgnTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Header tags on a line, as parseRecord reads them: a value ends at `"]` before white space, `[`, `{` or the end. */
const HEADERS = /\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:\\["\\]|[^\n])*?"[ \t]*\](?=[\s[{]|$)/g;

/** Splits a file into the text of each game, each with the line it starts on. */
export function splitGames(text: string): { text: string; line: number }[] {
  const lines = text.split('\n');
  const chunks: { text: string; line: number }[] = [];
  let current: string[] = [];
  let start = 1;
  let hasMoves = false;
  let inComment = false;
  lines.forEach((line, i) => {
    const trimmed = line.trimStart();
    const isHeader = !inComment && trimmed.startsWith('[');
    if (isHeader && hasMoves) {
      chunks.push({ text: current.join('\n'), line: start });
      current = [];
      start = i + 1;
      hasMoves = false;
    }
    current.push(line);
    // What is left outside [headers] and {comments} is moves.
    for (const ch of isHeader ? line.replace(HEADERS, '') : line) {
      if (inComment) {
        if (ch === '}') inComment = false;
      } else if (ch === '{') inComment = true;
      else if (!/\s/.test(ch)) hasMoves = true;
    }
  });
  chunks.push({ text: current.join('\n'), line: start });
  return chunks.filter((c) => c.text.replace(/\{[^}]*\}/g, '').trim() !== '');
}

const PGN_DATE = /^(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)$/;
const PGN_TIME = /^(\d{2}):(\d{2}):(\d{2})$/;

/** Reads every game of a text file; `defaultGame` is for records without a `[Game]` header. */
export function readGamesText(text: string, defaultGame?: GameName): DeclaredGame[] {
  const chunks = splitGames(text);
  if (chunks.length === 0) throw new ImportError('import/empty', 'The file holds no game record.');
  return chunks.map((chunk, i) => readOne(chunk.text, chunk.line, i + 1, defaultGame));
}

function readOne(text: string, firstLine: number, index: number, defaultGame: GameName | undefined): DeclaredGame {
  const label = `Game ${index} (line ${firstLine})`;
  const parsed = parseRecord(text);
  if (!parsed.ok) {
    const params = parsed.error.params as { line?: number; column?: number } | undefined;
    const line = params?.line !== undefined ? params.line + firstLine - 1 : firstLine;
    const why = parsed.error.message.replace(/^Line \d+, column (\d+): /, `line ${line}, column $1: `);
    throw new ImportError('import/unreadable', `${label}: ${why}`, { game: index, line, rule: parsed.error.code });
  }
  const { headers, moves } = parsed.value;
  const fail = (code: ConstructorParameters<typeof ImportError>[0], why: string): never => {
    throw new ImportError(code, `${label}: ${why}`, { game: index, line: firstLine });
  };

  const gameHeader = headers.get('Game')?.trim().toLowerCase();
  const game = gameHeader ?? defaultGame;
  if (game === undefined) fail('import/no-game', 'the record does not say which game it is; add a header such as [Game "kalaha"]');
  if (!(GAME_NAMES as readonly string[]).includes(game as string)) fail('import/bad-game', `[Game "${game}"] is none of ${GAME_NAMES.join(', ')}`);
  const name = game as GameName;

  let options: unknown;
  const optionsText = headers.get('Options');
  if (optionsText !== undefined) {
    try {
      options = JSON.parse(optionsText);
    } catch {
      fail('import/bad-options', `the [Options] header is not JSON: ${optionsText}`);
    }
    if (nestedDeeperThan(options)) fail('import/too-deep', `the [Options] header nests its JSON deeper than ${MAX_JSON_DEPTH} levels`);
    if (typeof options !== 'object' || options === null || Array.isArray(options)) fail('import/bad-options', 'the [Options] header must be a JSON object such as {"seedsPerPit":3}');
  }

  // Seats come from the options and the [Players] header, which the engine checks; a seat
  // header for a seat the game does not have is refused rather than dropped.
  const players: Record<string, string> = {};
  const seatCount = Number(headers.get('Players') ?? (options as { players?: unknown } | undefined)?.players ?? NaN);
  const seats = seatsOf(name, Number.isInteger(seatCount) ? { players: seatCount } : options);
  for (const key of headers.keys()) {
    const seat = /^Player(\d+)$/.exec(key)?.[1] ?? (key === 'South' || key === 'North' ? key.toLowerCase() : null);
    if (seat === null) continue;
    if (!seats.includes(seat)) fail('import/bad-field', `[${key}] names a seat a game of ${name} with these options does not have (${seats.map(seatHeader).join(', ')})`);
    players[seat] = headers.get(key) as string;
  }

  const source = headers.get('Source') ?? 'hand';
  if (!(GAME_SOURCES as readonly string[]).includes(source)) fail('import/bad-field', `[Source "${source}"] is none of ${GAME_SOURCES.join(', ')}`);
  const site = headers.get('Site')?.trim();

  const startedAt = readStart(headers, fail);
  const endText = headers.get('End');
  const endedAt = endText === undefined ? null : parseIsoTime(endText);
  if (endText !== undefined && endedAt === null) fail('import/bad-time', `[End "${endText}"] is not an ISO time with its zone, such as 2024-05-01T12:41:40Z`);

  const resultText = headers.get('Result')?.trim();
  const winner = resultText === undefined || resultText === '*' || resultText === '' ? null : resultText;
  return {
    index,
    line: firstLine,
    game: name,
    options,
    headers,
    players,
    boardId: site && site !== '?' ? site : 'unknown',
    source: source as GameSource,
    startedAt,
    endedAt,
    winner,
    reason: headers.get('Termination') ?? null,
    moves,
  };
}

/** [Start] exactly; else [Date] and [Time] as local time; else null (the import's time). */
function readStart(headers: ReadonlyMap<string, string>, fail: (code: 'import/bad-time', why: string) => never): number | null {
  const start = headers.get('Start');
  if (start !== undefined) {
    const ms = parseIsoTime(start);
    if (ms === null) fail('import/bad-time', `[Start "${start}"] is not an ISO time with its zone, such as 2024-05-01T12:03:12Z`);
    return ms;
  }
  const date = headers.get('Date');
  if (date === undefined) return null;
  const d = PGN_DATE.exec(date);
  if (!d) return fail('import/bad-time', `[Date "${date}"] is not a date such as 2024.05.01`);
  if (d[1].startsWith('?')) return null;
  const t = PGN_TIME.exec(headers.get('Time') ?? '');
  const y = Number(d[1]);
  const mo = d[2] === '??' ? 1 : Number(d[2]);
  const day = d[3] === '??' ? 1 : Number(d[3]);
  const when = new Date(y, mo - 1, day, t ? Number(t[1]) : 0, t ? Number(t[2]) : 0, t ? Number(t[3]) : 0);
  if (when.getMonth() !== mo - 1 || when.getDate() !== day) fail('import/bad-time', `[Date "${date}"] is not a day of the calendar`);
  return when.getTime();
}
