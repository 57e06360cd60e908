import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType } from '../src/index.ts';
import { expectNotLogged, expectRefused, invalidAnswer } from './fixtures/errors.ts';

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

  test('the issues are not kept as the cause: a library may put the input in them', () => {
    const error = invalidAnswer(() => person.parse({ name: 'Ada', age: 1.5 }));
    expect(error.cause).toBeUndefined();
  });

  test('a message built from the answer is for the person; what may be logged names the field only', () => {
    const compiled = compileResponseType(
      z.object({
        code: z.string().refine((code) => code.startsWith('A'), {
          error: (issue) => `${String(issue.input)} is not an A-code`,
        }),
        pin: z.number().refine((pin) => pin > 9999, {
          error: (issue) => `PIN ${String(issue.input)} is too short`,
        }),
      }),
    );
    const code = expectRefused(
      () => compiled.parse({ code: 'hunter2-4417', pin: 12345 }),
      'code',
      /^does not match the schema$/,
      /^hunter2-4417 is not an A-code$/,
    );
    expectNotLogged(code, 'hunter2');
    const pin = expectRefused(
      () => compiled.parse({ code: 'A-1', pin: 4417 }),
      'pin',
      /^does not match the schema$/,
      /^PIN 4417 is too short$/,
    );
    expectNotLogged(pin, '4417');
  });

  test("a library's message that quotes no answer is kept", () => {
    const compiled = compileResponseType(
      z.object({ code: z.string().refine((code) => code.startsWith('A'), 'must start with A') }),
    );
    expectRefused(
      () => compiled.parse({ code: 'B-17' }),
      'code',
      /^must start with A$/,
      /^must start with A$/,
    );
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
