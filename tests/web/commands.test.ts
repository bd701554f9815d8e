// The console's command log: numbering, answers matched by ref, the token's fate, commands lost with the link.
import { describe, expect, it } from 'vitest';
import {
  AUTH_REF,
  EMPTY_LOG,
  NO_ANSWER,
  applyCommandResult,
  connectionLost,
  issueCommand,
  latestOutcome,
  tokenChanged,
  type CommandLog,
  type CommandResult,
} from '../../web/src/connection/commands.ts';

const result = (ref: number, ok: boolean, error?: string, extra: object = {}): CommandResult =>
  ({ type: 'command-result', ref, ok, ...(error ? { error, message: `server says ${error}` } : {}), ...extra }) as CommandResult;

function sent(...commands: Parameters<typeof issueCommand>[1][]): CommandLog {
  return commands.reduce((log, command) => issueCommand(log, command, 40).log, EMPTY_LOG);
}

describe('issueCommand', () => {
  it('numbers commands from 1 (0 is the answer to the token) and sends the state on screen', () => {
    const first = issueCommand(EMPTY_LOG, { kind: 'undo' }, 40);
    expect(first.message).toEqual({ type: 'command', ref: 1, stateId: 40, command: { kind: 'undo' } });
    const second = issueCommand(first.log, { kind: 'enter', move: 'c1xc5' }, 41);
    expect(second.message.ref).toBe(2);
    expect(second.log.pending.map((p) => p.ref)).toEqual([1, 2]);
    expect(AUTH_REF).toBe(0);
  });
});

describe('applyCommandResult', () => {
  it('matches an answer to its command and keeps it as the latest outcome', () => {
    const log = applyCommandResult(sent({ kind: 'enter', move: 'c1xc5' }, { kind: 'undo' }), result(1, false, 'malawi/capture-zero'));
    expect(log.pending.map((p) => p.ref)).toEqual([2]);
    expect(latestOutcome(log)).toEqual({
      ref: 1,
      stateId: 40,
      command: { kind: 'enter', move: 'c1xc5' },
      ok: false,
      error: 'malawi/capture-zero',
      message: 'server says malawi/capture-zero',
    });
  });

  it('ignores an answer to a command it never sent', () => {
    const log = sent({ kind: 'undo' });
    expect(applyCommandResult(log, result(9, true))).toBe(log);
  });

  it('keeps the params of a refusal when the server sends them', () => {
    const log = applyCommandResult(sent({ kind: 'enter', move: 'a1-a2' }), result(1, false, 'malawi/wrong-distance', { params: { from: 'a1', strength: 4 } }));
    expect(latestOutcome(log)?.params).toEqual({ from: 'a1', strength: 4 });
    const junk = applyCommandResult(sent({ kind: 'undo' }), result(1, false, 'x', { params: { deep: { no: 1 } } }));
    expect(latestOutcome(junk)?.params).toBeUndefined();
  });

  it('keeps only the last five outcomes', () => {
    let log = EMPTY_LOG;
    for (let i = 0; i < 8; i++) {
      const issued = issueCommand(log, { kind: 'confirm' }, i);
      log = applyCommandResult(issued.log, result(issued.message.ref, true));
    }
    expect(log.outcomes.map((o) => o.ref)).toEqual([4, 5, 6, 7, 8]);
  });
});

describe('the token', () => {
  it('refused unheard after too many wrong ones: the console waits and keeps how long, until the next answer', () => {
    const waiting = applyCommandResult(EMPTY_LOG, result(AUTH_REF, false, 'console/too-many-attempts', { params: { seconds: 8 } }));
    expect(waiting.auth).toBe('refused');
    expect(waiting.authRefusal).toEqual({ code: 'console/too-many-attempts', params: { seconds: 8 } });
    const wrong = applyCommandResult(waiting, result(AUTH_REF, false, 'console/bad-token'));
    expect(wrong).toEqual({ ...EMPTY_LOG, auth: 'refused' });
    expect(applyCommandResult(waiting, result(AUTH_REF, true))).toEqual({ ...EMPTY_LOG, auth: 'accepted' });
  });

  it('is accepted or refused by the answer with ref 0', () => {
    expect(applyCommandResult(EMPTY_LOG, result(0, true)).auth).toBe('accepted');
    expect(applyCommandResult(EMPTY_LOG, result(0, false, 'console/bad-token')).auth).toBe('refused');
  });

  it('is not judged by a ref-0 answer about something else (an unreadable message)', () => {
    expect(applyCommandResult(EMPTY_LOG, result(0, false, 'console/bad-message'))).toBe(EMPTY_LOG);
  });

  it('counts as refused when a command is refused for want of it, and as accepted when one is taken', () => {
    const refused = applyCommandResult(sent({ kind: 'undo' }), result(1, false, 'console/unauthorized'));
    expect(refused.auth).toBe('refused');
    expect(applyCommandResult(sent({ kind: 'undo' }), result(1, true)).auth).toBe('accepted');
    expect(applyCommandResult(sent({ kind: 'undo' }), result(1, false, 'console/stale-state')).auth).toBe('unknown');
  });

  it('is judged afresh when a new one is given', () => {
    const refused = applyCommandResult(EMPTY_LOG, result(0, false, 'console/bad-token'));
    expect(tokenChanged(refused).auth).toBe('unknown');
    expect(tokenChanged(EMPTY_LOG)).toBe(EMPTY_LOG);
  });
});

describe('connectionLost', () => {
  it('reports every command still waiting as unanswered', () => {
    const log = connectionLost(sent({ kind: 'undo' }, { kind: 'confirm' }));
    expect(log.pending).toEqual([]);
    expect(log.outcomes.map((o) => [o.ref, o.ok, o.error])).toEqual([
      [1, false, NO_ANSWER],
      [2, false, NO_ANSWER],
    ]);
    // The numbering goes on: a late answer can never match a new command.
    expect(issueCommand(log, { kind: 'undo' }, 41).message.ref).toBe(3);
  });

  it('changes nothing when nothing was waiting', () => {
    expect(connectionLost(EMPTY_LOG)).toBe(EMPTY_LOG);
  });
});
