// Alerts in the page's language: a stable code and its params → a sentence, falling back to the server's message.
import type { Alert } from '../../../server/http/messages.ts';
import { CATALOGUES, cellName, fill, hasKey, list, signed, sideName, t, type Lang, type Params } from './catalogue.ts';

/** The alert codes the catalogue knows; the server may add more, which then show its English message. */
export const ALERT_CODES = [
  'kalaha/forbidden-capture',
  'kalaha/unfair-capture',
  'kalaha/capture-not-allowed',
  'kalaha/must-feed',
  'kalaha/not-your-pit',
  'kalaha/illegal-move',
  'kalaha/empty-pit',
  'kalaha/game-over',
  'referee/mismatch',
  'referee/capture-pending',
  'referee/sweep-pending',
  'referee/takeback',
  'referee/ambiguous',
  'board/not-responding',
  'board/calibrating',
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

export interface AlertText {
  /** The sentence to show. */
  readonly text: string;
  /** Which cells differ and by how much ("C +2, d −1"), when the alert names cells. */
  readonly detail: string | null;
  /** False when the catalogue had no sentence for it and the server's message is shown. */
  readonly translated: boolean;
}

// Params arrive as the server writes them: sides as 'south'/'north', pit lists as "b c" or "b,c".
function localParams(lang: Lang, params: Params): Params {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === 'south' || value === 'north') out[name] = sideName(lang, value);
    else if (name === 'pits' && typeof value === 'string') out[name] = list(lang, value.split(/[\s,]+/).filter(Boolean));
    else out[name] = value;
  }
  return out;
}

export function formatAlert(lang: Lang, alert: Alert): AlertText {
  const key = `alert.${alert.code}`;
  const sentence = hasKey(lang, key) ? fill(lang, CATALOGUES[lang][key], localParams(lang, alert.params ?? {})) : null;
  const cells = alert.cells?.filter((c) => c.diff !== 0) ?? [];
  // A no-break space keeps each sign with its cell when the line wraps on a phone.
  const detail = cells.length
    ? t(lang, 'alert.cells', { cells: cells.map((c) => `${cellName(lang, c.cell)}\u00a0${signed(c.diff)}`).join(', ') })
    : null;
  return sentence === null
    ? { text: alert.message, detail, translated: false }
    : { text: sentence, detail, translated: true };
}
