import { createServer, type Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client, explainConnectionFailure } from '../src/index.ts';

/**
 * What `connect()` threw, said as what to check: against a real HTTP server on 127.0.0.1 that
 * answers as a forwarder does (a JSON error with the code of the server it could not reach, or
 * of the answer it would not pass on), or as a wrong path does, in each client mode.
 */

/** The server a forwarder was asked to reach: the sentence names it, not the forwarder. */
const TARGET = 'http://127.0.0.1:5499/mcp';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const forwarded: Record<string, [number, object]> = {
      '/refused': [502, { error: `could not reach ${TARGET}: ECONNREFUSED`, code: 'ECONNREFUSED' }],
      '/late': [504, { error: 'late', code: 'ETIMEDOUT', timeoutMs: 15_000 }],
      '/html': [502, { error: 'not MCP', code: 'NOT_MCP', status: 200, contentType: 'text/html' }],
      '/redirect': [502, { error: 'the server redirected (302)', code: 'REDIRECT', status: 302 }],
    };
    const answer = forwarded[path];
    if (answer === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no MCP here');
      return;
    }
    response.writeHead(answer[0], { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer[1]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function failure(url: string, mode: 'auto' | 'modern' | 'handshake'): Promise<unknown> {
  const client = new Client(url, { mode });
  try {
    await client.connect();
  } catch (error) {
    return error;
  } finally {
    await client.close().catch(() => {});
  }
  throw new Error(`${url} connected`);
}

describe.each(['auto', 'modern', 'handshake'] as const)('mode %s', (mode) => {
  test('behind a forwarder: the sentence is about the server it could not reach', async () => {
    const options = { timeoutMs: 60_000 };
    expect(explainConnectionFailure(await failure(`${base}/refused`, mode), TARGET, options)).toBe(
      `Nothing is listening at ${TARGET}: is the server running, and on port 5499?`,
    );
    expect(explainConnectionFailure(await failure(`${base}/late`, mode), TARGET, options)).toBe(
      `${TARGET} did not answer within 15000 ms: is it an MCP server?`,
    );
    expect(explainConnectionFailure(await failure(`${base}/html`, mode), TARGET, options)).toBe(
      `${TARGET} answered HTTP 200 with text/html, not MCP: is it the server's MCP endpoint? (it is often /mcp)`,
    );
    expect(explainConnectionFailure(await failure(`${base}/redirect`, mode), TARGET, options)).toBe(
      `Could not use ${TARGET}: the server redirected (302).`,
    );
  });
});

test('a failure it does not know is undefined', () => {
  expect(explainConnectionFailure(new Error('boom'), TARGET, { timeoutMs: 1 })).toBeUndefined();
  expect(
    explainConnectionFailure(new Error('boom'), { command: 'srv' }, { timeoutMs: 1 }),
  ).toBeUndefined();
});
