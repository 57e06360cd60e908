import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType } from '../src/index.ts';
import { expectRefused } from './fixtures/errors.ts';

// The issue's table, one test per row: the exact JSON sent, an answer accepted and the value
// returned, and the inferred TypeScript type of that value.

const wrapper = (field: object) => ({
  type: 'object',
  properties: { value: field },
  required: ['value'],
});

enum Priority {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}

enum Tag {
  BUG = 'bug',
  FEATURE = 'feature',
  DOCS = 'documentation',
}

describe('response types (the table)', () => {
  test('String and z.string(): a wrapped string', () => {
    for (const compiled of [compileResponseType(String), compileResponseType(z.string())]) {
      expect(compiled.requestedSchema).toEqual(wrapper({ type: 'string' }));
      expect(compiled.wrapped).toBe(true);
      const data = compiled.parse({ value: 'Ada' });
      expect(data).toBe('Ada');
      expectTypeOf(data).toEqualTypeOf<string>();
      expectRefused(() => compiled.parse({ value: 42 }), 'value', /string/);
    }
  });

  test('Number and z.number(): a wrapped number', () => {
    for (const compiled of [compileResponseType(Number), compileResponseType(z.number())]) {
      expect(compiled.requestedSchema).toEqual(wrapper({ type: 'number' }));
      const data = compiled.parse({ value: 2.5 });
      expect(data).toBe(2.5);
      expectTypeOf(data).toEqualTypeOf<number>();
      expectRefused(() => compiled.parse({ value: '2.5' }), 'value');
    }
  });

  test('z.number().int(): a wrapped integer, checked', () => {
    const compiled = compileResponseType(z.number().int());
    expect(compiled.requestedSchema).toEqual(wrapper({ type: 'integer' }));
    const data = compiled.parse({ value: 30 });
    expect(data).toBe(30);
    expectTypeOf(data).toEqualTypeOf<number>();
    expectRefused(() => compiled.parse({ value: 30.5 }), 'value');
  });

  test('Boolean and z.boolean(): a wrapped boolean', () => {
    for (const compiled of [compileResponseType(Boolean), compileResponseType(z.boolean())]) {
      expect(compiled.requestedSchema).toEqual(wrapper({ type: 'boolean' }));
      const data = compiled.parse({ value: false });
      expect(data).toBe(false);
      expectTypeOf(data).toEqualTypeOf<boolean>();
      expectRefused(() => compiled.parse({ value: 'false' }), 'value');
    }
  });

  test("['low','medium','high'] as const: single select of literals", () => {
    const compiled = compileResponseType(['low', 'medium', 'high'] as const);
    expect(compiled.requestedSchema).toEqual(
      wrapper({ type: 'string', enum: ['low', 'medium', 'high'] }),
    );
    const data = compiled.parse({ value: 'medium' });
    expect(data).toBe('medium');
    expectTypeOf(data).toEqualTypeOf<'low' | 'medium' | 'high'>();
    expectRefused(() => compiled.parse({ value: 'urgent' }), 'value', /not one of the options/);
  });

  test('z.enum, z.literal([...]) and a TS string enum: the same single select', () => {
    const expected = wrapper({ type: 'string', enum: ['low', 'medium', 'high'] });
    const fromEnum = compileResponseType(z.enum(['low', 'medium', 'high']));
    const fromLiteral = compileResponseType(z.literal(['low', 'medium', 'high']));
    const fromTsEnum = compileResponseType(Priority);
    for (const compiled of [fromEnum, fromLiteral, fromTsEnum]) {
      expect(compiled.requestedSchema).toEqual(expected);
      expect(compiled.parse({ value: 'high' })).toBe('high');
      expectRefused(() => compiled.parse({ value: 'HIGH' }), 'value');
    }
    expectTypeOf(fromEnum.parse).returns.toEqualTypeOf<'low' | 'medium' | 'high'>();
    expectTypeOf(fromLiteral.parse).returns.toEqualTypeOf<'low' | 'medium' | 'high'>();
    const priority = fromTsEnum.parse({ value: 'low' });
    expect(priority).toBe(Priority.LOW);
    expectTypeOf(priority).toEqualTypeOf<Priority>();
  });

  test("[['bug','feature','documentation']] as const: multi-select", () => {
    const compiled = compileResponseType([['bug', 'feature', 'documentation']] as const);
    expect(compiled.requestedSchema).toEqual(
      wrapper({
        type: 'array',
        items: { type: 'string', enum: ['bug', 'feature', 'documentation'] },
      }),
    );
    const data = compiled.parse({ value: ['bug', 'documentation'] });
    expect(data).toEqual(['bug', 'documentation']);
    expectTypeOf(data).toEqualTypeOf<('bug' | 'feature' | 'documentation')[]>();
    expectRefused(() => compiled.parse({ value: ['bug', 'wontfix'] }), 'value', /item 1/);
    expectRefused(() => compiled.parse({ value: 'bug' }), 'value', /list/);
  });

  test('z.array(z.enum([...])) and [TsEnum]: the same multi-select', () => {
    const expected = wrapper({
      type: 'array',
      items: { type: 'string', enum: ['bug', 'feature', 'documentation'] },
    });
    const fromZod = compileResponseType(z.array(z.enum(['bug', 'feature', 'documentation'])));
    const fromTsEnum = compileResponseType([Tag]);
    for (const compiled of [fromZod, fromTsEnum]) {
      expect(compiled.requestedSchema).toEqual(expected);
      expect(compiled.parse({ value: ['feature'] })).toEqual(['feature']);
      expect(compiled.parse({ value: [] })).toEqual([]);
      expectRefused(() => compiled.parse({ value: ['feature', 'nope'] }), 'value');
    }
    expectTypeOf(fromZod.parse).returns.toEqualTypeOf<('bug' | 'feature' | 'documentation')[]>();
    const tags = fromTsEnum.parse({ value: [Tag.BUG] });
    expect(tags).toEqual([Tag.BUG]);
    // `.items`: expect-type tells `Tag[]` from `(Tag.BUG | …)[]` apart, though they are one type.
    expectTypeOf(tags).items.toEqualTypeOf<Tag>();
  });

  test('{ low: { title }, … }: titled single select (SEP-1330 oneOf)', () => {
    const compiled = compileResponseType({
      low: { title: 'Low Priority' },
      medium: { title: 'Medium Priority' },
      high: { title: 'High Priority' },
    });
    expect(compiled.requestedSchema).toEqual(
      wrapper({
        type: 'string',
        oneOf: [
          { const: 'low', title: 'Low Priority' },
          { const: 'medium', title: 'Medium Priority' },
          { const: 'high', title: 'High Priority' },
        ],
      }),
    );
    const data = compiled.parse({ value: 'low' });
    expect(data).toBe('low');
    expectTypeOf(data).toEqualTypeOf<'low' | 'medium' | 'high'>();
    // The answer is the const, never the title.
    expectRefused(() => compiled.parse({ value: 'Low Priority' }), 'value');
  });

  test('[{ low: { title }, … }]: titled multi-select (SEP-1330 items.anyOf)', () => {
    const compiled = compileResponseType([
      { low: { title: 'Low Priority' }, high: { title: 'High Priority' } },
    ]);
    expect(compiled.requestedSchema).toEqual(
      wrapper({
        type: 'array',
        items: {
          anyOf: [
            { const: 'low', title: 'Low Priority' },
            { const: 'high', title: 'High Priority' },
          ],
        },
      }),
    );
    const data = compiled.parse({ value: ['high', 'low'] });
    expect(data).toEqual(['high', 'low']);
    expectTypeOf(data).toEqualTypeOf<('low' | 'high')[]>();
    expectRefused(() => compiled.parse({ value: ['medium'] }), 'value');
  });

  test('z.object({...}): the flat object, with metadata, defaults and constraints', () => {
    const compiled = compileResponseType(
      z.object({
        title: z.string().min(1).max(80).describe('Task title'),
        owner: z.email().meta({ title: 'Owner' }),
        link: z.url().optional(),
        due: z.iso.date(),
        remindAt: z.iso.datetime().optional(),
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
    expect(compiled.wrapped).toBe(false);
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Task title', minLength: 1, maxLength: 80 },
        owner: { type: 'string', title: 'Owner', format: 'email' },
        link: { type: 'string', format: 'uri' },
        due: { type: 'string', format: 'date' },
        remindAt: { type: 'string', format: 'date-time' },
        estimate: { type: 'number', minimum: 0.5, maximum: 40 },
        attendees: { type: 'integer', minimum: 1, default: 1 },
        priority: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
        labels: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['bug', 'feature'] } },
        urgent: { type: 'boolean', default: false },
      },
      required: ['title', 'owner', 'due', 'estimate'],
    });
    const data = compiled.parse({
      title: 'Ship it',
      owner: 'ada@example.com',
      due: '2026-08-01',
      estimate: 2,
    });
    expect(data).toEqual({
      title: 'Ship it',
      owner: 'ada@example.com',
      due: '2026-08-01',
      estimate: 2,
      attendees: 1,
      priority: 'medium',
      urgent: false,
    });
    expectTypeOf(data).toEqualTypeOf<{
      title: string;
      owner: string;
      link?: string | undefined;
      due: string;
      remindAt?: string | undefined;
      estimate: number;
      attendees: number;
      priority: 'low' | 'medium' | 'high';
      labels?: ('bug' | 'feature')[] | undefined;
      urgent: boolean;
    }>();
    expectRefused(() => compiled.parse({ ...data, owner: 'not an email' }), 'owner');
    expectRefused(() => compiled.parse({ ...data, estimate: 41 }), 'estimate');
  });

  test('null: approve-only, no fields, no data', () => {
    const compiled = compileResponseType(null);
    expect(compiled.requestedSchema).toEqual({ type: 'object', properties: {} });
    expect(compiled.wrapped).toBe(false);
    const data = compiled.parse(undefined);
    expect(data).toBeUndefined();
    expect(compiled.parse({})).toBeUndefined();
    expectTypeOf(data).toEqualTypeOf<undefined>();
  });

  test('a raw wire ElicitationSchema: sent as written, answered as a record', () => {
    const schema = {
      type: 'object',
      properties: {
        destination: { type: 'string', title: 'Destination' },
        seats: { type: 'integer', minimum: 1, maximum: 9, default: 1 },
      },
      required: ['destination'],
    } as const;
    const compiled = compileResponseType(schema);
    expect(compiled.requestedSchema).toEqual(schema);
    expect(compiled.requestedSchema).not.toBe(schema);
    const data = compiled.parse({ destination: 'Paris' });
    expect(data).toEqual({ destination: 'Paris', seats: 1 });
    expectTypeOf(data).toEqualTypeOf<Record<string, string | number | boolean | string[]>>();
    expectRefused(() => compiled.parse({ destination: 'Paris', seats: 10 }), 'seats');
  });
});

describe('responseTitle and responseDescription', () => {
  test('label the wrapper field, so clients do not show "Value"', () => {
    const compiled = compileResponseType(Boolean, {
      responseTitle: 'Confirm purchase',
      responseDescription: 'Approve this transaction?',
    });
    expect(compiled.requestedSchema).toEqual(
      wrapper({
        type: 'boolean',
        title: 'Confirm purchase',
        description: 'Approve this transaction?',
      }),
    );
    expect(
      compileResponseType(['a', 'b'], { responseTitle: 'Pick' }).requestedSchema.properties[
        'value'
      ],
    ).toEqual({ type: 'string', title: 'Pick', enum: ['a', 'b'] });
  });

  test('override the metadata of a wrapped zod schema', () => {
    const schema = z.string().meta({ title: 'Name', description: 'From zod' });
    expect(compileResponseType(schema).requestedSchema.properties['value']).toEqual({
      type: 'string',
      title: 'Name',
      description: 'From zod',
    });
    expect(
      compileResponseType(schema, { responseTitle: 'Full name' }).requestedSchema.properties[
        'value'
      ],
    ).toEqual({ type: 'string', title: 'Full name', description: 'From zod' });
  });

  test('are refused with an object response type, as in the seeds (and at compile time)', () => {
    expect(() =>
      // @ts-expect-error the object has its own fields to title
      compileResponseType(z.object({ name: z.string() }), { responseTitle: 'Person' }),
    ).toThrow(/^compileResponseType: responseTitle and responseDescription label the wrapper/);
    expect(() =>
      compileResponseType(
        { type: 'object', properties: { name: { type: 'string' } } },
        // @ts-expect-error a wire schema has its own fields too
        { responseDescription: 'x' },
      ),
    ).toThrow(TypeError);
    // @ts-expect-error approve-only has no field at all
    expect(() => compileResponseType(null, { responseTitle: 'OK?' })).toThrow(
      /approve-only \(null\) response has no field to label/,
    );
  });

  test('must be strings', () => {
    expect(() => compileResponseType(String, { responseTitle: 5 as unknown as string })).toThrow(
      /^compileResponseType: responseTitle must be a string/,
    );
  });

  test('a misspelt label is refused, naming the one meant (it would leave "Value" shown)', () => {
    expect(() => compileResponseType(String, { resposneTitle: 'Name' } as never)).toThrow(
      /^compileResponseType: options\.resposneTitle is not an option; did you mean responseTitle\?/,
    );
    expect(() =>
      compileResponseType(String, Object.create({ responseTitle: 'Name' }) as never),
    ).toThrow(
      /^compileResponseType: options\.responseTitle is inherited from the object's prototype/,
    );
  });
});

describe('compileResponseType', () => {
  test('returns a fresh schema on every call, so callers may add to it', () => {
    const first = compileResponseType(['a', 'b']);
    const second = compileResponseType(['a', 'b']);
    expect(first.requestedSchema).toEqual(second.requestedSchema);
    expect(first.requestedSchema).not.toBe(second.requestedSchema);
  });

  test('refuses what is not a response type, naming what it got', () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /^compileResponseType: nothing is not a response type/],
      ['string', /the string "string" is not a response type/],
      [Date, /the function Date is not a response type/],
      [42, /the number 42 is not a response type/],
      [new Map(), /a Map is not a response type/],
    ];
    for (const [value, message] of cases) {
      expect(() => compileResponseType(value as never)).toThrow(message);
    }
  });
});
