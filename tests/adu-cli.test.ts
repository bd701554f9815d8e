// The `spieltisch` command for Adu as a user runs it: referee a trace with an answers file, simulate then referee, and serve a simulated table.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { main, type Io } from '../server/cli.ts';
import { ADU_FIXTURES, type AduTruth } from '../server/simulate/index.ts';
import type { AduView, ServerMessage } from '../server/http/messages.ts';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => stdin };
  const code = await main(argv, io);
  return { code, out, err };
}

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'spieltisch-adu-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('spieltisch referee --game adu', () => {
  test.each(ADU_FIXTURES.map((f) => f.name))('%s: the answers file plays the console; the record is the truth', async (name) => {
    const truth = JSON.parse(readFileSync(`tests/fixtures/adu/${name}.truth.json`, 'utf8')) as AduTruth;
    const options = JSON.stringify({ players: truth.rules.players });
    const { code, out } = await run(['referee', '--game', 'adu', '--options', options, '--answers', `tests/fixtures/adu/${name}.answers`, `tests/fixtures/adu/${name}.trace`]);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ kind: 'record', game: 'adu', moves: truth.record });
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.alerts.map((a) => a.code));
    expect(lines.filter((l) => l.kind === 'answer').map((l) => l.move)).toEqual(truth.answers);
    expect(lines.filter((l) => l.kind === 'answer' && !l.ok)).toEqual([]);
  });

  test('the board size comes from the trace\'s HELLO; a size a grid board cannot sense is a usage error', async () => {
    const { code, err } = await run(['referee', '--game', 'adu', '--options', '{"size":15}', 'tests/fixtures/adu/two-players.trace']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('at most 13 × 13');
  });
});

describe('spieltisch simulate --game adu, then referee', () => {
  test('three players, seed 1: the record the referee reads equals the truth', async () => {
    const dir = tempDir();
    const trace = join(dir, 'game.trace');
    const simulated = await run(['simulate', '--game', 'adu', '--options', '{"players":3}', '--seed', '1', '--out', trace]);
    expect(simulated.code).toBe(0);
    const truth = JSON.parse(simulated.out.join('\n')) as AduTruth;
    expect(truth.rules.players).toBe(3);
    expect(truth.illegalAttempts.length + truth.takeBacks.length).toBeGreaterThan(0);
    const answers = join(dir, 'game.answers');
    writeFileSync(answers, truth.answers.map((a) => `${a}\n`).join(''));
    const { code, out } = await run(['referee', '--game', 'adu', '--options', '{"players":3}', '--answers', answers, trace]);
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.at(-1).moves).toEqual(truth.record);
    expect(lines.filter((l) => l.kind === 'alert').map((l) => l.code)).toEqual(truth.alerts.map((a) => a.code));
  }, 60_000);
});

describe('spieltisch serve --game adu --simulate', () => {
  test('four players on a simulated table: the display sees an Adu game under way; the server stops on SIGTERM', async () => {
    const db = join(tempDir(), 'games.db');
    const server = spawn(process.execPath, ['bin/spieltisch.js', 'serve', '--game', 'adu', '--simulate', '--players', '4', '--http', '0', '--db', db, '--sim-speed', '20', '--seed', '3'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    let output = '';
    server.stdout.on('data', (chunk) => (output += String(chunk)));
    server.stderr.on('data', (chunk) => (output += String(chunk)));
    try {
      let port = 0;
      for (let i = 0; i < 600 && port === 0; i++) {
        const match = /display at http:\/\/localhost:(\d+)/.exec(output);
        if (match) port = Number(match[1]);
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(port, output).toBeGreaterThan(0);
      expect(output).toContain('Adu on a simulated 13 × 13 board sensing occupancy, 4 players');
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      const received: ServerMessage[] = [];
      ws.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
      // Twenty times real speed: the 32 placements of four players take about ten seconds of wall time.
      for (let i = 0; i < 400 && received.filter((m) => m.type === 'update' && m.event === 'move').length < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      ws.close();
      const sync = received.find((m) => m.type === 'sync');
      expect(sync && sync.type === 'sync' && sync.game).toBe('adu');
      const last = received.filter((m) => m.type === 'update').at(-1);
      if (last?.type !== 'update') throw new Error('no update reached the display');
      expect(last.record.length).toBeGreaterThanOrEqual(8);
      const view = last.view as AduView;
      expect([view.game, view.players, view.size, view.seats.length]).toEqual(['adu', 4, 13, 4]);
      // Still placing: one piece on the board per placement.
      const placed = last.record.length;
      expect(placed).toBeLessThan(32);
      expect([view.phase, view.pieces.length]).toEqual(['placement', placed]);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
