import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType, type CompiledResponseType } from '../src/index.ts';
import './fixtures/arktypeMeta.ts';
import { expectRefused } from './fixtures/errors.ts';

// The response-type table, for zod, valibot and ArkType side by side: each row is the exact JSON
// sent, an answer accepted and the value returned, and the inferred type of that value, per
// library. Rows differ only where a library says something differently (ArkType keeps options
// and keys in its own sorted order).

const wrapper = (field: object, required = true) => ({
  type: 'object',
  properties: { value: field },
  ...(required ? { required: ['value'] } : {}),
});

/** The row's checks for one library's compiled response type. */
function row<T>(
  compiled: CompiledResponseType<T>,
  sent: object,
  answer: unknown,
  value: unknown,
): T {
  expect(compiled.requestedSchema).toEqual(sent);
  const data = compiled.parse(answer);
  expect(data).toEqual(value);
  return data;
}

const vs = toStandardJsonSchema;

describe('scalars, wrapped in one `value` field', () => {
  test('a string', () => {
    const sent = wrapper({ type: 'string' });
    const fromZod = row(compileResponseType(z.string()), sent, { value: 'Ada' }, 'Ada');
    const fromValibot = row(compileResponseType(vs(v.string())), sent, { value: 'Ada' }, 'Ada');
    const fromArkType = row(compileResponseType(type('string')), sent, { value: 'Ada' }, 'Ada');
    expectTypeOf(fromZod).toEqualTypeOf<string>();
    expectTypeOf(fromValibot).toEqualTypeOf<string>();
    expectTypeOf(fromArkType).toEqualTypeOf<string>();
    for (const schema of [z.string(), vs(v.string()), type('string')]) {
      expectRefused(() => compileResponseType(schema).parse({ value: 42 }), 'value');
    }
  });

  test('a number', () => {
    const sent = wrapper({ type: 'number' });
    const fromZod = row(compileResponseType(z.number()), sent, { value: 2.5 }, 2.5);
    const fromValibot = row(compileResponseType(vs(v.number())), sent, { value: 2.5 }, 2.5);
    const fromArkType = row(compileResponseType(type('number')), sent, { value: 2.5 }, 2.5);
    expectTypeOf(fromZod).toEqualTypeOf<number>();
    expectTypeOf(fromValibot).toEqualTypeOf<number>();
    expectTypeOf(fromArkType).toEqualTypeOf<number>();
  });

  test('an integer, checked by the library', () => {
    const sent = wrapper({ type: 'integer', minimum: 1 });
    const schemas = [
      compileResponseType(z.number().int().min(1)),
      compileResponseType(vs(v.pipe(v.number(), v.integer(), v.minValue(1)))),
      compileResponseType(type('number.integer >= 1')),
    ] as const;
    for (const compiled of schemas) {
      const data = row(compiled, sent, { value: 30 }, 30);
      expectTypeOf(data).toEqualTypeOf<number>();
      expectRefused(() => compiled.parse({ value: 30.5 }), 'value');
      expectRefused(() => compiled.parse({ value: 0 }), 'value');
    }
  });

  test('a boolean', () => {
    const sent = wrapper({ type: 'boolean' });
    const fromZod = row(compileResponseType(z.boolean()), sent, { value: false }, false);
    const fromValibot = row(compileResponseType(vs(v.boolean())), sent, { value: false }, false);
    const fromArkType = row(compileResponseType(type('boolean')), sent, { value: false }, false);
    expectTypeOf(fromZod).toEqualTypeOf<boolean>();
    expectTypeOf(fromValibot).toEqualTypeOf<boolean>();
    expectTypeOf(fromArkType).toEqualTypeOf<boolean>();
  });

  test('an optional string: the one field may be left out', () => {
    const sent = wrapper({ type: 'string' }, false);
    const fromZod = row(compileResponseType(z.string().optional()), sent, {}, undefined);
    const fromValibot = row(compileResponseType(vs(v.optional(v.string()))), sent, {}, undefined);
    const fromArkType = row(compileResponseType(type('string | undefined')), sent, {}, undefined);
    expectTypeOf(fromZod).toEqualTypeOf<string | undefined>();
    expectTypeOf(fromValibot).toEqualTypeOf<string | undefined>();
    expectTypeOf(fromArkType).toEqualTypeOf<string | undefined>();
  });

  test('a defaulted number: the default is sent and filled (zod and valibot)', () => {
    const sent = wrapper({ type: 'number', default: 3 }, false);
    const fromZod = row(compileResponseType(z.number().default(3)), sent, {}, 3);
    const fromValibot = row(compileResponseType(vs(v.optional(v.number(), 3))), sent, {}, 3);
    expectTypeOf(fromZod).toEqualTypeOf<number>();
    expectTypeOf(fromValibot).toEqualTypeOf<number>();
  });
});

describe('options', () => {
  test('a single select', () => {
    const fromZod = row(
      compileResponseType(z.enum(['low', 'medium', 'high'])),
      wrapper({ type: 'string', enum: ['low', 'medium', 'high'] }),
      { value: 'medium' },
      'medium',
    );
    const fromValibot = row(
      compileResponseType(vs(v.picklist(['low', 'medium', 'high']))),
      wrapper({ type: 'string', enum: ['low', 'medium', 'high'] }),
      { value: 'medium' },
      'medium',
    );
    // ArkType keeps a union's members in its own (sorted) order.
    const fromArkType = row(
      compileResponseType(type("'low' | 'medium' | 'high'")),
      wrapper({ type: 'string', enum: ['high', 'low', 'medium'] }),
      { value: 'medium' },
      'medium',
    );
    expectTypeOf(fromZod).toEqualTypeOf<'low' | 'medium' | 'high'>();
    expectTypeOf(fromValibot).toEqualTypeOf<'low' | 'medium' | 'high'>();
    expectTypeOf(fromArkType).toEqualTypeOf<'low' | 'medium' | 'high'>();
    for (const schema of [
      z.enum(['low', 'high']),
      vs(v.picklist(['low', 'high'])),
      type("'low'|'high'"),
    ]) {
      expectRefused(() => compileResponseType(schema).parse({ value: 'urgent' }), 'value');
    }
  });

  test('a multi-select', () => {
    const sent = wrapper({
      type: 'array',
      items: { type: 'string', enum: ['bug', 'documentation', 'feature'] },
    });
    const answer = { value: ['bug', 'documentation'] };
    const options = ['bug', 'documentation', 'feature'] as const;
    const fromZod = row(compileResponseType(z.array(z.enum(options))), sent, answer, answer.value);
    const fromValibot = row(
      compileResponseType(vs(v.array(v.picklist(options)))),
      sent,
      answer,
      answer.value,
    );
    const fromArkType = row(
      compileResponseType(type("('bug' | 'documentation' | 'feature')[]")),
      sent,
      answer,
      answer.value,
    );
    expectTypeOf(fromZod).toEqualTypeOf<('bug' | 'documentation' | 'feature')[]>();
    expectTypeOf(fromValibot).toEqualTypeOf<('bug' | 'documentation' | 'feature')[]>();
    expectTypeOf(fromArkType).toEqualTypeOf<('bug' | 'documentation' | 'feature')[]>();
  });

  test('titled options (SEP-1330 oneOf), from optionTitles metadata', () => {
    const optionTitles = { high: 'High Priority', low: 'Low Priority' };
    const sent = wrapper({
      type: 'string',
      oneOf: [
        { const: 'high', title: 'High Priority' },
        { const: 'low', title: 'Low Priority' },
      ],
    });
    const fromZod = row(
      compileResponseType(z.enum(['high', 'low']).meta({ optionTitles })),
      sent,
      { value: 'low' },
      'low',
    );
    const fromValibot = row(
      compileResponseType(vs(v.pipe(v.picklist(['high', 'low']), v.metadata({ optionTitles })))),
      sent,
      { value: 'low' },
      'low',
    );
    const fromArkType = row(
      compileResponseType(type("'high' | 'low'").configure({ optionTitles })),
      sent,
      { value: 'low' },
      'low',
    );
    expectTypeOf(fromZod).toEqualTypeOf<'high' | 'low'>();
    expectTypeOf(fromValibot).toEqualTypeOf<'high' | 'low'>();
    expectTypeOf(fromArkType).toEqualTypeOf<'high' | 'low'>();
  });

  test('a titled multi-select (SEP-1330 items.anyOf)', () => {
    const optionTitles = { bug: 'Bug', docs: 'Documentation' };
    const sent = wrapper({
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [
          { const: 'bug', title: 'Bug' },
          { const: 'docs', title: 'Documentation' },
        ],
      },
    });
    const answer = { value: ['docs'] };
    const fromZod = row(
      compileResponseType(
        z
          .array(z.enum(['bug', 'docs']))
          .min(1)
          .meta({ optionTitles }),
      ),
      sent,
      answer,
      ['docs'],
    );
    const fromValibot = row(
      compileResponseType(
        vs(
          v.pipe(
            v.array(v.picklist(['bug', 'docs'])),
            v.minLength(1),
            v.metadata({ optionTitles }),
          ),
        ),
      ),
      sent,
      answer,
      ['docs'],
    );
    const fromArkType = row(
      compileResponseType(type("('bug' | 'docs')[] >= 1").configure({ optionTitles })),
      sent,
      answer,
      ['docs'],
    );
    expectTypeOf(fromZod).toEqualTypeOf<('bug' | 'docs')[]>();
    expectTypeOf(fromValibot).toEqualTypeOf<('bug' | 'docs')[]>();
    expectTypeOf(fromArkType).toEqualTypeOf<('bug' | 'docs')[]>();
  });
});

describe('a flat object, with labels, defaults and constraints', () => {
  const properties = {
    title: { type: 'string', description: 'Task title', minLength: 1, maxLength: 80 },
    owner: { type: 'string', title: 'Owner', format: 'email' },
    link: { type: 'string', format: 'uri' },
    estimate: { type: 'number', minimum: 0.5, maximum: 40 },
    attendees: { type: 'integer', minimum: 1, default: 1 },
    priority: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
    labels: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['bug', 'feature'] } },
    urgent: { type: 'boolean', default: false },
  };
  const answer = { title: 'Ship it', owner: 'ada@example.com', estimate: 2 };
  const value = { ...answer, attendees: 1, priority: 'medium', urgent: false };

  test('zod', () => {
    const compiled = compileResponseType(
      z.object({
        title: z.string().min(1).max(80).describe('Task title'),
        owner: z.email().meta({ title: 'Owner' }),
        link: z.url().optional(),
        estimate: z.number().min(0.5).max(40),
        attendees: z.number().int().min(1).default(1),
        priority: z.enum(['low', 'medium', 'high']).default('medium'),
        labels: z
          .array(z.enum(['bug', 'feature']))
          .max(2)
          .optional(),
        urgent: z.boolean().default(false),
      }),
    );
    const sent = { type: 'object', properties, required: ['title', 'owner', 'estimate'] };
    const data = row(compiled, sent, answer, value);
    expectTypeOf(data).toEqualTypeOf<{
      title: string;
      owner: string;
      link?: string | undefined;
      estimate: number;
      attendees: number;
      priority: 'low' | 'medium' | 'high';
      labels?: ('bug' | 'feature')[] | undefined;
      urgent: boolean;
    }>();
    expectRefused(() => compiled.parse({ ...answer, owner: 'not an email' }), 'owner');
    expectRefused(() => compiled.parse({ ...answer, estimate: 41 }), 'estimate');
  });

  test('valibot', () => {
    const compiled = compileResponseType(
      vs(
        v.object({
          title: v.pipe(v.string(), v.minLength(1), v.maxLength(80), v.description('Task title')),
          owner: v.pipe(v.string(), v.email(), v.title('Owner')),
          link: v.optional(v.pipe(v.string(), v.url())),
          estimate: v.pipe(v.number(), v.minValue(0.5), v.maxValue(40)),
          attendees: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
          priority: v.optional(v.picklist(['low', 'medium', 'high']), 'medium'),
          labels: v.optional(v.pipe(v.array(v.picklist(['bug', 'feature'])), v.maxLength(2))),
          urgent: v.optional(v.boolean(), false),
        }),
      ),
    );
    const sent = { type: 'object', properties, required: ['title', 'owner', 'estimate'] };
    const data = row(compiled, sent, answer, value);
    expectTypeOf(data).toEqualTypeOf<{
      title: string;
      owner: string;
      link?: string | undefined;
      estimate: number;
      attendees: number;
      priority: 'low' | 'medium' | 'high';
      labels?: ('bug' | 'feature')[] | undefined;
      urgent: boolean;
    }>();
    expectRefused(() => compiled.parse({ ...answer, owner: 'not an email' }), 'owner');
    expectRefused(() => compiled.parse({ ...answer, estimate: 41 }), 'estimate');
  });

  test('ArkType (its own order: required keys first, options sorted)', () => {
    const compiled = compileResponseType(
      type({
        title: type('1 <= string <= 80').describe('Task title'),
        owner: type('string.email').configure({ title: 'Owner' }),
        'link?': 'string.url',
        estimate: '0.5 <= number <= 40',
        attendees: type('number.integer >= 1').default(1),
        priority: type("'low' | 'medium' | 'high'").default('medium'),
        'labels?': "('bug' | 'feature')[] <= 2",
        urgent: type('boolean').default(false),
      }),
    );
    const sent = {
      type: 'object',
      properties: {
        ...properties,
        priority: { ...properties.priority, enum: ['high', 'low', 'medium'] },
      },
      required: ['estimate', 'owner', 'title'],
    };
    const data = row(compiled, sent, answer, value);
    expectTypeOf(data).toEqualTypeOf<{
      title: string;
      owner: string;
      link?: string;
      estimate: number;
      attendees: number;
      priority: 'low' | 'medium' | 'high';
      labels?: ('bug' | 'feature')[];
      urgent: boolean;
    }>();
    expectRefused(() => compiled.parse({ ...answer, owner: 'not an email' }), 'owner');
    expectRefused(() => compiled.parse({ ...answer, estimate: 41 }), 'estimate');
  });
});

describe('what the library does on the server', () => {
  test('refinements and transforms hold, and the output type is the library’s', () => {
    const zodName = z
      .object({ first: z.string(), last: z.string() })
      .refine((name) => name.first !== name.last, { message: 'must differ', path: ['last'] })
      .transform((name) => `${name.first} ${name.last}`);
    const valibotName = vs(
      v.pipe(
        v.object({ first: v.string(), last: v.string() }),
        v.forward(
          v.check((name) => name.first !== name.last, 'must differ'),
          ['last'],
        ),
        v.transform((name) => `${name.first} ${name.last}`),
      ),
    );
    const arkTypeName = type({ first: 'string', last: 'string' })
      .narrow(
        (name, ctx) =>
          name.first !== name.last || ctx.reject({ path: ['last'], message: 'must differ' }),
      )
      .pipe((name) => `${name.first} ${name.last}`);
    const sent = {
      type: 'object',
      properties: { first: { type: 'string' }, last: { type: 'string' } },
      required: ['first', 'last'],
    };
    const answer = { first: 'Ada', last: 'Lovelace' };
    const fromZod = row(compileResponseType(zodName), sent, answer, 'Ada Lovelace');
    const fromValibot = row(compileResponseType(valibotName), sent, answer, 'Ada Lovelace');
    const fromArkType = row(compileResponseType(arkTypeName), sent, answer, 'Ada Lovelace');
    expectTypeOf(fromZod).toEqualTypeOf<string>();
    expectTypeOf(fromValibot).toEqualTypeOf<string>();
    expectTypeOf(fromArkType).toEqualTypeOf<string>();
    for (const schema of [zodName, valibotName, arkTypeName]) {
      expectRefused(
        () => compileResponseType(schema).parse({ first: 'Ada', last: 'Ada' }),
        'last',
        /must differ/,
      );
    }
  });

  test('a required field left out reads "is required", whatever the library', () => {
    for (const schema of [
      z.object({ name: z.string() }),
      vs(v.object({ name: v.string() })),
      type({ name: 'string' }),
    ]) {
      expectRefused(() => compileResponseType(schema).parse({}), 'name', /^is required$/);
    }
  });
});
