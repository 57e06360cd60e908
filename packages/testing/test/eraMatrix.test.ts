import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

import { eraMatrix, scriptedUser } from '../src/index.ts';
import { createTripServer } from './fixtures/tripServer.ts';

/**
 * One body, six cells: both eras over the server in this process, a real child process on
 * stdio, and a real socket on 127.0.0.1.
 */

const stdio = {
  command: process.execPath,
  args: [
    '--conditions=@parley/source',
    '--import',
    'tsx',
    fileURLToPath(new URL('./fixtures/tripServerMain.ts', import.meta.url)),
  ],
};
const cells = eraMatrix({ server: createTripServer, stdio });

test('the matrix is every era over every transport', () => {
  expect(cells.map((cell) => cell.name)).toEqual([
    'modern over in-process',
    'modern over stdio',
    'modern over http',
    'handshake over in-process',
    'handshake over stdio',
    'handshake over http',
  ]);
  expect(String(cells[0])).toBe('modern over in-process');
});

describe.each(cells)('$name', (cell) => {
  test('one body: the questions, their order and schema, and the result', async () => {
    const user = scriptedUser()
      .answer(/^Where to\?$/, { city: 'Porto' })
      .answer(/^How many nights/, {});
    await using connection = await cell.connect({ user });
    expect(connection.client.era).toBe(cell.era);

    const result = await connection.client.callTool('plan_trip');

    // Defaults are filled in by the form's builder, as a real client would.
    expect(result.content).toEqual([{ type: 'text', text: '2 nights in Porto' }]);
    user.expectAsked([
      { kind: 'elicitation', message: 'Where to?', fields: ['city'], call: 'plan_trip' },
      { message: 'How many nights in Porto?', action: 'accept', fields: ['nights'] },
    ]);
    expect(user.asked[0]?.schema).toMatchObject({
      properties: { city: { type: 'string', description: 'Where to' } },
      required: ['city'],
    });
  });

  test('sampling and roots replies', async () => {
    const user = scriptedUser()
      .sample(/Describe the workspace/, 'A tidy monorepo.')
      .roots([{ uri: 'file:///work/project', name: 'project' }]);
    await using connection = await cell.connect({ user });
    const result = await connection.client.callTool('describe_workspace');
    expect(result.content).toEqual([
      { type: 'text', text: 'file:///work/project: A tidy monorepo.' },
    ]);
    expect(user.asked.map((asked) => asked.kind).sort()).toEqual(['roots', 'sampling']);
  });

  test('decline and cancel', async () => {
    const user = scriptedUser()
      .decline(/^Where to\?$/, { times: 1 })
      .cancel(/^Where to\?$/);
    await using connection = await cell.connect({ user });
    const declined = await connection.client.callTool('plan_trip');
    const cancelled = await connection.client.callTool('plan_trip');
    expect(declined.content).toEqual([{ type: 'text', text: 'no trip (decline)' }]);
    expect(cancelled.content).toEqual([{ type: 'text', text: 'no trip (cancel)' }]);
    user.expectAsked([{ action: 'decline' }, { action: 'cancel' }]);
  });
});

test('eraMatrix refuses what it cannot run, saying why', () => {
  expect(() => eraMatrix({} as never)).toThrow('eraMatrix: options.server must be a function');
  expect(() => eraMatrix({ server: createTripServer, transports: ['stdio'] })).toThrow(
    'the stdio transport needs options.stdio',
  );
  expect(() => eraMatrix({ server: createTripServer, eras: ['ancient' as never] })).toThrow(
    'unknown era "ancient"',
  );
  expect(eraMatrix({ server: createTripServer }).map((cell) => cell.transport)).toEqual([
    'in-process',
    'http',
    'in-process',
    'http',
  ]);
});
