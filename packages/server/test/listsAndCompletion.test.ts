import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import * as z from 'zod';

import { ParleyServer } from '../src/index.ts';

/** Argument completion, resource subscriptions and list-change announcements. */

function catalogServer() {
  const mcp = new ParleyServer({ name: 'catalog', onWarning: () => {} });
  mcp.prompt(
    'trip',
    {
      description: 'Plan a trip',
      arguments: { city: z.string(), season: z.string().optional() },
      complete: {
        city: (value) =>
          ['Paris', 'Parma', 'Porto', 'Oslo'].filter((city) => city.startsWith(value)),
      },
    },
    ({ city }) => `Plan a trip to ${city}`,
  );
  mcp.resourceTemplate(
    'weather://{city}',
    {
      name: 'weather',
      complete: { city: (value, { arguments: args }) => [`${value}-${args.unit ?? 'c'}`] },
    },
    (_uri, { city }) => `Sunny in ${String(city)}`,
  );
  mcp.resource('weather://alerts', { name: 'alerts', mimeType: 'text/plain' }, () => 'none');
  return mcp;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function connect(mcp: ParleyServer) {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await mcp.connect(serverSide);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
  return client;
}

describe('completion', () => {
  test('prompt arguments complete from the registered completer', async () => {
    const client = await connect(catalogServer());
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip' },
      argument: { name: 'city', value: 'Pa' },
    });
    expect(result.completion).toEqual({ values: ['Paris', 'Parma'], total: 2, hasMore: false });
  });

  test('an argument without a completer gets no suggestions, not an error', async () => {
    const client = await connect(catalogServer());
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip' },
      argument: { name: 'season', value: 's' },
    });
    expect(result.completion.values).toEqual([]);
  });

  test('template variables complete with the other arguments as context', async () => {
    const client = await connect(catalogServer());
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'weather://{city}' },
      argument: { name: 'city', value: 'Rome' },
      context: { arguments: { unit: 'f' } },
    });
    expect(result.completion.values).toEqual(['Rome-f']);
  });

  test('an unknown prompt is -32602', async () => {
    const client = await connect(catalogServer());
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'x', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('announcing changes to handshake-era sessions', () => {
  test('the server declares listChanged and subscribe', async () => {
    const client = await connect(catalogServer());
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
  });

  test('registering a tool while serving announces the new list', async () => {
    const mcp = catalogServer();
    mcp.tool('first', () => 'one');
    const client = await connect(mcp);
    const changed = vi.fn();
    client.setNotificationHandler('notifications/tools/list_changed', changed);
    mcp.tool('second', () => 'two');
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['first', 'second']);
  });

  test('a subscribed resource is announced when it changes, and no longer after unsubscribing', async () => {
    const mcp = catalogServer();
    const client = await connect(mcp);
    const updated = vi.fn();
    client.setNotificationHandler('notifications/resources/updated', (notification) =>
      updated(notification.params.uri),
    );
    await client.subscribeResource({ uri: 'weather://alerts' });
    mcp.notifyResourceUpdated('weather://alerts');
    mcp.notifyResourceUpdated('weather://elsewhere');
    await vi.waitFor(() => expect(updated).toHaveBeenCalledWith('weather://alerts'));
    await client.unsubscribeResource({ uri: 'weather://alerts' });
    mcp.notifyResourceUpdated('weather://alerts');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updated).toHaveBeenCalledTimes(1);
  });
});
