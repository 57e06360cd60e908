import type { ElicitContentValue, ElicitationSchema } from '@parley/core';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';

import {
  compileResponseType,
  createResponseType,
  type AcceptedResponse,
  type CompiledResponseType,
  type InferResponse,
  type ResponseType,
} from '../src/index.ts';

enum Priority {
  Low = 'low',
  High = 'high',
}

enum Numeric {
  A,
  B,
}

describe('inferring the data type', () => {
  test('option lists infer literals without `as const` (const type parameter)', () => {
    expectTypeOf(compileResponseType(['low', 'high']).parse).returns.toEqualTypeOf<
      'low' | 'high'
    >();
    expectTypeOf(compileResponseType([['bug', 'docs']]).parse).returns.toEqualTypeOf<
      ('bug' | 'docs')[]
    >();
    expectTypeOf(
      compileResponseType({ low: { title: 'Low' }, high: { title: 'High' } }).parse,
    ).returns.toEqualTypeOf<'low' | 'high'>();
    expectTypeOf(compileResponseType([{ low: { title: 'Low' } }]).parse).returns.toEqualTypeOf<
      'low'[]
    >();
  });

  test('a widened list infers string', () => {
    const options: string[] = ['a', 'b'];
    expectTypeOf(compileResponseType(options).parse).returns.toEqualTypeOf<string>();
  });

  test('TypeScript string enums infer the enum', () => {
    expectTypeOf(compileResponseType(Priority).parse).returns.toEqualTypeOf<Priority>();
    expectTypeOf(compileResponseType([Priority]).parse).returns.items.toEqualTypeOf<Priority>();
  });

  test('zod schemas infer their output type, wrappers and transforms included', () => {
    expectTypeOf(compileResponseType(z.string().optional()).parse).returns.toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf(
      compileResponseType(z.string().default('x')).parse,
    ).returns.toEqualTypeOf<string>();
    expectTypeOf(
      compileResponseType(z.object({ n: z.string().transform((s) => s.length) })).parse,
    ).returns.toEqualTypeOf<{ n: number }>();
    expectTypeOf(compileResponseType(zm.boolean()).parse).returns.toEqualTypeOf<boolean>();
  });

  test('valibot and ArkType schemas infer their output type, as zod schemas do', () => {
    expectTypeOf(
      compileResponseType(toStandardJsonSchema(v.optional(v.string()))).parse,
    ).returns.toEqualTypeOf<string | undefined>();
    expectTypeOf(
      compileResponseType(
        toStandardJsonSchema(
          v.object({
            n: v.pipe(
              v.string(),
              v.transform((s) => s.length),
            ),
          }),
        ),
      ).parse,
    ).returns.toEqualTypeOf<{ n: number }>();
    expectTypeOf(compileResponseType(type("'a' | 'b'")).parse).returns.toEqualTypeOf<'a' | 'b'>();
    expectTypeOf(
      compileResponseType(type({ n: type('string').pipe((s) => s.length) })).parse,
    ).returns.toEqualTypeOf<{ n: number }>();
    expectTypeOf(
      compileResponseType(type({ seats: type('number').default(1), 'note?': 'string' })).parse,
    ).returns.toEqualTypeOf<{ seats: number; note?: string }>();
  });

  test('raw wire schemas, inline or typed, give a record of wire values', () => {
    const inline = compileResponseType({
      type: 'object',
      properties: { a: { type: 'string', format: 'email' }, b: { type: 'integer' } },
      required: ['a'],
    });
    expectTypeOf(inline.parse).returns.toEqualTypeOf<Record<string, ElicitContentValue>>();
    const schema: ElicitationSchema = { type: 'object', properties: {} };
    expectTypeOf(compileResponseType(schema).parse).returns.toEqualTypeOf<
      Record<string, ElicitContentValue>
    >();
  });

  test('null gives undefined, and the compiled type carries the data type', () => {
    expectTypeOf(compileResponseType(null)).toEqualTypeOf<CompiledResponseType<undefined>>();
    expectTypeOf<InferResponse<NumberConstructor>>().toEqualTypeOf<number>();
    expectTypeOf<InferResponse<readonly ['a']>>().toEqualTypeOf<'a'>();
  });
});

describe('what is not a response type', () => {
  test('is a type error', () => {
    // @ts-expect-error numeric enums map numbers back to names; answers are strings
    compileResponseType(Numeric);
    // @ts-expect-error a class is not a response type
    compileResponseType(Date);
    // @ts-expect-error options are strings
    compileResponseType([1, 2]);
    // @ts-expect-error titled options need a title
    compileResponseType({ low: { label: 'Low' } });
    // @ts-expect-error only the spec's field types
    compileResponseType({ type: 'object', properties: { a: { type: 'object' } } });
    // @ts-expect-error a bare valibot schema cannot describe itself: wrap it (toStandardJsonSchema)
    compileResponseType(v.string());
    expectTypeOf<undefined>().not.toExtend<ResponseType>();
  });

  test('options are the two labels', () => {
    // @ts-expect-error responseTitle is a string
    compileResponseType(String, { responseTitle: 1 });
  });
});

describe('the client builder', () => {
  test('accepts records and bare wire values, and returns accepted content', () => {
    const respond = createResponseType({ type: 'object', properties: {} });
    expectTypeOf(respond({ destination: 'Paris' })).toEqualTypeOf<AcceptedResponse>();
    expectTypeOf(respond).toBeCallableWith('Paris');
    expectTypeOf(respond).toBeCallableWith(['a', 'b']);
    expectTypeOf(respond.validate({})).toEqualTypeOf<Record<string, ElicitContentValue>>();
    // @ts-expect-error a bare value is a wire value, not any value
    respond(null);
  });
});
