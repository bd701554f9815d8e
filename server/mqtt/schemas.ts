// The zod schemas of what a page is sent (server/http/messages.ts) — each game's view, alerts, questions, the
// sensors' status, `sync` and `update` — and of the three MQTT payloads that carry them. The broadcast service reads
// every message from the broker through these, so a tournament page only ever gets what a table's own page would.
import { z } from 'zod';
import type { AduView, Alert, BoardStatus, GameView, KalahaView, MakisView, MalawiView, Question, ServerMessage } from '../http/messages.ts';
import { GAME_NAMES } from '../rules/types.ts';
import type { EventPayload, Run, StatePayload, StatusPayload } from './topics.ts';

// Bounds far above any real game, so that a stranger's payload cannot make the display hold or draw megabytes.
/** A record this long is hours of play past any game's end (a Kalaha game is about 60 moves). */
export const MAX_RECORD = 5000;
const MAX_TEXT = 500;
const MAX_CODE = 100;
const MAX_ITEMS = 400;

const text = z.string().max(MAX_TEXT);
const code = z.string().min(1).max(MAX_CODE);
const count = z.int().min(0).max(1_000_000);
const list = <T extends z.ZodType>(item: T, max = MAX_ITEMS) => z.array(item).max(max).readonly();
const side = z.enum(['south', 'north']);
const player = z.int().min(1).max(6);
/** A square of Malawi or Adu (`a1` … `s19`). */
const square = z.string().regex(/^[a-s](?:[1-9]|1[0-9])$/);
/** A Makis square, `c<column>r<row>`. */
const makisSquare = z.string().regex(/^c[1-9]r[1-9]$/);
// Dice III, IV and V show faces up to 9.
const die = z.int().min(1).max(9);
const roll = z.tuple([die, die, die]).readonly();
const move = z.string().min(1).max(64);
const params = z.record(z.string().max(MAX_CODE), z.union([z.string().max(MAX_TEXT), z.number()])).refine((p) => Object.keys(p).length <= 32);

const kalahaView = z.object({
  game: z.literal('kalaha'),
  pits: z.array(count).length(12).readonly(),
  stores: z.object({ south: count, north: count }),
  toMove: side.nullable(),
  outcome: z.object({ winner: z.union([side, z.literal('draw')]), reason: code }).nullable(),
  lastMove: z.object({ pit: z.int().min(0).max(11), sown: list(z.int().min(0).max(13)), captures: list(z.int().min(0).max(13)) }).nullable(),
  pending: list(z.object({ pit: z.int().min(0).max(11), stones: count, store: side, reason: z.enum(['capture', 'end']) })),
});

const malawiView = z.object({
  game: z.literal('malawi'),
  size: z.int().min(4).max(12),
  pieces: list(z.object({ square, side, strength: z.int().min(0).max(100) })),
  toMove: side.nullable(),
  outcome: z.object({ winner: z.union([side, z.literal('draw')]), reason: code }).nullable(),
  lastMove: z.object({ notation: move, kind: z.enum(['move', 'capture', 'distribute']), squares: list(square, 64) }).nullable(),
});

const danger = z.object({ capture: z.int().min(0).max(216), reset: z.int().min(0).max(216) });
const makisView = z
  .object({
    game: z.literal('makis'),
    players: z.int().min(1).max(5),
    mode: z.enum(['competitive', 'cooperative']),
    knights: z.array(z.int().min(1).max(9)).length(9).readonly(),
    makis: list(z.union([makisSquare, z.literal('out'), z.null()]), 5),
    phase: z.enum(['place', 'roll', 'maki', 'over']),
    toMove: player.nullable(),
    lastRoll: roll.nullable(),
    expectedRoll: roll.nullable(),
    odds: z
      .object({
        danger: z.record(makisSquare, danger),
        makis: list(z.object({ player, square: makisSquare, capture: danger.shape.capture, reset: danger.shape.reset }), 5),
        knightsHome: z.int().min(0).max(216),
      })
      .nullable(),
    pending: list(
      z.object({ piece: z.enum(['knight', 'maki']), column: z.int().min(1).max(9), player: player.optional(), from: makisSquare, to: makisSquare }),
      32,
    ),
    outcome: z.object({ winner: code, reason: code }).nullable(),
    lastMove: move.nullable(),
  })
  .refine((v) => v.makis.length === v.players, { message: 'one Maki per player', path: ['makis'] });

const aduKind = z.enum(['king', 'soldier', 'reserve']);
const aduView = z
  .object({
    game: z.literal('adu'),
    size: z.int().min(7).max(19),
    players: z.int().min(2).max(6),
    pieces: list(z.object({ square, player, kind: aduKind, id: code })),
    phase: z.enum(['placement', 'play', 'over']),
    placing: z.object({ kind: z.enum(['king', 'soldier']), id: code }).nullable(),
    toMove: player.nullable(),
    seats: list(z.object({ player, in: z.boolean(), kings: count, reserves: count }), 6),
    supply: count,
    ranges: z.record(z.string().regex(/^[1-6]$/), z.record(code, list(z.int().min(0).max(19), 19))),
    awaitingReserve: z.object({ player }).nullable(),
    outcome: z.object({ winner: code, reason: code, players: list(player, 6) }).nullable(),
    lastMove: z.object({ notation: move, squares: list(square, 64) }).nullable(),
    passed: list(player, 6).optional(),
    declaring: list(z.object({ player, soldier: code, square }), 64).optional(),
  })
  .refine((v) => v.seats.length === v.players, { message: 'one seat per player', path: ['seats'] });

/** Every game's view, told apart by `game`. */
export const gameViewSchema = z.discriminatedUnion('game', [kalahaView, malawiView, makisView, aduView]);

export const alertSchema = z.object({
  id: count,
  level: z.enum(['info', 'warn', 'error']),
  code,
  message: text,
  params,
  cells: list(z.object({ cell: z.int().min(0).max(400), diff: z.int().min(-1000).max(1000), beads: count.optional() })).optional(),
});

export const questionSchema = z.object({ id: count, code, message: text, params, options: list(move, 64), preselected: move.optional(), blocking: z.literal(false).optional() });

export const boardStatusSchema = z.object({
  source: z.enum(['simulated', 'serial', 'trace', 'none']),
  connected: z.boolean(),
  link: z.enum(['live', 'not-responding', 'reconnecting', 'wrong-board']).optional(),
  calibrated: z.boolean(),
  framesPerSecond: z.number().min(0).max(100_000),
  dropped: count,
});

const stateId = z.int().min(0);
const record = z.array(move).max(MAX_RECORD).readonly();
const gameId = z.int().min(1).optional();

export const syncSchema = z
  .object({
    type: z.literal('sync'),
    stateId,
    game: z.enum(GAME_NAMES),
    record,
    view: gameViewSchema,
    alerts: list(alertSchema, 32),
    questions: list(questionSchema, 32).optional(),
    board: boardStatusSchema,
    gameId,
  })
  .refine((m) => m.game === m.view.game, { message: 'the view is of another game', path: ['view', 'game'] });

export const updateSchema = z.object({
  type: z.literal('update'),
  stateId,
  event: z.enum(['move', 'takeback', 'correction', 'settled', 'new-game', 'end']),
  move: move.optional(),
  assumed: z.literal(true).optional(),
  undone: list(move, MAX_RECORD).optional(),
  correction: z
    .object({ ply: z.int().min(1).max(MAX_RECORD + 1), old: list(move, MAX_RECORD), new: list(move, MAX_RECORD), reason: z.enum(['evidence', 'console']) })
    .optional(),
  record,
  view: gameViewSchema,
  gameId,
});

// ——— The MQTT payloads (TOPICS.md) ———

const runSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  log: z.object({ gameId: z.int().min(0), seq: z.int().min(0) }),
});
const at = z.number().int().min(0).max(8.64e15);
const sequenced = { v: z.literal(1), run: runSchema, gameId: z.int().min(1).nullable(), seq: stateId, at };

export const statusPayloadSchema = z.object({ v: z.literal(1), status: z.enum(['online', 'offline']), run: runSchema, game: z.enum(GAME_NAMES).optional(), at: at.optional() });

export const statePayloadSchema = z.object({ ...sequenced, sync: syncSchema }).refine((p) => p.sync.stateId === p.seq, { message: 'seq and the stateId differ', path: ['seq'] });

export const eventPayloadSchema = z.object({ ...sequenced, update: updateSchema }).refine((p) => p.update.stateId === p.seq, { message: 'seq and the stateId differ', path: ['seq'] });

// The schemas and the types in messages.ts and topics.ts must describe the same messages: a field added to one and not
// the other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Sync = Extract<ServerMessage, { type: 'sync' }>;
type Update = Extract<ServerMessage, { type: 'update' }>;
const agree: [
  Same<z.infer<typeof kalahaView>, KalahaView>,
  Same<z.infer<typeof malawiView>, MalawiView>,
  Same<z.infer<typeof makisView>, MakisView>,
  Same<z.infer<typeof aduView>, AduView>,
  Same<z.infer<typeof gameViewSchema>, GameView>,
  Same<z.infer<typeof alertSchema>, Alert>,
  Same<z.infer<typeof questionSchema>, Question>,
  Same<z.infer<typeof boardStatusSchema>, BoardStatus>,
  Same<z.infer<typeof syncSchema>, Sync>,
  Same<z.infer<typeof updateSchema>, Update>,
  Same<z.infer<typeof runSchema>, Run>,
  Same<z.infer<typeof statusPayloadSchema>, StatusPayload>,
  Same<z.infer<typeof statePayloadSchema>, StatePayload>,
  Same<z.infer<typeof eventPayloadSchema>, EventPayload>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void agree;
