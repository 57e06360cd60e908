import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk-v1/server/streamableHttp.js';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  Client,
  ConnectionFailedError,
  UnsupportedProtocolVersionError,
  explainConnectionFailure,
  type ClientMode,
} from '../src/index.ts';
import { buildSdkV1Server } from './fixtures/sdkV1Server.ts';
import { buildSdkV2Server, freshSeen } from './helpers/sdkV2Server.ts';

/**
 * Every mode against every kind of URL, over real HTTP on 127.0.0.1: nothing listening, a wrong
 * path (404), an HTML page, a handshake-only server (the v1 SDK) and a modern-only server (the
 * v2 SDK with `legacy: 'reject'`). What no MCP server answers is a `ConnectionFailedError`
 * whose message is `explainConnectionFailure`'s sentence, in every mode; a server of the other
 * era is an `UnsupportedProtocolVersionError` naming both sides and what to do.
 */

const modernOnly = createMcpHandler(() => buildSdkV2Server(freshSeen()), { legacy: 'reject' });

async function serveFetch(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const answer = await modernOnly.fetch(
    new Request(`http://127.0.0.1${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    }),
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

let server: Server;
let base = '';
/** A port nothing listens on: one the system gave out, then closed. */
let closedUrl = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/modern') return void serveFetch(request, response);
    if (path === '/handshake') {
      // Stateless: a fresh v1 transport per request, as a v1 server without sessions runs.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      void buildSdkV1Server()
        .connect(transport)
        .then(() => transport.handleRequest(request, response));
      return;
    }
    request.resume();
    if (path === '/page') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Welcome</title>');
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('no MCP here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(spare.address() as { port: number }).port}/mcp`;
  await new Promise((resolve) => spare.close(resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** What `connect()` did: the era it connected with, or what it threw. */
async function connect(url: string, mode: ClientMode): Promise<string | unknown> {
  const client = new Client(url, { mode });
  try {
    await client.connect();
    return client.era;
  } catch (error) {
    return error;
  } finally {
    await client.close().catch(() => {});
  }
}

const options = { timeoutMs: 1000 };

describe.each(['auto', 'modern', 'handshake'] as const)('mode %s', (mode) => {
  test('nothing listening: a ConnectionFailedError saying so', async () => {
    const error = await connect(closedUrl, mode);
    const port = new URL(closedUrl).port;
    const sentence = `Nothing is listening at ${closedUrl}: is the server running, and on port ${port}?`;
    expect(error).toBeInstanceOf(ConnectionFailedError);
    expect((error as Error).message).toBe(sentence);
    expect((error as ConnectionFailedError).data).toEqual({
      url: closedUrl,
      status: undefined,
      statusText: undefined,
      contentType: undefined,
    });
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(explainConnectionFailure(error, closedUrl, options)).toBe(sentence);
  });

  test('a wrong path: answered HTTP 404, never "an older server"', async () => {
    const url = `${base}/wrong`;
    const error = await connect(url, mode);
    const sentence = `${url} answered HTTP 404 Not Found: is /wrong the server's MCP endpoint? (it is often /mcp)`;
    expect(error).toBeInstanceOf(ConnectionFailedError);
    expect(error).not.toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toBe(sentence);
    expect((error as ConnectionFailedError).data).toMatchObject({ status: 404 });
    expect(explainConnectionFailure(error, url, options)).toBe(sentence);
  });

  test('an HTML page: answered with text/html, not MCP', async () => {
    const url = `${base}/page`;
    const error = await connect(url, mode);
    const sentence = `${url} answered HTTP 200 OK with text/html, not MCP: is it the server's MCP endpoint? (it is often /mcp)`;
    expect(error).toBeInstanceOf(ConnectionFailedError);
    expect((error as Error).message).toBe(sentence);
    expect(explainConnectionFailure(error, url, options)).toBe(sentence);
  });
});

describe('a handshake-only server', () => {
  test.each(['auto', 'handshake'] as const)(
    "mode '%s' connects on the handshake era",
    async (mode) => {
      expect(await connect(`${base}/handshake`, mode)).toBe('handshake');
    },
  );

  test("mode 'modern' says the server speaks the handshake era only, and what to do", async () => {
    const url = `${base}/handshake`;
    const error = await connect(url, 'modern');
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toBe(
      `Client: mode 'modern' needs a server that speaks MCP 2026-07-28, but ${url} does not (it speaks the handshake era only). Use mode 'auto' to fall back to the handshake era.`,
    );
    // The error's own message is the sentence: there is nothing to explain beyond it.
    expect(explainConnectionFailure(error, url, options)).toBeUndefined();
  });
});

describe('a modern-only server', () => {
  test.each(['auto', 'modern'] as const)(
    "mode '%s' connects on the modern protocol",
    async (mode) => {
      expect(await connect(`${base}/modern`, mode)).toBe('modern');
    },
  );

  test("mode 'handshake' names both sides and what to do, not the raw HTTP answer", async () => {
    const url = `${base}/modern`;
    const error = await connect(url, 'handshake');
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as UnsupportedProtocolVersionError).data).toEqual({
      supported: ['2026-07-28'],
      requested: '2025-11-25',
    });
    expect((error as Error).message).toBe(
      `Client: mode 'handshake' needs a server that speaks the handshake era (MCP 2025-11-25 or earlier), but ${url} does not (it offers 2026-07-28; the client asked for 2025-11-25). Use mode 'auto' or 'modern' to speak the modern protocol.`,
    );
    expect(explainConnectionFailure(error, url, options)).toBeUndefined();
  });
});
