import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';

import type { ClientCapabilities, ElicitResult, Implementation } from '@parley/core';
import {
  APP_CAPABILITIES,
  reachOf,
  type AskReach,
  type AskRoute,
} from '../../src/ask/askRoutes.ts';
import {
  HOST_PROFILES,
  hostProfilesOf,
  inVersionRange,
  type HostProfile,
} from '../../src/ask/hostProfiles.ts';
import { ParleyServer, elicitRequest, type RunningServer } from '../../src/index.ts';

/**
 * Host profiles: what the built-in table says of each host, seen through the route an ask takes
 * (`reachOf`); the table a server builds from its own rows; and, over real HTTP with the SDK v2
 * client, a host that declares elicitation but never draws it, and one that cannot draw numbers
 * or multi-selects.
 */

const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const FORM: ClientCapabilities = { elicitation: { form: {} } };
const CODEX_KINDS = ['number', 'integer', 'multiSelect'];

interface RowCase {
  what: string;
  client: Implementation;
  declared: ClientCapabilities;
  routes: readonly AskRoute[];
  reach: AskReach;
}

const reach = (capabilities: ClientCapabilities, more: Partial<AskReach> = {}): AskReach => ({
  capabilities,
  app: false,
  appElicitation: false,
  cannotRender: [],
  ...more,
});
const APP_REACH = reach(APP_CAPABILITIES, { app: true });
/** A client that sends no version: Implementation requires one, some hosts send none. */
const versionless = (name: string) => ({ name }) as Implementation;

/** The consequences of each built-in row, keyed as `name versions`. */
const CASES: Record<string, RowCase[]> = {
  'claude-ai *': [
    {
      what: 'declares elicitation, is left without it, and no route reaches it',
      client: { name: 'claude-ai', version: '0.1.0' },
      declared: FORM,
      routes: ['elicitation'],
      reach: reach({}),
    },
    {
      what: 'with the App route and the UI extension, gets the App',
      client: { name: 'claude-ai', version: '0.1.0' },
      declared: { ...FORM, extensions: UI },
      routes: ['elicitation', 'app'],
      reach: APP_REACH,
    },
    {
      what: 'matched whatever the case of its name, and without a version',
      client: versionless('Claude-AI'),
      declared: FORM,
      routes: ['elicitation'],
      reach: reach({}),
    },
  ],
  'claude-code <2.1.76': [
    {
      what: '2.1.50 declares elicitation and is left without it',
      client: { name: 'claude-code', version: '2.1.50' },
      declared: { elicitation: { form: {}, url: {} } },
      routes: ['elicitation'],
      reach: reach({}),
    },
  ],
  'claude-code >=2.1.76': [
    {
      what: '2.1.80 keeps form elicitation, its URL mode stripped',
      client: { name: 'claude-code', version: '2.1.80' },
      declared: { elicitation: { form: {}, url: {} } },
      routes: ['elicitation'],
      reach: reach(FORM),
    },
    {
      what: '2.1.76 declaring URL mode only is left with no elicitation',
      client: { name: 'CLAUDE-CODE', version: '2.1.76' },
      declared: { elicitation: { url: {} } },
      routes: ['elicitation'],
      reach: reach({}),
    },
    {
      what: 'without a version matches neither versioned row: taken at its word',
      client: versionless('claude-code'),
      declared: { elicitation: { form: {}, url: {} } },
      routes: ['elicitation'],
      reach: reach({ elicitation: { form: {}, url: {} } }),
    },
  ],
  'codex-mcp-client *': [
    {
      what: 'asked natively, with numbers and multi-selects adapted',
      client: { name: 'codex-mcp-client', version: '0.50.0' },
      declared: FORM,
      routes: ['elicitation', 'app'],
      reach: reach(FORM, { cannotRender: CODEX_KINDS as AskReach['cannotRender'] }),
    },
  ],
  'Codex *': [
    {
      what: 'matched in lower case, asked natively, fields adapted',
      client: { name: 'codex', version: '1.0.0' },
      declared: FORM,
      routes: ['elicitation'],
      reach: reach(FORM, { cannotRender: CODEX_KINDS as AskReach['cannotRender'] }),
    },
  ],
  'ChatGPT *': [
    {
      what: 'declaring elicitation anyway is left without it; with the UI it gets the App',
      client: { name: 'chatgpt', version: '1.0.0' },
      declared: { ...FORM, extensions: UI },
      routes: ['elicitation', 'app'],
      reach: APP_REACH,
    },
  ],
  'gemini-cli-mcp-client *': [
    {
      what: 'declaring elicitation anyway is left without it',
      client: { name: 'gemini-cli-mcp-client', version: '0.9.0' },
      declared: FORM,
      routes: ['elicitation'],
      reach: reach({}),
    },
  ],
};

const keyOf = (row: HostProfile) => `${row.name} ${row.versions ?? '*'}`;
const routing = (routes: readonly AskRoute[]) => ({ routes, profiles: HOST_PROFILES });

describe('each built-in host profile', () => {
  test('has cases, and every case names a row', () => {
    expect(Object.keys(CASES).sort()).toEqual(HOST_PROFILES.map(keyOf).sort());
  });

  describe.each(HOST_PROFILES.map((row) => [keyOf(row), row] as const))('%s', (key) => {
    test.each(CASES[key] ?? [])('$what', ({ client, declared, routes, reach: expected }) => {
      expect(reachOf(routing(routes), declared, client, 'tools/call')).toEqual(expected);
    });
  });

  test('a host no row names is taken at its word', () => {
    const declared = { elicitation: { form: {}, url: {} } };
    const client = { name: 'some-host', version: '1.0.0' };
    expect(reachOf(routing(['elicitation']), declared, client, 'tools/call')).toEqual(
      reach(declared),
    );
  });
});

describe('inVersionRange', () => {
  test.each([
    ['*', undefined, true],
    ['*', 'anything', true],
    ['>=2.1.76', '2.1.76', true],
    ['>=2.1.76', '2.1.75', false],
    ['<2.1.76', '2.1.50', true],
    ['<2.1.76', '2.1.76', false],
    ['>=1.0.0 <1.5.0', '1.4.9', true],
    ['>=1.0.0 <1.5.0', '1.5.0', false],
    ['>2', '2.0.1', true],
    ['>2', '2', false],
    ['<=1', '1.0.0', true],
    ['<=1', '1.0.1', false],
    ['=1.2', '1.2.0', true],
    ['1.2.3', '1.2.3', true],
    ['1.2.3', '1.2.4', false],
    ['>=2.1.76', 'v2.1.80', true],
    ['>=2.1.76', undefined, false],
    ['>=2.1.76', 'nightly', false],
  ] as const)('%s holds for %s: %s', (range, version, holds) => {
    expect(inVersionRange(range, version)).toBe(holds);
  });
});

describe('hostProfilesOf', () => {
  test('without rows, the built-in table; rows of the server are added', () => {
    expect(hostProfilesOf(undefined)).toBe(HOST_PROFILES);
    const own = { name: 'my-host', cannotRender: ['integer'], source: 'our tests' } as const;
    const table = hostProfilesOf([own]);
    expect(table).toHaveLength(HOST_PROFILES.length + 1);
    expect(table).toContainEqual(own);
  });

  test('a row with the name and versions of a built-in one replaces it', () => {
    const own = { name: 'Claude-AI', drawsElicitation: true, source: 'our host' };
    const table = hostProfilesOf([own]);
    expect(table).toHaveLength(HOST_PROFILES.length);
    expect(table.filter((row) => row.name.toLowerCase() === 'claude-ai')).toEqual([own]);
    const client = { name: 'claude-ai', version: '0.1.0' };
    expect(
      reachOf({ routes: ['elicitation'], profiles: table }, FORM, client, 'tools/call'),
    ).toEqual(reach(FORM));
    // Another version range is another row: both stay.
    const newer = { name: 'claude-code', versions: '>=3', urlMode: true, source: 'ours' };
    expect(hostProfilesOf([newer])).toHaveLength(HOST_PROFILES.length + 1);
  });

  test.each([
    [
      { name: 'h', source: 's', drawsElicitations: false },
      /^ParleyServer: options\.hostProfiles\[0\]\.drawsElicitations is not an option; did you mean drawsElicitation\?/,
    ],
    [{ name: 'h' }, /hostProfiles\[0\]\.source must say where/],
    [{ name: '', source: 's' }, /hostProfiles\[0\]\.name/],
    [{ name: 'h', source: 's', versions: '~2.1' }, /versions must be '\*' or comparisons/],
    [{ name: 'h', source: 's', versions: '>=2 <' }, /versions must be/],
    [{ name: 'h', source: 's', cannotRender: ['date'] }, /cannotRender must list/],
    [{ name: 'h', source: 's', cannotRender: 'number' }, /cannotRender must list/],
    [{ name: 'h', source: 's', urlMode: 'no' }, /urlMode must be true or false/],
    [{ name: 'h', source: 's', requestTimeoutMs: -1 }, /requestTimeoutMs/],
    ['claude-ai', /hostProfiles\[0\] must be an object/],
  ])('refuses %j with a TypeError naming the problem', (row, problem) => {
    expect(() => hostProfilesOf([row as never])).toThrow(TypeError);
    expect(() => hostProfilesOf([row as never])).toThrow(problem);
    expect(() => new ParleyServer({ name: 'x', hostProfiles: [row as never] })).toThrow(problem);
  });

  test('a server refuses askRoutes that are not routes, none, or one twice', () => {
    for (const askRoutes of [['nope'], [], ['app', 'app'], 'app']) {
      expect(() => new ParleyServer({ name: 'x', askRoutes: askRoutes as never })).toThrow(
        TypeError,
      );
      expect(() => new ParleyServer({ name: 'x', askRoutes: askRoutes as never })).toThrow(
        /askRoutes must list 'elicitation' and\/or 'app'/,
      );
    }
    expect(() => new ParleyServer({ name: 'x', askRoutes: ['app', 'elicitation'] })).not.toThrow();
  });
});

/* ---------------------------------------------------------------------------------------------- */
/* Over real HTTP, handshake era                                                                  */
/* ---------------------------------------------------------------------------------------------- */

let running: RunningServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close({ graceMs: 0 });
  running = undefined;
});

const text = (result: unknown) =>
  (result as { content: { type: string; text: string }[] }).content[0]?.text;

async function serve(mcp: ParleyServer): Promise<string> {
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return running.url as string;
}

/**
 * An SDK v2 client named `name` that declares form elicitation and answers it: on the handshake
 * era (2025-11-25), or pinned to 2026-07-28 (`modern`), where it answers `inputRequests`.
 */
async function connect(
  url: string,
  name: string,
  answer: (params: Record<string, unknown>) => ElicitResult,
  era: 'handshake' | 'modern' = 'handshake',
): Promise<Record<string, unknown>[]> {
  const asked: Record<string, unknown>[] = [];
  client = new Client(
    { name, version: '0.1.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params as Record<string, unknown>);
    return answer(request.params as Record<string, unknown>) as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe(
    era === 'modern' ? '2026-07-28' : '2025-11-25',
  );
  return asked;
}

describe('Claude Desktop (claude-ai), which declares elicitation and never draws it', () => {
  const askCity = elicitRequest('Which city?', z.object({ city: z.string() }));
  function cityServer(hostProfiles?: HostProfile[]): ParleyServer {
    const mcp = new ParleyServer({
      name: 'hosts',
      ...(hostProfiles !== undefined ? { hostProfiles } : {}),
      onWarning: () => {},
      onError: () => {},
    });
    mcp.tool('pick_city', async (_args, ctx) => {
      const city = await ctx.ask('city', askCity);
      return city.action === 'accept' ? `City: ${city.data.city}` : city.action;
    });
    return mcp;
  }
  const oslo = (): ElicitResult => ({ action: 'accept', content: { city: 'Oslo' } });

  test('is never sent elicitation/create: the call ends with the capability error', async () => {
    const asked = await connect(await serve(cityServer()), 'claude-ai', oslo);
    const result = await client!.callTool({ name: 'pick_city', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('elicitation not supported by this client');
    expect(asked).toEqual([]);
  });

  test("is asked natively when the server's own row says it draws elicitation", async () => {
    const own = { name: 'claude-ai', drawsElicitation: true, source: 'our desktop build' };
    const asked = await connect(await serve(cityServer([own])), 'claude-ai', oslo);
    const result = await client!.callTool({ name: 'pick_city', arguments: {} });
    expect(text(result)).toBe('City: Oslo');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'form', message: 'Which city?' });
  });
});

describe('OpenAI Codex (codex-mcp-client), which draws no numbers or multi-selects', () => {
  const askOrder = elicitRequest(
    'Your order?',
    z.object({
      tags: z.array(z.enum(['a', 'b', 'c'])).min(1),
      count: z.number().int().min(1),
      weight: z.number(),
      rating: z.number().int().min(1).max(5).optional(),
    }),
  );
  async function serveOrders(): Promise<{ url: string; received: unknown[] }> {
    const received: unknown[] = [];
    const mcp = new ParleyServer({ name: 'orders', onWarning: () => {}, onError: () => {} });
    mcp.tool('order', async (_args, ctx) => {
      const order = await ctx.ask('order', askOrder);
      if (order.action !== 'accept') return order.action;
      received.push(order.data);
      return `Ordered ${order.data.count} x ${order.data.tags.join('+')}`;
    });
    return { url: await serve(mcp), received };
  }

  test('gets yes/no fields and text fields, and the handler gets the list and the numbers', async () => {
    const { url, received } = await serveOrders();
    const asked = await connect(url, 'codex-mcp-client', () => ({
      action: 'accept',
      // A blank text field is how some hosts send one left empty: the optional number is not given.
      content: { 'tags.a': true, 'tags.c': true, count: '3', weight: '2.5', rating: '' },
    }));
    const result = await client!.callTool({ name: 'order', arguments: {} });
    expect(text(result)).toBe('Ordered 3 x a+c');
    expect(received).toStrictEqual([{ tags: ['a', 'c'], count: 3, weight: 2.5 }]);
    expect(asked).toHaveLength(1);
    const schema = asked[0]!.requestedSchema as {
      properties: Record<string, { type: string; description?: string }>;
      required?: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['count', 'rating', 'tags.a', 'tags.b', 'tags.c', 'weight'].sort(),
    );
    expect(schema.required).toEqual(['count', 'weight']);
    for (const value of ['a', 'b', 'c']) {
      expect(schema.properties[`tags.${value}`]).toMatchObject({ type: 'boolean' });
    }
    expect(schema.properties.count).toMatchObject({ type: 'string' });
    expect(schema.properties.count!.description).toMatch(/whole number of at least 1/);
    expect(schema.properties.weight).toMatchObject({ type: 'string' });
    const types = Object.values(schema.properties).map((field) => field.type);
    expect(types).not.toContain('number');
    expect(types).not.toContain('integer');
    expect(types).not.toContain('array');
    // The form says which fields it asks otherwise than written, for a client to show why.
    expect(asked[0]!._meta).toMatchObject({
      'dev.parley/adapted': ['tags', 'count', 'weight', 'rating'],
    });
  });

  test('text that is not a number is asked again; the handler sees only the number', async () => {
    const { url, received } = await serveOrders();
    const counts = ['three', '4'];
    const asked = await connect(url, 'codex-mcp-client', () => ({
      action: 'accept',
      content: { 'tags.b': true, count: counts.shift()!, weight: '1', rating: ' 5 ' },
    }));
    const result = await client!.callTool({ name: 'order', arguments: {} });
    expect(text(result)).toBe('Ordered 4 x b');
    expect(received).toEqual([{ tags: ['b'], count: 4, weight: 1, rating: 5 }]);
    expect(asked).toHaveLength(2);
    expect(String(asked[1]!.message)).toMatch(/^Your order\?/);
    expect(String(asked[1]!.message)).toMatch(/count/i);
    // Asked again as this host draws it: still text for the number.
    expect(asked[1]!.requestedSchema).toMatchObject({ properties: { count: { type: 'string' } } });
  });
});

describe('OpenAI Codex on 2026-07-28: the forms it is returned are adapted the same way', () => {
  const askOrder = elicitRequest(
    'Your order?',
    z.object({ tags: z.array(z.enum(['a', 'b', 'c'])).min(1), count: z.number().int().min(1) }),
  );
  test('yes/no fields and text in inputRequests; the handler gets the list and the number; a bad number is asked again', async () => {
    const received: unknown[] = [];
    const mcp = new ParleyServer({ name: 'orders', onWarning: () => {}, onError: () => {} });
    mcp.tool('order', async (_args, ctx) => {
      const order = await ctx.ask('order', askOrder);
      if (order.action !== 'accept') return order.action;
      received.push(order.data);
      return `Ordered ${order.data.count} x ${order.data.tags.join('+')}`;
    });
    const url = await serve(mcp);
    const counts = ['three', '3'];
    const asked = await connect(
      url,
      'codex-mcp-client',
      () => ({
        action: 'accept',
        content: { 'tags.a': true, 'tags.b': false, 'tags.c': true, count: counts.shift()! },
      }),
      'modern',
    );
    const result = await client!.callTool({ name: 'order', arguments: {} });
    expect(text(result)).toBe('Ordered 3 x a+c');
    expect(received).toStrictEqual([{ tags: ['a', 'c'], count: 3 }]);
    expect(asked).toHaveLength(2);
    for (const params of asked) {
      const schema = params.requestedSchema as { properties: Record<string, { type: string }> };
      expect(Object.keys(schema.properties).sort()).toEqual([
        'count',
        'tags.a',
        'tags.b',
        'tags.c',
      ]);
      expect(schema.properties.count).toMatchObject({ type: 'string' });
      expect(params._meta).toMatchObject({ 'dev.parley/adapted': ['tags', 'count'] });
    }
    // The second form asks again, saying what was wrong with "three".
    expect(asked[1]!.message).not.toBe('Your order?');
    expect(asked[1]!.message).toMatch(/count|number/i);
  });
});
