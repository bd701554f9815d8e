// Many games as CSV (RFC 4180): one row per game, for spreadsheets and for import.
//
//   id,game,date,start,end,board,source,players,plies,winner,reason,options,moves
//
// `date` is the local day of the start, `start` and `end` exact ISO times (UTC); `players` and
// `options` are JSON objects; `moves` the record's tokens separated by spaces. On import only
// `game` and `moves` are needed; `id`, `date` and `plies` are read back from the rest and ignored,
// and columns this Spieltisch does not know are ignored too. A cell a spreadsheet would take for a
// formula (starting with = + - @) is written with a leading ' , which import removes.
import { GAME_NAMES } from '../rules/index.ts';
import type { GameName } from '../rules/index.ts';
import { GAME_SOURCES, localDay } from '../store/index.ts';
import type { GameSource } from '../store/index.ts';
import type { DeclaredGame } from './check.ts';
import { ImportError, MAX_JSON_DEPTH, nestedDeeperThan } from './errors.ts';
import { isoTime, parseIsoTime, reasonIn, winnerIn, type PortableGame } from './portable.ts';

export const CSV_COLUMNS = ['id', 'game', 'date', 'start', 'end', 'board', 'source', 'players', 'plies', 'winner', 'reason', 'options', 'moves'] as const;

export function formatGamesCsv(games: readonly PortableGame[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const g of games) {
    const cells = [
      g.id === null ? '' : String(g.id),
      g.game,
      localDay(g.startedAt),
      isoTime(g.startedAt),
      g.endedAt === null ? '' : isoTime(g.endedAt),
      g.boardId,
      g.source,
      JSON.stringify(g.players),
      String(g.moves.length),
      winnerIn(g.result) ?? '',
      reasonIn(g.result) ?? '',
      JSON.stringify(g.options),
      g.moves.join(' '),
    ];
    rows.push(cells.map(cell).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function uncell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** Rows of fields, each with the line it starts on; quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): { fields: string[]; line: number }[] {
  const rows: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) rows.push({ fields, line: rowLine });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (field !== '') throw new ImportError('import/unreadable', `CSV line ${line}: a quote inside an unquoted field; quote the whole field and double the quote.`, { line });
      quoted = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += ch;
  }
  if (quoted) throw new ImportError('import/unreadable', `CSV line ${rowLine}: a quoted field is never closed.`, { line: rowLine });
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}

export function readGamesCsv(text: string, defaultGame?: GameName): DeclaredGame[] {
  const rows = parseCsv(text);
  if (rows.length === 0) throw new ImportError('import/empty', 'The CSV file is empty.');
  const header = rows[0].fields.map((h) => h.trim().toLowerCase());
  if (!header.includes('moves')) throw new ImportError('import/unreadable', `The CSV's first row must name its columns, among them "moves" (${CSV_COLUMNS.join(',')}).`, { line: 1 });
  if (rows.length === 1) throw new ImportError('import/empty', 'The CSV file has no game rows.');
  return rows.slice(1).map((row, i) => {
    const index = i + 1;
    const fail = (code: ConstructorParameters<typeof ImportError>[0], why: string): never => {
      throw new ImportError(code, `Game ${index} (CSV line ${row.line}): ${why}`, { game: index, line: row.line });
    };
    if (row.fields.length !== header.length) fail('import/unreadable', `the row has ${row.fields.length} fields, the header ${header.length}`);
    const get = (name: string): string | undefined => {
      const k = header.indexOf(name);
      return k < 0 ? undefined : uncell(row.fields[k]);
    };
    const json = (name: string): unknown => {
      const value = get(name);
      if (value === undefined || value === '') return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return fail(name === 'options' ? 'import/bad-options' : 'import/bad-field', `"${name}" is not JSON: ${value}`);
      }
      if (nestedDeeperThan(parsed)) fail('import/too-deep', `"${name}" nests its JSON deeper than ${MAX_JSON_DEPTH} levels`);
      return parsed;
    };
    const game = get('game') || defaultGame;
    if (!game) fail('import/no-game', 'the row does not say which game it is (column "game")');
    if (!(GAME_NAMES as readonly string[]).includes(game as string)) fail('import/bad-game', `"${game}" is none of ${GAME_NAMES.join(', ')}`);
    const options = json('options');
    if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) fail('import/bad-options', '"options" must be a JSON object');
    const players = json('players') ?? {};
    if (typeof players !== 'object' || players === null || Array.isArray(players) || !Object.values(players).every((n) => typeof n === 'string')) {
      fail('import/bad-field', '"players" must be a JSON object of names, such as {"south":"Anna","north":"Ben"}');
    }
    const source = get('source') || 'hand';
    if (!(GAME_SOURCES as readonly string[]).includes(source)) fail('import/bad-field', `"source" must be one of ${GAME_SOURCES.join(', ')}`);
    const time = (name: string): number | null => {
      const value = get(name);
      if (!value) return null;
      const ms = parseIsoTime(value);
      if (ms === null) fail('import/bad-time', `"${name}" is not an ISO time with its zone, such as 2024-05-01T12:03:12Z`);
      return ms;
    };
    const winner = get('winner') || null;
    return {
      index,
      line: row.line,
      game: game as GameName,
      options,
      players: players as Record<string, string>,
      boardId: get('board')?.trim() || 'unknown',
      source: source as GameSource,
      startedAt: time('start'),
      endedAt: time('end'),
      winner,
      reason: get('reason') || null,
      moves: (get('moves') ?? '').split(/\s+/).filter((m) => m !== ''),
    };
  });
}
