import { afterEach, describe, expect, test } from 'vitest';

import {
  Client,
  UnsupportedProtocolVersionError,
  type ClientMode,
  type InProcessServer,
} from '../src/index.ts';
import { freshSeen, sdkV2Target } from './helpers/sdkV2Server.ts';

/**
 * Choosing the era: `'auto'` takes the modern protocol when the server offers it, `'modern'`
 * fails clearly against a handshake-only server, `'handshake'` never probes; and a `-32022` on
 * a modern request is retried with a version both sides speak.
 */

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A server that serves only handshake sessions: its `fetch` knows no modern protocol. */
function handshakeOnly(): InProcessServer {
  const inner = sdkV2Target(freshSeen());
  return {
    connect: (transport) => inner.connect(transport),
    fetch: async () => new Response('Not Found', { status: 404 }),
  };
}

/**
 * The SDK server behind a `fetch` that answers the first `tools/call` with `-32022`, naming
 * `supported` (as a server does when it stopped speaking the version the client chose).
 */
function rejectsFirstCall(supported: string[]): InProcessServer & { rejected: number } {
  const inner = sdkV2Target(freshSeen());
  const target = {
    rejected: 0,
    connect: (transport: Parameters<InProcessServer['connect']>[0]) => inner.connect(transport),
    fetch: async (request: Request) => {
      const body = request.method === 'POST' ? await request.clone().json() : undefined;
      if (body?.method === 'tools/call' && target.rejected === 0) {
        target.rejected += 1;
        const error = {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported, requested: '2026-07-28' },
        };
        return Response.json({ jsonrpc: '2.0', id: body.id, error }, { status: 400 });
      }
      return inner.fetch(request);
    },
  };
  return target;
}

const answerYes = { elicitationHandler: () => ({ ok: true }) };

describe('mode', () => {
  test.each<[ClientMode, 'modern' | 'handshake']>([
    ['auto', 'modern'],
    ['modern', 'modern'],
    ['handshake', 'handshake'],
  ])("'%s' against a server that speaks both eras connects %s", async (mode, era) => {
    client = new Client(sdkV2Target(freshSeen()), { mode });
    await client.connect();
    expect(client.era).toBe(era);
  });

  test("'auto' is the default", async () => {
    client = new Client(sdkV2Target(freshSeen()));
    await client.connect();
    expect(client.era).toBe('modern');
  });

  test("'auto' falls back to the handshake era when the server has no modern protocol", async () => {
    client = new Client(handshakeOnly());
    await client.connect();
    expect(client.era).toBe('handshake');
    expect(client.protocolVersion).toBe('2025-11-25');
  });

  test("'modern' against a handshake-only server fails with a clear typed error", async () => {
    client = new Client(handshakeOnly(), { mode: 'modern' });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toBe(
      "Client: mode 'modern' needs a server that speaks MCP 2026-07-28, but the in-process server does not (it speaks the handshake era only). Use mode 'auto' to fall back to the handshake era.",
    );
    expect((error as UnsupportedProtocolVersionError).data?.requested).toBe('2026-07-28');
    expect(client.era).toBeUndefined();
  });

  test('calls before connect() say what to do', async () => {
    client = new Client(sdkV2Target(freshSeen()));
    await expect(client.callTool('book_trip')).rejects.toThrow(
      'callTool: the client is not connected; await client.connect() first.',
    );
  });
});

describe('-32022 on a modern request', () => {
  test('is retried once when the server names the modern version', async () => {
    const target = rejectsFirstCall(['2026-07-28']);
    client = new Client(target, { mode: 'modern', ...answerYes });
    await client.connect();
    await expect(client.callTool('scalar_output')).resolves.toMatchObject({ data: 42 });
    expect(target.rejected).toBe(1);
    expect(client.era).toBe('modern');
  });

  test("in 'auto', a server naming only handshake versions gets the call on a handshake session", async () => {
    const target = rejectsFirstCall(['2025-11-25', '2025-06-18']);
    client = new Client(target, { ...answerYes });
    await client.connect();
    expect(client.era).toBe('modern');
    await expect(client.callTool('scalar_output')).resolves.toMatchObject({ data: 42 });
    expect(client.era).toBe('handshake');
    expect(client.protocolVersion).toBe('2025-11-25');
  });

  test("in 'modern', the same answer is a clear typed error", async () => {
    client = new Client(rejectsFirstCall(['2025-11-25']), { mode: 'modern' });
    await client.connect();
    const error = await client.callTool('scalar_output').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toMatch(/it offers 2025-11-25/);
  });

  test('a version neither side speaks is a typed error carrying what the server offered', async () => {
    client = new Client(rejectsFirstCall(['2099-01-01']), { mode: 'auto' });
    await client.connect();
    const error = await client.callTool('scalar_output').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as UnsupportedProtocolVersionError).data).toEqual({
      supported: ['2099-01-01'],
      requested: '2026-07-28',
    });
  });
});
