// Styles of <kalaha-board>; colours come from custom properties so each page can set its theme.
import { css } from 'lit';

export const boardStyles = css`
  :host {
    display: block;
    /* Okabe–Ito colours: told apart with any colour vision; each marker also differs in shape. */
    --kb-origin: var(--origin, #e69f00);
    --kb-sown: var(--sown, #56b4e9);
    --kb-captured: var(--captured, #d55e00);
    --kb-diff: var(--diff, #f0e442);
    --kb-pending: var(--pending, #cc79a7);
    --kb-text: var(--text, #ffffff);
    --kb-muted: var(--muted, #c8c8c8);
    --kb-wood: var(--wood, #3a3330);
    --kb-pit: var(--pit, #1c1917);
    --kb-pit-edge: var(--pit-edge, #8a817c);
    --kb-stone: var(--stone, #f3ecd9);
    --kb-turn: var(--turn, rgba(255, 255, 255, 0.1));
    --kb-turn-edge: var(--turn-edge, #ffffff);
  }
  svg {
    display: block;
    width: 100%;
    height: auto;
    max-height: 100%;
    font-family: inherit;
  }
  .table {
    fill: var(--kb-wood);
  }
  .turn {
    fill: var(--kb-turn);
    stroke: var(--kb-turn-edge);
    stroke-width: 4;
  }
  .pit {
    fill: var(--kb-pit);
    stroke: var(--kb-pit-edge);
    stroke-width: 3;
  }
  .pit.differs {
    stroke: var(--kb-diff);
    stroke-width: 8;
    stroke-dasharray: 16 10;
  }
  .stone {
    fill: var(--kb-stone);
    stroke: rgba(0, 0, 0, 0.45);
    stroke-width: 1.5;
  }
  .heap {
    fill: var(--kb-stone);
    font-size: 56px;
    font-weight: 700;
  }
  .count {
    fill: var(--kb-text);
    font-size: 84px;
    font-weight: 800;
    font-variant-numeric: tabular-nums;
  }
  .count.empty {
    fill: var(--kb-muted);
    font-weight: 400;
  }
  .letter {
    fill: var(--kb-muted);
    font-size: 42px;
    font-weight: 700;
  }
  .store-count {
    fill: var(--kb-text);
    font-size: 104px;
    font-weight: 800;
    font-variant-numeric: tabular-nums;
  }
  .store-label {
    fill: var(--kb-text);
    font-size: 44px;
    font-weight: 700;
  }
  text {
    text-anchor: middle;
    dominant-baseline: central;
  }
  .ring {
    fill: none;
  }
  .ring.origin {
    stroke: var(--kb-origin);
    stroke-width: 10;
  }
  .ring.sown {
    stroke: var(--kb-sown);
    stroke-width: 6;
    stroke-dasharray: 4 10;
    stroke-linecap: round;
  }
  .ring.captured {
    stroke: var(--kb-captured);
    stroke-width: 10;
  }
  .hatch line {
    stroke: var(--kb-captured);
    stroke-width: 7;
  }
  .badge rect {
    stroke: #000;
    stroke-width: 3;
  }
  .badge text {
    font-size: 40px;
    font-weight: 800;
    fill: #000;
  }
  .badge.diff rect {
    fill: var(--kb-diff);
  }
  .badge.pending rect {
    fill: var(--kb-pending);
  }
  .store-pending {
    fill: none;
    stroke: var(--kb-pending);
    stroke-width: 8;
    stroke-dasharray: 16 10;
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    justify-content: center;
    gap: 0.4em 1.6em;
    margin: 0.4em 0 0;
    padding: 0;
    list-style: none;
    color: var(--kb-text);
    font-size: var(--legend-size, 1.1rem);
  }
  .legend li {
    display: flex;
    align-items: center;
    gap: 0.4em;
  }
  .legend svg {
    width: 1.6em;
    height: 1.6em;
  }
  /* The swatches are drawn at a tenth of a pit's size: thicker lines keep them as legible. */
  .legend .ring.origin,
  .legend .ring.captured {
    stroke-width: 22;
  }
  .legend .ring.sown {
    stroke-width: 18;
    stroke-dasharray: 6 26;
  }
  .pit-hit {
    cursor: var(--pit-cursor, default);
  }
`;
