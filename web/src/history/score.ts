// The score over a game, one value per ply, for the chart of a game's page. What counts as the score differs by game:
// Kalaha the stores; Malawi each side's beads (every piece's strength added up: a side at 0 has lost, RULES.md §2);
// Makis how far the leading knight and each Maki have come towards their goal rows; Adu each player's pieces on the
// board. Pure.
import { makisCell } from '../i18n/catalogue.ts';
import type { GameName, Positions } from './api.ts';
import { aduPlayers, kalahaCounts, makisPlayers } from './replay.ts';

export interface ScoreLine {
  /** Whose line: `south`, `north`, a seat `1`…, or `knights`. */
  readonly key: string;
  /** One value per step (ply 0 first); null where the line has no value (a Maki not placed yet, or out). */
  readonly values: readonly (number | null)[];
}

export interface ScoreSeries {
  readonly game: GameName;
  readonly lines: readonly ScoreLine[];
  /** The largest value a line can reach, when the game has one (Makis: 8 rows to go); null to let the chart choose. */
  readonly max: number | null;
}

type Json = Readonly<Record<string, unknown>>;
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Rows a Makis piece must cover: knights from row 1 to 9, Makis from row 9 to 1. */
const MAKIS_RUN = 8;

export function scoreSeries(positions: Positions): ScoreSeries {
  const steps = positions.steps;
  const game = positions.game;
  switch (game) {
    case 'kalaha': {
      const stores = steps.map((s) => kalahaCounts(s.position).stores);
      return {
        game,
        lines: [
          { key: 'south', values: stores.map((s) => s.south) },
          { key: 'north', values: stores.map((s) => s.north) },
        ],
        max: null,
      };
    }
    case 'malawi': {
      const beads = steps.map((s) => {
        const totals = { south: 0, north: 0 };
        for (const value of Object.values(record(record(s.position).pieces))) {
          const piece = record(value);
          if (piece.side === 'south' || piece.side === 'north') totals[piece.side] += num(piece.strength);
        }
        return totals;
      });
      return {
        game,
        lines: [
          { key: 'south', values: beads.map((b) => b.south) },
          { key: 'north', values: beads.map((b) => b.north) },
        ],
        max: null,
      };
    }
    case 'makis': {
      const players = makisPlayers(positions);
      const knights = steps.map((s) => {
        const rows = Object.values(record(record(s.position).knights)).map(num).filter((r) => r >= 1);
        return rows.length ? Math.max(...rows) - 1 : 0;
      });
      const makis = Array.from({ length: players }, (_, i): ScoreLine => ({
        key: String(i + 1),
        values: steps.map((s) => {
          const spot = record(record(s.position).makis)[String(i + 1)];
          const cell = typeof spot === 'string' ? makisCell(spot) : null;
          // Row r (1–9) is cell div 9 + 1; a Maki starts on row 9 and wins on row 1.
          return cell === null ? null : 9 - (Math.floor(cell / 9) + 1);
        }),
      }));
      return { game, lines: [{ key: 'knights', values: knights }, ...makis], max: MAKIS_RUN };
    }
    case 'adu': {
      const players = aduPlayers(positions);
      const counts = steps.map((s) => {
        const byPlayer = new Array<number>(players + 1).fill(0);
        for (const value of Object.values(record(record(s.position).pieces))) {
          const player = num(record(value).player);
          if (player >= 1 && player <= players) byPlayer[player] += 1;
        }
        return byPlayer;
      });
      return {
        game,
        lines: Array.from({ length: players }, (_, i) => ({ key: String(i + 1), values: counts.map((c) => c[i + 1]) })),
        max: null,
      };
    }
    default:
      return game satisfies never;
  }
}
