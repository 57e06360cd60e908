import { connect, type Socket } from 'node:net';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  SessionClosedError,
  type HttpRunOptions,
  type RunningServer,
} from '../../src/index.ts';
import { handshakeHeaders, initialize, session } from '../helpers/handshakeHttp.ts';
import { rawHttp, rawRequest } from '../helpers/rawHttp.ts';
import { textOf } from '../helpers/sdkClients.ts';

/**
 * Every bound of the HTTP edge, over a real socket: sessions, the idle sweep, sessions kept
 * while a call waits for its user, abandoned calls, Node's timeouts, connections, body bytes in
 * one request and in all of them at once.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const outcomes: unknown[] = [];
let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
  outcomes.length = 0;
});

function server(): ParleyServer {
  const mcp = new ParleyServer({ name: 'bounded', onWarning: () => {}, onError: () => {} });
  mcp.tool('ask', async (_args, ctx) => {
    try {
      const answer = await ctx.elicit('Your name?', z.object({ name: z.string() }));
      return answer.action === 'accept' ? `Hello ${answer.data.name}` : answer.action;
    } catch (error) {
      outcomes.push(error);
      throw error;
    }
  });
  mcp.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  return mcp;
}

async function start(options: Partial<HttpRunOptions> = {}) {
  running = await server().run({ transport: 'http', port: 0, ...options });
  const url = running.url as string;
  return { url, port: Number(new URL(url).port), host: `127.0.0.1:${new URL(url).port}` };
}

function sdkClient(url: string, answer: () => Promise<Record<string, unknown>>) {
  const client = new Client(
    { name: 'limits', version: '1' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: (await answer()) as never,
  }));
  return client.connect(new StreamableHTTPClientTransport(new URL(url))).then(() => client);
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });
}

describe('sessions', () => {
  test('maxSessions: past it, initialize gets 503 with Retry-After; a closed session makes room', async () => {
    const { url } = await start({ maxSessions: 2 });
    const first = await session(url);
    await session(url);
    const refused = await initialize(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(/as many sessions open as it may \(maxSessions 2\)/);
    const deleted = await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    expect((await initialize(url)).status).toBe(200);
  });

  test('at the cap, sessions that did nothing after initialize are closed after unusedSessionTimeoutMs to make room; used ones are kept', async () => {
    const { url } = await start({ maxSessions: 2, unusedSessionTimeoutMs: 300 });
    const notify = (id: string, body: object) =>
      fetch(url, {
        method: 'POST',
        headers: {
          ...handshakeHeaders,
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      }).then((response) => response.text());
    // A flood: bare initialize (and the initialized notice), nothing after.
    const flood = [await session(url), await session(url)];
    for (const id of flood) await notify(id, { method: 'notifications/initialized' });
    expect((await initialize(url)).status).toBe(503);
    await sleep(400);
    // A real client gets in: an unused session made room.
    const real = await session(url);
    expect(real).toBeTruthy();
    await notify(real, { method: 'notifications/initialized' });
    await notify(real, { id: 2, method: 'tools/list', params: {} });
    // The other flood session goes the same way; the client that used its session keeps it.
    await sleep(400);
    const second = await session(url);
    await notify(second, { id: 2, method: 'tools/list', params: {} });
    await sleep(400);
    const refused = await initialize(url);
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(/maxSessions 2\), all in use/);
    const listed = await notify(real, { id: 3, method: 'tools/list', params: {} });
    expect(listed).toContain('"tools"');
  });

  test('the idle sweep runs on a timer: an idle session is closed with no request arriving', async () => {
    // Long enough that a loaded machine cannot let it pass between initialize and the GET.
    const { url } = await start({ sessionIdleTimeoutMs: 800 });
    const id = await session(url);
    // The session's notification stream: the server ends it when it closes the session.
    const stream = await fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(stream.status).toBe(200);
    const started = Date.now();
    const reader = stream.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    for (;;) if ((await reader.read()).done) break;
    expect(Date.now() - started).toBeLessThan(5_000);
    const probe = await fetch(url, {
      method: 'POST',
      headers: { ...handshakeHeaders, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(probe.status).toBe(404);
  });

  test('a session stays while its call waits for the user, however long past the idle timeout', async () => {
    // The timeout is long enough that a loaded machine cannot let it pass between initialize and
    // the call; the user takes well over twice as long to answer.
    const { url } = await start({ sessionIdleTimeoutMs: 800 });
    const client = await sdkClient(url, async () => {
      await sleep(2_500);
      return { name: 'Ada' };
    });
    expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('Hello Ada');
    await client.close();
  });

  test('a session ended under a waiting ctx.elicit (DELETE) abandons it with SessionClosedError', async () => {
    const { url } = await start();
    let sessionId = '';
    const client = new Client(
      { name: 'limits', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(url));
    client.setRequestHandler('elicitation/create', async () => {
      // Instead of answering, the client ends the session.
      await fetch(url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      });
      return new Promise(() => {});
    });
    await client.connect(transport);
    sessionId = transport.sessionId as string;
    void client.callTool({ name: 'ask', arguments: {} }).catch(() => {});
    const started = Date.now();
    while (outcomes.length === 0 && Date.now() - started < 5_000) await sleep(20);
    expect(outcomes[0]).toBeInstanceOf(SessionClosedError);
    expect((outcomes[0] as SessionClosedError).data?.reason).toBe('deleted');
    await client.close().catch(() => {});
  });
});

describe("Node's timeouts, set from the options", () => {
  test('headersTimeoutMs: headers that do not arrive in time get 408', async () => {
    const { port, host } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 5_000 });
    const started = Date.now();
    const answer = await rawHttp(port, [`POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`], {
      timeoutMs: 4_000,
    });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.code).toBe(-32600);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('requestTimeoutMs: a body that does not arrive in time gets 408', async () => {
    const { port, host } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const started = Date.now();
    const answer = await rawHttp(
      port,
      [
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
      ],
      { timeoutMs: 4_000 },
    );
    expect(answer.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('keepAliveTimeoutMs: an idle keep-alive connection is closed after it', async () => {
    const { port, host } = await start({ keepAliveTimeoutMs: 300 });
    const socket = await openSocket(port);
    const closed = new Promise<number>((resolve) =>
      socket.once('close', () => resolve(Date.now())),
    );
    socket.write(rawRequest('GET /ready HTTP/1.1', [['Host', host]]));
    await new Promise((resolve) => socket.once('data', resolve));
    const answered = Date.now();
    const at = await closed;
    expect(at - answered).toBeGreaterThanOrEqual(200);
    expect(at - answered).toBeLessThan(2_000);
  });

  test('timeouts are checked', async () => {
    await expect(
      server().run({ transport: 'http', port: 0, keepAliveTimeoutMs: 0 }),
    ).rejects.toThrow('run: keepAliveTimeoutMs must be a whole number >= 1 (got 0).');
    await expect(
      server().run({
        transport: 'http',
        port: 0,
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 1_000,
      }),
    ).rejects.toThrow(
      /headersTimeoutMs \(5000\) must not be longer than requestTimeoutMs \(1000\)/,
    );
  });
});

describe('connections and bodies', () => {
  test('maxConnections: a connection past the cap gets 503 with Retry-After and is closed', async () => {
    const { port, host } = await start({ maxConnections: 2 });
    const held = [await openSocket(port), await openSocket(port)];
    await sleep(50);
    const answer = await rawHttp(port, rawRequest('GET /ready HTTP/1.1', [['Host', host]]));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body).error.message).toMatch(/as many connections as it may/);
    for (const socket of held) socket.destroy();
    await sleep(50);
    expect((await rawHttp(port, rawRequest('GET /ready HTTP/1.1', [['Host', host]]))).status).toBe(
      200,
    );
  });

  test.each([
    ['64 KiB', { maxBodyBytes: 64 * 1024 }, 65536],
    ['the default', {}, 4 * 1024 * 1024],
  ] as const)(
    'maxBodyBytes (%s): a chunked 10 MB upload gets its 413, which the client sees',
    async (_, options, limit) => {
      const { url } = await start(options);
      const chunk = new Uint8Array(256 * 1024).fill(0x20);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 10 * 1024 * 1024) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        `Request body too large: the limit is ${limit} bytes`,
      );
    },
  );

  test('maxBufferedBodyBytes: a body that would pass the total held at once gets 503; later ones fit again', async () => {
    const { port, host, url } = await start({
      maxBodyBytes: 64 * 1024,
      maxBufferedBodyBytes: 100 * 1024,
    });
    const head = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${60 * 1024}\r\n\r\n`;
    // The first upload sends 50 KiB and pauses: the server holds them.
    const slow = await openSocket(port);
    slow.write(head + ' '.repeat(50 * 1024));
    await sleep(100);
    const second = await rawHttp(port, [head, ' '.repeat(60 * 1024)]);
    expect(second.status).toBe(503);
    expect(second.headers['retry-after']).toBe('1');
    expect(JSON.parse(second.body).error.message).toMatch(/as many request bodies as it may/);
    slow.destroy();
    await sleep(100);
    const discover = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          padding: 'x'.repeat(50 * 1024),
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(discover.status).toBe(200);
  });

  test('limits are checked where the server is configured', () => {
    expect(() => new ParleyServer({ name: 'x', http: { maxSessions: 0 } })).toThrow(
      'ParleyServer: http: maxSessions must be a whole number >= 1 (got 0).',
    );
    expect(
      () =>
        new ParleyServer({ name: 'x', http: { maxBodyBytes: 2_000, maxBufferedBodyBytes: 1_000 } }),
    ).toThrow(/maxBufferedBodyBytes \(1000\) must be at least http.maxBodyBytes \(2000\)/);
  });
});
