// #region test
import { describe, expect, test } from 'vitest';

import { Client, type RoundEvent } from '@parley/client';

import { createServer } from '../gettingStarted/server.ts';
import { scripted } from './scripted.ts';

describe.each(['modern', 'handshake'] as const)('greet, %s era', (mode) => {
  test('asks for a name and greets', async () => {
    const script = scripted({ "What's your name?": 'Ada' });
    const rounds: RoundEvent[] = [];
    await using client = new Client(createServer(), {
      mode,
      elicitationHandler: script.handler,
      onRound: (round) => rounds.push(round),
    });
    await client.connect();

    const result = await client.callTool('greet');

    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(script.asked).toEqual(["What's your name?"]);
    expect(rounds).toHaveLength(1);
    expect(client.era).toBe(mode);
  });

  test('a declined question is an answer, not an error', async () => {
    const script = scripted({ "What's your name?": { action: 'decline' } });
    await using client = new Client(createServer(), {
      mode,
      elicitationHandler: script.handler,
    });
    await client.connect();

    const result = await client.callTool('greet');

    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: 'text', text: 'Hello, stranger!' },
    ]);
  });
});
// #endregion test
