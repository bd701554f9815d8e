// Adu under seeded random play with 2, 3 and 6 players: invariants after every move, legalMoves against play, replay of every game.
import { describe, expect, test } from 'vitest';
import { RESERVE_KINGS, legalMoves, merkskala, parseOptions, play } from '../../server/rules/adu.ts';
import type { AduMove, AduOptions, AduState } from '../../server/rules/adu.ts';
import { hallHolds } from '../../server/rules/adu-ranges.ts';
import type { RangeLedger } from '../../server/rules/adu-ranges.ts';
import { formatMove, parseMove } from '../../server/rules/adu-notation.ts';
import { aduGame } from '../../server/rules/adu-game.ts';
import { formatRecord } from '../../server/rules/record.ts';
import { replay } from '../../server/rules/replay.ts';
import { mulberry32 as seeded } from '../support/prng.ts';


/** The ranges a soldier may hold, by trying all 720 ways of dealing 1…6 (the oracle for the Merkskala). */
function bruteForceRanges(ledger: RangeLedger, soldier: number): number[] {
  const found = new Set<number>();
  const deal = (i: number, used: number, dealt: number[]): void => {
    if (i === 6) {
      found.add(dealt[soldier]);
      return;
    }
    for (let r = 1; r <= 6; r++) {
      if (used & (1 << r) || r < ledger.longest[i] || (ledger.declared[i] !== null && ledger.declared[i] !== r)) continue;
      dealt[i] = r;
      deal(i + 1, used | (1 << r), dealt);
    }
  };
  deal(0, 0, []);
  return [...found].sort((a, b) => a - b);
}

/** Random play leaning towards captures (as players do), so that games reach the rules about kings. */
function choose(state: AduState, moves: readonly AduMove[], random: () => number): AduMove {
  const captures = moves.filter((m) => m.kind === 'capture');
  const pool = captures.length > 0 && random() < 0.5 ? captures : moves;
  const picked = pool[Math.floor(random() * pool.length)];
  // Now and then the captured soldier's owner declares more than the lowest value.
  if (picked.kind === 'capture' && state.squares[picked.to]?.kind === 'soldier' && random() < 0.3) return { ...picked, declare: 1 + Math.floor(random() * 6) };
  return picked;
}

function problemsOf(state: AduState, before: AduState): string[] {
  const problems: string[] = [];
  const n = state.options.players;
  const names = new Set<string>();
  let reservesOnBoard = 0;
  state.squares.forEach((piece) => {
    if (piece === null) return;
    const name = `${piece.player}${piece.id}`;
    if (names.has(name)) problems.push(`${name} stands twice`);
    names.add(name);
    if (!state.inGame[piece.player - 1]) problems.push(`${name} stands though player ${piece.player} is out`);
    if (piece.kind === 'reserve') reservesOnBoard++;
  });
  if (state.squares.filter((p) => p !== null).length > state.placed + state.reservesTaken.reduce((a, b) => a + b, 0)) {
    problems.push('more pieces than were placed and taken');
  }
  if (state.supply < 0) problems.push(`supply ${state.supply}`);
  if (state.supply + state.reservesTaken.reduce((a, b) => a + b, 0) !== RESERVE_KINGS) problems.push('reserve kings not conserved');
  if (reservesOnBoard > RESERVE_KINGS - state.supply) problems.push('more reserve kings on the board than were taken');
  if (before.supply < state.supply) problems.push('the supply grew');
  for (let p = 1; p <= n; p++) {
    const ledger = state.ledgers[p - 1];
    if (!hallHolds(ledger)) problems.push(`player ${p}'s ranges cannot be dealt`);
    const previous = before.ledgers[p - 1];
    for (let i = 0; i < 6; i++) {
      if (ledger.longest[i] < previous.longest[i]) problems.push(`player ${p}'s S${i + 1} forgot a longer move`);
      if (previous.declared[i] !== null && ledger.declared[i] !== previous.declared[i]) problems.push(`player ${p}'s S${i + 1} changed its declaration`);
    }
  }
  for (const [player, line] of Object.entries(merkskala(state))) {
    for (const [id, ranges] of Object.entries(line)) {
      const expected = bruteForceRanges(state.ledgers[Number(player) - 1], Number(id.slice(1)) - 1);
      if (ranges.join() !== expected.join()) problems.push(`player ${player}'s ${id}: Merkskala ${ranges}, brute force ${expected}`);
    }
  }
  if (state.outcome === null) {
    if (!state.inGame[state.toMove - 1]) problems.push(`player ${state.toMove} is to move but out`);
    if (state.inGame.filter(Boolean).length < 2) problems.push('the game goes on with fewer than two players');
  }
  return problems;
}

/** For a sample of (from, to) pairs: play accepts exactly what legalMoves lists. */
function crossCheck(state: AduState, legal: readonly AduMove[], random: () => number): string[] {
  if (state.phase !== 'play') return [];
  const size = state.options.size;
  const listed = new Set(legal.map((m) => (m.kind === 'move' || m.kind === 'capture' ? `${m.from}>${m.to}` : '')));
  const problems: string[] = [];
  for (let k = 0; k < 8; k++) {
    const from = Math.floor(random() * state.squares.length);
    const to = Math.floor(random() * state.squares.length);
    const target = state.squares[to];
    const attempt: AduMove =
      target === null ? { kind: 'move', from, to } : { kind: 'capture', from, to, declare: null, reserve: target.kind === 'soldier' ? null : from };
    let result = play(state, attempt);
    // A capture that ends the game or meets an empty supply takes no reserve king.
    if (!result.ok && attempt.kind === 'capture' && attempt.reserve !== null) result = play(state, { ...attempt, reserve: null });
    if (result.ok !== listed.has(`${from}>${to}`)) problems.push(`${formatMove(attempt, size)}: play says ${result.ok}, legalMoves ${!result.ok}`);
  }
  return problems;
}

describe('random play', () => {
  test.each([
    [2, { players: 2 }, 60],
    [3, { players: 3, diagonal: true }, 50],
    [6, { players: 6 }, 30],
    [6, { players: 6, size: 7, diagonal: true }, 40],
  ])('%i players %j: no overlap, ranges consistent, supply never negative, every game ends and replays', (_, given, games) => {
    const parsed = parseOptions(given);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const options: AduOptions = parsed.value;
    const random = seeded(0xad0 ^ (options.players * 31 + options.size));
    const problems: string[] = [];
    const endings = new Set<string>();
    let kingCaptures = 0;
    let declarations = 0;
    let passes = 0;
    let emptied = 0;
    for (let g = 0; g < games && problems.length === 0; g++) {
      let state = aduGame.initial(options);
      const tokens: string[] = [];
      while (state.outcome === null && problems.length === 0) {
        const legal = legalMoves(state);
        if (legal.length === 0) problems.push(`game ${g}, ply ${state.plies}: no legal move in a game not over`);
        problems.push(...crossCheck(state, legal, random));
        let move = choose(state, legal, random);
        let result = play(state, move);
        // A declaration the soldier's owner cannot make is refused; the lowest consistent value then stands.
        if (!result.ok && result.error.code === 'adu/declare-inconsistent' && move.kind === 'capture') {
          move = { ...move, declare: null };
          result = play(state, move);
        }
        if (!result.ok) {
          problems.push(`game ${g}, ply ${state.plies}: ${formatMove(move, options.size)} refused: ${result.error.message}`);
          break;
        }
        const token = formatMove(move, options.size);
        const reread = parseMove(token, options.size);
        if (!reread.ok || JSON.stringify(reread.value) !== JSON.stringify(move)) problems.push(`${token} does not read back`);
        tokens.push(token);
        if (move.kind === 'capture') {
          if (state.squares[move.to]?.kind === 'soldier') declarations++;
          else kingCaptures++;
        }
        passes += result.value.passed.length;
        if (result.value.supply === 0 && state.supply > 0) emptied++;
        problems.push(...problemsOf(result.value, state).map((p) => `game ${g}, ply ${state.plies + 1}: ${p}`));
        state = result.value;
        if (state.plies > 3000) problems.push(`game ${g} does not end`);
      }
      if (state.outcome === null) break;
      endings.add(state.outcome.reason);
      const record = formatRecord({ Game: 'adu', Players: String(options.players), Options: JSON.stringify({ size: options.size, diagonal: options.diagonal }) }, tokens);
      const replayed = replay(aduGame, record);
      expect(replayed.line).toEqual({ ok: true, plies: tokens.length, ...aduGame.summary(state) });
    }
    expect(problems).toEqual([]);
    // The games reach the rules under test, or this test would prove little.
    expect(endings).toContain('last-king');
    expect(kingCaptures).toBeGreaterThan(games);
    expect(declarations).toBeGreaterThan(games);
    expect(passes).toBeGreaterThan(0);
    expect(emptied).toBeGreaterThan(0);
  });
});
