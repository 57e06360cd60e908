import { afterEach, describe, expect, test } from 'vitest';

import type { ElicitResult } from '@parley/core';

import { createSeedServer } from './fixtures/seedServer.ts';
import { connectSdkClient, textOf, type ConnectedClient } from './helpers/sdkClients.ts';

/**
 * The opt-in era bridge: guard-pattern handlers served to handshake-era clients by pushing
 * their asks as real requests and re-running the handler with the answers and the state.
 */

let connection: ConnectedClient | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe('eraBridge', () => {
  test('a three-round guard tool completes for a handshake-era client', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer({ eraBridge: true }),
      answers: {
        elicit: (params): ElicitResult =>
          params.message === 'Where would you like to fly?'
            ? { action: 'accept', content: { destination: 'Paris' } }
            : { action: 'accept', content: { date: '2026-08-01' } },
      },
    });
    expect(connection.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const result = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(result)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(connection.seen.map((request) => request.params.message)).toEqual([
      'Where would you like to fly?',
      'When would you like to fly to Paris?',
    ]);
  });

  test('prompts and resources that ask are bridged too', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer({ eraBridge: true }),
      answers: { elicit: () => ({ action: 'accept', content: { quarter: 'Q2' } }) },
    });
    const prompt = await connection.client.getPrompt({ name: 'summarize' });
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Summarize the Q2 results.',
    });
    const read = await connection.client.readResource({ uri: 'report://summary' });
    expect(read.contents[0]).toMatchObject({ text: 'Revenue report for Q2' });
  });

  test('ctx.elicit keeps working on the bridged server', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer({ eraBridge: true }),
      answers: { elicit: () => ({ action: 'accept', content: { value: 'Ada' } }) },
    });
    expect(textOf(await connection.client.callTool({ name: 'get_user_name', arguments: {} }))).toBe(
      'Hello, Ada!',
    );
  });

  test('without the bridge the era gate stays strict', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer(),
      answers: {},
    });
    await expect(
      connection.client.callTool({ name: 'book_flight', arguments: {} }),
    ).rejects.toThrow(/only exists at MCP 2026-07-28/);
  });
});
