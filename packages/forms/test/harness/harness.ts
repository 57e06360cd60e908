/**
 * A real Chromium driving a real page: the test page's script is bundled by esbuild from the
 * package's source (`@parley/source`, so the workspace packages resolve to source too), served
 * on 127.0.0.1 by node:http, and opened by playwright-core in the Chromium the docs' site test
 * uses (findBrowser: CHROMIUM_PATH, a system one, or the one inside @sparticuz/chromium).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { findBrowser, launchOptions } from '../../../../docs/test/browser.ts';
import type { ElicitRequestParams, ElicitResult } from '../../src/index.ts';

const require = createRequire(import.meta.url);

/** Where axe-core's browser build is, for `page.addScriptTag({ path })`. */
export const AXE_PATH: string = require.resolve('axe-core/axe.min.js');

const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>@parley/forms test page</title></head>
  <body>
    <main><h1>Elicitation</h1><div id="root"></div></main>
    <p id="landed" hidden></p>
    <script type="module" src="/page.js"></script>
  </body>
</html>`;

/** One script for the page, bundled from source (`entry` relative to this directory). */
export async function bundle(entry: string, format: 'esm' | 'iife' = 'esm'): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2022',
    conditions: ['@parley/source'],
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const pageErrors = new WeakMap<Page, string[]>();

/** Errors and warnings the page logged (React's warnings included): a test expects none. */
export function problemsOf(page: Page): string[] {
  return pageErrors.get(page) ?? [];
}

export interface Harness {
  origin: string;
  /** A fresh page (in its own context) with the test page loaded and ready. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/** Bundles the page, serves it and launches the browser: once per test file (`beforeAll`). */
export async function startHarness(): Promise<Harness> {
  const script = await bundle('./page.ts');
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE_HTML);
    } else {
      // Anything else is where a URL-mode request points: a page that says where it is.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>landed</title><p>landed on ${path}</p>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const found = await findBrowser();
  let browser: Browser;
  try {
    browser = await chromium.launch(launchOptions(found));
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    origin,
    async newPage(options = {}) {
      const context = await browser.newContext(options);
      // A locator that matches nothing fails in seconds, naming itself, not at the test's timeout.
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      const errors: string[] = [];
      pageErrors.set(page, errors);
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          errors.push(`console ${message.type()}: ${message.text()}`);
        }
      });
      await page.goto(`${origin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The harness of one test file: started before its tests and closed after them, so a file says
 * `const harness = useHarness();` once.
 */
export function useHarness(): Harness {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await started?.close();
  });
  const current = (): Harness => {
    if (started === undefined) throw new Error('the harness starts in beforeAll: use it in a test');
    return started;
  };
  return {
    get origin() {
      return current().origin;
    },
    newPage: (options) => current().newPage(options),
    close: () => current().close(),
  };
}

/** Renders `params` with `renderElicitation` in the page, waiting for the element to draw. */
export async function render(page: Page, params: ElicitRequestParams): Promise<void> {
  await page.evaluate((given) => window.forms.render(given), params);
  await page.waitForFunction(() => {
    const element = document.querySelector('parley-elicitation');
    return element?.shadowRoot?.querySelector('form, section') != null;
  });
}

/** The result `renderElicitation` resolved with (waits for it, 5 s at most). */
export async function result(page: Page): Promise<ElicitResult> {
  return page.evaluate(async () => {
    const late = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('renderElicitation did not resolve within 5 s')), 5_000),
    );
    return Promise.race([window.forms.result()!, late]);
  });
}

/** Whether `renderElicitation` has resolved yet, without waiting for it. */
export async function settled(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const pending = window.forms.result();
    const marker = Symbol('pending');
    const first = await Promise.race([pending, Promise.resolve(marker)]);
    return first !== marker;
  });
}

/** What a control's `aria-describedby` points at, as text (the ids resolved in its root). */
export async function describedText(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const root = element.getRootNode() as ShadowRoot | Document;
    return (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => root.getElementById(id)?.textContent?.trim() ?? `(no #${id})`)
      .join(' | ');
  });
}

/** The id of the element focused inside the form's shadow root (`''` for none). */
export async function focusedId(page: Page): Promise<string> {
  return page.evaluate(
    () => document.querySelector('parley-elicitation')?.shadowRoot?.activeElement?.id ?? '',
  );
}

/** The text of the error summary (`role="alert"`), whitespace collapsed. */
export async function summaryText(page: Page): Promise<string> {
  const text = await page.getByRole('alert').textContent();
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
