// What the setup page says after a request: done, or refused and why, in the page's language where the code is
// known and in the server's English otherwise. Pure.
import { hasKey, t, type Lang } from '../i18n/index.ts';
import { NETWORK, type SetupAction } from './api.ts';

export interface Outcome {
  readonly ok: boolean;
  readonly text: string;
  /** The sentence is the server's English, not the page's language. */
  readonly english?: boolean;
}

/** A refusal in words: `setup/not-still` → the catalogue's `setup.error.not-still`, else the server's sentence. */
export function refusal(lang: Lang, code: string, message: string): Outcome {
  const key = code === NETWORK ? 'setup.error.network' : `setup.error.${code.replace(/^setup\//, '')}`;
  if (code.startsWith('setup/') && hasKey(lang, key)) return { ok: false, text: t(lang, key) };
  return { ok: false, text: message, english: true };
}

/** What a done request says. `gameId` is the game ended or abandoned (null: none was in the log). */
export function done(lang: Lang, action: SetupAction, details: { readonly game?: string; readonly gameId?: number | null }): Outcome {
  switch (action) {
    case 'start':
      return { ok: true, text: t(lang, 'setup.done.start', { game: details.game ?? '' }) };
    case 'end':
      return { ok: true, text: t(lang, 'setup.done.end', { id: details.gameId ?? '?' }) };
    case 'abandon':
      return { ok: true, text: details.gameId ? t(lang, 'setup.done.abandon', { id: details.gameId }) : t(lang, 'setup.done.reset') };
    case 'tare':
      return { ok: true, text: t(lang, 'setup.done.tare') };
    case 'stones':
      return { ok: true, text: t(lang, 'setup.done.stones') };
    default:
      return action satisfies never;
  }
}
