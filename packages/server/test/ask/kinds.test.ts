import { afterEach, describe, expect, test } from 'vitest';

import type { ElicitResult } from '@parley/core';
import { createAskServer, type AskServer } from '../fixtures/askServer.ts';
import {
  connectSdkClient,
  textOf,
  type ConnectedClient,
  type TestEra,
} from '../helpers/sdkClients.ts';

/**
 * Every ask kind through `ctx.ask`, written once, answered by a real SDK v2 client in each era:
 * pushed and awaited on the handshake era; on the modern era the handler runs again each round
 * and replays what was answered. The same handler code gives the same result in both.
 */

const answersByMessage: Record<string, ElicitResult> = {
  "What's your name?": { action: 'accept', content: { value: 'Ada' } },
  'How many?': { action: 'accept', content: { value: 3 } },
  'Which level?': { action: 'accept', content: { value: 'high' } },
  'Which tags?': { action: 'accept', content: { value: ['bug', 'docs'] } },
  'Priority?': { action: 'accept', content: { value: 'p1' } },
  'Your profile?': { action: 'accept', content: { email: 'ada@example.com' } },
  'Go ahead?': { action: 'accept', content: {} },
  'Sign in to the calendar': { action: 'accept' },
  'What are you working on?': { action: 'accept', content: { value: 'an audit' } },
  'Which topic?': { action: 'accept', content: { value: 'sealing' } },
  'Which format?': { action: 'accept', content: { value: 'long' } },
  'How much detail for item 7?': { action: 'accept', content: { value: 'all' } },
};

describe.each<TestEra>(['modern', 'handshake'])('ctx.ask on the %s era', (era) => {
  let fixture: AskServer;
  let connection: ConnectedClient | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  async function connect() {
    fixture = createAskServer();
    connection = await connectSdkClient({
      era,
      via: 'in-process',
      server: fixture.server,
      answers: {
        elicit: (params) => {
          const answer = answersByMessage[params.message as string];
          if (answer === undefined) throw new Error(`unexpected: ${String(params.message)}`);
          return answer;
        },
        sample: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'hello' },
          model: 'test-model',
        }),
        roots: [{ uri: 'file:///work', name: 'work' }],
      },
    });
    return connection;
  }

  test('form elicitations of every response type, typed and validated', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'form_kinds', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({
      name: 'Ada',
      count: 3,
      level: 'high',
      tags: ['bug', 'docs'],
      priority: 'p1',
      profile: { email: 'ada@example.com', age: 30 },
      go: 'accepted',
    });
    // Each question was put to the user exactly once, in order.
    expect(seen.map((request) => request.params.message)).toEqual([
      "What's your name?",
      'How many?',
      'Which level?',
      'Which tags?',
      'Priority?',
      'Your profile?',
      'Go ahead?',
    ]);
    // Modern: seven asking rounds, then the eighth, which replays six answers and takes the
    // seventh; handshake: one run.
    expect(fixture.runs.form_kinds).toEqual(
      era === 'modern'
        ? [[8, ['name', 'count', 'level', 'tags', 'priority', 'profile']]]
        : [[1, []]],
    );
  });

  test('a URL elicitation: accept means the user agreed to open the page', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'open_page', arguments: {} });
    expect(textOf(result)).toBe('sign-in: accept (undefined)');
    expect(seen).toEqual([
      {
        method: 'elicitation/create',
        params: expect.objectContaining({
          mode: 'url',
          message: 'Sign in to the calendar',
          url: 'https://calendar.example/connect',
          // The handshake era needs an id for the completion notice; the modern ask has none.
          ...(era === 'handshake' ? { elicitationId: expect.any(String) } : {}),
        }),
      },
    ]);
  });

  test('a sampling request answers with the CreateMessageResult', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'sample', arguments: {} });
    expect(textOf(result)).toBe('the model (test-model) said: hello');
    expect(seen.map((request) => request.method)).toEqual(['sampling/createMessage']);
  });

  test('a roots request answers with the roots', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'roots', arguments: {} });
    expect(textOf(result)).toBe('roots: file:///work');
    expect(seen.map((request) => request.method)).toEqual(['roots/list']);
  });

  test('askAll: three kinds asked together (one modern round), answers typed by key', async () => {
    const { client, seen } = await connect();
    const result = await client.callTool({ name: 'survey', arguments: {} });
    expect(textOf(result)).toBe('an audit; 1 root(s); hello');
    expect(seen.map((request) => request.method).sort()).toEqual([
      'elicitation/create',
      'roots/list',
      'sampling/createMessage',
    ]);
    expect(fixture.runs.survey).toEqual([[era === 'modern' ? 2 : 1, []]]);
  });

  test('a prompt asks with ctx.ask', async () => {
    const { client } = await connect();
    const prompt = await client.getPrompt({ name: 'brief', arguments: {} });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a brief about sealing.' } },
    ]);
    expect(fixture.runs.brief).toEqual([[era === 'modern' ? 2 : 1, []]]);
  });

  test('a resource and a resource template ask with ctx.ask', async () => {
    const { client } = await connect();
    const report = await client.readResource({ uri: 'ask://report' });
    expect(report.contents).toEqual([
      expect.objectContaining({ uri: 'ask://report', text: 'report (long)' }),
    ]);
    const item = await client.readResource({ uri: 'ask://items/7' });
    expect(item.contents).toEqual([
      expect.objectContaining({ uri: 'ask://items/7', text: 'item 7: all' }),
    ]);
    expect(fixture.runs.report).toEqual([[era === 'modern' ? 2 : 1, []]]);
    expect(fixture.runs.item).toEqual([[era === 'modern' ? 2 : 1, []]]);
  });

  test('decline and cancel are answers, not errors', async () => {
    fixture = createAskServer();
    connection = await connectSdkClient({
      era,
      via: 'in-process',
      server: fixture.server,
      answers: { elicit: () => ({ action: 'decline' }) },
    });
    const declined = await connection.client.callTool({ name: 'form_kinds', arguments: {} });
    expect(textOf(declined)).toBe('name: decline');
    await connection.close();
    connection = await connectSdkClient({
      era,
      via: 'in-process',
      server: fixture.server,
      answers: { elicit: () => ({ action: 'cancel' }) },
    });
    const cancelled = await connection.client.callTool({ name: 'checkout', arguments: {} });
    expect(textOf(cancelled)).toBe('nothing bought');
    expect(fixture.errors).toEqual([]);
  });

  test('a bad answer is asked again, with what was wrong, in both eras', async () => {
    const codes = ['B-1', 'A-7'];
    fixture = createAskServer();
    connection = await connectSdkClient({
      era,
      via: 'in-process',
      server: fixture.server,
      answers: { elicit: () => ({ action: 'accept', content: { value: codes.shift()! } }) },
    });
    const result = await connection.client.callTool({ name: 'voucher', arguments: {} });
    expect(textOf(result)).toBe('voucher A-7');
    expect(connection.seen.map((request) => request.params.message)).toEqual([
      'Voucher code?',
      'Voucher code?\n\nYour last answer could not be used. Code: must start with A.',
    ]);
  });
});
