import { readFileSync } from 'node:fs';

import {
  Client,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { HOST_PROFILES, type RunningServer } from '@parley/server';

import { createServer } from '../elicitation/hosts.ts';

/**
 * "Reaching every host": the routes an ask takes, with real SDK v2 clients over HTTP. A host
 * that draws Apps and cannot ask gets the App; a host whose profile says it never draws
 * elicitation is not asked natively, even though it declares it.
 */

const UI = {
  'io.modelcontextprotocol/ui': {
    mimeTypes: ['text/html;profile=mcp-app'],
  },
};

let running: RunningServer;
beforeAll(async () => {
  running = await createServer().run({
    transport: 'http',
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await running.close({ graceMs: 0 });
});

async function connect(
  name: string,
  version: string,
  capabilities: object,
  mode: 'modern' | 'handshake',
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name, version },
    {
      capabilities: capabilities as never,
      versionNegotiation: {
        mode: mode === 'modern' ? { pin: '2026-07-28' } : 'legacy',
      },
    },
  );
  if ('elicitation' in capabilities) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { city: 'Oslo' } };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.url!)),
  );
  return { client, asked };
}

describe.each(['modern', 'handshake'] as const)('%s era', (mode) => {
  test('a host that draws Apps and cannot ask: the call returns the App with the question', async () => {
    const { client } = await connect(
      'chat-app',
      '1.0.0',
      { extensions: UI },
      mode,
    );
    const result = await client.callTool({
      name: 'plan_trip',
      arguments: {},
    });
    const ask = (result._meta as Record<string, { inputRequests: object }>)[
      'dev.parley/ask'
    ];
    expect(ask?.inputRequests).toMatchObject({
      city: { params: { message: 'Which city?' } },
    });
    await client.close();
  });

  test('a host that asks natively is asked natively', async () => {
    const { client, asked } = await connect(
      'editor',
      '1.0.0',
      { elicitation: { form: {} } },
      mode,
    );
    const result = await client.callTool({
      name: 'plan_trip',
      arguments: {},
    });
    expect(result.content).toEqual([
      { type: 'text', text: 'A trip to Oslo.' },
    ]);
    expect(asked).toEqual(['Which city?']);
    await client.close();
  });

  test('acme-desktop 1.x declares elicitation, but its profile says it never draws it', async () => {
    const capabilities = { elicitation: { form: {} }, extensions: UI };
    const old = await connect('acme-desktop', '1.4.0', capabilities, mode);
    const viaApp = await old.client.callTool({
      name: 'plan_trip',
      arguments: {},
    });
    expect(old.asked).toEqual([]);
    expect(viaApp._meta).toHaveProperty(['dev.parley/ask']);
    await old.client.close();

    const fixed = await connect(
      'acme-desktop',
      '2.1.0',
      capabilities,
      mode,
    );
    await fixed.client.callTool({ name: 'plan_trip', arguments: {} });
    expect(fixed.asked).toEqual(['Which city?']);
    await fixed.client.close();
  });
});

describe('the page', () => {
  test('lists every built-in host profile', () => {
    const page = readFileSync(
      new URL('../../guide/hosts.md', import.meta.url),
      'utf8',
    );
    const table = page.slice(
      page.indexOf('## Host profiles'),
      page.indexOf('### Fields a host'),
    );
    for (const row of HOST_PROFILES) {
      const line = table
        .split('\n')
        .find(
          (text) =>
            text.includes(`\`${row.name}\``) &&
            text.includes(
              row.versions === undefined ? 'all' : `\`${row.versions}\``,
            ),
        );
      expect(line, `${row.name} ${row.versions ?? '*'}`).toBeDefined();
    }
  });
});
