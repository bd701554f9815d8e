// `spieltisch replay`: the JSON line and the exit code for good records, bad moves and unusable input.
import { describe, expect, test } from 'vitest';
import { games, kalahaGame, replay } from '../../server/rules/index.ts';
import { fail, ok, type GameDefinition } from '../../server/rules/types.ts';

/** The line as the command prints it: key order matters. */
function run(text: string, options?: string) {
  const { line, exitCode } = replay(kalahaGame, text, options);
  return { json: JSON.stringify(line), exitCode };
}

const pits = (a: number[], n: number[]) =>
  JSON.stringify(Object.fromEntries([...'ABCDEFabcdef'].map((letter, i) => [letter, i < 6 ? a[i] : n[i - 6]])));

// A whole game from the start (27 plies): north cannot feed at the end, south takes its pits.
const SHORT_GAME = `[Game "kalaha"]
1. D a 2. C b 3. E e 4. A f 5. E d 6. B b 7. A c 8. D b 9. E f 10. F a
11. C f 12. D a 13. E a 14. F`;

describe('replay: the game goes on or is over', () => {
  test('the seed example, in the exact envelope', () => {
    expect(run('[Game "kalaha"]  1. C e  2. F d')).toEqual({
      json:
        '{"ok":true,"plies":4,"over":false,"winner":null,"toMove":"south","position":{"pits":' +
        pits([6, 6, 0, 5, 5, 0], [6, 5, 5, 0, 2, 6]) +
        ',"stores":{"south":0,"north":2}}}',
      exitCode: 0,
    });
  });

  test('a finished game: winner, no one to move, every stone in a store', () => {
    expect(run(SHORT_GAME)).toEqual({
      json:
        '{"ok":true,"plies":27,"over":true,"winner":"south","toMove":null,"position":{"pits":' +
        pits([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]) +
        ',"stores":{"south":35,"north":13}}}',
      exitCode: 0,
    });
  });

  test('no moves: the start', () => {
    const { line, exitCode } = replay(kalahaGame, '');
    expect(exitCode).toBe(0);
    expect(line).toMatchObject({ ok: true, plies: 0, over: false, winner: null, toMove: 'south' });
  });

  test('the [Game] header may be written in capitals', () => {
    expect(run('[Game "Kalaha"] C').exitCode).toBe(0);
  });

  test('the game is found in the registry by name', () => {
    expect(games.kalaha).toBe(kalahaGame);
  });
});

describe('replay: options', () => {
  const start = (n: number) => `"position":{"pits":${pits(Array(6).fill(n), Array(6).fill(n))}`;

  test('the [Options] header sets them', () => {
    const { json, exitCode } = run('[Game "kalaha"] [Options "{"seedsPerPit":3}"]');
    expect(exitCode).toBe(0);
    expect(json).toContain(start(3));
  });

  test('the command line gives them too', () => {
    expect(run('C', '{"seedsPerPit":3}').json).toContain('"pits":{"A":3,"B":3,"C":0,"D":4,"E":4,"F":4,"a":3,"b":3');
  });

  test('the command line wins over the header for the same option', () => {
    expect(run('[Options "{"seedsPerPit":3}"]', '{"seedsPerPit":5}').json).toContain(start(5));
  });

  test('the command line merges with the header for other options', () => {
    expect(run('[Options "{"seedsPerPit":3}"]', '{"skipOrigin":false}').json).toContain(start(3));
    expect(run('[Options "{"seedsPerPit":3}"]', '{"skipOrigin":"no"}').exitCode).toBe(2);
  });

  test.each([
    ['not JSON on the command line', '', '{seedsPerPit:3}'],
    ['a JSON array on the command line', '', '[3]'],
    ['JSON null on the command line', '', 'null'],
    ['not JSON in the header', '[Options "seedsPerPit=3"]', undefined],
    ['an unknown option', '', '{"pits":3}'],
    ['a bad value', '[Options "{"seedsPerPit":0}"]', undefined],
  ])('%s: exit 2, options/invalid', (_, header, options) => {
    const { line, exitCode } = replay(kalahaGame, `${header} C e`, options);
    expect(exitCode).toBe(2);
    expect(line).toEqual({ ok: false, error: 'options/invalid', message: expect.stringMatching(/^The options |^Option |^Kalaha has no option /) });
  });
});

describe('replay: the first bad move', () => {
  test.each([
    ['an opponent’s pit', 'C C', 2, 'C', 'kalaha/not-your-pit', "Pit C belongs to south, but it is north's turn."],
    ['an empty pit', '1. C a 2. C', 3, 'C', 'kalaha/empty-pit', 'Pit C is empty.'],
    ['an unreadable move', '1. C e 2. G', 3, 'G', 'kalaha/unreadable-move', '"G" is not a Kalaha move; a move is the letter of the pit sown, A–F for south or a–f for north.'],
    ['a move after the end', `${SHORT_GAME} a`, 28, 'a', 'kalaha/game-over', 'The game is over; no more moves can be played.'],
  ])('%s: exit 1 with ply, move, error, message', (_, text, ply, move, error, message) => {
    expect(run(text)).toEqual({ json: JSON.stringify({ ok: false, ply, move, error, message }), exitCode: 1 });
  });

  test('the first bad move is reported, not a later one', () => {
    expect(JSON.parse(run('C x y').json)).toMatchObject({ ply: 2, move: 'x' });
  });
});

describe('replay: an unusable record', () => {
  test('a [Game] header naming another game: exit 2', () => {
    expect(replay(kalahaGame, '[Game "malawi"] a1-a3')).toEqual({
      line: { ok: false, error: 'record/wrong-game', message: 'The record is a game of "malawi", not kalaha.' },
      exitCode: 2,
    });
  });

  test.each([
    ['an unterminated comment', 'C e {north', 'record/unterminated-comment'],
    ['a malformed header', '[Game kalaha] C', 'record/malformed-header'],
  ])('%s: exit 2 with the record error', (_, text, error) => {
    const { line, exitCode } = replay(kalahaGame, text);
    expect(exitCode).toBe(2);
    expect(line).toMatchObject({ ok: false, error });
  });
});

describe('replay knows no game in particular', () => {
  // A stand-in game: players add 1 or 2 to a counter; reaching 5 ends it. Its play() does not
  // check for the end, so replay's own guard must refuse a move after it.
  type Count = { total: number; step: number };
  const counting: GameDefinition<Count, number, { goal: number }> = {
    name: 'adu',
    defaultOptions: { goal: 5 },
    parseOptions: (input, headers) => {
      const goal = Number(headers?.get('Goal') ?? (input as { goal?: number }).goal ?? 5);
      return goal > 0 ? ok({ goal }) : fail('options/invalid', 'The goal must be positive.');
    },
    initial: () => ({ total: 0, step: 0 }),
    parseMove: (token) => (token === '1' || token === '2' ? ok(Number(token)) : fail('adu/unreadable-move', `"${token}" is no step.`)),
    formatMove: (move) => String(move),
    play: (state, move) => ok({ total: state.total + move, step: state.step + 1 }),
    legalMoves: () => [1, 2],
    summary: (state) => ({
      over: state.total >= 5,
      winner: state.total >= 5 ? String(state.step % 2) : null,
      toMove: state.total >= 5 ? null : String(state.step % 2),
      position: { total: state.total },
    }),
  };

  test('plays tokens through the definition and prints its summary', () => {
    expect(replay(counting, '[Game "adu"] 2 2').line).toEqual({ ok: true, plies: 2, over: false, winner: null, toMove: '0', position: { total: 4 } });
  });

  test('refuses a move after the end even when the game would take it', () => {
    expect(replay(counting, '2 2 1 1')).toEqual({
      line: { ok: false, ply: 4, move: '1', error: 'adu/game-over', message: 'The game is over; no more moves can be played.' },
      exitCode: 1,
    });
  });

  test('passes the headers to parseOptions', () => {
    expect(replay(counting, '[Goal "0"] 1')).toEqual({ line: { ok: false, error: 'options/invalid', message: 'The goal must be positive.' }, exitCode: 2 });
  });
});
