// Folding the server's messages into the page's table state: sync, newer-only updates, alerts, board status.
import { describe, expect, it } from 'vitest';
import type { Alert, BoardStatus, KalahaView, Question, ServerMessage } from '../../server/http/messages.ts';
import {
  EMPTY_TABLE,
  alertsByUrgency,
  applyMessage,
  parseServerMessage,
  type TableState,
} from '../../web/src/connection/state.ts';

const BOARD: BoardStatus = { source: 'simulated', connected: true, calibrated: true, framesPerSecond: 20, dropped: 0 };

function view(pits: number[], toMove: 'south' | 'north' = 'south'): KalahaView {
  return { game: 'kalaha', pits, stores: { south: 0, north: 0 }, toMove, outcome: null, lastMove: null, pending: [] };
}
const START = view(Array(12).fill(4));
const AFTER_C = view([4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4], 'north');
const AFTER_Ce = view([5, 5, 1, 5, 5, 5, 5, 4, 4, 4, 0, 5], 'south');

function alert(id: number, level: Alert['level'] = 'warn'): Alert {
  return { id, level, code: 'referee/mismatch', message: 'differs', params: { count: 1 }, cells: [{ cell: 2, diff: 1 }] };
}

function sync(stateId: number, extra: Partial<Extract<ServerMessage, { type: 'sync' }>> = {}): ServerMessage {
  return { type: 'sync', stateId, game: 'kalaha', record: [], view: START, alerts: [], board: BOARD, ...extra };
}

function fold(...messages: ServerMessage[]): TableState {
  return messages.reduce(applyMessage, EMPTY_TABLE);
}

describe('parseServerMessage', () => {
  it('reads a sync', () => {
    expect(parseServerMessage(JSON.stringify(sync(3)))).toMatchObject({ type: 'sync', stateId: 3 });
  });
  it('reads a command result, which names a command instead of a state', () => {
    expect(parseServerMessage('{"type":"command-result","ref":4,"ok":false,"error":"console/stale-state"}')).toMatchObject({
      type: 'command-result',
      ref: 4,
    });
  });
  it('reads a board status, which carries no stateId', () => {
    expect(parseServerMessage(JSON.stringify({ type: 'board', board: BOARD }))).toMatchObject({ type: 'board' });
  });
  it.each([
    ['not JSON', 'hello'],
    ['a bare number', '42'],
    ['null', 'null'],
    ['an unknown type', '{"type":"shout","stateId":1}'],
    ['an update without stateId', '{"type":"update","event":"move"}'],
    ['a stateId that is text', '{"type":"alert","stateId":"7"}'],
    ['a question without stateId', '{"type":"question","question":{}}'],
    ['a command result without ref', '{"type":"command-result","ok":true}'],
    ['a command result whose ok is text', '{"type":"command-result","ref":1,"ok":"yes"}'],
  ])('refuses %s', (_name, text) => {
    expect(parseServerMessage(text)).toBeNull();
  });
});

describe('applyMessage', () => {
  it('takes everything from a sync', () => {
    const state = fold(sync(5, { record: ['C'], view: AFTER_C, alerts: [alert(1)] }));
    expect(state).toMatchObject({ stateId: 5, synced: true, record: ['C'], view: AFTER_C, board: BOARD });
    expect(state.alerts.map((a) => a.id)).toEqual([1]);
  });

  it('applies an update with a newer stateId', () => {
    const state = fold(sync(5), { type: 'update', stateId: 6, event: 'move', move: 'C', record: ['C'], view: AFTER_C });
    expect(state.stateId).toBe(6);
    expect(state.record).toEqual(['C']);
    expect(state.view).toBe(AFTER_C);
    expect(state.lastEvent).toEqual({ event: 'move', move: 'C' });
  });

  it.each([5, 4])('ignores an update with stateId %i when the page is at 5', (stale) => {
    const before = fold(sync(5, { record: ['C', 'e'], view: AFTER_Ce }));
    const after = applyMessage(before, { type: 'update', stateId: stale, event: 'move', move: 'C', record: ['C'], view: AFTER_C });
    expect(after).toBe(before);
  });

  it('takes a sync even with a lower stateId: a restarted server counts again', () => {
    const state = fold(sync(50, { view: AFTER_Ce }), sync(2, { view: AFTER_C }));
    expect(state.stateId).toBe(2);
    expect(state.view).toBe(AFTER_C);
  });

  it('keeps the moves taken back', () => {
    const state = fold(sync(7, { record: ['C', 'e'], view: AFTER_Ce }), {
      type: 'update',
      stateId: 8,
      event: 'takeback',
      undone: ['e'],
      record: ['C'],
      view: AFTER_C,
    });
    expect(state.lastEvent).toEqual({ event: 'takeback', undone: ['e'] });
    expect(state.record).toEqual(['C']);
  });

  it('adds an alert, and replaces one with the same id', () => {
    const changed: Alert = { ...alert(1), params: { count: 2 } };
    const state = fold(
      sync(5),
      { type: 'alert', stateId: 5, alert: alert(1) },
      { type: 'alert', stateId: 5, alert: alert(2) },
      { type: 'alert', stateId: 5, alert: changed },
    );
    expect(state.alerts.map((a) => a.id)).toEqual([2, 1]);
    expect(state.alerts.find((a) => a.id === 1)?.params).toEqual({ count: 2 });
  });

  it('ignores an alert from before the current state', () => {
    const before = fold(sync(5));
    expect(applyMessage(before, { type: 'alert', stateId: 4, alert: alert(1) })).toBe(before);
  });

  it('does not let an alert move the stateId, so the next update still applies', () => {
    const state = fold(
      sync(5),
      { type: 'alert', stateId: 6, alert: alert(1) },
      { type: 'update', stateId: 6, event: 'move', move: 'C', record: ['C'], view: AFTER_C },
    );
    expect(state.stateId).toBe(6);
    expect(state.view).toBe(AFTER_C);
    expect(state.alerts).toHaveLength(1);
  });

  it('clears an alert by id, but not with a stale clear', () => {
    const raised = fold(sync(5, { alerts: [alert(1), alert(2)] }));
    expect(applyMessage(raised, { type: 'alert-cleared', stateId: 5, id: 1 }).alerts.map((a) => a.id)).toEqual([2]);
    expect(applyMessage(raised, { type: 'alert-cleared', stateId: 4, id: 1 })).toBe(raised);
    expect(applyMessage(raised, { type: 'alert-cleared', stateId: 5, id: 99 })).toBe(raised);
  });

  it('takes the newest board status', () => {
    const silent: BoardStatus = { ...BOARD, source: 'serial', connected: false };
    expect(fold(sync(1), { type: 'board', board: silent }).board).toEqual(silent);
  });
});

describe('alertsByUrgency', () => {
  it('lists errors, then warnings, then notes; newest first within each', () => {
    const sorted = alertsByUrgency([alert(1, 'info'), alert(2, 'warn'), alert(3, 'error'), alert(4, 'warn')]);
    expect(sorted.map((a) => a.id)).toEqual([3, 4, 2, 1]);
  });
});

function question(id: number, options: string[] = ['c1xc5', 'd1>a1']): Question {
  return { id, code: 'referee/which-move', message: 'Which move?', params: { reason: 'hidden', side: 'south', count: options.length }, options };
}

describe('questions', () => {
  it('takes the open questions from a sync, none when it names none', () => {
    expect(fold(sync(5, { questions: [question(1)] })).questions.map((q) => q.id)).toEqual([1]);
    expect(fold(sync(5)).questions).toEqual([]);
    // A new sync is the whole truth: questions it does not list are gone.
    expect(fold(sync(5, { questions: [question(1)] }), sync(6)).questions).toEqual([]);
  });

  it('adds a question, and replaces one with the same id', () => {
    const state = fold(
      sync(5),
      { type: 'question', stateId: 5, question: question(1) },
      { type: 'question', stateId: 6, question: question(2) },
      { type: 'question', stateId: 6, question: question(1, ['c1xc5']) },
    );
    expect(state.questions.map((q) => q.id)).toEqual([2, 1]);
    expect(state.questions[1].options).toEqual(['c1xc5']);
  });

  it('ignores a question about a state before ours', () => {
    const before = fold(sync(5));
    expect(applyMessage(before, { type: 'question', stateId: 4, question: question(1) })).toBe(before);
  });

  it('closes a question whatever the stateId of the close, and ignores closing one it does not have', () => {
    const asked = fold(sync(5, { questions: [question(1), question(2)] }));
    expect(applyMessage(asked, { type: 'question-closed', stateId: 3, id: 1 }).questions.map((q) => q.id)).toEqual([2]);
    expect(applyMessage(asked, { type: 'question-closed', stateId: 6, id: 9 })).toBe(asked);
  });

  it('keeps open questions across an update (only the server closes them)', () => {
    const state = fold(sync(5, { questions: [question(1)] }), {
      type: 'update',
      stateId: 6,
      event: 'settled',
      record: [],
      view: START,
    });
    expect(state.questions.map((q) => q.id)).toEqual([1]);
  });

  it('leaves the table alone for a command result: that belongs to the console that sent the command', () => {
    const before = fold(sync(5));
    expect(applyMessage(before, { type: 'command-result', ref: 1, ok: true })).toBe(before);
  });
});
