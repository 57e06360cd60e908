import { describe, expect, test } from 'vitest';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawModernCall } from '../helpers/rawModern.ts';
import { textOf } from '../helpers/sdkClients.ts';

/**
 * The state knows what was asked: only answers to the previous round's questions reach the
 * handler, an answer of the wrong kind is refused, and `inputResponses` must be an object.
 */

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('answers to questions never asked', () => {
  test('an answer slipped in beside the asked one never reaches the handler', async () => {
    const { server, seen, warnings } = createRoundServer();
    const first = await rawModernCall(server, { name: 'buy' });
    const second = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { qty: accept({ qty: 2 }), ok: accept({ ok: true }) },
      requestState: first.body.result?.requestState,
    });
    // Not paid: the confirmation is asked for real.
    expect(second.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { ok: { params: { message: 'Pay now?' } } },
    });
    expect(seen.buy).toEqual([null, ['qty']]);
    expect(warnings).toEqual([
      "Tool 'buy': ignored an answer under 'ok', which the previous round did not ask.",
    ]);
    const third = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { ok: accept({ ok: true }), qty: accept({ qty: 9 }) },
      requestState: second.body.result?.requestState,
    });
    expect(third.body.result).toMatchObject({ content: [{ text: 'Paid for 2' }] });
    expect(seen.buy).toEqual([null, ['qty'], ['ok']]);
  });

  test('without state nothing was asked: undeclared answers are dropped and the handler asks', async () => {
    const { server, seen } = createRoundServer();
    const response = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { qty: accept({ qty: 2 }), ok: accept({ ok: true }) },
    });
    expect(response.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { qty: {} },
    });
    expect(seen.buy).toEqual([[]]);
  });

  test('through a real SDK v2 client whose transport adds an answer, the handler still never sees it', async () => {
    const { server, seen } = createRoundServer();
    const client = new Client(
      { name: 'sdk', version: '1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => ({
      action: 'accept' as const,
      content: (String(request.params.message).startsWith('How many')
        ? { qty: 3 }
        : { ok: true }) as Record<string, number | boolean>,
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
        fetch: async (input, init) => {
          const body = JSON.parse(String(init?.body)) as {
            params?: { inputResponses?: Record<string, unknown> };
          };
          if (body.params?.inputResponses !== undefined) {
            body.params.inputResponses.ok ??= { action: 'accept', content: { ok: true } };
          }
          return server.fetch(new Request(input, { ...init, body: JSON.stringify(body) }));
        },
      }),
    );
    expect(textOf(await client.callTool({ name: 'buy', arguments: {} }))).toBe('Paid for 3');
    expect(seen.buy).toEqual([null, ['qty'], ['ok']]);
    await client.close();
  });

  test('an answer of the wrong kind under an asked key is -32602 naming the key, before the handler', async () => {
    const { server, seen } = createRoundServer();
    const first = await rawModernCall(server, { name: 'buy' });
    const response = await rawModernCall(server, {
      name: 'buy',
      inputResponses: {
        qty: { role: 'assistant', content: { type: 'text', text: '2' }, model: 'm' },
      },
      requestState: first.body.result?.requestState,
    });
    expect(response.body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        "'qty' asked for an elicitation result ({ action, content? }), but the answer is a sampling result",
      ),
      data: { reason: 'invalid_input_responses', key: 'qty' },
    });
    expect(seen.buy).toEqual([null]);
  });
});

describe('inputResponses must be an object', () => {
  test.each([
    ['an array', [], 'an array'],
    ['a string', 'qty=2', 'a string'],
    ['a number', 2, 'a number'],
    ['a boolean', true, 'a boolean'],
    ['null', null, 'null'],
  ])(
    '%s is -32602 before the handler runs (never a fresh first round)',
    async (_label, value, named) => {
      const { server, seen } = createRoundServer();
      const response = await rawModernCall(server, { name: 'buy', inputResponses: value });
      expect(response.status).toBe(200);
      expect(response.body.error).toEqual({
        code: -32602,
        message: `Invalid inputResponses: inputResponses must be an object of answers by key, got ${named}`,
        data: {
          reason: 'invalid_input_responses',
          problem: `inputResponses must be an object of answers by key, got ${named}`,
        },
      });
      expect(seen.buy).toBeUndefined();
    },
  );

  test('an absent inputResponses is a first round', async () => {
    const { server, seen } = createRoundServer();
    const response = await rawModernCall(server, { name: 'buy' });
    expect(response.body.result?.resultType).toBe('input_required');
    expect(seen.buy).toEqual([null]);
  });
});
