import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { NODE_FROM_SOURCE, repoRoot, startApp, type RunningApp } from './helpers/demoApps.ts';
import { openTerminal, type PseudoTerminal } from './helpers/pseudoTerminal.ts';

/**
 * `parley` used as a person uses it: the real command in a real pseudo-terminal (from npm, so
 * nothing needs installing), against the demo apps running as their own processes, typed key by
 * key, checked by what the screen shows.
 */

const CLI = `${repoRoot}packages/cli/src/main.ts`;

// clack's marks: the active prompt, and a prompt whose input is refused.
const ACTIVE = '◆';
const REFUSED = '▲';
const HINT = 'Ctrl-D declines · Esc cancels';

let booking: RunningApp;
let reporting: RunningApp;
const terminals: PseudoTerminal[] = [];

beforeAll(async () => {
  [booking, reporting] = await Promise.all([startApp('booking'), startApp('reporting')]);
}, 60_000);

afterEach(async () => {
  await Promise.all(terminals.splice(0).map((terminal) => terminal.kill()));
});

afterAll(async () => {
  await Promise.all([booking?.stop(), reporting?.stop()]);
});

function parley(...args: string[]): PseudoTerminal {
  const terminal = openTerminal([process.execPath, ...NODE_FROM_SOURCE, CLI, ...args], {
    cwd: repoRoot,
    columns: 100,
  });
  terminals.push(terminal);
  return terminal;
}

/** The screen from the last time `marker` was drawn: what is on it now, below that. */
function after(screen: string, marker: string): string {
  const at = screen.lastIndexOf(marker);
  return at === -1 ? '' : screen.slice(at);
}

/** Wait until `prompt` is the prompt being answered. */
function promptOpen(terminal: PseudoTerminal, prompt: string): Promise<string> {
  return terminal.waitFor(`the open prompt "${prompt}"`, (screen) =>
    screen.includes(`${ACTIVE}  ${prompt}`),
  );
}

async function exited(terminal: PseudoTerminal, code: number): Promise<string> {
  expect(await terminal.exited).toBe(code);
  return terminal.screen();
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('parley call in a terminal', () => {
  test('book_flight: three rounds typed in, a typo fixed, a refusal fixed, the booking printed', async () => {
    const terminal = parley('call', booking.url, 'book_flight');

    // The question, the keys that leave it, and the first field open at once: no menu first.
    const first = await promptOpen(
      terminal,
      'Destination · City or airport · at least 2 characters',
    );
    expect(after(first, 'book_flight asks (round 1)')).toMatch(
      new RegExp(`Where would you like to fly\\?\\n.*${HINT}`),
    );
    await terminal.type('P');
    await terminal.press('Enter');
    // Too short: the reason appears under the field, which stays open with what was typed.
    await terminal.waitFor(
      'the refusal of "P"',
      (screen) =>
        screen.includes(`${REFUSED}  Destination`) &&
        screen.includes('Destination must be at least 2 characters long, got 1'),
    );
    await terminal.type('aros');
    await terminal.press('Backspace', 'Backspace', 'Backspace');
    await terminal.type('ris');
    await terminal.press('Enter');

    await promptOpen(terminal, 'Date · Departure date (YYYY-MM-DD)');
    await terminal.type('2026-08-01');
    await terminal.press('Enter');

    await promptOpen(terminal, 'Passenger · Full name as on the passport');
    await terminal.type('Ada Lovelace');
    await terminal.press('Enter');
    // The confirm's default (yes) is pre-selected: Enter keeps it.
    await promptOpen(terminal, 'Book it · Book this flight');
    await terminal.waitFor('the default yes', (screen) =>
      /● Yes/.test(after(screen, 'Book it · Book this flight')),
    );
    await terminal.press('Enter');

    const screen = await exited(terminal, 0);
    for (const shown of [
      'parley call book_flight',
      `Connected to ${booking.url}`,
      'modern era, MCP 2026-07-28',
      'book_flight asks (round 1)',
      'book_flight asks (round 2)',
      'When would you like to fly to Paris?',
      'book_flight asks (round 3)',
      'Book a flight to Paris on 2026-08-01? Who is travelling?',
    ]) {
      expect(screen).toContain(shown);
    }
    expect(screen).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01$/m);
  }, 120_000);

  test('the screen of a question is the one the README shows', async () => {
    const terminal = parley('call', booking.url, 'book_flight');
    await promptOpen(terminal, 'Destination · City or airport');
    await terminal.type('Paris');
    const screen = await terminal.waitFor('"Paris" typed', (shown) => shown.includes('Paris█'));
    const readme = readFileSync(repoRoot + 'docs/examples/readme/cli/question.screen.txt', 'utf8');
    const port = new URL(booking.url).port;
    expect(screen.trimEnd()).toBe(readme.replace(':3001/', `:${port}/`).trimEnd());
  }, 120_000);

  test('Ctrl-D on a question declines it; the tool carries on without the answer', async () => {
    const terminal = parley('call', booking.url, 'book_flight');
    await promptOpen(terminal, 'Destination · City or airport');
    await terminal.press('C-d');
    const screen = await exited(terminal, 0);
    expect(after(screen, 'Where would you like to fly?')).toMatch(
      /Declined\.[\s\S]*^Booking cancelled\.$/m,
    );
  }, 120_000);

  test('Esc on a question cancels it', async () => {
    const terminal = parley('call', booking.url, 'book_flight');
    await promptOpen(terminal, 'Destination · City or airport');
    await terminal.type('Par');
    await terminal.press('Escape');
    const screen = await exited(terminal, 0);
    expect(after(screen, 'Where would you like to fly?')).toMatch(
      /Cancelled\.[\s\S]*^Booking cancelled\.$/m,
    );
    expect(screen).not.toContain('Declined.');
  }, 120_000);

  test('limits are shown before they are broken; a list is chosen with the arrow keys', async () => {
    const terminal = parley('call', booking.url, 'plan_meeting');
    await promptOpen(terminal, 'Title');
    await terminal.type('Standup');
    await terminal.press('Enter');
    await promptOpen(terminal, 'Minutes · whole number, 5–480');
    await terminal.type('2');
    await terminal.press('Enter');
    await terminal.waitFor('the refusal of 2', (screen) =>
      screen.includes('Minutes must be at least 5, got 2'),
    );
    await terminal.press('Backspace');
    await terminal.type('15');
    await terminal.press('Enter');
    await promptOpen(terminal, 'Urgent');
    await terminal.press('Down', 'Enter');
    const screen = await exited(terminal, 0);
    expect(screen).toMatch(/^Meeting 'Standup' for 15 minutes \(Urgent: false\)$/m);
  }, 120_000);

  test('a required argument left off the command line is asked for, and checked', async () => {
    const terminal = parley('call', booking.url, 'cancel_booking');
    const asked = await promptOpen(terminal, 'id · Booking id, e.g. BK-0001');
    expect(asked).toContain('cancel_booking needs an argument');
    expect(asked).toContain('Not on the command line: id.');
    await terminal.press('Enter');
    await terminal.waitFor('the refusal of nothing', (screen) => screen.includes('id is required'));
    await terminal.type('BK-9999');
    await terminal.press('Enter');
    const screen = await exited(terminal, 0);
    expect(screen).toMatch(/^No booking BK-9999\.$/m);
  }, 120_000);
});

describe('listing and failing in a terminal', () => {
  test('parley prompts and parley resources list what the server offers', async () => {
    const prompts = parley('prompts', reporting.url);
    expect(await exited(prompts, 0)).toContain('summarize  Summarize a quarter (asks which one).');
    const resources = parley('resources', reporting.url);
    const screen = await exited(resources, 0);
    expect(screen).toContain('report://summary  Quarterly summary · (text/plain)');
    expect(screen).toContain('Resource templates (read them with the {variables} filled in):');
    expect(screen).toContain('report://{quarter}/revenue  Revenue of one quarter · (text/plain)');
  }, 120_000);

  test('an unreachable server: what to check, and exit 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const terminal = parley('call', url, 'book_flight');
    const screen = await exited(terminal, 1);
    expect(screen).toContain(`Nothing is listening at ${url}: is the server running`);
    expect(screen).not.toMatch(/ECONNREFUSED|fetch failed|Version negotiation/);
  }, 120_000);
});

test('a reader that stops reading (parley tools … | head -1) ends parley quietly', async () => {
  const child = spawn(process.execPath, [...NODE_FROM_SOURCE, CLI, 'tools', booking.url], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // Like `head -1` that has its line already: the pipe is closed before parley writes to it.
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(stderr).not.toMatch(/EPIPE|Unhandled/);
  expect(code).toBe(0);
}, 60_000);

test('stdout carries the result alone: nothing of the SDK’s narration', async () => {
  const fixture = `${repoRoot}packages/cli/test/fixtures/cornerCasesServer.ts`;
  const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        ...NODE_FROM_SOURCE,
        CLI,
        'prompts',
        '--mode',
        'handshake',
        '--',
        process.execPath,
        ...NODE_FROM_SOURCE,
        fixture,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('exit', (exitCode) => resolve({ stdout: out, code: exitCode }));
  });
  expect(code).toBe(0);
  expect(stdout).toBe('The server lists no prompts.\n');
}, 60_000);
