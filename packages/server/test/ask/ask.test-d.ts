import type { CreateMessageResult, ElicitationResult, Root } from '@parley/core';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import {
  elicitRequest,
  elicitUrlRequest,
  rootsRequest,
  sampleRequest,
  type Context,
} from '../../src/index.ts';

// ctx.ask infers what InferResponse infers, for every library and every kind of ask; the same
// ask read back with ctx.answer, or pushed with ctx.elicit, has the same type.

declare const ctx: Context;

describe('ctx.ask', () => {
  test('form asks: the response type’s output, from zod, valibot and ArkType', async () => {
    expectTypeOf(
      await ctx.ask('who', elicitRequest('Who?', z.object({ name: z.string() }))),
    ).toEqualTypeOf<ElicitationResult<{ name: string }>>();
    expectTypeOf(
      await ctx.ask(
        'who',
        elicitRequest('Who?', toStandardJsonSchema(v.object({ n: v.number() }))),
      ),
    ).toEqualTypeOf<ElicitationResult<{ n: number }>>();
    expectTypeOf(await ctx.ask('who', elicitRequest('Who?', type({ n: 'number' })))).toEqualTypeOf<
      ElicitationResult<{ n: number }>
    >();
    expectTypeOf(await ctx.ask('n', elicitRequest('How many?', Number))).toEqualTypeOf<
      ElicitationResult<number>
    >();
    expectTypeOf(await ctx.ask('level', elicitRequest('Level?', ['low', 'high']))).toEqualTypeOf<
      ElicitationResult<'low' | 'high'>
    >();
    expectTypeOf(await ctx.ask('ok', elicitRequest('OK?', null))).toEqualTypeOf<
      ElicitationResult<undefined>
    >();
  });

  test('URL, sampling and roots asks', async () => {
    expectTypeOf(
      await ctx.ask('page', elicitUrlRequest('Sign in', 'https://a.example')),
    ).toEqualTypeOf<ElicitationResult<undefined>>();
    expectTypeOf(await ctx.ask('s', sampleRequest('Hi'))).toEqualTypeOf<CreateMessageResult>();
    expectTypeOf(await ctx.ask('r', rootsRequest())).toEqualTypeOf<Root[]>();
  });

  test('askAll types each answer by its key', async () => {
    const answers = await ctx.askAll({
      name: elicitRequest('Name?', String),
      roots: rootsRequest(),
      reply: sampleRequest('Hi'),
    });
    expectTypeOf(answers).toEqualTypeOf<{
      name: ElicitationResult<string>;
      roots: Root[];
      reply: CreateMessageResult;
    }>();
  });

  test('ctx.remember returns what the function returns', async () => {
    expectTypeOf(await ctx.remember('quote', () => ({ amount: 12 }))).toEqualTypeOf<{
      amount: number;
    }>();
    expectTypeOf(await ctx.remember('id', async () => 'order-1')).toEqualTypeOf<string>();
  });
});

describe('one vocabulary', () => {
  test('ctx.answer reads every kind with the ask that asked it', () => {
    expectTypeOf(ctx.answer('n', elicitRequest('How many?', Number))).toEqualTypeOf<
      ElicitationResult<number> | undefined
    >();
    expectTypeOf(ctx.answer('s', sampleRequest('Hi'))).toEqualTypeOf<
      CreateMessageResult | undefined
    >();
    expectTypeOf(ctx.answer('r', rootsRequest())).toEqualTypeOf<Root[] | undefined>();
  });

  test('ctx.elicit takes the ask a builder made, typed the same', async () => {
    expectTypeOf(await ctx.elicit(elicitRequest('Level?', ['low', 'high']))).toEqualTypeOf<
      ElicitationResult<'low' | 'high'>
    >();
    expectTypeOf(await ctx.elicit(elicitUrlRequest('Sign in', 'https://a.example'))).toEqualTypeOf<
      ElicitationResult<undefined>
    >();
    // Sampling and roots are not elicitations.
    // @ts-expect-error a sampling ask is not an elicitation
    void ctx.elicit(sampleRequest('Hi'));
  });

  test('an ask needs a key; anything but an ask is refused', () => {
    // @ts-expect-error the key comes first
    void ctx.ask(elicitRequest('Name?', String));
    // @ts-expect-error a response type is not an ask: build it with elicitRequest
    void ctx.ask('name', String);
  });
});

describe('compile-time errors where the run time refuses', () => {
  test('a shape elicitation cannot carry, in elicitRequest and ctx.elicit', () => {
    // @ts-expect-error a nested object
    elicitRequest('Where?', z.object({ address: z.object({ city: z.string() }) }));
    // @ts-expect-error a nested object
    void ctx.elicit('Where?', z.object({ address: z.object({ city: z.string() }) }));
    elicitRequest('Where?', z.object({ city: z.string() }));
  });

  test('responseTitle on a response type with its own fields', () => {
    // @ts-expect-error title the object's fields instead
    elicitRequest('Who?', z.object({ name: z.string() }), { responseTitle: 'Person' });
    // @ts-expect-error title the object's fields instead
    void ctx.elicit('Who?', z.object({ name: z.string() }), { responseTitle: 'Person' });
    elicitRequest('Name?', String, { responseTitle: 'Name', optional: true });
    void ctx.elicit('Name?', String, { responseTitle: 'Name', timeoutMs: 1000 });
  });
});
