import { describe, expect, test } from 'vitest';

import { ParleyServer } from '../../src/index.ts';

/**
 * `http.sessionIdPrefix`: every handshake-era session id a replica issues begins with it, so a
 * balancer that cannot learn which replica opened a session (nginx, Caddy) can route by the id.
 */

async function initialize(url: string): Promise<string | null> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'prefix', version: '1' },
      },
    }),
  });
  await response.body?.cancel();
  return response.headers.get('mcp-session-id');
}

describe('http.sessionIdPrefix', () => {
  test('every session id the server issues begins with it, and stays unguessable', async () => {
    const mcp = new ParleyServer({ name: 'prefixed', http: { sessionIdPrefix: 'booking2.' } });
    mcp.tool('t', () => 'ok');
    const running = await mcp.run({ transport: 'http', port: 0 });
    try {
      const [a, b] = [await initialize(running.url!), await initialize(running.url!)];
      expect(a).toMatch(/^booking2\.[0-9a-f-]{36}$/);
      expect(b).toMatch(/^booking2\./);
      expect(a).not.toBe(b);
    } finally {
      await running.close();
    }
  });

  test('run() takes it too, and without it ids are bare', async () => {
    const mcp = new ParleyServer({ name: 'bare' });
    mcp.tool('t', () => 'ok');
    const running = await mcp.run({ transport: 'http', port: 0, sessionIdPrefix: 'r1-' });
    try {
      expect(await initialize(running.url!)).toMatch(/^r1-[0-9a-f-]{36}$/);
    } finally {
      await running.close();
    }
    const plain = new ParleyServer({ name: 'plain' });
    plain.tool('t', () => 'ok');
    const bare = await plain.run({ transport: 'http', port: 0 });
    try {
      expect(await initialize(bare.url!)).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await bare.close();
    }
  });

  test.each(['', 'has space', 'a/b', 'x'.repeat(65), 7])(
    '%j is refused at construction',
    (prefix) => {
      expect(
        () => new ParleyServer({ name: 'bad', http: { sessionIdPrefix: prefix as never } }),
      ).toThrow(/^ParleyServer: http: sessionIdPrefix must be 1 to 64 letters, digits/);
    },
  );
});
