// Kalaha as played on the Vauban table: the pure engine (CONTRACT STUB — the engine helper implements it).
// Follows ../shared/RULES.md §1. Options: seedsPerPit, skipOrigin, forbiddenCaptureAtLeast.
import type { Result, RuleError } from './types.ts';

export const PITS = ['A', 'B', 'C', 'D', 'E', 'F', 'a', 'b', 'c', 'd', 'e', 'f'] as const;
export type PitName = (typeof PITS)[number];
export const SIDES = ['south', 'north'] as const;
export type Side = (typeof SIDES)[number];

/** Cells in sensor order: pits A…F (0–5), a…f (6–11), south's store (12), north's store (13). */
export const CELL_COUNT = 14;
export const STORE = { south: 12, north: 13 } as const;

export interface KalahaOptions {
  readonly seedsPerPit: number;
  readonly skipOrigin: boolean;
  readonly forbiddenCaptureAtLeast: number;
}
export const DEFAULT_OPTIONS: KalahaOptions = { seedsPerPit: 4, skipOrigin: true, forbiddenCaptureAtLeast: 12 };

/** A move is the pit sown, 0–11 (index into PITS). */
export interface KalahaMove {
  readonly kind: 'sow';
  readonly pit: number;
}

export const END_REASONS = ['no-stones', 'cannot-feed', 'repetition', 'agreement'] as const;
export type EndReason = (typeof END_REASONS)[number];
export interface KalahaOutcome {
  readonly reason: EndReason;
  readonly winner: Side | 'draw';
}

/** An unchecked position: what a test, a sensor scan or a database row writes. */
export interface KalahaSetup {
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: Side;
}

export interface KalahaState {
  readonly options: KalahaOptions;
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: Side;
  readonly plies: number;
  readonly outcome: KalahaOutcome | null;
}

/** The physical outcome of sowing one pit, legal or not. */
export interface Sowing {
  /** All 14 cells after the stones are sown, before any capture is carried to a store. */
  readonly afterSow: readonly number[];
  readonly lastPit: number;
  /** Pits whose stones the sower captures, in chain order (last pit first); empty when none. */
  readonly captures: readonly number[];
  readonly captured: number;
}

export declare function parseOptions(input: unknown): Result<KalahaOptions>;
export declare function initial(options?: KalahaOptions): KalahaState;
export declare function fromSetup(setup: KalahaSetup, options?: KalahaOptions): Result<KalahaState>;
export declare function legalMoves(state: KalahaState): KalahaMove[];
export declare function play(state: KalahaState, move: KalahaMove): Result<KalahaState>;
export declare function endByAgreement(state: KalahaState): Result<KalahaState>;
export declare function observe(state: KalahaState): number[];
export declare function sowing(state: KalahaState, pit: number): Sowing;
export declare function whyIllegal(state: KalahaState, move: KalahaMove): RuleError | null;
export declare function owner(pit: number): Side;
