// When the public display rests on its idle screen (today's games), when it wakes, and how long it shows a correction:
// pure, so it is tested without a browser or a clock.
import type { TableState } from '../connection/index.ts';

/** A result stays on screen this long before the idle screen takes over. */
export const IDLE_AFTER_END_MS = 5 * 60_000;
/** A game with no move (set up, or taken back to its start) shows its board this long after the last change. */
export const IDLE_BEFORE_FIRST_MOVE_MS = 60_000;
/** A game nobody has touched for this long was left standing: the screen rests too, and wakes with the next move. */
export const IDLE_AFTER_QUIET_MS = 30 * 60_000;

/**
 * Whether the table is worth watching: a game that has begun and is not long over, or anything a person at the
 * table must act on (a question, a warning, a board that differs). Before the first sync the page says it is
 * connecting instead.
 */
export function isIdle(table: TableState, lastActivity: number, now: number): boolean {
  const view = table.view;
  if (!table.synced || !view) return false;
  // A question play goes on without (its move assumed) needs nobody at the table.
  if (table.questions.some((q) => q.blocking !== false) || table.alerts.some((a) => a.level !== 'info')) return false;
  const quiet = now - lastActivity;
  // A result stands for a while, even of a game ended before its first move (by agreement).
  if (view.outcome) return quiet >= IDLE_AFTER_END_MS;
  if (table.record.length === 0) return quiet >= IDLE_BEFORE_FIRST_MOVE_MS;
  return quiet >= IDLE_AFTER_QUIET_MS;
}

/** Whether `after` brings something new about the game (a move, an alert, a question): the display wakes for it. */
export function isActivity(before: TableState, after: TableState): boolean {
  // The first sync is what the screen finds, not something that happened.
  if (before === after || !before.synced) return false;
  return (
    after.stateId !== before.stateId ||
    after.record.length !== before.record.length ||
    after.alerts.some((a) => !before.alerts.some((b) => b.id === a.id)) ||
    after.questions.some((q) => !before.questions.some((b) => b.id === q.id))
  );
}

/** A correction of the record stays on screen this long after the screen saw it: long enough for a glance from the table. */
export const CORRECTION_SHOWN_MS = 30_000;

/** Whether a correction this screen saw at `seenAt` is still shown at `now`. */
export function correctionShown(seenAt: number, now: number): boolean {
  return now - seenAt < CORRECTION_SHOWN_MS;
}

/** Whether the address asks for a screen without controls that goes full screen as soon as the browser lets it. */
export function wantsFullscreen(search: string): boolean {
  const value = new URLSearchParams(search).get('fullscreen');
  return value !== null && value !== '0' && value !== 'false';
}
