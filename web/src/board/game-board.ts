// The board of any game's view, drawn the same on the display and the console; the console also
// lets the referee tap squares (to mark them and fill the hand-entry field).
import { html, nothing } from 'lit';
import type { Alert, GameView } from '../../../server/http/messages.ts';
import type { Lang } from '../i18n/index.ts';
import type { SquareSelectEvent } from './malawi-board.ts';
import './kalaha-board.ts';
import './malawi-board.ts';
import './makis-board.ts';
import './adu-board.ts';

/** Squares the referee may tap: those marked now, and what a tap does. */
export interface BoardSelection {
  readonly marked: readonly number[];
  readonly onSelect: (event: SquareSelectEvent) => void;
}

/** `diffs`: the cells the alerts name. A Kalaha table has no squares to tap, so `selection` is for the square boards. */
export function gameBoard(lang: Lang, view: GameView, diffs: NonNullable<Alert['cells']>, selection?: BoardSelection) {
  const selectable = selection !== undefined;
  const marked = selection?.marked ?? [];
  const onSelect = selection?.onSelect ?? nothing;
  switch (view.game) {
    case 'kalaha':
      return html`<kalaha-board
        legend
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
        legend
        ?selectable=${selectable}
        .lang=${lang}
        .size=${view.size}
        .pieces=${view.pieces}
        .toMove=${view.outcome ? null : view.toMove}
        .lastMove=${view.lastMove}
        .diffs=${diffs}
        .marked=${marked}
        @square-select=${onSelect}
      ></malawi-board>`;
    case 'makis':
      return html`<makis-board
        legend
        ?selectable=${selectable}
        .lang=${lang}
        .knights=${view.knights}
        .makis=${view.makis}
        .toMove=${view.outcome ? null : view.toMove}
        .lastRoll=${view.lastRoll}
        .expectedRoll=${view.expectedRoll}
        .danger=${view.odds?.danger ?? null}
        .pending=${view.pending}
        .lastMove=${view.lastMove}
        .diffs=${diffs}
        .marked=${marked}
        @square-select=${onSelect}
      ></makis-board>`;
    case 'adu':
      return html`<adu-board
        legend
        ?selectable=${selectable}
        .lang=${lang}
        .size=${view.size}
        .pieces=${view.pieces}
        .lastMove=${view.lastMove}
        .diffs=${diffs}
        .marked=${marked}
        @square-select=${onSelect}
      ></adu-board>`;
    default:
      return view satisfies never;
  }
}
