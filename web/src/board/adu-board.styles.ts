// Styles of <adu-board>; colours come from custom properties so each page can set its theme.
import { css } from 'lit';

export const aduBoardStyles = css`
  :host {
    display: block;
    --ab-text: var(--text, #ffffff);
    --ab-muted: var(--muted, #c8c8c8);
    /* Dark leather, light lines: every player colour, dark blue included, stands off it with its light rim. */
    --ab-leather: var(--leather, #3b2a1f);
    --ab-line: var(--leather-line, #a08670);
    --ab-diff: var(--diff, #f0e442);
    --ab-mark: var(--turn-edge, #ffffff);
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
    fill: var(--ab-leather);
  }
  .lines line {
    stroke: var(--ab-line);
    stroke-width: 2.5;
  }
  .label {
    fill: var(--ab-muted);
    font-size: 28px;
    font-weight: 700;
  }
  .point-hit {
    cursor: var(--square-cursor, default);
  }
  .point-hit .hit {
    fill: transparent;
  }
  .piece-label {
    letter-spacing: -0.02em;
  }

  .mark {
    fill: none;
    stroke: var(--ab-mark);
  }
  .mark.from {
    stroke-width: 5;
    stroke-dasharray: 9 7;
  }
  .mark.to {
    stroke-width: 6;
  }
  .mark.placed {
    stroke-width: 5;
    stroke-dasharray: 2 8;
    stroke-linecap: round;
  }
  .frame {
    fill: none;
  }
  .frame.differs {
    stroke: var(--ab-diff);
    stroke-width: 6;
    stroke-dasharray: 14 8;
  }
  .frame.marked {
    stroke: var(--ab-text);
    stroke-width: 6;
  }
  .arrow-casing {
    stroke: #000;
    stroke-width: 14;
    stroke-linecap: round;
    fill: none;
  }
  .arrow {
    stroke: var(--ab-mark);
    stroke-width: 6;
    stroke-linecap: round;
    fill: none;
  }
  .badge rect {
    fill: var(--ab-diff);
    stroke: #000;
    stroke-width: 2.5;
  }
  .badge text {
    font-size: 26px;
    font-weight: 800;
    fill: #000;
  }

  .legend {
    display: flex;
    flex-wrap: wrap;
    justify-content: center;
    gap: 0.4em 1.4em;
    margin: 0.4em 0 0;
    padding: 0;
    list-style: none;
    color: var(--ab-text);
    font-size: var(--legend-size, 1.1rem);
  }
  .legend li {
    display: flex;
    align-items: center;
    gap: 0.4em;
  }
  .legend svg {
    width: 1.7em;
    height: 1.7em;
  }
`;
