// One Chromium and one build of the pages for a test file: launched before its tests, every page's context closed
// after each test, the browser closed and the build removed at the end. Used by the browser tests' files.
import { mkdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OUT, buildPages, launchChromium, removeDir, watch } from './harness.ts';

export interface BrowserSuite {
  /** The built pages, once `beforeAll` has run. */
  readonly dist: string;
  /** A fresh page at this size (German browser), with its console errors and failed requests watched. */
  page(size: { readonly width: number; readonly height: number }): Promise<{ page: Page; problems: string[] }>;
}

export function browserSuite(): BrowserSuite {
  let dist = '';
  let browser: Browser | null = null;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    dist = await buildPages();
    await mkdir(OUT, { recursive: true });
  }, 240_000);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    if (dist) await removeDir(dist);
  });

  return {
    get dist() {
      return dist;
    },
    async page(size) {
      if (!browser) throw new Error('browserSuite(): the browser starts in beforeAll; open pages inside a test');
      const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, locale: 'de-DE' });
      contexts.push(context);
      const page = await context.newPage();
      return { page, problems: watch(page) };
    },
  };
}
