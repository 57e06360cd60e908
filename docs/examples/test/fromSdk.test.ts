/**
 * "Coming from the MCP SDK": the raw SDK v2 examples run for real and do what their Parley
 * counterparts do. The modern guard is served over HTTP by the SDK's own `createMcpHandler` (on
 * @hono/node-server, 127.0.0.1); the SDK's client books a flight from it and from the Parley
 * server of the same flow, and the Parley client books one from the SDK server, with the same
 * result each time. The handshake example answers the same as Parley's `ctx.elicit` example.
 */
import { serve, type ServerType } from '@hono/node-server';
import {
  Client as SdkClient,
  InMemoryTransport,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import type { RunningServer } from '@parley/server';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as eraErrors from '../elicitation/eraErrors.ts';
import { bookFlight as sdkClientBooks } from '../fromSdk/client.ts';
import * as sdkHandshake from '../fromSdk/handshake.ts';
import * as sdkModern from '../fromSdk/modern.ts';
import { consoleOutput, quoted, textOf } from './support.ts';

const KEY = 'docs-example-state-key-'.repeat(2);
const booked = quoted('elicitation/drivingTheLoop.out.txt');

let sdkHttp: ServerType;
let sdkUrl: URL;
let parley: RunningServer;

beforeAll(async () => {
  const handler = createMcpHandler(() => sdkModern.createSdkServer(KEY), {
    legacy: 'reject',
  });
  sdkUrl = await new Promise<URL>((resolve) => {
    sdkHttp = serve(
      {
        fetch: (request) => handler.fetch(request),
        port: 0,
        hostname: '127.0.0.1',
      },
      ({ port }) => resolve(new URL(`http://127.0.0.1:${port}/mcp`)),
    );
  });
  parley = await bookFlight
    .createServer({ requestStateSecurity: { keys: [KEY] } })
    .run({ transport: 'http', port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await new Promise((resolve) => sdkHttp.close(resolve));
  await parley?.close({ graceMs: 0 });
});

describe('the modern guard by hand (SDK) and with Parley', () => {
  test("the SDK's client books from the SDK's server", async () => {
    expect(await consoleOutput(() => sdkClientBooks(sdkUrl))).toBe(booked);
  });

  test("the SDK's client books from the Parley server of the same flow", async () => {
    expect(
      await consoleOutput(() => sdkClientBooks(new URL(parley.url!))),
    ).toBe(booked);
  });

  test("the Parley client books from the SDK's server", async () => {
    await using client = new Client(sdkUrl, {
      elicitationHandler: async (message, responseType) =>
        message.includes('Where')
          ? responseType({ destination: 'Paris' })
          : responseType({ date: '2026-08-01' }),
    });
    await client.connect();
    expect(textOf(await client.callTool('book_flight'))).toBe(booked);
  });
});

describe('the handshake era: elicitInput (SDK) and ctx.elicit (Parley)', () => {
  /** `ask_name` of the SDK example, asked by an SDK client that answers `answer`. */
  async function sdkAnswer(answer: ElicitResult): Promise<string> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await sdkHandshake.createSdkServer().connect(serverSide as never);
    const client = new SdkClient(
      { name: 'sdk-client', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: 'legacy' },
      },
    );
    client.setRequestHandler('elicitation/create', async () => answer);
    await client.connect(clientSide);
    const result = await client.callTool({
      name: 'ask_name',
      arguments: {},
    });
    await client.close();
    return textOf(result);
  }

  /** `ask_name` of Parley's `ctx.elicit` example, asked by a Parley client. */
  async function parleyAnswer(answer: ElicitResult): Promise<string> {
    await using client = new Client(eraErrors.createServer(), {
      mode: 'handshake',
      elicitationHandler: () =>
        answer.action === 'accept'
          ? { action: 'accept', content: answer.content ?? {} }
          : { action: answer.action },
    });
    await client.connect();
    return textOf(await client.callTool('ask_name'));
  }

  test.each([
    { action: 'accept', content: { value: 'Ada' } },
    { action: 'decline' },
  ] satisfies ElicitResult[])('$action: the same reply', async (answer) => {
    const reply = await sdkAnswer(answer);
    expect(reply).toBe(
      answer.action === 'accept' ? 'Hello, Ada!' : 'Hello, stranger!',
    );
    expect(await parleyAnswer(answer)).toBe(reply);
  });
});
