// <game-replay>: one logged game. The board replayed ply by ply from /api/games/:id/positions with the game's own
// board component (slider, ←/→, Home/End, play and pause), the record with the ply shown highlighted and every move
// a button, the score over the game as a chart, for Kalaha where stones were captured, and the downloads.
import { LitElement, css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { DEFAULT_LANG, t, type Lang } from '../i18n/catalogue.ts';
import { describeMove, recordLines } from '../common/index.ts';
import '../board/index.ts';
import { MAX_SEQ, getJson, type ApiProblem, type GameSummary, type Positions } from './api.ts';
import { EXPORT_FORMATS, exportGamePath, isGameId } from './filters.ts';
import { dateTime, isNoSuchGame, lengthLine, playerLabel, resultLine, seatsOf, sourceLine } from './format.ts';
import { boardAt, lastPly, stepAt, type BoardData } from './replay.ts';
import { scoreSeries } from './score.ts';
import { captureHeat, type CaptureHeat } from './heatmap.ts';
import { lineLook } from './colours.ts';
import { preloadChartJs, type ChartPickEvent, type ChartSpec } from './chart.ts';
import { inPage, pageStyles, problemBox } from './page.ts';
import { replayIcon } from './icons.ts';
import type { GamesNavigateDetail, PlyChangeDetail } from './games-page.ts';
import './chart.ts';
import './capture-heatmap.ts';

declare global {
  interface HTMLElementTagNameMap {
    'game-replay': GameReplay;
  }
}

/** A game's row and its record: `/api/games/:id` without its events. */
type GameWithMoves = GameSummary & { readonly moves: readonly string[] };

/** Time between plies while playing. */
const PLAY_STEP_MS = 800;

export class GameReplay extends LitElement {
  static override styles = [
    pageStyles,
    css`
      :host {
        padding: 0;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 0.25rem 1.5rem;
        margin-bottom: 0.25rem;
      }
      .meta {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1.25rem;
        margin: 0 0 1rem;
        padding: 0;
        list-style: none;
        color: var(--muted, #c8c8c8);
      }
      .meta .result {
        color: var(--text, #fff);
        font-weight: 700;
      }
      .note {
        border-left: 6px solid var(--info, #56b4e9);
        padding: 0.5rem 0.75rem;
        background: var(--panel, #1b1b1e);
        border-radius: 0.4rem;
        margin: 0 0 1rem;
      }
      .note.warn {
        border-left-color: var(--diff, #f0e442);
      }
      .replay {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(15rem, 1fr);
        gap: 1rem;
        align-items: start;
      }
      @media (max-width: 900px) {
        .replay {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .board-wrap {
        margin: 0 auto;
      }
      .board-wrap.square {
        max-width: min(100%, 40rem);
      }
      .controls {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem;
        margin-top: 0.75rem;
      }
      .controls button {
        min-width: 3rem;
        display: inline-grid;
        place-content: center;
      }
      .controls button.play {
        min-width: 3.5rem;
        border-color: var(--text, #fff);
      }
      .controls input[type='range'] {
        flex: 1 1 12rem;
        min-width: 10rem;
        accent-color: var(--sown, #56b4e9);
        border: none;
        background: transparent;
      }
      .step {
        margin: 0.5rem 0 0;
        font-size: 1.1rem;
        min-height: 3.2em;
      }
      .step .ply {
        font-weight: 700;
        font-variant-numeric: tabular-nums;
      }
      .step .keys {
        display: block;
        font-size: 0.85rem;
        color: var(--muted, #c8c8c8);
      }
      .record ol {
        position: relative;
        list-style: none;
        margin: 0;
        padding: 0;
        max-height: 34rem;
        overflow: auto;
        font-variant-numeric: tabular-nums;
      }
      .record li {
        display: grid;
        grid-template-columns: 2.8em minmax(0, 1fr);
        gap: 0.25rem;
        align-items: baseline;
        padding: 0.1rem 0;
      }
      .record .moves {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
      }
      .record .label {
        color: var(--muted, #c8c8c8);
        text-align: right;
        padding-right: 0.25rem;
      }
      @media (max-width: 900px) {
        .record ol {
          max-height: 16rem;
        }
      }
      .record button {
        min-height: 2rem;
        padding: 0.05rem 0.45rem;
        border: 2px solid transparent;
        background: transparent;
        font-weight: 500;
      }
      .record button:hover:not(:disabled) {
        border-color: var(--muted, #c8c8c8);
      }
      .record button[aria-current='step'] {
        background: var(--text, #fff);
        color: var(--bg, #000);
        font-weight: 700;
      }
      .below {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(15rem, 2fr);
        gap: 1rem;
        margin-top: 1rem;
      }
      .below.single {
        grid-template-columns: minmax(0, 1fr);
      }
      @media (max-width: 900px) {
        .below {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .downloads {
        margin-top: 1rem;
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1.25rem;
        align-items: baseline;
      }
      .downloads h2 {
        margin: 0;
      }
      .hint {
        margin: 0.4rem 0 0;
        font-size: 0.9rem;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    lang: { reflect: true },
    gameId: { attribute: false },
    startPly: { attribute: false },
    back: { attribute: false },
    game: { state: true },
    positions: { state: true },
    problem: { state: true },
    noSuchGame: { state: true },
    cannotReplay: { state: true },
    ply: { state: true },
    playing: { state: true },
  };

  declare lang: Lang;
  /** The id as the address writes it. */
  declare gameId: string;
  /** The ply the address asks for (null: the end). */
  declare startPly: number | null;
  /** The list's query, for the way back. */
  declare back: string;
  declare game: GameWithMoves | null;
  declare positions: Positions | null;
  declare problem: ApiProblem | null;
  declare noSuchGame: boolean;
  declare cannotReplay: boolean;
  declare ply: number;
  declare playing: boolean;

  private controller: AbortController | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private chartCache: { positions: Positions; lang: Lang; spec: ChartSpec } | null = null;
  private heatCache: { positions: Positions; heat: CaptureHeat } | null = null;

  constructor() {
    super();
    this.lang = DEFAULT_LANG;
    this.gameId = '';
    this.startPly = null;
    this.back = '';
    this.game = null;
    this.positions = null;
    this.problem = null;
    this.noSuchGame = false;
    this.cannotReplay = false;
    this.ply = 0;
    this.playing = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onKey);
    this.controller?.abort();
    this.pause();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('gameId')) void this.load();
    else if (changed.has('startPly') && this.positions) this.ply = this.clampPly(this.startPly ?? lastPly(this.positions));
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('lang') || changed.has('game') || changed.has('noSuchGame')) {
      document.title = `${this.game ? t(this.lang, 'history.game.title', { id: this.game.id, game: t(this.lang, `game.${this.game.game}`) }) : t(this.lang, 'page.games.title')} · Spieltisch`;
    }
    if (changed.has('ply') || changed.has('positions')) this.keepCurrentMoveInView();
  }

  /** A game's row (without its events) and its positions, side by side. */
  private async load(): Promise<void> {
    this.controller?.abort();
    this.pause();
    this.game = null;
    this.positions = null;
    this.problem = null;
    this.cannotReplay = false;
    this.noSuchGame = !isGameId(this.gameId);
    if (this.noSuchGame) return;
    const controller = (this.controller = new AbortController());
    const base = `/api/games/${this.gameId}`;
    preloadChartJs();
    try {
      const [game, positions] = await Promise.all([
        getJson<GameWithMoves>(`${base}?after=${MAX_SEQ}`, controller.signal),
        getJson<Positions>(`${base}/positions`, controller.signal),
      ]);
      if (!game.ok) {
        if (isNoSuchGame(game.problem)) this.noSuchGame = true;
        else this.problem = game.problem;
        return;
      }
      this.game = game.value;
      if (positions.ok) {
        this.positions = positions.value;
        this.ply = this.clampPly(this.startPly ?? lastPly(positions.value));
      } else if (positions.problem.kind === 'refused' && positions.problem.code === 'api/cannot-replay') {
        this.cannotReplay = true;
      } else {
        this.problem = positions.problem;
      }
    } catch {
      // Aborted: another game was asked for.
    }
  }

  override render() {
    const lang = this.lang;
    const back = html`<a href="/games${this.back}" @click=${this.onBack}>${t(lang, 'history.game.back')}</a>`;
    if (this.noSuchGame) {
      return html`<p>${back}</p>
        <div class="problem" role="alert"><p>${t(lang, 'history.noSuchGame', { id: this.gameId })}</p></div>`;
    }
    if (this.problem) return html`<p>${back}</p>${problemBox(lang, this.problem, () => void this.load())}`;
    const game = this.game;
    if (!game) return html`<p>${back}</p><p class="muted">${t(lang, 'history.loading')}</p>`;
    const positions = this.positions;
    return html`
      <div class="head">
        <h1>${t(lang, 'history.game.title', { id: game.id, game: t(lang, `game.${game.game}`) })}</h1>
        ${back}
      </div>
      <ul class="meta">
        <li class="result">${resultLine(lang, game)}</li>
        <li>${seatsOf(game.game, game.options, game.players).map((seat) => playerLabel(lang, seat, game.players)).join(' · ')}</li>
        <li>${t(lang, 'history.game.started', { when: dateTime(lang, game.startedAt) })}</li>
        <li>${t(lang, 'history.filter.board')}: ${game.boardId}</li>
        <li>${lengthLine(lang, game)}</li>
        <li>${sourceLine(lang, game)}</li>
      </ul>
      ${game.live ? html`<p class="note">${t(lang, 'history.game.live')}</p>` : nothing}
      ${this.cannotReplay ? html`<p class="note warn" role="status">${t(lang, 'history.replay.cannot')}</p>` : nothing}
      ${positions?.error
        ? html`<p class="note warn" role="status">
            ${t(lang, 'history.replay.broken', { ply: positions.error.ply, move: positions.error.move, code: positions.error.code })}
          </p>`
        : nothing}
      <div class="replay">
        ${positions ? this.renderBoardPanel(game, positions) : nothing}
        ${this.renderRecord(game, positions)}
      </div>
      ${positions ? this.renderCharts(game, positions) : nothing}
      <section class="downloads">
        <h2>${t(lang, 'history.download.title')}</h2>
        ${EXPORT_FORMATS.map((f) => html`<a href=${exportGamePath(game.id, f)} download>${t(lang, `history.download.${f}`)}</a>`)}
      </section>
    `;
  }

  private renderBoardPanel(game: GameWithMoves, positions: Positions) {
    const lang = this.lang;
    const last = lastPly(positions);
    const board = boardAt(positions, this.ply);
    return html`<section class="board-panel" aria-label=${t(lang, 'history.replay.title')}>
      <h2 class="visually-hidden">${t(lang, 'history.replay.title')}</h2>
      <div class="board-wrap ${board.game === 'kalaha' ? '' : 'square'}">${this.renderBoard(board)}</div>
      <div class="controls">
        <button @click=${() => this.go(0)} ?disabled=${this.ply === 0} title=${t(lang, 'history.replay.first')} aria-label=${t(lang, 'history.replay.first')}>${replayIcon('first')}</button>
        <button @click=${() => this.go(this.ply - 1)} ?disabled=${this.ply === 0} title=${t(lang, 'history.replay.prev')} aria-label=${t(lang, 'history.replay.prev')}>${replayIcon('prev')}</button>
        <button
          class="play"
          @click=${this.togglePlay}
          ?disabled=${last === 0}
          aria-pressed=${String(this.playing)}
          title=${t(lang, this.playing ? 'history.replay.pause' : 'history.replay.play')}
          aria-label=${t(lang, this.playing ? 'history.replay.pause' : 'history.replay.play')}
        >
          ${replayIcon(this.playing ? 'pause' : 'play')}
        </button>
        <button @click=${() => this.go(this.ply + 1)} ?disabled=${this.ply >= last} title=${t(lang, 'history.replay.next')} aria-label=${t(lang, 'history.replay.next')}>${replayIcon('next')}</button>
        <button @click=${() => this.go(last)} ?disabled=${this.ply >= last} title=${t(lang, 'history.replay.last')} aria-label=${t(lang, 'history.replay.last')}>${replayIcon('last')}</button>
        <input
          type="range"
          min="0"
          max=${last}
          step="1"
          .value=${String(this.ply)}
          aria-label=${t(lang, 'history.replay.slider')}
          aria-valuetext=${this.stepTitle(positions)}
          @input=${this.onSlider}
        />
      </div>
      <p class="step" aria-live="polite">${this.renderStep(game, positions)}</p>
    </section>`;
  }

  private renderBoard(board: BoardData) {
    const lang = this.lang;
    switch (board.game) {
      case 'kalaha':
        return html`<kalaha-board
          legend
          .lang=${lang}
          .pits=${board.pits}
          .stores=${board.stores}
          .toMove=${board.toMove}
          .lastMove=${board.lastMove}
        ></kalaha-board>`;
      case 'malawi':
        return html`<malawi-board
          legend
          .lang=${lang}
          .size=${board.size}
          .pieces=${board.pieces}
          .toMove=${board.toMove}
          .lastMove=${board.lastMove}
        ></malawi-board>`;
      case 'makis':
        return html`<makis-board
          legend
          .lang=${lang}
          .knights=${board.knights}
          .makis=${board.makis}
          .toMove=${board.toMove}
          .lastRoll=${board.lastRoll}
          .lastMove=${board.lastMove}
        ></makis-board>`;
      case 'adu':
        return html`<adu-board legend .lang=${lang} .size=${board.size} .pieces=${board.pieces} .lastMove=${board.lastMove}></adu-board>`;
      default:
        return board satisfies never;
    }
  }

  private stepTitle(positions: Positions): string {
    return this.ply === 0 ? t(this.lang, 'history.replay.start') : t(this.lang, 'history.replay.step', { ply: this.ply, plies: lastPly(positions) });
  }

  /** "Zug 12 von 300 · Süd: C — Mulde C säen", and the result once the game is over. */
  private renderStep(game: GameWithMoves, positions: Positions) {
    const lang = this.lang;
    const step = stepAt(positions, this.ply);
    let move: unknown = nothing;
    if (step.move !== null) {
      const mover = positions.steps[step.ply - 1]?.toMove ?? null;
      const who = mover !== null && mover !== 'roll' ? `${playerLabel(lang, mover, game.players)}: ` : '';
      const words = describeMove(lang, game.game, step.move);
      move = html` · ${who}<strong>${step.move}</strong>${words !== step.move ? ` — ${words}` : ''}`;
    }
    return html`<span class="ply">${this.stepTitle(positions)}</span>${move}
      ${step.over ? html` · <strong>${resultLine(lang, game)}</strong>` : nothing}
      <span class="keys">${t(lang, 'history.replay.keys')}</span>`;
  }

  private renderRecord(game: GameWithMoves, positions: Positions | null) {
    const lang = this.lang;
    const { lines } = recordLines(game.game, game.moves, Number.MAX_SAFE_INTEGER);
    const reachable = positions ? lastPly(positions) : -1;
    const move = (text: string, index: number) => {
      const ply = index + 1;
      return html`<button
        aria-current=${ply === this.ply && positions ? 'step' : 'false'}
        ?disabled=${ply > reachable}
        aria-label=${t(lang, 'history.record.goto', { ply, move: text })}
        @click=${() => this.go(ply)}
      >
        ${text}
      </button>`;
    };
    return html`<section class="record">
      <h2>${t(lang, 'history.record.title')}</h2>
      ${game.moves.length === 0
        ? html`<p class="muted">${t(lang, 'history.record.empty')}</p>`
        : html`<ol>
            <li>
              <span class="label"></span>
              <span class="moves">
                <button aria-current=${this.ply === 0 && positions ? 'step' : 'false'} ?disabled=${!positions} @click=${() => this.go(0)}>
                  ${t(lang, 'history.replay.start')}
                </button>
              </span>
            </li>
            ${lines.map(
              (line) => html`<li><span class="label">${line.label}</span><span class="moves">${line.moves.map((m) => move(m.text, m.index))}</span></li>`,
            )}
          </ol>`}
    </section>`;
  }

  private renderCharts(game: GameWithMoves, positions: Positions) {
    const lang = this.lang;
    const spec = this.chartSpec(game, positions);
    const heat = game.game === 'kalaha' ? this.heat(positions) : null;
    return html`<div class="below ${heat ? '' : 'single'}">
      <section class="score">
        <h2>${t(lang, `history.score.title.${game.game}`)}</h2>
        <history-chart
          .lang=${lang}
          .spec=${spec}
          .marker=${this.ply}
          label=${t(lang, `history.score.title.${game.game}`)}
          @chart-pick=${(e: ChartPickEvent) => this.go(e.detail.index)}
        ></history-chart>
        <p class="hint muted">${t(lang, 'history.score.hint')}</p>
      </section>
      ${heat
        ? html`<section class="heat">
            <h2>${t(lang, 'history.heat.title')}</h2>
            <capture-heatmap .lang=${lang} .heat=${heat}></capture-heatmap>
          </section>`
        : nothing}
    </div>`;
  }

  /** Built once per game and language: a new spec makes the chart redraw everything, a new ply only its marker. */
  private chartSpec(game: GameWithMoves, positions: Positions): ChartSpec {
    const cached = this.chartCache;
    if (cached && cached.positions === positions && cached.lang === this.lang) return cached.spec;
    const series = scoreSeries(positions);
    const spec: ChartSpec = {
      kind: 'line',
      labels: positions.steps.map((s) => String(s.ply)),
      series: series.lines.map((line) => ({
        label: line.key === 'knights' ? t(this.lang, 'history.score.knights') : playerLabel(this.lang, line.key, game.players),
        values: line.values,
        look: lineLook(line.key),
      })),
      xTitle: t(this.lang, 'history.score.axis'),
      yMax: series.max,
      integers: true,
      legend: true,
    };
    this.chartCache = { positions, lang: this.lang, spec };
    return spec;
  }

  private heat(positions: Positions): CaptureHeat {
    if (this.heatCache?.positions !== positions) this.heatCache = { positions, heat: captureHeat(positions.steps) };
    return this.heatCache.heat;
  }

  private clampPly(ply: number): number {
    return this.positions ? Math.max(0, Math.min(lastPly(this.positions), Math.round(ply))) : 0;
  }

  /** Shows a ply and tells the page, which keeps it in the address. */
  go(ply: number): void {
    if (!this.positions) return;
    const next = this.clampPly(ply);
    if (next === this.ply) return;
    this.ply = next;
    this.dispatchEvent(new CustomEvent<PlyChangeDetail>('ply-change', { detail: { ply: next }, bubbles: true, composed: true }));
  }

  private readonly togglePlay = (): void => {
    if (this.playing) {
      this.pause();
      return;
    }
    if (!this.positions) return;
    // Playing from the end starts again from the beginning.
    if (this.ply >= lastPly(this.positions)) this.go(0);
    this.playing = true;
    this.timer = setInterval(() => {
      if (!this.positions || this.ply >= lastPly(this.positions)) this.pause();
      else this.go(this.ply + 1);
    }, PLAY_STEP_MS);
  };

  private pause(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.playing = false;
  }

  private readonly onSlider = (event: Event): void => {
    this.go(Number((event.target as HTMLInputElement).value));
  };

  /** ←/→ one ply, Home/End the ends; not while typing, and not on the slider, which steps by itself. */
  private readonly onKey = (event: KeyboardEvent): void => {
    if (!this.positions || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.composedPath()[0] as HTMLElement | undefined;
    const tag = target?.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || target?.isContentEditable) return;
    const steps: Record<string, () => number> = {
      ArrowLeft: () => this.ply - 1,
      ArrowRight: () => this.ply + 1,
      Home: () => 0,
      End: () => lastPly(this.positions as Positions),
    };
    const to = steps[event.key];
    if (!to) return;
    event.preventDefault();
    this.go(to());
  };

  private readonly onBack = (event: MouseEvent): void => {
    if (!inPage(event)) return;
    this.dispatchEvent(new CustomEvent<GamesNavigateDetail>('games-navigate', { detail: { search: this.back }, bubbles: true, composed: true }));
  };

  /** Scrolls the record (not the page) so that the move shown stays visible. */
  private keepCurrentMoveInView(): void {
    const list = this.renderRoot.querySelector<HTMLElement>('.record ol');
    const current = list?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!list || !current) return;
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

customElements.define('game-replay', GameReplay);
