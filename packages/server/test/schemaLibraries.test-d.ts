import type { ElicitationResult } from '@parley/core';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, elicitRequest, type Context } from '../src/index.ts';

// The inferred output type of a zod, valibot or ArkType schema flows into ctx.elicit,
// elicitRequest + ctx.answer, and a tool's or prompt's args, the same way for each library.

const mcp = new ParleyServer({ name: 'types' });
declare const ctx: Context;

const person = {
  zod: z.object({ name: z.string(), age: z.number().int().optional() }),
  valibot: toStandardJsonSchema(v.object({ name: v.string(), age: v.optional(v.number()) })),
  arktype: type({ name: 'string', 'age?': 'number.integer' }),
};

describe('answers', () => {
  test('ctx.elicit resolves to the library’s output type', async () => {
    expectTypeOf(await ctx.elicit('Who?', person.zod)).toEqualTypeOf<
      ElicitationResult<{ name: string; age?: number | undefined }>
    >();
    expectTypeOf(await ctx.elicit('Who?', person.valibot)).toEqualTypeOf<
      ElicitationResult<{ name: string; age?: number | undefined }>
    >();
    expectTypeOf(await ctx.elicit('Who?', person.arktype)).toEqualTypeOf<
      ElicitationResult<{ name: string; age?: number }>
    >();
    const tags = await ctx.elicit('Tags?', type("('bug' | 'docs')[]"));
    if (tags.action === 'accept') expectTypeOf(tags.data).toEqualTypeOf<('bug' | 'docs')[]>();
  });

  test('elicitRequest remembers it, and ctx.answer gives it back', () => {
    const ask = elicitRequest('Who?', person.valibot);
    expectTypeOf(ctx.answer('who', ask)).toEqualTypeOf<
      ElicitationResult<{ name: string; age?: number | undefined }> | undefined
    >();
    expectTypeOf(ctx.answer('who', person.arktype)).toEqualTypeOf<
      ElicitationResult<{ name: string; age?: number }> | undefined
    >();
    const transformed = elicitRequest(
      'Length?',
      toStandardJsonSchema(
        v.pipe(
          v.string(),
          v.transform((s) => s.length),
        ),
      ),
    );
    expectTypeOf(ctx.answer('n', transformed)).toEqualTypeOf<
      ElicitationResult<number> | undefined
    >();
  });
});

describe('parameters', () => {
  test('a tool’s args are the library’s output type', () => {
    mcp.tool('a', { inputSchema: person.valibot }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; age?: number | undefined }>();
      return '';
    });
    mcp.tool('b', { inputSchema: person.arktype }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; age?: number }>();
      return '';
    });
    mcp.tool('c', { inputSchema: { name: z.string() } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string }>();
      return '';
    });
  });

  test('a prompt’s args too', () => {
    mcp.prompt('p', { arguments: type({ city: 'string' }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string }>();
      return '';
    });
  });
});
