import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { findBrowser, launchOptions } from '../../../docs/test/browser.ts';
import { apps, playground } from '../../../scripts/apps.mjs';
import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../src/forwarderHeader.ts';
import { accessibilityProblems, saveScreenshot } from './pageChecks.ts';
import { closedPort, startApp } from './processes.ts';

/**
 * The playground's questions as a person meets them, in headless Chromium against the demo
 * apps as child processes: a yes/no the person must answer (never the form's default), the
 * question brought into view and focused, a task's progress and every round on the timeline,
 * asks labelled by key (by what they ask in the handshake era, where no key is on the wire),
 * sampling messages with their line breaks, resources by title, and a connection that fails
 * said in the terminal's sentence. Each view's screenshot goes to docs/public/playground-*.png.
 */

const WIDTH = 1280;
const HEIGHT = 900;
const reporting = apps.find((app) => app.name === 'reporting')!;
const dualEra = apps.find((app) => app.name === 'dual-era')!;
let reportingUrl = '';
let dualEraUrl = '';
let playgroundUrl = '';
const children: ChildProcess[] = [];
let context: BrowserContext | undefined;
let profile = '';
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const [browser, reportingApp, dualEraApp] = await Promise.all([
    findBrowser(),
    startApp(reporting.entry, { REPORTING_PORT: '0' }),
    startApp(dualEra.entry, { DUAL_ERA_PORT: '0' }),
  ]);
  children.push(reportingApp.child, dualEraApp.child);
  reportingUrl = reportingApp.url;
  dualEraUrl = dualEraApp.url;
  const playgroundApp = await startApp(playground.entry, {
    PLAYGROUND_PORT: '0',
    PLAYGROUND_SERVERS: JSON.stringify([
      { name: 'reporting', title: reporting.title, url: reportingUrl },
      { name: 'dual-era', title: dualEra.title, url: dualEraUrl },
    ]),
  });
  children.push(playgroundApp.child);
  playgroundUrl = playgroundApp.url;
  profile = mkdtempSync(join(tmpdir(), 'parley-playground-asks-'));
  context = await chromium.launchPersistentContext(profile, {
    ...launchOptions(browser),
    viewport: { width: WIDTH, height: HEIGHT },
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

const exact = { exact: true };

/** Connect the page to `url` (typed in) in `era`. */
async function connect(url: string, era: 'modern' | 'handshake'): Promise<void> {
  await page.goto(playgroundUrl);
  await page.getByLabel('URL', exact).fill(url);
  await page.getByLabel('Era', exact).selectOption(era);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByText(`Connected to ${url}: ${era} era`).waitFor();
}

async function choose(name: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
}

async function run(): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

/** The label of the control focused inside the form's shadow root, or `''`. */
function focusedLabel(): Promise<string> {
  return page.evaluate(() => {
    const form = document.activeElement;
    const inner = form?.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
    return inner?.labels?.[0]?.textContent?.trim() ?? '';
  });
}

describe('a yes/no question', () => {
  test('approve_expense: nothing chosen, in view and focused; Accept without a choice is refused in a sentence; No is sent as false', async () => {
    await connect(dualEraUrl, 'modern');
    await choose('approve_expense');
    await page.getByLabel('amount').fill('42');
    await page.getByLabel('purpose').fill('Team lunch');
    await run();

    const panel = page.locator('#asks .ask').first();
    const group = page.getByRole('radiogroup', { name: /^Approve/ });
    await group.waitFor();
    // The whole question in the window, and its first answer focused, neither chosen.
    await expect.poll(focusedLabel).toBe('Yes');
    const box = (await panel.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(HEIGHT);
    expect(await group.getByRole('radio', { checked: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('alert').getByText('Approve is required.').waitFor();
    const call = page.locator('.call').first();
    // Nothing was sent: the call still runs, with no round answered.
    expect(await call.getAttribute('data-state')).toBe('running');
    expect(await call.locator('.round').count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await panel.evaluate((element) => element.scrollIntoView({ block: 'nearest' }));
    saveScreenshot('yes-no', await page.screenshot(), WIDTH);

    await group.getByRole('radio', { name: 'No', exact: true }).check();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => call.locator('.result').innerText())
      .toContain("Expense of 42.00 EUR for 'Team lunch' rejected.");
    expect(await call.locator('.round').first().innerText()).toContain(
      '{"action":"accept","content":{"value":false}}',
    );
    expect(pageErrors).toEqual([]);
  });
});

describe('asks labelled by key, in both eras', () => {
  test('modern era: each ask by its key, in rounds of at most 10', async () => {
    await connect(dualEraUrl, 'modern');
    await choose('book_table');
    await run();
    await page.getByRole('spinbutton', { name: 'People', exact: true }).fill('2');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('radio', { name: '19:30', exact: true }).check();
    await page.getByRole('button', { name: 'Accept' }).click();
    const call = page.locator('.call').first();
    await call.locator('.result').waitFor();
    expect(await call.locator('.asked .key').allInnerTexts()).toEqual(['people', 'slot']);
    expect(await call.locator('.round h4').first().innerText()).toBe('Round 1 of at most 10');
  });

  test('handshake era: by the key the server sends, as in the modern era, never a JSON-RPC id that counts on across calls; no rounds', async () => {
    await connect(dualEraUrl, 'handshake');
    await choose('greet');
    for (const name of ['Ada', 'Grace']) {
      await run();
      await expect.poll(focusedLabel).toBe('Name');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      await page.getByRole('button', { name: 'Accept' }).click();
      await expect
        .poll(() => page.locator('.call').first().locator('.result').innerText())
        .toContain(`Hello, ${name}!`);
    }
    const calls = page.locator('.call');
    for (const index of [0, 1]) {
      const call = calls.nth(index);
      expect(await call.locator('.asked .key').allInnerTexts()).toEqual(['name']);
      expect(await call.locator('.answered .key').allInnerTexts()).toEqual(['name']);
      expect(await call.locator('.asked').innerText()).toContain("What's your name?");
      expect(await call.locator('.round h4').allInnerTexts()).toEqual(['Question 1']);
      expect(await call.locator('.result h4').innerText()).toBe('Result after 1 question');
      expect(await call.innerText()).not.toContain('of at most');
    }
    expect(await accessibilityProblems(page)).toEqual([]);
    await calls.first().scrollIntoViewIfNeeded();
    saveScreenshot('handshake-ask', await page.screenshot(), WIDTH);
    expect(pageErrors).toEqual([]);
  });
});

describe('the reporting app', () => {
  test('annual_report as a task: its progress as it comes, to the final state, and every round', async () => {
    await connect(reportingUrl, 'modern');
    await choose('annual_report');
    await run();
    const call = page.locator('.call').first();
    // Progress shows while the task works, before anything is asked.
    await call
      .locator('.task-progress li')
      .filter({ hasText: 'Task working: Compiling Q1 (0%)' })
      .waitFor();
    await page.getByRole('radio', { name: 'US dollar', exact: true }).check({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Accept' }).click();
    const breakdown = page.getByRole('radiogroup', { name: /^Breakdown/ });
    await breakdown.getByRole('radio', { name: 'No', exact: true }).check();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => call.locator('.result').innerText(), { timeout: 15_000 })
      .toMatch(/Annual report 2026: \d+k USD/);
    // Every round, the second (answered No) too, even when the task completed first.
    await expect.poll(() => call.locator('.round').count()).toBe(2);
    expect(await call.locator('.result h4').innerText()).toBe('Result after 2 rounds');
    expect(await call.locator('.round').nth(1).innerText()).toContain('"value":false');
    const progress = await call.locator('.task-progress li').allInnerTexts();
    expect(progress.slice(0, 5)).toEqual([
      'Task working',
      'Task working: Compiling Q1 (0%)',
      'Task working: Compiling Q2 (25%)',
      'Task working: Compiling Q3 (50%)',
      'Task working: Compiling Q4 (75%)',
    ]);
    expect(progress.at(-1)).toBe('Task completed');
    // Back at work after each answer, the task is not said to be compiling Q4 again.
    expect(progress.filter((line) => line === 'Task working: Compiling Q4 (75%)')).toHaveLength(1);
    expect(progress).toContain(
      'Task waiting for your answer: Waiting for an answer: Include the quarterly breakdown?',
    );
    expect(await accessibilityProblems(page)).toEqual([]);
    await call.scrollIntoViewIfNeeded();
    saveScreenshot('task', await page.screenshot(), WIDTH);
    expect(pageErrors).toEqual([]);
  });

  test('resources by their titles, the URI beside; sampling messages keep their line breaks', async () => {
    await connect(reportingUrl, 'modern');
    const resource = page.locator('#resources li').filter({ hasText: 'report://summary' });
    expect(await resource.getByRole('button').innerText()).toBe('Quarterly summary');
    expect(await resource.locator('.uri').innerText()).toBe('report://summary');

    await choose('summarize_workspace');
    await run();
    await page.getByRole('button', { name: 'Send roots' }).click();
    const message = page.locator('.sampling .messages .message-text').first();
    await message.waitFor();
    expect(await message.innerText()).toMatch(/^Summarize in one sentence:\nQ1: \d+k EUR\nQ2: /);
    await page.getByLabel('Reply', exact).fill('Fine.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.call').first().locator('.result').waitFor();
    expect(pageErrors).toEqual([]);
  });
});

describe('a connection that fails, in the terminal’s sentence', () => {
  async function failToConnect(url: string): Promise<string> {
    await page.goto(playgroundUrl);
    await page.getByLabel('URL', exact).fill(url);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const alert = page.locator('#error');
    await alert.waitFor();
    return alert.innerText();
  }

  test('nothing listening, a wrong path: about the server typed, not the forwarder', async () => {
    const port = await closedPort();
    const closed = `http://127.0.0.1:${port}/mcp`;
    // What the page reads it from: the forwarder's JSON error names the failure by its code.
    const forwarded = await fetch(
      `${playgroundUrl}mcp-proxy?target=${encodeURIComponent(closed)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE },
        body: '{}',
      },
    );
    expect(await forwarded.json()).toEqual({
      error: `could not reach ${closed}: ECONNREFUSED`,
      code: 'ECONNREFUSED',
    });

    expect(await failToConnect(closed)).toBe(
      `Nothing is listening at ${closed}: is the server running, and on port ${port}?`,
    );
    expect(await accessibilityProblems(page)).toEqual([]);
    saveScreenshot('connection-error', await page.screenshot(), WIDTH);

    const wrong = new URL('/wrong', dualEraUrl).href;
    expect(await failToConnect(wrong)).toBe(
      `${wrong} answered HTTP 404 Not Found: is /wrong the server's MCP endpoint? (it is often /mcp)`,
    );
    // The browser logged the failed requests; the page itself threw nothing.
    expect(pageErrors.filter((error) => error.startsWith('page error'))).toEqual([]);
  });
});
