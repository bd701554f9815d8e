// How the setup page names the games' options and their values, in the page's language.
import { t, type Lang, type MessageKey } from '../i18n/index.ts';
import type { OptionField } from './api.ts';

const OPTION_LABELS: Readonly<Record<string, MessageKey>> = {
  seedsPerPit: 'setup.option.seedsPerPit',
  skipOrigin: 'setup.option.skipOrigin',
  forbiddenCaptureAtLeast: 'setup.option.forbiddenCaptureAtLeast',
  size: 'setup.option.size',
  maxStrength: 'setup.option.maxStrength',
  baselineWin: 'setup.option.baselineWin',
  mode: 'setup.option.mode',
  diagonal: 'setup.option.diagonal',
};

const CHOICE_LABELS: Readonly<Record<string, MessageKey>> = {
  'baselineWin.static': 'setup.option.baselineWin.static',
  'baselineWin.survives-reply': 'setup.option.baselineWin.survives-reply',
  'mode.competitive': 'setup.option.mode.competitive',
  'mode.cooperative': 'setup.option.mode.cooperative',
};

/** An option's name; an option this page does not know keeps its own. */
export function optionLabel(lang: Lang, key: string): string {
  return OPTION_LABELS[key] ? t(lang, OPTION_LABELS[key]) : key;
}

/** A value as the page writes it: a choice by its words, yes or no, a board's size as `6 × 6`. */
export function optionValueText(lang: Lang, field: OptionField, value: unknown): string {
  if (field.kind === 'bool') return t(lang, value === true ? 'setup.option.yes' : 'setup.option.no');
  if (field.key === 'size' && typeof value === 'number') return `${value} × ${value}`;
  const key = CHOICE_LABELS[`${field.key}.${String(value)}`];
  return key ? t(lang, key) : String(value);
}
