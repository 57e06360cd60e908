import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType } from '../src/index.ts';
import { expectRefused, invalidAnswer } from './fixtures/errors.ts';

describe('answers are validated by the library itself (zod here; valibot and ArkType in their own files)', () => {
  const person = compileResponseType(
    z.object({
      name: z.string(),
      tags: z.array(z.enum(['a', 'b'])).optional(),
      age: z.number().int().optional(),
    }),
  );

  test('a missing required field reads "is required", not zod\'s type message', () => {
    expectRefused(() => person.parse({}), 'name', /^is required$/);
  });

  test("a wrong value carries zod's message and the field", () => {
    const error = invalidAnswer(() => person.parse({ name: 'Ada', age: 1.5 }));
    expect(error.data).toEqual({ field: 'age', reason: expect.stringMatching(/int/i) });
    expect(error.message).toMatch(/^Invalid answer in field 'age': /);
  });

  test('a problem inside a list says which item', () => {
    expectRefused(() => person.parse({ name: 'Ada', tags: ['a', 'c'] }), 'tags', /\(at item 1\)$/);
  });

  test('the zod issues are kept as the cause', () => {
    const error = invalidAnswer(() => person.parse({ name: 1 }));
    expect(error.cause).toEqual([
      expect.objectContaining({ code: 'invalid_type', path: ['name'] }),
    ]);
  });

  test('wrapped response types name the wrapper field', () => {
    const compiled = compileResponseType(z.array(z.enum(['x', 'y'])).max(1));
    expectRefused(() => compiled.parse({ value: ['x', 'y'] }), 'value', /1/);
    expectRefused(() => compiled.parse({ value: ['z'] }), 'value', /\(at item 0\)/);
    expectRefused(() => compiled.parse({}), 'value', /^is required$/);
  });

  test('an optional or defaulted wrapped type may be left out', () => {
    const optional = compileResponseType(z.string().optional());
    expect(optional.requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'string' } },
    });
    expect(optional.parse({})).toBeUndefined();
    const defaulted = compileResponseType(z.number().default(3));
    expect(defaulted.requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'number', default: 3 } },
    });
    expect(defaulted.parse(undefined)).toBe(3);
  });

  test('object-level refinements name the field their path points at, or none', () => {
    const compiled = compileResponseType(
      z
        .object({ password: z.string(), confirm: z.string() })
        .refine((v) => v.password === v.confirm, { message: 'does not match', path: ['confirm'] })
        .refine((v) => v.password !== 'x', { message: 'too weak' }),
    );
    expectRefused(
      () => compiled.parse({ password: 'a', confirm: 'b' }),
      'confirm',
      /does not match/,
    );
    expectRefused(() => compiled.parse({ password: 'x', confirm: 'x' }), undefined, /too weak/);
  });

  test('unknown keys are dropped before zod sees them, even for a strict object', () => {
    const compiled = compileResponseType(z.strictObject({ a: z.string() }));
    expect(compiled.parse({ a: 'x', extra: 1 })).toEqual({ a: 'x' });
  });

  test('fields named like Object.prototype members are ordinary fields', () => {
    const compiled = compileResponseType(
      z.object({ toString: z.string().optional(), constructor: z.string() }),
    );
    expectRefused(() => compiled.parse({}), 'constructor', /^is required$/);
    const data = compiled.parse({ constructor: 'x' });
    expect(data).toEqual({ constructor: 'x' });
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });

  test('wire shape is checked first: null, nested objects and non-string list items', () => {
    expectRefused(() => person.parse({ name: null }), 'name', /null is not an answer/);
    expectRefused(() => person.parse({ name: { first: 'A' } }), 'name', /not an object/);
    expectRefused(() => person.parse({ name: 'A', tags: ['a', 1] }), 'tags', /item 1/);
  });

  test('async refinements are a TypeError: answers are parsed synchronously', () => {
    const compiled = compileResponseType(z.string().refine(async () => true));
    expect(() => compiled.parse({ value: 'x' })).toThrow(
      /^CompiledResponseType\.parse: the schema has an async refinement/,
    );
  });
});
