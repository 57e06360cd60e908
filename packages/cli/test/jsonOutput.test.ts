import { spawn } from 'node:child_process';

import { Client } from '@parley/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { NODE_FROM_SOURCE, repoRoot, startApp, type RunningApp } from './helpers/demoApps.ts';
import { parley } from './helpers/runParley.ts';

/**
 * `parley … --json`: stdout is the result as one JSON document, the object `@parley/client`
 * returns, and everything else goes to stderr. And arguments a tool does not declare are refused
 * before anything is called. Against the booking demo app, a real Parley server on 127.0.0.1.
 */

const CLI = `${repoRoot}packages/cli/src/main.ts`;

let booking: RunningApp;

beforeAll(async () => {
  booking = await startApp('booking');
}, 60_000);

afterAll(async () => {
  await booking?.stop();
});

/** The real `parley` command as a child process, stdin not a terminal, both streams kept apart. */
function runParley(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_FROM_SOURCE, CLI, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A client that declares elicitation, as parley does, so the server lists the same tools. */
async function connectedClient(): Promise<Client> {
  const client = new Client(booking.url, { elicitationHandler: () => ({ action: 'decline' }) });
  await client.connect();
  return client;
}

/** What `@parley/client` returns for the same call, as JSON would carry it. */
async function clientResult(tool: string, args: Record<string, unknown>): Promise<unknown> {
  const client = await connectedClient();
  try {
    return JSON.parse(JSON.stringify(await client.callTool(tool, args)));
  } finally {
    await client.close();
  }
}

describe('--json', () => {
  test('parley call … --json > result.json: stdout is the result as JSON, the rest is on stderr', async () => {
    const { code, stdout, stderr } = await runParley(
      'call',
      booking.url,
      'cancel_booking',
      'id=BK-9999',
      '--json',
    );
    expect(code).toBe(0);
    expect(stdout.endsWith('}\n')).toBe(true);
    const printed = JSON.parse(stdout) as unknown;
    expect(printed).toEqual(await clientResult('cancel_booking', { id: 'BK-9999' }));
    expect(printed).toMatchObject({
      content: [{ type: 'text', text: 'No booking BK-9999.' }],
      isError: false,
    });
    expect(stderr).toContain(`Connected to ${booking.url}`);
    expect(stderr).toContain('Result');
  }, 60_000);

  test('without --json the same call prints text, as before', async () => {
    const { code, stdout } = await runParley('call', booking.url, 'cancel_booking', 'id=BK-9999');
    expect(code).toBe(0);
    expect(stdout).toBe('No booking BK-9999.\n');
  }, 60_000);

  test('questions are answered on stderr; stdout still gets only the JSON result', async () => {
    const { code, stdout, screen } = await parley(
      ['call', booking.url, 'book_flight', '--json'],
      ['Paris', '2026-08-01', 'Ada Lovelace', true],
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { content: { text: string }[]; isError: boolean };
    expect(result.isError).toBe(false);
    expect(result.content[0]!.text).toMatch(/^Booked BK-\d+: Ada Lovelace to Paris on 2026-08-01$/);
    expect(screen).toContain('question: book_flight asks (round 1)');
  });

  test('a result with isError is printed as JSON too, and exits 1', async () => {
    const { code, stdout } = await parley(
      ['call', booking.url, 'book_flight', '--no-elicitation', '--json'],
      [],
      { interactive: false },
    );
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('- destination: Where would you like to fly?');
  });

  test('a failure leaves stdout empty and says why on stderr', async () => {
    const { code, stdout, stderr } = await runParley('call', booking.url, 'book_hotel', '--json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('The server has no tool "book_hotel"');
  }, 60_000);

  test('parley tools --json: the tools as the client lists them', async () => {
    const { code, stdout } = await parley(['tools', booking.url, '--json']);
    expect(code).toBe(0);
    const client = await connectedClient();
    const tools = await client.listTools();
    await client.close();
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify({ tools })));
  });
});

describe('arguments the tool does not declare', () => {
  test('are refused with the tool’s real arguments, exit 2, nothing called', async () => {
    const { code, stdout, stderr } = await runParley(
      'call',
      booking.url,
      'cancel_booking',
      'id=BK-0001',
      'foo=bar',
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'cancel_booking has no argument foo; its arguments are: id (string, required).',
    );
  }, 60_000);

  test('in --args too, and a tool without arguments says it takes none', async () => {
    const fromJson = await parley([
      'call',
      booking.url,
      'cancel_booking',
      '--args',
      '{"id":"BK-0001","ID":1,"note":"x"}',
    ]);
    expect(fromJson.code).toBe(2);
    expect(fromJson.stdout).toBe('');
    expect(fromJson.screen).toContain(
      'error: cancel_booking has no arguments ID, note; its arguments are: id (string, required).',
    );
    const none = await parley(['call', booking.url, 'list_bookings', 'all=true']);
    expect(none.code).toBe(2);
    expect(none.screen).toContain(
      'error: list_bookings has no argument all; it takes no arguments.',
    );
  });
});
