/**
 * The examples of packages/forms/README.md, run in a real Chromium: the `renderElicitation`
 * page against a real Parley server served beside it (a whole booking, answered in the forms),
 * the custom element and the React component answering, and the stylesheet applied.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { build, type Plugin } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';

import { findBrowser, launchOptions } from '../../../test/browser.ts';
import { createServer as createBookingServer } from '../../elicitation/bookFlight.ts';
import { examplesRoot } from '../support.ts';

/** The client loads its stdio transport only for stdio targets, which a page never has. */
const noStdio: Plugin = {
  name: 'no-stdio',
  setup(bundler) {
    bundler.onResolve(
      { filter: /^@modelcontextprotocol\/client\/stdio$/ },
      (args) => ({ path: args.path, namespace: 'no-stdio' }),
    );
    bundler.onLoad({ filter: /.*/, namespace: 'no-stdio' }, () => ({
      contents: 'export class StdioClientTransport {}',
      loader: 'js',
    }));
  },
};

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [`${examplesRoot}/${entry}`],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@parley/source'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'silent',
    plugins: [noStdio],
  });
  return result.outputFiles[0]!.text;
}

const page = (script: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>forms</title>
  <link rel="stylesheet" href="/theme.css" /></head>
  <body><div id="question"></div><p id="result"></p>
  <script type="module" src="/${script}"></script></body>
</html>`;

let server: Server;
let origin: string;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  const scripts: Record<string, string> = {
    '/client.js': await bundle('readme/forms/renderElicitation.ts'),
    '/parts.js': await bundle('test/readme/formsPage.ts'),
  };
  const theme = readFileSync(
    join(examplesRoot, 'readme/forms/theme.css'),
    'utf8',
  );
  const mcp = createBookingServer().nodeHandler();
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/mcp') return void mcp(request, response);
    const script = scripts[path];
    if (script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return void response.end(script);
    }
    if (path === '/theme.css') {
      response.writeHead(200, { 'content-type': 'text/css' });
      return void response.end(theme);
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page(path === '/client' ? 'client.js' : 'parts.js'));
  });
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', resolve),
  );
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(launchOptions(await findBrowser()));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  const opened = await context.newPage();
  opened.on('pageerror', (error) => problems.push(error.message));
  await opened.goto(`${origin}${path}`);
  return opened;
}

test('readme/forms/renderElicitation.ts: a booking answered in the forms', async () => {
  const client = await open('/client');
  await client.getByRole('textbox', { name: 'Destination' }).fill('Paris');
  await client.getByRole('button', { name: 'Accept' }).click();
  await client.getByLabel('Date').fill('2026-08-01');
  await client.getByRole('button', { name: 'Accept' }).click();
  await expect
    .poll(() => client.locator('#result').textContent())
    .toBe('"Booked a flight to Paris on 2026-08-01"');
  expect(problems).toEqual([]);
}, 60_000);

const question: Parameters<Window['readmeForms']['show']>[0] = {
  mode: 'form',
  message: "What's your name?",
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name' } },
    required: ['name'],
  },
};

test('readme/forms/element.ts and readme/forms/Question.tsx answer; readme/forms/theme.css styles them', async () => {
  const parts = await open('/parts');
  await parts.waitForSelector('body[data-ready="true"]', {
    state: 'attached',
  });

  await parts.evaluate(
    (params) => window.readmeForms.show(params),
    question,
  );
  await parts.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await parts.getByRole('button', { name: 'Accept' }).click();

  await parts.evaluate(
    (params) => window.readmeForms.showReact(params),
    question,
  );
  // The element answers once and stays on the page: the React one is the second, once React
  // has rendered it.
  await expect
    .poll(() => parts.locator('parley-elicitation').count())
    .toBe(2);
  await parts
    .locator('parley-elicitation')
    .nth(1)
    .getByRole('button', { name: 'Decline' })
    .click();
  await expect
    .poll(() => parts.evaluate(() => window.readmeForms.answers()))
    .toEqual([
      { action: 'accept', content: { name: 'Ada' } },
      { action: 'decline' },
    ]);

  await parts.evaluate(() =>
    window.readmeForms.show({
      mode: 'url',
      message: 'Sign in to your bank',
      url: 'https://bank.example/login',
      elicitationId: 'sign-in',
    }),
  );
  const styles = await parts.evaluate(() => {
    const element = [...document.querySelectorAll('parley-elicitation')].at(
      -1,
    )!;
    const domain = element.shadowRoot!.querySelector('[part~="domain"]')!;
    return {
      accent: getComputedStyle(element)
        .getPropertyValue('--parley-accent')
        .trim(),
      domainFont: getComputedStyle(domain).fontFamily,
    };
  });
  expect(styles).toEqual({
    accent: '#7c3aed',
    domainFont: 'ui-monospace, monospace',
  });
  expect(problems).toEqual([]);
}, 60_000);
