import { Client } from '@modelcontextprotocol/sdk-v1/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk-v1/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk-v1/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, type RunningServer } from '../../src/index.ts';

/**
 * Clients that negotiated a version older than the form asks for: the v1 SDK client (1.x) over
 * real HTTP on 127.0.0.1, pinned to the version by its `initialize` (the v1 client always offers
 * its latest; its transport is told to offer the older one, which it also supports).
 *
 * - 2025-06-18 has no multi-select: the form comes as one yes/no field per option, and the
 *   handler gets its list, checked as it wrote it.
 * - 2025-03-26 has no elicitation at all, but a client that declares the capability anyway is
 *   taken at its word; one that declares nothing gets the error it always got.
 */

let running: RunningServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close({ graceMs: 0 });
  running = undefined;
});

async function serve(): Promise<string> {
  const mcp = new ParleyServer({ name: 'older-clients', onWarning: () => {}, onError: () => {} });
  mcp.tool('label_issue', async (_args, ctx) => {
    const labels = await ctx.elicit(
      'Which labels?',
      z.object({
        labels: z
          .array(z.enum(['bug', 'docs', 'question']))
          .min(1)
          .meta({ title: 'Labels' }),
      }),
    );
    return labels.action === 'accept' ? `Labelled ${labels.data.labels.join(', ')}` : labels.action;
  });
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return running.url as string;
}

/** The transport of a v1 client whose `initialize` offers `version`. */
function offering(url: string, version: string): StreamableHTTPClientTransport {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const request = message as { method?: string; params?: { protocolVersion?: string } };
    if (request.method === 'initialize' && request.params !== undefined) {
      request.params.protocolVersion = version;
    }
    return send(message, options);
  };
  return transport;
}

type Answer = (params: Record<string, unknown>) => Record<string, unknown>;

async function connect(version: string, answer?: Answer): Promise<Record<string, unknown>[]> {
  const url = await serve();
  const asked: Record<string, unknown>[] = [];
  client = new Client(
    { name: 'v1-client', version: '1.0.0' },
    { capabilities: answer === undefined ? {} : { elicitation: {} } },
  );
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return answer(request.params as Record<string, unknown>) as never;
    });
  }
  await client.connect(offering(url, version));
  expect(client.getServerCapabilities()).toBeDefined();
  return asked;
}

const text = (result: unknown) =>
  (result as { content: { type: string; text: string }[] }).content[0]?.text;

describe('a client on 2025-06-18 and a multi-select form', () => {
  test('gets one yes/no field per option, and the handler gets the list it asked for', async () => {
    const asked = await connect('2025-06-18', () => ({
      action: 'accept',
      content: { 'labels.bug': true, 'labels.docs': false, 'labels.question': true },
    }));
    const result = await client!.callTool({ name: 'label_issue', arguments: {} });
    expect(text(result)).toBe('Labelled bug, question');
    expect(asked[0]).toMatchObject({
      message: 'Which labels?',
      requestedSchema: {
        type: 'object',
        properties: {
          'labels.bug': { type: 'boolean', title: 'Labels: bug' },
          'labels.docs': { type: 'boolean', title: 'Labels: docs' },
          'labels.question': { type: 'boolean', title: 'Labels: question' },
        },
      },
    });
    expect(asked[0]).not.toHaveProperty('mode');
  });

  test('an answer that does not fit the list as written is asked again, saying why', async () => {
    let round = 0;
    const asked = await connect('2025-06-18', () =>
      round++ === 0
        ? { action: 'accept', content: {} }
        : { action: 'accept', content: { 'labels.docs': true } },
    );
    const result = await client!.callTool({ name: 'label_issue', arguments: {} });
    expect(text(result)).toBe('Labelled docs');
    expect(asked).toHaveLength(2);
    expect(String(asked[1]?.message)).toMatch(/^Which labels\?/);
    expect(String(asked[1]?.message)).toMatch(/Labels.*at least 1 option/s);
  });
});

describe('a client on 2025-03-26, which has no elicitation', () => {
  test('that declares the capability anyway is asked, as on 2025-06-18', async () => {
    const asked = await connect('2025-03-26', () => ({
      action: 'accept',
      content: { 'labels.bug': true },
    }));
    const result = await client!.callTool({ name: 'label_issue', arguments: {} });
    expect(text(result)).toBe('Labelled bug');
    expect(asked).toHaveLength(1);
  });

  test('that declares nothing gets the capability error, as before', async () => {
    await connect('2025-03-26');
    const result = await client!.callTool({ name: 'label_issue', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('elicitation not supported by this client');
  });
});
