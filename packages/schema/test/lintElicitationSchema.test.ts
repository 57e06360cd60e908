import type { ElicitationSchema } from '@parley/core';
import { describe, expect, test } from 'vitest';

import { compileResponseType, lintElicitationSchema } from '../src/index.ts';
import { SEP1034_DEFAULTS_SCHEMA, SEP1330_ENUMS_SCHEMA } from './fixtures/conformance.ts';

const codes = (schema: ElicitationSchema) =>
  lintElicitationSchema(schema).map(({ code, field }) => (field ? `${code}:${field}` : code));

describe('lintElicitationSchema', () => {
  test('is quiet about well-formed, labelled schemas', () => {
    expect(lintElicitationSchema(SEP1034_DEFAULTS_SCHEMA)).toEqual([]);
    expect(lintElicitationSchema(SEP1330_ENUMS_SCHEMA)).toEqual([]);
    expect(
      lintElicitationSchema(
        compileResponseType(String, { responseTitle: 'Your name' }).requestedSchema,
      ),
    ).toEqual([]);
  });

  test('warns about a top-level title', () => {
    const schema = { type: 'object', title: 'Form', properties: { a: { type: 'string' } } };
    const [warning] = lintElicitationSchema(schema as ElicitationSchema);
    expect(warning).toEqual({
      code: 'top-level-title',
      message: expect.stringMatching(/top-level title/),
    });
  });

  test('warns about a form with nothing to render (null response types included)', () => {
    expect(codes(compileResponseType(null).requestedSchema)).toEqual(['nothing-to-render']);
  });

  test('warns about fields that look like secrets, by name or title', () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: {
        password: { type: 'string' },
        apiKey: { type: 'string' },
        API_KEY2: { type: 'string' },
        githubToken: { type: 'string' },
        cardNumber: { type: 'string' },
        credentials: { type: 'string' },
        other: { type: 'string', title: 'Your secret key' },
        maxTokens: { type: 'integer' },
        keyboard: { type: 'string' },
        passport: { type: 'string' },
        tokenizer: { type: 'string' },
      },
    };
    expect(codes(schema)).toEqual([
      'secret-field:password',
      'secret-field:apiKey',
      'secret-field:API_KEY2',
      'secret-field:githubToken',
      'secret-field:cardNumber',
      'secret-field:credentials',
      'secret-field:other',
    ]);
    expect(lintElicitationSchema(schema)[0]?.message).toMatch(/URL-mode elicitation/);
  });

  test('warns about a wrapper field left with a generic label, and about generic titles', () => {
    expect(codes(compileResponseType(Boolean).requestedSchema)).toEqual(['generic-label:value']);
    expect(
      codes(compileResponseType(['a', 'b'], { responseTitle: 'Value' }).requestedSchema),
    ).toEqual(['generic-label:value']);
    expect(
      codes({ type: 'object', properties: { city: { type: 'string', title: 'Input' } } }),
    ).toEqual(['generic-label:city']);
    expect(lintElicitationSchema(compileResponseType(Number).requestedSchema)[0]?.message).toMatch(
      /responseTitle/,
    );
  });
});
