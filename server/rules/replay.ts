// Replays a game record for any game and gives the one JSON line of `spieltisch replay` (RULES.md, "Common to all games").
//
// Exit codes: 0 the record replays (finished or not); 1 a move is unreadable or illegal (a move
// after the end of the game included) — the line names the first such ply; 2 the input as a whole
// is unusable: the record's structure (record/…), a `[Game]` header naming another game
// (record/wrong-game), or options that are not a JSON object or that the game refuses (options/…).
// Options come from the `[Options "{…}"]` header, with the command line's object merged over it.
import { parseRecord } from './record.ts';
import type { GameDefinition, RuleError } from './types.ts';

export interface ReplayResult {
  readonly line: object;
  readonly exitCode: 0 | 1 | 2;
}

function unusable(code: string, message: string): ReplayResult {
  return { line: { ok: false, error: code, message }, exitCode: 2 };
}

/** JSON text → a plain object of options; `where` names its source in the message. */
function optionsObject(json: string, where: string): { ok: true; value: Record<string, unknown> } | { ok: false; result: ReplayResult } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, result: unusable('options/invalid', `The options ${where} are not valid JSON (${why}).`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, result: unusable('options/invalid', `The options ${where} must be a JSON object such as {"seedsPerPit":3}.`) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export function replay<State, Move, Options>(
  def: GameDefinition<State, Move, Options>,
  text: string,
  optionsJson?: string,
): ReplayResult {
  const record = parseRecord(text);
  if (!record.ok) return unusable(record.error.code, record.error.message);
  const { headers, moves } = record.value;

  const game = headers.get('Game');
  if (game !== undefined && game.trim().toLowerCase() !== def.name) {
    return unusable('record/wrong-game', `The record is a game of "${game}", not ${def.name}.`);
  }

  let merged: Record<string, unknown> = {};
  const fromHeader = headers.get('Options');
  if (fromHeader !== undefined) {
    const parsed = optionsObject(fromHeader, 'in the [Options] header');
    if (!parsed.ok) return parsed.result;
    merged = parsed.value;
  }
  if (optionsJson !== undefined) {
    const parsed = optionsObject(optionsJson, 'given on the command line');
    if (!parsed.ok) return parsed.result;
    merged = { ...merged, ...parsed.value };
  }
  const options = def.parseOptions(merged, headers);
  if (!options.ok) return unusable(options.error.code, options.error.message);

  let state = def.initial(options.value);
  let over = def.summary(state).over;
  for (let k = 0; k < moves.length; k++) {
    const token = moves[k];
    const bad = (error: RuleError): ReplayResult => ({
      line: { ok: false, ply: k + 1, move: token, error: error.code, message: error.message },
      exitCode: 1,
    });
    const move = def.parseMove(token, state);
    if (!move.ok) return bad(move.error);
    const next = def.play(state, move.value);
    if (!next.ok) return bad(next.error);
    // Every engine refuses moves after the end; this guards one that would not.
    if (over) return bad({ code: `${def.name}/game-over`, message: 'The game is over; no more moves can be played.' });
    state = next.value;
    over = def.summary(state).over;
  }

  const { over: finished, winner, toMove, position } = def.summary(state);
  return {
    line: { ok: true, plies: moves.length, over: finished, winner, toMove, position },
    exitCode: 0,
  };
}
