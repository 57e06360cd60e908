import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';

import { compileResponseType } from '../src/index.ts';
import { expectRefused } from './fixtures/errors.ts';

/** The wire schema of one zod field, compiled inside an object. */
function fieldOf(schema: z.ZodType): unknown {
  const compiled = compileResponseType(z.object({ f: schema }));
  return compiled.requestedSchema.properties['f'];
}

function requiredOf(schema: z.ZodType): boolean {
  const compiled = compileResponseType(z.object({ f: schema }));
  return compiled.requestedSchema.required?.includes('f') ?? false;
}

function refusal(schema: z.ZodType): string {
  try {
    compileResponseType(z.object({ f: schema }));
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('metadata', () => {
  test('.describe() and .meta() become description and title, wherever they sit', () => {
    expect(fieldOf(z.string().describe('inner').optional())).toEqual({
      type: 'string',
      description: 'inner',
    });
    expect(fieldOf(z.string().optional().meta({ title: 'Outer' }))).toEqual({
      type: 'string',
      title: 'Outer',
    });
    // The outermost label wins, as it would in zod's own JSON Schema.
    expect(fieldOf(z.string().describe('inner').default('x').describe('outer'))).toEqual({
      type: 'string',
      description: 'outer',
      default: 'x',
    });
  });

  test('other metadata stays off the wire', () => {
    expect(fieldOf(z.string().meta({ id: 'name', examples: ['Ada'] }))).toEqual({
      type: 'string',
    });
  });

  test('a title on the object itself is not sent (strict clients refuse a top-level title)', () => {
    const compiled = compileResponseType(z.object({ a: z.string() }).meta({ title: 'Person' }));
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });
});

describe('optional fields and defaults', () => {
  test('.optional(), .default() and .prefault() make a field optional', () => {
    expect(requiredOf(z.string())).toBe(true);
    expect(requiredOf(z.string().optional())).toBe(false);
    expect(requiredOf(z.string().default('a'))).toBe(false);
    expect(requiredOf(z.string().prefault('a'))).toBe(false);
    expect(fieldOf(z.string().prefault('a'))).toEqual({ type: 'string', default: 'a' });
  });

  test('.nonoptional() outside .optional() makes it required again', () => {
    expect(requiredOf(z.string().optional().nonoptional())).toBe(true);
  });

  test('a function default is evaluated once per compile, and the answer gets that value', () => {
    let calls = 0;
    const compiled = compileResponseType(z.object({ n: z.number().default(() => ++calls * 10) }));
    expect(compiled.requestedSchema.properties['n']).toEqual({ type: 'number', default: 10 });
    expect(compiled.parse({})).toEqual({ n: 10 });
    expect(calls).toBe(1);
  });

  test('a default that is not a valid answer is refused', () => {
    expect(refusal(z.number().max(3).default(5))).toMatch(
      /^compileResponseType: field 'f' has a default that is not a valid answer: must be at most 3/,
    );
    expect(
      refusal(
        z
          .string()
          .transform((s) => s.length)
          .default(3),
      ),
    ).toMatch(/default that is not a valid answer: expected a string/);
  });
});

describe('compiling an object', () => {
  test('reads it without running its validator (a zod object refuses a missing value by type)', () => {
    const schema = z.object({ destination: z.string() });
    let validations = 0;
    const validate = schema['~standard'].validate;
    Object.defineProperty(schema['~standard'], 'validate', {
      value: (value: unknown) => (validations++, validate(value)),
    });
    const compiled = compileResponseType(schema);
    expect(compiled.requestedSchema.required).toEqual(['destination']);
    expect(validations).toBe(0);
    // Parsing an answer still runs it.
    expect(compiled.parse({ destination: 'Oslo' })).toEqual({ destination: 'Oslo' });
    expect(validations).toBeGreaterThan(0);
  });
});

describe('strings', () => {
  test('lengths become minLength/maxLength', () => {
    expect(fieldOf(z.string().min(2).max(5))).toEqual({
      type: 'string',
      minLength: 2,
      maxLength: 5,
    });
    expect(fieldOf(z.string().length(4))).toEqual({ type: 'string', minLength: 4, maxLength: 4 });
    expect(fieldOf(z.string().min(2).min(3))).toEqual({ type: 'string', minLength: 3 });
  });

  test('email, url, date and datetime map to the four spec formats, in both spellings', () => {
    expect(fieldOf(z.email())).toEqual({ type: 'string', format: 'email' });
    expect(fieldOf(z.string().email())).toEqual({ type: 'string', format: 'email' });
    expect(fieldOf(z.url())).toEqual({ type: 'string', format: 'uri' });
    expect(fieldOf(z.string().url())).toEqual({ type: 'string', format: 'uri' });
    expect(fieldOf(z.iso.date())).toEqual({ type: 'string', format: 'date' });
    expect(fieldOf(z.string().date())).toEqual({ type: 'string', format: 'date' });
    expect(fieldOf(z.iso.datetime())).toEqual({ type: 'string', format: 'date-time' });
    expect(fieldOf(z.string().datetime())).toEqual({ type: 'string', format: 'date-time' });
    expect(fieldOf(z.email().max(100))).toEqual({
      type: 'string',
      maxLength: 100,
      format: 'email',
    });
  });

  test('patterns and pattern-like formats are refused, with the way out', () => {
    expect(refusal(z.string().regex(/^[A-Z]{3}$/))).toBe(
      "compileResponseType: field 'f' has a pattern (a regular expression): the spec's subset " +
        'has no pattern keyword, so a client could not enforce it; drop it, or enforce it on the ' +
        'server with a refinement (zod .refine(), valibot v.check(), ArkType .narrow()).',
    );
    expect(refusal(z.uuid())).toMatch(/string format 'uuid', which cannot be sent/);
    expect(refusal(z.string().startsWith('a'))).toMatch(/'starts_with'/);
    expect(refusal(z.string().includes('a'))).toMatch(/'includes'/);
    expect(refusal(z.string().email().url())).toMatch(
      /has two formats \('email' and 'uri'\); a field has at most one/,
    );
  });

  test('refinements and overwrites are enforced on the server, not sent', () => {
    const compiled = compileResponseType(
      z.object({
        code: z
          .string()
          .trim()
          .refine((s) => s === s.toUpperCase(), 'must be upper case'),
      }),
    );
    expect(compiled.requestedSchema.properties['code']).toEqual({ type: 'string' });
    expect(compiled.parse({ code: '  ABC ' })).toEqual({ code: 'ABC' });
    expectRefused(() => compiled.parse({ code: 'abc' }), 'code', /must be upper case/);
  });
});

describe('numbers', () => {
  test('inclusive bounds become minimum/maximum; the tightest wins', () => {
    expect(fieldOf(z.number().min(1).max(10).max(5))).toEqual({
      type: 'number',
      minimum: 1,
      maximum: 5,
    });
    expect(fieldOf(z.number().nonnegative())).toEqual({ type: 'number', minimum: 0 });
  });

  test('integers: exclusive bounds convert exactly', () => {
    expect(fieldOf(z.number().int().positive())).toEqual({ type: 'integer', minimum: 1 });
    expect(fieldOf(z.int().gt(0).lt(10))).toEqual({ type: 'integer', minimum: 1, maximum: 9 });
    expect(fieldOf(z.int().negative())).toEqual({ type: 'integer', maximum: -1 });
    // Order does not matter: .gt() before .int() still knows the field is an integer.
    expect(fieldOf(z.number().gt(2.5).int())).toEqual({ type: 'integer', minimum: 3 });
    expect(fieldOf(z.int().min(0.5))).toEqual({ type: 'integer', minimum: 1 });
  });

  test('int32 and uint32 carry their ranges', () => {
    expect(fieldOf(z.int32())).toEqual({
      type: 'integer',
      minimum: -2147483648,
      maximum: 2147483647,
    });
    expect(fieldOf(z.uint32().max(10))).toEqual({ type: 'integer', minimum: 0, maximum: 10 });
  });

  test('exclusive bounds on non-integers are refused, pointing at inclusive bounds', () => {
    expect(refusal(z.number().positive())).toBe(
      "compileResponseType: field 'f' has an exclusive bound (> 0); the spec has only the " +
        'inclusive minimum, which cannot express it for non-integers. Use an inclusive bound ' +
        '(>=) with the value you mean, or make the field an integer.',
    );
    expect(refusal(z.number().lt(1))).toMatch(/inclusive maximum.*inclusive bound \(<=\)/);
  });

  test('multipleOf is refused', () => {
    expect(refusal(z.number().multipleOf(5))).toMatch(/multipleOf/);
  });
});

describe('options', () => {
  test('z.literal of one string is a one-option select; unions of string options merge', () => {
    expect(fieldOf(z.literal('yes'))).toEqual({ type: 'string', enum: ['yes'] });
    expect(fieldOf(z.union([z.literal('a'), z.enum(['b', 'c'])]))).toEqual({
      type: 'string',
      enum: ['a', 'b', 'c'],
    });
  });

  test('non-string options are refused', () => {
    expect(refusal(z.literal(true))).toMatch(
      /options are strings \(ask for a boolean for yes\/no\)/,
    );
    expect(refusal(z.literal([1, 2]))).toMatch(/the option the number 1; options are strings/);
  });

  test('optionTitles metadata gives a titled single select (oneOf)', () => {
    expect(
      fieldOf(
        z
          .enum(['low', 'medium', 'high'])
          .meta({ optionTitles: { low: 'Low Priority', high: 'High Priority' } }),
      ),
    ).toEqual({
      type: 'string',
      oneOf: [
        { const: 'low', title: 'Low Priority' },
        { const: 'medium', title: 'medium' },
        { const: 'high', title: 'High Priority' },
      ],
    });
  });

  test('optionTitles on the list or on its options gives a titled multi-select (items.anyOf)', () => {
    const expected = {
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [
          { const: 'bug', title: 'Bug' },
          { const: 'docs', title: 'Documentation' },
        ],
      },
    };
    const titles = { optionTitles: { bug: 'Bug', docs: 'Documentation' } };
    expect(
      fieldOf(
        z
          .array(z.enum(['bug', 'docs']))
          .min(1)
          .meta(titles),
      ),
    ).toEqual(expected);
    expect(fieldOf(z.array(z.enum(['bug', 'docs']).meta(titles)).min(1))).toEqual(expected);
  });

  test('titled options are still checked against their values', () => {
    const compiled = compileResponseType(
      z.object({ p: z.enum(['low', 'high']).meta({ optionTitles: { low: 'Low' } }) }),
    );
    expect(compiled.parse({ p: 'low' })).toEqual({ p: 'low' });
    expectRefused(() => compiled.parse({ p: 'Low' }), 'p');
  });

  test('bad optionTitles are refused', () => {
    expect(refusal(z.enum(['a']).meta({ optionTitles: { b: 'B' } }))).toMatch(
      /optionTitles for 'b', which is not one of its options 'a'/,
    );
    expect(refusal(z.enum(['a']).meta({ optionTitles: { a: 1 } }))).toMatch(/not a string/);
    expect(refusal(z.enum(['a']).meta({ optionTitles: ['A'] }))).toMatch(
      /not a \{ value: title \}/,
    );
    expect(refusal(z.string().meta({ optionTitles: { a: 'A' } }))).toMatch(/but no options/);
  });
});

describe('what the restricted subset cannot express', () => {
  const cases: [string, z.ZodType, RegExp][] = [
    [
      'nested objects',
      z.object({ street: z.string() }),
      /is a nested object; elicitation schemas are flat/,
    ],
    ['arrays of objects', z.array(z.object({ a: z.string() })), /is an array of objects/],
    ['free-text lists', z.array(z.string()), /is an array of strings; only lists of options/],
    [
      'unions that are not enums',
      z.union([z.string(), z.number()]),
      /is a union that is not a set of string options/,
    ],
    ['records', z.record(z.string(), z.string()), /is a record/],
    [
      'nullable fields',
      z.string().nullable(),
      /is nullable; answers are never null\. Make the field optional instead/,
    ],
    ['dates', z.date(), /is a Date, which JSON cannot carry.*z\.iso\.date\(\)/],
    ['bigints', z.bigint(), /is a bigint, which JSON cannot carry; ask for an integer/],
    ['tuples', z.tuple([z.string()]), /is a tuple/],
    ['untyped values', z.any(), /is a z\.any\(\)/],
  ];
  test.each(cases)('%s are refused with a TypeError naming the field', (_name, schema, reason) => {
    const message = refusal(schema);
    expect(message).toMatch(/^compileResponseType: field 'f' /);
    expect(message).toMatch(reason);
  });

  test('a refusal names the wrapper field for a non-object response type', () => {
    expect(() => compileResponseType(z.string().nullable())).toThrow(
      /^compileResponseType: field 'value' is nullable/,
    );
  });

  test('records-by-catchall are refused; strict and loose objects are fine', () => {
    expect(() => compileResponseType(z.object({}).catchall(z.string()))).toThrow(/catchall/);
    expect(
      compileResponseType(z.strictObject({ a: z.string() })).requestedSchema.properties,
    ).toEqual({ a: { type: 'string' } });
    expect(compileResponseType(z.looseObject({ a: z.string() })).wrapped).toBe(false);
  });

  test('zod 3 schemas are refused with the way forward', () => {
    const zod3Like = { _def: { typeName: 'ZodString' }, safeParse: () => ({ success: true }) };
    expect(() => compileResponseType(zod3Like as never)).toThrow(
      /zod 3 schema; Parley reads zod 4/,
    );
  });
});

describe('zod object wrappers and other zod builds', () => {
  test('a transformed object sends its input fields and returns the transformed output', () => {
    const compiled = compileResponseType(
      z.object({ first: z.string(), last: z.string() }).transform((p) => `${p.first} ${p.last}`),
    );
    expect(compiled.wrapped).toBe(false);
    expect(compiled.requestedSchema.required).toEqual(['first', 'last']);
    expect(compiled.parse({ first: 'Ada', last: 'Lovelace' })).toBe('Ada Lovelace');
  });

  test('an object response cannot be optional as a whole', () => {
    for (const schema of [
      z.object({ a: z.string() }).optional(),
      z.object({ a: z.string() }).nullable(),
      z.object({ a: z.string() }).default({ a: 'x' }),
    ]) {
      // @ts-expect-error an optional object is no flat form (refused at compile time too)
      expect(() => compileResponseType(schema)).toThrow(
        /^compileResponseType: an object response type cannot be optional, nullable or defaulted as a whole/,
      );
    }
  });

  test('zod/mini schemas are read the same way', () => {
    const compiled = compileResponseType(
      zm.object({ name: zm.string().check(zm.minLength(2)), age: zm.optional(zm.int()) }),
    );
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer' } },
      required: ['name'],
    });
    expect(compiled.parse({ name: 'Al' })).toEqual({ name: 'Al' });
    expectRefused(() => compiled.parse({ name: 'A' }), 'name');
  });
});
