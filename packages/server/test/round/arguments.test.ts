import { describe, expect, test } from 'vitest';

import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawModernCall } from '../helpers/rawModern.ts';
import { connectSdkClient, textOf } from '../helpers/sdkClients.ts';

/** Arguments: bounded before anything recursive touches them; a tool's errors are results (SEP-1303). */

/** JSON text nested `depth` objects deep (too deep for `JSON.stringify` in a test worker). */
function nestedJson(depth: number): string {
  return `${'{"deeper":'.repeat(depth)}true${'}'.repeat(depth)}`;
}

describe('tool arguments (SEP-1303)', () => {
  test('invalid arguments are an isError result the model can read, not a JSON-RPC error', async () => {
    const { server, errors } = createRoundServer();
    const response = await rawModernCall(server, {
      name: 'echo',
      arguments: { text: '', times: 7 },
    });
    expect(response.body.error).toBeUndefined();
    expect(response.body.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringMatching(/^Invalid arguments for tool echo: text: .*; times: .*/),
        },
      ],
    });
    expect(errors).toEqual([]);
  });

  test('the same on a handshake connection, through a real SDK client', async () => {
    const { server } = createRoundServer();
    const connection = await connectSdkClient({ era: 'handshake', via: 'in-process', server });
    const result = await connection.client.callTool({ name: 'echo', arguments: { times: 2 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid arguments for tool echo: text: /);
    await connection.close();
  });

  test('a prompt keeps -32602', async () => {
    const { server } = createRoundServer();
    const response = await rawModernCall(server, {
      method: 'prompts/get',
      name: 'echo_prompt',
      arguments: { text: '' },
    });
    expect(response.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt echo_prompt: text: /),
    });
  });
});

describe('oversized arguments', () => {
  test.each([
    [
      'nested 5,000 deep',
      `{"text":"x","extra":${nestedJson(5000)}}`,
      'nested deeper than 64 levels',
    ],
    [
      '200,000 values wide',
      JSON.stringify({ text: 'x', extra: Array.from({ length: 200_000 }, () => 1) }),
      'more than 100000 values',
    ],
  ])('arguments %s are -32602 before the handler runs', async (_label, argumentsJson, why) => {
    const { server, seen, errors } = createRoundServer();
    const response = await rawModernCall(server, { name: 'buy', argumentsJson });
    expect(response.body.error).toEqual({
      code: -32602,
      message: `Invalid params for tool buy: the request is ${why}`,
    });
    expect(seen.buy).toBeUndefined();
    expect(errors).toEqual([]);
  });

  test('answers nested 5,000 deep are refused the same way', async () => {
    const { server, seen } = createRoundServer();
    const response = await rawModernCall(server, {
      name: 'buy',
      inputResponsesJson: `{"qty":{"action":"accept","content":${nestedJson(5000)}}}`,
    });
    expect(response.body.error?.code).toBe(-32602);
    expect(seen.buy).toBeUndefined();
  });

  test('limits are the server’s to set', async () => {
    const { server } = createRoundServer({ limits: { maxDepth: 2 } });
    const response = await rawModernCall(server, {
      name: 'echo',
      arguments: { text: 'x', a: { b: { c: 1 } } },
    });
    expect(response.body.error?.message).toBe(
      'Invalid params for tool echo: the request is nested deeper than 2 levels',
    );
  });
});
