// One board drawn by the shared board components (which know no rules), from a record's view.
import { html, nothing } from 'lit';
import type { Alert, GameView } from '../../../server/http/messages.ts';
import type { Lang } from '../i18n/index.ts';
import '../board/index.ts';

export function boardPicture(view: GameView, alerts: readonly Alert[], lang: Lang, legend: boolean) {
  const diffs = alerts.flatMap((a) => a.cells ?? []);
  switch (view.game) {
    case 'kalaha':
      return html`<kalaha-board
        ?legend=${legend}
        .lang=${lang}
        .pits=${view.pits}
        .stores=${view.stores}
        .toMove=${view.outcome ? null : view.toMove}
        .lastMove=${view.lastMove}
        .pending=${view.pending}
        .diffs=${diffs}
      ></kalaha-board>`;
    case 'malawi':
      return html`<malawi-board
        ?legend=${legend}
        .lang=${lang}
        .size=${view.size}
        .pieces=${view.pieces}
        .toMove=${view.outcome ? null : view.toMove}
        .lastMove=${view.lastMove}
        .diffs=${diffs}
      ></malawi-board>`;
    case 'makis':
      return html`<makis-board
        ?legend=${legend}
        .lang=${lang}
        .knights=${view.knights}
        .makis=${view.makis}
        .toMove=${view.outcome ? null : view.toMove}
        .lastRoll=${view.lastRoll}
        .expectedRoll=${view.expectedRoll}
        .danger=${legend ? (view.odds?.danger ?? null) : null}
        .pending=${view.pending}
        .lastMove=${view.lastMove}
        .diffs=${diffs}
      ></makis-board>`;
    case 'adu':
      return html`<adu-board ?legend=${legend} .lang=${lang} .size=${view.size} .pieces=${view.pieces} .lastMove=${view.lastMove} .diffs=${diffs}></adu-board>`;
    default:
      view satisfies never;
      return nothing;
  }
}
