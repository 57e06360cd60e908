import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import { createServer } from '../gettingStarted/server.ts';
import {
  eras,
  nodeArgs,
  quoted,
  repoRoot,
  startExample,
  textOf,
} from './support.ts';

/**
 * The Getting started files inside the repository, from source. The same files, packed and
 * installed from tarballs into a fresh npm project, are tested by gettingStarted.packed.test.ts.
 */

const execFileAsync = promisify(execFile);

describe.each(eras)('getting started, %s era', (era) => {
  test('declining gets the stranger greeting', async () => {
    await using client = new Client(createServer(), {
      mode: era,
      elicitationHandler: () => ({ action: 'decline' }),
    });
    await client.connect();
    expect(textOf(await client.callTool('greet'))).toBe('Hello, stranger!');
  });

  test('main.ts over stdio, as a child process', async () => {
    await using client = new Client(
      {
        command: process.execPath,
        args: nodeArgs('gettingStarted/main.ts', '--stdio'),
        cwd: repoRoot,
      },
      { mode: era, elicitationHandler: () => 'Ada' },
    );
    await client.connect();
    expect(client.era).toBe(era);
    expect(textOf(await client.callTool('greet'))).toBe('Hello, Ada!');
  });
});

describe('main.ts over HTTP', () => {
  let server: Awaited<ReturnType<typeof startExample>>;
  beforeAll(async () => {
    server = await startExample(
      'gettingStarted/main.ts',
      /Greeter listening on (\S+)/,
      { PORT: '0' },
    );
  });
  afterAll(() => server?.stop());

  /** client.ts run as the page runs it (`npx tsx client.ts …`), from source. */
  async function runClient(...args: string[]): Promise<string> {
    const { stdout } = await execFileAsync(
      process.execPath,
      nodeArgs('gettingStarted/client.ts', ...args),
      { cwd: repoRoot },
    );
    return stdout.replace(/\n$/, '');
  }

  test('client.ts prints what the page quotes, modern era (auto)', async () => {
    expect(await runClient(server.match[1]!)).toBe(
      quoted('gettingStarted/client.modern.out.txt'),
    );
  });

  test('client.ts --handshake prints what the page quotes', async () => {
    expect(await runClient(server.match[1]!, '--handshake')).toBe(
      quoted('gettingStarted/client.handshake.out.txt'),
    );
  });

  test('the parley terminal client lists the tools', async () => {
    // `pnpm parley` in this repository; `npx parley` where @parley/cli is installed.
    const cli = `${repoRoot}/packages/cli/src/main.ts`;
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        '--conditions=@parley/source',
        '--import',
        'tsx',
        cli,
        'tools',
        server.match[1]!,
      ],
      { cwd: repoRoot },
    );
    expect(stdout).toBe(
      `${quoted('gettingStarted/parleyTools.out.txt')}\n`,
    );
  });
});
