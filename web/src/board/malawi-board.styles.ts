// Styles of <malawi-board>; colours come from custom properties so each page can set its theme.
import { css } from 'lit';

export const malawiBoardStyles = css`
  :host {
    display: block;
    /* Okabe–Ito marker colours, as on the Kalaha board: told apart with any colour vision; each mark also differs in line. */
    --mb-origin: var(--origin, #e69f00);
    --mb-received: var(--sown, #56b4e9);
    --mb-captured: var(--captured, #d55e00);
    --mb-diff: var(--diff, #f0e442);
    --mb-text: var(--text, #ffffff);
    --mb-muted: var(--muted, #c8c8c8);
    --mb-wood: var(--wood, #3a3330);
    --mb-dark: var(--square-dark, #241f1c);
    --mb-light: var(--square-light, #51463f);
    --mb-line: var(--pit-edge, #8a817c);
    /* The sides differ in lightness (seen by everyone) and in shape: south light discs, north dark squares. */
    --mb-south: var(--south-piece, #f3ecd9);
    --mb-south-bead: var(--south-bead, #1c1917);
    --mb-north: var(--north-piece, #121010);
    --mb-north-edge: var(--north-edge, #f3ecd9);
    --mb-north-bead: var(--north-bead, #f3ecd9);
    --mb-turn-edge: var(--turn-edge, #ffffff);
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
    fill: var(--mb-wood);
  }
  .grid {
    fill: none;
    stroke: var(--mb-line);
    stroke-width: 2;
  }
  .square.dark {
    fill: var(--mb-dark);
  }
  .square.light {
    fill: var(--mb-light);
  }
  .label {
    fill: var(--mb-muted);
    font-size: 30px;
    font-weight: 700;
  }
  .turn-bar {
    fill: var(--mb-turn-edge);
  }

  .piece.south {
    fill: var(--mb-south);
    stroke: #000;
    stroke-width: 2.5;
  }
  .piece.north {
    fill: var(--mb-north);
    stroke: var(--mb-north-edge);
    stroke-width: 4;
  }
  /* A piece without beads is drawn hollow: "empty" reads at a glance, its shape still says whose it is. */
  .piece.empty {
    fill: none;
    stroke-width: 4;
    stroke-dasharray: 9 7;
  }
  .piece.south.empty {
    stroke: var(--mb-south);
  }
  .bead.south {
    fill: var(--mb-south-bead);
  }
  .bead.north {
    fill: var(--mb-north-bead);
  }
  .numeral {
    font-size: 40px;
    font-weight: 800;
  }
  .numeral.south {
    fill: var(--mb-south-bead);
  }
  .numeral.north {
    fill: var(--mb-north-bead);
  }

  .frame {
    fill: none;
  }
  .frame.from {
    stroke: var(--mb-origin);
    stroke-dasharray: 12 8;
  }
  .frame.to {
    stroke: var(--mb-origin);
  }
  .frame.captured {
    stroke: var(--mb-captured);
  }
  .frame.received {
    stroke: var(--mb-received);
    stroke-dasharray: 3 9;
    stroke-linecap: round;
  }
  .frame.differs {
    stroke: var(--mb-diff);
    stroke-dasharray: 16 8;
  }
  .frame.marked {
    stroke: var(--mb-text);
  }
  .hatch line {
    stroke: var(--mb-captured);
    stroke-width: 6;
    opacity: 0.8;
  }
  .arrow {
    stroke: var(--mb-origin);
    stroke-width: 7;
    stroke-linecap: round;
    fill: none;
  }
  .arrow-head {
    fill: var(--mb-origin);
  }

  .badge rect {
    fill: var(--mb-diff);
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
    color: var(--mb-text);
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
  /* Swatches are a square drawn at a fifth of its size: thicker lines keep them as legible. */
  .legend .frame {
    stroke-width: 12;
  }
`;
