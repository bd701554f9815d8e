// `spieltisch replay --game makis`: the JSON line (RULES.md §3 "Replay output") and exit codes, through replay() and the command.
import { describe, expect, test } from 'vitest';
import { gameDefinition, games, makisGame, replay } from '../../server/rules/index.ts';
import { main, type Io } from '../../server/cli.ts';

/** The line as the command prints it: key order matters. */
function run(text: string, options?: string) {
  const { line, exitCode } = replay(makisGame, text, options);
  return { json: JSON.stringify(line), exitCode };
}

const knights = (rows: string) => JSON.stringify(Object.fromEntries([...rows].map((row, i) => [String(i + 1), Number(row)])));

// RULES.md §3's record example.
const EXAMPLE = '[Game "makis"] [Players "3"]  1@c5r9 2@c2r9 3@c8r9  R1.2.3 1:c5r8 2:- 3:c8r8';

describe('replay: the game goes on', () => {
  test("RULES.md's example record, in the exact envelope: the next token is a roll", () => {
    expect(run(EXAMPLE)).toEqual({
      json:
        '{"ok":true,"plies":7,"over":false,"winner":null,"toMove":"roll","position":{"knights":' +
        knights('222111111') +
        ',"makis":{"1":"c5r8","2":"c2r9","3":"c8r8"}}}',
      exitCode: 0,
    });
  });

  test('toMove names the player whose Maki moves next, as a string', () => {
    const { json } = run(`${EXAMPLE} R2.5.5`);
    expect(JSON.parse(json)).toMatchObject({ plies: 8, toMove: '2', position: { knights: JSON.parse(knights('232131111')) } });
  });

  test('while placing, toMove is the next placer and only placed Makis are listed', () => {
    expect(JSON.parse(run('[Players "2"] 1@c5r9').json)).toEqual({
      ok: true,
      plies: 1,
      over: false,
      winner: null,
      toMove: '2',
      position: { knights: JSON.parse(knights('111111111')), makis: { 1: 'c5r9' } },
    });
  });

  test('a captured Maki shows as "out"', () => {
    // Player 2 steps in front of the knight of column 2 and is captured by their own roll; player 1 moves next.
    const record = '[Players "2"] [Options "{"knights":[1,6,1,1,1,1,1,1,1]}"] 1@c5r9 2@c2r9 R1.2.4 1:c5r8 2:c2r8 R1.2.4';
    expect(JSON.parse(run(record).json)).toEqual({
      ok: true,
      plies: 6,
      over: false,
      winner: null,
      toMove: '1',
      position: { knights: JSON.parse(knights('381311111')), makis: { 1: 'c5r8', 2: 'out' } },
    });
  });
});

describe('replay: the game is over', () => {
  test('a knight on row 9: winner "knights", nobody to move', () => {
    const record = '[Options "{"knights":[1,1,1,1,1,1,1,1,8]}"] 1@c5r9 R1.3.9';
    expect(run(record)).toEqual({
      json:
        '{"ok":true,"plies":2,"over":true,"winner":"knights","toMove":null,"position":{"knights":' +
        knights('212111119') +
        ',"makis":{"1":"c5r9"}}}',
      exitCode: 0,
    });
  });

  // Player 2 walks from c3r9 round the knight of column 5 (on row 8, never rolled) down to c5r1;
  // the rolls move only the knights of columns 1–3 and 7–9, which never come beside a Maki.
  const WALK =
    '1@c9r9 2@c3r9 R1.2.3 1:- 2:c3r8 R7.8.9 2:c4r7 1:- R1.2.3 1:- 2:c5r6 R7.8.9 2:c5r5 1:- ' +
    'R1.2.3 1:- 2:c5r4 R7.8.9 2:c5r3 1:- R1.2.3 1:- 2:c5r2 R7.8.9 2:c5r1';

  test('a Maki on row 1 in competitive play: winner is the player number as a string', () => {
    expect(run(`[Game "makis"] [Players "2"] [Options "{"knights":[1,1,1,1,8,1,1,1,1]}"] ${WALK}`)).toEqual({
      json:
        '{"ok":true,"plies":25,"over":true,"winner":"2","toMove":null,"position":{"knights":' +
        knights('555181555') +
        ',"makis":{"1":"c9r9","2":"c5r1"}}}',
      exitCode: 0,
    });
  });

  test('in cooperative play the team wins', () => {
    const line = JSON.parse(run(`[Players "2"] [Options "{"mode":"cooperative","knights":[1,1,1,1,8,1,1,1,1]}"] ${WALK}`).json);
    expect(line).toMatchObject({ ok: true, over: true, winner: 'team', toMove: null });
  });
});

describe('replay: bad moves and unusable input', () => {
  test('an impossible roll: exit 1 with ply, move, error and message', () => {
    expect(run('1@c5r9 R1.1.1')).toEqual({
      json: '{"ok":false,"ply":2,"move":"R1.1.1","error":"makis/impossible-roll","message":"a roll of 1-1-1 cannot be made with Miwin\'s dice"}',
      exitCode: 1,
    });
  });

  test('an unreadable token', () => {
    expect(JSON.parse(run('1@c5r9 R1.2').json)).toMatchObject({ ok: false, ply: 2, move: 'R1.2', error: 'makis/bad-notation' });
  });

  test('a move after the end', () => {
    const { json, exitCode } = run('[Options "{"knights":[1,1,1,1,1,1,1,1,8]}"] 1@c5r9 R1.3.9 1:c5r8');
    expect(exitCode).toBe(1);
    expect(JSON.parse(json)).toMatchObject({ ok: false, ply: 3, move: '1:c5r8', error: 'makis/game-over' });
  });

  test('a player out of turn', () => {
    expect(JSON.parse(run('[Players "2"] 2@c5r9').json)).toMatchObject({ ok: false, ply: 1, error: 'makis/not-your-turn' });
  });

  test('options on the command line merge over the [Options] header', () => {
    const { json } = run('[Options "{"players":2}"] 1@c5r9', '{"knights":[2,2,2,2,2,2,2,2,2]}');
    expect(JSON.parse(json)).toMatchObject({ toMove: '2', position: { knights: JSON.parse(knights('222222222')) } });
  });

  test('[Players] header and options that disagree: exit 2', () => {
    expect(replay(makisGame, '[Players "3"] 1@c5r9', '{"players":2}')).toMatchObject({ exitCode: 2, line: { ok: false, error: 'options/invalid' } });
  });

  test('a record of another game: exit 2', () => {
    expect(replay(makisGame, '[Game "malawi"] a1-a3').exitCode).toBe(2);
  });
});

describe('the registry and the command', () => {
  test('makis is in the registry', () => {
    expect(games.makis).toBe(makisGame);
    expect(gameDefinition('makis')).toBe(makisGame);
  });

  test('spieltisch replay --game makis - reads standard input', async () => {
    const out: string[] = [];
    const io: Io = { out: (l) => out.push(l), err: () => {}, stdin: async () => EXAMPLE };
    expect(await main(['replay', '--game', 'makis', '-'], io)).toBe(0);
    expect(JSON.parse(out[0])).toMatchObject({ ok: true, plies: 7, toMove: 'roll', position: { makis: { 1: 'c5r8', 2: 'c2r9', 3: 'c8r8' } } });
  });
});
