import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';

import { compileResponseType } from '../src/index.ts';
import { expectNotLogged, expectRefused, invalidAnswer } from './fixtures/errors.ts';

// valibot, read through the JSON Schema `@valibot/to-json-schema` gives it: what is specific to
// valibot. The shared table and refusals are in libraryTable and libraryRefusals.

const vs = toStandardJsonSchema;

function fieldOf(schema: v.GenericSchema): unknown {
  return compileResponseType(vs(v.object({ f: schema }))).requestedSchema.properties['f'];
}

function refusal(schema: v.GenericSchema): string {
  try {
    compileResponseType(vs(v.object({ f: schema })));
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('a valibot schema', () => {
  test('is read once wrapped by toStandardJsonSchema; bare, it is refused with the way out', () => {
    expect(() => compileResponseType(v.string() as never)).toThrow(
      'compileResponseType: this valibot schema validates (Standard Schema) but cannot describe ' +
        'itself as JSON Schema (Standard JSON Schema), so there is nothing to send; wrap it with ' +
        'toStandardJsonSchema() from @valibot/to-json-schema.',
    );
  });

  test('labels: v.title(), v.description() and v.metadata({ optionTitles })', () => {
    expect(fieldOf(v.pipe(v.string(), v.title('Name'), v.description('Your full name')))).toEqual({
      type: 'string',
      title: 'Name',
      description: 'Your full name',
    });
  });

  test('formats: v.email(), v.url(), v.isoDate() and v.isoTimestamp()', () => {
    expect(fieldOf(v.pipe(v.string(), v.email()))).toEqual({ type: 'string', format: 'email' });
    expect(fieldOf(v.pipe(v.string(), v.url()))).toEqual({ type: 'string', format: 'uri' });
    expect(fieldOf(v.pipe(v.string(), v.isoDate()))).toEqual({ type: 'string', format: 'date' });
    expect(fieldOf(v.pipe(v.string(), v.isoTimestamp()))).toEqual({
      type: 'string',
      format: 'date-time',
    });
    const compiled = compileResponseType(
      vs(v.object({ at: v.pipe(v.string(), v.isoTimestamp()) })),
    );
    expect(compiled.parse({ at: '2026-08-01T09:30:00.000Z' })).toEqual({
      at: '2026-08-01T09:30:00.000Z',
    });
  });

  test('v.isoDateTime() is sent as date-time but accepts only minutes, so prefer v.isoTimestamp()', () => {
    // @valibot/to-json-schema maps it to 'date-time'; valibot's own check wants 'YYYY-MM-DDTHH:mm'.
    const compiled = compileResponseType(vs(v.object({ at: v.pipe(v.string(), v.isoDateTime()) })));
    expect(compiled.requestedSchema.properties['at']).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expectRefused(() => compiled.parse({ at: '2026-08-01T09:30:00Z' }), 'at');
  });

  test('optional fields, defaults (a function default is read once) and v.exactOptional', () => {
    let calls = 0;
    const compiled = compileResponseType(
      vs(
        v.object({
          a: v.optional(v.string()),
          b: v.optional(v.number(), () => ++calls * 10),
          c: v.exactOptional(v.boolean()),
        }),
      ),
    );
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'number', default: 10 },
        c: { type: 'boolean' },
      },
    });
    expect(compiled.parse({})).toEqual({ b: 10 });
  });

  test('checks and transformations are valibot’s to run on the server, not sent', () => {
    const compiled = compileResponseType(
      vs(
        v.object({
          code: v.pipe(
            v.string(),
            v.trim(),
            v.check((s) => s === s.toUpperCase(), 'must be upper case'),
          ),
        }),
      ),
    );
    expect(compiled.requestedSchema.properties['code']).toEqual({ type: 'string' });
    expect(compiled.parse({ code: '  ABC ' })).toEqual({ code: 'ABC' });
    expectRefused(() => compiled.parse({ code: 'abc' }), 'code', /^must be upper case$/);
  });

  test('validations with no JSON Schema keyword are refused, naming the action', () => {
    expect(refusal(v.pipe(v.string(), v.minGraphemes(2)))).toBe(
      "compileResponseType: field 'f' has a 'min_graphemes' check, which the spec's restricted " +
        'subset cannot express.',
    );
    expect(refusal(v.pipe(v.string(), v.startsWith('a')))).toMatch(/has a pattern/);
    expect(refusal(v.pipe(v.string(), v.uuid()))).toMatch(
      /string format 'uuid', which cannot be sent/,
    );
    expect(refusal(v.nullish(v.string()))).toMatch(/is nullable/);
  });

  test('schemas JSON cannot carry are refused, naming the schema', () => {
    expect(refusal(v.map(v.string(), v.string()))).toBe(
      "compileResponseType: field 'f' is a valibot 'map' schema, which the spec's restricted " +
        'subset cannot express.',
    );
    expect(refusal(v.set(v.string()))).toMatch(/is a valibot 'set' schema/);
  });

  test("answers carry valibot's message; what may be logged leaves out the value it received", () => {
    const compiled = compileResponseType(vs(v.object({ email: v.pipe(v.string(), v.email()) })));
    const error = invalidAnswer(() => compiled.parse({ email: 'hunter2-4417' }));
    expect(error.data).toEqual({ field: 'email', reason: 'Invalid email' });
    expect(error.reasonWithAnswer()).toBe('Invalid email: Received "hunter2-4417"');
    // The issues hold the input: they are not kept as the cause.
    expect(error.cause).toBeUndefined();
    expectNotLogged(error, 'hunter2-4417');
    const long = compileResponseType(vs(v.object({ pin: v.pipe(v.string(), v.maxLength(4)) })));
    expectRefused(
      () => long.parse({ pin: 'hunter2-4417' }),
      'pin',
      /^Invalid length: Expected <=4$/,
      /^Invalid length: Expected <=4 but received 12$/,
    );
  });

  test('a problem inside a list says which item', () => {
    const compiled = compileResponseType(vs(v.array(v.picklist(['a', 'b']))));
    expectRefused(() => compiled.parse({ value: ['a', 'c'] }), 'value', /\(at item 1\)$/);
  });

  test('async schemas are a TypeError when an answer is parsed: parse is synchronous', () => {
    const compiled = compileResponseType(
      vs(
        v.objectAsync({
          a: v.pipeAsync(
            v.string(),
            v.checkAsync(async () => true),
          ),
        }) as never,
      ),
    );
    expect(() => compiled.parse({ a: 'x' })).toThrow(
      /^CompiledResponseType\.parse: the schema has an async refinement/,
    );
  });

  test('TypeScript enums through v.enum()', () => {
    enum Size {
      Small = 's',
      Large = 'l',
    }
    const compiled = compileResponseType(vs(v.enum(Size)));
    expect(compiled.requestedSchema.properties['value']).toEqual({
      type: 'string',
      enum: ['s', 'l'],
    });
    expect(compiled.parse({ value: 'l' })).toBe(Size.Large);
  });
});
