import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import {
  compileResponseType,
  standardJsonSchema,
  type StandardJsonSchemaLike,
} from '../src/index.ts';
import { expectRefused } from './fixtures/errors.ts';

// Any library that implements Standard Schema and Standard JSON Schema is read the same way as
// valibot and ArkType; here, a library written for the test, that Parley knows nothing about.

function acme(
  jsonSchema: Record<string, unknown>,
  validate: (value: unknown) => unknown,
): StandardJsonSchemaLike<{ city: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'acme',
      validate,
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  } as StandardJsonSchemaLike<{ city: string }>;
}

/** A validator that accepts any object, as an object schema's would. */
function anyObject(value: unknown): unknown {
  return typeof value === 'object' && value !== null
    ? { value }
    : { issues: [{ message: 'expected an object' }] };
}

const citySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { city: { type: 'string', title: 'City', minLength: 2 } },
  required: ['city'],
};

function validateCity(value: unknown): unknown {
  const city = (value as { city?: unknown }).city;
  return typeof city === 'string' && city !== 'Atlantis'
    ? { value: { city: city.toUpperCase() } }
    : { issues: [{ message: 'is not a real city', path: [{ key: 'city' }] }] };
}

describe('any Standard JSON Schema library', () => {
  test('is compiled from its JSON Schema and validated by its own validate', () => {
    const compiled = compileResponseType(acme(citySchema, validateCity));
    expect(compiled.requestedSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', title: 'City', minLength: 2 } },
      required: ['city'],
    });
    const data = compiled.parse({ city: 'Paris' });
    expect(data).toEqual({ city: 'PARIS' });
    expectTypeOf(data).toEqualTypeOf<{ city: string }>();
    expectRefused(() => compiled.parse({ city: 'Atlantis' }), 'city', /^is not a real city$/);
  });

  test('its JSON Schema validation keywords that have no wire form are refused, by name', () => {
    const schema = acme(
      {
        type: 'object',
        properties: { tags: { type: 'array', items: { enum: ['a'] }, uniqueItems: true } },
      },
      anyObject,
    );
    expect(() => compileResponseType(schema)).toThrow(
      "compileResponseType: field 'tags' has the JSON Schema keyword 'uniqueItems', which the " +
        "spec's restricted subset cannot express.",
    );
  });

  test('$refs to its own definitions are followed; a recursive one is refused', () => {
    const referenced = acme(
      {
        type: 'object',
        properties: { size: { $ref: '#/$defs/size', title: 'Size' } },
        $defs: { size: { type: 'string', enum: ['s', 'm'] } },
      },
      anyObject,
    );
    expect(compileResponseType(referenced).requestedSchema.properties['size']).toEqual({
      type: 'string',
      title: 'Size',
      enum: ['s', 'm'],
    });
    const recursive = acme({ type: 'object', properties: { self: { $ref: '#' } } }, anyObject);
    expect(() => compileResponseType(recursive)).toThrow(
      /field 'self' is a nested object; elicitation schemas are flat/,
    );
  });

  test('one that validates but cannot describe itself is refused, saying so', () => {
    const validatesOnly = { '~standard': { version: 1, vendor: 'acme', validate: validateCity } };
    expect(() => compileResponseType(validatesOnly as never)).toThrow(
      'compileResponseType: this acme schema validates (Standard Schema) but cannot describe ' +
        'itself as JSON Schema (Standard JSON Schema), so there is nothing to send; use a schema ' +
        'library (or version) that implements Standard JSON Schema, or a wire schema.',
    );
  });

  test('a converter that throws is a TypeError naming the library', () => {
    const broken = acme({}, anyObject);
    broken['~standard'].jsonSchema.input = () => {
      throw new Error('boom');
    };
    expect(() => compileResponseType(broken)).toThrow(
      'compileResponseType: the acme schema could not be converted to JSON Schema: boom',
    );
  });
});

describe('standardJsonSchema: a parameter schema as MCP lists it', () => {
  test('is the library’s JSON Schema (2020-12) without the $schema key', () => {
    expect(standardJsonSchema(acme(citySchema, validateCity))).toEqual({
      type: 'object',
      properties: { city: { type: 'string', title: 'City', minLength: 2 } },
      required: ['city'],
    });
  });

  test('converts leniently what a response type would refuse: the library validates the call', () => {
    const valibot = toStandardJsonSchema(
      v.object({
        code: v.pipe(
          v.string(),
          v.check((s) => s.length === 3),
        ),
        at: v.date(),
      }),
    );
    expect(standardJsonSchema(valibot)).toEqual({
      type: 'object',
      properties: { code: { type: 'string' }, at: {} },
      required: ['code', 'at'],
    });
    expect(standardJsonSchema(z.object({ at: z.date(), n: z.number() }))).toEqual({
      type: 'object',
      properties: { at: {}, n: { type: 'number' } },
      required: ['at', 'n'],
    });
  });

  test('keeps ArkType’s defaults on the input side, and lists the output side when asked', () => {
    const schema = type({
      seats: type('number.integer').default(1),
      word: type('string').pipe((s) => s.length),
    });
    expect(standardJsonSchema(schema)).toEqual({
      type: 'object',
      properties: { seats: { type: 'integer', default: 1 }, word: { type: 'string' } },
      required: ['word'],
    });
    expect(standardJsonSchema(type({ n: 'number' }), 'output')).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
  });

  test('a schema that cannot describe itself is a TypeError starting with the caller’s API', () => {
    expect(() => standardJsonSchema(v.object({}) as never, 'input', "tool 'find'")).toThrow(
      /^tool 'find': this valibot schema validates \(Standard Schema\) but cannot describe itself/,
    );
  });
});
