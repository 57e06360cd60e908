import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk-v1/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk-v1/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk-v1/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import type { ElicitResult } from '@parley/core';
import { ParleyServer, elicitRequest, type RunningServer } from '../src/index.ts';
import { createSeedServer } from './fixtures/seedServer.ts';
import { textOf } from './helpers/sdkClients.ts';

/**
 * One HTTP endpoint on a real socket (127.0.0.1) serving both eras: modern clients statelessly,
 * handshake-era clients with sessions so `ctx.elicit` rides the call's SSE stream.
 */

let running: RunningServer;
let url: string;

beforeAll(async () => {
  running = await createSeedServer().run({ transport: 'http', port: 0 });
  url = running.url as string;
});
afterAll(() => running.close());

const booking = (params: Record<string, unknown>): ElicitResult => {
  const message = String(params.message);
  if (message === 'Where would you like to fly?')
    return { action: 'accept', content: { destination: 'Rome' } };
  const destination = /fly to (.+)\?$/.exec(message)?.[1];
  return { action: 'accept', content: { date: `2026-12-${destination === 'Rome' ? '01' : '02'}` } };
};

async function sdkClient(
  mode: 'modern' | 'handshake',
  answer: (params: Record<string, unknown>) => ElicitResult,
) {
  const client = new Client(
    { name: 'http-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler(
    'elicitation/create',
    async (request) => answer(request.params as Record<string, unknown>) as never,
  );
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

describe('one endpoint, both eras, over a real socket', () => {
  test('run() binds 127.0.0.1 by default and reports its URL', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  test('a modern SDK client books a flight over three rounds', async () => {
    const { client } = await sdkClient('modern', booking);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(result)).toBe('Booked a flight to Rome on 2026-12-01');
    await client.close();
  });

  test('a handshake-era SDK client gets a session and answers ctx.elicit on the call’s stream', async () => {
    const { client, transport } = await sdkClient('handshake', () => ({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const result = await client.callTool({ name: 'collect_user_info', arguments: {} });
    expect(textOf(result)).toBe('Hello Ada, you are 36 years old');
    await transport.terminateSession();
    await client.close();
  });

  test('a v1 SDK client answers ctx.elicit over HTTP', async () => {
    const client = new V1Client(
      { name: 'v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { value: 'Grace' },
    }));
    await client.connect(new V1HttpTransport(new URL(url)));
    const result = await client.callTool({ name: 'pattern_example', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Grace!' }]);
    await client.close();
  });

  test('several modern clients asking across rounds at once do not cross-talk', async () => {
    const destinations = ['Oslo', 'Lima', 'Kyiv', 'Accra', 'Quito', 'Hanoi'];
    const results = await Promise.all(
      destinations.map(async (destination, index) => {
        const { client } = await sdkClient('modern', (params): ElicitResult =>
          params.message === 'Where would you like to fly?'
            ? { action: 'accept', content: { destination } }
            : {
                action: 'accept',
                content: { date: `2027-01-${String(index + 1).padStart(2, '0')}` },
              },
        );
        const result = await client.callTool({ name: 'book_flight', arguments: {} });
        await client.close();
        return textOf(result);
      }),
    );
    expect(results).toEqual(
      destinations.map(
        (destination, index) =>
          `Booked a flight to ${destination} on 2027-01-${String(index + 1).padStart(2, '0')}`,
      ),
    );
  });
});

describe('HTTP protocol obligations', () => {
  const modernHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
  };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };

  test('an unknown modern method is a 404 with -32601 and the request id echoed', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...modernHeaders, 'mcp-method': 'unknown/method' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'x-1',
        method: 'unknown/method',
        params: { _meta: meta },
      }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ id: 'x-1', error: { code: -32601 } });
  });

  test('server/discover lists versions, capabilities and server info, with cache hints', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...modernHeaders, 'mcp-method': 'server/discover' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: meta },
      }),
    });
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      capabilities: { tools: {}, prompts: {}, resources: {} },
      _meta: {
        'io.modelcontextprotocol/serverInfo': { name: 'Elicitation Server', version: '1.0.0' },
      },
    });
    expect(typeof body.result.ttlMs).toBe('number');
    expect(['public', 'private']).toContain(body.result.cacheScope);
  });

  test('a foreign Host header is refused (DNS-rebinding protection)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL(url);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { host: 'evil.example.com', ...modernHeaders },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: meta },
        }),
      );
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  test('a foreign Origin is refused', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        ...modernHeaders,
        'mcp-method': 'server/discover',
        origin: 'https://evil.example.com',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: meta },
      }),
    });
    expect(response.status).toBe(403);
  });

  test('other paths are 404', async () => {
    expect((await fetch(new URL('/elsewhere', url))).status).toBe(404);
  });

  test('an unknown session is a 404 and a GET without one is a 405', async () => {
    const unknown = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(unknown.status).toBe(404);
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
  });

  test('DELETE ends a session', async () => {
    const { client, transport } = await sdkClient('handshake', () => ({ action: 'cancel' }));
    const sessionId = transport.sessionId as string;
    const deleted = await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    const after = await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(after.status).toBe(404);
    await client.close();
  });
});

describe('fetch() without sessions (serverless hosts)', () => {
  test('a handshake-era ctx.elicit fails with an error that says sessions are needed', async () => {
    const mcp = createSeedServer({ http: { sessions: false } });
    const client = new Client(
      { name: 'stateless', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { value: 'x' },
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://edge.test/mcp'), {
        fetch: (input, init) => mcp.fetch(new Request(input, init)),
      }),
    );
    const result = await client.callTool({ name: 'get_user_name', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/need an MCP session/);
    expect(textOf(result)).not.toMatch(/not supported by this client/);
    await client.close();
  });

  test('so does ctx.ask, which checks what the client declared first (no session recorded it)', async () => {
    const mcp = new ParleyServer({
      name: 'stateless',
      http: { sessions: false },
      onError: () => {},
    });
    mcp.tool('ask_name', async (_args, ctx) => {
      const name = await ctx.ask('name', elicitRequest('Your name?', String));
      return name.action;
    });
    const client = new Client(
      { name: 'stateless', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://edge.test/mcp'), {
        fetch: (input, init) => mcp.fetch(new Request(input, init)),
      }),
    );
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/need an MCP session/);
    expect(textOf(result)).not.toMatch(/not supported by this client/);
    await client.close();
  });
});

describe('session expiry', () => {
  test('an idle session is closed and then unknown', async () => {
    const server = await createSeedServer({ http: { sessionIdleTimeoutMs: 100 } }).run({
      transport: 'http',
      port: 0,
    });
    const client = new Client({ name: 'idle', version: '1' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(server.url as string));
    await client.connect(transport);
    await client.listTools();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const probe = await fetch(server.url as string, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    });
    expect(probe.status).toBe(404);
    await client.close().catch(() => {});
    await server.close();
  });
});
