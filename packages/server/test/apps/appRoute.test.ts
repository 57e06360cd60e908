import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';

import { ParleyServer, elicitRequest, type RunningServer } from '../../src/index.ts';

/**
 * The App route on the wire, without a browser: a real SDK v2 client over real HTTP that draws
 * MCP Apps but declares no elicitation, in both eras. What the App would do (read the questions
 * from the result, send answers through `parley_answer`) is done here by hand; the browser test
 * (`test/integration/apps/appHost.test.ts`) does it with the real App in Chromium.
 */

const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const ASK_META = 'dev.parley/ask';

interface AppAsk {
  tool: string;
  arguments: Record<string, unknown>;
  inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState: string;
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
});

const askCity = elicitRequest('Which city?', z.object({ city: z.string().min(2) }));
const askNights = elicitRequest('How many nights?', z.object({ nights: z.number().int().min(1) }));

async function serve(
  routes?: ('elicitation' | 'app')[],
): Promise<{ url: string; booked: string[] }> {
  const booked: string[] = [];
  const mcp = new ParleyServer({
    name: 'hotel',
    ...(routes !== undefined ? { askRoutes: routes } : {}),
    onWarning: () => {},
    onError: () => {},
  });
  mcp.tool('book_hotel', { description: 'Books a room.' }, async (_args, ctx) => {
    const city = await ctx.ask('city', askCity);
    if (city.action !== 'accept') return `No booking (${city.action}).`;
    const nights = await ctx.ask('nights', askNights);
    if (nights.action !== 'accept') return `No booking (${nights.action}).`;
    booked.push(`${city.data.city} x${nights.data.nights}`);
    return `Booked ${nights.data.nights} nights in ${city.data.city}.`;
  });
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return { url: running.url as string, booked };
}

async function connect(
  url: string,
  era: 'handshake' | 'modern',
  capabilities: Record<string, unknown> = { extensions: UI },
): Promise<Client> {
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    {
      capabilities: capabilities as never,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function askIn(result: { _meta?: Record<string, unknown> }): AppAsk {
  const ask = result._meta?.[ASK_META] as AppAsk | undefined;
  expect(ask).toBeDefined();
  return ask!;
}

function answer(client: Client, ask: AppAsk, inputResponses: Record<string, unknown>) {
  return client.callTool({
    name: 'parley_answer',
    arguments: {
      tool: ask.tool,
      arguments: ask.arguments,
      requestState: ask.requestState,
      inputResponses,
    },
  });
}

describe.each(['handshake', 'modern'] as const)('the App route, %s era', (era) => {
  test('a client that draws Apps sees each tool with the App, and the app-only answer tool', async () => {
    const { url } = await serve(['elicitation', 'app']);
    const client = await connect(url, era);
    try {
      const { tools } = await client.listTools();
      const book = tools.find((tool) => tool.name === 'book_hotel')!;
      expect(book._meta).toMatchObject({ ui: { resourceUri: 'ui://parley/ask' } });
      const answerTool = tools.find((tool) => tool.name === 'parley_answer')!;
      expect(answerTool._meta).toMatchObject({ ui: { visibility: ['app'] } });
      const read = await client.readResource({ uri: 'ui://parley/ask' });
      expect(read.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
      expect((read.contents[0] as { text: string }).text).toContain('<!doctype html>');
    } finally {
      await client.close();
    }
  });

  test('the questions go to the App, the answers come back through parley_answer, and the flow goes on', async () => {
    const { url, booked } = await serve(['elicitation', 'app']);
    const client = await connect(url, era);
    try {
      const first = await client.callTool({ name: 'book_hotel', arguments: {} });
      const ask = askIn(first);
      expect(ask.inputRequests.city?.params.message).toBe('Which city?');
      // The model reads what is happening, never the state.
      const told = (first.content as { text: string }[])[0]!.text;
      expect(told).toContain('answering "Which city?"');
      expect(told).not.toContain(ask.requestState);

      const second = askIn(
        await answer(client, ask, { city: { action: 'accept', content: { city: 'Oslo' } } }),
      );
      expect(second.inputRequests.nights?.params.message).toBe('How many nights?');

      // A wrong answer is asked again, on its field, with the reason.
      const again = askIn(
        await answer(client, second, { nights: { action: 'accept', content: { nights: 0 } } }),
      );
      expect(again.inputRequests.nights?.params.message).toMatch(/nights|1/i);
      expect(again.inputRequests.nights?.params.message).not.toBe('How many nights?');

      const done = await answer(client, again, {
        nights: { action: 'accept', content: { nights: 3 } },
      });
      expect(done._meta?.[ASK_META]).toBeUndefined();
      expect(done.content).toEqual([{ type: 'text', text: 'Booked 3 nights in Oslo.' }]);
      expect(booked).toEqual(['Oslo x3']);

      // The same submission again books nothing more; a forged state is refused.
      const replayed = await answer(client, again, {
        nights: { action: 'accept', content: { nights: 3 } },
      });
      expect(replayed.content).toEqual(done.content);
      expect(booked).toEqual(['Oslo x3']);
      await expect(
        answer(
          client,
          { ...again, requestState: `${again.requestState.slice(0, -4)}AAAA` },
          {
            nights: { action: 'accept', content: { nights: 5 } },
          },
        ),
      ).rejects.toThrow(/state/i);
      await expect(
        answer(
          client,
          { ...again, arguments: { other: true } },
          {
            nights: { action: 'accept', content: { nights: 5 } },
          },
        ),
      ).rejects.toThrow(/state|argument/i);
      expect(booked).toEqual(['Oslo x3']);
    } finally {
      await client.close();
    }
  });

  test('decline and cancel end the flow as an elicitation would', async () => {
    const { url, booked } = await serve(['elicitation', 'app']);
    const client = await connect(url, era);
    try {
      for (const action of ['decline', 'cancel'] as const) {
        const ask = askIn(await client.callTool({ name: 'book_hotel', arguments: {} }));
        const ended = await answer(client, ask, { city: { action } });
        expect(ended.content).toEqual([{ type: 'text', text: `No booking (${action}).` }]);
      }
      expect(booked).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test('a client that can elicit is asked natively; without the App route a client that cannot is refused as before', async () => {
    const { url } = await serve();
    const client = await connect(url, era);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['book_hotel']);
      expect(tools[0]!._meta).toBeUndefined();
      const refused = await client.callTool({ name: 'book_hotel', arguments: {} }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => String(error),
      );
      expect(refused).toMatch(/elicitation/);
    } finally {
      await client.close();
    }
  });

  test('a bad call of the answer tool is a clear error naming what is wrong', async () => {
    const { url } = await serve(['elicitation', 'app']);
    const client = await connect(url, era);
    try {
      await expect(
        client.callTool({ name: 'parley_answer', arguments: { tool: 'book_hotel' } }),
      ).rejects.toThrow(/requestState must be the sealed state/);
      await expect(
        client.callTool({ name: 'parley_answer', arguments: { requestState: 'x' } }),
      ).rejects.toThrow(/tool must name the tool/);
    } finally {
      await client.close();
    }
  });
});
