// The `spieltisch` command for Makis as a user runs it: simulate a game, referee its trace (with an answers file as the console), and the errors a user can make.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatLine } from '../firmware-bridge/index.ts';
import { main, type Io } from '../server/cli.ts';
import { MAKIS_FIXTURES, makisAnswersOf, type MakisTruth } from '../server/simulate/index.ts';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => stdin };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('spieltisch referee --game makis', () => {
  test.each(MAKIS_FIXTURES.map((f) => f.name))('%s: the record printed is the truth', async (name) => {
    const truth = JSON.parse(readFileSync(`tests/fixtures/makis/${name}.truth.json`, 'utf8')) as MakisTruth;
    // The number of players and the mode are the game's options: the board cannot tell them.
    const options = JSON.stringify(truth.rules);
    const { code, out } = await run(['referee', '--game', 'makis', '--options', options, '--answers', `tests/fixtures/makis/${name}.answers`, `tests/fixtures/makis/${name}.trace`]);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ kind: 'record', game: 'makis', moves: truth.record });
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.alerts.map((a) => a.code));
    expect(lines.filter((l) => l.kind === 'answer').map((l) => [l.move, l.ok])).toEqual(truth.questions.map((q) => [q.move, true]));
    expect(lines.filter((l) => l.kind === 'end')).toHaveLength(truth.end ? 1 : 0);
  });

  test('without the answers the console would give, a roll whose readings end the game alike is taken, assumed, its question left open', async () => {
    const truth = JSON.parse(readFileSync('tests/fixtures/makis/console-question.truth.json', 'utf8')) as MakisTruth;
    const { code, out } = await run(['referee', '--game', 'makis', '--options', JSON.stringify(truth.rules), 'tests/fixtures/makis/console-question.trace']);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    const questions = lines.filter((l) => l.kind === 'question');
    expect(questions.map((l) => [...l.options].sort())).toEqual([truth.questions[0].options]);
    expect(questions[0].blocking).toBe(false);
    const taken = questions[0].params.taken as string;
    expect(truth.questions[0].options).toContain(taken);
    expect(lines.find((l) => l.kind === 'move' && l.ply === truth.record.length)).toMatchObject({ move: taken, assumed: true });
    expect(lines.at(-1).moves).toEqual([...truth.record.slice(0, -1), taken]);
  });

  test('a board that is not 9 × 9 is refused', async () => {
    const { code, err } = await run(['referee', '--game', 'makis', '-'], `0 ${formatLine('HELLO proto=1 fw=x/1 board=grid id=A cols=6 rows=6 sense=occupancy')}\n`);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('9 × 9');
  });

  test('the players are an option: a three-player trace refereed for one player goes wrong at the second placement', async () => {
    const { out } = await run(['referee', '--game', 'makis', 'tests/fixtures/makis/three-players.trace']);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1).moves).toEqual(['1@c3r9']);
    expect(lines.some((l) => l.kind === 'alert' && l.code === 'referee/mismatch')).toBe(true);
  });

  test('a bad answers line is a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spieltisch-'));
    writeFileSync(join(dir, 'answers'), 'R1.1.2\n12 34 56\n');
    const { code, err } = await run(['referee', '--game', 'makis', '--answers', join(dir, 'answers'), 'tests/fixtures/makis/solitaire.trace']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('line 2');
  });
});

describe('spieltisch simulate --game makis, then referee', () => {
  test.each([
    [1, '{"players":1}'],
    [2, '{"players":3}'],
    [3, '{"players":5,"mode":"cooperative"}'],
  ])('seed %i, options %s: the trace written and refereed gives the truth printed', async (seed, options) => {
    const dir = mkdtempSync(join(tmpdir(), 'spieltisch-'));
    const trace = join(dir, 'game.trace');
    const simulated = await run(['simulate', '--game', 'makis', '--seed', String(seed), '--options', options, '--out', trace]);
    expect(simulated.code).toBe(0);
    const truth = JSON.parse(simulated.out.join('\n')) as MakisTruth;
    expect(truth.rules).toMatchObject(JSON.parse(options));
    writeFileSync(join(dir, 'game.answers'), makisAnswersOf(truth));
    const { code, out } = await run(['referee', '--game', 'makis', '--options', options, '--answers', join(dir, 'game.answers'), trace]);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ kind: 'record', game: 'makis', moves: truth.record });
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.alerts.map((a) => a.code));
  });

  test('options the rules refuse are a usage error', async () => {
    const { code, err } = await run(['simulate', '--game', 'makis', '--options', '{"players":6}']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('players');
  });
});
