import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  type HttpOptions,
  type HttpRunOptions,
  type RunningServer,
} from '../../src/index.ts';
import { clientKeyOf, networkOf } from '../../src/http/clientSessions.ts';
import {
  endSession,
  handshakeHeaders,
  inSession,
  initialize,
  session,
} from '../helpers/handshakeHttp.ts';

/**
 * `http.maxSessionsPerClient`, over a real socket on 127.0.0.1: one client cannot take every
 * handshake-era session. A client is its principal, else its address (127.0.0.2 is another
 * client of the loopback), never a header unless the server names one; at its limit its own
 * unused sessions make room, then it gets `429`.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const OTHER = { from: '127.0.0.2' };
let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
});

const principals: Record<string, AuthInfo> = {
  'token-ada': { token: 'token-ada', clientId: 'ada', scopes: [] },
  'token-bob': { token: 'token-bob', clientId: 'bob', scopes: [] },
};

function server(http: HttpOptions = {}): ParleyServer {
  const mcp = new ParleyServer({
    name: 'per-client',
    http,
    onWarning: () => {},
    onError: () => {},
  });
  mcp.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  return mcp;
}

async function start(options: Partial<HttpRunOptions> = {}, http: HttpOptions = {}) {
  running = await server(http).run({ transport: 'http', port: 0, ...options });
  return running.url as string;
}

async function refusal(response: Response) {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = (await response.json()) as { error: { code: number; message: string } };
  expect(body.error.code).toBe(-32000);
  return body.error.message;
}

/** Is session `id` still open? */
async function isOpen(url: string, id: string, options = {}): Promise<boolean> {
  const listed = await inSession(url, id, { id: 9, method: 'tools/list' }, options);
  const text = await listed.text();
  if (listed.status === 404) return false;
  expect(text).toContain('"echo"');
  return true;
}

describe('http.maxSessionsPerClient', () => {
  test('an address at its limit gets 429 naming it; another address still gets sessions; DELETE makes room', async () => {
    const url = await start({ maxSessionsPerClient: 2 });
    const first = await session(url);
    await session(url);
    expect(await refusal(await initialize(url))).toBe(
      'Too Many Requests: this client already has 2 sessions open (maxSessionsPerClient 2); end one with DELETE or try again later',
    );
    // A request that came through a proxy the server was not told of has no address of its own
    // (the proxy's is every client's): it is not counted as this address, nor as the address it
    // claims, and only maxSessions holds it.
    const proxied = await initialize(url, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(proxied.status).toBe(200);
    // Another client is not held back by this one.
    const other = await session(url, OTHER);
    expect(await isOpen(url, other, OTHER)).toBe(true);
    expect((await endSession(url, first)).status).toBe(200);
    expect((await initialize(url)).status).toBe(200);
    expect(await refusal(await initialize(url))).toMatch(/already has 2 sessions open/);
  });

  test('an authenticated client is its principal, whatever its address', async () => {
    const url = await start(
      { maxSessionsPerClient: 2 },
      { auth: { verifyToken: (token) => principals[token] } },
    );
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const ada = await session(url, as('token-ada'));
    await session(url, { ...as('token-ada'), ...OTHER });
    expect(await refusal(await initialize(url, as('token-ada')))).toMatch(
      /this client already has 2 sessions open \(maxSessionsPerClient 2\)/,
    );
    // Bob shares Ada's address, not her sessions.
    const bob = await session(url, as('token-bob'));
    expect(await isOpen(url, bob, as('token-bob'))).toBe(true);
    await session(url, as('token-bob'));
    expect((await initialize(url, as('token-bob'))).status).toBe(429);
    expect((await endSession(url, ada, as('token-ada'))).status).toBe(200);
    expect((await initialize(url, as('token-ada'))).status).toBe(200);
  });

  test("at its limit, a client's own sessions unused for unusedSessionTimeoutMs make room; used ones and other clients' are kept", async () => {
    const url = await start({ maxSessionsPerClient: 2, unusedSessionTimeoutMs: 1_000 });
    // Bare initialize (and the initialized notice), nothing after.
    const flood = [await session(url), await session(url)];
    for (const id of flood) await inSession(url, id, { method: 'notifications/initialized' });
    const bystander = await session(url, OTHER);
    expect((await initialize(url)).status).toBe(429);
    await sleep(1_200);
    const fresh = await session(url);
    expect(await isOpen(url, fresh)).toBe(true);
    expect(await isOpen(url, flood[0] as string)).toBe(false);
    expect(await isOpen(url, flood[1] as string)).toBe(false);
    // The other client's session, as unused and as old, is not this client's to close.
    expect(await isOpen(url, bystander, OTHER)).toBe(true);
    // Sessions in use (both were asked for their tools) are never closed for room.
    const second = await session(url);
    expect(await isOpen(url, second)).toBe(true);
    await sleep(1_200);
    expect(await refusal(await initialize(url))).toMatch(/already has 2 sessions open/);
    expect(await isOpen(url, fresh)).toBe(true);
  });

  test('clientAddressHeader: the address the proxy appended counts (IPv6 by its /64); without the header, the connection', async () => {
    const url = await start({ maxSessionsPerClient: 1, clientAddressHeader: 'X-Forwarded-For' });
    const via = (chain: string) => ({ headers: { 'x-forwarded-for': chain } });
    expect((await initialize(url, via('203.0.113.7'))).status).toBe(200);
    // What the client wrote before the proxy's entry is not who it is.
    expect((await initialize(url, via('192.0.2.1, 203.0.113.7'))).status).toBe(429);
    expect((await initialize(url, via('203.0.113.7, 198.51.100.2'))).status).toBe(200);
    expect((await initialize(url, via('2001:db8:0:1::1'))).status).toBe(200);
    expect((await initialize(url, via('2001:0db8:0:1:ffff::2'))).status).toBe(429);
    expect((await initialize(url, via('2001:db8:0:2::1'))).status).toBe(200);
    expect((await initialize(url)).status).toBe(200);
    expect((await initialize(url)).status).toBe(429);
  });

  test('behind mcp.fetch() a client has no address: only a principal is limited', async () => {
    const mcp = server({ maxSessionsPerClient: 1 });
    const initialized = (options?: { authInfo: AuthInfo }) =>
      mcp.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: handshakeHeaders,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'fetch', version: '1' },
            },
          }),
        }),
        options,
      );
    for (let i = 0; i < 3; i++) expect((await initialized()).status).toBe(200);
    const ada = { authInfo: principals['token-ada'] as AuthInfo };
    expect((await initialized(ada)).status).toBe(200);
    expect((await initialized(ada)).status).toBe(429);
  });

  test('the options are checked where the server is configured', async () => {
    for (const bad of [0, -1, 1.5, '10']) {
      expect(() => server({ maxSessionsPerClient: bad as number })).toThrow(
        `ParleyServer: http: maxSessionsPerClient must be a whole number >= 1 (got ${String(bad)}).`,
      );
    }
    await expect(
      server().run({ transport: 'http', port: 0, maxSessionsPerClient: 0 }),
    ).rejects.toThrow(/maxSessionsPerClient must be a whole number >= 1 \(got 0\)/);
    for (const bad of ['x forwarded for', '', 42]) {
      expect(() => server({ clientAddressHeader: bad as string })).toThrow(
        /^ParleyServer: http: clientAddressHeader must be a header name, such as 'x-forwarded-for'/,
      );
    }
    await expect(
      server().run({ transport: 'http', port: 0, clientAddressHeader: 'x:y' }),
    ).rejects.toThrow(/clientAddressHeader must be a header name/);
  });
});

describe('who a client is', () => {
  test('a principal, else an address: IPv4 (also IPv4-mapped) as it is, IPv6 by its /64', () => {
    expect(clientKeyOf('ada', '192.0.2.1')).toBe('principal ada');
    expect(clientKeyOf(undefined, '192.0.2.1')).toBe('address 192.0.2.1');
    expect(clientKeyOf(undefined, undefined)).toBeUndefined();
    expect(networkOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(networkOf('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(networkOf('2001:0DB8:0000:0001:ffff:0:0:2')).toBe('2001:db8:0:1::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('64:ff9b:1:2::192.0.2.1')).toBe('64:ff9b:1:2::/64');
    // Text that is no address stands for itself.
    expect(networkOf('1::2::3')).toBe('1::2::3');
    expect(networkOf('unknown')).toBe('unknown');
  });
});
