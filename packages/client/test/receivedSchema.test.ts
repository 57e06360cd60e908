import { describe, expect, test } from 'vitest';

import { UnreadableField, readRequestedSchema } from '../src/receivedSchema.ts';

/**
 * The one reading of a received schema, case by case: what has one reading is read (and each
 * correction named), what has none fails naming the field. The eras' paths to it are tested
 * against real servers in interop/sloppySchemas.test.ts.
 */

const form = (properties: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...rest,
});

function unreadable(schema: unknown): UnreadableField {
  try {
    readRequestedSchema(schema);
  } catch (error) {
    if (error instanceof UnreadableField) return error;
    throw error;
  }
  throw new Error('expected the schema to be unreadable');
}

describe('readRequestedSchema', () => {
  test('a schema on the spec is read as it is, with nothing to say', () => {
    const schema = form(
      {
        name: { type: 'string', minLength: 1 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        plan: { type: 'string', oneOf: [{ const: 'pro', title: 'Pro' }] },
      },
      { required: ['name'] },
    );
    expect(readRequestedSchema(schema)).toEqual({ schema, defects: [] });
  });

  test.each([
    [
      'optional as anyOf with null (pydantic)',
      { note: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }], title: 'Note' } },
      { note: { type: 'string', maxLength: 5, title: 'Note' } },
      ['field "note" as anyOf with null; read it as the one type it names ("string")'],
    ],
    [
      'a single choice under anyOf',
      { size: { type: 'string', anyOf: [{ const: 'S', title: 'Small' }] } },
      { size: { type: 'string', oneOf: [{ const: 'S', title: 'Small' }] } },
      ['field "size" with its options under anyOf; read it as oneOf (a single choice)'],
    ],
    [
      'a titled multi-select under items.oneOf',
      { extras: { type: 'array', items: { oneOf: [{ const: 'w', title: 'Wi-Fi' }] } } },
      { extras: { type: 'array', items: { anyOf: [{ const: 'w', title: 'Wi-Fi' }] } } },
      ['field "extras" with items.oneOf; read it as items.anyOf (a titled multi-select)'],
    ],
    [
      'a boolean default as a string',
      { ok: { type: 'boolean', default: 'false' } },
      { ok: { type: 'boolean', default: false } },
      ['field "ok" with default as the string "false"; read it as false'],
    ],
  ])('%s is read', (_what, properties, read, defects) => {
    expect(readRequestedSchema(form(properties))).toEqual({ schema: form(read), defects });
  });

  test('required as one name, or naming a field that is not there, is read', () => {
    const reading = readRequestedSchema(form({ a: { type: 'string' } }, { required: 'a' }));
    expect(reading.schema.required).toEqual(['a']);
    const ghost = readRequestedSchema(form({ a: { type: 'string' } }, { required: ['a', 'b'] }));
    expect(ghost).toEqual({
      schema: form({ a: { type: 'string' } }, { required: ['a'] }),
      defects: ['required naming "b", which is not a field; ignored that name'],
    });
  });

  test('a schema without properties is a form with no fields', () => {
    expect(readRequestedSchema({ type: 'object' })).toEqual({
      schema: { type: 'object', properties: {} },
      defects: ['a requestedSchema without properties; read it as a form with no fields'],
    });
  });

  test.each([
    ['a list', [], undefined, 'is a list, not a schema object'],
    ['another top type', { type: 'array' }, undefined, 'has type "array" at the top, not "object"'],
    [
      'properties as a list',
      { type: 'object', properties: [] },
      undefined,
      'has properties that are a list, not an object of fields',
    ],
    [
      'required as a number',
      form({}, { required: 3 }),
      undefined,
      'has required 3, not a list of field names',
    ],
    [
      'a field that is not an object',
      form({ a: 'string' }),
      'a',
      'is "string", not a field schema',
    ],
    [
      'a field with no type to tell',
      form({ a: { title: 'A' } }),
      'a',
      'has no type, and no enum, oneOf, anyOf or items to tell it',
    ],
    [
      'a bound that is no number',
      form({ n: { type: 'number', minimum: 'one' } }),
      'n',
      'has minimum "one", which is not a number',
    ],
    [
      'a fractional bound on an integer',
      form({ n: { type: 'integer', maximum: '2.5' } }),
      'n',
      'has maximum "2.5", which is not a whole number',
    ],
    [
      'options that are numbers',
      form({ n: { enum: [1, 2] } }),
      'n',
      'has the option the number 1; options must be strings',
    ],
    [
      'a oneOf entry without const',
      form({ n: { oneOf: [{ title: 'x' }] } }),
      'n',
      'has a oneOf entry without a string const',
    ],
    [
      'two types',
      form({ n: { type: ['string', 'number'] } }),
      'n',
      'has type ["string","number"], which is not one field type',
    ],
    [
      'a nested object',
      form({ o: { type: 'object', properties: {} } }),
      'o',
      'is a nested object; elicitation schemas are flat',
    ],
    [
      'an array without items',
      form({ l: { type: 'array' } }),
      'l',
      'is an array without items; a multi-select lists its options in items',
    ],
  ])('%s is unreadable, naming the field', (_what, schema, field, reason) => {
    const error = unreadable(schema);
    expect([error.field, error.reason]).toEqual([field, reason]);
  });

  test('what it reads is a copy: the received schema is left as it came', () => {
    const received = form({ tags: { type: 'array', items: { enum: ['a'] } } });
    const before = structuredClone(received);
    readRequestedSchema(received);
    expect(received).toEqual(before);
  });
});
