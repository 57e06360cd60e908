import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test, vi } from 'vitest';

import { ParleyServer } from '../src/index.ts';
import { createSeedServer } from './fixtures/seedServer.ts';
import { connectSdkClient, textOf, type ConnectedClient } from './helpers/sdkClients.ts';

/** The handshake era's other server-initiated requests: URL mode, sampling, roots, and waiting. */

let connection: ConnectedClient | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  vi.useRealTimers();
});

describe('URL-mode elicitation', () => {
  test('sends a URL request with an elicitationId and can announce completion', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer(),
      answers: { elicit: () => ({ action: 'accept' }) },
    });
    const completed: unknown[] = [];
    connection.client.setNotificationHandler(
      'notifications/elicitation/complete',
      (notification) => {
        completed.push(notification.params);
      },
    );
    const result = await connection.client.callTool({ name: 'connect_account', arguments: {} });
    const [request] = connection.seen;
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: {
        mode: 'url',
        message: 'Sign in to Example to continue',
        url: 'https://auth.example.com/connect',
      },
    });
    const elicitationId = request?.params.elicitationId as string;
    expect(elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(result)).toBe(`Connected (${elicitationId})`);
    await vi.waitFor(() => expect(completed).toEqual([{ elicitationId }]));
  });

  test('a client that declared only form mode gets a clear error', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer(),
      answers: { elicit: () => ({ action: 'accept' }) },
      capabilities: { elicitation: { form: {} } },
    });
    const result = await connection.client.callTool({ name: 'connect_account', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('URL elicitation not supported by this client');
  });
});

describe('sampling and roots', () => {
  test('ctx.listRoots() and ctx.sample() reach the client and return its answers', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer(),
      answers: {
        roots: [{ uri: 'file:///repo', name: 'repo' }],
        sample: () => ({
          role: 'assistant',
          model: 'm',
          content: { type: 'text', text: 'a repository' },
        }),
      },
    });
    const result = await connection.client.callTool({ name: 'describe_roots', arguments: {} });
    expect(textOf(result)).toBe('1 roots; the model says: a repository');
    expect(connection.seen).toEqual([
      { method: 'roots/list', params: {} },
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Describe: file:///repo' } }],
          maxTokens: 40,
        },
      },
    ]);
  });

  test('a client without roots gets the capability error', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: createSeedServer(),
      answers: {},
    });
    const result = await connection.client.callTool({ name: 'describe_roots', arguments: {} });
    expect(textOf(result)).toBe('roots not supported by this client');
  });
});

describe('waiting for a person', () => {
  function waitingServer(options: { elicitationTimeoutMs?: number; perCall?: number } = {}) {
    const mcp = new ParleyServer({
      name: 'patient',
      onWarning: () => {},
      ...(options.elicitationTimeoutMs !== undefined
        ? { elicitationTimeoutMs: options.elicitationTimeoutMs }
        : {}),
    });
    mcp.tool('ask', async (_args, ctx) => {
      const result = await ctx.elicit(
        'Take your time',
        String,
        options.perCall !== undefined ? { timeoutMs: options.perCall } : {},
      );
      return result.action === 'accept' ? `Answered: ${result.data}` : 'No answer';
    });
    return mcp;
  }

  async function connectSlowClient(server: ParleyServer, answerAfterMs: number) {
    const client = new Client(
      { name: 'slow', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => {
      await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
      return { action: 'accept', content: { value: 'done' } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sdkServer = await server.connect(serverSide);
    await client.connect(clientSide);
    connection = {
      client,
      seen: [],
      close: async () => (await client.close(), await sdkServer.close()),
    };
    return client;
  }

  test('by default the server waits well beyond the SDK’s 60 seconds (here: 9 minutes)', async () => {
    const client = await connectSlowClient(waitingServer(), 9 * 60_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = client.callTool({ name: 'ask', arguments: {} }, { timeout: 3_600_000 });
    await vi.advanceTimersByTimeAsync(9 * 60_000 + 1);
    expect(textOf(await call)).toBe('Answered: done');
  });

  test('a per-call timeout gives up with an error the tool reports', async () => {
    const client = await connectSlowClient(waitingServer({ perCall: 50 }), 5_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = client.callTool({ name: 'ask', arguments: {} }, { timeout: 3_600_000 });
    await vi.advanceTimersByTimeAsync(100);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/timed out/i);
    await vi.advanceTimersByTimeAsync(5_000);
  });

  test('the server-wide timeout applies when no per-call one is given', async () => {
    const client = await connectSlowClient(waitingServer({ elicitationTimeoutMs: 1_000 }), 5_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = client.callTool({ name: 'ask', arguments: {} }, { timeout: 3_600_000 });
    await vi.advanceTimersByTimeAsync(1_001);
    expect(textOf(await call)).toMatch(/timed out/i);
    await vi.advanceTimersByTimeAsync(5_000);
  });
});
