import { fileURLToPath } from 'node:url';

import { expect, test } from 'vitest';

import { Client } from '@parley/client';

import { scripted } from './scripted.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

// #region stdio
test('the real entry point, as a child process over stdio', async () => {
  const main = fileURLToPath(
    new URL('../gettingStarted/main.ts', import.meta.url),
  );
  await using client = new Client(
    // In a published app this is simply { command: 'node', args: ['dist/main.js', '--stdio'] }.
    {
      command: process.execPath,
      args: [
        '--conditions=@parley/source',
        '--import',
        'tsx',
        main,
        '--stdio',
      ],
      cwd: repoRoot,
    },
    {
      elicitationHandler: scripted({ "What's your name?": 'Ada' }).handler,
    },
  );
  await client.connect();

  const result = await client.callTool('greet');

  expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
});
// #endregion stdio
