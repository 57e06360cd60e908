import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import { Client } from '@parley/client';
import type { InferResponse, ResponseType } from '@parley/schema';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

import './arktypeMeta.ts';

/**
 * The response-type table for zod, valibot and ArkType, end to end: a real ParleyServer on
 * 127.0.0.1 asks with each row's schema (`ctx.elicit` on the handshake era, `elicitRequest` +
 * `ctx.answer` on the modern one), and two real clients answer it — the Parley client and a raw
 * MCP SDK v2 client — in both eras. Each row checks the schema the client was sent, that the
 * answer is accepted, the value the handler got back, and (at compile time) the type it was
 * inferred as.
 */

type Library = 'zod' | 'valibot' | 'arktype';
const libraries: Library[] = ['zod', 'valibot', 'arktype'];

interface Row {
  name: string;
  /** The `requestedSchema` the client must be sent, per library (ArkType's own order). */
  sent: Record<Library, object>;
  /** The accepted content the client answers with. */
  answer: Record<string, unknown>;
  /** What the handler's `data` is. */
  value: unknown;
}

const rows: Row[] = [];
const mcp = new ParleyServer({ name: 'response-types', onWarning: () => {} });

/**
 * One row: a tool per library that asks with the library's schema and returns the data as JSON.
 * `typed` receives the data with the type `ctx.elicit` / `ctx.answer` inferred, so each row's
 * `expectTypeOf` is checked against what the server API gives back.
 */
function row<
  const Z extends ResponseType,
  const V extends ResponseType,
  const A extends ResponseType,
>(
  name: string,
  schemas: { zod: Z; valibot: V; arktype: A },
  expected: Omit<Row, 'name' | 'sent'> & { sent: object; arktypeSent?: object },
  typed: {
    zod: (data: InferResponse<Z>) => void;
    valibot: (data: InferResponse<V>) => void;
    arktype: (data: InferResponse<A>) => void;
  },
): void {
  rows.push({
    name,
    sent: {
      zod: expected.sent,
      valibot: expected.sent,
      arktype: expected.arktypeSent ?? expected.sent,
    },
    answer: expected.answer,
    value: expected.value,
  });
  askTool(`zod_${name}`, schemas.zod, typed.zod);
  askTool(`valibot_${name}`, schemas.valibot, typed.valibot);
  askTool(`arktype_${name}`, schemas.arktype, typed.arktype);
}

function askTool<const R extends ResponseType>(
  tool: string,
  responseType: R,
  typed: (data: InferResponse<R>) => void,
): void {
  const reply = (data: InferResponse<R>): string => {
    typed(data);
    return JSON.stringify({ data });
  };
  mcp.tool(tool, {}, async (_args, ctx) => {
    if (ctx.era === 'handshake') {
      const result = await ctx.elicit(tool, responseType);
      return result.action === 'accept' ? reply(result.data) : result.action;
    }
    const ask = elicitRequest(tool, responseType);
    const result = ctx.answer('answer', ask);
    if (result === undefined) return inputRequired({ inputRequests: { answer: ask } });
    return result.action === 'accept' ? reply(result.data) : result.action;
  });
}

const vs = toStandardJsonSchema;
const wrapper = (field: object, required = true) => ({
  type: 'object',
  properties: { value: field },
  ...(required ? { required: ['value'] } : {}),
});

row(
  'string',
  {
    zod: z.string().min(2),
    valibot: vs(v.pipe(v.string(), v.minLength(2))),
    arktype: type('string >= 2'),
  },
  { sent: wrapper({ type: 'string', minLength: 2 }), answer: { value: 'Ada' }, value: 'Ada' },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
  },
);

row(
  'integer',
  {
    zod: z.number().int().min(1).max(9),
    valibot: vs(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(9))),
    arktype: type('1 <= number.integer <= 9'),
  },
  { sent: wrapper({ type: 'integer', minimum: 1, maximum: 9 }), answer: { value: 3 }, value: 3 },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<number>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<number>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<number>(),
  },
);

row(
  'boolean',
  { zod: z.boolean(), valibot: vs(v.boolean()), arktype: type('boolean') },
  { sent: wrapper({ type: 'boolean' }), answer: { value: true }, value: true },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<boolean>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<boolean>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<boolean>(),
  },
);

row(
  'optional',
  {
    zod: z.email().optional(),
    valibot: vs(v.optional(v.pipe(v.string(), v.email()))),
    arktype: type('string.email | undefined'),
  },
  { sent: wrapper({ type: 'string', format: 'email' }, false), answer: {}, value: undefined },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<string | undefined>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<string | undefined>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<string | undefined>(),
  },
);

row(
  'select',
  {
    zod: z.enum(['s', 'm', 'l']),
    valibot: vs(v.picklist(['s', 'm', 'l'])),
    arktype: type("'s' | 'm' | 'l'"),
  },
  {
    sent: wrapper({ type: 'string', enum: ['s', 'm', 'l'] }),
    arktypeSent: wrapper({ type: 'string', enum: ['l', 'm', 's'] }),
    answer: { value: 'm' },
    value: 'm',
  },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<'s' | 'm' | 'l'>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<'s' | 'm' | 'l'>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<'s' | 'm' | 'l'>(),
  },
);

const priorityTitles = { high: 'Urgent', low: 'Whenever' };
row(
  'titled',
  {
    zod: z.enum(['high', 'low']).meta({ optionTitles: priorityTitles }),
    valibot: vs(v.pipe(v.picklist(['high', 'low']), v.metadata({ optionTitles: priorityTitles }))),
    arktype: type("'high' | 'low'").configure({ optionTitles: priorityTitles }),
  },
  {
    sent: wrapper({
      type: 'string',
      oneOf: [
        { const: 'high', title: 'Urgent' },
        { const: 'low', title: 'Whenever' },
      ],
    }),
    answer: { value: 'high' },
    value: 'high',
  },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<'high' | 'low'>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<'high' | 'low'>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<'high' | 'low'>(),
  },
);

row(
  'multi',
  {
    zod: z.array(z.enum(['bug', 'docs', 'feature'])).min(1),
    valibot: vs(v.pipe(v.array(v.picklist(['bug', 'docs', 'feature'])), v.minLength(1))),
    arktype: type("('bug' | 'docs' | 'feature')[] >= 1"),
  },
  {
    sent: wrapper({
      type: 'array',
      minItems: 1,
      items: { type: 'string', enum: ['bug', 'docs', 'feature'] },
    }),
    answer: { value: ['bug', 'feature'] },
    value: ['bug', 'feature'],
  },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<('bug' | 'docs' | 'feature')[]>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<('bug' | 'docs' | 'feature')[]>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<('bug' | 'docs' | 'feature')[]>(),
  },
);

row(
  'object',
  {
    zod: z.object({
      name: z.string().describe('Full name'),
      email: z.email().meta({ title: 'Email' }),
      seats: z.number().int().min(1).default(1),
      notes: z.string().max(200).optional(),
    }),
    valibot: vs(
      v.object({
        name: v.pipe(v.string(), v.description('Full name')),
        email: v.pipe(v.string(), v.email(), v.title('Email')),
        seats: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
        notes: v.optional(v.pipe(v.string(), v.maxLength(200))),
      }),
    ),
    arktype: type({
      name: type('string').describe('Full name'),
      email: type('string.email').configure({ title: 'Email' }),
      seats: type('number.integer >= 1').default(1),
      'notes?': 'string <= 200',
    }),
  },
  {
    sent: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Full name' },
        email: { type: 'string', title: 'Email', format: 'email' },
        seats: { type: 'integer', minimum: 1, default: 1 },
        notes: { type: 'string', maxLength: 200 },
      },
      required: ['name', 'email'],
    },
    arktypeSent: {
      type: 'object',
      properties: {
        email: { type: 'string', title: 'Email', format: 'email' },
        name: { type: 'string', description: 'Full name' },
        seats: { type: 'integer', minimum: 1, default: 1 },
        notes: { type: 'string', maxLength: 200 },
      },
      required: ['email', 'name'],
    },
    answer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    value: { name: 'Ada Lovelace', email: 'ada@example.com', seats: 1 },
  },
  {
    zod: (data) =>
      expectTypeOf(data).toEqualTypeOf<{
        name: string;
        email: string;
        seats: number;
        notes?: string | undefined;
      }>(),
    valibot: (data) =>
      expectTypeOf(data).toEqualTypeOf<{
        name: string;
        email: string;
        seats: number;
        notes?: string | undefined;
      }>(),
    arktype: (data) =>
      expectTypeOf(data).toEqualTypeOf<{
        name: string;
        email: string;
        seats: number;
        notes?: string;
      }>(),
  },
);

row(
  'transformed',
  {
    zod: z.object({ first: z.string(), last: z.string() }).transform((p) => `${p.first} ${p.last}`),
    valibot: vs(
      v.pipe(
        v.object({ first: v.string(), last: v.string() }),
        v.transform((p) => `${p.first} ${p.last}`),
      ),
    ),
    arktype: type({ first: 'string', last: 'string' }).pipe((p) => `${p.first} ${p.last}`),
  },
  {
    sent: {
      type: 'object',
      properties: { first: { type: 'string' }, last: { type: 'string' } },
      required: ['first', 'last'],
    },
    answer: { first: 'Grace', last: 'Hopper' },
    value: 'Grace Hopper',
  },
  {
    zod: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
    valibot: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
    arktype: (data) => expectTypeOf(data).toEqualTypeOf<string>(),
  },
);

/** What a client saw and answered, by tool (the message is the tool's name). */
let sentSchemas: Record<string, unknown> = {};
const answerOf = (message: string): Record<string, unknown> => {
  const name = message.slice(message.indexOf('_') + 1);
  const found = rows.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`unexpected question: ${message}`);
  return found.answer;
};

let url: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const running = await mcp.run({ transport: 'http', host: '127.0.0.1', port: 0 });
  if (running.url === undefined) throw new Error('run({ transport: "http" }) returned no url');
  url = running.url;
  stop = () => running.close();
});
afterAll(async () => {
  await stop?.();
});

interface Caller {
  call(tool: string): Promise<string>;
  close(): Promise<void>;
}

async function parleyClient(era: 'modern' | 'handshake'): Promise<Caller> {
  const client = new Client(url, {
    mode: era,
    elicitationHandler: (message, responseType, params) => {
      if (params.mode === 'form') sentSchemas[message] = params.requestedSchema;
      // The builder checks the answer against what was sent before it goes back.
      return responseType(answerOf(message));
    },
  });
  await client.connect();
  expect(client.era).toBe(era);
  return {
    call: async (tool) => {
      const result = await client.callTool(tool, {});
      return result.content.map((block) => (block as { text?: string }).text ?? '').join('');
    },
    close: () => client.close(),
  };
}

async function sdkClient(era: 'modern' | 'handshake'): Promise<Caller> {
  const client = new SdkClient(
    { name: 'raw-sdk-v2', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    sentSchemas[params.message] = params.requestedSchema;
    return { action: 'accept', content: answerOf(params.message) } as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe(
    era === 'modern' ? '2026-07-28' : '2025-11-25',
  );
  return {
    call: async (tool) => {
      const result = (await client.callTool({ name: tool, arguments: {} })) as {
        content: { text?: string }[];
      };
      return result.content.map((block) => block.text ?? '').join('');
    },
    close: () => client.close(),
  };
}

const clients = [
  ['the Parley client', parleyClient],
  ['a raw SDK v2 client', sdkClient],
] as const;

describe.each(clients)('%s', (_name, open) => {
  describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
    let caller: Caller;
    beforeAll(async () => {
      caller = await open(era);
    });
    afterAll(async () => {
      await caller?.close();
    });

    describe.each(libraries)('%s', (library) => {
      test.each(rows.map((entry) => [entry.name, entry] as const))('%s', async (_row, entry) => {
        sentSchemas = {};
        const tool = `${library}_${entry.name}`;
        const text = await caller.call(tool);
        expect(sentSchemas[tool]).toEqual(entry.sent[library]);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ data: entry.value })));
      });
    });
  });
});
