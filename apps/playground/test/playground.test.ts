import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { findBrowser, launchOptions } from '../../../docs/test/browser.ts';
import { apps, nodeArgs, playground, repoRoot } from '../../../scripts/apps.mjs';
import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../src/forwarderHeader.ts';
import { accessibilityProblems } from './pageChecks.ts';
import { closedPort, startApp } from './processes.ts';

/**
 * The playground for real: the booking app and the playground as child processes on
 * 127.0.0.1, and the page in headless Chromium, where a person connects to the booking app,
 * runs book_flight and answers each question by typing into the forms `@parley/forms` renders —
 * once in each era. The modern run's screenshot becomes docs/public/playground.png, written only
 * once both runs have passed.
 */

const screenshotPath = join(repoRoot, 'docs/public/playground.png');

const booking = apps.find((app) => app.name === 'booking')!;
const reporting = apps.find((app) => app.name === 'reporting')!;
const dualEra = apps.find((app) => app.name === 'dual-era')!;
let bookingUrl = '';
let reportingUrl = '';
let dualEraUrl = '';
let playgroundUrl = '';
const children: ChildProcess[] = [];
let context: BrowserContext | undefined;
let profile = '';
let page: Page;
const pageErrors: string[] = [];
let screenshot: Buffer | undefined;
/** The runs that passed: the screenshot is saved only when both did. */
const passed = new Set<string>();

beforeAll(async () => {
  const [browser, bookingApp, reportingApp, dualEraApp] = await Promise.all([
    findBrowser(),
    startApp(booking.entry, { BOOKING_PORT: '0' }),
    startApp(reporting.entry, { REPORTING_PORT: '0' }),
    startApp(dualEra.entry, { DUAL_ERA_PORT: '0' }),
  ]);
  children.push(bookingApp.child, reportingApp.child, dualEraApp.child);
  bookingUrl = bookingApp.url;
  reportingUrl = reportingApp.url;
  dualEraUrl = dualEraApp.url;
  const playgroundApp = await startApp(playground.entry, {
    PLAYGROUND_PORT: '0',
    PLAYGROUND_SERVERS: JSON.stringify([
      { name: 'booking', title: booking.title, url: bookingUrl },
      { name: 'reporting', title: reporting.title, url: reportingUrl },
    ]),
  });
  children.push(playgroundApp.child);
  playgroundUrl = playgroundApp.url;
  profile = mkdtempSync(join(tmpdir(), 'parley-playground-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    ...launchOptions(browser),
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
}, 120_000);

afterAll(async () => {
  await context?.close();
  for (const child of children) child.kill('SIGTERM');
  if (profile !== '') rmSync(profile, { recursive: true, force: true });
});

/** The header the page's own requests to the forwarder carry. */
const fromPage = { [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE };

describe('the forwarder', () => {
  test('a target that is not an http(s) URL is a 400 with a JSON error', async () => {
    for (const target of ['', 'not a url', 'file:///etc/passwd', 'ftp://127.0.0.1/mcp']) {
      const response = await fetch(
        `${playgroundUrl}mcp-proxy?target=${encodeURIComponent(target)}`,
        { method: 'POST', headers: fromPage, body: '{}' },
      );
      expect(response.status, target).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: string };
      expect(body.error, target).toMatch(/target/);
    }
  });

  test('a request from another site, or to another host name, is a 403: only the page may forward', async () => {
    const target = encodeURIComponent(bookingUrl);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const cases: [string, Record<string, string>, RegExp][] = [
      ['another origin', { origin: 'https://evil.example' }, /not https:\/\/evil\.example/],
      ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, /not a cross-site request/],
    ];
    for (const [name, headers, message] of cases) {
      const response = await fetch(`${playgroundUrl}mcp-proxy?target=${target}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...fromPage, ...headers },
        body,
      });
      expect(response.status, name).toBe(403);
      expect(((await response.json()) as { error: string }).error, name).toMatch(message);
    }
    // A rebound domain name reaches 127.0.0.1 with its own Host header (fetch may not set it).
    const { port } = new URL(playgroundUrl);
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/mcp-proxy?target=${target}`,
          method: 'POST',
          headers: {
            host: `rebound.example:${port}`,
            'content-type': 'application/json',
            ...fromPage,
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/not \\"rebound\.example/);
  });

  test('an unreachable target is a 502 that says which, and the playground keeps serving', async () => {
    const target = `http://127.0.0.1:${await closedPort()}/mcp`;
    const response = await fetch(`${playgroundUrl}mcp-proxy?target=${encodeURIComponent(target)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fromPage },
      body: '{}',
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toBe(
      `could not reach ${target}: ECONNREFUSED`,
    );
    expect((await fetch(playgroundUrl)).status).toBe(200);
  });

  test('the page lists the demo servers it was given', async () => {
    const config = (await (await fetch(`${playgroundUrl}config.json`)).json()) as unknown;
    expect(config).toEqual({
      servers: [
        { name: 'booking', title: booking.title, url: bookingUrl },
        { name: 'reporting', title: reporting.title, url: reportingUrl },
      ],
    });
  });
});

/** Connect the page to the booking app in `era` and run book_flight, answering by typing. */
async function bookFlight(era: 'modern' | 'handshake', { capture = false } = {}) {
  await page.goto(playgroundUrl);
  const exact = { exact: true };
  await expect.poll(() => page.getByLabel('Server', exact).inputValue()).toBe(bookingUrl);
  await expect.poll(() => page.getByLabel('URL', exact).inputValue()).toBe(bookingUrl);
  await page.getByLabel('Era', exact).selectOption(era);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByText(`Connected to ${bookingUrl}: ${era} era`).waitFor();

  await page.getByRole('button', { name: 'book_flight', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  await page.getByLabel('Destination').fill('Lisbon');
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByLabel('Date').fill('2026-09-01');
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByLabel('Passenger').fill('Ada Lovelace');
  if (capture) {
    screenshot = await page.screenshot({ fullPage: true });
    // Mid-call: the catalogue, the call, a question and the rounds so far, all on the page.
    expect(await accessibilityProblems(page)).toEqual([]);
  }
  await page.getByRole('button', { name: 'Accept' }).click();

  const call = page.locator('.call').first();
  await call.locator('.result').waitFor();
  return call;
}

test('a PLAYGROUND_PORT that is not a port is one line naming it, and exit 1', async () => {
  const child = spawn(process.execPath, nodeArgs(playground.entry), {
    cwd: repoRoot,
    env: { ...process.env, PLAYGROUND_PORT: 'abc' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(stderr).toBe(
    'playground: PLAYGROUND_PORT=abc is not a port: set it to a number from 0 to 65535 (0 picks a free one).\n',
  );
});

describe('the page, in Chromium, against the booking app', () => {
  test('modern era: three rounds, each carrying sealed state, then the booking', async () => {
    const call = await bookFlight('modern', { capture: true });
    await expect
      .poll(() => call.locator('.result').innerText())
      .toMatch(/Booked BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01/);
    expect(await call.getAttribute('data-state')).toBe('done');
    const rounds = call.locator('.round');
    expect(await rounds.count()).toBe(3);
    const sizes = await rounds.evaluateAll((items) =>
      items.map((item) => Number((item as HTMLElement).dataset.stateBytes)),
    );
    expect(sizes.every((size) => size > 0)).toBe(true);
    expect(await rounds.nth(0).innerText()).toContain('Where would you like to fly?');
    expect(await rounds.nth(0).innerText()).toContain(
      '{"action":"accept","content":{"destination":"Lisbon"}}',
    );
    expect(await rounds.nth(2).innerText()).toContain('"passenger":"Ada Lovelace"');
    // Each question went to the client's own form.
    expect(await rounds.locator('.route').allInnerTexts()).toEqual([
      'route: elicitation',
      'route: elicitation',
      'route: elicitation',
    ]);
    expect(await call.locator('.result').innerText()).toContain('isError: false');
    expect(pageErrors).toEqual([]);
    passed.add('modern');
  });

  test('handshake era: the same questions as pushed requests, no state, the same booking', async () => {
    const call = await bookFlight('handshake');
    await expect
      .poll(() => call.locator('.result').innerText())
      .toMatch(/Booked BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01/);
    const rounds = call.locator('.round');
    expect(await rounds.count()).toBe(3);
    expect(await rounds.nth(1).innerText()).toContain('When would you like to fly to Lisbon?');
    expect(await rounds.nth(0).innerText()).toContain('State: none (handshake era');
    expect(await rounds.locator('.route').allInnerTexts()).toEqual([
      'route: elicitation',
      'route: elicitation',
      'route: elicitation',
    ]);
    expect(pageErrors).toEqual([]);
    passed.add('handshake');
  });

  test('a declined question reaches the server as a decline', async () => {
    // Still connected in the handshake era from the test before.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByLabel('Destination').waitFor();
    await page.getByRole('button', { name: 'Decline' }).click();
    const call = page.locator('.call').first();
    await expect.poll(() => call.locator('.result').innerText()).toContain('Booking cancelled.');
    expect(await call.locator('.round').first().innerText()).toContain('{"action":"decline"}');
    expect(pageErrors).toEqual([]);
  });

  test('a server that cannot be reached is an error on the page, and the page stays usable', async () => {
    await page.goto(playgroundUrl);
    const target = `http://127.0.0.1:${await closedPort()}/mcp`;
    await page.getByLabel('URL', { exact: true }).fill(target);
    // Typing a URL of its own switches the menu to "another server".
    expect(await page.getByLabel('Server', { exact: true }).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing is listening' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(target);
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).isEnabled()).toBe(true);
    // The browser logged the failed requests; the page itself threw nothing.
    expect(pageErrors.filter((error) => error.startsWith('page error'))).toEqual([]);
    pageErrors.length = 0;
  });

  test('roots and sampling: the list editor and the reply editor answer one round', async () => {
    await page.goto(playgroundUrl);
    await page.getByLabel('Server', { exact: true }).selectOption(reportingUrl);
    await expect
      .poll(() => page.getByLabel('URL', { exact: true }).inputValue())
      .toBe(reportingUrl);
    await page.getByLabel('Era', { exact: true }).selectOption('modern');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('button', { name: 'summarize_workspace', exact: true }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    // Both asks of the round are shown at once.
    await page.getByLabel('Root URI').fill('not a root');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('A root is a file:// URI').waitFor();
    await page.getByLabel('Root URI').fill('file:///home/ada/analytics');
    await page.getByLabel('Root URI').press('Enter');
    await page.getByLabel('Root URI').fill('file:///tmp/scratch');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove file:///tmp/scratch' }).click();
    await page.getByRole('button', { name: 'Send roots' }).click();
    expect(await page.getByText('You are a concise financial analyst.').count()).toBe(1);
    await page.getByLabel('Reply', { exact: true }).fill('Revenue grew every quarter.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const call = page.locator('.call').first();
    await expect
      .poll(() => call.locator('.result').innerText())
      .toContain('Workspace: analytics. Model (unknown): Revenue grew every quarter.');
    const round = await call.locator('.round').first().innerText();
    expect(round).toContain('Roots');
    expect(round).toContain('Sampling: 1 message(s)');
    expect(pageErrors).toEqual([]);
  });

  test('the screenshot of the modern run is made for the docs', () => {
    expect([...passed].sort()).toEqual(['handshake', 'modern']);
    expect(screenshot).toBeDefined();
    // A PNG of the whole page (the signature, then a width of 1280 in the IHDR chunk).
    expect(screenshot!.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(screenshot!.readUInt32BE(16)).toBe(1280);
    // Into place only now, every run above having passed; and only when asked for, or missing,
    // so that running the tests leaves the working tree as it was.
    if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(screenshotPath)) {
      const partial = `${screenshotPath}.partial`;
      writeFileSync(partial, screenshot!);
      renameSync(partial, screenshotPath);
    }
  });
});

/** Connect the page to the booking app in `era` as the host `host` names, and choose book_flight. */
async function connectAs(era: 'modern' | 'handshake', host: string): Promise<void> {
  await page.goto(playgroundUrl);
  const exact = { exact: true };
  await expect.poll(() => page.getByLabel('URL', exact).inputValue()).toBe(bookingUrl);
  await page.getByLabel('Era', exact).selectOption(era);
  await page.getByLabel(host, exact).check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByText(`Connected to ${bookingUrl}: ${era} era`).waitFor();
  await page.getByRole('button', { name: 'book_flight', exact: true }).click();
}

describe('the page, in Chromium, as hosts that cannot ask', () => {
  for (const era of ['modern', 'handshake'] as const) {
    test(`${era} era: as a host that draws MCP Apps, book_flight is booked through parley_answer, each question labelled App`, async () => {
      await connectAs(era, 'Connect as a host that draws MCP Apps and cannot ask');
      await page.getByRole('button', { name: 'Run', exact: true }).click();

      // The App's form checks each field with the server's rules before anything is sent.
      const destination = page.getByLabel('Destination');
      await destination.fill('L');
      await page.getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => destination.getAttribute('aria-invalid')).toBe('true');
      await destination.fill('Lisbon');
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByLabel('Date').fill('2026-09-01');
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByLabel('Passenger').fill('Grace Hopper');
      // Mid-call: the host options, a question and the App rounds so far.
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('button', { name: 'Accept' }).click();

      const call = page.locator('.call').first();
      await expect
        .poll(() => call.locator('.result').innerText())
        .toMatch(/Booked BK-\d{4}: Grace Hopper to Lisbon on 2026-09-01/);
      const rounds = call.locator('.round');
      expect(await rounds.count()).toBe(3);
      expect(await rounds.locator('.route').allInnerTexts()).toEqual([
        'route: App',
        'route: App',
        'route: App',
      ]);
      // The refused "L" never reached the server; each round carried the App's sealed state.
      expect(await rounds.nth(0).innerText()).toContain(
        '{"action":"accept","content":{"destination":"Lisbon"}}',
      );
      expect(await rounds.nth(1).innerText()).toContain('When would you like to fly to Lisbon?');
      const sizes = await rounds.evaluateAll((items) =>
        items.map((item) => Number((item as HTMLElement).dataset.stateBytes)),
      );
      expect(sizes.every((size) => size > 0)).toBe(true);
      expect(pageErrors).toEqual([]);
    });
  }

  test('as a host that cannot ask at all, the questions are left to the conversation, then answered as arguments', async () => {
    await connectAs('modern', 'Connect as a host that cannot ask (no elicitation)');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const asked = page.locator('.call').first();
    await asked.locator('.result').waitFor();
    const questions = asked.locator('.result .conversation li');
    expect(await questions.count()).toBe(3);
    expect(await questions.locator('.route').allInnerTexts()).toEqual([
      'route: conversation',
      'route: conversation',
      'route: conversation',
    ]);
    expect(await questions.first().innerText()).toContain(
      'Where would you like to fly? route: conversation — run again with destination',
    );
    expect(await asked.locator('.result').innerText()).toContain('isError: true');
    expect(await accessibilityProblems(page)).toEqual([]);

    // The conversation's answers, as the tool's arguments.
    const form = page.locator('#call-arguments');
    await form.getByLabel('Destination').fill('Oslo');
    await form.getByLabel('Date').fill('2026-11-03');
    await form.getByLabel('Passenger').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const booked = page.locator('.call').first();
    await expect
      .poll(() => booked.locator('.result').innerText())
      .toMatch(/Booked BK-\d{4}: Ada Lovelace to Oslo on 2026-11-03/);
    expect(await booked.locator('.route').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe('the page, in Chromium, against the dual-era app (a URL typed in)', () => {
  for (const era of ['modern', 'handshake'] as const) {
    test(`${era} era: an answer the server would refuse is refused on the field, corrected, and the table booked`, async () => {
      await page.goto(playgroundUrl);
      await page.getByLabel('URL', { exact: true }).fill(dualEraUrl);
      await page.getByLabel('Era', { exact: true }).selectOption(era);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByText(`Connected to ${dualEraUrl}: ${era} era`).waitFor();
      await page.getByRole('button', { name: 'book_table', exact: true }).click();
      await page.getByRole('button', { name: 'Run', exact: true }).click();

      const people = page.getByRole('spinbutton', { name: 'People', exact: true });
      await people.fill('0');
      await page.getByRole('button', { name: 'Accept' }).click();
      // The server's own words (min 1), on the field, before anything is sent.
      await expect.poll(() => people.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('must be at least 1, got 0').count()).toBeGreaterThan(0);
      await people.fill('4');
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('radio', { name: '19:30', exact: true }).check();
      await page.getByRole('button', { name: 'Accept' }).click();

      const call = page.locator('.call').first();
      await expect
        .poll(() => call.locator('.result').innerText())
        .toContain('Table for 4 at 19:30 (reference T-4-1930)');
      expect(await call.locator('.round').count()).toBe(2);
      // The refused 0 never reached the server: the first round's answer is the 4.
      expect(await call.locator('.round').first().innerText()).toContain('"value":4');
      expect(pageErrors).toEqual([]);
    });
  }
});

describe('the page, in Chromium, against the reporting app: a prompt, a resource and a task', () => {
  /** Connect to the reporting app in `era`, choose `name` and run it. */
  async function run(era: 'modern' | 'handshake', name: string): Promise<void> {
    await page.goto(playgroundUrl);
    await page.getByLabel('Server', { exact: true }).selectOption(reportingUrl);
    await expect
      .poll(() => page.getByLabel('URL', { exact: true }).inputValue())
      .toBe(reportingUrl);
    await page.getByLabel('Era', { exact: true }).selectOption(era);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText(`Connected to ${reportingUrl}: ${era} era`).waitFor();
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
  }

  for (const era of ['modern', 'handshake'] as const) {
    test(`${era} era: the summarize prompt asks which quarter, then gives its messages`, async () => {
      await run(era, 'summarize');
      await page.getByRole('radio', { name: 'Q3 2026', exact: true }).check();
      await page.getByRole('button', { name: 'Accept' }).click();
      const call = page.locator('.call').first();
      await expect
        .poll(() => call.locator('.result').innerText())
        .toContain('Summarize the Q3 results for the leadership team.');
      expect(pageErrors).toEqual([]);
    });

    test(`${era} era: reading report://summary asks which quarter, then gives the report`, async () => {
      await run(era, 'Quarterly summary');
      await page.getByRole('radio', { name: 'Q2 2026', exact: true }).check();
      await page.getByRole('button', { name: 'Accept' }).click();
      const call = page.locator('.call').first();
      await expect
        .poll(() => call.locator('.result').innerText())
        .toContain('Revenue report for Q2');
      expect(pageErrors).toEqual([]);
    });
  }

  test('modern era: annual_report works through the quarters, asks how to present it, and reports', async () => {
    await run('modern', 'annual_report');
    // The two questions of the round, one after the other.
    await page.getByRole('radio', { name: 'US dollar', exact: true }).check({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Accept' }).click();
    await page
      .getByRole('radiogroup', { name: /^Breakdown/ })
      .getByRole('radio', { name: 'Yes', exact: true })
      .check();
    await page.getByRole('button', { name: 'Accept' }).click();
    const call = page.locator('.call').first();
    await expect
      .poll(() => call.locator('.result').innerText(), { timeout: 15_000 })
      .toMatch(/Annual report 2026: \d+k USD[\s\S]*Q4: \d+k USD/);
    expect(pageErrors).toEqual([]);
  });
});
