// The tournament pages' own catalogue (German first, English switchable), ICU messages formatted by
// the shared formatter of ../i18n.
import { fill, type Lang, type Params } from '../i18n/index.ts';
import { de, type TournamentCatalogue, type TournamentKey } from './de.ts';
import { en } from './en.ts';

export type { TournamentKey } from './de.ts';

export const TOURNAMENT_CATALOGUES: Readonly<Record<Lang, TournamentCatalogue>> = { de, en };

/** The sentence for a key; a missing parameter leaves the template visible rather than a silent hole. */
export function tt(lang: Lang, key: TournamentKey, params: Params = {}): string {
  const template = TOURNAMENT_CATALOGUES[lang][key];
  return fill(lang, template, params) ?? template;
}
