import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, type RunningServer } from '../../src/index.ts';

/**
 * Parley's handshake-era session transport over a real socket, answer by answer: what the
 * streamable HTTP transport specifies for a session (its id, its version header, one GET
 * stream, DELETE), and a clean JSON-RPC error for each request it cannot serve.
 */

let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
});

const BOTH = 'application/json, text/event-stream';
const VERSION = '2025-11-25';

function askingServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'transport', onWarning: () => {}, onError: () => {} });
  mcp.tool('ask', async (_args, ctx) => {
    const answer = await ctx.elicit('Name?', z.object({ name: z.string() }));
    return answer.action === 'accept' ? `Hello ${answer.data.name}` : 'no';
  });
  return mcp;
}

async function start(): Promise<string> {
  running = await askingServer().run({ transport: 'http', port: 0 });
  return running.url as string;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH, ...headers },
    body: JSON.stringify(body),
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: VERSION,
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'raw', version: '1' },
  },
};

async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(url, initialize);
  await init.text();
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id') as string };
  const initialized = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...session, 'mcp-protocol-version': VERSION },
  );
  expect(initialized.status).toBe(202);
  return { ...session, 'mcp-protocol-version': VERSION };
}

async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return ((await response.json()) as { error: { code: number; message: string } }).error;
}

describe('the handshake-era session transport', () => {
  test('initialize is answered with one JSON body that names the session', async () => {
    const url = await start();
    const init = await post(url, initialize);
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(init.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    const reply = (await init.json()) as { id: number; result: { protocolVersion: string } };
    expect(reply.id).toBe(1);
    expect(reply.result.protocolVersion).toBe(VERSION);
  });

  test('a call streams its question and its answer as SSE, with the session id', async () => {
    const url = await start();
    const session = await openSession(url);
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      session,
    );
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    expect(call.headers.get('mcp-session-id')).toBe(session['mcp-session-id']);
    const reader = call.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let text = '';
    while (!text.includes('elicitation/create'))
      text += new TextDecoder().decode((await reader.read()).value);
    const question = JSON.parse(/data: (\{.*"elicitation\/create".*\})/.exec(text)?.[1] as string);
    const answered = await post(
      url,
      { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Ada' } } },
      session,
    );
    expect(answered.status).toBe(202);
    let rest = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toContain('Hello Ada');
  });

  test('an Accept without both types is refused with 406', async () => {
    const url = await start();
    const session = await openSession(url);
    const onlyJson = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { ...session, accept: 'application/json' },
    );
    expect(onlyJson.status).toBe(406);
    expect((await errorOf(onlyJson)).message).toMatch(/Not Acceptable/);
    const get = await fetch(url, { headers: { ...session, accept: 'application/json' } });
    expect(get.status).toBe(406);
    expect((await errorOf(get)).message).toMatch(/text\/event-stream/);
  });

  test('an unsupported MCP-Protocol-Version is refused with 400, naming it', async () => {
    const url = await start();
    const session = await openSession(url);
    const refused = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { ...session, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toContain('"1999-01-01"');
  });

  test('a second initialize, a message that is not MCP, a batch too large: 400 each', async () => {
    const url = await start();
    const session = await openSession(url);
    const again = await post(url, initialize, session);
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toMatch(/already initialized/);
    const foreign = await post(url, { jsonrpc: '2.0', id: 2, method: 'x', extra: true }, session);
    expect(foreign.status).toBe(400);
    expect((await errorOf(foreign)).code).toBe(-32600);
    const batch = Array.from({ length: 101 }, () => ({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    }));
    const tooMany = await post(url, batch, session);
    expect(tooMany.status).toBe(400);
    expect((await errorOf(tooMany)).message).toMatch(/at most 100/);
  });

  test('one GET stream per session: a second is refused with 409', async () => {
    const url = await start();
    const session = await openSession(url);
    const first = await fetch(url, { headers: { ...session, accept: 'text/event-stream' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(url, { headers: { ...session, accept: 'text/event-stream' } });
    expect(second.status).toBe(409);
    expect((await errorOf(second)).code).toBe(-32000);
    await first.body?.cancel();
  });

  test('DELETE ends the session: its GET stream ends, and the id is unknown afterwards', async () => {
    const url = await start();
    const session = await openSession(url);
    const stream = await fetch(url, { headers: { ...session, accept: 'text/event-stream' } });
    const deleted = await fetch(url, { method: 'DELETE', headers: session });
    expect(deleted.status).toBe(200);
    expect(await stream.text()).toBe('');
    const after = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session);
    expect(after.status).toBe(404);
    expect((await errorOf(after)).code).toBe(-32001);
  });

  test('the web-standard face (mcp.fetch) serves sessions too: a real SDK client, ctx.elicit and all', async () => {
    const mcp = askingServer();
    const client = new Client(
      { name: 'web', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Grace' },
    }));
    const transport = new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
      fetch: (input, init) => mcp.fetch(new Request(input, init)),
    });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const result = (await client.callTool({ name: 'ask', arguments: {} })) as {
      content: { text: string }[];
    };
    expect(result.content[0]?.text).toBe('Hello Grace');
    await transport.terminateSession();
    await client.close();
  });
});
