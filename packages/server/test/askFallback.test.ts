import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';

import type { ClientCapabilities, ElicitResult } from '@parley/core';
import {
  ParleyServer,
  elicitRequest,
  elicitUrlRequest,
  sampleRequest,
  type RunningServer,
} from '../src/index.ts';

/**
 * The fallback policies, seen by real MCP SDK v2 clients over real HTTP on 127.0.0.1, in both
 * eras, for clients that declare nothing, form only, form and URL, and sampling without
 * elicitation: what `tools/list` shows each, and what calls without and with the arguments
 * return.
 */

const askDestination = elicitRequest(
  'Where to?',
  z.object({ destination: z.string().min(2).meta({ title: 'Destination' }) }),
);
const askNights = (destination: string) =>
  elicitRequest(`How many nights in ${destination}?`, z.number().int().min(1), {
    responseTitle: 'Nights',
  });
const askPayment = elicitUrlRequest('Pay for the trip', 'https://pay.example/trip/1');
const askSummary = sampleRequest('Summarise the trip in one line.');
const askWipe = elicitRequest('Delete every trip?', Boolean, { responseTitle: 'Delete them' });
const askWipeOpen = elicitRequest('Delete every trip?', Boolean, {
  responseTitle: 'Delete them',
  modelMayConfirm: true,
});

function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'fallback-test', onWarning: () => {}, onError: () => {} });
  const trip = (policy: 'arguments' | 'hide' | 'error') =>
    mcp.tool(
      `trip_${policy}`,
      {
        description: 'Plan a trip',
        asks: { destination: askDestination, nights: askNights('your destination') },
        askFallback: policy,
      },
      async (_args, ctx) => {
        const where = await ctx.ask('destination', askDestination);
        if (where.action !== 'accept') return 'No trip.';
        const nights = await ctx.ask('nights', askNights(where.data.destination));
        if (nights.action !== 'accept') return 'No trip.';
        return `Trip to ${where.data.destination} for ${nights.data} nights.`;
      },
    );
  trip('arguments');
  trip('hide');
  trip('error');
  mcp.tool(
    'pay',
    { asks: { payment: askPayment }, askFallback: 'arguments' },
    async (_args, ctx) => {
      const paid = await ctx.ask('payment', askPayment);
      return paid.action === 'accept' ? 'Paid.' : 'Not paid.';
    },
  );
  mcp.tool(
    'summarise',
    { asks: { summary: askSummary }, askFallback: 'arguments' },
    async (_args, ctx) => {
      const summary = await ctx.ask('summary', askSummary);
      return `Summary: ${(summary.content as { text: string }).text}`;
    },
  );
  for (const [name, ask] of [
    ['wipe', askWipe],
    ['wipe_open', askWipeOpen],
  ] as const) {
    mcp.tool(name, { asks: { confirm: ask }, askFallback: 'arguments' }, async (_args, ctx) => {
      const answer = await ctx.ask('confirm', ask);
      return answer.action === 'accept' && answer.data ? 'Deleted.' : 'Kept.';
    });
  }
  mcp.tool(
    'trip_custom',
    {
      askFallback: ({ key }) =>
        key === 'destination'
          ? { action: 'accept', content: { destination: 'Lisbon' } }
          : undefined,
    },
    async (_args, ctx) => {
      const where = await ctx.ask('destination', askDestination);
      return where.action === 'accept' ? `Trip to ${where.data.destination}.` : 'No trip.';
    },
  );
  return mcp;
}

let running: RunningServer;
beforeAll(async () => {
  running = await createServer().run({ transport: 'http', host: '127.0.0.1', port: 0 });
});
afterAll(() => running.close());

type Declares = 'nothing' | 'form' | 'form+url' | 'sampling';
const DECLARED: Record<Declares, ClientCapabilities> = {
  nothing: {},
  form: { elicitation: { form: {} } },
  'form+url': { elicitation: { form: {}, url: {} } },
  sampling: { sampling: {} },
};

function answerTo(message: string | undefined): ElicitResult {
  if (message === undefined) return { action: 'accept' };
  if (message === 'Where to?') return { action: 'accept', content: { destination: 'Oslo' } };
  if (message.startsWith('How many nights')) return { action: 'accept', content: { value: 2 } };
  if (message === 'Delete every trip?') return { action: 'decline' };
  throw new Error(`unexpected question: ${message}`);
}

async function connect(era: 'modern' | 'handshake', declares: Declares): Promise<Client> {
  const capabilities = DECLARED[declares];
  const client = new Client(
    { name: 'fallback-test-client', version: '1.0.0' },
    {
      capabilities: capabilities as never,
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  if (capabilities.elicitation !== undefined) {
    client.setRequestHandler(
      'elicitation/create',
      async (request) =>
        answerTo(request.params.mode === 'url' ? undefined : request.params.message) as never,
    );
  }
  if (capabilities.sampling !== undefined) {
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the client' },
      model: 'test-model',
    }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url!)));
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true, result };
}

describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
  describe.each(Object.keys(DECLARED) as Declares[])('a client declaring %s', (declares) => {
    const canForm = declares === 'form' || declares === 'form+url';
    const canUrl = declares === 'form+url';
    const canSample = declares === 'sampling';
    let client: Client;
    beforeAll(async () => {
      client = await connect(era, declares);
    });
    afterAll(() => client.close());

    test('tools/list shows each tool as this client can use it', async () => {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const args = (name: string) => Object.keys(byName.get(name)?.inputSchema.properties ?? {});
      expect(byName.has('trip_hide')).toBe(canForm);
      expect(args('trip_arguments')).toEqual(canForm ? [] : ['destination', 'nights']);
      expect(args('trip_error')).toEqual([]);
      expect(args('pay')).toEqual(canUrl ? [] : ['payment']);
      expect(args('summarise')).toEqual(canSample ? [] : ['summary']);
      // A confirmation is never an argument, unless the ask opened it to the model.
      expect(args('wipe')).toEqual([]);
      expect(args('wipe_open')).toEqual(canForm ? [] : ['confirm']);
      if (!canForm) {
        const schema = byName.get('trip_arguments')!.inputSchema;
        expect(schema.required ?? []).toEqual([]);
        expect(schema.properties).toMatchObject({
          destination: {
            type: 'string',
            minLength: 2,
            description: 'Ask the user: Where to? — Destination',
          },
          nights: {
            type: 'integer',
            minimum: 1,
            description: 'Ask the user: How many nights in your destination? — Nights',
          },
        });
      }
    });

    test("'arguments': without the arguments, the call says what to ask and what to send", async () => {
      const { text, isError, result } = await call(client, 'trip_arguments');
      if (canForm) {
        expect(text).toBe('Trip to Oslo for 2 nights.');
        return;
      }
      expect(isError).toBe(true);
      expect(text).toContain('Put these questions to the user');
      expect(text).toContain('call trip_arguments again with the same arguments and these added:');
      expect(text).toContain('- destination: Where to?');
      expect(text).toContain('  - destination (string): Ask the user: Where to? — Destination');
      expect(text).toContain('- nights: How many nights in your destination?');
      expect(result._meta?.['parley/argumentsNeeded']).toMatchObject({
        tool: 'trip_arguments',
        asks: [
          { key: 'destination', reason: 'missing', arguments: ['destination'] },
          { key: 'nights', reason: 'missing', arguments: ['nights'] },
        ],
      });
    });

    test("'arguments': with them, the tool runs on the answers they carry", async () => {
      const { text } = await call(client, 'trip_arguments', { destination: 'Paris', nights: 3 });
      // A client that can answer was never offered these arguments: it is asked, as ever.
      expect(text).toBe(canForm ? 'Trip to Oslo for 2 nights.' : 'Trip to Paris for 3 nights.');
    });

    test("'arguments': only some of them: the rest are asked for, naming the earlier answer", async () => {
      if (canForm) return;
      const { text } = await call(client, 'trip_arguments', { destination: 'Paris' });
      expect(text).toContain('- nights: How many nights in Paris?');
      expect(text).not.toContain('- destination:');
    });

    test("'arguments': an invalid value gets the elicitation's re-ask wording", async () => {
      if (canForm) return;
      const { text, isError } = await call(client, 'trip_arguments', {
        destination: 'P',
        nights: 0,
      });
      expect(isError).toBe(true);
      expect(text).toContain(
        '- destination: Where to?\n\nYour last answer could not be used. Destination: ',
      );
      expect(text).toMatch(/Destination: .*2/);
      const typed = await call(client, 'trip_arguments', { destination: 'Paris', nights: 'two' });
      expect(typed.text).toContain(
        '- nights: How many nights in Paris?\n\nYour last answer could not be used. Nights: ',
      );
    });

    test('a confirmation is never taken from arguments by default', async () => {
      const wipe = await call(client, 'wipe', { confirm: true });
      if (canForm) {
        expect(wipe.text).toBe('Kept.');
        return;
      }
      expect(wipe.isError).toBe(true);
      expect(wipe.text).toContain("wipe also needs the user's own confirmation");
      expect(wipe.text).toContain('confirm (Delete every trip?: Delete them)');
      // …unless the ask opened it to the model.
      expect((await call(client, 'wipe_open', { confirm: true })).text).toBe('Deleted.');
      expect((await call(client, 'wipe_open', { confirm: false })).text).toBe('Kept.');
    });

    test('a URL step without URL mode: the link goes to the model for the user', async () => {
      const without = await call(client, 'pay');
      if (canUrl) {
        expect(without.text).toBe('Paid.');
        return;
      }
      expect(without.text).toContain('- payment: Pay for the trip');
      expect(without.text).toContain('Ask the user to open https://pay.example/trip/1');
      expect((await call(client, 'pay', { payment: true })).text).toBe('Paid.');
      expect((await call(client, 'pay', { payment: 'yes' })).text).toContain(
        "'payment' must be true",
      );
    });

    test('a sampling ask without sampling: the model writes the text itself', async () => {
      const without = await call(client, 'summarise');
      if (canSample) {
        expect(without.text).toBe('Summary: sampled by the client');
        return;
      }
      expect(without.text).toContain('Summarise the trip in one line.');
      const given = await call(client, 'summarise', { summary: 'Three nights in Paris.' });
      expect(given.text).toBe('Summary: Three nights in Paris.');
    });

    test("'hide' and 'error': a call the client cannot serve fails with the typed error", async () => {
      for (const name of ['trip_hide', 'trip_error']) {
        if (canForm) {
          expect((await call(client, name)).text).toBe('Trip to Oslo for 2 nights.');
          continue;
        }
        // Arguments are no way round it: they were never listed.
        const attempt = client.callTool({ name, arguments: { destination: 'Paris', nights: 3 } });
        if (era === 'modern') {
          await expect(attempt).rejects.toMatchObject({ code: -32021 });
        } else {
          const result = await attempt;
          expect(result.isError).toBe(true);
          expect(textOf(result)).toMatch(/elicitation/);
        }
      }
    });

    test('a custom fallback answers for the client', async () => {
      const { text } = await call(client, 'trip_custom');
      expect(text).toBe(canForm ? 'Trip to Oslo.' : 'Trip to Lisbon.');
    });
  });
});

describe('registration', () => {
  test("'arguments' and 'hide' need declared asks", () => {
    const mcp = new ParleyServer({ name: 'x' });
    expect(() => mcp.tool('t', { askFallback: 'hide' }, () => 'ok')).toThrow(
      "tool 't': askFallback 'hide' needs the tool's asks declared (options.asks)",
    );
    expect(() => mcp.tool('u', { askFallback: 'sometimes' as never }, () => 'ok')).toThrow(
      "tool 'u': askFallback must be 'error', 'hide', 'arguments' or a function",
    );
  });

  test('an argument name may not clash with a parameter of the tool', () => {
    const mcp = new ParleyServer({ name: 'x' });
    expect(() =>
      mcp.tool(
        't',
        {
          inputSchema: { destination: z.string() },
          asks: { where: askDestination },
          askFallback: 'arguments',
        },
        () => 'ok',
      ),
    ).toThrow("ask 'where' would add argument 'destination'");
  });

  test("the server's default applies to tools that declare asks, and a tool's own wins", async () => {
    const mcp = new ParleyServer({ name: 'x', askFallback: 'hide', onWarning: () => {} });
    mcp.tool('declared', { asks: { destination: askDestination } }, () => 'ok');
    mcp.tool('undeclared', {}, () => 'ok');
    mcp.tool(
      'own',
      { asks: { destination: askDestination }, askFallback: 'arguments' },
      () => 'ok',
    );
    const server = await mcp.run({ transport: 'http', host: '127.0.0.1', port: 0 });
    try {
      const client = new Client(
        { name: 'bare', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['undeclared', 'own']);
      await client.close();
    } finally {
      await server.close();
    }
  });
});
