import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer } from '../src/index.ts';
import { rawModernCall } from './helpers/rawModern.ts';
import { textOf } from './helpers/sdkClients.ts';

/**
 * Tool and prompt parameters from zod, valibot and ArkType: listed from the library's JSON
 * Schema, validated by the library (one validator for tools and prompts), typed from it.
 */

const vs = toStandardJsonSchema;

function server() {
  const mcp = new ParleyServer({ name: 'libraries', onWarning: () => {} });
  mcp.tool(
    'zod_trip',
    { inputSchema: z.object({ city: z.string().min(2), nights: z.number().int().default(1) }) },
    ({ city, nights }) => `${city} for ${nights}`,
  );
  mcp.tool(
    'valibot_trip',
    {
      inputSchema: vs(
        v.object({
          city: v.pipe(v.string(), v.minLength(2)),
          nights: v.optional(v.pipe(v.number(), v.integer()), 1),
        }),
      ),
    },
    ({ city, nights }) => `${city} for ${nights}`,
  );
  mcp.tool(
    'arktype_trip',
    { inputSchema: type({ city: 'string >= 2', nights: type('number.integer').default(1) }) },
    ({ city, nights }) => `${city} for ${nights}`,
  );
  mcp.tool(
    'valibot_checked',
    {
      inputSchema: vs(
        v.object({
          code: v.pipe(
            v.string(),
            v.check((s) => s.length === 3, 'three letters'),
          ),
        }),
      ),
    },
    ({ code }) => code,
  );
  mcp.prompt(
    'valibot_plan',
    {
      arguments: vs(
        v.object({
          city: v.pipe(v.string(), v.description('Where to')),
          season: v.optional(v.picklist(['summer', 'winter'])),
        }),
      ),
    },
    ({ city, season }) => `Plan ${city} in ${season ?? 'any season'}`,
  );
  mcp.prompt(
    'arktype_plan',
    {
      arguments: type({
        city: type('string').describe('Where to'),
        'season?': "'summer' | 'winter'",
      }),
    },
    ({ city, season }) => `Plan ${city} in ${season ?? 'any season'}`,
  );
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
  const sdkServer = await mcp.connect(serverSide);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await sdkServer.close();
  };
  return client;
}

describe('tool parameters', () => {
  test('are listed from each library’s JSON Schema, defaults included', async () => {
    const client = await connect(server());
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
    const listed = {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2 },
        nights: { type: 'integer', default: 1 },
      },
      required: ['city'],
    };
    expect(byName['valibot_trip']).toEqual(listed);
    expect(byName['arktype_trip']).toEqual(listed);
    // zod spells an integer with its safe range, as it always has.
    expect(byName['zod_trip']).toMatchObject({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2 },
        nights: { type: 'integer', default: 1 },
      },
      required: ['city'],
    });
    // A check with no JSON Schema keyword is left out of the listing, not an error.
    expect(byName['valibot_checked']).toEqual({
      type: 'object',
      properties: { code: { type: 'string' } },
      required: ['code'],
    });
  });

  test.each(['zod_trip', 'valibot_trip', 'arktype_trip'])(
    '%s: arguments are validated by the library, defaults filled',
    async (name) => {
      const ok = await rawModernCall(server(), { name, arguments: { city: 'Oslo' } });
      expect(ok.body.result).toMatchObject({ content: [{ type: 'text', text: 'Oslo for 1' }] });
      for (const args of [{ city: 'O' }, { city: 'Oslo', nights: 1.5 }, {}]) {
        // SEP-1303: a tool's argument errors are a result the model reads.
        const bad = await rawModernCall(server(), { name, arguments: args });
        expect(bad.body.result?.isError, JSON.stringify(args)).toBe(true);
        expect(textOf(bad.body.result)).toMatch(
          new RegExp(`^Invalid arguments for tool ${name}: `),
        );
      }
    },
  );

  test('the library’s own checks hold, with its message and the path', async () => {
    const bad = await rawModernCall(server(), {
      name: 'valibot_checked',
      arguments: { code: 'ab' },
    });
    expect(bad.body.result).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: 'Invalid arguments for tool valibot_checked: code: three letters' },
      ],
    });
  });
});

describe('prompt arguments', () => {
  test('are listed with descriptions and required, from any library', async () => {
    const client = await connect(server());
    const { prompts } = await client.listPrompts();
    const expected = [
      { name: 'city', description: 'Where to', required: true },
      { name: 'season', required: false },
    ];
    expect(prompts.find((p) => p.name === 'valibot_plan')?.arguments).toEqual(expected);
    expect(prompts.find((p) => p.name === 'arktype_plan')?.arguments).toEqual(expected);
  });

  test.each(['valibot_plan', 'arktype_plan'])(
    '%s: validated by the same validator as a tool’s, -32602 on a mismatch',
    async (name) => {
      const client = await connect(server());
      const prompt = await client.getPrompt({
        name,
        arguments: { city: 'Oslo', season: 'winter' },
      });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Plan Oslo in winter' });
      const bad = await rawModernCall(server(), {
        method: 'prompts/get',
        name,
        arguments: { city: 'Oslo', season: 'spring' },
      });
      expect(bad.body.error?.code).toBe(-32602);
      expect(bad.body.error?.message).toMatch(
        new RegExp(`^Invalid arguments for prompt ${name}: season: `),
      );
    },
  );
});

describe('registration refuses', () => {
  test('a bare valibot schema, saying how to wrap it', () => {
    expect(() =>
      new ParleyServer({ name: 'x' }).tool(
        'find',
        { inputSchema: v.object({ q: v.string() }) as never },
        () => 'x',
      ),
    ).toThrow(
      "tool 'find': this valibot schema validates (Standard Schema) but cannot describe itself " +
        'as JSON Schema (Standard JSON Schema), so there is nothing to send; wrap it with ' +
        'toStandardJsonSchema() from @valibot/to-json-schema.',
    );
  });

  test('a schema that is not an object', () => {
    expect(() =>
      new ParleyServer({ name: 'x' }).prompt(
        'p',
        { arguments: type('string') as never },
        () => 'x',
      ),
    ).toThrow(
      `prompt 'p': the parameter schema must describe an object; its JSON Schema has type "string".`,
    );
    expect(() =>
      new ParleyServer({ name: 'x' }).tool(
        't',
        { inputSchema: { q: 'string' } as never },
        () => 'x',
      ),
    ).toThrow(
      /^tool 't': the parameter schema must be a z\.object\(\.\.\.\) or its shape, or an object schema/,
    );
  });
});
