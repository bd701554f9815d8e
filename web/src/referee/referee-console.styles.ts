// Styles of <referee-console>: a phone in the referee's hand first (big targets, one column), two columns on a tablet.
import { css } from 'lit';

export const consoleStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    min-height: 100vh;
    padding: 0.8rem clamp(0.6rem, 2vw, 1.6rem) 2rem;
    background: var(--bg);
    color: var(--text);
    font-size: clamp(1rem, 2.2vmin, 1.25rem);
    line-height: 1.3;
  }
  * {
    box-sizing: border-box;
  }

  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem 1rem;
    margin-bottom: 0.6rem;
  }
  h1 {
    margin: 0;
    font-size: 1.5em;
  }
  h1 .game {
    color: var(--muted);
    font-weight: 700;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.9rem;
    font-size: 0.9em;
  }
  a {
    color: var(--sown);
  }
  .board-status {
    padding: 0.1em 0.5em;
    border-radius: 0.3em;
    border: 2px solid var(--muted);
  }
  .signed-in {
    font-weight: 700;
  }
  .board-status.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-color: var(--warn-bg);
    font-weight: 700;
  }

  h2 {
    margin: 0 0 0.35em;
    font-size: 0.85em;
    font-weight: 700;
    color: var(--muted);
    text-transform: uppercase;
    letter-spacing: 0.06em;
  }
  p {
    margin: 0;
  }
  .muted,
  .hint {
    color: var(--muted);
  }
  .hint {
    margin-top: 0.35em;
    font-size: 0.9em;
  }

  .link,
  .lock {
    margin: 0 0 0.6rem;
    padding: 0.4em 0.8em;
    border-radius: 0.4em;
    background: var(--warn-bg);
    color: var(--warn-text);
    font-weight: 700;
  }
  .pending {
    padding: 0.4em 0.8em;
    border-left: 0.4em solid var(--info);
    background: var(--panel);
    font-weight: 700;
  }

  /* On a phone, in the order the referee needs them: what just happened, the question, the board, the commands. */
  main {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.9rem;
    align-items: start;
  }
  /* A tablet or laptop held sideways: the board on the left, always in view, the rest beside it. */
  @media (min-width: 900px) and (orientation: landscape) {
    main {
      grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
      grid-template-areas:
        'table status'
        'table questions'
        'table roll'
        'table commands'
        'table journal';
      grid-template-rows: auto auto auto auto 1fr;
      column-gap: 1.2rem;
    }
    .status {
      grid-area: status;
    }
    .questions {
      grid-area: questions;
    }
    .roll {
      grid-area: roll;
    }
    .table-side {
      grid-area: table;
      position: sticky;
      top: 0.8rem;
    }
    /* The square board as tall as the screen allows, with its turn line and legend, so sticking it keeps all of it in view. */
    .table-side malawi-board,
    .table-side makis-board,
    .table-side adu-board {
      width: 100%;
      max-width: calc(100vh - 13rem);
      justify-self: center;
    }
    .commands {
      grid-area: commands;
    }
    .journal {
      grid-area: journal;
    }
  }
  /* One explicit column: an implicit one would grow to the widest content (an input, a row of buttons) and overflow a phone. */
  .status,
  .table-side,
  .commands,
  .journal {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.9rem;
    min-width: 0;
  }
  .turn {
    font-size: 1.3em;
    font-weight: 800;
  }
  .turn.over {
    padding: 0.2em 0.6em;
    border-radius: 0.3em;
    background: var(--text);
    color: var(--bg);
  }
  .turn small {
    display: block;
    font-size: 0.65em;
    font-weight: 600;
  }
  .last-move {
    font-weight: 700;
  }
  kalaha-board,
  malawi-board,
  makis-board,
  adu-board {
    --legend-size: 0.9rem;
    --square-cursor: pointer;
  }
  .player-icon {
    width: 1.2em;
    height: 1.2em;
    vertical-align: -0.25em;
  }

  /* Makis: the dice. The table's own roll is what the players must follow: big, in a white frame. */
  .roll {
    display: grid;
    gap: 0.5rem;
    padding: 0.7em;
    border: 2px solid var(--muted);
    border-radius: 0.5em;
  }
  .roll.expected {
    border: 0.2em solid var(--text);
  }
  .roll makis-dice {
    --die-size: 3rem;
  }
  .roll makis-dice.big {
    --die-size: clamp(4.5rem, 22vw, 7rem);
  }
  .roll .steps {
    font-size: 1.25em;
    font-weight: 800;
  }
  .roll-button {
    border-color: var(--text);
  }

  button,
  input {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
    border-radius: 0.5em;
    border: 2px solid var(--muted);
    background: var(--panel);
    color: var(--text);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.45;
  }
  button:focus-visible,
  input:focus-visible {
    outline: 3px solid var(--origin);
    outline-offset: 2px;
  }
  button.small {
    padding: 0.25em 0.7em;
    font-size: 0.9em;
  }
  button.primary {
    min-height: 3rem;
    padding: 0.3em 1.2em;
    border-color: var(--text);
    background: var(--text);
    color: var(--bg);
    font-weight: 800;
  }
  input {
    min-width: 0;
    min-height: 3rem;
    padding: 0.3em 0.6em;
    border: 2px solid var(--muted);
    border-radius: 0.5em;
    background: #000;
    font-size: 1.2em;
    font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
  }
  label {
    display: block;
    margin-bottom: 0.3em;
    font-weight: 700;
  }
  .row {
    display: flex;
    gap: 0.5rem;
  }
  .row input {
    flex: 1;
  }
  .row > button:not(.primary) {
    min-height: 3rem;
    padding: 0.3em 1em;
  }

  form.token {
    margin: 0 0 1rem;
    padding: 0.8em;
    border: 2px solid var(--text);
    border-radius: 0.5em;
    background: var(--panel);
  }
  form.token.refused {
    border: 0.2em solid var(--error);
  }
  .refusal {
    margin-bottom: 0.5em;
    font-weight: 800;
  }

  .questions:not(.none) {
    padding: 0.7em;
    border: 0.2em solid var(--info);
    border-radius: 0.5em;
    background: #0d1b24;
  }
  .narrow {
    margin-bottom: 0.5em;
    color: var(--muted);
    font-weight: 700;
  }
  .question + .question {
    margin-top: 0.8em;
  }
  .asking {
    margin-bottom: 0.5em;
    font-size: 1.15em;
    font-weight: 700;
  }
  .options {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(9.5rem, 100%), 1fr));
    gap: 0.5rem;
  }
  /* Answers are big: the referee taps them standing at the table. */
  .option,
  .action {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.15em;
    min-height: 4rem;
    padding: 0.5em 0.8em;
    text-align: left;
  }
  .option {
    border-color: var(--info);
    border-width: 3px;
  }
  /* A question waiting for one confirming tap: the chosen answer is filled and ticked, the others outlined. */
  .option[role='radio'] {
    position: relative;
    padding-left: 2.2em;
  }
  .option[role='radio']::before {
    content: '';
    position: absolute;
    left: 0.7em;
    top: 0.85em;
    width: 0.9em;
    height: 0.9em;
    border: 3px solid currentColor;
    border-radius: 50%;
  }
  .option.chosen {
    background: var(--text);
    color: var(--bg);
    border-color: var(--text);
  }
  .option.chosen::before {
    background: radial-gradient(circle, currentColor 45%, transparent 50%);
  }
  .option.chosen .words {
    color: var(--bg);
  }
  .options.choice {
    grid-template-columns: repeat(auto-fill, minmax(min(14rem, 100%), 1fr));
  }
  .option .answer {
    font-size: 1.25em;
    font-weight: 800;
    white-space: nowrap;
  }
  .option .notation.small {
    font-size: 0.85em;
    font-weight: 600;
  }
  .confirm-choice {
    width: 100%;
    margin-top: 0.6rem;
    min-height: 3.6rem;
    font-size: 1.15em;
  }
  .option .notation {
    font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
    font-size: 1.35em;
    font-weight: 800;
  }
  .option .words,
  .action .words {
    font-size: 0.85em;
    color: var(--muted);
  }
  .actions .buttons {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(13rem, 100%), 1fr));
    gap: 0.5rem;
  }
  .action .label {
    font-weight: 800;
  }

  .joiners {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
    margin-top: 0.5rem;
  }
  .joiner {
    min-width: 3rem;
    min-height: 2.8rem;
    font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
    font-size: 1.2em;
    font-weight: 800;
  }

  /* Taken: a tick on a plain panel; refused: a cross in a thick frame — never hue alone. */
  .outcome {
    padding: 0.5em 0.8em;
    border-radius: 0.5em;
    background: var(--panel);
    border-left: 0.5em solid var(--info);
  }
  .outcome .headline {
    font-weight: 800;
  }
  .outcome .reason {
    margin-top: 0.2em;
  }
  .outcome.refused {
    border: 0.2em solid var(--error);
    border-left-width: 0.5em;
    background: #2a1208;
  }
  .outcome.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-left-color: #000;
  }

  .alerts ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.4em;
  }
  .alert {
    padding: 0.3em 0.6em;
    border-radius: 0.3em;
    border-left: 0.5em solid var(--info);
    background: var(--panel);
  }
  .alert .level {
    font-weight: 800;
  }
  .alert .detail {
    display: block;
    font-size: 0.9em;
    font-weight: 700;
  }
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

  .record .moves {
    margin: 0;
    padding: 0;
    list-style: none;
    display: flex;
    flex-wrap: wrap;
    gap: 0.1em 1em;
    max-height: 12em;
    overflow-y: auto;
    font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
  }
  .record .no {
    color: var(--muted);
  }
  /* The game's events, newest first: a time column, a mark that is not colour alone, the words. */
  .events-list {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: 0.15em;
    max-height: 22em;
    overflow-y: auto;
  }
  .event {
    display: grid;
    grid-template-columns: auto 1.4em minmax(0, 1fr);
    align-items: baseline;
    gap: 0 0.5em;
    padding: 0.15em 0.4em;
    border-left: 0.3em solid transparent;
  }
  .event time {
    color: var(--muted);
    font-variant-numeric: tabular-nums;
    font-size: 0.9em;
  }
  .event .mark {
    text-align: center;
    font-weight: 800;
  }
  .event .detail {
    display: block;
    color: var(--muted);
    font-size: 0.9em;
  }
  .event.alert {
    border-left-color: var(--info);
    background: var(--panel);
  }
  .event.alert.error {
    border-left-color: var(--error);
  }
  .event.takeback,
  .event.answer {
    border-left-color: var(--muted);
  }
  .event.end,
  .event.new-game {
    font-weight: 800;
  }
  /* A correction rewrote the record; an assumed move is one the console may still change. */
  .event.correction {
    border-left-color: var(--warn-bg);
    font-weight: 700;
  }
  .event.move.assumed {
    border-left-style: dashed;
    border-left-color: var(--warn-bg);
  }
  .question.not-blocking .asking {
    color: var(--muted);
  }

  .sound.muted {
    border-style: dashed;
    text-decoration: line-through;
  }
  .sound-blocked {
    width: 100%;
    min-height: 3rem;
    padding: 0.4em 0.8em;
    border: 0.2em solid var(--warn-bg);
    font-weight: 800;
    text-align: left;
  }
  .agree-confirm {
    display: grid;
    gap: 0.5rem;
    padding: 0.6em;
    border: 0.2em solid var(--text);
    border-radius: 0.5em;
    font-weight: 700;
  }
  .agree-confirm .row > button {
    flex: 1;
  }
`;
