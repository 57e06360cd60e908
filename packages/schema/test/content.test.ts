import type { ElicitationSchema } from '@parley/core';
import { describe, expect, test } from 'vitest';

import { compileResponseType, createResponseType } from '../src/index.ts';
import { expectNotLogged, expectRefused, invalidAnswer } from './fixtures/errors.ts';

// The answer rules, as both sides apply them to a wire schema: the server's parse and the
// client's builder share one checker and differ only on keys the schema does not have.

const schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    score: { type: 'number', default: 1.5 },
    ok: { type: 'boolean' },
    size: { type: 'string', enum: ['s', 'm', 'l'] },
    level: { type: 'string', oneOf: [{ const: 'lo', title: 'Low' }] },
    tags: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      default: ['a'],
    },
  },
  required: ['name'],
};

const server = compileResponseType(schema);
const client = createResponseType(schema);
const sides = [
  ['server parse', (content: unknown) => server.parse(content)],
  ['client builder', (content: unknown) => client.validate(content as Record<string, unknown>)],
] as const;

describe.each(sides)('%s', (_side, check) => {
  test('accepts a valid answer and fills defaults for what was left out (SEP-1034)', () => {
    expect(check({ name: 'Ada', ok: true, size: 'm', level: 'lo' })).toEqual({
      name: 'Ada',
      score: 1.5,
      ok: true,
      size: 'm',
      level: 'lo',
      tags: ['a'],
    });
  });

  test('a field the answer gives is not replaced by its default', () => {
    expect(check({ name: 'Ada', score: 0, tags: ['b', 'c'] })).toMatchObject({
      score: 0,
      tags: ['b', 'c'],
    });
  });

  test('defaults are copied, so changing one answer cannot change the next', () => {
    const first = check({ name: 'Ada' }) as { tags: string[] };
    first.tags.push('c');
    expect(check({ name: 'Ada' })).toMatchObject({ tags: ['a'] });
  });

  test('refuses a missing required field', () => {
    expectRefused(() => check({ ok: true }), 'name', /^is required$/);
  });

  test('refuses wrong types, naming the field and the kind of value, not the value', () => {
    expectRefused(
      () => check({ name: 42 }),
      'name',
      /^expected a string, got a number$/,
      /^expected a string, got the number 42$/,
    );
    expectRefused(
      () => check({ name: 'Ada', age: '3' }),
      'age',
      /^expected an integer, got a string$/,
      /^expected an integer, got the string "3"$/,
    );
    expectRefused(
      () => check({ name: 'Ada', age: 3.5 }),
      'age',
      /^expected an integer$/,
      /^expected an integer, got the number 3.5$/,
    );
    expectRefused(
      () => check({ name: 'Ada', ok: 'yes' }),
      'ok',
      /^expected true or false, got a string$/,
      /^expected true or false, got the string "yes"$/,
    );
    expectRefused(
      () => check({ name: 'Ada', score: Number.NaN }),
      'score',
      /^expected a finite number$/,
      /^expected a finite number, got NaN$/,
    );
    expectRefused(
      () => check({ name: 'Ada', size: ['s'] }),
      'size',
      /^expected one of 's', 'm', 'l', got an array$/,
    );
  });

  test('refuses null, nested objects and non-string list items (not wire values)', () => {
    expectRefused(() => check({ name: null }), 'name', /null is not an answer/);
    expectRefused(() => check({ name: 'Ada', ok: { yes: true } }), 'ok', /not an object/);
    expectRefused(
      () => check({ name: 'Ada', tags: ['a', 2] }),
      'tags',
      /item 1 is a number$/,
      /item 1 is the number 2$/,
    );
  });

  test('refuses values outside an enum, titled and multi-select included', () => {
    expectRefused(
      () => check({ name: 'Ada', size: 'xl' }),
      'size',
      /^is not one of the options 's', 'm', 'l'$/,
      /^'xl' is not one of/,
    );
    expectRefused(
      () => check({ name: 'Ada', level: 'Low' }),
      'level',
      /^is not one of the options 'lo'$/,
      /^'Low' is not one of the options 'lo'$/,
    );
    expectRefused(
      () => check({ name: 'Ada', tags: ['a', 'z'] }),
      'tags',
      /^item 1 is not one of the options/,
      /^item 1 \('z'\) is not one of the options/,
    );
  });

  test('refuses out-of-range numbers, lengths and list sizes', () => {
    expectRefused(
      () => check({ name: 'Ada', age: -1 }),
      'age',
      /^must be at least 0$/,
      /^must be at least 0, got -1$/,
    );
    expectRefused(() => check({ name: 'Ada', age: 151 }), 'age', /^must be at most 150$/);
    expectRefused(
      () => check({ name: 'A' }),
      'name',
      /^must be at least 2 characters long$/,
      /^must be at least 2 characters long, got 1$/,
    );
    expectRefused(() => check({ name: 'Adaline' }), 'name', /at most 5 characters/);
    expectRefused(
      () => check({ name: 'Ada', tags: [] }),
      'tags',
      /^choose at least 1 option$/,
      /^choose at least 1 option, got 0$/,
    );
    expectRefused(() => check({ name: 'Ada', tags: ['a', 'b', 'c'] }), 'tags', /at most 2 options/);
  });

  test('what may be logged never holds the answer; what the person reads may quote it', () => {
    const secret = 'hunter2-4417';
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Ada', email: secret }, 'email'],
      [{ name: 'Ada', size: secret }, 'size'],
      [{ name: 'Ada', level: secret }, 'level'],
      [{ name: 'Ada', tags: [secret] }, 'tags'],
      [{ name: 'Ada', ok: secret }, 'ok'],
      [{ name: 'Ada', age: secret }, 'age'],
    ];
    for (const [answer, field] of cases) {
      const error = expectRefused(() => check(answer), field);
      expectNotLogged(error, secret);
      expect(error.reasonWithAnswer()).toContain(secret);
    }
    const number = expectRefused(() => check({ name: 'Ada', age: 4417 }), 'age');
    expectNotLogged(number, '4417');
    expect(number.reasonWithAnswer()).toBe('must be at most 150, got 4417');
  });

  test('counts length in characters (code points), as JSON Schema does', () => {
    expect(check({ name: '😀😀😀😀😀' })).toMatchObject({ name: '😀😀😀😀😀' });
    expectRefused(() => check({ name: '😀😀😀😀😀😀' }), 'name', /at most 5/);
  });

  test('checks formats', () => {
    expect(check({ name: 'Ada', email: 'ada@example.com' })).toMatchObject({
      email: 'ada@example.com',
    });
    expectRefused(() => check({ name: 'Ada', email: 'ada' }), 'email', /an email address/);
  });

  test('treats an undefined value as left out', () => {
    expect(check({ name: 'Ada', ok: undefined })).not.toHaveProperty('ok');
  });

  test('returns the fields in schema order', () => {
    expect(Object.keys(check({ ok: false, name: 'Ada' }) as object)).toEqual([
      'name',
      'score',
      'ok',
      'tags',
    ]);
  });
});

describe('content that is not an object of field values', () => {
  test('is an invalid answer on the server, naming no field', () => {
    for (const content of [null, 'Ada', ['Ada'], 42, new Map()]) {
      const error = invalidAnswer(() => server.parse(content));
      expect(error.data?.field).toBeUndefined();
      expect(error.data?.reason).toMatch(/^expected an object of field values, got /);
    }
    expect(invalidAnswer(() => server.parse(new Map())).data?.reason).toMatch(/got a Map$/);
    const text = invalidAnswer(() => server.parse('hunter2-4417'));
    expect(text.data?.reason).toBe('expected an object of field values, got a string');
    expect(text.reasonWithAnswer()).toBe(
      'expected an object of field values, got the string "hunter2-4417"',
    );
  });

  test('is a TypeError in the client builder: the caller passed the wrong thing', () => {
    expect(() => client.validate(['Ada'] as never)).toThrow(
      /^createResponseType: expected an object of field values, got an array \(the fields are 'name', 'email'/,
    );
  });
});

describe('keys the schema does not have', () => {
  test('are dropped by the server: the author never sees them', () => {
    const content: unknown = JSON.parse('{"name":"Ada","nickname":"A","__proto__":{"x":1}}');
    expect(server.parse(content)).toEqual({ name: 'Ada', score: 1.5, tags: ['a'] });
  });

  test('are refused by the client builder: a misspelt field fails before it is sent', () => {
    expectRefused(
      () => client({ nmae: 'Ada' }),
      'nmae',
      /is not a field of the requested schema; its fields are 'name', 'email'/,
    );
  });
});

describe('awkward field names', () => {
  test('__proto__ and constructor are ordinary fields', () => {
    const odd = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"]}',
    ) as ElicitationSchema;
    const compiled = compileResponseType(odd);
    const answer = compiled.parse(JSON.parse('{"__proto__":"x","constructor":1}'));
    expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
    expect(Object.keys(answer)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(answer, '__proto__')?.value).toBe('x');
    expectRefused(() => compiled.parse({ constructor: 1 }), '__proto__', /is required/);
  });
});
