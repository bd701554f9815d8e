// What the console says about the answer to a command: taken, or refused and why, in the page's language.
import type { ConsoleCommand } from '../../../server/http/messages.ts';
import type { CommandOutcome } from '../connection/index.ts';
import { t, wordCode, type BoardKind, type Lang } from '../i18n/index.ts';

export interface OutcomeText {
  readonly ok: boolean;
  /** "Eingetragen: c1xc5" or "Abgelehnt: Zug c1-c4". */
  readonly headline: string;
  /** Why it was refused; empty when it was taken. */
  readonly reason: string;
  /** False when the reason is the server's English sentence. */
  readonly translated: boolean;
}

function moveOf(command: ConsoleCommand): string {
  return command.kind === 'choose' || command.kind === 'enter' ? command.move : '';
}

/** The command in a few words: "Zug c1-c4", "Rücknahme". */
export function commandLabel(lang: Lang, command: ConsoleCommand): string {
  return t(lang, `result.command.${command.kind}`, { move: moveOf(command) });
}

export function outcomeText(lang: Lang, outcome: CommandOutcome, board: BoardKind): OutcomeText {
  const move = moveOf(outcome.command);
  if (outcome.ok) {
    return { ok: true, headline: t(lang, `result.ok.${outcome.command.kind}`, { move }), reason: '', translated: true };
  }
  const headline = `${t(lang, 'result.refused')}: ${commandLabel(lang, outcome.command)}`;
  const code = outcome.error;
  if (code === undefined) {
    return outcome.message
      ? { ok: false, headline, reason: outcome.message, translated: false }
      : { ok: false, headline, reason: '', translated: true };
  }
  // The console's and referee's own refusals first, then the rules' (as the alerts word them), then the server's sentence.
  const params = outcome.params ?? {};
  const worded = wordCode(lang, 'result', code, params, board) ?? wordCode(lang, 'alert', code, params, board);
  if (worded !== null) return { ok: false, headline, reason: worded, translated: true };
  if (outcome.message) return { ok: false, headline, reason: outcome.message, translated: false };
  return { ok: false, headline, reason: t(lang, 'result.code', { code }), translated: true };
}
