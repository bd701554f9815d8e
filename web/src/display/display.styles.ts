// Styles of <table-display>: readable from three metres on a landscape screen, still usable on a phone; all four games.
import { css } from 'lit';

export const displayStyles = css`
  :host {
    display: grid;
    grid-template-rows: auto auto minmax(0, 1fr) auto;
    box-sizing: border-box;
    /* Exactly the screen: a scoreboard is never scrolled, so what does not fit is shrunk or cut here, on purpose. */
    height: 100vh;
    height: 100dvh;
    overflow: hidden;
    padding: 1.2vmin 2vmin;
    gap: 1.2vmin;
    background: var(--bg);
    color: var(--text);
    /* Sizes follow the short side of the screen, so landscape and portrait read alike. */
    --big: clamp(1.6rem, 6vmin, 5.5rem);
    --medium: clamp(1.1rem, 3.6vmin, 3rem);
    --small: clamp(0.9rem, 2.2vmin, 1.7rem);
    --alert: clamp(1rem, 3vmin, 2.6rem);
    --record-size: var(--medium);
    font-size: var(--small);
    line-height: 1.25;
  }

  .link {
    grid-row: 1;
    margin: 0;
    padding: 0.3em 0.8em;
    border-radius: 0.4em;
    background: var(--warn-bg);
    color: var(--warn-text);
    font-size: var(--medium);
    font-weight: 700;
    text-align: center;
  }
  .link small {
    display: block;
    font-size: var(--small);
    font-weight: 400;
  }

  header {
    grid-row: 2;
    display: grid;
    grid-template-columns: 1fr auto 1fr;
    align-items: center;
    gap: 2vmin;
  }
  .score {
    display: flex;
    align-items: baseline;
    gap: 0.4em;
    font-size: var(--big);
    font-weight: 800;
    padding: 0.05em 0.4em;
    border: 0.12em solid transparent;
    border-radius: 0.3em;
    white-space: nowrap;
  }
  .score.south {
    justify-self: end;
  }
  .score.north {
    justify-self: start;
  }
  .score .stones {
    font-variant-numeric: tabular-nums;
  }
  .score .name {
    font-weight: 700;
  }
  .score.marked {
    border-color: var(--turn-edge);
  }
  .middle {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.4em;
  }
  .meta {
    display: flex;
    align-items: center;
    gap: 0.8em;
    font-size: var(--small);
  }
  .turn {
    font-size: var(--medium);
    font-weight: 700;
    text-align: center;
  }
  .turn .arrow {
    color: var(--turn-edge);
  }
  .turn.over {
    padding: 0.1em 0.6em;
    border-radius: 0.3em;
    background: var(--text);
    color: var(--bg);
  }

  .board {
    grid-row: 3;
    min-height: 0;
    display: flex;
    flex-direction: column;
  }
  kalaha-board,
  malawi-board,
  makis-board,
  adu-board {
    flex: 1;
    min-height: 0;
    display: flex;
    flex-direction: column;
    --legend-size: var(--small);
  }
  .board.stale > *,
  .below.stale {
    opacity: 0.45;
  }
  .waiting {
    margin: auto;
    font-size: var(--medium);
    color: var(--muted);
  }

  /*
   * Under Kalaha's long board: what must show (result, last move, alerts, at most MAX_ALERTS of them) takes the
   * height it needs and the board gives way; the record beside it takes that height and no more.
   */
  .below {
    grid-row: 4;
    min-height: 0;
    display: grid;
    grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
    gap: 2vmin;
    align-items: start;
  }
  h2 {
    margin: 0 0 0.2em;
    font-size: var(--small);
    font-weight: 700;
    color: var(--muted);
    text-transform: uppercase;
    letter-spacing: 0.06em;
  }
  .last-move {
    margin: 0 0 0.3em;
    font-size: var(--medium);
    font-weight: 700;
  }
  .outcome {
    margin: 0 0 0.4em;
    padding: 0.3em 0.6em;
    border: 0.15em solid var(--text);
    border-radius: 0.4em;
  }
  .outcome .headline {
    font-size: var(--big);
    font-weight: 800;
  }
  .outcome .detail {
    font-size: var(--medium);
  }

  ul.alerts {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.4em;
  }
  .alert {
    padding: 0.25em 0.6em;
    border-radius: 0.3em;
    border-left: 0.5em solid var(--info);
    background: var(--panel);
    font-size: var(--alert);
  }
  .alert .level {
    font-weight: 800;
    margin-right: 0.4em;
  }
  .alert .detail {
    display: block;
    font-size: var(--small);
    font-weight: 700;
  }
  /* Warnings are black on yellow and errors carry a thick frame: the level never rests on hue alone. */
  .alert.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-left-color: #000;
  }
  .alert.error {
    border: 0.18em solid var(--error);
    border-left-width: 0.5em;
    background: #2a1208;
  }

  /*
   * The record takes the room left and never asks for more (size containment), but keeps its heading and two lines;
   * when its moves do not fit, the newest stay at the bottom and the oldest go over the top edge, fading out.
   */
  .record {
    align-self: stretch;
    display: flex;
    flex-direction: column;
    contain: size;
    min-height: calc(var(--small) * 1.45 + var(--record-size) * 2.7);
  }
  .record h2 {
    flex: none;
  }
  .record .moves {
    flex: 0 1 auto;
    min-height: 0;
    overflow: hidden;
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-content: flex-end;
    gap: 0.1em 0.9em;
    font-size: var(--record-size);
  }
  .record .moves.cut {
    mask-image: linear-gradient(to bottom, rgb(0 0 0 / 0.2), #000 1.2em);
  }
  .record .pair {
    white-space: nowrap;
  }
  .record .no {
    color: var(--muted);
    font-size: 0.75em;
  }
  .record .latest {
    text-decoration: underline;
    text-decoration-thickness: 0.12em;
    text-underline-offset: 0.15em;
    font-weight: 800;
  }
  h2 .more {
    color: var(--text);
  }
  .record .count,
  .muted {
    color: var(--muted);
  }

  .board-status {
    padding: 0.1em 0.5em;
    border-radius: 0.3em;
    border: 2px solid var(--muted);
  }
  .board-status.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-color: var(--warn-bg);
    font-weight: 700;
  }
  .board-status.ok {
    border-color: var(--turn-edge);
  }

  /* A correction of the record: the yellow of a warning, since the players may have to look at their board again. */
  .correction {
    margin: 0 0 0.4em;
    padding: 0.2em 0.6em;
    border-left: 0.5em solid var(--warn-bg);
    background: var(--panel);
    font-size: var(--alert);
    font-weight: 700;
  }

  .asking {
    margin: 0 0 0.4em;
    padding: 0.2em 0.6em;
    border-left: 0.5em solid var(--info);
    background: var(--panel);
    font-size: var(--alert);
    font-weight: 700;
  }

  /* The square boards (Malawi, Makis, Adu) take the left of a landscape screen, everything said about them the right. */
  :host([game='malawi']),
  :host([game='makis']),
  :host([game='adu']) {
    grid-template-columns: minmax(0, 11fr) minmax(0, 9fr);
    grid-template-rows: auto auto minmax(0, 1fr);
    column-gap: 2.5vmin;
  }
  :host([game='malawi']) .link,
  :host([game='malawi']) header,
  :host([game='makis']) .link,
  :host([game='makis']) header,
  :host([game='adu']) .link,
  :host([game='adu']) header {
    grid-column: 1 / -1;
  }
  :host([game='malawi']) .board,
  :host([game='makis']) .board,
  :host([game='adu']) .board {
    grid-row: 3;
    grid-column: 1;
  }
  /* The column beside the board is as high as the board's row: what must show first, then the record in what is left. */
  :host([game='malawi']) .below,
  :host([game='makis']) .below,
  :host([game='adu']) .below {
    grid-row: 3;
    grid-column: 2;
    min-height: 0;
    display: flex;
    flex-direction: column;
    overflow: hidden;
  }
  :host([game='malawi']) .now,
  :host([game='makis']) .now,
  :host([game='adu']) .now {
    flex: none;
  }
  :host([game='malawi']) .record,
  :host([game='makis']) .record,
  :host([game='adu']) .record {
    flex: 1 1 0;
  }
  /* Seats, not sides: no score boxes, so the turn line may use the whole width. */
  :host([game='makis']) header,
  :host([game='adu']) header {
    grid-template-columns: minmax(0, 1fr);
  }

  .player-icon {
    width: 1.15em;
    height: 1.15em;
    flex: none;
    vertical-align: -0.2em;
  }
  .turn .player-icon {
    width: 1.3em;
    height: 1.3em;
    vertical-align: -0.3em;
  }
  /*
   * --fit (set by <table-display> when the column beside the board overflows, 1 otherwise) shrinks what may give way
   * there: Adu's Merkskala, Makis' dice and odds. What to do now (the call, the pieces to put back) keeps its size.
   */
  .panel {
    display: grid;
    gap: 0.5em;
    margin: 0 0 0.6em;
    --fitted: calc(var(--small) * var(--fit, 1));
  }
  /* What the players must do now (the header already names who): bold, but not louder than the board. */
  .call {
    margin: 0;
    padding: 0.25em 0.6em;
    border-radius: 0.3em;
    border-left: 0.5em solid var(--turn-edge);
    background: var(--panel);
    font-size: calc(var(--small) * 1.15);
    font-weight: 800;
  }
  /* Beside a square board the panel comes first; the last move is one line among many. */
  :host([game='makis']) .last-move,
  :host([game='adu']) .last-move {
    font-size: calc(var(--small) * 1.2);
  }
  :host([game='makis']),
  :host([game='adu']) {
    --record-size: var(--small);
  }
  .mode {
    margin: 0;
    font-weight: 700;
  }
  ul.seats {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.3em;
  }
  /* A seat is marked by a white frame when it acts, a filled one when it won: the same cues as the score boxes. */
  .seat,
  .seat-card {
    border: 0.12em solid transparent;
    border-radius: 0.35em;
    background: var(--panel);
  }
  .seat.acting,
  .seat-card.acting {
    border-color: var(--turn-edge);
  }
  .seat.winner,
  .seat-card.winner,
  .seat-card.drawn {
    border-color: var(--text);
    box-shadow: inset 0 0 0 0.12em var(--text);
  }

  /* Makis: one line per player: mark, name, where the Maki is, the odds of the next roll. */
  .makis .dice {
    display: flex;
    flex-wrap: wrap;
    gap: 0.6em 2em;
    font-size: var(--fitted);
    --die-size: calc(clamp(2.2rem, 6.5vmin, 5rem) * var(--fit, 1));
  }
  .makis .seat {
    display: grid;
    grid-template-columns: auto auto 1fr;
    align-items: center;
    column-gap: 0.5em;
    padding: 0.15em 0.5em;
    font-size: calc(var(--fitted) * 1.2);
  }
  .makis .seat .name {
    font-weight: 800;
  }
  .makis .seat .odds {
    grid-column: 2 / -1;
    font-size: 0.8em;
    color: var(--muted);
  }
  /* Out: the name struck through, the reason still readable. */
  .makis .seat.out .name {
    text-decoration: line-through;
    text-decoration-thickness: 0.1em;
    color: var(--muted);
  }
  .put-back ul {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: 0.25em;
  }
  .put-back li {
    padding: 0.2em 0.6em;
    border-left: 0.5em solid var(--pending);
    background: var(--panel);
    font-size: calc(var(--small) * 1.15);
    font-weight: 700;
  }
  .knights-home {
    margin: 0;
    font-size: var(--fitted);
  }

  /* Adu: a card per seat, its kings and its Merkskala; the cards flow into as many columns as fit. */
  .seat-head {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.2em 1em;
  }
  .seat-head h2 {
    margin: 0;
  }
  .supply {
    font-weight: 700;
  }
  /* At a smaller type (--fit) more cards share a row: six seats' scales give way in both directions. */
  .adu ul.seats {
    grid-template-columns: repeat(auto-fill, minmax(min(10.5em, 100%), 1fr));
    gap: 0.4em;
    font-size: var(--fitted);
  }
  .seat-card {
    padding: 0.25em 0.4em 0.35em;
  }
  .seat-line {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0 0.35em;
    margin-bottom: 0.15em;
  }
  .seat-line .name {
    font-weight: 800;
  }
  .seat-line .status {
    flex-basis: 100%;
    color: var(--muted);
    font-size: 0.85em;
  }
  .seat-card.out .name {
    text-decoration: line-through;
    text-decoration-thickness: 0.1em;
    color: var(--muted);
  }
  .seat-card.out .status {
    color: var(--text);
    font-weight: 700;
  }
  table.merkskala {
    border-collapse: separate;
    border-spacing: 0.12em;
    font-size: 0.85em;
    font-variant-numeric: tabular-nums;
  }
  .merkskala th {
    padding-right: 0.25em;
    text-align: left;
    font-weight: 800;
  }
  .merkskala td {
    width: 1.25em;
    text-align: center;
    border-radius: 0.2em;
  }
  /* Possible: a white number on a lit cell; impossible: dim and struck out — told apart by more than colour. */
  .merkskala td.possible {
    background: #3a3a40;
    font-weight: 800;
  }
  .merkskala td.impossible {
    color: #8a8a8a;
    text-decoration: line-through;
    text-decoration-thickness: 0.12em;
  }
  .merkskala tr.known td.possible {
    background: var(--text);
    color: var(--bg);
  }
  .passed {
    margin: 0;
    font-weight: 700;
  }
  .seat-card .declaring {
    margin: 0 0 0.15em;
    padding-left: 0.4em;
    border-left: 0.3em solid var(--turn-edge);
    font-size: 0.85em;
    font-weight: 700;
  }
  .adu .hint {
    margin: 0;
    font-size: calc(var(--fitted) * 0.85);
  }
  .tight .hint {
    display: none;
  }
  .score .unit {
    font-size: 0.5em;
    font-weight: 700;
    color: var(--muted);
  }
  /* A Malawi score box is longer ("● Süd 12 Perlen"): on a narrower screen the unit wraps, not the turn line. */
  :host([game='malawi']) .score {
    flex-wrap: wrap;
    white-space: normal;
    column-gap: 0.3em;
    row-gap: 0;
  }
  .piece-icon {
    width: 0.8em;
    height: 0.8em;
    align-self: center;
    flex: none;
  }
  .piece-icon .south {
    fill: var(--south-piece, #f3ecd9);
    stroke: #000;
    stroke-width: 4;
  }
  .piece-icon .north {
    fill: var(--north-piece, #121010);
    stroke: var(--north-edge, #f3ecd9);
    stroke-width: 8;
  }

  .controls {
    display: inline-flex;
    align-items: center;
    gap: 0.5em;
    --lang-toggle-size: var(--small);
  }
  button.fullscreen {
    font: inherit;
    font-weight: 700;
    min-height: 2em;
    padding: 0.1em 0.6em;
    border: 2px solid var(--muted);
    border-radius: 0.4em;
    background: transparent;
    color: var(--text);
    cursor: pointer;
  }
  button.fullscreen[aria-pressed='true'] {
    border-color: var(--text);
  }
  button:focus-visible {
    outline: 3px solid var(--origin);
    outline-offset: 2px;
  }
  /* A wall screen: nobody points at it. */
  :host([kiosk]) {
    cursor: none;
  }

  /* Resting: the table's name and the time from across the room, what starts the next game, today's games. */
  :host([idle]) {
    display: flex;
    flex-direction: column;
  }
  .idle-screen {
    flex: 1;
    display: flex;
    flex-direction: column;
    justify-content: center;
    gap: 2.5vmin;
    padding: 0 4vmin 4vmin;
  }
  .idle-top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 1em;
    margin-bottom: auto;
  }
  .idle-screen .meta {
    font-size: var(--small);
  }
  .clock {
    margin: 0;
    font-size: var(--big);
    font-weight: 800;
    font-variant-numeric: tabular-nums;
  }
  .idle-screen h1 {
    margin: 0;
    font-size: clamp(2.2rem, 11vmin, 9rem);
    font-weight: 800;
    line-height: 1.05;
  }
  .idle-screen .next {
    margin: 0;
    font-size: var(--medium);
    font-weight: 700;
    padding-left: 0.6em;
    border-left: 0.3em solid var(--turn-edge);
  }
  .idle-screen .last-result {
    margin: 0;
    font-size: var(--medium);
    color: var(--muted);
  }
  today-at-table {
    margin-top: auto;
    padding: 0.6em 0.9em;
    border-radius: 0.4em;
    background: var(--panel);
    font-size: var(--medium);
  }

  /*
   * Portrait (a phone held upright), or a screen too low to hold a board and its column (a phone on its side): the
   * board takes the width it is given and the page scrolls. The same query is SCROLLING in table-display.ts.
   */
  @media (orientation: portrait), (max-height: 480px) {
    :host {
      height: auto;
      overflow: visible;
      min-height: 100vh;
      grid-template-rows: auto auto auto auto;
      align-content: start;
      --big: clamp(1.3rem, 7vmin, 4rem);
      --medium: clamp(1rem, 4.6vmin, 2.4rem);
      --small: clamp(0.85rem, 3.4vmin, 1.6rem);
      --alert: var(--medium);
    }
    .below {
      grid-template-columns: 1fr;
    }
    .record,
    :host([game='malawi']) .record,
    :host([game='makis']) .record,
    :host([game='adu']) .record {
      flex: none;
      contain: none;
      min-height: 0;
    }
    .record .moves {
      flex: none;
      overflow: visible;
    }
    header {
      grid-template-columns: 1fr 1fr;
    }
    .middle {
      grid-column: 1 / -1;
      grid-row: 2;
    }
    :host([game='malawi']),
    :host([game='makis']),
    :host([game='adu']) {
      grid-template-columns: minmax(0, 1fr);
      grid-template-rows: auto auto auto auto;
    }
    :host([game='malawi']) .below,
    :host([game='makis']) .below,
    :host([game='adu']) .below {
      grid-row: 4;
      grid-column: 1;
      overflow: visible;
    }
    :host([game='makis']) .middle,
    :host([game='adu']) .middle {
      grid-row: 1;
    }
    /* Half a phone's width cannot hold "● Süd 12 Perlen" in one line: the unit goes under the number. */
    :host([game='malawi']) .score .unit {
      flex-basis: 100%;
      text-align: center;
    }
  }
`;
