// Adu records through `spieltisch replay` (RULES.md §4 "Replay output" and "Common to all games"): both output shapes, exit codes.
import { describe, expect, test } from 'vitest';
import { aduGame, gameDefinition, games, replay } from '../../server/rules/index.ts';
import { main, type Io } from '../../server/cli.ts';

/** The line as the command prints it: key order matters. */
function run(text: string, options?: string) {
  const { line, exitCode } = replay(aduGame, text, options);
  return { json: JSON.stringify(line), exitCode };
}

const PLACEMENT_7 = '1. K@g1 K@a5 2. S@a3 S@g7 3. S@c3 S@f7 4. S@d1 S@e7 5. S@e1 S@d7 6. S@f1 S@b7 7. S@g2 S@a7 8. K@b1 K@c5';
// Player 1 takes player 2's first king (and a reserve king on the intersection it left), then the second: player 2 is out.
const FINISHED = `[Game "adu"] [Options "{"size":7}"]
${PLACEMENT_7}
9. a3xa5R@a3 g7-g6 10. c3xc5 {the last king}`;

const ONGOING = `[Game "adu"] [Options "{"size":7}"]
K@a1 K@g7 S@b2 S@f6 S@c2 S@e6 S@d2 S@d6 S@e2 S@c6 S@f2 S@b6 S@g2 S@a6 K@b1 K@f7
b2-b4 f6-f3 c2-c3 d6-d5 b4xb6 {player 2 declares nothing: S5 is the one}`;

const all = [1, 2, 3, 4, 5, 6];
const from = (low: number) => all.filter((r) => r >= low);

describe('replay: the game goes on or is over', () => {
  test('a finished game, in the exact envelope', () => {
    expect(run(FINISHED)).toEqual({
      json: JSON.stringify({
        ok: true,
        plies: 19,
        over: true,
        winner: '1',
        toMove: null,
        position: {
          pieces: {
            b1: { player: 1, kind: 'king', id: 'K2' },
            d1: { player: 1, kind: 'soldier', id: 'S3' },
            e1: { player: 1, kind: 'soldier', id: 'S4' },
            f1: { player: 1, kind: 'soldier', id: 'S5' },
            g1: { player: 1, kind: 'king', id: 'K1' },
            g2: { player: 1, kind: 'soldier', id: 'S6' },
            a3: { player: 1, kind: 'reserve', id: 'R1' },
            a5: { player: 1, kind: 'soldier', id: 'S1' },
            c5: { player: 1, kind: 'soldier', id: 'S2' },
          },
          ranges: { '1': { S1: from(2), S2: from(2), S3: all, S4: all, S5: all, S6: all } },
          supply: 9,
        },
      }),
      exitCode: 0,
    });
  });

  test('a game going on: the player to move, the Merkskala of both players, a declared soldier gone from it', () => {
    const { json, exitCode } = run(ONGOING);
    expect(exitCode).toBe(0);
    expect(json).toBe(
      '{"ok":true,"plies":21,"over":false,"winner":null,"toMove":"2","position":{"pieces":{' +
        '"a1":{"player":1,"kind":"king","id":"K1"},"b1":{"player":1,"kind":"king","id":"K2"},' +
        '"d2":{"player":1,"kind":"soldier","id":"S3"},"e2":{"player":1,"kind":"soldier","id":"S4"},' +
        '"f2":{"player":1,"kind":"soldier","id":"S5"},"g2":{"player":1,"kind":"soldier","id":"S6"},' +
        '"c3":{"player":1,"kind":"soldier","id":"S2"},"f3":{"player":2,"kind":"soldier","id":"S1"},' +
        '"d5":{"player":2,"kind":"soldier","id":"S3"},"a6":{"player":2,"kind":"soldier","id":"S6"},' +
        '"b6":{"player":1,"kind":"soldier","id":"S1"},"c6":{"player":2,"kind":"soldier","id":"S4"},' +
        '"e6":{"player":2,"kind":"soldier","id":"S2"},"f7":{"player":2,"kind":"king","id":"K2"},' +
        '"g7":{"player":2,"kind":"king","id":"K1"}},' +
        '"ranges":{"1":{"S1":[2,3,4,5,6],"S2":[1,2,3,4,5,6],"S3":[1,2,3,4,5,6],"S4":[1,2,3,4,5,6],"S5":[1,2,3,4,5,6],"S6":[1,2,3,4,5,6]},' +
        '"2":{"S1":[3,4,5,6],"S2":[2,3,4,5,6],"S3":[2,3,4,5,6],"S4":[2,3,4,5,6],"S6":[2,3,4,5,6]}},"supply":10}}',
    );
  });

  test('an explicit declaration changes what the Merkskala shows', () => {
    const { line } = replay(aduGame, ONGOING.replace('b4xb6', 'b4xb6=6'));
    expect(line).toMatchObject({ ok: true, position: { ranges: { '2': { S1: [3, 4, 5], S2: [1, 2, 3, 4, 5] } } } });
  });

  test('no moves: placement begins with player 1', () => {
    expect(run('[Game "adu"]').json).toBe(
      '{"ok":true,"plies":0,"over":false,"winner":null,"toMove":"1","position":{"pieces":{},"ranges":{},"supply":10}}',
    );
  });

  test('the [Players] header seats more players', () => {
    const { line } = replay(aduGame, '[Game "adu"] [Players "3"] K@a1 K@b2');
    expect(line).toMatchObject({ ok: true, plies: 2, toMove: '3' });
  });

  test('options on the command line', () => {
    const { line } = replay(aduGame, 'K@g7', '{"players":6,"size":9}');
    expect(line).toMatchObject({ ok: true, toMove: '2', position: { pieces: { g7: { player: 1, kind: 'king', id: 'K1' } } } });
  });

  test('the game is found in the registry by name', () => {
    expect(games.adu).toBe(aduGame);
    expect(gameDefinition('adu')).toBe(aduGame);
  });
});

describe('replay: the first bad move', () => {
  test.each([
    ['a king moving two steps', `${ONGOING} f7-f5`, 22, 'f7-f5', 'adu/king-one-step', 'a king moves exactly one step; f7 to f5 is 2'],
    ['a move after the end', `${FINISHED} g1-g2`, 20, 'g1-g2', 'adu/game-over', 'the game is over: player 1 won as the last player with a king'],
    [
      'an unreadable move',
      'K@a1 K-a2',
      2,
      'K-a2',
      'adu/bad-notation',
      '"K-a2" is not an Adu move; write a placement as K@d4 or S@e5, a move as d4-d7 and a capture as d4xd7, d4xd7=2 or e5xe9R@h8',
    ],
    ['a placement on a taken intersection', 'K@a1 K@a1', 2, 'K@a1', 'adu/square-taken', 'a1 is taken; a piece is placed on an empty intersection'],
  ])('%s: exit 1 with ply, move, error, message', (_, text, ply, move, error, message) => {
    expect(run(text)).toEqual({ json: JSON.stringify({ ok: false, ply, move, error, message }), exitCode: 1 });
  });
});

describe('replay: unusable input', () => {
  test.each([
    ['too many players', '[Players "7"] K@a1', undefined],
    ['a header and an option that disagree', '[Players "3"] K@a1', '{"players":4}'],
    ['an unknown option', 'K@a1', '{"reserve":5}'],
  ])('%s: exit 2, options/invalid', (_, text, options) => {
    const { line, exitCode } = replay(aduGame, text, options);
    expect(exitCode).toBe(2);
    expect(line).toMatchObject({ ok: false, error: 'options/invalid' });
  });
});

describe('spieltisch replay --game adu', () => {
  test('reads a record on standard input and prints the line', async () => {
    const out: string[] = [];
    const io: Io = { out: (l) => out.push(l), err: () => {}, stdin: async () => FINISHED };
    expect(await main(['replay', '--game', 'adu', '-'], io)).toBe(0);
    expect(JSON.parse(out[0])).toMatchObject({ ok: true, plies: 19, over: true, winner: '1', toMove: null });
  });
});
