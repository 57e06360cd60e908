import type { ElicitationSchema } from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType, createResponseType } from '../src/index.ts';
import { expectRefused } from './fixtures/errors.ts';
import { SEP1034_DEFAULTS_SCHEMA, SEP1330_ENUMS_SCHEMA } from './fixtures/conformance.ts';

describe('createResponseType on the SEP-1034 defaults schema', () => {
  const responseType = createResponseType(SEP1034_DEFAULTS_SCHEMA);

  test('accepting with nothing filled in sends every default (client-elicitation-sep1034-*)', () => {
    expect(responseType({})).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
  });

  test('what the user changed wins over the default', () => {
    expect(responseType({ age: 41, status: 'pending' }).content).toEqual({
      name: 'John Doe',
      age: 41,
      score: 95.5,
      status: 'pending',
      verified: true,
    });
  });

  test('an invalid value throws, naming the field', () => {
    expectRefused(() => responseType({ age: 41.5 }), 'age', /expected an integer/);
    expectRefused(() => responseType({ status: 'archived' }), 'status', /not one of the options/);
    expectRefused(() => responseType({ verified: 'true' }), 'verified', /true or false/);
  });

  test('exposes the schema and the fields a renderer walks', () => {
    expect(responseType.requestedSchema).toBe(SEP1034_DEFAULTS_SCHEMA);
    expect(responseType.fields.map((field) => field.name)).toEqual([
      'name',
      'age',
      'score',
      'status',
      'verified',
    ]);
  });
});

describe('createResponseType on the SEP-1330 enums schema', () => {
  const responseType = createResponseType(SEP1330_ENUMS_SCHEMA);

  test('accepts one value of each variant, answered by value (never by title)', () => {
    const answer = {
      untitledSingle: 'option2',
      titledSingle: 'value1',
      legacyEnum: 'opt3',
      untitledMulti: ['option1', 'option3'],
      titledMulti: ['value2'],
    };
    expect(responseType(answer)).toEqual({ action: 'accept', content: answer });
  });

  test('refuses titles in place of values, and lists outside minItems/maxItems', () => {
    expectRefused(() => responseType({ titledSingle: 'First Option' }), 'titledSingle');
    expectRefused(() => responseType({ legacyEnum: 'Option One' }), 'legacyEnum');
    expectRefused(() => responseType({ titledMulti: ['First Choice'] }), 'titledMulti');
    expectRefused(() => responseType({ untitledMulti: [] }), 'untitledMulti', /at least 1/);
  });

  test('every field is optional, so an empty answer is valid', () => {
    expect(responseType.validate({})).toEqual({});
  });
});

describe('the builder', () => {
  const booking: ElicitationSchema = {
    type: 'object',
    properties: { destination: { type: 'string' }, date: { type: 'string', format: 'date' } },
    required: ['destination'],
  };

  test("responseType({ destination: 'Paris' }) returns validated content", () => {
    expect(createResponseType(booking)({ destination: 'Paris' })).toEqual({
      action: 'accept',
      content: { destination: 'Paris' },
    });
  });

  test('refuses keys the schema does not have (a misspelt field name)', () => {
    expectRefused(
      () => createResponseType(booking)({ destinaton: 'Paris' }),
      'destinaton',
      /not a field of the requested schema; its fields are 'destination', 'date'/,
    );
  });

  test('wraps a bare value when the schema is a single `value` wrapper', () => {
    const confirm = createResponseType(compileResponseType(Boolean).requestedSchema);
    expect(confirm(true)).toEqual({ action: 'accept', content: { value: true } });
    expect(confirm({ value: false })).toEqual({ action: 'accept', content: { value: false } });
    const tags = createResponseType(compileResponseType([['bug', 'docs']]).requestedSchema);
    expect(tags(['docs'])).toEqual({ action: 'accept', content: { value: ['docs'] } });
    expectRefused(() => tags(['nope']), 'value');
  });

  test('refuses a bare value for a schema with named fields, with a TypeError', () => {
    expect(() => createResponseType(booking)('Paris')).toThrow(
      /^createResponseType: expected an object of field values, got the string "Paris" \(the fields are 'destination', 'date'\)\.$/,
    );
  });

  test('answers an approve-only schema with empty content', () => {
    expect(createResponseType({ type: 'object', properties: {} })({})).toEqual({
      action: 'accept',
      content: {},
    });
  });

  test('hands out a copy of the fields, so a renderer cannot change what is accepted', () => {
    const responseType = createResponseType(booking);
    const [destination] = responseType.fields;
    if (destination) destination.required = false;
    expectRefused(() => responseType({}), 'destination', /is required/);
  });

  test('refuses a schema whose fields cannot be answered, under its own name', () => {
    expect(() =>
      createResponseType({
        type: 'object',
        properties: { address: { type: 'object' } },
      } as unknown as ElicitationSchema),
    ).toThrow(/^createResponseType: field 'address' is a nested object/);
  });
});

describe('round trip: author compiles, client answers, author parses', () => {
  const roundTrip = <T>(
    compiled: { requestedSchema: ElicitationSchema; parse(c: unknown): T },
    values: Record<string, unknown> | string | boolean | number | string[],
  ): T => compiled.parse(createResponseType(compiled.requestedSchema)(values).content);

  test('scalars, selects and objects arrive as the author typed them', () => {
    expect(roundTrip(compileResponseType(Number), 3)).toBe(3);
    expect(roundTrip(compileResponseType({ a: { title: 'A' }, b: { title: 'B' } }), 'b')).toBe('b');
    expect(
      roundTrip(
        compileResponseType(
          z.object({
            when: z.iso.date(),
            seats: z.int().min(1).default(2),
            notes: z.string().optional(),
          }),
        ),
        { when: '2026-08-01' },
      ),
    ).toEqual({ when: '2026-08-01', seats: 2 });
  });
});
