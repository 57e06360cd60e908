import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { findBrowser, launchOptions } from '../../../docs/test/browser.ts';
import { apps, playground } from '../../../scripts/apps.mjs';
import { formatCommand } from '../src/commandLine.ts';
import { shellQuote } from '../src/page/curl.ts';
import { HISTORY_KEY } from '../src/page/history.ts';
import { accessibilityProblems, saveScreenshot } from './pageChecks.ts';
import { startApp } from './processes.ts';

/**
 * The playground's tools beside the Inspector's, in headless Chromium against real apps: a stdio
 * server started from a typed command, the authorization header (through the forwarder, and
 * kept only when asked), the raw JSON-RPC pane, copy as curl (run by a real shell against the
 * real server), the history across a reload, and the two-column layout. Screenshots of each view
 * go to docs/public/playground-<view>.png.
 */

const run = promisify(execFile);
const booking = apps.find((app) => app.name === 'booking')!;
const reporting = apps.find((app) => app.name === 'reporting')!;
/** The command the guide shows, run in the repository (the playground's working directory). */
const bookingCommand = `node --conditions=@parley/source --import tsx ${booking.entry} --stdio`;
const exact = { exact: true };

let bookingUrl = '';
let reportingUrl = '';
let playgroundUrl = '';
let playgroundLog = '';
/** An HTTP hop in front of the booking app that notes each request's Authorization. */
let recorder: Server;
let recorderUrl = '';
const authorizations: (string | undefined)[] = [];
const children: ChildProcess[] = [];
let context: BrowserContext | undefined;
let profile = '';
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const [browser, bookingApp, reportingApp] = await Promise.all([
    findBrowser(),
    startApp(booking.entry, { BOOKING_PORT: '0' }),
    startApp(reporting.entry, { REPORTING_PORT: '0' }),
  ]);
  children.push(bookingApp.child, reportingApp.child);
  bookingUrl = bookingApp.url;
  reportingUrl = reportingApp.url;
  const upstream = new URL(bookingUrl);
  recorder = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    const hop = httpRequest(
      upstream,
      { method: request.method, headers: { ...request.headers, host: upstream.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    hop.on('error', () => response.destroy());
    request.pipe(hop);
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as { port: number }).port}/mcp`;
  const playgroundApp = await startApp(playground.entry, {
    PLAYGROUND_PORT: '0',
    PLAYGROUND_SERVERS: JSON.stringify([
      { name: 'booking', title: booking.title, url: bookingUrl },
    ]),
  });
  children.push(playgroundApp.child);
  playgroundApp.child.stderr?.on('data', (chunk: Buffer) => (playgroundLog += chunk.toString()));
  playgroundUrl = playgroundApp.url;
  profile = mkdtempSync(join(tmpdir(), 'parley-playground-tools-'));
  context = await chromium.launchPersistentContext(profile, {
    ...launchOptions(browser),
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(playgroundUrl).origin,
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
}, 120_000);

afterAll(async () => {
  await context?.close();
  recorder?.closeAllConnections();
  recorder?.close();
  for (const child of children) child.kill('SIGTERM');
  if (profile !== '') rmSync(profile, { recursive: true, force: true });
});

async function connectTo(target: string, era: string, stdio = false): Promise<void> {
  await page.getByLabel(stdio ? 'stdio (a command)' : 'HTTP (a URL)').check();
  await page.getByLabel(stdio ? 'Command' : 'URL', exact).fill(target);
  await page.getByLabel('Era', exact).selectOption(era);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByText(`Connected to ${target}: ${era} era`).waitFor();
}

/** Run book_flight on the connected server, answering each question by typing. */
async function bookFlight(): Promise<string> {
  await page.getByRole('button', { name: 'book_flight', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByLabel('Destination').fill('Lisbon');
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByLabel('Date').fill('2026-09-01');
  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByLabel('Passenger').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Accept' }).click();
  const result = page.locator('.call').first().locator('.result');
  await result.waitFor();
  return result.innerText();
}

/** The raw pane's entries, oldest first: direction and summary. */
async function rawEntries(): Promise<string[]> {
  return page.locator('#raw-log summary').allInnerTexts();
}

describe('a stdio server, from a command typed on the page', () => {
  test('the booking app over stdio: connected in both eras, book_flight answered on the page', async () => {
    await page.goto(playgroundUrl);
    for (const era of ['handshake', 'modern']) {
      await connectTo(bookingCommand, era, true);
      expect(await page.locator('#stderr').isVisible()).toBe(true);
      expect(await bookFlight()).toMatch(/Booked BK-\d{4}: Ada Lovelace to Lisbon on 2026-09-01/);
      expect(await page.getByLabel('URL', exact).isVisible()).toBe(false);
      if (era === 'modern') {
        await page.evaluate(() => window.scrollTo(0, 0));
        saveScreenshot('stdio', await page.screenshot({ fullPage: true }));
      }
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByText('Not connected.').waitFor();
    }
    expect(pageErrors).toEqual([]);
  });

  test('a command that cannot start, or that exits, is a sentence, with its stderr shown', async () => {
    await page.goto(playgroundUrl);
    await page.getByLabel('stdio (a command)').check();
    await page.getByLabel('Command', exact).fill('no-such-program-parley --stdio');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').first().innerText())
      .toContain('Could not start `no-such-program-parley --stdio`: there is no program');
    const exits = formatCommand([
      process.execPath,
      '-e',
      'console.error("the database is locked"); process.exit(4)',
    ]);
    await page.getByLabel('Command', exact).fill(exits);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect
      .poll(() => page.locator('#error').innerText())
      .toMatch(/exited with code 4; its last words on stderr: the database is locked/);
    expect(await page.locator('#stderr-log').innerText()).toContain('the database is locked');
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).isEnabled()).toBe(true);
    pageErrors.length = 0;
  });
});

describe('the authorization header', () => {
  test('reaches the server through the forwarder on every request, and is kept only when asked', async () => {
    await page.goto(playgroundUrl);
    await page.evaluate((key) => localStorage.removeItem(key), HISTORY_KEY);
    await page.getByLabel('Authorization header', exact).fill('Bearer s3cret-token');
    await connectTo(recorderUrl, 'modern');
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations.every((seen) => seen === 'Bearer s3cret-token')).toBe(true);
    const stored = await page.evaluate((key) => localStorage.getItem(key) ?? '', HISTORY_KEY);
    expect(stored).toContain(recorderUrl);
    expect(stored).not.toContain('s3cret');
    await page.getByRole('button', { name: 'Disconnect' }).click();

    await page.getByLabel('Remember it in this browser').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText(`Connected to ${recorderUrl}`).waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key) ?? '', HISTORY_KEY)).toContain(
      'Bearer s3cret-token',
    );
    // In a curl command only when asked for: then the server gets it from the shell too.
    const copyList = page
      .locator('#raw-log li', { hasText: 'request tools/list' })
      .last()
      .getByRole('button', { name: 'Copy as curl' });
    await copyList.click();
    expect(await page.getByLabel('curl command', exact).inputValue()).not.toContain('s3cret');
    await page.getByLabel('Put the authorization header in curl commands').check();
    await copyList.click();
    const command = await page.getByLabel('curl command', exact).inputValue();
    expect(command).toContain(`-H 'authorization: Bearer s3cret-token'`);
    authorizations.length = 0;
    expect((await run('sh', ['-c', command])).stdout).toContain('"book_flight"');
    expect(authorizations).toEqual(['Bearer s3cret-token']);
    // The playground writes no header to its log.
    expect(playgroundLog).not.toContain('s3cret');
    await page.getByRole('button', { name: 'Disconnect' }).click();
  });
});

describe('the raw JSON-RPC pane and copy as curl', () => {
  test('handshake era: every message in order, the server’s pushed requests from the event stream included', async () => {
    await page.goto(playgroundUrl);
    await connectTo(bookingUrl, 'handshake');
    await bookFlight();
    const entries = await rawEntries();
    const kinds = entries.map((entry) => entry.replace(/^\d\d:\d\d:\d\d\.\d{3} /, ''));
    expect(kinds.slice(0, 3)).toEqual([
      '→ sent request initialize #0',
      '← received response #0',
      '→ sent notification notifications/initialized',
    ]);
    const call = kinds.findIndex((kind) => /^→ sent request tools\/call/.test(kind));
    const rest = kinds.slice(call).filter((kind) => !/tools\/list|prompts|resources/.test(kind));
    expect(rest.filter((kind) => kind.includes('elicitation/create'))).toHaveLength(3);
    // Asked, answered, asked again: each pushed request followed by the page's response.
    const asked = rest.findIndex((kind) => kind.includes('elicitation/create'));
    expect(rest[asked + 1]).toMatch(/^→ sent response #/);
    expect(rest.at(-1)).toMatch(/^← received response #/);
    expect(entries.every((entry) => /^\d\d:\d\d:\d\d\.\d{3} [→←]/.test(entry))).toBe(true);
    // A handshake-era request's curl carries its session, and works while the session lives.
    await page
      .locator('#raw-log li', { hasText: 'request tools/list' })
      .first()
      .getByRole('button', { name: 'Copy as curl' })
      .click();
    const command = await page.getByLabel('curl command', exact).inputValue();
    expect(command).toMatch(/-H 'mcp-session-id: [^']+'/);
    expect((await run('sh', ['-c', command])).stdout).toContain('"book_flight"');
    await page.locator('#raw-log details').nth(call).locator('summary').click();
    // Written out when opened (the toggle event comes after the click).
    await expect
      .poll(() => page.locator('#raw-log pre').nth(call).innerText())
      .toContain('"book_flight"');
    saveScreenshot('raw', await page.locator('#raw').screenshot());
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  test('handshake era: the notifications a task sends while it works are listed as they come', async () => {
    await page.goto(playgroundUrl);
    await connectTo(reportingUrl, 'handshake');
    await page.getByRole('button', { name: 'annual_report', exact: true }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const notifications = page.locator('#raw-log li.received', { hasText: 'notification ' });
    await notifications.first().waitFor({ timeout: 15_000 });
    expect(await notifications.first().innerText()).toMatch(
      /← received notification notifications\//,
    );
    await page.getByRole('button', { name: 'Stop' }).click();
  });

  test('modern era: a request copied as curl runs in a shell against the real URL', async () => {
    await page.goto(playgroundUrl);
    await connectTo(bookingUrl, 'modern');
    const list = page.locator('#raw-log li', { hasText: 'request tools/list' }).first();
    await list.getByRole('button', { name: 'Copy as curl' }).click();
    const command = await page.getByLabel('curl command', exact).inputValue();
    expect(command).toContain(shellQuote(bookingUrl));
    expect(command).not.toContain('mcp-proxy');
    expect(command).toContain("-H 'mcp-protocol-version: 2026-07-28'");
    await expect
      .poll(() => page.locator('#curl-status').innerText())
      .toMatch(/Copied to the clipboard/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    const { stdout } = await run('sh', ['-c', command]);
    expect(stdout).toContain('"book_flight"');

    // The current call, with an argument a shell would trip on, quoted safely.
    await page.getByRole('button', { name: 'cancel_booking', exact: true }).click();
    await page.getByLabel('id').fill(`it's "BK-0"; $(rm -rf /)`);
    await page.locator('#call').getByRole('button', { name: 'Copy as curl' }).click();
    const call = await page.getByLabel('curl command', exact).inputValue();
    const answer = await run('sh', ['-c', call]);
    expect(answer.stdout).toContain(`No booking it's \\"BK-0\\"; $(rm -rf /).`);
  });
});

describe('the history, kept across a reload', () => {
  test('a call made is restored with one click after a reload, and Clear empties it', async () => {
    await page.goto(playgroundUrl);
    await connectTo(bookingUrl, 'modern');
    await page.getByRole('button', { name: 'cancel_booking', exact: true }).click();
    await page.getByLabel('id').fill('BK-4242');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('.call').first().locator('.result').waitFor();
    await page.reload();
    const calls = page.locator('#history-calls li');
    await expect.poll(() => calls.first().innerText()).toContain('cancel_booking {"id":"BK-4242"}');
    expect(await calls.first().innerText()).toContain(`on ${bookingUrl}: done`);
    expect(await page.locator('#history-servers li').first().innerText()).toContain(bookingUrl);
    saveScreenshot('history', await page.locator('#history').screenshot());
    await calls
      .first()
      .getByRole('button', { name: /^Restore/ })
      .click();
    await page.getByText(`Connected to ${bookingUrl}: modern era`).waitFor();
    await expect.poll(() => page.getByLabel('id').inputValue()).toBe('BK-4242');
    expect(await page.locator('#call-title').innerText()).toBe('Call cancel_booking');

    await page.getByRole('button', { name: 'Clear history' }).click();
    expect(await page.locator('#history li').count()).toBe(0);
    await page.reload();
    expect(await page.locator('#history li').count()).toBe(0);
  });
});

describe('the layout', () => {
  test('at 1280 px the question sits beside its context; below 1100 px one column; no serious axe problems', async () => {
    await page.goto(playgroundUrl);
    await connectTo(bookingUrl, 'modern');
    await page.getByRole('button', { name: 'book_flight', exact: true }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByLabel('Destination').waitFor();
    const call = (await page.locator('#call').boundingBox())!;
    const question = (await page.locator('#asks-section').boundingBox())!;
    expect(question.x).toBeGreaterThan(call.x + call.width);
    // The question is in view beside the call, not below the page's end.
    expect(question.y).toBeLessThan(900);
    expect(await accessibilityProblems(page)).toEqual([]);
    saveScreenshot('layout', await page.screenshot());

    await page.setViewportSize({ width: 900, height: 900 });
    const narrowCall = (await page.locator('#call').boundingBox())!;
    const narrowQuestion = (await page.locator('#asks-section').boundingBox())!;
    expect(narrowQuestion.x).toBe(narrowCall.x);
    expect(narrowQuestion.y).toBeGreaterThan(narrowCall.y);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(pageErrors.filter((error) => error.startsWith('page error'))).toEqual([]);
  });
});
