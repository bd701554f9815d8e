// The `spieltisch` command as a user runs it: output lines and exit statuses.
import { describe, expect, test } from 'vitest';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../server/cli.ts';
import { answersOf, generateMalawiTrace } from '../server/simulate/index.ts';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => stdin };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('spieltisch replay', () => {
  test("the seed's example record", async () => {
    const { code, out } = await run(['replay', '--game', 'kalaha', '-'], '[Game "kalaha"]\n1. C e {north sows e} 2. F d');
    expect(code).toBe(0);
    expect(JSON.parse(out[0])).toEqual({
      ok: true,
      plies: 4,
      over: false,
      winner: null,
      toMove: 'south',
      position: { pits: { A: 6, B: 6, C: 0, D: 5, E: 5, F: 0, a: 6, b: 5, c: 5, d: 0, e: 2, f: 6 }, stores: { south: 0, north: 2 } },
    });
  });

  test('an illegal move: exit 1 with ply, move, error and message', async () => {
    const { code, out } = await run(['replay', '--game', 'kalaha', '-'], '1. C C');
    expect(code).toBe(1);
    expect(JSON.parse(out[0])).toMatchObject({ ok: false, ply: 2, move: 'C', error: 'kalaha/not-your-pit' });
  });

  test('options on the command line: the 36-stone variant', async () => {
    const { out } = await run(['replay', '--game', 'kalaha', '--options', '{"seedsPerPit":3}', '-'], 'C');
    expect(JSON.parse(out[0]).position.pits).toMatchObject({ C: 0, D: 4, E: 4, F: 4, a: 3 });
  });

  test.each([
    [['replay', '--game', 'kalaha', 'no/such/file.txt'], 'no such file'],
    [['replay', '--game', 'kalaha', '--options', '{"seedsPerPit":', '-'], 'not valid JSON'],
    [['replay', '--game', 'chess', '-'], '--game must be one of'],
    [['replay', '--game', 'kalaha', '--frobnicate', '-'], 'frobnicate'],
  ])('%j is a clear error with exit 2', async (argv, words) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect([...out, ...err].join('\n')).toContain(words);
  });
});

describe('spieltisch referee', () => {
  test('a fixture trace: one JSON line per event, the record last', async () => {
    const truth = JSON.parse(readFileSync('tests/fixtures/kalaha/illegal-attempts.truth.json', 'utf8'));
    const { code, out } = await run(['referee', '--game', 'kalaha', 'tests/fixtures/kalaha/illegal-attempts.trace']);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ kind: 'record', game: 'kalaha', moves: truth.record });
    const moves = lines.filter((l) => l.kind === 'move');
    expect(moves[0]).toMatchObject({ kind: 'move', move: truth.record[0] });
    expect(typeof moves[0].t).toBe('number');
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toContain('kalaha/not-your-pit');
  });

  test('a trace with garbled lines loses nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spieltisch-'));
    const text = readFileSync('tests/fixtures/kalaha/clean-acorns.trace', 'utf8').split('\n');
    // Break three lines in every 150: a wrong checksum, a cut line, a line of noise.
    const broken = text.map((l, i) => (i % 150 === 10 ? l.replace(/\*..$/, '*00') : i % 150 === 60 ? l.slice(0, 20) : i % 150 === 110 ? '\u0000\u00ff garbage' : l));
    writeFileSync(join(dir, 'broken.trace'), broken.join('\n'));
    const truth = JSON.parse(readFileSync('tests/fixtures/kalaha/clean-acorns.truth.json', 'utf8'));
    const { out } = await run(['referee', '--game', 'kalaha', join(dir, 'broken.trace')]);
    expect(JSON.parse(out.at(-1) as string).moves).toEqual(truth.record);
  });

  test('a file without weight frames says so', async () => {
    const { code, err } = await run(['referee', '--game', 'kalaha', '-'], '0 HELLO proto=1*00\n');
    expect(code).toBe(1);
    expect(err.join('\n')).toContain('no sensor frames');
  });
});

describe('spieltisch referee --game malawi', () => {
  test.each(['occupancy-game', 'count-board', 'illegal-placements', 'take-backs', 'flicker', 'size-8'])('%s: the answers file plays the console', async (name) => {
    const truth = JSON.parse(readFileSync(`tests/fixtures/malawi/${name}.truth.json`, 'utf8'));
    const { code, out } = await run(['referee', '--game', 'malawi', '--answers', `tests/fixtures/malawi/${name}.answers`, `tests/fixtures/malawi/${name}.trace`]);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ kind: 'record', game: 'malawi', moves: truth.record });
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.illegalAttempts.map((a: { code: string }) => a.code));
    expect(lines.filter((l) => l.kind === 'answer' && !l.ok)).toEqual([]);
  });

  test.each([1, 2, 3, 4, 5, 6])('a generated occupancy-board game (seed %i): the console file announces, answers and takes back', async (seed) => {
    const { trace, truth } = generateMalawiTrace({ seed, sense: 'occupancy', illegalProbability: 0.1, takeBackProbability: 0.08, maxMoves: 60, sensor: { flickerRate: 0.001 } });
    const dir = mkdtempSync(join(tmpdir(), 'spieltisch-'));
    writeFileSync(join(dir, 'game.trace'), trace);
    writeFileSync(join(dir, 'game.answers'), answersOf(truth));
    const { out } = await run(['referee', '--game', 'malawi', '--answers', join(dir, 'game.answers'), join(dir, 'game.trace')]);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1).moves).toEqual(truth.record);
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.illegalAttempts.map((a) => a.code));
  });

  test('a bad answers line is a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spieltisch-'));
    writeFileSync(join(dir, 'answers'), 'c1xc5\n12 34 56\n');
    const { code, err } = await run(['referee', '--game', 'malawi', '--answers', join(dir, 'answers'), 'tests/fixtures/malawi/count-board.trace']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('line 2');
  });
});
