// Styles of <setup-page>: one column on a phone, two on a laptop (the game on the left, scales and sensors on the right).
import { css } from 'lit';

export const setupStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    min-height: 100vh;
    padding: 0.8rem clamp(0.6rem, 2vw, 1.6rem) 2rem;
    background: var(--bg);
    color: var(--text);
    font-size: clamp(1rem, 2.1vmin, 1.2rem);
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
    margin-bottom: 0.8rem;
  }
  h1 {
    margin: 0;
    font-size: 1.5em;
  }
  h1 .game {
    color: var(--muted);
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
  .board-status.warn {
    background: var(--warn-bg);
    color: var(--warn-text);
    border-color: var(--warn-bg);
    font-weight: 700;
  }
  .signed-in {
    font-weight: 700;
  }
  .link,
  .lock {
    margin: 0 0 0.8rem;
    padding: 0.4em 0.8em;
    border-radius: 0.4em;
    background: var(--warn-bg);
    color: var(--warn-text);
    font-weight: 700;
  }
  main {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
    align-items: start;
  }
  .column {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
    min-width: 0;
  }
  @media (min-width: 1000px) {
    main {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr);
      column-gap: 1.4rem;
    }
  }
  section {
    min-width: 0;
    padding: 0.8em 0.9em 0.9em;
    border-radius: 0.6em;
    background: var(--panel);
  }
  section > * {
    min-width: 0;
  }
  h2 {
    margin: 0 0 0.6em;
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
    margin-top: 0.4em;
    font-size: 0.9em;
  }
  .now {
    font-size: 1.35em;
    font-weight: 800;
  }
  .state {
    margin: 0.2em 0 0.5em;
  }
  .rules {
    margin-bottom: 0.5em;
    color: var(--muted);
    font-size: 0.9em;
  }
  .players {
    margin: 0 0 0.7em;
    padding: 0;
    list-style: none;
    display: flex;
    flex-wrap: wrap;
    gap: 0.35rem 0.9rem;
  }
  .players li {
    font-weight: 700;
  }
  .players small {
    font-weight: 400;
    color: var(--muted);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.6rem;
  }
  .actions label {
    display: grid;
    gap: 0.2em;
    font-weight: 700;
  }
  .confirm {
    display: grid;
    gap: 0.5rem;
    margin-top: 0.6rem;
    padding: 0.6em 0.8em;
    border-left: 0.35em solid var(--warn-bg);
    background: #000;
  }
  .confirm .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
    min-height: 2.8rem;
    padding: 0.25em 1em;
    border-radius: 0.5em;
    border: 2px solid var(--muted);
    background: var(--panel);
    color: var(--text);
    font-weight: 700;
  }
  button.small {
    min-height: 0;
    padding: 0.2em 0.7em;
    font-size: 0.9em;
  }
  button.primary {
    border-color: var(--text);
    background: var(--text);
    color: var(--bg);
    font-weight: 800;
  }
  button.danger {
    border-color: var(--captured);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.45;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible {
    outline: 3px solid var(--origin);
    outline-offset: 2px;
  }
  select,
  input {
    min-width: 0;
    min-height: 2.8rem;
    padding: 0.2em 0.5em;
    border: 2px solid var(--muted);
    border-radius: 0.5em;
    background: #000;
    color: var(--text);
  }
  form.token {
    margin: 0 0 0.9rem;
    padding: 0.8em 0.9em;
    border-radius: 0.6em;
    background: var(--panel);
  }
  form.token.refused {
    border: 2px solid var(--captured);
  }
  form.token label {
    display: block;
    margin-bottom: 0.3em;
    font-weight: 700;
  }
  form.token .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  form.token input {
    flex: 1 1 12rem;
    font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace;
  }
  .refusal {
    margin-bottom: 0.4em;
    font-weight: 700;
    color: var(--captured);
  }
  .outcome {
    margin-top: 0.7rem;
    padding: 0.4em 0.8em;
    border-radius: 0.4em;
    font-weight: 700;
  }
  .outcome.ok {
    border-left: 0.4em solid var(--sown);
    background: #000;
  }
  .outcome.refused {
    background: var(--warn-bg);
    color: var(--warn-text);
  }
`;
