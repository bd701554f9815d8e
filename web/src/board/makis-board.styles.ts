// Styles of <makis-board>; colours come from custom properties so each page can set its theme.
import { css } from 'lit';

export const makisBoardStyles = css`
  :host {
    display: block;
    --mk-text: var(--text, #ffffff);
    --mk-muted: var(--muted, #c8c8c8);
    --mk-wood: var(--wood, #3a3330);
    --mk-square: var(--makis-square, #2a2421);
    --mk-line: var(--pit-edge, #8a817c);
    /* The danger tint: one warm hue whose strength (lightness on the dark squares) grows with the chance. */
    --mk-danger: var(--danger, #ff7b39);
    --mk-knight: var(--knight, #0d0b0a);
    --mk-knight-edge: var(--knight-edge, #f3ecd9);
    --mk-pending: var(--pending, #cc79a7);
    --mk-diff: var(--diff, #f0e442);
    --mk-mark: var(--turn-edge, #ffffff);
  }
  svg {
    display: block;
    width: 100%;
    height: auto;
    max-height: 100%;
    font-family: inherit;
  }
  text {
    text-anchor: middle;
    dominant-baseline: central;
  }
  .table {
    fill: var(--mk-wood);
  }
  .square {
    fill: var(--mk-square);
  }
  .grid line,
  .grid rect {
    stroke: var(--mk-line);
    stroke-width: 2;
    fill: none;
  }
  .tint {
    fill: var(--mk-danger);
  }
  .danger {
    font-size: 24px;
    font-weight: 800;
    text-anchor: start;
    fill: #ffffff;
    stroke: #000000;
    stroke-width: 5px;
    paint-order: stroke;
    stroke-linejoin: round;
  }
  .row-label {
    fill: var(--mk-muted);
    font-size: 30px;
    font-weight: 700;
  }
  /* The column numbers are the dice numbers: drawn as die faces, filled white when rolled last. */
  .die rect {
    fill: none;
    stroke: var(--mk-muted);
    stroke-width: 2.5;
  }
  .die text {
    fill: var(--mk-text);
    font-size: 30px;
    font-weight: 800;
  }
  .die.rolled rect {
    fill: var(--mk-text);
    stroke: var(--mk-text);
  }
  .die.rolled text {
    fill: #000000;
  }
  .die .double {
    fill: none;
    stroke: var(--mk-text);
    stroke-width: 3;
  }

  .knight-body {
    fill: var(--mk-knight);
    stroke: var(--mk-knight-edge);
    stroke-width: 4;
  }
  .knight-head {
    fill: var(--mk-knight-edge);
  }
  .knight-eye {
    fill: var(--mk-knight);
  }
  .ghost {
    fill: none;
    stroke: var(--mk-pending);
    stroke-width: 5;
    stroke-dasharray: 10 7;
  }
  .turn-ring {
    fill: none;
    stroke: var(--mk-mark);
    stroke-width: 5;
  }

  .frame {
    fill: none;
  }
  .frame.last {
    stroke: var(--mk-mark);
    stroke-width: 6;
  }
  .frame.expected {
    stroke: var(--mk-mark);
    stroke-width: 6;
    stroke-dasharray: 12 8;
  }
  .frame.pending-to {
    stroke: var(--mk-pending);
    stroke-width: 7;
  }
  .frame.pending-from {
    stroke: var(--mk-pending);
    stroke-width: 7;
    stroke-dasharray: 12 8;
  }
  .frame.differs {
    stroke: var(--mk-diff);
    stroke-width: 7;
    stroke-dasharray: 16 8;
  }
  .frame.marked {
    stroke: var(--mk-text);
    stroke-width: 7;
  }

  /* Arrows carry a black casing, so they stand out on tinted squares as on plain ones. */
  .arrow-casing {
    stroke: #000000;
    stroke-width: 15;
    stroke-linecap: round;
    fill: none;
  }
  .arrow-head-casing {
    fill: #000000;
    stroke: #000000;
    stroke-width: 8;
    stroke-linejoin: round;
  }
  .arrow {
    stroke-width: 7;
    stroke-linecap: round;
    fill: none;
  }
  .arrows.expected .arrow {
    stroke: var(--mk-mark);
  }
  .arrows.expected .arrow-head {
    fill: var(--mk-mark);
  }
  .arrows.pending .arrow {
    stroke: var(--mk-pending);
  }
  .arrows.pending .arrow-head {
    fill: var(--mk-pending);
  }

  .badge rect {
    fill: var(--mk-diff);
    stroke: #000;
    stroke-width: 2.5;
  }
  .badge text {
    font-size: 26px;
    font-weight: 800;
    fill: #000;
  }

  .square-hit {
    cursor: var(--square-cursor, default);
  }

  .legend {
    display: flex;
    flex-wrap: wrap;
    justify-content: center;
    gap: 0.4em 1.4em;
    margin: 0.4em 0 0;
    padding: 0;
    list-style: none;
    color: var(--mk-text);
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
  .legend .frame {
    stroke-width: 12;
  }
  .legend .ramp {
    width: 4.2em;
  }
`;
