import type { ElicitationSchema } from '@parley/core';
import { describe, expect, test } from 'vitest';

import { describeFields } from '../src/index.ts';
import { SEP1034_DEFAULTS_SCHEMA, SEP1330_ENUMS_SCHEMA } from './fixtures/conformance.ts';

describe('describeFields on the conformance schemas', () => {
  test('SEP-1330: options get titles whichever way the schema spelled them', () => {
    expect(describeFields(SEP1330_ENUMS_SCHEMA)).toEqual([
      {
        name: 'untitledSingle',
        kind: 'single-select',
        description: 'Select one option',
        required: false,
        options: [
          { value: 'option1', title: 'option1' },
          { value: 'option2', title: 'option2' },
          { value: 'option3', title: 'option3' },
        ],
      },
      {
        name: 'titledSingle',
        kind: 'single-select',
        description: 'Select one option with titles',
        required: false,
        options: [
          { value: 'value1', title: 'First Option' },
          { value: 'value2', title: 'Second Option' },
          { value: 'value3', title: 'Third Option' },
        ],
      },
      {
        name: 'legacyEnum',
        kind: 'single-select',
        description: 'Select one option (legacy)',
        required: false,
        options: [
          { value: 'opt1', title: 'Option One' },
          { value: 'opt2', title: 'Option Two' },
          { value: 'opt3', title: 'Option Three' },
        ],
      },
      {
        name: 'untitledMulti',
        kind: 'multi-select',
        description: 'Select multiple options',
        required: false,
        minItems: 1,
        maxItems: 3,
        options: [
          { value: 'option1', title: 'option1' },
          { value: 'option2', title: 'option2' },
          { value: 'option3', title: 'option3' },
        ],
      },
      {
        name: 'titledMulti',
        kind: 'multi-select',
        description: 'Select multiple options with titles',
        required: false,
        minItems: 1,
        maxItems: 3,
        options: [
          { value: 'value1', title: 'First Choice' },
          { value: 'value2', title: 'Second Choice' },
          { value: 'value3', title: 'Third Choice' },
        ],
      },
    ]);
  });

  test('SEP-1034: kinds, defaults and required', () => {
    const fields = describeFields(SEP1034_DEFAULTS_SCHEMA);
    expect(
      fields.map(({ name, kind, required, default: value }) => [name, kind, required, value]),
    ).toEqual([
      ['name', 'string', false, 'John Doe'],
      ['age', 'integer', false, 30],
      ['score', 'number', false, 95.5],
      ['status', 'single-select', false, 'active'],
      ['verified', 'boolean', false, true],
    ]);
  });

  test('required, formats and bounds are carried over', () => {
    expect(
      describeFields({
        type: 'object',
        properties: {
          email: { type: 'string', title: 'Email', format: 'email', minLength: 3, maxLength: 99 },
          n: { type: 'number', minimum: 0, maximum: 1 },
        },
        required: ['email'],
      }),
    ).toEqual([
      {
        name: 'email',
        kind: 'string',
        title: 'Email',
        required: true,
        format: 'email',
        minLength: 3,
        maxLength: 99,
      },
      { name: 'n', kind: 'number', required: false, minimum: 0, maximum: 1 },
    ]);
  });
});

describe('describeFields is lenient with what real servers send', () => {
  const received = (properties: Record<string, unknown>, extra: object = {}) =>
    ({ type: 'object', properties, ...extra }) as unknown as ElicitationSchema;

  test('ignores keywords outside the subset, and a top-level title', () => {
    expect(
      describeFields(
        received(
          { code: { type: 'string', pattern: '^[A-Z]+$', format: 'uuid', 'x-widget': 'big' } },
          { title: 'Form', additionalProperties: false },
        ),
      ),
    ).toEqual([{ name: 'code', kind: 'string', required: false }]);
  });

  test('takes a titled select without type, items.oneOf, and options without titles', () => {
    expect(
      describeFields(
        received({
          a: { oneOf: [{ const: 'x' }, { const: 'y', title: 'Why' }] },
          b: { type: 'array', items: { oneOf: [{ const: 'p', title: 'P' }] } },
          c: { type: 'array', items: { enum: ['q'] } },
        }),
      ).map((field) => [field.name, field.kind, field.options]),
    ).toEqual([
      [
        'a',
        'single-select',
        [
          { value: 'x', title: 'x' },
          { value: 'y', title: 'Why' },
        ],
      ],
      ['b', 'multi-select', [{ value: 'p', title: 'P' }]],
      ['c', 'multi-select', [{ value: 'q', title: 'q' }]],
    ]);
  });

  test('drops broken labels and defaults instead of refusing the form', () => {
    expect(
      describeFields(
        received(
          {
            s: { type: 'string', enum: ['a', 'b', 'a'], enumNames: ['A'], default: 'z', title: 7 },
            n: { type: 'integer', minimum: 'low', default: 1.5 },
          },
          { required: 'n' },
        ),
      ),
    ).toEqual([
      {
        name: 's',
        kind: 'single-select',
        required: false,
        options: [
          { value: 'a', title: 'a' },
          { value: 'b', title: 'b' },
        ],
      },
      { name: 'n', kind: 'integer', required: false },
    ]);
  });

  test('still refuses fields that cannot be answered, with a TypeError', () => {
    expect(() => describeFields(received({ a: { type: 'object' } }))).toThrow(
      /^describeFields: field 'a' is a nested object/,
    );
    expect(() => describeFields(received({ a: { title: 'no type' } }))).toThrow(
      /^describeFields: field 'a' has type nothing/,
    );
    expect(() => describeFields(received({ a: { type: 'string', enum: [1] } }))).toThrow(
      /options must be strings/,
    );
    expect(() => describeFields({} as ElicitationSchema)).toThrow(/expected type 'object'/);
  });
});
