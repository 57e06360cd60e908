/**
 * Builds the site exactly as `pnpm docs:build` does (typedoc, then VitePress), serves it on
 * 127.0.0.1, and crawls it in headless Chromium from the start page, following every internal
 * link: a missing page or anchor, a console error, or a page without content fails the test. The
 * elicitation page is saved as a screenshot in docs/.artifacts/. Which Chromium: see browser.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';

import { findBrowser, launchOptions } from './browser.ts';

const docsRoot = fileURLToPath(new URL('..', import.meta.url));
/** Not `.vitepress/dist`, so the test never replaces the output of a `pnpm docs:build`. */
const outDir = join(docsRoot, 'node_modules/.site-test');
const screenshot = join(docsRoot, '.artifacts/elicitation.png');
const require = createRequire(join(docsRoot, 'package.json'));

function bin(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), bins[name]!);
}

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: docsRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** A static server with VitePress's clean URLs: `/guide/x` is `guide/x.html`, 404s are 404. */
function serve(root: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const candidates = path.endsWith('/')
      ? [join(root, path, 'index.html')]
      : [join(root, path), join(root, `${path}.html`)];
    const file = candidates.find(
      (candidate) =>
        candidate.startsWith(root) && existsSync(candidate) && statSync(candidate).isFile(),
    );
    if (file === undefined) {
      response.writeHead(404, { 'content-type': contentTypes['.html']! });
      response.end(
        existsSync(join(root, '404.html')) ? readFileSync(join(root, '404.html')) : 'Not found',
      );
      return;
    }
    response.writeHead(200, {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
    });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      resolve({ server, origin: `http://127.0.0.1:${address.port}` });
    }),
  );
}

/**
 * What is wrong with the code blocks on the page in view: a block of lines no longer than
 * `fitColumns` (the examples' print width) that does not fit its column, a longer one that does
 * not scroll, quoted output that does not wrap, or a page wider than the window.
 */
async function codeBlockProblems(
  page: Page,
  path: string,
  { fitColumns = 76 }: { fitColumns?: number } = {},
): Promise<string[]> {
  const blocks = await page.$$eval('.vp-doc div[class*="language-"] pre', (pres) =>
    pres.map((pre) => ({
      language: /language-(\w+)/.exec(pre.parentElement?.className ?? '')?.[1] ?? '',
      longest: Math.max(...(pre.textContent ?? '').split('\n').map((line) => line.length)),
      fits: pre.scrollWidth <= pre.clientWidth,
      scrolls: ['auto', 'scroll'].includes(getComputedStyle(pre).overflowX),
    })),
  );
  const pageWidth = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  const problems = blocks.flatMap((block, index) => {
    const where = `${path} block ${index + 1} (${block.language}, ${block.longest} columns)`;
    if (block.language === 'txt' && !block.fits) return [`${where}: quoted output does not wrap`];
    if (block.longest <= fitColumns && !block.fits) return [`${where}: does not fit`];
    if (!block.fits && !block.scrolls) return [`${where}: neither fits nor scrolls`];
    return [];
  });
  if (pageWidth.page > pageWidth.window)
    problems.push(
      `${path}: the page is ${pageWidth.page}px wide in a ${pageWidth.window}px window`,
    );
  return problems;
}

let server: Server | undefined;
let origin = '';
let context: BrowserContext | undefined;
let profile = '';

beforeAll(async () => {
  const browser = await findBrowser();
  await run([bin('typedoc', 'typedoc'), '--options', 'typedoc.json', '--logLevel', 'Error']);
  await run([bin('vitepress', 'vitepress'), 'build', '--outDir', outDir]);
  ({ server, origin } = await serve(outDir));
  profile = mkdtempSync(join(tmpdir(), 'parley-docs-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    ...launchOptions(browser),
    viewport: { width: 1280, height: 900 },
  });
}, 240_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (profile !== '') rmSync(profile, { recursive: true, force: true });
});

test('every page is reachable from the start page, has content, logs no error and links nowhere broken', async () => {
  const page = await context!.newPage();
  const errors: string[] = [];
  let current = '';
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${current}: console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${current}: page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Leaving a page aborts the chunks VitePress was prefetching for its links: not an error.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    errors.push(`${current}: request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      errors.push(`${current}: HTTP ${response.status()} for ${response.url()}`);
  });

  const visited = new Map<string, { ids: Set<string>; words: number }>();
  const queue: { path: string; from: string }[] = [{ path: '/', from: '(start)' }];
  const anchors: { path: string; id: string; from: string }[] = [];
  const broken: string[] = [];
  const codeProblems: string[] = [];

  while (queue.length > 0) {
    const { path, from } = queue.shift()!;
    if (visited.has(path)) continue;
    current = path;
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    if (response?.status() !== 200) {
      broken.push(`${from} → ${path}: HTTP ${response?.status()}`);
      visited.set(path, { ids: new Set(), words: 0 });
      continue;
    }
    if (!path.startsWith('/api/')) codeProblems.push(...(await codeBlockProblems(page, path)));
    const { ids, text, links, notFound } = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
      text: (document.querySelector('.VPContent') as HTMLElement | null)?.innerText ?? '',
      links: [...document.querySelectorAll('a[href]')].map(
        (anchor) => (anchor as HTMLAnchorElement).href,
      ),
      notFound: document.querySelector('.NotFound') !== null,
    }));
    if (notFound) broken.push(`${from} → ${path}: VitePress "page not found"`);
    visited.set(path, { ids: new Set(ids), words: text.split(/\s+/).filter(Boolean).length });
    for (const link of links) {
      const url = new URL(link);
      if (url.origin !== origin) continue;
      const target = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
      if (url.hash.length > 1)
        anchors.push({ path: target, id: decodeURIComponent(url.hash.slice(1)), from: path });
      if (!visited.has(target)) queue.push({ path: target, from: path });
    }
    if (path === '/guide/elicitation') {
      mkdirSync(dirname(screenshot), { recursive: true });
      await page.screenshot({ path: screenshot });
    }
  }
  await page.close();

  for (const { path, id, from } of anchors) {
    if (visited.get(path)?.ids.has(id) === false)
      broken.push(`${from} → ${path}#${id}: no such anchor`);
  }
  const empty = [...visited]
    .filter(([, { words }]) => words < 40)
    .map(([path, { words }]) => `${path} (${words} words)`);

  expect([...new Set(broken)], 'broken internal links').toEqual([]);
  expect(errors, 'console errors').toEqual([]);
  expect(codeProblems, 'code blocks that neither fit nor scroll').toEqual([]);
  expect(empty, 'pages without content').toEqual([]);
  // Every hand-written page and every package's API page was reached.
  expect([...visited.keys()]).toEqual(
    expect.arrayContaining([
      '/',
      ...[
        'getting-started',
        'elicitation',
        'middleware',
        'tasks',
        'client',
        'deployment',
        'security',
        'testing',
        'troubleshooting',
        'coming-from-fastmcp',
        'coming-from-the-sdk',
      ].map((name) => `/guide/${name}`),
      '/api/',
      ...[
        'server',
        'client',
        'cli',
        'forms',
        'middleware',
        'core',
        'schema',
        'state-sealing',
        'redis',
        'testing',
      ].map((name) => `/api/${name}`),
    ]),
  );
});

test('on a phone, code blocks scroll inside the page and quoted output wraps', async () => {
  const page = await context!.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const problems: string[] = [];
  for (const path of ['/', '/guide/getting-started', '/guide/elicitation', '/guide/client']) {
    await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    problems.push(...(await codeBlockProblems(page, path, { fitColumns: 0 })));
  }
  await page.close();
  expect(problems).toEqual([]);
});

test('the elicitation page was saved as a screenshot', () => {
  expect(existsSync(screenshot)).toBe(true);
  expect(statSync(screenshot).size).toBeGreaterThan(20_000);
});
