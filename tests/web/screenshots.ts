// Takes screenshots of the built pages against the fake server, driving the system's Chromium over the DevTools
// protocol (not a test: for eyes). Console shots click and type like a referee would.
//
//   npm run build:web && node bin/run-ts.js tests/web/screenshots.ts [--dist=DIR] [--out=DIR] [shot …]
//
// Writes tests/output/web/<shot>-<lang>-<width>x<height>.png (tests/output is not committed). Without arguments
// every shot is taken; an argument picks the shots whose name starts with it (`malawi`, `makis`, `adu`, `console`, `live`).
// `--dist` serves another build (say, an older commit's, to compare pictures byte for byte) and `--out` writes
// elsewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { FAKE_REFEREE_TOKEN, KALAHA_SCENARIOS, startFakeServer, type Scenario } from './fake-server.ts';

type Step =
  | { readonly click: string }
  | { readonly type: readonly [selector: string, text: string] }
  | { readonly wait: string };

interface Shot {
  readonly name: string;
  readonly scenario: Scenario;
  /** Path and query, without `lang`. */
  readonly path: string;
  /** Shown when the page has drawn what the shot is about (a selector, searched through shadow roots). */
  readonly ready: string;
  readonly steps?: readonly Step[];
  readonly sizes: readonly (readonly [number, number])[];
  /** On a phone, the whole scrolling page rather than the first screen. */
  readonly fullPage?: boolean;
}

const LARGE = [1920, 1080] as const;
const PHONE = [390, 844] as const;
const TABLET = [1280, 800] as const;
const DISPLAY_SIZES = [LARGE, PHONE] as const;
const CONSOLE_SIZES = [PHONE, TABLET] as const;
const CONSOLE_LARGE = [PHONE, LARGE] as const;
const LANGS = ['de', 'en'] as const;
const token = `token=${FAKE_REFEREE_TOKEN}`;

const SHOTS: readonly Shot[] = [
  // The Kalaha display as it always was.
  ...KALAHA_SCENARIOS.map(
    (scenario): Shot => ({
      name: scenario,
      scenario,
      path: '/display',
      // `live` is ready once its script has played to the mismatch alert that ends it.
      ready: scenario === 'down' ? '.waiting' : scenario === 'drop' ? '.link' : scenario === 'live' ? '.alert.warn' : 'kalaha-board',
      sizes: DISPLAY_SIZES,
    }),
  ),
  ...(['malawi', 'malawi-question', 'malawi-mismatch', 'malawi-over'] as const).map(
    (scenario): Shot => ({ name: scenario, scenario, path: '/display', ready: 'malawi-board', sizes: DISPLAY_SIZES }),
  ),
  {
    name: 'console-question',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.option:not([disabled])',
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-chosen',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.outcome.ok',
    steps: [{ wait: '.option:not([disabled])' }, { click: '.option' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-refused',
    scenario: 'malawi-question',
    path: `/referee?${token}`,
    ready: '.outcome.refused',
    steps: [{ wait: '.option:not([disabled])' }, { type: ['#move', 'a1-a2'] }, { click: '.entry button.primary' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-token-refused',
    scenario: 'malawi-question',
    path: '/referee?token=wrong',
    ready: 'form.token.refused',
    sizes: [PHONE],
    fullPage: true,
  },
  {
    name: 'console-no-token',
    scenario: 'malawi-mismatch',
    path: '/referee',
    ready: 'form.token',
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-ask',
    scenario: 'malawi',
    path: `/referee?${token}`,
    ready: '.narrow',
    steps: [{ wait: '.action.report:not([disabled])' }, { click: '.action.report' }, { wait: '.option' }],
    sizes: CONSOLE_SIZES,
    fullPage: true,
  },
  {
    name: 'console-narrowed',
    scenario: 'malawi',
    path: `/referee?${token}`,
    ready: '.narrow',
    steps: [
      { wait: '.action.report:not([disabled])' },
      { click: '.action.report' },
      { wait: '.option' },
      { click: 'g[data-square="a1"]' },
      { click: '.joiner' },
    ],
    sizes: [PHONE],
    fullPage: true,
  },
  { name: 'console-kalaha', scenario: 'midgame', path: `/referee?${token}`, ready: 'kalaha-board', sizes: [TABLET] },

  // Makis, three players: the danger map with a knight to put back; the table's own roll (the board reconnecting);
  // a question about the roll (the board not responding); the end.
  ...(['makis', 'makis-rolled', 'makis-question'] as const).map(
    (scenario): Shot => ({ name: scenario, scenario, path: '/display', ready: 'makis-board', sizes: DISPLAY_SIZES }),
  ),
  { name: 'makis-over', scenario: 'makis-over', path: '/display', ready: 'makis-board', sizes: [LARGE] },
  {
    name: 'console-makis',
    scenario: 'makis',
    path: `/referee?${token}`,
    ready: '.roll-button:not([disabled])',
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-makis-rolled',
    scenario: 'makis',
    path: `/referee?${token}`,
    ready: '.roll.expected',
    steps: [{ wait: '.roll-button:not([disabled])' }, { click: '.roll-button' }],
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-makis-question',
    scenario: 'makis-question',
    path: `/referee?${token}`,
    ready: '.option:not([disabled])',
    sizes: [PHONE],
    fullPage: true,
  },

  // Adu, six players: a reserve king awaited, the Merkskala, a seat out; the declaration question; the end.
  { name: 'adu', scenario: 'adu', path: '/display', ready: 'adu-board', sizes: DISPLAY_SIZES },
  { name: 'adu-declare', scenario: 'adu-declare', path: '/display', ready: 'adu-board', sizes: [LARGE] },
  { name: 'adu-over', scenario: 'adu-over', path: '/display', ready: 'adu-board', sizes: [LARGE] },
  { name: 'console-adu', scenario: 'adu', path: `/referee?${token}`, ready: 'adu-board', sizes: CONSOLE_LARGE, fullPage: true },
  {
    name: 'console-adu-declare',
    scenario: 'adu-declare',
    path: `/referee?${token}`,
    ready: '.confirm-choice:not([disabled])',
    sizes: CONSOLE_LARGE,
    fullPage: true,
  },
  {
    name: 'console-adu-declared',
    scenario: 'adu-declare',
    path: `/referee?${token}`,
    ready: '.outcome.ok',
    steps: [{ wait: '.confirm-choice:not([disabled])' }, { click: '.option[aria-checked="false"]' }, { click: '.confirm-choice' }],
    sizes: [PHONE],
    fullPage: true,
  },
];

// ---------------------------------------------------------------------------------------------
// A minimal DevTools-protocol client: enough to open a tab, wait, click, type and take a picture.

/** Finds an element through open shadow roots, as the pages are all custom elements. */
const DEEP_QUERY = `(selector) => {
  const walk = (root) => {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        const found = walk(el.shadowRoot);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(document);
}`;

class Browser {
  private nextId = 1;
  private readonly waiting = new Map<number, { done: (value: unknown) => void; fail: (error: Error) => void }>();

  private constructor(
    private readonly process: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profile: string,
  ) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (message.error) waiter.fail(new Error(message.error.message));
      else waiter.done(message.result);
    });
  }

  static async launch(): Promise<Browser> {
    const profile = await mkdtemp(join(tmpdir(), 'spieltisch-chromium-'));
    const child = spawn(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--hide-scrollbars',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const endpoint = await new Promise<string>((done, fail) => {
      let text = '';
      const timer = setTimeout(() => fail(new Error(`chromium did not start:\n${text}`)), 30_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        text += String(chunk);
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match) {
          clearTimeout(timer);
          done(match[1]);
        }
      });
      child.on('exit', () => fail(new Error(`chromium exited:\n${text}`)));
    });
    const socket = new WebSocket(endpoint);
    await new Promise((done, fail) => {
      socket.once('open', done);
      socket.once('error', fail);
    });
    return new Browser(child, socket, profile);
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    return new Promise<T>((done, fail) => this.waiting.set(id, { done: done as (value: unknown) => void, fail }));
  }

  async close(): Promise<void> {
    this.socket.close();
    this.process.kill();
    await rm(this.profile, { recursive: true, force: true }).catch(() => {});
  }
}

/** One tab: a fresh one per shot, so session storage (the referee token) never leaks between shots. */
class Tab {
  private constructor(
    private readonly browser: Browser,
    private readonly targetId: string,
    private readonly session: string,
  ) {}

  static async open(browser: Browser, width: number, height: number): Promise<Tab> {
    const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const tab = new Tab(browser, targetId, sessionId);
    await tab.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: width < 600 });
    return tab;
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}): Promise<T> {
    return this.browser.send<T>(method, params, this.session);
  }

  async evaluate(expression: string): Promise<unknown> {
    const { result, exceptionDetails } = await this.send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  }

  async waitFor(selector: string, timeout = 10_000): Promise<void> {
    const until = Date.now() + timeout;
    while (Date.now() < until) {
      if (await this.evaluate(`(${DEEP_QUERY})(${JSON.stringify(selector)}) !== null`)) return;
      await sleep(50);
    }
    throw new Error(`"${selector}" did not appear`);
  }

  async step(step: Step): Promise<void> {
    if ('wait' in step) return this.waitFor(step.wait);
    if ('click' in step) {
      await this.waitFor(step.click);
      // A dispatched click, not .click(): board squares are SVG elements, which have no click method.
      await this.evaluate(
        `(${DEEP_QUERY})(${JSON.stringify(step.click)}).dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }))`,
      );
      return;
    }
    const [selector, text] = step.type;
    await this.waitFor(selector);
    await this.evaluate(`(() => {
      const el = (${DEEP_QUERY})(${JSON.stringify(selector)});
      el.value = ${JSON.stringify(text)};
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    })()`);
  }

  async screenshot(file: string, fullPage: boolean): Promise<void> {
    const params: Record<string, unknown> = { format: 'png' };
    if (fullPage) {
      const { cssContentSize } = await this.send<{ cssContentSize: { width: number; height: number } }>('Page.getLayoutMetrics');
      params.captureBeyondViewport = true;
      params.clip = { x: 0, y: 0, width: cssContentSize.width, height: cssContentSize.height, scale: 1 };
    }
    const { data } = await this.send<{ data: string }>('Page.captureScreenshot', params);
    await writeFile(file, Buffer.from(data, 'base64'));
  }

  async close(): Promise<void> {
    await this.browser.send('Target.closeTarget', { targetId: this.targetId });
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------

const option = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const out = resolve(option('out') ?? 'tests/output/web');
const dist = resolve(option('dist') ?? 'web/dist');
const asked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const shots = asked.length ? SHOTS.filter((s) => asked.some((a) => s.name.startsWith(a))) : SHOTS;

await stat(join(dist, 'index.html')).catch(() => {
  console.error(`${dist} has no pages: run \`npm run build:web\` first`);
  process.exit(2);
});
await mkdir(out, { recursive: true });

const browser = await Browser.launch();
let failed = 0;
try {
  for (const shot of shots) {
    for (const lang of LANGS) {
      for (const [width, height] of shot.sizes) {
        // A fresh server per shot: every page load sees the scenario from its start.
        const server = await startFakeServer({ scenario: shot.scenario, port: 0, interval: 5, dist });
        const tab = await Tab.open(browser, width, height);
        const file = join(out, `${shot.name}-${lang}-${width}x${height}.png`);
        try {
          const joiner = shot.path.includes('?') ? '&' : '?';
          await tab.send('Page.navigate', { url: `${server.url}${shot.path}${joiner}lang=${lang}` });
          for (const step of shot.steps ?? []) await tab.step(step);
          await tab.waitFor(shot.ready);
          // Let the scripted messages (5 ms apart) arrive and the page draw them.
          await sleep(400);
          await tab.screenshot(file, Boolean(shot.fullPage) && width < 600);
          console.log(file);
        } catch (error) {
          failed += 1;
          console.error(`${shot.name} ${lang} ${width}x${height}: ${(error as Error).message}`);
        } finally {
          await tab.close();
          await server.close();
        }
      }
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
