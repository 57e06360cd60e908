import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, expect, test } from 'vitest';

import { nodeArgs } from '../../../scripts/apps.mjs';

/**
 * The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector`, pinned in this package) is a
 * host that declares no elicitation. It books a flight with the booking app (a real process on
 * 127.0.0.1) through the `'arguments'` fallback: the questions come back as arguments to send,
 * and a call with them books.
 */

const run = promisify(execFile);
const inspector = fileURLToPath(
  new URL(
    '../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
    import.meta.url,
  ),
);

let url = '';
let app: ChildProcess | undefined;

beforeAll(async () => {
  app = spawn(process.execPath, nodeArgs('apps/booking/src/main.ts'), {
    env: { ...process.env, BOOKING_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    app!.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /serving (http:\/\/\S+)/.exec(seen)?.[1];
      if (found !== undefined) resolve(found);
    });
    app!.once('exit', (code) => reject(new Error(`the booking app exited (${code}): ${seen}`)));
  });
}, 60_000);

afterAll(() => {
  app?.kill('SIGTERM');
});

/**
 * One Inspector CLI command against the app: its JSON output, and its exit code (the CLI exits
 * 5, `tool_is_error`, on an `isError` result, and still prints the result).
 */
async function inspect(...args: string[]): Promise<Record<string, unknown> & { exitCode: number }> {
  let stdout: string;
  let exitCode = 0;
  try {
    ({ stdout } = await run(
      process.execPath,
      [inspector, '--cli', url, '--transport', 'http', ...args],
      {
        timeout: 60_000,
      },
    ));
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string };
    if (failed.code !== 5 || failed.stdout === undefined) throw error;
    ({ stdout } = failed as { stdout: string });
    exitCode = 5;
  }
  return {
    ...(JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>),
    exitCode,
  };
}

function textOf(result: Record<string, unknown>): string {
  return (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
}

test('the Inspector is listed book_flight with the answers as optional arguments, and not the tools only the user may confirm', async () => {
  const { tools } = (await inspect('--method', 'tools/list')) as unknown as {
    tools: { name: string; inputSchema: { properties?: object; required?: string[] } }[];
  };
  const names = tools.map((tool) => tool.name);
  expect(names).toContain('book_flight');
  expect(names).not.toContain('cancel_booking');
  expect(names).not.toContain('confirm_purchase');
  const bookFlight = tools.find((tool) => tool.name === 'book_flight')!;
  expect(Object.keys(bookFlight.inputSchema.properties ?? {})).toEqual([
    'destination',
    'date',
    'passenger',
    'confirm',
  ]);
  expect(bookFlight.inputSchema.required ?? []).toEqual([]);
}, 120_000);

test('the Inspector completes book_flight: first told what to ask, then booked with the arguments', async () => {
  const first = await inspect('--method', 'tools/call', '--tool-name', 'book_flight');
  expect(first).toMatchObject({ isError: true, exitCode: 5 });
  expect(textOf(first)).toContain('- destination: Where would you like to fly?');
  expect(textOf(first)).toContain(
    'call book_flight again with the same arguments and these added:',
  );

  const invalid = await inspect(
    '--method',
    'tools/call',
    '--tool-name',
    'book_flight',
    '--tool-arg',
    'destination=Paris',
    'date=tomorrow',
    'passenger=Ada Lovelace',
  );
  expect(textOf(invalid)).toContain(
    '- date: When would you like to fly to Paris?\n\nYour last answer could not be used. Date: ',
  );

  const booked = await inspect(
    '--method',
    'tools/call',
    '--tool-name',
    'book_flight',
    '--tool-arg',
    'destination=Paris',
    'date=2026-08-01',
    'passenger=Ada Lovelace',
  );
  expect(booked.isError ?? false).toBe(false);
  expect(booked.exitCode).toBe(0);
  expect(textOf(booked)).toMatch(/^Booked BK-\d{4}: Ada Lovelace to Paris on 2026-08-01$/);
}, 180_000);
