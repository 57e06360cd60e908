import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import { main } from '../gettingStarted/client.ts';
import { createServer } from '../gettingStarted/server.ts';
import {
  consoleOutput,
  eras,
  nodeArgs,
  quoted,
  repoRoot,
  startExample,
  textOf,
} from './support.ts';

const execFileAsync = promisify(execFile);

describe.each(eras)('getting started, %s era', (era) => {
  test('the client example prints what the page quotes (in-process)', async () => {
    const printed = await consoleOutput(() => main(createServer(), era));
    expect(printed).toBe(quoted(`gettingStarted/client.${era}.out.txt`));
  });

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
      {
        PORT: '0',
      },
    );
  });
  afterAll(() => server?.stop());

  test.each(eras)(
    'the client example against the URL, %s era',
    async (era) => {
      const url = server.match[1];
      const printed = await consoleOutput(() => main(url, era));
      expect(printed).toBe(quoted(`gettingStarted/client.${era}.out.txt`));
    },
  );

  test('the parley terminal client lists the tools', async () => {
    // `pnpm parley` in this repository; `npx parley` where @parley/client is installed.
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

  test("mode 'auto' picks the modern protocol", async () => {
    const printed = await consoleOutput(() => main(server.match[1]));
    expect(printed).toBe(quoted('gettingStarted/client.modern.out.txt'));
  });
});
