import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  Client,
  RoundsExceededError,
  UnsupportedProtocolVersionError,
  type ClientOptions,
  type InProcessServer,
} from '../../src/index.ts';
import { buildSdkV1Server } from '../fixtures/sdkV1Server.ts';

/**
 * The Parley client against a v1 SDK server (1.32, handshake era only), in this process and as
 * a real child process over stdio: `'auto'` settles on the handshake era and the server's pushed
 * requests reach the client's handlers.
 */

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('');

const handlers: ClientOptions = {
  elicitationHandler: (message, responseType) =>
    message === 'Your name?' ? responseType({ name: 'Grace' }) : responseType({ ok: 'yes' }),
  samplingHandler: (messages) => {
    const content = messages[0]?.content;
    return `saw ${content !== undefined && !Array.isArray(content) && content.type === 'text' ? content.text : '?'}`;
  },
  roots: () => [{ uri: 'file:///srv/app', name: 'app' }],
};

/** The v1 server in this process: sessions only (its `fetch` knows no modern protocol). */
const inProcessV1: InProcessServer = {
  connect: async (transport) => {
    const server = buildSdkV1Server();
    await server.connect(transport as never);
    return { close: () => server.close() };
  },
  fetch: async () => new Response('Not Found', { status: 404 }),
};

describe('in this process', () => {
  test("'auto' settles on the handshake era; every kind of pushed request is answered", async () => {
    await using client = new Client(inProcessV1, handlers);
    await client.connect();
    expect(client.era).toBe('handshake');
    expect(textOf(await client.callTool('ask_name'))).toBe('Hello Grace');
    expect(textOf(await client.callTool('describe_roots'))).toBe('1 roots: saw file:///srv/app');
  });

  test('the round bound holds against a server that keeps pushing and ignores cancellation', async () => {
    let asked = 0;
    await using client = new Client(inProcessV1, {
      ...handlers,
      maxRounds: 4,
      elicitationHandler: (message, responseType) => {
        asked += 1;
        return message === 'Your name?'
          ? responseType({ name: 'Grace' })
          : responseType({ ok: 'yes' });
      },
    });
    await client.connect();
    const error = await client.callTool('never_done').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect((error as RoundsExceededError).data?.maxRounds).toBe(4);
    // The fifth request was refused with an error, which ends the server's loop; the next
    // call works.
    expect(asked).toBe(4);
    expect(textOf(await client.callTool('ask_name'))).toBe('Hello Grace');
    expect(asked).toBe(5);
  });

  test("'modern' fails clearly", async () => {
    await using client = new Client(inProcessV1, { mode: 'modern' });
    await expect(client.connect()).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
  });
});

describe('as a child process over stdio', () => {
  const main = fileURLToPath(new URL('../fixtures/sdkV1ServerMain.ts', import.meta.url));
  let client: Client;

  beforeAll(async () => {
    client = new Client(
      { command: process.execPath, args: ['--conditions=@parley/source', '--import', 'tsx', main] },
      handlers,
    );
    await client.connect();
  }, 60_000);

  afterAll(() => client.close());

  test("'auto' probes, falls back to the handshake era, and answers the pushed requests", async () => {
    expect(client.era).toBe('handshake');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(textOf(await client.callTool('ask_name'))).toBe('Hello Grace');
    expect(textOf(await client.callTool('describe_roots'))).toBe('1 roots: saw file:///srv/app');
    expect((await client.listTools()).map((tool) => tool.name)).toEqual([
      'ask_name',
      'describe_roots',
      'never_done',
    ]);
  });
});
