import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

// #region matrix
import { eraMatrix, scriptedUser } from '@parley/testing';

import { createServer } from '../gettingStarted/server.ts';

const main = fileURLToPath(
  new URL('../gettingStarted/main.ts', import.meta.url),
);

const cells = eraMatrix({
  server: createServer,
  // The real entry point as a child process. In a published app this is simply
  // { command: 'node', args: ['dist/main.js', '--stdio'] }.
  stdio: {
    command: process.execPath,
    args: [
      '--conditions=@parley/source',
      '--import',
      'tsx',
      main,
      '--stdio',
    ],
  },
});

describe.each(cells)('greet, $name', (cell) => {
  test('asks for a name and greets', async () => {
    const user = scriptedUser().answer(/^What's your name\?$/, 'Ada');
    await using connection = await cell.connect({ user });

    const result = await connection.client.callTool('greet');

    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    user.expectAsked([{ message: "What's your name?", fields: ['value'] }]);
  });

  test('a declined question is an answer, not an error', async () => {
    const user = scriptedUser().decline(/^What's your name\?$/);
    await using connection = await cell.connect({ user });

    const result = await connection.client.callTool('greet');

    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: 'text', text: 'Hello, stranger!' },
    ]);
  });
});
// #endregion matrix
