import { spawn, type ChildProcess } from 'node:child_process';

import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk-v1/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk-v1/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk-v1/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk-v1/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client as ParleyClient } from '@parley/client';

import { nodeArgs } from '../../../scripts/apps.mjs';

/**
 * `book_flight` is one handler written with `ctx.ask`, and every kind of client books with it:
 * the Parley client and a raw MCP SDK v2 client in each era, and the v1 SDK client (handshake
 * only), over HTTP (the booking app as a real process on 127.0.0.1) and over stdio (the app as
 * a child process per client). Each is asked the same three questions, in order, once each.
 */

const ENTRY = 'apps/booking/src/main.ts';
const QUESTIONS = [
  'Where would you like to fly?',
  'When would you like to fly to Paris?',
  'Book a flight to Paris on 2026-08-01? Who is travelling?',
];
const BOOKED = /^Booked BK-\d{4}: Ada Lovelace to Paris on 2026-08-01$/;

function answerTo(message: string): Record<string, string | boolean> {
  if (message === QUESTIONS[0]) return { destination: 'Paris' };
  if (message === QUESTIONS[1]) return { date: '2026-08-01' };
  if (message === QUESTIONS[2]) return { passenger: 'Ada Lovelace', confirm: true };
  throw new Error(`unexpected question: ${message}`);
}

const stdio = {
  command: process.execPath,
  args: nodeArgs(ENTRY, '--stdio'),
  stderr: 'ignore' as const,
};

type Transport = 'http' | 'stdio';

/** One kind of client: books a flight over `transport` and says what it was asked. */
interface Booker {
  name: string;
  book(transport: Transport): Promise<{ text: string; asked: string[] }>;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

let url = '';
let app: ChildProcess | undefined;

beforeAll(async () => {
  app = spawn(process.execPath, nodeArgs(ENTRY), {
    env: { ...process.env, BOOKING_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    app!.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /serving (http:\/\/\S+)/.exec(seen)?.[1];
      if (found !== undefined) resolve(found);
    });
    app!.once('exit', (code) => reject(new Error(`the booking app exited (${code}): ${seen}`)));
  });
}, 60_000);

afterAll(() => {
  app?.kill('SIGTERM');
});

function parley(mode: 'modern' | 'handshake'): Booker {
  return {
    name: `the Parley client (${mode})`,
    async book(transport) {
      const asked: string[] = [];
      await using client = new ParleyClient(transport === 'http' ? url : stdio, {
        mode,
        elicitationHandler: (message, responseType) => {
          asked.push(message);
          return responseType(answerTo(message) as never);
        },
      });
      await client.connect();
      expect(client.era).toBe(mode);
      return { text: textOf(await client.callTool('book_flight')), asked };
    },
  };
}

function sdkV2(mode: 'modern' | 'legacy'): Booker {
  return {
    name: `a raw SDK v2 client (${mode})`,
    async book(transport) {
      const asked: string[] = [];
      const client = new SdkClient(
        { name: 'sdk-v2', version: '1.0.0' },
        {
          capabilities: { elicitation: { form: {} } },
          versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
        },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: answerTo(request.params.message) };
      });
      await client.connect(
        transport === 'http'
          ? new StreamableHTTPClientTransport(new URL(url))
          : new StdioClientTransport(stdio),
      );
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(
          mode === 'modern' ? '2026-07-28' : '2025-11-25',
        );
        const result = await client.callTool({ name: 'book_flight', arguments: {} });
        return { text: textOf(result), asked };
      } finally {
        await client.close();
      }
    },
  };
}

const v1: Booker = {
  name: 'the v1 SDK client',
  async book(transport) {
    const asked: string[] = [];
    const client = new V1Client(
      { name: 'sdk-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const message = String(request.params.message);
      asked.push(message);
      return { action: 'accept', content: answerTo(message) };
    });
    await client.connect(
      transport === 'http' ? new V1HttpTransport(new URL(url)) : new V1StdioTransport(stdio),
    );
    try {
      const result = await client.callTool({ name: 'book_flight', arguments: {} });
      return { text: textOf(result), asked };
    } finally {
      await client.close();
    }
  },
};

const bookers = [parley('modern'), parley('handshake'), sdkV2('modern'), sdkV2('legacy'), v1];

describe.each(['http', 'stdio'] as const)('book_flight over %s', (transport) => {
  test.each(bookers)('$name books it, asked each question once, in order', async (booker) => {
    const { text, asked } = await booker.book(transport);
    expect(text).toMatch(BOOKED);
    expect(asked).toEqual(QUESTIONS);
  });
});
