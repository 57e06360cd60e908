import { describe, expect, test } from 'vitest';

import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';

import { ParleyServer } from '../../src/index.ts';
import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawHandshake } from '../helpers/rawHandshake.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/**
 * One funnel for failures: a missing client capability has one outcome per era and never a
 * 2026-only code on a handshake connection; a tool that throws reaches `onError`.
 */

describe('a client that cannot answer', () => {
  test('modern era: -32021 (HTTP 400) for a tool and a prompt alike', async () => {
    const { server } = createRoundServer();
    for (const call of [
      { name: 'needs_user' },
      { method: 'prompts/get' as const, name: 'needs_user_prompt' },
    ]) {
      const response = await rawModernCall(server, { ...call, capabilities: {} });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    }
  });

  test('modern era: URL mode without elicitation.url is -32021 naming it', async () => {
    const { server } = createRoundServer();
    const response = await rawModernCall(server, {
      name: 'needs_url',
      capabilities: { elicitation: { form: {} } },
    });
    expect(response.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  test.each(['2025-11-25', '2025-06-18', '2025-03-26'])(
    'handshake era %s: a tool gets an isError result it could catch, never -32021',
    async (protocolVersion) => {
      const { server } = createRoundServer();
      const connection = await rawHandshake(server, {
        protocolVersion,
        capabilities: {},
        answer: () => ({}),
      });
      const result = await connection.call('needs_user');
      expect(result.error).toBeUndefined();
      expect(result.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'elicitation not supported by this client' }],
      });
      await connection.close();
    },
  );

  test('handshake era: a prompt fails with -32600 (the client’s doing), never -32021 or -32603', async () => {
    const mcp = new ParleyServer({ name: 'Prompts', onError: () => {} });
    mcp.prompt('greet', async (_args, ctx) => {
      const name = await ctx.elicit('Name?', String);
      return name.action === 'accept' ? name.data : 'nobody';
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
    await client.connect(clientSide);
    await expect(client.getPrompt({ name: 'greet' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('elicitation not supported by this client'),
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    await client.close();
  });
});

describe('failures are reported once, to onError', () => {
  test('a tool that throws: an isError result for the model, and a report for the server', async () => {
    const { server, errors } = createRoundServer();
    const response = await rawModernCall(server, { name: 'explode' });
    expect(response.body.result).toMatchObject({
      isError: true,
      content: [{ text: 'the flux capacitor broke' }],
    });
    expect(errors.map(String)).toEqual(['Error: the flux capacitor broke']);
  });

  test('the same tool on a handshake connection', async () => {
    const { server, errors } = createRoundServer();
    const connection = await rawHandshake(server, { answer: () => ({}) });
    const result = await connection.call('explode');
    expect(result.result).toMatchObject({ isError: true });
    expect(errors).toHaveLength(1);
    await connection.close();
  });
});
