import { afterEach, describe, expect, test } from 'vitest';

import type { ElicitResult } from '@parley/core';
import { createSeedServer, handlerRuns } from './fixtures/seedServer.ts';
import { rawModernCall } from './helpers/rawModern.ts';
import {
  connectSdkClient,
  textOf,
  type ConnectedClient,
  type ScriptedAnswers,
  type TestVia,
} from './helpers/sdkClients.ts';

/**
 * The seeds' modern-protocol examples (the guard pattern), driven by a real SDK v2 client pinned
 * to 2026-07-28: its input_required driver answers each round from the registered handlers and
 * retries. In-process and against the server as a child process over stdio.
 */

const byMessage =
  (answers: Record<string, ElicitResult>) =>
  (params: Record<string, unknown>): ElicitResult => {
    const answer = answers[params.message as string];
    if (answer === undefined) throw new Error(`unexpected elicitation: ${String(params.message)}`);
    return answer;
  };

describe.each<TestVia>(['in-process', 'stdio'])('modern era (%s)', (via) => {
  let connection: ConnectedClient | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  async function connect(answers: ScriptedAnswers, capabilities?: Record<string, unknown>) {
    connection = await connectSdkClient({
      era: 'modern',
      via,
      server: createSeedServer(),
      answers,
      ...(capabilities !== undefined ? { capabilities } : {}),
    });
    return connection;
  }

  test('the connection is on the modern protocol', async () => {
    const { client } = await connect({});
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  });

  test('book_flight: three rounds, the destination carried sealed in requestState', async () => {
    const runsBefore = handlerRuns.book_flight;
    const { client, seen } = await connect({
      elicit: byMessage({
        'Where would you like to fly?': { action: 'accept', content: { destination: 'Paris' } },
        'When would you like to fly to Paris?': {
          action: 'accept',
          content: { date: '2026-08-01' },
        },
      }),
    });
    const result = await client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(result)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(seen).toEqual([
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Where would you like to fly?',
          requestedSchema: {
            type: 'object',
            properties: { destination: { type: 'string' } },
            required: ['destination'],
          },
        },
      },
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'When would you like to fly to Paris?',
          requestedSchema: {
            type: 'object',
            properties: { date: { type: 'string' } },
            required: ['date'],
          },
        },
      },
    ]);
    if (via === 'in-process') expect(handlerRuns.book_flight - runsBefore).toBe(3);
  });

  test('confirm: read the answer, decline is a normal answer', async () => {
    const yes = await connect({ elicit: () => ({ action: 'accept', content: { ok: true } }) });
    expect(textOf(await yes.client.callTool({ name: 'confirm', arguments: {} }))).toBe(
      'Proceeding with true',
    );
    await yes.close();
    const no = await connect({ elicit: () => ({ action: 'decline' }) });
    expect(textOf(await no.client.callTool({ name: 'confirm', arguments: {} }))).toBe('Cancelled.');
  });

  test('the summarize prompt asks before it renders', async () => {
    const { client, seen } = await connect({
      elicit: () => ({ action: 'accept', content: { quarter: 'Q3' } }),
    });
    const prompt = await client.getPrompt({ name: 'summarize' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Summarize the Q3 results.' } },
    ]);
    expect(seen.map((request) => request.params.message)).toEqual([
      'Which quarter should the summary cover?',
    ]);
  });

  test('the report resource asks before it renders', async () => {
    const { client } = await connect({
      elicit: () => ({ action: 'accept', content: { quarter: 'Q1' } }),
    });
    const read = await client.readResource({ uri: 'report://summary' });
    expect(read.contents).toEqual([
      { uri: 'report://summary', mimeType: 'text/plain', text: 'Revenue report for Q1' },
    ]);
  });

  test('a resource template asks too, with its variables at hand', async () => {
    const { client, seen } = await connect({
      elicit: () => ({ action: 'accept', content: { value: 'USD' } }),
    });
    const read = await client.readResource({ uri: 'report://Q2/revenue' });
    expect(read.contents[0]).toMatchObject({ text: 'Revenue for Q2 in USD: 1200' });
    expect(seen[0]?.params.message).toBe('Which currency for Q2?');
  });

  test('elicitation, sampling and roots in one ask map', async () => {
    const { client, seen } = await connect({
      elicit: () => ({ action: 'accept', content: { value: 'a parser' } }),
      roots: [{ uri: 'file:///home/me/project', name: 'project' }],
      sample: () => ({
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: 'A tidy repo.' },
      }),
    });
    const result = await client.callTool({ name: 'survey_workspace', arguments: {} });
    expect(textOf(result)).toBe(
      'Purpose: a parser; roots: file:///home/me/project; summary: A tidy repo.',
    );
    const byMethod = Object.fromEntries(seen.map((request) => [request.method, request.params]));
    expect(byMethod).toEqual({
      'elicitation/create': {
        mode: 'form',
        message: 'What are you working on?',
        requestedSchema: {
          type: 'object',
          properties: { value: { type: 'string', title: 'Purpose' } },
          required: ['value'],
        },
      },
      'roots/list': {},
      'sampling/createMessage': {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Summarize this workspace in one sentence.' },
          },
        ],
        maxTokens: 50,
      },
    });
  });

  test('optional asks the client cannot answer are left out', async () => {
    const { client, seen } = await connect({
      sample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'ha' } }),
    });
    const result = await client.callTool({ name: 'ask_what_you_can', arguments: {} });
    expect(textOf(result)).toBe('name: not asked, joke: told');
    expect(seen.map((request) => request.method)).toEqual(['sampling/createMessage']);
  });

  test('a required ask the client cannot answer is -32021 naming the capability', async () => {
    const { client } = await connect({ elicit: () => ({ action: 'cancel' }) });
    await expect(client.callTool({ name: 'needs_roots', arguments: {} })).rejects.toThrow(
      /-32021|roots/,
    );
  });

  test('ctx.elicit() on a modern request raises the era error', async () => {
    const { client } = await connect({ elicit: () => ({ action: 'cancel' }) });
    await expect(client.callTool({ name: 'collect_user_info', arguments: {} })).rejects.toThrow(
      "Tool 'collect_user_info' called ctx.elicit() to request client input, but server-initiated " +
        "requests do not exist at MCP 2026-07-28 (SEP-2322, SEP-2575); this request negotiated '2026-07-28'. " +
        'Use ctx.ask(key, elicitRequest(...)), which asks on both eras (here: a round the client answers ' +
        'and retries), or return inputRequired({ inputRequests }) (the guard pattern) for client input ' +
        'on modern connections.',
    );
  });

  test('the era error is the answer of the call (HTTP 200), as Invalid Request, not Internal error', async () => {
    const response = await rawModernCall(createSeedServer({ onError: () => {} }), {
      name: 'collect_user_info',
    });
    expect(response.status).toBe(200);
    expect(response.body.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining("Tool 'collect_user_info' called ctx.elicit()"),
    });
  });
});
