// Styles of <tournament-page>: a room of boards readable on one large screen, one board on a phone.
import { css } from 'lit';

export const tournamentStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    min-height: 100vh;
    padding: 1.2vmin 2vmin 2vmin;
    background: var(--bg);
    color: var(--text);
    --big: clamp(1.5rem, 4.5vmin, 4rem);
    --medium: clamp(1.05rem, 2.6vmin, 2.2rem);
    --small: clamp(0.85rem, 1.7vmin, 1.4rem);
    font-size: var(--small);
    line-height: 1.25;
  }
  a {
    color: inherit;
  }

  .banner {
    margin: 0 0 1vmin;
    padding: 0.3em 0.8em;
    border-radius: 0.4em;
    background: var(--warn-bg);
    color: var(--warn-text);
    font-size: var(--medium);
    font-weight: 700;
    text-align: center;
  }
  .banner.quiet {
    background: var(--panel);
    color: var(--muted);
  }

  header.top {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.4em 1.2em;
    margin-bottom: 1.2vmin;
  }
  h1 {
    margin: 0;
    font-size: var(--big);
    font-weight: 800;
  }
  .counts {
    font-size: var(--medium);
    color: var(--muted);
  }
  header.top lang-toggle {
    margin-left: auto;
    align-self: center;
  }
  .back {
    font-size: var(--medium);
    font-weight: 700;
    text-decoration: none;
    padding: 0.1em 0.5em;
    border: 2px solid var(--muted);
    border-radius: 0.4em;
  }
  .empty {
    font-size: var(--medium);
    color: var(--muted);
  }

  .grid {
    display: grid;
    gap: 1.2vmin;
  }
  .grid.pictures {
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr));
  }
  .grid.compact {
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr));
  }

  .card {
    display: flex;
    flex-direction: column;
    gap: 0.35em;
    padding: 0.6em 0.8em;
    border: 2px solid #3a3a40;
    border-radius: 0.6em;
    background: var(--panel);
    text-decoration: none;
    min-width: 0;
  }
  .card:hover,
  .card:focus-visible {
    border-color: var(--text);
  }
  .card.stale {
    opacity: 0.5;
  }
  .card.offline {
    border-style: dashed;
  }
  .head {
    display: flex;
    align-items: baseline;
    gap: 0.5em;
  }
  .head .name {
    flex: 0 1 auto;
    min-width: 4ch;
    font-size: var(--medium);
    font-weight: 800;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .head .site {
    flex: 0 1 auto;
    min-width: 0;
    color: var(--muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .head .presence {
    margin-left: auto;
  }
  .presence {
    white-space: nowrap;
    font-weight: 700;
  }
  .presence.online {
    color: #7fd1a0;
  }
  .presence.offline {
    color: var(--error);
  }
  .presence.unknown {
    color: var(--muted);
  }
  .game {
    color: var(--muted);
  }
  .mini {
    display: flex;
    justify-content: center;
    height: 11rem;
  }
  .mini > * {
    flex: 1;
    min-width: 0;
    max-width: 100%;
    display: flex;
    flex-direction: column;
    justify-content: center;
  }
  .mini malawi-board,
  .mini makis-board,
  .mini adu-board {
    flex: 0 1 11rem;
  }

  ul.sides {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.3em;
  }
  .side {
    display: flex;
    align-items: baseline;
    gap: 0.4em;
    padding: 0.05em 0.5em;
    border: 2px solid transparent;
    border-radius: 0.4em;
    background: rgba(255, 255, 255, 0.05);
  }
  .side.to-move {
    border-color: var(--turn-edge);
  }
  .side.winner {
    background: var(--text);
    color: var(--bg);
  }
  .side.out {
    text-decoration: line-through;
    color: var(--muted);
  }
  .side .score {
    font-size: var(--medium);
    font-weight: 800;
    font-variant-numeric: tabular-nums;
  }
  .side .note {
    color: var(--muted);
  }
  .turn {
    font-size: var(--medium);
    font-weight: 700;
  }
  .turn.over {
    align-self: flex-start;
    padding: 0 0.4em;
    border-radius: 0.3em;
    background: var(--text);
    color: var(--bg);
  }
  .last {
    font-weight: 700;
  }

  ul.troubles {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.25em;
  }
  .troubles li {
    padding: 0.1em 0.5em;
    border-left: 0.4em solid var(--info);
    border-radius: 0.2em;
    background: rgba(255, 255, 255, 0.04);
  }
  /* Warnings are black on yellow and errors carry a thick frame: the level never rests on hue alone. */
  .troubles li.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-left-color: #000;
  }
  .troubles li.error {
    border: 0.15em solid var(--error);
    border-left-width: 0.4em;
    background: #2a1208;
  }
  .troubles li.more {
    border: none;
    background: none;
    color: var(--muted);
  }

  /* Compact cards (a whole room on one screen): every line one line high. */
  .grid.compact .card {
    gap: 0.15em;
    padding: 0.35em 0.6em;
  }
  .grid.compact .game,
  .grid.compact .last,
  .grid.compact .troubles li {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .grid.compact .turn {
    font-size: var(--small);
  }
  .grid.compact .side .score {
    font-size: var(--small);
  }

  main.one {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(16rem, 1fr);
    gap: 2vmin;
    align-items: start;
  }
  main.one.stale .big,
  main.one.stale aside {
    opacity: 0.5;
  }
  main.one aside {
    display: flex;
    flex-direction: column;
    gap: 1em;
    font-size: var(--medium);
  }
  main.one section {
    display: flex;
    flex-direction: column;
    gap: 0.4em;
    min-width: 0;
  }
  main.one .side .score {
    font-size: var(--big);
  }
  .big {
    height: 82vh;
    display: flex;
    flex-direction: column;
  }
  .big > * {
    flex: 1;
    min-height: 0;
    display: flex;
    flex-direction: column;
    --legend-size: var(--small);
  }
  /* Kalaha's long board goes above, and what is said about it in three columns below. */
  main.one.kalaha {
    grid-template-columns: 1fr;
  }
  main.one.kalaha .big {
    height: 56vh;
  }
  main.one.kalaha aside {
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 2vmin;
  }
  h2 {
    margin: 0.4em 0 0;
    font-size: var(--small);
    font-weight: 700;
    color: var(--muted);
    text-transform: uppercase;
    letter-spacing: 0.06em;
  }
  ol.recent {
    margin: 0;
    padding-left: 0;
    list-style: none;
  }
  ol.record {
    margin: 0;
    padding-left: 2.6em;
    columns: 3;
    font-variant-numeric: tabular-nums;
  }

  @media (max-width: 700px) {
    main.one,
    main.one.kalaha aside {
      grid-template-columns: 1fr;
    }
    .big,
    main.one.kalaha .big {
      height: auto;
    }
  }
`;
