import { describe, expect, test } from 'vitest';

import { validateElicitationSchema } from '../src/index.ts';
import { SEP1034_DEFAULTS_SCHEMA, SEP1330_ENUMS_SCHEMA } from './fixtures/conformance.ts';

const API = /^validateElicitationSchema: /;

function field(schema: unknown): unknown {
  return { type: 'object', properties: { f: schema } };
}

function refusal(schema: unknown): string {
  try {
    validateElicitationSchema(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(API);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('validateElicitationSchema accepts', () => {
  test('the conformance schemas, returning the same object', () => {
    expect(validateElicitationSchema(SEP1034_DEFAULTS_SCHEMA)).toBe(SEP1034_DEFAULTS_SCHEMA);
    expect(validateElicitationSchema(SEP1330_ENUMS_SCHEMA)).toBe(SEP1330_ENUMS_SCHEMA);
  });

  test('an empty form, $schema, and a top-level title (the lint warns about that one)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Booking',
      type: 'object',
      properties: {},
    };
    expect(validateElicitationSchema(schema)).toBe(schema);
  });
});

describe('validateElicitationSchema refuses, naming the field and the reason', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a non-object', 'schema', /expected a schema object, got the string "schema"/],
    [
      'a non-object root type',
      { type: 'array', properties: {} },
      /expected type 'object' at the top/,
    ],
    ['missing properties', { type: 'object' }, /expected a properties object/],
    [
      'unknown top-level keywords',
      { type: 'object', properties: {}, additionalProperties: false },
      /keyword 'additionalProperties', which cannot be sent: the spec’s subset has no additionalProperties/,
    ],
    [
      'required naming no field',
      { type: 'object', properties: {}, required: ['a'] },
      /required names 'a', which is not in properties/,
    ],
    [
      'required twice',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'a'] },
      /required lists a field twice/,
    ],
    [
      'required not a list',
      { type: 'object', properties: {}, required: 'a' },
      /required must be a list/,
    ],
    [
      'nested objects',
      field({ type: 'object', properties: {} }),
      /field 'f' is a nested object; elicitation schemas are flat/,
    ],
    [
      'unknown types',
      field({ type: 'null' }),
      /field 'f' has type the string "null"; the spec allows/,
    ],
    ['missing types', field({ enum: ['a'] }), /field 'f' has type nothing/],
    ['non-object fields', field('string'), /field 'f' is the string "string", not a field schema/],
    [
      'pattern',
      field({ type: 'string', pattern: '^a' }),
      /field 'f' has the keyword 'pattern', which cannot be sent: regex patterns/,
    ],
    [
      'exclusive bounds',
      field({ type: 'number', exclusiveMinimum: 0 }),
      /only inclusive bounds; use minimum/,
    ],
    ['keywords of another type', field({ type: 'boolean', minLength: 1 }), /keyword 'minLength'/],
    [
      'an unknown format',
      field({ type: 'string', format: 'uuid' }),
      /format the string "uuid"; the spec allows 'email', 'uri', 'date', 'date-time'/,
    ],
    [
      'a negative length',
      field({ type: 'string', minLength: -1 }),
      /minLength the number -1; it must be a whole number/,
    ],
    [
      'crossed lengths',
      field({ type: 'string', minLength: 3, maxLength: 2 }),
      /minimum length \(3\) above its maximum \(2\)/,
    ],
    [
      'a non-finite bound',
      field({ type: 'number', maximum: 'ten' }),
      /maximum the string "ten"; it must be a finite number/,
    ],
    [
      'crossed bounds',
      field({ type: 'integer', minimum: 2, maximum: 1 }),
      /minimum value \(2\) above its maximum \(1\)/,
    ],
    [
      'an empty enum',
      field({ type: 'string', enum: [] }),
      /enum that is not a non-empty list of strings/,
    ],
    [
      'non-string options',
      field({ type: 'string', enum: [1, 2] }),
      /has the option the number 1; options must be strings/,
    ],
    [
      'duplicate options',
      field({ type: 'string', enum: ['a', 'a'] }),
      /lists the option 'a' twice/,
    ],
    [
      'enum and oneOf together',
      field({ type: 'string', enum: ['a'], oneOf: [{ const: 'a', title: 'A' }] }),
      /both enum and oneOf/,
    ],
    [
      'mismatched enumNames',
      field({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }),
      /enumNames that are not one string per enum value/,
    ],
    [
      'oneOf without titles',
      field({ type: 'string', oneOf: [{ const: 'a' }] }),
      /oneOf option 'a' without a string title/,
    ],
    [
      'oneOf with extra keys',
      field({ type: 'string', oneOf: [{ const: 'a', title: 'A', description: 'x' }] }),
      /keyword 'description'/,
    ],
    ['arrays without items', field({ type: 'array' }), /array without items/],
    [
      'arrays of strings',
      field({ type: 'array', items: { type: 'string' } }),
      /array without options/,
    ],
    ['arrays of objects', field({ type: 'array', items: { type: 'object' } }), /array of objects/],
    [
      'items.oneOf (SEP-1330 text; the schema uses anyOf)',
      field({ type: 'array', items: { oneOf: [{ const: 'a', title: 'A' }] } }),
      /titled multi-select uses items\.anyOf/,
    ],
    [
      'items.enum without type',
      field({ type: 'array', items: { enum: ['a'] } }),
      /items with an enum but without type 'string'/,
    ],
    [
      'a default outside the enum (SEP-1034)',
      field({ type: 'string', enum: ['a'], default: 'b' }),
      /default that is not a valid answer: 'b' is not one of the options 'a'/,
    ],
    [
      'a default of the wrong type',
      field({ type: 'integer', default: 1.5 }),
      /default that is not a valid answer: expected an integer/,
    ],
    [
      'a default out of range',
      field({
        type: 'array',
        maxItems: 1,
        items: { type: 'string', enum: ['a', 'b'] },
        default: ['a', 'b'],
      }),
      /choose at most 1 option/,
    ],
    [
      'a non-string title',
      field({ type: 'string', title: 5 }),
      /title that is the number 5, not a string/,
    ],
  ];
  test.each(cases)('%s', (_name, schema, reason) => {
    expect(refusal(schema)).toMatch(reason);
  });
});
